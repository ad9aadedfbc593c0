# Akella et al. 2002, the TCP game (tcl/akella2002/dumbbell.tcl, analysis/akella2002.py,
# analysis/plots/akella2002.py).
#
# Runs: a point (tcp, queue, alpha, beta, alpha_n, beta_n) has R ns runs (seeds), under
# results/akella2002/points/<fidelity>/; a run is made once and shared by every search and
# figure that needs it. A figure's points are made by the shared rule runs (one job per
# experiment: its points' runs, RUNS_OF below). A sweep that sets other parameters (the
# plain-CHOKe sweep's n) has its points under points/<fidelity>/var/<parameter-value__...>/.
# Best-response searches: one job each (rule akella2002_search), whose driver
# (analysis.akella2002_search) runs the iterations and stages in order and makes each
# stage's point runs in a pool of the job's threads (analysis.nsbatch); its record goes
# to results/akella2002/search/<fidelity>/<method>/<search>/search.json (the method, full or
# adaptive, is a wildcard: the configured one feeds the report, the other can be asked for,
# as bench/ne-search does). A killed search job resumes from the runs it finished.
from analysis import akella2002_profiles as akella_profiles
from analysis import akella2002_search as akella
from analysis import diagnosis as diag
from analysis.compare import load_originals

# made here from the originals, so no published number is typed into the config: the
# experiments that simulate the paper's joint NE profiles (the check of the NE goodput and loss
# rows: each joint search's experiment with every flow at the published (alpha_E, beta_E)), and
# the beta searches started there, for the beta_E rows whose diagnosis names that check
_AK_PUBLISHED = {p.key: p for p in load_originals(Path("config/originals/akella2002.yaml"))}
_AK_DIAGNOSES = diag.load(Path("config/diagnoses/akella2002.yaml"))
_AK_START_EXPERIMENTS = akella_profiles.published_start_experiments(
    config["akella2002"]["experiments"],
    _AK_PUBLISHED,
    akella_profiles.start_joints(_AK_DIAGNOSES),
)
# (and the profiles under the tested values of config akella2002.profiles); an alpha search's
# profile keeps every flow's beta at the alpha searches' (Sec 4.1)
try:
    AK_TESTED = akella_profiles.tested_values(config)
except conf.ConfigError as _e:
    sys.stderr.write(f"\n{_e}\n\n")
    sys.exit(1)
AK_ALPHA_BETA = float(config["akella2002"]["parameters"]["beta"]["value"])
config["akella2002"]["experiments"].update(
    akella_profiles.published_profile_experiments(
        config["akella2002"]["experiments"], _AK_PUBLISHED, AK_TESTED, AK_ALPHA_BETA
    )
    | _AK_START_EXPERIMENTS
)
# the beta searches from the paper's joint NE whose row's diagnosis names an unstated
# parameter are rerun under every tested value, as the sensitivity's searches are
_AK_SENS_CONFIG = config["akella2002"].get("sensitivity")
if _AK_SENS_CONFIG:
    _AK_SENS_CONFIG["searches"] = list(
        dict.fromkeys(
            [*_AK_SENS_CONFIG["searches"], *akella_profiles.tested_start_searches(_AK_DIAGNOSES)]
        )
    )

try:
    AK = akella.study(config, FIDELITY)
except conf.ConfigError as _e:
    sys.stderr.write(f"\n{_e}\n\n")
    sys.exit(1)

AK_SEARCH_DIR = f"{akella.SEARCH_ROOT}/{FIDELITY}"
AK_SEARCH = AK_SEARCH_DIR + "/{ak_method}/{ak_search}"


def ak_experiment_files(exp: str) -> list[str]:
    """A search's record (made with the configured method); the index of the point runs of a
    derivative set or a sweep."""
    if exp in AK.searches:
        return [f"{AK.search_dir(exp)}/search.json"]
    return [runs_index("akella2002", exp)]


