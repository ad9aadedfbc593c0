# Akella et al. 2002, the TCP game (tcl/akella2002/dumbbell.tcl, analysis/akella2002.py,
# analysis/plots/akella2002.py).
#
# Runs: a point (tcp, queue, alpha, beta, alpha_n, beta_n) has R ns runs (seeds), under
# results/akella2002/points/<fidelity>/, made in jobs of a batch of seeds each (rules
# akella2002_point_b1, _b2, ...: one batch at quick, four of 5 seeds at paper); a run is made
# once and shared by every search and figure that needs it.
# Best-response searches, under results/akella2002/search/<fidelity>/<method>/<search>/ (the
# method, full or adaptive, is a wildcard: the configured one feeds the report, the other
# can be asked for, as bench/ne-search does): checkpoint akella2002_iteration makes
# iteration j of a search (the sweep of F_n's parameter at the common value that iteration
# j-1 picked, and the pick); akella2002_search walks the iterations until one stops the
# search. An adaptive sweep is made in stages (checkpoint akella2002_stage: each stage's
# record plans the next stage's runs). Each iteration and stage is its own output file: the
# DAG has no cycle, nothing finished is recomputed, and an interrupted search resumes at the
# first missing stage.
from analysis import akella2002_search as akella


try:
    AK = akella.study(config, FIDELITY)
except conf.ConfigError as _e:
    sys.stderr.write(f"\n{_e}\n\n")
    sys.exit(1)

# a point run's parameters (for runs_pin): the study's base values (under the point's
# sensitivity variant, var/<variant>/ in its path), and the point's own, which its path spells out
AK_BASE_ARGS = {
    v: " ".join(f"{k}={nsrun.format_value(x)}" for k, x in AK.variant_base(v).items())
    for v in ["", *AK.variants]
}
RUN_ARGS_OF["akella2002"] = lambda path: AK_BASE_ARGS[akella.variant_of_path(path)]
AK_SEARCH_DIR = f"{akella.SEARCH_ROOT}/{FIDELITY}"
AK_SEARCH = AK_SEARCH_DIR + "/{ak_method}/{ak_search}"


def ak_experiment_files(exp: str) -> list[str]:
    """A search's record (made with the configured method); the point runs of a derivative
    set or a sweep."""
    if exp in AK.searches:
        return [f"{AK.search_dir(exp)}/search.json"]
    return [s for p in AK.figure_points([exp]) for s in AK.summaries(p)]


EXPERIMENT_FILES["akella2002"] = ak_experiment_files
# an experiment is made at a fidelity unless its level says skip
EXPERIMENT_ACTIVE["akella2002"] = lambda exp: (
    exp in AK.searches or exp in AK.derivatives or exp in AK.sweeps
)
REPORT_EXTRA["akella2002"] += [
    f"paper/generated/akella2002/{t}.tex"
    for t in ("searches", "joint_order", "settings", "figures", "sensitivity")
] + ["figures/akella2002/sensitivity.pdf"]
AK_SENS = akella.sensitivity(config, FIDELITY)
AK_FIGURES = sorted(
    n for n, it in ITEMS["akella2002"].items() if it.kind == "figure" and active(it)
)

wildcard_constraints:
    ak_tcp="[a-z]+",
    ak_queue="[a-z]+",
    ak_a="[0-9]+(\.[0-9]+)?",
    ak_b="0\.[0-9]+",
    ak_an="[0-9]+(\.[0-9]+)?",
    ak_bn="0\.[0-9]+",
    ak_search="[a-z]+_[a-z]+_(alpha|beta|joint|joint_betafirst)(@[a-z][a-z0-9]*)?",
    ak_iter="[1-9][0-9]*",
    ak_stage="[1-9][0-9]*",
    ak_method="|".join(akella.SEARCH_METHODS),


# Akella et al.'s searches last: each is a chain of checkpoints, and after every checkpoint
# Snakemake updates its DAG in its main loop, at a cost that grows with the jobs still to run
# (no job starts meanwhile). Measured at quick (README, Tests and benchmarks): with the
# searches first, Snakemake's own CPU rose from 215.5 to 285.4 s and idle cores from 162.7
# to 233.3 core-s. Snakemake runs a ready job of higher priority first; the Snakefile makes
# its job selection look at the highest priorities (scheduling.by_priority). Which job runs
# first changes no result.
AK_PRIORITY = -1

