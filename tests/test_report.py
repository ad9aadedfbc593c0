"""The report layer: the headline counts only the papers' results, and the per-experiment
overrides (including what a fidelity level shortens) are listed."""

from __future__ import annotations

import copy
import subprocess
from pathlib import Path

import pytest

from analysis import config as conf
from analysis import diagnosis as dg
from analysis import latex, rederive, reference, report
from analysis.akella2002_search import PointRunner
from analysis.compare import Row


def _tiny() -> dict:
    return {
        "gao": {
            "parameters": {
                "duration": {"value": 100, "status": "stated"},
                "rate": {"value": 2, "status": "assumed", "reason": "not stated"},
            },
            "experiments": {
                "sim1": {
                    "set": {"duration": 5000, "rate": 2},
                    "fidelity": {
                        "paper": {"seeds": [1, 2, 3], "sweep": {"s": [1, 2, 3, 4, 5, 6]}},
                        "quick": {
                            "seeds": [1],
                            "set": {"duration": 500},
                            "sweep": {"s": [2, 4, 6]},
                        },
                    },
                },
                "sim2": {"fidelity": {"paper": {"seeds": [1]}, "quick": {"seeds": [1]}}},
            },
        }
    }


def test_overrides_list_experiment_values_and_what_quick_shortens() -> None:
    got = [
        (o.experiment, o.name, o.default, o.value, o.where)
        for o in conf.overrides(_tiny(), "gao", "quick")
    ]
    assert got == [
        ("sim1", "duration", 100, 5000, "experiment"),  # rate = 2 equals the default: not listed
        ("sim1", "duration", 5000, 500, "quick"),
        ("sim1", "seeds (runs per point)", 3, 1, "quick"),
        ("sim1", "s (sweep)", [1, 2, 3, 4, 5, 6], [2, 4, 6], "quick"),
    ]
    # at paper fidelity only the experiment's own values remain
    assert [o.where for o in conf.overrides(_tiny(), "gao", "paper")] == ["experiment"]
    tex = report.overrides_tex(conf.overrides(_tiny(), "gao", "quick"))
    assert "sim1 & duration & 5000 & 500 & quick fidelity only" in tex
    assert "6 values 1..6" in tex
    same = copy.deepcopy(_tiny())
    del same["gao"]["experiments"]["sim1"]
    assert report.overrides_tex(conf.overrides(same, "gao", "quick")).startswith(
        "No experiment overrides"
    )


def _row(paper: str, cls: str, verdict: str, key: str = "k") -> Row:
    return Row(paper, key, "s", "1", "2", "", "abs 0", verdict, cls)


def _diagnosed(key: str, cls: str, kind: str, check: str, value: str) -> Row:
    """An off gao row (published 1, ours 2) with a diagnosis of ``kind`` whose check gave
    ``value`` and ``check`` (holds, fails)."""
    return Row("gao", key, "s", "1", "2", "", "abs 0", "off", cls, kind, check, value)


def test_headline_counts_only_the_papers_results() -> None:
    rows = [
        _row("gao", "published-result", "ok"),
        _row("gao", "published-result", "off", "t1"),
        _row("gao", "published-analytical", "missing"),
        _row("gao", "stated-parameter", "ok"),
        _row("gao", "derived", "ok"),
        _row("gao", "calibrated", "off", "t2"),
        _row("tang", "published-result", "ok"),  # not in this report
    ]
    summary = report.summary_tex(rows, ["gao", "tang"])
    assert r"\texttt{gao} & 1 & 1 & 0 & 0 & 0 & 1 & 3 \\" in summary
    assert r"all & 2 & 1 & 0 & 0 & 0 & 1 & 3 \\" in summary


def test_status_counts_reproduced_explained_by_kind_and_unexplained() -> None:
    """Only the counted rows; an off row is explained only when its check holds."""
    rows = [
        _row("gao", "published-result", "ok"),
        _diagnosed("a", "published-result", "paper-inconsistent", "holds", "2"),
        _diagnosed("b", "published-result", "simulator-gap", "fails", "9"),
        Row("gao", "c", "s", "1", "", "", "abs 0", "missing", "published-analytical"),
        _diagnosed("d", "calibrated", "unstated-parameter", "holds", "1"),
        _diagnosed("e", "published-result", dg.REDUCED_FIDELITY, "holds", "3"),
    ]
    tex = report.status_tex(rows, ["gao"])
    # reproduced, then explained by parameter, reading, paper, simulator, fidelity, then
    # unexplained
    assert r"\multicolumn{5}{c}{explained" in tex and r"\cmidrule(lr){3-7}" in tex
    assert r"\texttt{gao} & 1 & 0 & 0 & 1 & 0 & 1 & 2 \\" in tex
    assert report.status_sentence(rows, "Here") == (
        "Here: 1 of its published results reproduced, 2 explained (1 paper-inconsistent, "
        "1 reduced-fidelity), 2 unexplained."
    )
    ref = {"gao": [_row("gao", "published-result", "off")]}
    both = report.status_tex(rows, ["gao"], ref)
    assert "recorded at paper fidelity" in both
    assert r"\texttt{gao} & 0 & 0 & 0 & 0 & 0 & 0 & 1 \\" in both


