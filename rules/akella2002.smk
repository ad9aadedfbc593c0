# Akella et al. 2002, the TCP game (tcl/akella2002/dumbbell.tcl, analysis/akella2002.py,
# analysis/plots/akella2002.py).
#
# Runs: one job per point (tcp, queue, alpha, beta, alpha_n, beta_n) = R ns runs (seeds),
# under results/akella2002/points/<fidelity>/; a point is made once and shared by every
# search and figure that needs it.
# Best-response searches: checkpoint akella2002_iteration makes iteration j of a search
# (the sweep of F_n's parameter at the common value that iteration j-1 picked, and the
# pick); akella2002_search walks the iterations until one stops the search. Each
# iteration is its own output file: the DAG has no cycle, a finished iteration is never
# recomputed, and an interrupted search resumes at the first missing iteration.
from analysis import akella2002_search as akella

try:
    AK = akella.study(config, FIDELITY)
except ccr.ConfigError as _e:
    sys.stderr.write(f"\n{_e}\n\n")
    sys.exit(1)

# a point run's parameters (for runs_pin): the study's base values, and the point's own,
# which its path spells out
RUN_ARGS_OF["akella2002"] = lambda path: " ".join(
    f"{k}={nsrun.format_value(v)}" for k, v in AK.base.items()
)

AK_CODE = ["analysis/akella2002_search.py", "analysis/nsio.py", "analysis/stats.py"]
AK_ANALYSIS = [*AK_CODE, "analysis/akella2002.py", "analysis/models/akella2002.py", "analysis/numbers.py"]
AK_PLOT = ["analysis/plots/akella2002.py", "analysis/plots/common.py"]
AK_SEARCH_DIR = f"{akella.SEARCH_ROOT}/{FIDELITY}"
# a figure of searches is made when its searches are made at this fidelity
AK_NE_FIGURES = sorted(
    f for f in akella.NE_FIGURES if all(s in AK.searches for s in akella.searches_of(f))
)
AK_FIGURES = sorted([*AK_NE_FIGURES, "fig05", "fig06", "fig10", "hybrid"])  # made here
AK_FIG05 = sorted(n for n in AK.derivatives)
AK_FIG10 = sorted(n for n in AK.sweeps if n.startswith("fig10"))
AK_NUMBERS = [
    *(f"paper/generated/akella2002/numbers-{f}.csv" for f in AK_FIGURES),
    "paper/generated/akella2002/numbers-setup.csv",
    "paper/generated/akella2002/claims-checks.csv",
]

REPORT_PARTS["akella2002"] = [
    *(f"figures/akella2002/{f}.pdf" for f in AK_FIGURES),
    *(f"paper/generated/akella2002/{f}.tex" for f in AK_FIGURES),
    "paper/generated/akella2002/searches.tex",
    "paper/generated/akella2002/joint_order.tex",
    "paper/generated/akella2002/settings.tex",
    "paper/generated/akella2002/figures.tex",
    *AK_NUMBERS,
]

wildcard_constraints:
    ak_tcp="[a-z]+",
    ak_queue="[a-z]+",
    ak_a="[0-9]+(\.[0-9]+)?",
    ak_b="0\.[0-9]+",
    ak_an="[0-9]+(\.[0-9]+)?",
    ak_bn="0\.[0-9]+",
    ak_search="[a-z]+_[a-z]+_(alpha|beta|joint|joint_betafirst)",
    ak_iter="[1-9][0-9]*",


rule akella2002_point:
    """R runs (the fidelity's seeds) of one point."""
    input:
        ns=NS_INPUT,
        nsid=ns_id,
        script="tcl/akella2002/dumbbell.tcl",
        lib=TCL_LIB,
        runner=NSRUN,
    output:
        expand(
            akella.POINTS_ROOT + "/" + FIDELITY
            + "/{{ak_tcp}}_{{ak_queue}}/a{{ak_a}}_b{{ak_b}}/an{{ak_an}}_bn{{ak_bn}}/s{seed}/summary.json",
            seed=AK.seeds,
        ),
    params:
        dir=lambda w: AK.point_dir(
            akella.Point(w.ak_tcp, w.ak_queue, float(w.ak_a), float(w.ak_b), float(w.ak_an), float(w.ak_bn))
        ),
        args=lambda w: AK.point_args(
            akella.Point(w.ak_tcp, w.ak_queue, float(w.ak_a), float(w.ak_b), float(w.ak_an), float(w.ak_bn))
        ),
        seeds=" ".join(str(s) for s in AK.seeds),
    shell:
        "for s in {params.seeds}; do python -m analysis.nsrun --ns {input.ns} --script {input.script} "
        "--out {params.dir}/s$s {params.args} seed=$s || exit 1; done"


