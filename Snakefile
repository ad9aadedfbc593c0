# The whole artifact: patched ns-2.35 -> simulations -> analysis -> figures -> report.
#   snakemake --cores N                       everything at the configured fidelity
#   snakemake --cores N --config fidelity=smoke
#   snakemake --cores N figures/quick/floyd1991/fig02.pdf     one target
#   snakemake diff                            the console diff against the papers
import hashlib
import json
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
NSRUN = ["analysis/nsrun.py", "analysis/nsbatch.py"]
ITEMS = {p: conf.items(config, p) for p in PAPERS}

# What a paper's own rules file (rules/<paper>.smk) sets where it differs from the shared
# rules (rules/common.smk); Akella et al. keep their runs as shared points:
#   EXPERIMENT_FILES[paper](experiment) -> the files a step reads for one experiment
#   EXPERIMENT_ACTIVE[paper](experiment) -> whether the experiment is made at this fidelity
#   RUNS_OF[paper](experiment) -> the experiment's runs: [(folder, ns parameters)]
#   LOCK_WAIT[paper] -> seconds a job waits for a run another job is making (then reused)
#   REPORT_EXTRA[paper] -> further files of the paper in the report
EXPERIMENT_FILES: dict = {}
EXPERIMENT_ACTIVE: dict = {}
RUNS_OF: dict = {}
LOCK_WAIT: dict = {}
REPORT_EXTRA: dict[str, list[str]] = {p: [] for p in PAPERS}


# one experiment's runs, computed once per Snakemake process (the config is fixed once
# loaded): input and params functions ask for them once per job, and recomputing (and
# rechecking) every run of the experiment each time made building the DAG quadratic in runs
_RUNS: dict[tuple[str, str], list] = {}


def experiment_runs(paper: str, experiment: str) -> list:
    """The runs of one experiment at this fidelity: [(folder, {key: ns value})], in the
    config's order."""
    key = (paper, experiment)
    if key not in _RUNS:
        if paper in RUNS_OF:
            _RUNS[key] = RUNS_OF[paper](experiment)
        else:
            _RUNS[key] = [
                (
                    f"results/{paper}/{experiment}/{FIDELITY}/{r.run_id}",
                    {k: nsrun.format_value(v) for k, v in r.params.items()},
                )
                for r in conf.runs(config, paper, experiment, FIDELITY)
            ]
    return _RUNS[key]


def runs_index(paper: str, experiment: str) -> str:
    """The index of an experiment's runs (analysis.nsbatch): the one output of its job."""
    return f"results/{paper}/{experiment}/{FIDELITY}/runs.json"


def runs_json(paper: str, experiment: str) -> str:
    """The runs of an experiment as analysis.nsbatch reads them (rule runs_spec writes them)."""
    return json.dumps(
        [{"out": out, "params": p} for out, p in experiment_runs(paper, experiment)],
        sort_keys=True,
    )


def runs_pin(files) -> str:
    """A digest of the runs (folders and parameters) of every index among ``files``, for the
    params of each step that reads them: a changed parameter reruns the step and so remakes
    the experiment's runs. (Snakemake does not remake a missing input of a job whose output
    is up to date: without this, an experiment's job that failed or was killed after its
    parameters changed was never redone, and the step's output stayed from the old ones.)"""
    h = hashlib.sha256()
    for f in sorted(str(f) for f in files if str(f).endswith("/runs.json")):
        _, paper, experiment, _, _ = Path(f).parts
        h.update(f"{f} {runs_json(paper, experiment)}\n".encode())
    return h.hexdigest()[:16]


def summaries(index: str) -> list[str]:
    """The summary.json of every run an index lists (from the config, not the file: known
    before the runs are made)."""
    _, paper, experiment, _, _ = Path(index).parts
    return [f"{out}/summary.json" for out, _ in experiment_runs(paper, experiment)]


include: "rules/ns2.smk"
include: "rules/common.smk"


# a paper's own rules (rules/<paper>.smk), where it has rules beyond the shared ones
for _paper in PAPERS:
    if Path(f"rules/{_paper}.smk").is_file():

        include: f"rules/{_paper}.smk"


include: "rules/report.smk"
include: "rules/bundle.smk"


rule all:
    default_target: True
    input:
        f"{REPORT_PDF}",