def test_why_table_lists_every_row_not_reproduced_with_its_check(tmp_path: Path) -> None:
    f = tmp_path / "gao.yaml"
    f.write_text(
        "paper: gao\n"
        "diagnoses:\n"
        "  - key: a\n"
        "    kind: paper-inconsistent\n"
        "    why: the paper's formula gives another value\n"
        "    computation: eq. 1 with the stated parameters\n"
        "    check: {value: check.a, holds_when: contradicts, says: eq. 1 misses the number}\n"
    )
    diags = {(d.paper, d.key): d for d in dg.load(f)}
    rows = [
        _row("gao", "published-result", "ok", "ok_row"),
        _diagnosed("a", "published-result", "paper-inconsistent", "holds", "2"),
        Row("gao", "b", "s", "1", "3", "", "abs 0", "off", "published-result"),
    ]
    tex = report.why_tex(rows, diags)
    assert "ok\\_row" not in tex and "ok_row" not in tex
    assert "eq. 1 misses the number" in tex and "check.a contradicts" in tex
    line_b = next(line for line in tex.splitlines() if line.startswith(r"\hspace{0pt}b &"))
    assert "none" in line_b and r"\textbf{unexplained}" in line_b
    assert report.why_tex([rows[0]], diags).startswith("Every number")


def test_diff_rows_are_grouped_by_the_items_that_show_them() -> None:
    """A number belongs to the items that draw the step whose numbers file holds it; within a
    class the rows go by item, the numbers not regenerated ('--') last."""
    mine = {
        "items": [
            ["fig11", "figure", "t", "fig11", ["fig08"]],
            ["fig12", "figure", "t", "fig11", ["fig08"]],
            ["fig06", "figure", "t", "fig06", ["fig06"]],
        ]
    }
    steps = {("p", "a"): "fig11", ("p", "b"): "fig06", ("p", "c"): "theory"}
    assert report.row_items(mine, steps) == {
        ("p", "a"): "fig11, fig12",
        ("p", "b"): "fig06",
        ("p", "c"): "theory",  # a step no item draws is named as it is
    }
    rows = [
        Row("p", "z", "s", "1", "", "", "abs 0", "missing", "published-result"),
        Row("p", "a", "s", "1", "1", "", "abs 0", "ok", "published-result"),
        Row("p", "b", "s", "1", "2", "", "abs 0", "off", "published-result"),
    ]
    tex = latex.tex_table(rows, report.row_items(mine, steps))
    body = [
        [c.removeprefix(r"\hspace{0pt}") for c in line.split(" & ")[:2]]
        for line in tex.splitlines()
        if line.count(" & ") >= 6
    ]
    assert body[1:] == [["b", "fig06"], ["a", "fig11, fig12"], ["z", "--"]]


# ---------------------------------------------------------------------------------------------
# a run recorded at another fidelity (paper/reference/), shown beside this build's verdicts
# ---------------------------------------------------------------------------------------------

META = {
    "paper": "gao",
    "fidelity": "paper",
    "commit": "0123456789abcdef",
    "ns_id": "a47ff284ec9d6573",
    "wall_s": "1800",
    "cpu_s": "5400",
    "jobs": "1138",
    "date": "2026-11-24",
}


def test_a_reference_keeps_its_provenance_and_rows(tmp_path: Path) -> None:
    rows = [_row("gao", "published-result", "ok", "a"), _row("gao", "derived", "off", "b")]
    f = tmp_path / "gao-paper.csv"
    reference.write(reference.Reference(META, rows), f)
    assert f.read_text().startswith("# paper: gao\n# fidelity: paper\n# commit: 0123")
    back = reference.read(f)
    assert back.meta == META and back.rows == rows
    # what cannot be a reference
    with pytest.raises(ValueError, match="no commit"):
        reference.write(reference.Reference({**META, "commit": ""}, rows), f)
    with pytest.raises(ValueError, match="rows of tang"):
        reference.write(reference.Reference(META, [*rows, _row("tang", "derived", "ok")]), f)
    f.write_text(f.read_text().replace("# jobs: 1138\n", ""))
    with pytest.raises(ValueError, match="no jobs in its header"):
        reference.read(f)


def test_diff_table_shows_the_reference_beside_its_own() -> None:
    own = [
        _row("gao", "published-result", "off", "a"),
        _row("gao", "published-result", "ok", "b"),
        _row("gao", "published-result", "ok", "c"),  # not in the reference
    ]
    theirs = [
        Row("gao", "a", "s", "1", "1.02", "", "abs 0.05", "ok", "published-result"),
        _row("gao", "published-result", "ok", "b"),
    ]
    ref = reference.Reference(META, theirs)
    assert [(o.key, t.verdict) for o, t in reference.moved(own, ref)] == [("a", "ok")]
    tex = latex.tex_table(own, None, ref.by_key(), "paper")
    assert "verdict & at paper & verdict" in tex
    lines = {
        line.split(" & ")[0].removeprefix(r"\hspace{0pt}"): line
        for line in tex.splitlines()
        if line.count(" & ") == 8
    }
    assert lines["a"].endswith(r"\textbf{off} & 1.02 & \textsc{ok} \\")
    assert lines["c"].endswith(r"\textsc{ok} & -- & -- \\")
    note = latex.reference_note(META, own, theirs, reference.moved(own, ref))
    assert "commit \\texttt{0123456789ab}" in note and "0.50\\,h wall, 1.50\\,CPU-h" in note
    assert "ok / off / missing: 2 / 1 / 0 here, 2 / 0 / 0 there." in note
    assert "\\texttt{a} (off $\\to$ ok)" in note
    assert "No verdict differs" in latex.reference_note(META, theirs, theirs, [])


