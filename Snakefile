# The whole artifact: patched ns-2.35 -> simulations -> analysis -> figures -> report.
#   snakemake --cores N                       everything at the configured fidelity
#   snakemake --cores N --config fidelity=smoke
#   snakemake --cores N figures/quick/floyd1991/fig02.pdf     one target
#   snakemake diff                            the console diff against the papers
import hashlib
import os
import subprocess
import sys
from pathlib import Path

from analysis import config as conf
from analysis import nsrun
from analysis import scheduling

# one core per job: the jobs' BLAS/OpenMP thread pools at one thread (see there)
scheduling.one_thread_per_job()

# rules call `python`: the interpreter running this Snakemake (the venv's), activated or not
os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])


CONFIG_FILES = [str(p) for p in conf.config_files()]
try:  # Snakemake's own message for bad YAML names neither the file nor the line
    conf.load(conf.config_files())
except conf.ConfigError as _e:
    sys.stderr.write(f"\n{_e}\n\n")
    sys.exit(1)


for _f in CONFIG_FILES:

    configfile: _f


try:
    conf.add_parameter_sets(config)  # as conf.load does
    conf.validate(config)
except conf.ConfigError as _e:
    sys.stderr.write(f"\n{_e}\n\n")
    sys.exit(1)

# for analysis.nsrun in every job: the per-run time limit (not a rule parameter, so changing
# it reruns nothing), and this Snakemake's pid (if it dies, even by kill -9, its ns runs are
# killed instead of going on as orphans)
os.environ[nsrun.TIMEOUT_ENV] = str(config["ns"]["run_timeout_s"])
os.environ[nsrun.OWNER_ENV] = str(os.getpid())

# snakemake --report report.html: every figure with its trace (report/*.rst)
report: "report/workflow.rst"


FIDELITY = config["fidelity"]
# every generated path carries its fidelity: building one never touches another's outputs
GEN = conf.generated_dir(FIDELITY)  # paper/generated/<fidelity>: LaTeX, numbers, the diff
GEN_TEX = str(Path(GEN).relative_to("paper"))  # the same, as paper/report.tex inputs it
FIG = conf.figures_dir(FIDELITY)  # figures/<fidelity>/<paper>/<item>.{pdf,png}
REPORT_PDF = conf.report_pdf(FIDELITY)  # paper/report-<fidelity>.pdf
# the report's date: the commit's (0 outside a git checkout), never the build's clock
SOURCE_DATE_EPOCH = (
    subprocess.run(
        ["git", "log", "-1", "--format=%ct"], capture_output=True, text=True, cwd=workflow.basedir
    ).stdout.strip()
    or "0"
)
PAPERS = conf.papers(config)  # config papers, else every config/experiments/<paper>.yaml
TCL_LIB = sorted(str(p) for p in Path("tcl/lib").glob("*.tcl"))
NSRUN = "analysis/nsrun.py"
# the group of every rule that makes ns runs: ignored locally; on a cluster
# (profiles/slurm: group-components) that many of its jobs go out as one batch job, and a
# batch that fails loses no finished run (analysis/nsrun.py: the run store)
SIM_GROUP = "sims"
ITEMS = {p: conf.items(config, p) for p in PAPERS}

# What a paper's own rules file (rules/<paper>.smk) sets where it differs from the shared
# rules (rules/common.smk); Akella et al. keep their runs as shared points:
#   EXPERIMENT_FILES[paper](experiment) -> the files a step reads for one experiment
#   EXPERIMENT_ACTIVE[paper](experiment) -> whether the experiment is made at this fidelity
#   RUN_ARGS_OF[paper](summary.json) -> the parameters its run is made with
#   REPORT_EXTRA[paper] -> further files of the paper in the report
EXPERIMENT_FILES: dict = {}
EXPERIMENT_ACTIVE: dict = {}
RUN_ARGS_OF: dict = {}
REPORT_EXTRA: dict[str, list[str]] = {p: [] for p in PAPERS}


# one experiment's runs, by run id, computed once per Snakemake process (the config is fixed
# once loaded): input and params functions ask for them once per job, and recomputing (and
# rechecking) every run of the experiment each time made building the DAG quadratic in runs
_RUNS: dict[tuple[str, str], dict] = {}


def runs_by_id(paper: str, experiment: str) -> dict:
    key = (paper, experiment)
    if key not in _RUNS:
        _RUNS[key] = {r.run_id: r for r in conf.runs(config, paper, experiment, FIDELITY)}
    return _RUNS[key]


def runs_of(paper: str, experiment: str) -> list:
    return list(runs_by_id(paper, experiment).values())


def run_summaries(paper: str, experiment: str) -> list[str]:
    return [
        f"results/{paper}/{experiment}/{FIDELITY}/{r.run_id}/summary.json"
        for r in runs_of(paper, experiment)
    ]


def run_args(paper: str, experiment: str, run_id: str) -> str:
    r = runs_by_id(paper, experiment).get(run_id)
    if r is not None:
        return " ".join(f"{k}={nsrun.format_value(v)}" for k, v in r.params.items())
    raise ValueError(f"{paper}/{experiment}: no run '{run_id}' at fidelity {FIDELITY}")


def summary_args(path: str) -> str:
    parts = Path(path).parts
    if parts[1] in RUN_ARGS_OF:
        return RUN_ARGS_OF[parts[1]](path)
    _, paper, experiment, fidelity, run_id, _ = parts
    assert fidelity == FIDELITY, path
    return run_args(paper, experiment, run_id)


def runs_pin(files) -> str:
    """A digest of the parameters of every run among ``files`` (their summary.json), for the
    params of each step that reads runs: a changed parameter reruns the step and so remakes
    its missing runs. (Snakemake does not remake a missing input of a job whose output is up
    to date: without this, a run killed after its parameters changed was never redone, and
    the step's output stayed from the old parameters.)"""
    h = hashlib.sha256()
    for f in sorted(str(f) for f in files if str(f).endswith("/summary.json")):
        h.update(f"{f} {summary_args(f)}\n".encode())
    return h.hexdigest()[:16]


include: "rules/ns2.smk"
include: "rules/common.smk"


# a paper's own rules (rules/<paper>.smk), where it has rules beyond the shared ones
for _paper in PAPERS:
    if Path(f"rules/{_paper}.smk").is_file():

        include: f"rules/{_paper}.smk"


include: "rules/report.smk"


rule all:
    default_target: True
    input:
        f"{REPORT_PDF}",