def ak_iteration_inputs(w):
    spec = AK.searches[w.ak_search]
    j = int(w.ak_iter)
    if j > spec.max_sweeps:
        raise ValueError(f"{w.ak_search}: iteration {j} is beyond the cap of {spec.max_sweeps} sweeps")
    prev = []
    if j > 1:
        prev = [checkpoints.akella2002_iteration.get(ak_search=w.ak_search, ak_iter=str(j - 1)).output[0]]
    current = akella.current_of(spec, j, prev[0] if prev else None)
    points = [s for _, p in spec.points(j, current) for s in AK.summaries(p)]
    return {"prev": prev, "points": points}


checkpoint akella2002_iteration:
    """Iteration j of a search: F_n's goodput CIs over the sweep, the pick, stop or not."""
    input:
        unpack(ak_iteration_inputs),
        code=AK_CODE,
    output:
        AK_SEARCH_DIR + "/{ak_search}/iter{ak_iter}.json",
    params:
        pin=lambda w, input: runs_pin(input),  # the parameters of the runs it reads
        prev=lambda w, input: f"--previous {input.prev[0]}" if input.prev else "",
        # the search's settings: a config change reruns the iterations (Snakemake's params trigger)
        design=lambda w: repr((AK.searches[w.ak_search], AK.seeds)),
    shell:
        "python -m analysis.akella2002_search iteration --fidelity {FIDELITY} "
        "--search {wildcards.ak_search} --iteration {wildcards.ak_iter} {params.prev} --out {output}"


def ak_search_inputs(w):
    spec = AK.searches[w.ak_search]
    files = []
    for j in range(1, spec.max_sweeps + 1):
        f = checkpoints.akella2002_iteration.get(ak_search=w.ak_search, ak_iter=str(j)).output[0]
        files.append(f)
        if akella.read_record(f)["stop"]:
            break
    ae, be = akella.ne_of([akella.read_record(files[-1])])
    points = [
        akella.symmetric_point(spec.tcp, spec.queue, ae, be),
        akella.symmetric_point(spec.tcp, spec.queue, *spec.start),
    ]
    return {"iterations": files, "points": [s for p in points for s in AK.summaries(p)]}


rule akella2002_search:
    """A finished search: the NE, its per-flow goodput and loss, every iteration's curve."""
    input:
        unpack(ak_search_inputs),
        code=AK_CODE,
    output:
        AK_SEARCH_DIR + "/{ak_search}/search.json",
    params:
        pin=lambda w, input: runs_pin(input),  # the parameters of the runs it reads
        design=lambda w: repr((AK.searches[w.ak_search], AK.seeds)),
        # until the checkpoint has run (a dry run) the input holds only its placeholder
        iterations=lambda w, input: " ".join(getattr(input, "iterations", [])),
    shell:
        "python -m analysis.akella2002_search search --fidelity {FIDELITY} "
        "--search {wildcards.ak_search} --out {output} {params.iterations}"


rule akella2002_ne_figure:
    input:
        searches=lambda w: [f"{AK_SEARCH_DIR}/{s}/search.json" for s in akella.searches_of(w.fig)],
        code=AK_ANALYSIS,
    output:
        tidy=f"results/akella2002/{{fig}}/{FIDELITY}/tidy.csv",
        ne=f"results/akella2002/{{fig}}/{FIDELITY}/ne.csv",
        numbers="paper/generated/akella2002/numbers-{fig}.csv",
    wildcard_constraints:
        fig="|".join(AK_NE_FIGURES),
    shell:
        "python -m analysis.akella2002 {wildcards.fig} --tidy {output.tidy} --ne {output.ne} "
        "--numbers {output.numbers} {input.searches}"


def ak_point_dirs(names):
    return [AK.point_dir(p) for p in AK.figure_points(names)]


def ak_point_summaries(names):
    return [s for p in AK.figure_points(names) for s in AK.summaries(p)]


FIRST_RUN["akella2002"] = lambda exp: ak_point_summaries([exp])[0]


rule akella2002_fig05:
    """Figure 5: p_a, P_a, p_b, P_b measured under RED and CHOKe+."""
    input:
        runs=ak_point_summaries(AK_FIG05),
        code=AK_ANALYSIS,
    output:
        tidy=f"results/akella2002/fig05/{FIDELITY}/tidy.csv",
        numbers="paper/generated/akella2002/numbers-fig05.csv",
    params:
        pin=runs_pin(ak_point_summaries(AK_FIG05)),  # the parameters of the runs it reads (of wildcards only: a
        # param computed from input is not compared while the input is missing)
        dirs=" ".join(ak_point_dirs(AK_FIG05)),
        seeds=",".join(str(s) for s in AK.seeds),
    shell:
        "python -m analysis.akella2002 fig05 --tidy {output.tidy} --numbers {output.numbers} "
        "--seeds {params.seeds} {params.dirs}"


rule akella2002_fig06:
    """Figure 6: F_a and F_b from the Figure 5 measurements (model module)."""
    input:
        fig05=f"results/akella2002/fig05/{FIDELITY}/tidy.csv",
        code=AK_ANALYSIS,
    output:
        tidy=f"results/akella2002/fig06/{FIDELITY}/tidy.csv",
        numbers="paper/generated/akella2002/numbers-fig06.csv",
    params:
        tau_s=AK.derivatives[AK_FIG05[0]].tau_s,
    shell:
        "python -m analysis.akella2002 fig06 --tidy {output.tidy} --numbers {output.numbers} "
        "--tau-s {params.tau_s} {input.fig05}"


