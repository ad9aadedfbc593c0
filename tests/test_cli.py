"""The one command-line contract (analysis/cli.py) of every analysis and plot module: a
missing flag or config value is a usage error that names it (exit status 2), and --params
must be a JSON object."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

import pytest

from analysis import cli

T, N, X = ["--tidy", "t.csv"], ["--numbers", "n.csv"], ["--extra", "x"]
PLOT = ["--tidy", "t.csv", "--originals", "o.yaml"]

# (module, argv, what the message must name)
CASES = [
    ("analysis.floyd1991", ["fig02", *N], "--tidy"),
    ("analysis.floyd1991", ["claims", *T, *N], "--claims, --inputs"),
    ("analysis.gao", ["fig02", *T], "--numbers"),
    (
        "analysis.gao",
        ["claims", *T, *N, "--claims", "c.csv", "--inputs", "i.csv"],
        "'parameters.F.value' in --params",
    ),
    ("analysis.akella2002", ["fig05", *T, *N], "--extra"),
    ("analysis.akella2002", ["fig05", *T, *N, *X], "--runs"),
    ("analysis.akella2002", ["hybrid", *T, *N, *X], "'parameters.pkt_size.value' in --params"),
    ("analysis.akella2002", ["claims", *T, *N, *X], "--claims"),
    ("analysis.tang", ["exp1", *T, *N, *X], "--runs"),
    ("analysis.tang", ["exp1", "--runs", "r", *T, *N], "--extra"),
    ("analysis.tang", ["theory", *T, *X], "--numbers"),
    ("analysis.tang", ["claims", *T, *N, *X], "--inputs, --claims"),
    ("analysis.misra.__main__", ["fig01", *T, *N, *X], "--runs"),
    ("analysis.misra.__main__", ["theory", *N], "--claims"),
    ("analysis.misra.__main__", ["theory", *N, "--claims", "c.csv"], "'experiments' in --params"),
    ("analysis.misra.__main__", ["claims", *N, "--claims", "c.csv", *X], "--tidy"),
    ("analysis.plots.floyd1991", ["fig02", *PLOT, "--tex", "f.tex"], "--pdf"),
    ("analysis.plots.gao", ["fig02", *PLOT, "--tex", "f.tex"], "--pdf"),
    ("analysis.plots.gao", ["table1", "--tidy", "t.csv"], "--originals, --tex"),
    ("analysis.plots.akella2002", ["fig05", *PLOT, "--tex", "f.tex"], "--pdf"),
    (
        "analysis.plots.akella2002",
        ["tables", "--originals", "o.yaml"],
        "--searches-tex, --settings-tex",
    ),
    ("analysis.plots.tang", ["fig09", *PLOT, "--pdf", "f.pdf", "--tex", "f.tex"], "--extra"),
    ("analysis.plots.tang", ["table1", *PLOT], "--tex"),
    ("analysis.plots.misra", ["fig01", *PLOT, "--tex", "f.tex"], "--pdf"),
    ("analysis.plots.misra", ["errors", "--tidy", "t.csv"], "--tex"),
]


@pytest.mark.parametrize(("module", "argv", "missing"), CASES)
def test_a_missing_flag_is_named(
    module: str, argv: list[str], missing: str, capsys: pytest.CaptureFixture[str]
) -> None:
    main = importlib.import_module(module).main
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert f"needs {missing}" in capsys.readouterr().err


@pytest.mark.parametrize("module", ["analysis.gao", "analysis.plots.floyd1991"])
def test_params_must_be_a_json_object(module: str, capsys: pytest.CaptureFixture[str]) -> None:
    main = importlib.import_module(module).main
    for bad, message in (("{not json", "--params is not JSON"), ("[1, 2]", "a JSON object")):
        with pytest.raises(SystemExit) as e:
            main(["fig02", "--params", bad, *T])
        assert e.value.code == 2
        assert message in capsys.readouterr().err


def test_helpers() -> None:
    ap = cli.analysis_parser("p", "d", ["s"])
    a = cli.parse(ap, ["s", "--params", '{"k": 3}', "--runs", "r1/summary.json", "r2"])
    assert cli.param(ap, a, "k") == 3
    assert cli.run_dirs(a.runs) == [Path("r1"), Path("r2")]
    with pytest.raises(argparse.ArgumentTypeError):
        cli.params_json("3")
