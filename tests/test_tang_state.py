"""Table 1 over the runs that end in their start order's state (analysis/tang_state.py): which
runs are kept, the check values (one input where the diagnosis holds, one where it fails) and
the step from the command line."""

import math
from pathlib import Path

import pandas as pd
import pytest

from analysis import compare, diagnosis, tang
from analysis import tang_state as ts

ROOT = Path(__file__).resolve().parent.parent
ORIGINALS = ROOT / "config/originals/tang.yaml"
ROWS = {p.key: p for p in compare.load_originals(ORIGINALS)}
PUBLISHED = {key: p.published for key, p in ROWS.items()}
#: Table 1's paths (path 3 carries the Reno flows)
PATHS = ("path1_fast", "path2_fast", "path3_reno")
#: per start order, the link utilisations of its own state and of the other one
UTILS = {
    "long": {"own": (0.98, 0.83, 0.98), "other": (0.70, 0.99, 0.60)},
    "short": {"own": (0.70, 0.99, 0.60), "other": (0.98, 0.83, 0.98)},
}


def _run(first: str, seed: int, state: str, rates: tuple[float, float, float]) -> list[dict]:
    """One FAST run's rows of Experiment 1's window table: three path groups, three links."""
    base = {"short_tcp": "fast", "first": first, "alpha_unit": "packets", "n_long": 8,
            "k13": 10000, "k2": 100, "alpha": 50, "seed": seed}  # fmt: skip
    rows = [
        {**base, "what": "group", "idx": i + 1, "protocol": proto, "mbps": r}
        for i, (proto, r) in enumerate(zip(("fast", "fast", "reno"), rates, strict=True))
    ]
    rows += [
        {**base, "what": "link", "idx": i + 1, "util": u} for i, u in enumerate(UTILS[first][state])
    ]
    return rows


def _table(reno_first_sd: float, flips: int) -> pd.DataFrame:
    """30 runs per order. The Reno-first runs in their state vary around the published means
    by ``reno_first_sd`` times the published s.d. (alternately above and below); the first
    ``flips`` of them end in the other state instead."""
    rows = []
    for first, scen in (("short", "fast_first"), ("long", "reno_first")):
        means = [PUBLISHED[f"table1.{scen}.{path}.mean"] for path in PATHS]
        sds = [PUBLISHED[f"table1.{scen}.{path}.sd"] for path in PATHS]
        scale = reno_first_sd if first == "long" else 0.5
        for seed in range(1, 31):
            sign = 1 if seed % 2 else -1
            rates = tuple(m + sign * scale * s for m, s in zip(means, sds, strict=True))
            state = "other" if first == "long" and seed <= flips else "own"
            if state == "other":
                rates = (85.0, 60.0, 0.7)  # the FAST-first state's rates
            rows += _run(first, seed, state, rates)  # type: ignore[arg-type]
    return pd.DataFrame(rows)


def _outcome(key: str, numbers: dict[str, float]) -> str:
    (d,) = [d for d in diagnosis.load(ROOT / "config/diagnoses/tang.yaml") if d.key == key]
    return diagnosis.check_outcome(
        d, lambda v: compare.verdict(ROWS[key], v), repr(numbers[d.check]), PUBLISHED[key]
    )


def test_only_the_runs_in_their_orders_state_are_kept() -> None:
    w = _table(0.5, flips=4)
    kept = ts.runs_in_state(w)
    seeds = kept[kept["first"] == "long"]["seed"].unique()
    assert sorted(seeds) == list(range(5, 31))
    assert kept[kept["first"] == "short"]["seed"].nunique() == 30
    with pytest.raises(ValueError, match="no runs"):
        ts.runs_in_state(w[w["what"] == "group"])