def test_captions_say_at_which_fidelity_they_were_made() -> None:
    trace = {
        "item": "gao/fig02",
        "fidelity": "paper",
        "step": "fig02",
        "experiments": ["fig02"],
        "tcl": ["tcl/gao/poisson.tcl"],
        "rule": "figure",
        "config": ["gao.experiments.fig02"],
    }
    tex = latex.trace_tex(trace, "figure", "analysis/plots/gao.py")
    assert tex.startswith(r"\emph{Item \texttt{gao/fig02}, made at paper fidelity: step")


def test_resumed_runs_add_up_their_attempts(tmp_path: Path) -> None:
    """A paper-fidelity make cut off and resumed: the ledger keeps every attempt's times,
    the reference records their sums, and the jobs of earlier attempts count."""
    ledger = tmp_path / "logs" / "x.attempts.tsv"
    assert reference.read_ledger(ledger) == []
    first = reference.Attempt("2026-11-24T07:04:03Z", "aaa", 1960.0, 1800.5, -15, "estimated")
    second = reference.Attempt("2026-11-24T08:01:22Z", "bbb", 4000.0, 7900.0, 0)
    reference.add_attempt(ledger, first)
    reference.add_attempt(ledger, second)
    assert reference.read_ledger(ledger) == [first, second]
    assert reference.totals([first, second]) == (5960.0, 9700.5)
    log = (
        "Job stats:\n3 of 316 steps (1%) done\n87 of 316 steps (28%) done\n"
        "=== attempt started 2026-11-24T08:01:22Z at bbb\n12 of 229 steps (5%) done\n"
    )
    assert reference.jobs_done(log) == 87 + 12
    assert reference.jobs_done("no progress yet\n") == 0
    # an attempt of several Snakemake runs (the searches first, then the steps)
    runs = "=== snakemake 1 of 2: s.json\n5 of 9 steps (56%) done\n9 of 9 steps (100%) done\n"
    runs += "=== snakemake 2 of 2: fig.pdf\n1 of 2 steps (50%) done\n"
    assert reference.jobs_done(log + runs) == 87 + 12 + 9 + 1
    # a malformed ledger names its file and line
    ledger.write_text(ledger.read_text() + "2026\tccc\tlong\t1\t0\trusage\n")
    with pytest.raises(ValueError, match=r"x.attempts.tsv:4: not an attempt"):
        reference.read_ledger(ledger)
    ledger.write_text("when\twho\n")
    with pytest.raises(ValueError, match=r"x.attempts.tsv:1: expected the columns"):
        reference.read_ledger(ledger)
    # the attempts are part of the provenance and of the report's note
    rows = [_row("gao", "published-result", "ok", "a")]
    f = tmp_path / "gao-paper.csv"
    reference.write(reference.Reference({**META, "attempts": "2"}, rows), f)
    assert "# date: 2026-11-24\n# attempts: 2\n" in f.read_text()
    assert reference.read(f).meta["attempts"] == "2"
    note = latex.reference_note({**META, "attempts": "2"}, rows, rows, [])
    assert "1.50\\,CPU-h in all over 2 runs (resumed)" in note
    assert "resumed" not in latex.reference_note(META, rows, rows, [])