EXPERIMENT_FILES["akella2002"] = ak_experiment_files
RUNS_OF["akella2002"] = lambda exp: [(str(o), p) for o, p in AK.runs(AK.figure_points([exp]))]
# a point's runs are shared with the searches and other figures: a job waits for one
# another job is making, then reuses it (as a search does)
LOCK_WAIT["akella2002"] = akella.PointRunner.lock_wait
# an experiment is made at a fidelity unless its level says skip
EXPERIMENT_ACTIVE["akella2002"] = lambda exp: (
    exp in AK.searches or exp in AK.derivatives or exp in AK.sweeps
)
REPORT_EXTRA["akella2002"] += [
    f"{GEN}/akella2002/{t}.tex"
    for t in ("searches", "joint_order", "settings", f"figures", "sensitivity")
] + [f"{FIG}/akella2002/sensitivity.pdf"] + [
    f"{GEN}/akella2002/numbers-{s}.csv" for s in ("sensitivity", "tables")
]
AK_SENS = akella.sensitivity(config, FIDELITY)
AK_FIGURES = sorted(
    n for n, it in ITEMS["akella2002"].items() if it.kind == "figure" and active(it)
)

wildcard_constraints:
    ak_search="[a-z]+_[a-z]+_(alpha|beta|joint|joint_betafirst|beta_at_ne|alpha_fullsweep)(@[a-z][a-z0-9]*)?",
    ak_method="|".join(akella.SEARCH_METHODS),


def ak_search_key(w) -> str:
    """A search job's key in the bundle (rules/bundle.smk)."""
    return f"search:akella2002/{w.ak_method}/{w.ak_search}"


rule akella2002_search:
    """One best-response search, start to end: every iteration's sweep (F_n's goodput CIs,
    the pick, stop or not), its runs made in a pool of the job's threads, then the NE, its
    per-flow goodput and loss. Its settings, the run parameters among them, are its params:
    a change reruns it (runs made from other inputs are made again, analysis.nsrun's run.key)."""
    input:
        unpack(
            lambda w: restore_inputs(ns=[], script=[])
            if restoring(ak_search_key(w))
            else {
                "ns": NS_INPUT,
                "script": "tcl/akella2002/dumbbell.tcl",
                "lib": TCL_LIB,
                "runner": NSRUN,
                "code": code("analysis.akella2002_search"),
            }
        ),
        # apart: the build's checkpoint is asked only of a search made from runs
        nsid=lambda w: [] if restoring(ak_search_key(w)) else ns_id(w),
    output:
        AK_SEARCH + "/search.json",
    log:
        AK_SEARCH + "/search.log",
    # ns runs at a time in the job (ns.job_threads); on a cluster, its CPUs
    threads: config["ns"]["job_threads"]
    params:
        json=lambda w: json.dumps(akella.search_params(AK, w.ak_search, w.ak_method), sort_keys=True),
        # ns's exact CPU time per run made (analysis.nsrun --cpu-log), appended by each attempt
        cpu=f"benchmarks/akella2002/search/{FIDELITY}/{{ak_method}}/{{ak_search}}.cpu",
        restore=lambda w: restore_cmd(ak_search_key(w)),
    shell:
        RESTORE_OR
        + "python -m analysis.akella2002_search --params {params.json:q} --ns {input.ns} "
        "--script {input.script} --threads {threads} --cpu-log {params.cpu} --out {output}"
        + RESTORE_END + LOGGED


# the NE at the paper's own profile (analysis.akella2002_profiles): the figures whose
# joint search is made at this fidelity and has a profile experiment, and those runs
_AK_PROFILE_SEARCHES = {
    f: [
        f"{t}_{q}_{m}"
        for m in ("alpha", "joint")
        if f"{t}_{q}_{m}" in akella_profiles.published_profiles(_AK_PUBLISHED, AK_ALPHA_BETA)
    ]
    for f, (t, q) in akella.NE_FIGURES.items()
}
AK_PROFILE_FIGURES = [
    f
    for f, searches in _AK_PROFILE_SEARCHES.items()
    if searches
    and all(
        s in AK.searches and akella_profiles.PROFILE_EXPERIMENT.format(search=s) in AK.sweeps
        for s in searches
    )
]
AK_PROFILES = [
    runs_index("akella2002", akella_profiles.PROFILE_EXPERIMENT.format(search=s))
    for f in AK_PROFILE_FIGURES
    for s in _AK_PROFILE_SEARCHES[f]
]
# the same profiles under the tested values
AK_PROFILES_TESTED = [
    runs_index("akella2002", akella_profiles.TESTED_EXPERIMENT.format(search=s, value=v.name))
    for f in AK_PROFILE_FIGURES
    for s in _AK_PROFILE_SEARCHES[f]
    for v in AK_TESTED
]
# the beta searches from the paper's joint NE made at this fidelity, and under the tested
# values (their beta_E: the check of the beta_E rows whose diagnosis names it)
AK_STARTS = [
    f"{AK.search_dir(s)}/search.json"
    for s in sorted(AK.searches)
    if s.partition(akella.VARIANT_SEP)[0] in _AK_START_EXPERIMENTS
]
AK_PROFILES_KEY = "profiles:akella2002"  # its key in the bundle (rules/bundle.smk)
AK_PROFILES_NUMBERS = f"{GEN}/akella2002/numbers-profiles.csv"
if AK_PROFILE_FIGURES:
    REPORT_EXTRA["akella2002"] += [AK_PROFILES_NUMBERS]


