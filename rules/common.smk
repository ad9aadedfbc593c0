# The rules every paper shares, driven by each paper's items table (<paper>.items in
# config/experiments/<paper>.yaml):
#   runs     one experiment's runs: results/<paper>/<experiment>/<fidelity>/<run>/summary.json
#                                   + their index results/<paper>/<experiment>/<fidelity>/runs.json
#            (from runs_spec: the runs' folders and parameters, runs-spec.json beside it)
#   analyse  one analysis step:     results/<paper>/<step>/<fidelity>/{tidy.csv,extra/}
#                                   + paper/generated/<paper>/numbers-<step>.csv
#   claims   the paper's claims:    the same for step 'claims' + claims-checks.csv
#   figure   one figure item:       figures/<paper>/<item>.{pdf,png} + its LaTeX
#   table    one table item:        paper/generated/<paper>/<item>.tex
#   diagram  a network diagram drawn from a run (<paper>.diagrams)
# Every step runs `python -m analysis.<paper>` or `analysis.plots.<paper>` with the flags of
# analysis/cli.py; its code inputs are the project modules that module imports
# (analysis/imports.py), so editing a module reruns exactly the steps that import it. A step
# a paper makes otherwise names its own rule in the items table (item field 'rule').
import json

from analysis import imports


wildcard_constraints:
    paper="|".join(PAPERS),
    fidelity="smoke|quick|paper",
    exp="[a-z0-9_]+",
    run="[^/]+",


def code(module: str) -> list[str]:
    """The source files ``python -m <module>`` runs (the module and what it imports)."""
    return imports.closure(module)


def active(it) -> bool:
    """An item is made at this fidelity when all its experiments are."""
    is_made = EXPERIMENT_ACTIVE.get(it.paper, lambda e: True)
    return all(is_made(e) for e in it.experiments) or it.kind == "claims"


def step_of(paper: str, step: str):
    """The first item of ``paper`` made by ``step`` (items sharing a step agree on its inputs)."""
    return next(it for it in ITEMS[paper].values() if it.step == step)


def step_module(paper: str, step: str) -> str:
    """The module whose ``python -m`` makes the step, with analysis/cli.py's flags: its items'
    ``module`` (config/schema: all the same), else the paper's. A step's code inputs are its
    module's, so a step in a module of its own is remade alone when that module changes."""
    names = {i for i, it in ITEMS[paper].items() if it.step == step}
    modules = {config[paper]["items"][i].get("module", f"analysis.{paper}") for i in names}
    if len(modules) != 1:
        raise ValueError(f"config: '{paper}.items': the items of step '{step}' name different modules")
    return modules.pop()


def experiment_files(paper: str, experiment: str) -> list[str]:
    """What a step reads of an experiment: its runs' index (or a paper's own records)."""
    if paper in EXPERIMENT_FILES:
        return EXPERIMENT_FILES[paper](experiment)
    return [runs_index(paper, experiment)]


def step_dir(paper: str, step: str) -> str:
    return f"results/{paper}/{step}/{FIDELITY}"


def step_files(paper: str, step: str) -> list[str]:
    """The runs' indexes and the records a step reads, of the experiments made here."""
    it = step_of(paper, step)
    is_made = EXPERIMENT_ACTIVE.get(paper, lambda e: True)
    return [f for e in it.experiments if is_made(e) for f in experiment_files(paper, e)]


def step_tables(paper: str, step: str) -> list[str]:
    """The tidy tables of the steps ``step`` reads (each step's extra/ lies next to it)."""
    return [f"{step_dir(paper, s)}/tidy.csv" for s in step_of(paper, step).reads]


def params_json(paper: str, keys) -> str:
    """``--params``: the named config values (dotted paths under the paper), as JSON."""
    where = f"{paper}.items"
    return json.dumps({k: conf.dotted(config[paper], k, where) for k in keys}, sort_keys=True)


def step_params(paper: str, step: str) -> str:
    keys = sorted({k for it in ITEMS[paper].values() if it.step == step for k in it.params})
    return params_json(paper, keys)


def is_index(path: str) -> bool:
    return path.endswith("/runs.json")


def step_runs(paper: str, step: str) -> str:
    """``--runs``: the summary.json of every run the step reads, in the indexes' order."""
    return " ".join(s for f in step_files(paper, step) if is_index(f) for s in summaries(f))