def test_the_diagnosis_holds_where_the_runs_in_the_state_spread_as_the_papers() -> None:
    tidy, numbers = ts.state_checks(_table(1.2, flips=4), PUBLISHED)
    assert numbers["check.table1.reno_first.runs"] == 30
    assert numbers["check.table1.reno_first.runs_in_state"] == 26
    assert int(tidy["in_state"].sum()) == 56
    for path in PATHS:
        key = f"table1.reno_first.{path}.sd"
        # 26 runs at the published mean plus or minus 1.2 published s.d.: the sample s.d. is
        # 1.2 sqrt(26 / 25) published s.d., within the row's tolerance (rel 0.5)
        assert numbers[f"check.{key}.in_state"] == pytest.approx(
            1.2 * math.sqrt(26 / 25) * PUBLISHED[key], rel=1e-9
        )
        assert _outcome(key, numbers) == "holds"
    # over all 30 runs (the primary row) the flips make the spread far larger
    all_runs = tang.table_numbers("exp1", _table(1.2, 4))
    assert (
        all_runs["table1.reno_first.path3_reno.sd"]
        > 10 * PUBLISHED["table1.reno_first.path3_reno.sd"]
    )


@pytest.mark.parametrize("scale", [1.6, 0.3])
def test_the_diagnosis_fails_where_the_runs_in_the_state_spread_otherwise(scale: float) -> None:
    """Far more (1.6 times) or far less (0.3 times) spread than the paper's, within the state:
    the flips are not what separates the row from the paper's."""
    _, numbers = ts.state_checks(_table(scale, flips=4), PUBLISHED)
    for path in PATHS:
        key = f"table1.reno_first.{path}.sd"
        assert numbers[f"check.{key}.in_state"] == pytest.approx(
            scale * math.sqrt(26 / 25) * PUBLISHED[key], rel=1e-9
        )
        assert _outcome(key, numbers) == "fails"


def test_the_step_from_the_command_line(tmp_path: Path) -> None:
    table = tmp_path / "exp1" / "paper" / "tidy.csv"
    table.parent.mkdir(parents=True)
    _table(0.5, flips=2).to_csv(table, index=False)
    out = tmp_path / "out"
    argv = [
        ts.STEP, "--inputs", str(table), "--tidy", str(out / "tidy.csv"),
        "--numbers", str(out / "numbers.csv"), "--extra", str(out / "extra"),
        "--originals", str(ORIGINALS),
    ]  # fmt: skip
    assert ts.main(argv) == 0
    numbers = pd.read_csv(out / "numbers.csv").set_index("key")["value"]
    assert numbers["check.table1.reno_first.runs_in_state"] == 28
    assert not math.isnan(numbers[f"check.table1.reno_first.path3_reno.sd.{ts.SUFFIX}"])
    other = tmp_path / "exp2" / "paper" / "tidy.csv"
    other.parent.mkdir(parents=True)
    other.write_text("x\n")
    with pytest.raises(SystemExit):
        ts.main([*argv[:1], "--inputs", str(other), *argv[3:]])  # not exp1's table


def test_the_spread_of_the_summed_rate_of_the_paths_on_link_1() -> None:
    """Paths 1 and 3 trading the same Mb/s: their sum does not vary; a third path's rate is
    not in the sum; sums of 100 and 104 Mb/s over two runs: s.d. 2 sqrt(2)."""
    traded = [
        row
        for seed, x in ((1, 15.0), (2, 18.0), (3, 16.5))
        for row in _run("long", seed, "own", (x, 40.0 + seed, 107.0 - x))
    ]
    assert ts.summed_rate_sd(pd.DataFrame(traded), "long", ts.SHARED_LINK1) == pytest.approx(0.0)
    two = _run("long", 1, "own", (10.0, 5.0, 90.0)) + _run("long", 2, "own", (14.0, 9.0, 90.0))
    got = ts.summed_rate_sd(pd.DataFrame(two), "long", ts.SHARED_LINK1)
    assert got == pytest.approx(2 * math.sqrt(2))
    assert math.isnan(ts.summed_rate_sd(pd.DataFrame(two[:6]), "long", ts.SHARED_LINK1))
    _, numbers = ts.state_checks(_table(1.2, flips=4), PUBLISHED)
    assert ts.SUM_SD in numbers