def test_front_page_states_executor_jobs_and_cpu(tmp_path: Path) -> None:
    """The jobs and CPU of the build come from the benchmark files of the papers' jobs at the
    report's fidelity and of the ns build; the executor is the one named by the workflow."""
    head = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"

    def bench(rel: str, cpu: str) -> None:
        f = tmp_path / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(head + f"1.0\t0:00:01\t1\t1\t1\t1\t0\t0\t90\t{cpu}\n")

    bench("build_ns.tsv", "300.5")
    bench("gao/fig02/quick/g_s1.tsv", "10")
    bench("gao/fig02/quick/g_s2.tsv", "20")
    bench("gao/fig02/paper/g_s1.tsv", "1000")  # another fidelity
    bench("tang/exp1/quick/t_s1.tsv", "5")  # another paper
    bench("gao/claims/quick/claims.tsv", "NA")  # a job too short to measure: counted, 0 s
    assert report.build_cost(tmp_path, ["gao"], "quick") == (4, 330.5)
    assert report.build_cost(tmp_path, ["gao", "tang"], "quick") == (5, 335.5)
    # ns's own CPU, logged by the job, counts where Snakemake's sampling saw less of it
    log = tmp_path / "gao/fig02/quick/g_s1.cpu"
    log.write_text("results/gao/fig02/quick/g_s1\t12.5\tmade\n")
    assert report.build_cost(tmp_path, ["gao"], "quick") == (4, 333.0)
    log.write_text("results/gao/fig02/quick/g_s1\t0.0\trestored\n")  # no ns ran
    assert report.build_cost(tmp_path, ["gao"], "quick") == (4, 330.5)
    log.unlink()
    # a job of ns runs has only its CPU log (no Snakemake benchmark file): one job, ns's CPU
    only = tmp_path / "gao/fig02/quick/g_s3.cpu"
    only.write_text("results/gao/fig02/quick/g_s3\t2.5\tmade\n")
    (tmp_path / "gao/fig02/paper/g_s3.cpu").write_text("x\t100.0\tmade\n")  # other fidelity
    assert report.build_cost(tmp_path, ["gao"], "quick") == (5, 333.0)
    only.write_text("r/s1\t2.5\tmade\nr/s2\t1.5\tmade\nr/s3\t9.0\trestored\n")  # a batch
    assert report.build_cost(tmp_path, ["gao"], "quick") == (5, 334.5)
    only.unlink()
    tex = report.build_tex("quick", "a47ff284", ["0001-x.patch"], "slurm")
    assert "\\newcommand{\\reportExecutor}{slurm}" in tex
    assert "Jobs" not in tex and "Cpu" not in tex  # measured: in the build record only
    rec = report.build_record("quick", "slurm", 1138, 5400.0)
    assert "jobs\t1138\n" in rec and "cpu_hours\t1.50\n" in rec
    # a smoke build's seconds still show (Floyd's smoke jobs: about 17 s)
    assert [report.cpu_hours(s) for s in (16.59, 360.0, 0.0)] == ["0.0046", "0.10", "0"]
    (tmp_path / "gao" / "fig02" / "quick" / "g_s1.tsv").write_text("not a benchmark\n")
    with pytest.raises(ValueError, match="g_s1.tsv: not a Snakemake benchmark file"):
        report.build_cost(tmp_path, ["gao"], "quick")


# ---------------------------------------------------------------------------------------------
# a paper made at paper fidelity a few steps at a time (reference make --steps)
# ---------------------------------------------------------------------------------------------


def _part(root: Path, steps: list[str], rows: list[Row], **meta: str) -> Path:
    f = root / reference.part_path("tang", "paper", steps)
    f.parent.mkdir(parents=True, exist_ok=True)
    m = {**META, "paper": "tang", "steps": " ".join(steps), **meta}
    reference.write(reference.Reference(m, rows), f)
    return f


def test_a_paper_made_in_batches_of_steps(root: Path, tmp_path: Path) -> None:
    """Each batch records the rows its steps' numbers decide; the assembled reference adds
    up the batches, lists their commits, names the steps it lacks (their rows are not
    recorded, not missing) and counts a number no step writes as missing only when every
    step is recorded."""
    import shutil

    shutil.copytree(root / "config", tmp_path / "config")
    steps = reference.paper_steps(tmp_path, "tang", "paper")
    assert steps[:2] == ["exp1", "exp2"] and steps[-2:] == ["theory", "claims"]
    targets = reference.step_targets(tmp_path, "tang", ["exp2"], "paper")
    assert "paper/generated/paper/tang/table4.tex" in targets
    # the batch exp2: its numbers decide two rows, one ok and one off
    num = tmp_path / "paper" / "generated" / "paper" / "tang" / "numbers-exp2.csv"
    num.parent.mkdir(parents=True)
    num.write_text("key,value\ntable4.fast_first.path1_fast.mean,48\n")
    num.write_text(num.read_text() + "table4.fast_first.path1_fast.sd,9\n")
    rows = reference.part_rows(tmp_path, "tang", ["exp2"], "paper")
    assert [(r.key, r.verdict) for r in rows] == [
        ("table4.fast_first.path1_fast.mean", "ok"),
        ("table4.fast_first.path1_fast.sd", "off"),
    ]
    _part(tmp_path, ["exp2"], rows, commit="aaaa1111", wall_s="3600", cpu_s="7000", jobs="124")
    ref = reference.assemble(tmp_path, "tang", "paper")
    assert ref.rows == rows and ref.meta["steps"] == "exp2"
    assert ref.meta["steps_missing"].split() == [s for s in steps if s != "exp2"]
    assert (ref.meta["parts"], ref.meta["wall_s"], ref.meta["jobs"]) == ("1", "3600", "124")
    note = latex.reference_note(ref.meta, rows, ref.rows, [])
    assert "not recorded at paper fidelity are the steps exp1, fig09," in note
    assert "commit \\texttt{aaaa1111}" in note and "in 1 batches of steps" in note
    # the other steps in a second batch (whose numbers decide nothing here): complete, and
    # what no step wrote is missing
    rest = [s for s in steps if s != "exp2"]
    # (a part re-recorded on kept runs lists the earlier commit too: listed once)
    _part(tmp_path, rest, [], commit="bbbb2222 aaaa1111", wall_s="1800", cpu_s="3000", jobs="10")
    ref = reference.assemble(tmp_path, "tang", "paper")
    published = [p.key for p in conf_originals(tmp_path)]
    assert [r.key for r in ref.rows] == published and "steps_missing" not in ref.meta
    assert {r.verdict for r in ref.rows if not r.key.startswith("table4.fast_first.path1")} == {
        "missing"
    }
    assert (ref.meta["commit"], ref.meta["wall_s"], ref.meta["cpu_s"]) == (
        "bbbb2222 aaaa1111",  # in the order of the parts' steps: exp1 is in the second
        "5400",
        "10000",
    )
    note = latex.reference_note(ref.meta, rows, ref.rows, [])
    assert "commits \\texttt{bbbb2222}, \\texttt{aaaa1111}" in note and "does not hold" not in note
    # what cannot be assembled: a step in two parts, parts of two ns binaries, a step the
    # paper does not have; a whole run's reference is not replaced by parts
    twice = _part(tmp_path, ["exp1", "exp2"], [])
    with pytest.raises(ValueError, match="step exp1 is in two parts"):
        reference.assemble(tmp_path, "tang", "paper")
    twice.unlink()
    other = _part(tmp_path, ["fig09"], [], ns_id="ffff0000")
    (tmp_path / reference.part_path("tang", "paper", rest)).unlink()
    with pytest.raises(ValueError, match="different ns binaries"):
        reference.assemble(tmp_path, "tang", "paper")
    other.unlink()
    _part(tmp_path, ["fig99"], [])
    with pytest.raises(ValueError, match="tang has no step 'fig99'"):
        reference.assemble(tmp_path, "tang", "paper")
    whole = tmp_path / reference.reference_path("tang", "paper")
    reference.write(reference.Reference({**META, "paper": "tang"}, rows), whole)
    with pytest.raises(ValueError, match="records a whole run"):
        reference._assemble(tmp_path, "tang", "paper")