def step_inputs(paper: str, step: str) -> dict:
    files = step_files(paper, step)
    tables = step_tables(paper, step)
    return {
        "runs": [f for f in files if is_index(f)],
        "records": [f for f in files if not is_index(f)],
        "tables": tables,
        "extras": [str(Path(t).parent / "extra") for t in tables],
        # the paper's own numbers: a diagnosis check may compute from them (analysis.diagnosis)
        "originals": f"config/originals/{paper}.yaml",
        "code": code(step_module(paper, step)),
    }


# an analysis step's command: its runs, the records and tables it reads, its outputs
ANALYSE = (
    "python -m {params.module} {params.step} --params {params.json:q} "
    "--runs {params.runs} --inputs {input.records} {input.tables} --tidy {output.tidy} "
    "--numbers {output.numbers} --extra {output.extra} --originals {input.originals}"
)
# a failed step shows the end of its log
LOGGED = " > {log} 2>&1 || {{ tail -n 30 {log} >&2; exit 1; }}"

# every step but the claims and those a paper's own rule makes (items with a 'rule')
GENERIC_STEPS = sorted(
    {it.step for p in PAPERS for it in ITEMS[p].values() if not it.rule and it.step != "claims"}
)

# every step's module, at load: a config that gives one step two modules, or a module to an
# item its paper's own rule makes, stops here naming it
try:
    for _p in PAPERS:
        for _name, _it in ITEMS[_p].items():
            if _it.rule and "module" in config[_p]["items"][_name]:
                raise ValueError(f"config: '{_p}.items.{_name}' names both a rule and a module")
            step_module(_p, _it.step)
except ValueError as _e:
    sys.stderr.write(f"\n{_e}\n\n")
    sys.exit(1)


# the ns CPU of every run a job makes (.cpu, analysis.nsrun --cpu-log). No Snakemake
# benchmark: its sampling of every job's processes (a thread in Snakemake's main process) cost
# Snakemake CPU per job, and missed much of a short run (analysis.report.build_cost reads the
# logs)
RUNS_BENCH = "benchmarks/{paper}/{exp}/{fidelity}/runs"


rule runs_spec:
    """The runs of one experiment as analysis.nsbatch reads them (a file: at paper an
    experiment's runs are more than one command-line argument may hold). Its params are the
    runs' folders and parameters, so a changed parameter rewrites it and reruns the runs."""
    output:
        "results/{paper}/{exp}/{fidelity}/runs-spec.json",
    params:
        runs=lambda w: runs_json(w.paper, w.exp),
    localrule: True
    run:
        Path(output[0]).write_text(params.runs + "\n")


rule runs:
    """Every ns run of one experiment, ns.job_threads at a time (analysis.nsbatch): a run
    complete from the same inputs is kept, so a killed job resumes and a changed parameter
    remakes only the runs it changes. Its output is the index of the runs."""
    input:
        spec="results/{paper}/{exp}/{fidelity}/runs-spec.json",
        ns=NS_INPUT,
        nsid=ns_id,
        script=lambda w: f"tcl/{w.paper}/{config[w.paper]['experiments'][w.exp]['family']}.tcl",
        lib=TCL_LIB,
        runner=NSRUN,
    output:
        "results/{paper}/{exp}/{fidelity}/runs.json",
    # no log: each run's ns.log is nsrun's (in the run folder, under the run's lock); as a
    # Snakemake log, a second Snakemake (--nolock) would empty it while the first runs
    threads: lambda w: max(1, min(config["ns"]["job_threads"], len(experiment_runs(w.paper, w.exp))))
    params:
        cpu=RUNS_BENCH + ".cpu",
        lock_wait=lambda w: LOCK_WAIT.get(w.paper, nsrun.LOCK_WAIT_S),
    shell:
        "rm -f {params.cpu}; python -m analysis.nsbatch --ns {input.ns} --script {input.script} "
        "--runs {input.spec} --threads {threads} --lock-wait {params.lock_wait} "
        "--cpu-log {params.cpu} --index {output}"


def analysed_inputs(paper: str, step: str) -> dict:
    """A step's inputs; a step restored from the bundle (rules/bundle.smk) reads no runs."""
    if restoring(_step_key(paper, step)):
        return restore_inputs(records=[], tables=[], originals=f"config/originals/{paper}.yaml")
    return step_inputs(paper, step)


# a job restored from the bundle (params.restore: rules/bundle.smk restore_cmd), or made by
# its own command: RESTORE_OR + <its command> + RESTORE_END
RESTORE_OR = (
    "( if [ {params.restore:q} != - ]; then python -m analysis.bundle restore {params.restore}; "
    "else "
)
RESTORE_END = "; fi )"
# a step made from runs also writes its origin.json (a restored one: analysis.bundle)
ORIGIN = " && printf '%s\\n' {params.origin:q} > {output.origin}"


