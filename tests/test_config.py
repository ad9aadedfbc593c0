"""Bad input stops before any simulation, with one message naming the key."""

import copy
import subprocess
import sys
from pathlib import Path

import pytest

from analysis import config as ccr


def test_shipped_config_is_valid(cfg: dict) -> None:
    ccr.validate(cfg)
    runs = ccr.runs(cfg, "floyd1991", "fig02", "quick")
    assert [r.run_id for r in runs][:2] == ["n1_s1", "n2_s1"]
    assert all(r.params["seed"] == 1 for r in runs)


def _broken(cfg: dict, edit) -> str:  # type: ignore[no-untyped-def]
    c = copy.deepcopy(cfg)
    edit(c)
    with pytest.raises(ccr.ConfigError) as e:
        ccr.validate(c)
    return str(e.value)


def test_unknown_fidelity(cfg: dict) -> None:
    msg = _broken(cfg, lambda c: c.update(fidelity="fast"))
    assert "'fidelity'" in msg and "'smoke', 'quick', 'paper'" in msg


def test_unknown_top_level_key(cfg: dict) -> None:
    msg = _broken(cfg, lambda c: c.update(fidellity="quick"))
    assert "fidellity" in msg and "allowed keys" in msg


def test_negative_capacity(cfg: dict) -> None:
    def edit(c: dict) -> None:
        c["floyd1991"]["parameters"]["gw_bw"]["value"] = -1.5e6

    msg = _broken(cfg, edit)
    assert "floyd1991.parameters.gw_bw" in msg and "a number > 0" in msg


def test_wrong_type(cfg: dict) -> None:
    def edit(c: dict) -> None:
        c["floyd1991"]["experiments"]["fig02"]["set"]["window_extra"] = "ten"

    msg = _broken(cfg, edit)
    assert "fig02.set.window_extra" in msg and "an integer" in msg


def test_bad_enum_value(cfg: dict) -> None:
    def edit(c: dict) -> None:
        c["floyd1991"]["experiments"]["fig02"]["set"]["tcp"] = "cubic"

    msg = _broken(cfg, edit)
    assert "tcp" in msg and "tahoe, reno, newreno, sack" in msg


def test_unknown_sweep_parameter(cfg: dict) -> None:
    def edit(c: dict) -> None:
        c["floyd1991"]["experiments"]["fig02"]["fidelity"]["paper"]["sweep"]["nn"] = [1]

    msg = _broken(cfg, edit)
    assert "unknown parameter 'nn'" in msg and "fidelity.paper.sweep.nn" in msg


def test_assumed_parameter_needs_reason(cfg: dict) -> None:
    def edit(c: dict) -> None:
        del c["floyd1991"]["parameters"]["start_max"]["reason"]

    assert "reason" in _broken(cfg, edit)


def test_unused_paper_parameter(cfg: dict) -> None:
    def edit(c: dict) -> None:
        c["floyd1991"]["parameters"]["gw_bandwidth"] = {"value": 1, "status": "stated"}

    assert "gw_bandwidth" in _broken(cfg, edit)


def test_assumed_list(cfg: dict) -> None:
    names = [a[0] for a in ccr.assumed(cfg, "floyd1991")]
    assert "access_bw" in names and "gw_buffer" not in names


def test_snakemake_stops_before_running(root: Path, tmp_path: Path) -> None:
    """The workflow refuses a bad config with the message, scheduling nothing."""
    smk = Path(sys.executable).with_name("snakemake")
    p = subprocess.run(
        [str(smk), "-n", "--config", "fidelity=fast"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode != 0
    assert "'fidelity' = 'fast' is not allowed" in p.stderr
    assert "Job stats" not in p.stdout + p.stderr