rule akella2002_fig10:
    """Figure 10: loss rates of F_1..F_9 and F_10 under RED and CHOKe+."""
    input:
        runs=ak_point_summaries(AK_FIG10),
        code=AK_ANALYSIS,
    output:
        tidy=f"results/akella2002/fig10/{FIDELITY}/tidy.csv",
        numbers="paper/generated/akella2002/numbers-fig10.csv",
    params:
        pin=runs_pin(ak_point_summaries(AK_FIG10)),  # the parameters of the runs it reads (of wildcards only: a
        # param computed from input is not compared while the input is missing)
        dirs=" ".join(ak_point_dirs(AK_FIG10)),
        seeds=",".join(str(s) for s in AK.seeds),
    shell:
        "python -m analysis.akella2002 fig10 --tidy {output.tidy} --numbers {output.numbers} "
        "--seeds {params.seeds} {params.dirs}"


rule akella2002_hybrid:
    """The Hybrid (Reno) drop-tail evaluation of Sec 4.2.3 (no simulation)."""
    input:
        code=AK_ANALYSIS,
    output:
        tidy="results/akella2002/hybrid/tidy.csv",
        table="results/akella2002/hybrid/thresholds.csv",
        numbers="paper/generated/akella2002/numbers-hybrid.csv",
    params:
        pkt_size=AK.base["pkt_size"],
    shell:
        "python -m analysis.akella2002 hybrid --tidy {output.tidy} --table {output.table} "
        "--numbers {output.numbers} --pkt-size {params.pkt_size}"


rule akella2002_claims:
    """The paper's qualitative claims checked on the regenerated results; set-up numbers."""
    input:
        searches=[f"{AK_SEARCH_DIR}/{s}/search.json" for s in sorted(AK.searches)],
        fig05=f"results/akella2002/fig05/{FIDELITY}/tidy.csv",
        fig06=f"results/akella2002/fig06/{FIDELITY}/tidy.csv",
        fig10=f"results/akella2002/fig10/{FIDELITY}/tidy.csv",
        code=AK_ANALYSIS,
    output:
        numbers="paper/generated/akella2002/numbers-setup.csv",
        claims="paper/generated/akella2002/claims-checks.csv",
    shell:
        "python -m analysis.akella2002 claims --numbers {output.numbers} --claims {output.claims} "
        "--fig05 {input.fig05} --fig06 {input.fig06} --fig10 {input.fig10} {input.searches}"


def ak_plot_inputs(w):
    if w.fig in akella.NE_FIGURES:
        d = f"results/akella2002/{w.fig}/{FIDELITY}"
        return {"tidy": f"{d}/tidy.csv", "extra": f"{d}/ne.csv"}
    if w.fig == "hybrid":
        return {"tidy": "results/akella2002/hybrid/tidy.csv", "extra": "results/akella2002/hybrid/thresholds.csv"}
    return {"tidy": f"results/akella2002/{w.fig}/{FIDELITY}/tidy.csv", "extra": []}


rule akella2002_plot:
    input:
        unpack(ak_plot_inputs),
        originals="config/originals/akella2002.yaml",
        code=AK_PLOT,
    output:
        pdf="figures/akella2002/{fig}.pdf",
        png="figures/akella2002/{fig}.png",
        tex="paper/generated/akella2002/{fig}.tex",
    wildcard_constraints:
        fig="|".join(AK_FIGURES),
    params:
        extra=lambda w, input: f"--extra {input.extra}" if input.extra else "",
    shell:
        "python -m analysis.plots.akella2002 {wildcards.fig} --tidy {input.tidy} {params.extra} "
        "--originals {input.originals} --pdf {output.pdf} --tex {output.tex}"


rule akella2002_tables:
    """The searches' summary table (NE, iterations, runs vs an exhaustive grid), the joint
    searches by start order against the published rows, and the search settings with their
    provenance."""
    input:
        searches=[f"{AK_SEARCH_DIR}/{s}/search.json" for s in sorted(AK.searches)],
        config="config/experiments/akella2002.yaml",
        originals="config/originals/akella2002.yaml",
        code=AK_PLOT,
    output:
        searches="paper/generated/akella2002/searches.tex",
        joint_order="paper/generated/akella2002/joint_order.tex",
        settings="paper/generated/akella2002/settings.tex",
        figures="paper/generated/akella2002/figures.tex",
    params:
        figures=",".join(AK_FIGURES),
    shell:
        "python -m analysis.plots.akella2002 tables --searches-tex {output.searches} "
        "--settings-tex {output.settings} --figures-tex {output.figures} "
        "--joint-order-tex {output.joint_order} --originals {input.originals} "
        "--figures {params.figures} {input.searches}"