rule analyse:
    """One analysis step: the runs of its experiments and the tables of the steps it reads ->
    tidy table, further tables, regenerated numbers (or all of them from the bundle)."""
    input:
        unpack(lambda w: analysed_inputs(w.paper, w.step)),
    output:
        tidy=f"results/{{paper}}/{{step}}/{FIDELITY}/tidy.csv",
        extra=directory(f"results/{{paper}}/{{step}}/{FIDELITY}/extra"),
        numbers=f"{GEN}/{{paper}}/numbers-{{step}}.csv",
        origin=f"results/{{paper}}/{{step}}/{FIDELITY}/origin.json",
    log:
        f"results/{{paper}}/{{step}}/{FIDELITY}/analyse.log",
    benchmark:
        f"benchmarks/{{paper}}/{{step}}/{FIDELITY}/analyse.tsv"
    params:
        runs=lambda w: step_runs(w.paper, w.step),
        pin=lambda w: runs_pin(step_files(w.paper, w.step)),
        json=lambda w: step_params(w.paper, w.step),
        step=lambda w: w.step,
        module=lambda w: step_module(w.paper, w.step),
        restore=lambda w, output: restore_cmd(_step_key(w.paper, w.step), output.origin),
        origin=lambda w: origin_json(_step_key(w.paper, w.step)),
    wildcard_constraints:
        step="|".join(GENERIC_STEPS),
    shell:
        RESTORE_OR + ANALYSE + ORIGIN + RESTORE_END + LOGGED


rule claims:
    """The paper's claims checked on the tables of its steps."""
    input:
        unpack(lambda w: analysed_inputs(w.paper, "claims")),
    output:
        tidy=f"results/{{paper}}/claims/{FIDELITY}/tidy.csv",
        extra=directory(f"results/{{paper}}/claims/{FIDELITY}/extra"),
        numbers=f"{GEN}/{{paper}}/numbers-claims.csv",
        claims=f"{GEN}/{{paper}}/claims-checks.csv",
        origin=f"results/{{paper}}/claims/{FIDELITY}/origin.json",
    log:
        f"results/{{paper}}/claims/{FIDELITY}/claims.log",
    benchmark:
        f"benchmarks/{{paper}}/claims/{FIDELITY}/claims.tsv"
    params:
        runs=lambda w: step_runs(w.paper, "claims"),
        pin=lambda w: runs_pin(step_files(w.paper, "claims")),
        json=lambda w: step_params(w.paper, "claims"),
        step="claims",
        module=lambda w: step_module(w.paper, "claims"),
        restore=lambda w, output: restore_cmd(f"claims:{w.paper}", output.origin),
        origin=lambda w: origin_json(f"claims:{w.paper}"),
    shell:
        RESTORE_OR + ANALYSE + " --claims {output.claims}" + ORIGIN + RESTORE_END + LOGGED


def item_of(target: str):
    paper, name = target.split("/")
    return ITEMS[paper][name]


def drawn_inputs(w) -> dict:
    """What a figure or table draws: its step's tables and numbers, the published numbers."""
    it = item_of(w.target)
    d = step_dir(it.paper, it.step)
    return {
        "tidy": f"{d}/tidy.csv",
        "extra": f"{d}/extra",
        "numbers": f"{GEN}/{it.paper}/numbers-{it.step}.csv",
        "originals": f"config/originals/{it.paper}.yaml",
        "code": code(f"analysis.plots.{it.paper}"),
    }


def item_trace(it) -> dict:
    """What a caption names so a reader finds the code and parameters behind it."""
    step = step_of(it.paper, it.step)
    exps = config[it.paper]["experiments"]
    families = sorted({exps[e]["family"] for e in step.experiments})
    return {
        "item": f"{it.paper}/{it.name}",
        "fidelity": FIDELITY,
        "step": it.step,
        "experiments": list(step.experiments),
        "tcl": [f"tcl/{it.paper}/{f}.tcl" for f in families],
        "config": [f"{it.paper}.experiments.{e}" for e in step.experiments]
        + [f"{it.paper}.{k}" for k in it.params],
    }


def item_params(w, rule: str) -> str:
    it = item_of(w.target)
    values = json.loads(params_json(it.paper, it.params))
    return json.dumps({**values, "trace": {**item_trace(it), "rule": rule}}, sort_keys=True)