def conf_originals(root: Path) -> list:
    from analysis.compare import load_originals

    return load_originals(root / "config" / "originals" / "tang.yaml")


def test_a_batch_of_unknown_steps_stops_before_any_run(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as e:
        reference.main(["make", "tang", "--steps", "exp1", "fig99"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "tang has no step fig99 at paper fidelity; its steps: exp1 exp2" in err
    assert not list(Path("logs").glob("paper-fidelity-tang-paper.exp1+fig99*"))


def test_a_narrow_cell_may_break_after_dots_slashes_and_hyphenate() -> None:
    """tex_breakable escapes as tex_escape does, lets a line break after each '.' and '/'
    (the report's \\_ breaks after '_') and lets the cell's first word hyphenate."""
    cell = latex.tex_breakable("derived.exp3/rho_1&%")
    assert cell == (r"\hspace{0pt}derived.\allowbreak{}exp3/\allowbreak{}rho\_1\&\%")
    assert latex.tex_breakable("") == ""


LOG = """(./generated/smoke/tang/assumptions.tex
Overfull \\hbox (7.93846pt too wide) in alignment at lines 1--2
 [] [] [] []
Underfull \\hbox (badness 10000) in paragraph at lines 14--15
Overfull \\vbox (3.1pt too high) has occurred while \\output is active
"""


def test_the_log_check_names_every_overfull_box_and_no_underfull(tmp_path: Path) -> None:
    assert latex.overfull_boxes(LOG) == [
        "Overfull \\hbox (7.93846pt too wide) in alignment at lines 1--2",
        "Overfull \\vbox (3.1pt too high) has occurred while \\output is active",
    ]
    clean = tmp_path / "clean.log"
    clean.write_text(LOG.replace("Overfull", "Underfull"))
    bad = tmp_path / "bad.log"
    bad.write_text(LOG)
    assert latex.main(["overfull", str(clean)]) == 0
    assert latex.main(["overfull", str(clean), str(bad)]) == 1
    with pytest.raises(SystemExit):
        latex.main(["overfull", str(tmp_path / "none.log")])


#: a contents list long enough to push section 1 off page 1 once it is there: the second run
#: moves every section, and only a third run lists the pages they are on
SHIFTING_TOC = r"""\documentclass{article}
\begin{document}
\tableofcontents
\clearpage
\newcount\n \n=0
\loop\advance\n by 1 \section{Section \the\n}\clearpage\ifnum\n<70 \repeat
\end{document}
"""
#: each run writes into the .aux one more than the last run wrote: it never settles
NEVER_SETTLES = r"""\documentclass{article}
\makeatletter
\providecommand\prev{0}
\begin{document}
\immediate\write\@auxout{\gdef\string\prev{\the\numexpr\prev+1\relax}}
Run \prev.
\end{document}
"""


def test_the_report_build_runs_pdflatex_until_its_contents_settle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three runs for a contents list that moves the pages it lists (two runs, all latexmk
    sometimes made, list section 1 on page 1); the same bytes from a rebuild; an error, not a
    PDF, for a document whose labels never settle and for one that does not compile."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")
    monkeypatch.setenv("FORCE_SOURCE_DATE", "1")
    doc = tmp_path / "doc.tex"
    doc.write_text(SHIFTING_TOC)
    assert latex.build_pdf(doc, "doc") == 3
    section1 = r"\numberline {1}Section 1}{"
    page = (tmp_path / "doc.toc").read_text().split(section1, 1)[1].split("}", 1)[0]
    assert page not in ("", "1")
    shown = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", "doc.pdf", "-"], cwd=tmp_path, capture_output=True
    )
    assert shown.stdout.decode().split("Section 1", 1)[1].split()[0] == page  # as page 1 shows
    first = (tmp_path / "doc.pdf").read_bytes()
    assert latex.build_pdf(doc, "doc") == 3
    assert (tmp_path / "doc.pdf").read_bytes() == first
    assert latex.main(["pdf", "--jobname=doc2", str(doc)]) == 0
    doc.write_text(NEVER_SETTLES)
    with pytest.raises(latex.LatexError, match="still change after 3"):
        latex.build_pdf(doc, "doc", max_runs=3)
    doc.write_text(SHIFTING_TOC.replace(r"\clearpage", r"\nosuchmacro", 1))
    with pytest.raises(latex.LatexError, match="Undefined control sequence"):
        latex.build_pdf(doc, "doc")
    assert latex.main(["pdf", "--jobname=doc", str(doc)]) == 1


def test_a_report_shows_one_reference_per_paper_the_paper_run_first(tmp_path: Path) -> None:
    """With references at quick and at paper, a smoke or quick build shows the paper one and a
    paper build the quick one; none recorded at another fidelity: none."""
    ref = tmp_path / reference.REFERENCE_DIR
    ref.mkdir(parents=True)
    assert reference.shown_reference(tmp_path, "gao", "smoke") is None
    (ref / "gao-quick.csv").write_text("")
    assert reference.shown_reference(tmp_path, "gao", "smoke") == "paper/reference/gao-quick.csv"
    assert reference.shown_reference(tmp_path, "gao", "quick") is None
    (ref / "gao-paper.csv").write_text("")
    assert reference.shown_reference(tmp_path, "gao", "smoke") == "paper/reference/gao-paper.csv"
    assert reference.shown_reference(tmp_path, "gao", "quick") == "paper/reference/gao-paper.csv"
    assert reference.shown_reference(tmp_path, "gao", "paper") == "paper/reference/gao-quick.csv"
    assert reference.shown_reference(tmp_path, "tang", "smoke") is None


def test_a_batch_that_reuses_runs_keeps_their_cost(tmp_path: Path) -> None:
    """A batch re-recorded on kept runs adds its times to those of the part it replaces; a
    batch that made every run anew does not. A search job counts its runs in its own log
    (the job's ``log:``); a search whose log does not count them (or is not found) makes the
    batch's reuse unknown, and it is not taken as reused."""
    kept = "localrule runs:\nnsbatch: 120 runs, 0 made, 120 reused\n"
    some = kept + "nsbatch: 20 runs, 20 made, 0 reused\n"
    anew = "localrule runs:\nnsbatch: 120 runs, 120 made, 0 reused\n"
    search = "localrule akella2002_search:\n    output: s/a.json\n    log: s/a.log\n\n"
    assert reference.runs_counts(kept) == (0, 120)
    assert reference.runs_counts(some) == (20, 120)
    assert reference.runs_counts("3 of 3 steps (100%) done\n") == (0, 0)
    assert reference.runs_counts(search) is None
    assert reference.runs_counts(search, tmp_path) is None  # no log file
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "a.log").write_text("iteration 1\n")
    assert reference.runs_counts(search, tmp_path) is None  # no count in it
    # the line a search job prints at its end (analysis.akella2002_search)
    runner = PointRunner(None, Path("ns"), Path("script"), asked=40, made=0)  # type: ignore[arg-type]
    (tmp_path / "s" / "a.log").write_text(f"iteration 1\n{runner.counts_line()}\n")
    assert reference.runs_counts(kept + search, tmp_path) == (0, 160)
    assert reference.reuses_runs(search, tmp_path)
    (tmp_path / "s" / "a.log").write_text("nsbatch: 40 runs, 40 made, 0 reused\n")
    assert not reference.reuses_runs(search, tmp_path)
    assert reference.reuses_runs(kept) and reference.reuses_runs(some)
    assert reference.reuses_runs("nothing to be done\n")  # analysis only
    assert not reference.reuses_runs(anew) and not reference.reuses_runs(search)
    earlier = {"commit": "aaa", "wall_s": "3453", "cpu_s": "6000", "jobs": "20", "date": "d1",
               "attempts": "2"}  # fmt: skip
    now = {"commit": "bbb", "wall_s": "20", "cpu_s": "26", "jobs": "14", "date": "d2",
           "attempts": "1"}  # fmt: skip
    m = reference.with_reused_runs(earlier, now)
    assert (m["wall_s"], m["cpu_s"], m["jobs"], m["attempts"]) == ("3473", "6026", "34", "3")
    assert m["commit"] == "aaa bbb" and m["runs_from"] == "d1" and m["date"] == "d2"
    # a third record keeps the date of the batch that made the runs
    assert reference.with_reused_runs(m, now)["runs_from"] == "d1"