# a point's folder and ns arguments as plain patterns of its wildcards (no function per job),
# for the base set-up ("") and each sensitivity variant (their points under var/<variant>/)
for _var, (_b, _seeds) in [(v, b) for v in ["", *AK.variants] for b in enumerate(AK.seed_batches, 1)]:
    AK_POINT_DIR = AK.point_dir_pattern(_var)
    AK_POINT = AK_POINT_DIR.replace("{", "{{").replace("}", "}}")  # for expand()
    # the batch job's log of ns's own CPU (.cpu; no Snakemake benchmark, as rule sim)
    AK_BENCH = AK_POINT_DIR.replace(akella.POINTS_ROOT, "benchmarks/akella2002/points") + f"-b{_b}"

    rule:
        """One batch of a point's runs (its seeds in this batch)."""
        name:
            f"akella2002_point_{_var}_b{_b}" if _var else f"akella2002_point_b{_b}"
        input:
            ns=NS_INPUT,
            nsid=ns_id,
            script="tcl/akella2002/dumbbell.tcl",
            lib=TCL_LIB,
            runner=NSRUN,
        output:
            expand(AK_POINT + "/s{seed}/summary.json", seed=_seeds),
        log:  # each run's ns output, written by analysis.nsrun
            expand(AK_POINT + "/s{seed}/ns.log", seed=_seeds),
        params:
            dir=AK_POINT_DIR,
            args=AK.point_args_pattern(_var),
            seeds=" ".join(str(s) for s in _seeds),
            # ns's exact CPU time per seed (analysis.nsrun --cpu-log)
            cpu=AK_BENCH + ".cpu",
        group:
            SIM_GROUP
        priority: AK_PRIORITY
        shell:  # one Python process for the batch's seeds (analysis.nsrun --seeds)
            "rm -f {params.cpu}; python -m analysis.nsrun --ns {input.ns} --script {input.script} "
            "--out '{params.dir}/s{{seed}}' --cpu-log {params.cpu} {params.args} "
            "--seeds {params.seeds}"


def ak_spec(w):
    """The search of a job, made with the job's method."""
    return AK.search(w.ak_search, w.ak_method)


def ak_previous_iteration(w, spec, j: int) -> list[str]:
    if j > spec.max_sweeps:
        raise ValueError(f"{w.ak_search}: iteration {j} is beyond the cap of {spec.max_sweeps} sweeps")
    if j == 1:
        return []
    return [
        checkpoints.akella2002_iteration.get(
            ak_method=w.ak_method, ak_search=w.ak_search, ak_iter=str(j - 1)
        ).output[0]
    ]


def ak_stage_inputs(w):
    """Stage k of an adaptive sweep reads the runs of stages 1..k; stage k's plan is in stage
    k-1's record (stage 1's needs no runs)."""
    spec = ak_spec(w)
    j, k = int(w.ak_iter), int(w.ak_stage)
    prev = ak_previous_iteration(w, spec, j)
    current = akella.current_of(spec, j, prev[0] if prev else None)
    if k == 1:
        return {"prev": prev, "points": akella.plan_files(
            AK, spec, j, current, [akella.first_plan(spec, j, current, len(AK.seeds))]
        )}
    before = checkpoints.akella2002_stage.get(
        ak_method=w.ak_method, ak_search=w.ak_search, ak_iter=w.ak_iter, ak_stage=str(k - 1)
    ).output[0]
    rec = akella.read_record(before)
    if rec["done"]:
        raise ValueError(f"{before}: the sweep was decided at stage {k - 1}")
    files = akella.plan_files(AK, spec, j, current, [*rec["plans"], rec["next"]])
    return {"prev": prev, "before": [before], "points": files}