# a plot step's command: the tables and numbers of its step, the published numbers
DRAW = (
    "python -m analysis.plots.{params.paper} {params.item} --params {params.json:q} "
    "--tidy {input.tidy} --extra {input.extra} --numbers {input.numbers} "
    "--originals {input.originals} --tex {output.tex}"
)
KINDS = {
    kind: [f"{p}/{i}" for p in PAPERS for i, it in ITEMS[p].items() if it.kind == kind]
    for kind in ("figure", "table")
}


def trace_text(w) -> str:
    """The trace of a figure in words (the HTML report's caption)."""
    t = item_trace(item_of(w.target))
    return (
        f"Step ``{t['step']}`` of the experiments {', '.join(t['experiments']) or 'none'} "
        f"(Tcl {', '.join(t['tcl']) or 'none'}); rule ``figure``, script "
        f"``analysis/plots/{t['item'].split('/')[0]}.py``; config {', '.join(t['config'])}."
    )


rule figure:
    input:
        unpack(drawn_inputs),
    output:
        pdf=f"{FIG}/{{target}}.pdf",
        png=report(
            f"{FIG}/{{target}}.png", caption="../report/figure.rst", category="Figures"
        ),
        tex=f"{GEN}/{{target}}.tex",
    log:
        f"logs/{FIDELITY}/figure/{{target}}.log",
    benchmark:
        f"benchmarks/{FIDELITY}/figure/{{target}}.tsv"
    params:
        paper=lambda w: w.target.split("/")[0],
        item=lambda w: w.target.split("/")[1],
        json=lambda w: item_params(w, "figure"),
        title=lambda w: item_of(w.target).title,
        trace=trace_text,
    wildcard_constraints:
        target="|".join(KINDS["figure"]) or "none",
    shell:
        DRAW + " --pdf {output.pdf}" + LOGGED


rule table:
    input:
        unpack(drawn_inputs),
    output:
        tex=f"{GEN}/{{target}}.tex",
    log:
        f"logs/{FIDELITY}/table/{{target}}.log",
    benchmark:
        f"benchmarks/{FIDELITY}/table/{{target}}.tsv"
    params:
        paper=lambda w: w.target.split("/")[0],
        item=lambda w: w.target.split("/")[1],
        json=lambda w: item_params(w, "table"),
    wildcard_constraints:
        target="|".join(KINDS["table"]) or "none",
    shell:
        DRAW + LOGGED


# "paper/fig" -> {experiment, caption, prefer}: each drawn from the first run of its experiment
# whose parameters match every value of "prefer" (else its first run; the title names the run)
DIAGRAMS = {f"{p}/{fig}": d for p in PAPERS for fig, d in config[p].get("diagrams", {}).items()}


def diagram_index(w) -> str:
    return runs_index(w.target.split("/")[0], DIAGRAMS[w.target]["experiment"])


def diagram_run(w) -> str:
    """The run folder a diagram is drawn from."""
    paper, spec = w.target.split("/")[0], DIAGRAMS[w.target]
    runs = experiment_runs(paper, spec["experiment"])
    prefer = {k: nsrun.format_value(v) for k, v in spec.get("prefer", {}).items()}
    pick = next((o for o, p in runs if all(p.get(k) == v for k, v in prefer.items())), runs[0][0])
    return pick


rule diagram:
    input:
        unpack(
            lambda w: restore_inputs()
            if restoring(f"diagram:{w.target}")
            else {"runs": diagram_index(w), "code": code("analysis.plots.topology")}
        ),
    output:
        pdf=f"{FIG}/{{target}}.pdf",
        png=report(
            f"{FIG}/{{target}}.png", caption="../report/diagram.rst", category="Diagrams"
        ),
        tex=f"{GEN}/{{target}}.tex",
    log:
        f"logs/{FIDELITY}/diagram/{{target}}.log",
    benchmark:
        f"benchmarks/{FIDELITY}/diagram/{{target}}.tsv"
    params:
        run=diagram_run,
        pin=lambda w: runs_pin([diagram_index(w)]),
        caption=lambda w: DIAGRAMS[w.target]["caption"],
        label=lambda w: "fig:" + w.target.replace("/", ":"),
        restore=lambda w: restore_cmd(f"diagram:{w.target}"),
    wildcard_constraints:
        target="|".join(DIAGRAMS) or "none",
    shell:
        RESTORE_OR
        + "python -m analysis.plots.topology {params.run} --caption {params.caption:q} "
        "--rule 'diagram ({wildcards.target})' --label {params.label} "
        "--pdf {output.pdf} --tex {output.tex}" + RESTORE_END + LOGGED