def test_a_part_resolves_checks_another_step_writes(root: Path, tmp_path: Path) -> None:
    """A batch's rows are those its own steps' numbers decide; their diagnoses' checks are
    read from every numbers file of the paper in the checkout (Table 1's checks here come
    from a file of another step), and a check no file writes stays not computed."""
    import shutil

    shutil.copytree(root / "config", tmp_path / "config")
    gen = tmp_path / "paper" / "generated" / "paper" / "tang"
    gen.mkdir(parents=True)
    (gen / "numbers-exp1.csv").write_text("key,value\ntable1.fast_first.path1_fast.mean,84\n")
    rows = reference.part_rows(tmp_path, "tang", ["exp1"], "paper")
    assert [(r.key, r.check) for r in rows] == [
        ("table1.fast_first.path1_fast.mean", "not computed")
    ]
    check = "check.table1.fast_first.path1_fast.fast_delay_over_buffer"
    (gen / "numbers-theory.csv").write_text(f"key,value\n{check},1.9\n")
    rows = reference.part_rows(tmp_path, "tang", ["exp1"], "paper")
    assert [(r.key, r.check, r.check_value) for r in rows] == [
        ("table1.fast_first.path1_fast.mean", "holds", "1.9")
    ]
    # the other step's own rows are not this batch's
    assert not reference.part_rows(tmp_path, "tang", ["theory"], "paper")