checkpoint akella2002_stage:
    """Stage k of an adaptive sweep: the runs of stages 1..k, and the plan of stage k+1."""
    input:
        unpack(ak_stage_inputs),
        code=code("analysis.akella2002_search"),
    output:
        AK_SEARCH + "/iter{ak_iter}/stage{ak_stage}.json",
    log:
        AK_SEARCH + "/iter{ak_iter}/stage{ak_stage}.log",
    benchmark:
        f"benchmarks/akella2002/search/{FIDELITY}/{{ak_method}}/{{ak_search}}/iter{{ak_iter}}-stage{{ak_stage}}.tsv"
    params:
        pin=lambda w, input: runs_pin(input),  # the parameters of the runs it reads
        prev=lambda w, input: " ".join(f"--previous {f}" for f in getattr(input, "prev", [])),
        json=lambda w: json.dumps(akella.search_params(AK, w.ak_search, w.ak_method), sort_keys=True),
    priority: AK_PRIORITY
    shell:
        "python -m analysis.akella2002_search stage --params {params.json:q} "
        "--iteration {wildcards.ak_iter} --stage {wildcards.ak_stage} {params.prev} --out {output}"
        + LOGGED


def ak_stages(w, j: int) -> list[str]:
    """The stage records of iteration j of an adaptive search, up to the one that decides it."""
    stages = []
    for k in range(1, len(AK.seeds) + 4):
        stages.append(
            checkpoints.akella2002_stage.get(
                ak_method=w.ak_method, ak_search=w.ak_search, ak_iter=str(j), ak_stage=str(k)
            ).output[0]
        )
        if akella.read_record(stages[-1])["done"]:
            return stages
    raise ValueError(f"{w.ak_search}: iteration {j} is undecided after {len(stages)} stages")


def ak_iteration_inputs(w):
    """Full: every candidate's runs. Adaptive: the stages until one decides the sweep, and
    the runs they made."""
    spec = ak_spec(w)
    j = int(w.ak_iter)
    prev = ak_previous_iteration(w, spec, j)
    current = akella.current_of(spec, j, prev[0] if prev else None)
    if spec.method == "full":
        points = [s for _, p in spec.points(j, current) for s in AK.summaries(p)]
        return {"prev": prev, "points": points}
    stages = ak_stages(w, j)
    points = akella.plan_files(AK, spec, j, current, akella.read_record(stages[-1])["plans"])
    return {"prev": prev, "stages": stages, "points": points}


checkpoint akella2002_iteration:
    """Iteration j of a search: F_n's goodput CIs over the sweep, the pick, stop or not."""
    input:
        unpack(ak_iteration_inputs),
        code=code("analysis.akella2002_search"),
    output:
        AK_SEARCH + "/iter{ak_iter}.json",
    log:
        AK_SEARCH + "/iter{ak_iter}.log",
    benchmark:
        f"benchmarks/akella2002/search/{FIDELITY}/{{ak_method}}/{{ak_search}}/iter{{ak_iter}}.tsv"
    params:
        pin=lambda w, input: runs_pin(input),  # the parameters of the runs it reads
        prev=lambda w, input: " ".join(f"--previous {f}" for f in getattr(input, "prev", [])),
        # the search's settings: a config change reruns the iterations (Snakemake's params trigger)
        json=lambda w: json.dumps(akella.search_params(AK, w.ak_search, w.ak_method), sort_keys=True),
    priority: AK_PRIORITY
    shell:
        "python -m analysis.akella2002_search iteration --params {params.json:q} "
        "--iteration {wildcards.ak_iter} {params.prev} --out {output}" + LOGGED


def ak_search_inputs(w):
    spec = ak_spec(w)
    files, stages = [], []
    for j in range(1, spec.max_sweeps + 1):
        # Walk an iteration's stages here, before the iteration itself: Snakemake 9.27.1 may
        # otherwise start a new iteration job whose input function stopped at a stage that
        # was not yet known (its input "<TBD>", its stages and runs never scheduled).
        if spec.method == "adaptive":
            stages += ak_stages(w, j)
        f = checkpoints.akella2002_iteration.get(**w, ak_iter=str(j)).output[0]
        files.append(f)
        if akella.read_record(f)["stop"]:
            break
    ae, be = akella.ne_of([akella.read_record(files[-1])])
    points = [
        akella.symmetric_point(spec.tcp, spec.queue, ae, be, spec.variant),
        akella.symmetric_point(spec.tcp, spec.queue, *spec.start, spec.variant),
    ]
    return {
        "iterations": files,
        "stages": stages,
        "points": [s for p in points for s in AK.summaries(p)],
    }


