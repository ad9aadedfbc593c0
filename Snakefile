# The whole artifact: patched ns-2.35 -> simulations -> analysis -> figures -> report.
#   snakemake --cores N                       everything at the configured fidelity
#   snakemake --cores N --config fidelity=smoke
#   snakemake --cores N figures/floyd1991/fig02.pdf     one target
#   snakemake diff                            the console diff against the papers
import os
import sys
from pathlib import Path

from analysis import config as ccr

# rules call `python`: the interpreter running snakemake (the venv's), activated or not
os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])

configfile: "config/config.yaml"


for _f in sorted(Path("config/experiments").glob("*.yaml")):

    configfile: _f


try:
    ccr.validate(config)
except ccr.ConfigError as _e:
    sys.stderr.write(f"\n{_e}\n\n")
    sys.exit(1)

FIDELITY = config["fidelity"]
PAPERS = config["papers"]
TCL_LIB = sorted(str(p) for p in Path("tcl/lib").glob("*.tcl"))
NSRUN = "analysis/nsrun.py"
# figures/tables each paper's rules add to the report: paper -> list of files
REPORT_PARTS: dict[str, list[str]] = {}
# paper -> (experiment -> the summary.json of its first run), where a paper keeps its runs
# elsewhere than results/<paper>/<experiment>/<fidelity>/<run>/ (Akella et al.: shared points)
FIRST_RUN: dict = {}


def runs_of(paper: str, experiment: str) -> list:
    return ccr.runs(config, paper, experiment, FIDELITY)


def run_summaries(paper: str, experiment: str) -> list[str]:
    return [
        f"results/{paper}/{experiment}/{FIDELITY}/{r.run_id}/summary.json"
        for r in runs_of(paper, experiment)
    ]


def run_args(paper: str, experiment: str, run_id: str) -> str:
    from analysis.nsrun import format_value

    for r in runs_of(paper, experiment):
        if r.run_id == run_id:
            return " ".join(f"{k}={format_value(v)}" for k, v in r.params.items())
    raise ValueError(f"{paper}/{experiment}: no run '{run_id}' at fidelity {FIDELITY}")


include: "rules/ns2.smk"


# one rules file per paper in the report (config: papers)
for _paper in PAPERS:
    if not Path(f"rules/{_paper}.smk").is_file():
        sys.exit(f"config: papers lists '{_paper}', which has no rules/{_paper}.smk yet")

    include: f"rules/{_paper}.smk"


include: "rules/report.smk"


rule all:
    default_target: True
    input:
        "paper/report.pdf",