def test_the_batch_that_completes_a_paper_also_makes_its_diff(root: Path, tmp_path: Path) -> None:
    """Only a batch after which every step is recorded (with the other parts) completes the
    paper; a batch recorded again does not count its own earlier part as another."""
    import shutil

    shutil.copytree(root / "config", tmp_path / "config")
    steps = reference.paper_steps(tmp_path, "tang", "paper")
    assert not reference.completes(tmp_path, "tang", "paper", ["exp2"])
    assert reference.completes(tmp_path, "tang", "paper", steps)
    _part(tmp_path, ["exp2"], [], commit="a", wall_s="1", cpu_s="1", jobs="1")
    assert not reference.completes(tmp_path, "tang", "paper", ["exp2"])
    rest = [s for s in steps if s != "exp2"]
    assert reference.completes(tmp_path, "tang", "paper", rest)
    _part(tmp_path, rest, [], commit="b", wall_s="1", cpu_s="1", jobs="1")
    assert reference.completes(tmp_path, "tang", "paper", ["exp2"])


def test_items_table_says_where_each_step_was_made(tmp_path: Path) -> None:
    """Each item's step is labelled from its origin.json: restored from the bundle (commit,
    date), made here from runs, or here from bundled inputs; a step without one (a paper's
    own rule) was made by this build."""
    assert latex.made_from({"from": "bundle", "commit": "abcdef123", "date": "2026-11-28"}) == (
        "bundle (abcdef1, 2026-11-28)"
    )
    assert latex.made_from({"from": "runs"}) == "this build's runs"
    up = {"from": "runs", "inputs": "bundle", "commit": "abcdef123", "date": "d"}
    assert latex.made_from(up) == "this build, from bundled inputs (abcdef1)"
    assert latex.made_from(None) == "this build"
    items = [("fig02", "figure", "Figure 2", "fig02", ["e"]), ("t1", "table", "T", "model", [])]
    tex = latex.items_tex(items, {"fig02": {"from": "bundle", "commit": "c0ffee0", "date": "d"}})
    assert "bundle (c0ffee0, d)" in tex and "this build \\\\" in tex
    d = tmp_path / "results" / "gao" / "fig02" / "paper"
    d.mkdir(parents=True)
    (d / "origin.json").write_text('{"from": "runs"}\n')
    assert report.read_origins([d / "origin.json"]) == {"gao": {"fig02": {"from": "runs"}}}


def test_why_table_says_what_the_paper_reference_gives_a_reduced_fidelity_row() -> None:
    rows = [
        _diagnosed("a", "published-result", dg.REDUCED_FIDELITY, "holds", "10.3"),
        _diagnosed("b", "published-result", dg.REDUCED_FIDELITY, "holds", "13"),
    ]
    at_paper = {
        "a": Row("gao", "a", "s", "10", "10.3", "", "rel 0.1", "ok", "published-result"),
        "b": _diagnosed("b", "published-result", "simulator-gap", "holds", "2"),
    }
    tex = report.why_tex(rows, {}, at_paper)
    assert (
        "it has no diagnosis; the reference recorded at paper fidelity reproduces it (10.3)" in tex
    )
    assert "explains it" in tex and "simulator-gap, its check holds" in tex
    assert "only through this fidelity's fewer or shorter runs" in tex  # the reproduced row
    assert "the diagnosis is decided there" in tex  # the explained row


def test_a_reference_is_made_from_runs_never_from_the_bundle() -> None:
    """A reference's Snakemake run turns the bundle off: restored jobs would record neither
    their cost nor their runs (the re-record that lost the searches' cost restored them)."""
    cfg = reference.snakemake_config("akella2002", "paper")
    assert cfg[0] == "--config" and "bundle=off" in cfg
    assert "fidelity=paper" in cfg and "papers=[akella2002]" in cfg