rule akella2002_search:
    """A finished search: the NE, its per-flow goodput and loss, every iteration's curve."""
    input:
        unpack(ak_search_inputs),
        code=code("analysis.akella2002_search"),
    output:
        AK_SEARCH + "/search.json",
    log:
        AK_SEARCH + "/search.log",
    benchmark:
        f"benchmarks/akella2002/search/{FIDELITY}/{{ak_method}}/{{ak_search}}/search.tsv"
    params:
        pin=lambda w, input: runs_pin(input),  # the parameters of the runs it reads
        json=lambda w: json.dumps(akella.search_params(AK, w.ak_search, w.ak_method), sort_keys=True),
        # until the checkpoint has run (a dry run) the input holds only its placeholder
        iterations=lambda w, input: " ".join(getattr(input, "iterations", [])),
    priority: AK_PRIORITY
    shell:
        "python -m analysis.akella2002_search search --params {params.json:q} "
        "--out {output} {params.iterations}" + LOGGED


rule akella2002_tables:
    """The searches' summary table (NE, iterations, runs vs an exhaustive grid), the joint
    searches by start order against the published rows, and the search settings with their
    provenance."""
    input:
        searches=[
            f"{AK.search_dir(s)}/search.json"
            for s in sorted(AK.searches)
            if not AK.searches[s].variant and AK.searches[s].queue in akella.PAPER_QUEUES
        ],
        originals="config/originals/akella2002.yaml",
        code=code("analysis.plots.akella2002"),
    output:
        searches="paper/generated/akella2002/searches.tex",
        joint_order="paper/generated/akella2002/joint_order.tex",
        settings="paper/generated/akella2002/settings.tex",
        figures="paper/generated/akella2002/figures.tex",
    log:
        f"logs/akella2002/tables-{FIDELITY}.log",
    benchmark:
        f"benchmarks/akella2002/tables-{FIDELITY}.tsv"
    params:
        json=lambda w: json.dumps(
            {"experiments": config["akella2002"]["experiments"], "figures": AK_FIGURES},
            sort_keys=True,
        ),
    shell:
        "python -m analysis.plots.akella2002 tables --params {params.json:q} "
        "--searches-tex {output.searches} --settings-tex {output.settings} "
        "--figures-tex {output.figures} --joint-order-tex {output.joint_order} "
        "--originals {input.originals} --inputs {input.searches}" + LOGGED


def ak_sensitivity_searches() -> list[str]:
    """The records the sensitivity table reads: each rerun search under our defaults and under
    every tested value made at this fidelity."""
    if AK_SENS is None:
        return []
    names = [n for n in AK_SENS.searches if n in AK.searches]
    names += [s for s in sorted(AK.searches) if AK.searches[s].variant]
    return [f"{AK.search_dir(s)}/search.json" for s in names]


rule akella2002_sensitivity:
    """The NE under the tested values of the parameters the paper does not state: the table,
    the figure, our robustness checks of the paper's conclusions, and which off rows a tested
    value brings within tolerance (config akella2002.sensitivity)."""
    input:
        searches=ak_sensitivity_searches(),
        originals="config/originals/akella2002.yaml",
        code=code("analysis.plots.akella2002"),
    output:
        tex="paper/generated/akella2002/sensitivity.tex",
        tidy=f"results/akella2002/sensitivity/{FIDELITY}/tidy.csv",
        checks=f"results/akella2002/sensitivity/{FIDELITY}/checks.csv",
        pdf="figures/akella2002/sensitivity.pdf",
    log:
        f"logs/akella2002/sensitivity-{FIDELITY}.log",
    benchmark:
        f"benchmarks/akella2002/sensitivity-{FIDELITY}.tsv"
    params:
        json=lambda w: json.dumps(
            {
                "fidelity": FIDELITY,
                "sensitivity": config["akella2002"].get("sensitivity"),
                "parameters": config["akella2002"]["parameters"],
                # what the sensitivity's checks read of the experiments: which are searches,
                # and their set-ups
                "experiments": {
                    n: {"set": e.get("set", {}), "design": {
                        k: v for k, v in e.get("design", {}).items() if k == "search"
                    }}
                    for n, e in config["akella2002"]["experiments"].items()
                },
            },
            sort_keys=True,
        ),
    shell:
        "python -m analysis.plots.akella2002 sensitivity --params {params.json:q} "
        "--originals {input.originals} --inputs {input.searches} --tex {output.tex} "
        "--tidy-out {output.tidy} --checks {output.checks} --pdf {output.pdf}" + LOGGED
