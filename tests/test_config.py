"""Bad input stops before any simulation, with one message naming the key."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from analysis import config as conf


def test_shipped_config_is_valid(cfg: dict) -> None:
    conf.validate(cfg)
    runs = conf.runs(cfg, "floyd1991", "fig02", "quick")
    assert [r.run_id for r in runs][:2] == ["n1_s1", "n2_s1"]
    assert all(r.params["seed"] == 1 for r in runs)


def _broken(cfg: dict, edit) -> str:  # type: ignore[no-untyped-def]
    c = copy.deepcopy(cfg)
    edit(c)
    with pytest.raises(conf.ConfigError) as e:
        conf.validate(c)
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
    names = [a[0] for a in conf.assumed(cfg, "floyd1991")]
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


@pytest.mark.parametrize(
    ("item", "msg"),
    [
        (
            {"fig03": {"module": "analysis.tang_buffer"}},
            "the items of step 'exp1' name different modules",
        ),
        (
            {"theory": {"module": "analysis.tang_buffer", "rule": "x"}},
            "names both a rule and a module",
        ),
        ({"theory": {"module": "tang_buffer"}}, "tang.items.theory.module"),
    ],
)
def test_snakemake_refuses_a_step_with_two_modules(root: Path, item: dict, msg: str) -> None:
    """A step's module (an item's ``module``, rules/common.smk step_module): the items of one
    step name one module, never beside the paper's own rule, and only analysis modules."""
    smk = Path(sys.executable).with_name("snakemake")
    p = subprocess.run(
        [str(smk), "-n", "--config", "tang=" + json.dumps({"items": item})],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode != 0
    assert msg in p.stderr, p.stderr[-2000:]
    assert "Job stats" not in p.stdout + p.stderr


# one violation per limit between parameters (analysis.config.limits): the values to set
VIOLATIONS = {
    "red_thresh<red_maxthresh": {"red_thresh": 40, "red_maxthresh": 20},
    "period<=duration": {"period": 200, "duration": 100},
    "low<high<buffer": {"low": 30, "high": 20},
    "warmup<duration": {"warmup": 100, "duration": 100, "start_max": 1},
    "pkt_size>40": {"pkt_size": 40},
    "path_delay>=links*link_delay": {"path_delay": 0.001, "link_delay": 0.01},
    "L<H<F": {"L": 1000},
    "sim1_warmup<duration": {"sim1_warmup": 50, "duration": 40},
    "n>=2": {"n": 1},
    "sample_interval<=window": {"sample_interval": 50, "warmup": 60, "duration": 100},
    "start_max<warmup": {"start_max": 30, "warmup": 20, "duration": 100},
    "alpha<beta": {"alpha": 0.9, "beta": 0.5},
    "beta=1->c2<1": {"beta": 1, "c2": 1, "alpha": 0.5},
    "min_th<max_th": {"min_th": 50, "min_th_per_flow": 0, "max_th": 40, "max_th_per_flow": 0},
    "max_th<buffer": {"max_th": 500, "max_th_per_flow": 0, "buffer": 400},
    "q_weight<=1": {"q_weight": 1.5},
    "bmin13<bmax13": {"bmin13": 90, "bmax13": 80},
    "bmin2<bmax2": {"bmin2": 90, "bmax2": 80},
    "offset<duration": {"offset": 100, "duration": 100},
    "measure_from<duration": {"measure_from": 100, "duration": 100},
    "sample<=duration": {"sample": 200, "duration": 100},
    "fast_gamma<=1": {"fast_gamma": 1.5},
    "red:buffer>b_max": {"aqm": "red", "buf2": 10, "bmin2": 1, "bmax2": 20},
}


def _run_of_family(cfg: dict, paper: str, family: str) -> tuple[str, dict]:
    for name, exp in cfg[paper]["experiments"].items():
        if exp["family"] == family:
            return name, dict(conf.runs(cfg, paper, name, "smoke")[0].params)
    raise AssertionError(f"no experiment of {paper} runs {family}")


LIMIT_CASES = [(p, f, lim.name) for (p, f), lims in conf.limits().items() for lim in lims]


@pytest.mark.parametrize(("paper", "family", "limit"), LIMIT_CASES)
def test_limit_between_parameters(cfg: dict, paper: str, family: str, limit: str) -> None:
    """Each limit the experiment script declares (experiment::limit) is checked before any
    run: a shipped run passes it; the same run with the limit broken stops with this limit's
    message, which names the parameters and their values."""
    experiment, params = _run_of_family(cfg, paper, family)
    conf.check_params(paper, experiment, family, params)
    broken = {**params, **VIOLATIONS[limit]}
    with pytest.raises(conf.ConfigError) as e:
        conf.check_params(paper, experiment, family, broken)
    (lim,) = [x for x in conf.limits()[(paper, family)] if x.name == limit]
    assert str(e.value) == f"config: '{paper}.experiments.{experiment}': " + lim.message.format(
        **broken
    )


@pytest.mark.parametrize(("paper", "family", "limit"), LIMIT_CASES)
def test_the_script_checks_the_same_limit(
    cfg: dict, ns_binary: Path, tmp_path: Path, paper: str, family: str, limit: str
) -> None:
    """The one declaration, read by ns too: the experiment script run with the limit broken
    stops before simulating, with the same message."""
    from analysis import nsrun

    experiment, params = _run_of_family(cfg, paper, family)
    broken = {**params, **VIOLATIONS[limit]}
    (lim,) = [x for x in conf.limits()[(paper, family)] if x.name == limit]
    args = nsrun.run_args(broken) + [f"out={tmp_path / 'r'}", "ns_id=test"]
    p = subprocess.run(
        [str(ns_binary), str(conf.tcl_script(paper, family)), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode != 0
    want = lim.message.format(**{k: nsrun.format_value(v) for k, v in broken.items()})
    assert f"error: {want}" in p.stdout + p.stderr


def test_every_limit_has_a_test() -> None:
    assert {name for _, _, name in LIMIT_CASES} == set(VIOLATIONS)


def test_a_limit_is_read_in_its_small_language_only(tmp_path: Path) -> None:
    """A limit's expression: parameters, numbers, strings, int(), arithmetic, comparisons,
    && || !; anything else (a call, an attribute) is refused, never evaluated."""
    lim = conf.Limit("x", 'a != "red" || (int(b / 2) < c && !(d > 1))', "m")
    assert lim.holds({"a": "red", "b": 7, "c": 4, "d": 0})
    assert not lim.holds({"a": "red", "b": 8, "c": 4, "d": 0})
    assert lim.holds({"a": "droptail", "b": 8, "c": 4, "d": 9})
    for bad in ("__import__('os').system('true') == 0", "a.real > 1", "len(a) > 1"):
        with pytest.raises(ValueError, match="is not allowed"):
            conf.Limit("x", bad, "m").holds({"a": 1})
    script = tmp_path / "f.tcl"
    script.write_text("experiment::limit n>=2 {n >= 2} \\\n    {n = {n}: too few}\n")
    assert conf.family_limits(script) == (conf.Limit("n>=2", "n >= 2", "n = {n}: too few"),)


def test_limit_checked_by_validate(cfg: dict) -> None:
    def edit(c: dict) -> None:
        c["floyd1991"]["parameters"]["red_thresh"]["value"] = 100

    msg = _broken(cfg, edit)
    assert "red_thresh (100) must be below red_maxthresh" in msg


def test_bad_yaml_names_file_and_line(tmp_path: Path) -> None:
    f = tmp_path / "floyd1991.yaml"
    f.write_text("floyd1991:\n  parameters:\n    gw_bw: {value: 1500000, status: [stated}\n")
    with pytest.raises(conf.ConfigError) as e:
        conf.load([f])
    assert f"{f}, line 3, column " in str(e.value) and "not valid YAML" in str(e.value)


def test_snakemake_names_the_bad_yaml_file(project_copy: Path) -> None:
    cfg_file = project_copy / "config" / "experiments" / "gao.yaml"
    lines = cfg_file.read_text().splitlines()
    lines[5] = lines[5] + " ]"  # a stray bracket
    cfg_file.write_text("\n".join(lines) + "\n")
    smk = Path(sys.executable).with_name("snakemake")
    p = subprocess.run(
        [str(smk), "-n"], cwd=project_copy, capture_output=True, text=True, timeout=120
    )
    assert p.returncode != 0
    assert "config: config/experiments/gao.yaml, line 6, column " in p.stderr, p.stderr[-2000:]


# ---- the items table (<paper>.items) --------------------------------------------------------


def test_items_of_the_shipped_config(cfg: dict) -> None:
    """Floyd's Figure 9 reads the runs of Figure 6 through its own step; Tang's Figures 3 and
    4 and Table 1 share the step of Experiment 1; Gao's Figure 1 is the model alone."""
    fl = conf.items(cfg, "floyd1991")
    assert (fl["fig09"].step, fl["fig09"].experiments) == ("fig09", ("fig06",))
    tang = conf.items(cfg, "tang")
    assert {tang[i].step for i in ("fig03", "fig04", "table1")} == {"exp1"}
    gao = conf.items(cfg, "gao")
    assert gao["fig01"].theory and not gao["fig02"].theory
    # what the report includes of each: a figure's PDF and caption, a table, the claims'
    # checks, and always its step's numbers (shared by the items of one step)
    # (every path under its fidelity's folder)
    assert conf.item_files(tang["fig03"], "quick") == [
        "figures/quick/tang/fig03.pdf",
        "paper/generated/quick/tang/fig03.tex",
        "paper/generated/quick/tang/numbers-exp1.csv",
    ]
    assert conf.item_files(tang["table1"], "paper") == [
        "paper/generated/paper/tang/table1.tex",
        "paper/generated/paper/tang/numbers-exp1.csv",
    ]
    assert conf.item_files(tang["claims"], "smoke") == [
        "paper/generated/smoke/tang/numbers-claims.csv",
        "paper/generated/smoke/tang/claims-checks.csv",
    ]


def test_item_without_title(cfg: dict) -> None:
    msg = _broken(cfg, lambda c: c["gao"]["items"]["fig02"].pop("title"))
    assert "gao.items.fig02" in msg and "title" in msg


def test_item_of_unknown_kind(cfg: dict) -> None:
    msg = _broken(cfg, lambda c: c["gao"]["items"]["fig02"].update(kind="movie"))
    assert "gao.items.fig02.kind" in msg and "'figure'" in msg


def test_item_naming_an_unknown_experiment(cfg: dict) -> None:
    msg = _broken(cfg, lambda c: c["floyd1991"]["items"]["fig09"].update(experiments=["fig66"]))
    assert "floyd1991.items.fig09.experiments" in msg and "fig66" in msg


def test_item_reading_an_unknown_step(cfg: dict) -> None:
    msg = _broken(cfg, lambda c: c["gao"]["items"]["claims"].update(reads=["fig02", "nothing"]))
    assert "gao.items.claims.reads" in msg and "nothing" in msg


def test_item_param_that_does_not_resolve(cfg: dict) -> None:
    msg = _broken(cfg, lambda c: c["gao"]["items"]["fig02"].update(params=["parameters.FF.value"]))
    assert "gao.items.fig02.params" in msg and "parameters.FF.value" in msg


def test_items_sharing_a_step_must_agree(cfg: dict) -> None:
    msg = _broken(cfg, lambda c: c["tang"]["items"]["fig04"].update(experiments=["exp2"]))
    assert "share the step 'exp1'" in msg


def test_paper_needs_one_claims_item(cfg: dict) -> None:
    msg = _broken(cfg, lambda c: c["misra"]["items"].pop("claims"))
    assert "misra.items" in msg and "claims" in msg


# ---- parameter sets (config/config.yaml parameter_sets; tcl/lib/queues.tcl) ----


def test_parameter_set_reaches_the_families_that_take_it(cfg: dict) -> None:
    # the set is defined once and copied into the papers that name it
    assert (
        cfg["gao"]["parameters"]["codel_target"] == cfg["parameter_sets"]["queues"]["codel_target"]
    )
    chain = conf.tcl_params(conf.tcl_script("gao", "chain"))
    poisson = conf.tcl_params(conf.tcl_script("gao", "poisson"))
    assert "codel_target" in chain and "drr_quantum" in chain
    # a family that does not call experiment::queue_params neither declares nor gets them
    assert "codel_target" not in poisson
    run = conf.runs(cfg, "gao", "fig02", "smoke")[0]
    assert "codel_target" not in run.params
    assert conf.runs(cfg, "gao", "table1", "smoke")[0].params["codel_target"] == 0.005


def test_unknown_parameter_set(cfg: dict) -> None:
    c = copy.deepcopy(cfg)
    c["floyd1991"]["parameter_sets"] = ["queus"]
    with pytest.raises(conf.ConfigError, match="'floyd1991.parameter_sets' names 'queus'"):
        conf.add_parameter_sets(c)


def test_parameter_defined_twice(cfg: dict) -> None:
    c = copy.deepcopy(cfg)
    c["gao"]["parameters"]["codel_target"] = {"value": 0.02, "status": "assumed", "reason": "mine"}
    with pytest.raises(conf.ConfigError, match="'gao.parameters.codel_target' is also in"):
        conf.add_parameter_sets(c)


def test_parameter_set_of_a_paper_whose_families_ignore_it(cfg: dict) -> None:
    c = copy.deepcopy(cfg)
    c["tang"]["parameter_sets"] = ["queues"]
    conf.add_parameter_sets(c)
    with pytest.raises(conf.ConfigError, match="unknown parameter '.*' in 'tang.parameters'"):
        conf.validate(c)


def test_one_list_of_papers(cfg: dict) -> None:
    """The papers are the config/experiments/<paper>.yaml files; the report's order is each
    paper's ``order``; ``papers`` picks some, in its order; a paper without a file is refused
    before anything runs."""
    assert conf.paper_keys() == ["akella2002", "floyd1991", "gao", "misra", "tang"]
    everything = {k: v for k, v in cfg.items() if k != "papers"}
    assert conf.papers(everything) == ["akella2002", "gao", "tang", "misra", "floyd1991"]
    assert conf.papers({**everything, "papers": ["tang", "gao"]}) == ["tang", "gao"]
    swapped = {**everything, "gao": {**everything["gao"], "order": 99}}
    assert conf.papers(swapped)[-1] == "gao"
    with pytest.raises(conf.ConfigError, match="papers lists 'nope', which has no config"):
        conf.validate({**everything, "papers": ["gao", "nope"]})