def test_rows_derived_again_keep_the_recorded_cost(root: Path, tmp_path: Path) -> None:
    """``rederive``: after a change that moves analysis steps only, each part's rows come from
    the numbers of the current build, its cost and commits stay the recorded run's, and the
    reference (and the report's note) names the build they come from."""
    import shutil

    shutil.copytree(root / "config", tmp_path / "config")
    num = tmp_path / "paper" / "generated" / "paper" / "tang" / "numbers-exp2.csv"
    num.parent.mkdir(parents=True)
    num.write_text("key,value\ntable4.fast_first.path1_fast.mean,48\n")
    rows = reference.part_rows(tmp_path, "tang", ["exp2"], "paper")
    assert [r.verdict for r in rows] == ["ok"]
    _part(tmp_path, ["exp2"], rows, commit="aaaa1111", wall_s="3600", cpu_s="7000", jobs="124")
    whole = tmp_path / reference.reference_path("tang", "paper")
    reference.write(reference.assemble(tmp_path, "tang", "paper"), whole)
    assert rederive.ROWS_FROM not in reference.read(whole).meta
    # the analysis now gives another number from the same runs
    num.write_text("key,value\ntable4.fast_first.path1_fast.mean,10\n")
    ref = rederive.rederive(tmp_path, "tang", "paper", "cccc3333 2026-11-29")
    assert [(r.key, r.verdict, r.regenerated) for r in ref.rows] == [
        ("table4.fast_first.path1_fast.mean", "off", "10")
    ]
    # the cost is the recorded run's; the build's commit made the numbers: listed last
    assert (ref.meta["wall_s"], ref.meta["jobs"]) == ("3600", "124")
    assert ref.meta["commit"] == "aaaa1111 cccc3333"
    assert ref.meta[rederive.ROWS_FROM] == "cccc3333 2026-11-29"
    rederive.write(ref, whole)  # the line is written, and read back
    assert reference.read(whole).meta[rederive.ROWS_FROM] == "cccc3333 2026-11-29"
    assert reference.read(whole).rows == ref.rows
    part = reference.read(tmp_path / reference.part_path("tang", "paper", ["exp2"]))
    assert part.rows == ref.rows and part.meta[rederive.ROWS_FROM] == "cccc3333 2026-11-29"
    note = latex.reference_note(ref.meta, ref.rows, ref.rows, [])
    assert "commits \\texttt{aaaa1111}, \\texttt{cccc3333}" in note
    # derived again once more: the commit of the rows replaced leaves the list
    again = rederive.rederive(tmp_path, "tang", "paper", "eeee5555 2026-11-30")
    assert again.meta["commit"] == "aaaa1111 eeee5555"
    assert again.meta[rederive.ROWS_FROM] == "eeee5555 2026-11-30"
    # a whole run's reference: its rows from every numbers file of the paper
    reference.write(reference.Reference({**META, "paper": "tang"}, rows), whole)
    ref = rederive.rederive(tmp_path, "tang", "paper", "dddd4444 2026-11-30")
    assert [r.regenerated for r in ref.rows if r.key == "table4.fast_first.path1_fast.mean"] == [
        "10"
    ]
    assert ref.meta["wall_s"] == META["wall_s"] and "parts" not in ref.meta
    assert ref.meta["commit"] == f"{META['commit']} dddd4444"


def test_rows_derived_again_below_paper_fidelity_are_reduced_fidelity_as_in_the_diff(
    root: Path, tmp_path: Path
) -> None:
    """``rederive`` at quick: a row its own diagnosis leaves unexplained, which the reference
    recorded at paper fidelity reproduces, is ``reduced-fidelity`` (check value: the value at
    paper), as the build's diff.csv has it; a reference in parts is refused below paper."""
    import shutil

    shutil.copytree(root / "config", tmp_path / "config")
    key = "table4.fast_first.path1_fast.mean"
    for fid, value in (("paper", "48"), ("quick", "10")):
        num = tmp_path / "paper" / "generated" / fid / "tang" / "numbers-exp2.csv"
        num.parent.mkdir(parents=True)
        num.write_text(f"key,value\n{key},{value}\n")
        rows = reference.part_rows(tmp_path, "tang", ["exp2"], fid)
        meta = {**META, "paper": "tang", "fidelity": fid}
        out = tmp_path / reference.reference_path("tang", fid)
        out.parent.mkdir(parents=True, exist_ok=True)
        reference.write(reference.Reference(meta, rows), out)
    ref = rederive.rederive(tmp_path, "tang", "quick", "ffff6666 2026-11-29")
    (row,) = [r for r in ref.rows if r.key == key]
    assert (row.verdict, row.diagnosis, row.check, row.check_value) == (
        "off", dg.REDUCED_FIDELITY, dg.HOLDS, "48"
    )  # fmt: skip
    # at paper the same rows are not compared with themselves
    (at_paper,) = [
        r for r in rederive.rederive(tmp_path, "tang", "paper", "x 1").rows if r.key == key
    ]
    assert at_paper.verdict == "ok"
    whole = tmp_path / reference.reference_path("tang", "quick")
    parts = {**META, "paper": "tang", "fidelity": "quick", "parts": "1"}
    reference.write(reference.Reference(parts, rows), whole)
    with pytest.raises(ValueError, match="derived again only at paper fidelity"):
        rederive.rederive(tmp_path, "tang", "quick", "ffff6666 2026-11-29")
