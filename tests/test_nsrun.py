"""ns runs through analysis.nsrun: complete output or none that looks complete;
key=value parsing in the Tcl library; byte-identical results for the same seed."""

import subprocess
from pathlib import Path

import pytest

from analysis import config as ccr
from analysis import nsio, nsrun

SCRIPT = ccr.tcl_script("floyd1991", "gateways")


@pytest.fixture(scope="module")
def params(cfg: dict) -> dict:
    p = dict(ccr.runs(cfg, "floyd1991", "fig02", "smoke")[0].params)
    p.update(duration=20, period=10)
    return p


def test_complete_run(ns_binary: Path, params: dict, tmp_path: Path) -> None:
    out = tmp_path / "run"
    summary = nsrun.run(ns_binary, SCRIPT, out, params)
    assert summary["complete"] is True
    assert summary["params"]["n"] == params["n"] and "out" not in summary["params"]
    _, tables = nsio.read_run(out)
    assert len(tables["goodput"]) == 2  # two 10-s periods, one connection
    assert not list(tmp_path.glob("*.failed"))


def test_failed_run_leaves_nothing_complete(ns_binary: Path, params: dict, tmp_path: Path) -> None:
    out = tmp_path / "run"
    bad = {**params, "gateway": "wfq"}
    with pytest.raises(nsrun.NsRunError, match="exit status 2"):
        nsrun.run(ns_binary, SCRIPT, out, bad)
    assert not out.exists()
    failed = tmp_path / "run.failed"
    assert not (failed / "summary.json").exists()
    assert "gateway" in (failed / "ns.log").read_text()


def test_killed_run_leaves_nothing_complete(ns_binary: Path, params: dict, tmp_path: Path) -> None:
    out = tmp_path / "run"
    long = {**params, "duration": 100000, "n": 10}
    with pytest.raises(nsrun.NsRunError, match="timeout"):
        nsrun.run(ns_binary, SCRIPT, out, long, timeout=0.5)
    assert not out.exists()
    assert not list((tmp_path / "run.failed").glob("*.tsv"))  # only .partial files
    assert list((tmp_path / "run.failed").glob("*.partial"))
    # rerunning the same folder starts clean and completes
    nsrun.run(ns_binary, SCRIPT, out, params)
    assert (out / "summary.json").is_file() and not (tmp_path / "run.failed").exists()


def test_same_seed_same_bytes(ns_binary: Path, params: dict, tmp_path: Path) -> None:
    p = {**params, "active": "all", "n": 3}
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    nsrun.run(ns_binary, SCRIPT, a, p)
    nsrun.run(ns_binary, SCRIPT, b, p)
    nsrun.run(ns_binary, SCRIPT, c, {**p, "seed": p["seed"] + 1})
    for name in ("summary.json", "goodput.tsv", "gateways.tsv"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert (a / "gateways.tsv").read_bytes() != (c / "gateways.tsv").read_bytes()


def _ns(ns_binary: Path, args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(ns_binary), str(SCRIPT), *args], capture_output=True, text=True, timeout=60
    )


def _args(params: dict, **change: object) -> list[str]:
    p = {**params, **change, "out": "/nonexistent/never-written", "ns_id": "test"}
    return [f"{k}={nsrun.format_value(v)}" for k, v in p.items()]


def test_tcl_rejects_unknown_parameter(ns_binary: Path, params: dict) -> None:
    r = _ns(ns_binary, [*_args(params), "bogus=1"])
    assert r.returncode == 2 and "unknown parameter 'bogus'" in r.stderr


def test_tcl_rejects_missing_parameter(ns_binary: Path, params: dict) -> None:
    r = _ns(ns_binary, [a for a in _args(params) if not a.startswith("gw_bw=")])
    assert r.returncode == 2 and "missing parameter(s): gw_bw" in r.stderr


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"gw_bw": -1}, "'gw_bw' = '-1' is not a number > 0"),
        ({"tcp": "cubic"}, "is not one of: tahoe, reno, newreno, sack"),
        ({"n": 2.5}, "is not an integer > 0"),
        ({"red_thresh": 30}, "must be below red_maxthresh"),
        ({"seed": 0}, "'seed' = '0' is not an integer > 0"),
    ],
)
def test_tcl_rejects_bad_values(ns_binary: Path, params: dict, change: dict, message: str) -> None:
    r = _ns(ns_binary, _args(params, **change))
    assert r.returncode == 2 and message in r.stderr