rule akella2002_profiles:
    """The check values of the joint NE's goodput and loss rows: the per-flow goodput and loss
    of the runs with every flow at the paper's (alpha_E, beta_E), one number each; and of the
    beta_E rows: the beta_E of the beta searches from that profile (or all of them from the
    bundle)."""
    input:
        unpack(
            lambda w: restore_inputs(originals="config/originals/akella2002.yaml")
            if restoring(AK_PROFILES_KEY)
            else {
                "runs": AK_PROFILES,
                "tested": AK_PROFILES_TESTED,
                "searches": AK_STARTS,
                "originals": "config/originals/akella2002.yaml",
                "code": code("analysis.akella2002_profiles"),
            }
        ),
    output:
        numbers=AK_PROFILES_NUMBERS,
    log:
        f"logs/akella2002/profiles-{FIDELITY}.log",
    params:
        figures=" ".join(AK_PROFILE_FIGURES),
        runs=" ".join(s for f in AK_PROFILES for s in summaries(f)),
        searches=" ".join(AK_STARTS),
        tested=" ".join(s for f in AK_PROFILES_TESTED for s in summaries(f)),
        values=akella_profiles.values_arg(AK_TESTED),
        alpha_beta=AK_ALPHA_BETA,
        pin=runs_pin(AK_PROFILES + AK_PROFILES_TESTED),
        restore=lambda w: restore_cmd(AK_PROFILES_KEY),
    shell:
        RESTORE_OR
        + "python -m analysis.akella2002_profiles --figures {params.figures} --runs "
        "{params.runs} --searches {params.searches} --tested {params.tested} "
        "--values {params.values:q} --alpha-beta {params.alpha_beta} "
        "--originals {input.originals} "
        "--numbers {output.numbers}"
        + RESTORE_END + LOGGED


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
        searches=f"{GEN}/akella2002/searches.tex",
        joint_order=f"{GEN}/akella2002/joint_order.tex",
        settings=f"{GEN}/akella2002/settings.tex",
        figures=f"{GEN}/akella2002/figures.tex",
        numbers=f"{GEN}/akella2002/numbers-tables.csv",
    log:
        f"logs/akella2002/tables-{FIDELITY}.log",
    benchmark:
        f"benchmarks/akella2002/tables-{FIDELITY}.tsv"
    params:
        # the settings table reads the experiments' designs only (all of the experiments
        # would pass the limit of one command-line argument)
        json=lambda w: json.dumps(
            {
                "experiments": {
                    n: {"design": e["design"]}
                    for n, e in config["akella2002"]["experiments"].items()
                    if "design" in e
                },
                f"figures": AK_FIGURES,
            },
            sort_keys=True,
        ),
    shell:
        "python -m analysis.plots.akella2002 tables --params {params.json:q} "
        "--searches-tex {output.searches} --settings-tex {output.settings} "
        "--figures-tex {output.figures} --joint-order-tex {output.joint_order} "
        "--originals {input.originals} --inputs {input.searches} --numbers {output.numbers}"
        + LOGGED


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
        tex=f"{GEN}/akella2002/sensitivity.tex",
        tidy=f"results/akella2002/sensitivity/{FIDELITY}/tidy.csv",
        checks=f"results/akella2002/sensitivity/{FIDELITY}/checks.csv",
        numbers=f"{GEN}/akella2002/numbers-sensitivity.csv",
        pdf=f"{FIG}/akella2002/sensitivity.pdf",
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
        "--tidy-out {output.tidy} --checks {output.checks} --numbers {output.numbers} "
        "--pdf {output.pdf}" + LOGGED
