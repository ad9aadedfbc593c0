# The fidelity's bundle (analysis/bundle.py): the outputs of every job that reads ns runs
# (rule analyse, claims, akella2002_search, diagram), archived in paper/bundle/<fidelity>/
# with their provenance, so the report of that fidelity is rebuilt without a single ns run.
#
#   snakemake --cores N bundle --config fidelity=paper bundle=off   # write it from runs
#   snakemake --cores N --config fidelity=paper                     # use it (bundle=on)
#   --config bundle=off                 every job from runs (the bundle is not read)
#   --config bundle=strict              a job the bundle holds but whose provenance changed
#                                       stops the build, naming the job and what changed
#   --config bundle_skip=KEY,KEY        these jobs from runs (keys: analyse:gao/table2, ...)
#
# A job is restored when its provenance digest equals the manifest's: the digests of its
# parameters (the step's params and runs_pin, a search's settings), its code (the modules it
# runs and the originals), the simulator (ns's source, patches and build scripts, the Tcl and
# the run driver: not the binary's hash, which differs between compilers) and of the jobs
# whose outputs it reads. Restoring is the same rule with other inputs (the bundle, no runs)
# and another command; a job whose digest differs is rerun from runs, as are the jobs after
# it. Every analyse and claims job writes origin.json (runs or bundle), which the report shows.
from functools import cache
from types import SimpleNamespace

from analysis import bundle as bundle_mod

BUNDLE_DIR = f"paper/bundle/{FIDELITY}"
BUNDLE_MODE = str(config.get("bundle", "on"))
if BUNDLE_MODE not in ("on", "off", "strict"):
    sys.stderr.write(f"\nconfig: bundle={BUNDLE_MODE!r}: use on, off or strict\n\n")
    sys.exit(1)
_skip = config.get("bundle_skip", [])
BUNDLE_SKIP = set(_skip.split(",") if isinstance(_skip, str) else _skip) - {""}
BUNDLE = None
if BUNDLE_MODE != "off" and Path(BUNDLE_DIR, bundle_mod.MANIFEST).is_file():
    try:
        BUNDLE = bundle_mod.load(Path(BUNDLE_DIR))
    except bundle_mod.BundleError as _e:
        sys.stderr.write(f"\nbundle: {_e}\n\n")
        sys.exit(1)
BUNDLE_INPUTS = [f"{BUNDLE_DIR}/{bundle_mod.MANIFEST}", f"{BUNDLE_DIR}/{bundle_mod.ARCHIVE}"]


@cache
def _files_digest(paths: tuple) -> str:
    return bundle_mod.files_digest(paths)


def sim_digest(paper: str) -> str:
    tcl = [str(p) for p in sorted(Path(f"tcl/{paper}").glob("*.tcl"))]
    return _files_digest(tuple(sorted({*NS_SOURCE, *TCL_LIB, *NSRUN, *tcl})))


def _key_step(key: str) -> tuple[str, str]:
    """(paper, step) of an analyse or claims job's key."""
    kind, target = key.split(":", 1)
    return (target, "claims") if kind == "claims" else tuple(target.split("/"))


def _step_key(paper: str, step: str) -> str:
    return f"claims:{paper}" if step == "claims" else f"analyse:{paper}/{step}"


def _search_key(record: str) -> str:
    # results/akella2002/search/<fidelity>/<method>/<search>/search.json
    method, name = Path(record).parts[-3:-1]
    return f"search:akella2002/{method}/{name}"


def step_outputs(paper: str, step: str) -> list[str]:
    d = step_dir(paper, step)
    out = [f"{d}/tidy.csv", f"{d}/extra", f"{GEN}/{paper}/numbers-{step}.csv"]
    return out + ([f"{GEN}/{paper}/claims-checks.csv"] if step == "claims" else [])


@cache
def bundle_job(key: str) -> tuple:
    """(components but upstream, upstream job keys, outputs, paper) of a bundled job."""
    kind, target = key.split(":", 1)
    if kind in ("analyse", "claims"):
        paper, step = _key_step(key)
        files = step_files(paper, step)
        params = {"params": step_params(paper, step), "pin": runs_pin(files)}
        code_files = [*code(step_module(paper, step)), f"config/originals/{paper}.yaml"]
        upstream = [_search_key(f) for f in files if f.endswith("/search.json")]
        upstream += [_step_key(paper, s) for s in step_of(paper, step).reads]
        outputs = step_outputs(paper, step)
    elif kind == "search":
        paper = "akella2002"
        method, name = target.split("/")[1:]
        params = akella.search_params(AK, name, method)
        code_files = code("analysis.akella2002_search")
        upstream = []
        outputs = [f"{AK_SEARCH_DIR}/{method}/{name}/search.json"]
    elif kind == "profiles":  # rules/akella2002.smk akella2002_profiles
        paper = "akella2002"
        # everything the job reads: the profiles' runs and the tested values' (and those
        # values), the alpha searches' beta, the searches from the paper's NE
        params = {
            "pin": runs_pin(AK_PROFILES + AK_PROFILES_TESTED),
            "figures": AK_PROFILE_FIGURES,
            "values": akella_profiles.values_arg(AK_TESTED),
            "alpha_beta": AK_ALPHA_BETA,
            "searches": AK_STARTS,
        }
        code_files = [*code("analysis.akella2002_profiles"), f"config/originals/{paper}.yaml"]
        upstream = []
        outputs = [AK_PROFILES_NUMBERS]
    elif kind == "diagram":
        paper = target.split("/")[0]
        w = SimpleNamespace(target=target)
        params = {
            "pin": runs_pin([diagram_index(w)]),
            "run": diagram_run(w),
            "caption": DIAGRAMS[target]["caption"],
        }
        code_files = code("analysis.plots.topology")
        upstream = []
        outputs = [f"{FIG}/{target}.pdf", f"{FIG}/{target}.png", f"{GEN}/{target}.tex"]
    else:
        raise ValueError(f"bundle: no job {key}")
    comps = {
        "params": bundle_mod.digest(params),
        "code": _files_digest(tuple(sorted(code_files))),
        "sim": sim_digest(paper),
    }
    return comps, tuple(sorted(set(upstream))), tuple(outputs), paper


@cache
def job_components(key: str) -> dict:
    comps, upstream, _, _ = bundle_job(key)
    return {**comps, "upstream": bundle_mod.digest([job_digest(u) for u in upstream])}


def job_digest(key: str) -> str:
    return bundle_mod.digest(job_components(key))


@cache
def restoring(key: str) -> bool:
    """Whether the job is restored from the bundle: the bundle holds it with this provenance."""
    if BUNDLE is None or key in BUNDLE_SKIP or key not in BUNDLE.jobs:
        return False
    comps = job_components(key)
    job = BUNDLE.jobs[key]
    return job.digest == bundle_mod.digest(comps)


@cache
def from_bundle(key: str) -> bool:
    """Whether the job or a job whose outputs it reads, directly or not, is restored."""
    return restoring(key) or any(from_bundle(u) for u in bundle_job(key)[1])


def origin_json(key: str) -> str:
    """What a job that runs writes to its origin.json (a restored job: analysis.bundle)."""
    doc = bundle_mod.origin()
    if from_bundle(key):
        doc = {**doc, "inputs": "bundle", "commit": BUNDLE.commit, "date": BUNDLE.date}
    return json.dumps(doc, sort_keys=True)


def restore_cmd(key: str, origin: str | None = None) -> str:
    """The arguments of `python -m analysis.bundle restore` for a restored job; "-" for a
    job made from runs (rules/common.smk RESTORE_OR tests for it)."""
    if not restoring(key):
        return "-"
    outs = " ".join(bundle_job(key)[2])
    cmd = f"--bundle {BUNDLE_DIR} --job {key} --outputs {outs}"
    return cmd + (f" --origin {origin}" if origin else "")


def restore_inputs(**same) -> dict:
    """A restored job's inputs: the bundle and its reader; ``same``: what the job's command
    names in both cases (empty lists where it names runs)."""
    return {"bundle": BUNDLE_INPUTS, "reader": code("analysis.bundle"), **same}


# every job the bundle of this fidelity holds: the analysis steps and claims the report
# needs, every search and every diagram, and Akella's checks at the paper's NE profiles
BUNDLE_JOBS = sorted(
    {
        _step_key(p, it.step)
        for p in PAPERS
        for it in ITEMS[p].values()
        if active(it) and (it.step == "claims" or not it.rule)
    }
    | ({f"search:akella2002/{AK.search(s).method}/{s}" for s in AK.searches} if "akella2002" in PAPERS else set())
    | ({AK_PROFILES_KEY} if "akella2002" in PAPERS and AK_PROFILE_FIGURES else set())
    | {f"diagram:{t}" for t in DIAGRAMS}
)


# bundle=strict: a job the bundle holds whose provenance changed stops the build here, before
# any job runs, naming each such job and what changed
if BUNDLE is not None and BUNDLE_MODE == "strict":
    _changed = [
        f"  {k}: {', '.join(BUNDLE.jobs[k].changed(job_components(k)))}"
        for k in BUNDLE_JOBS
        if k in BUNDLE.jobs and k not in BUNDLE_SKIP and not restoring(k)
    ]
    if _changed:
        sys.stderr.write(
            f"\nbundle {BUNDLE_DIR} (commit {BUNDLE.commit[:12]}, {BUNDLE.date}): "
            f"{len(_changed)} job(s) changed since it was made:\n" + "\n".join(_changed)
            + "\n(bundle=on reruns them from runs; bundle_skip=KEY,... or bundle=off)\n\n"
        )
        sys.exit(1)


# the origin.json of every analysis step and claims the report includes (rule report_parts)
REPORT_ORIGINS = [
    f"{step_dir(*_key_step(k))}/origin.json"
    for k in BUNDLE_JOBS
    if k.startswith(("analyse:", "claims:"))
]


HEAD_COMMIT = (
    subprocess.run(
        ["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=workflow.basedir
    ).stdout.strip()
    or "unknown"
)
BUNDLE_OUTPUTS = [o for k in BUNDLE_JOBS for o in bundle_job(k)[2]]


def write_bundle(out: str, nsid: str, log: str) -> None:
    """Write the bundle of every job of BUNDLE_JOBS from this build's outputs into ``out``
    (python -m analysis.bundle make), with each job's provenance; the log says how many jobs
    and, with a bundle read, which of them this build made rather than restored."""
    spec = {
        k: {"components": job_components(k), "outputs": list(bundle_job(k)[2])}
        for k in BUNDLE_JOBS
    }
    man = bundle_mod.make(
        spec, Path(out), fidelity=FIDELITY, commit=HEAD_COMMIT, ns_id=Path(nsid).read_text().strip()
    )
    size = man.archive.stat().st_size
    text = f"{out}: {len(man.jobs)} jobs, {size / 1e6:.2f} MB\n"
    if BUNDLE is not None:
        made = [k for k in BUNDLE_JOBS if not restoring(k)]
        text += f"made from runs ({len(made)}): {' '.join(made) or '-'}\n"
        text += f"restored from {BUNDLE_DIR} ({len(BUNDLE_JOBS) - len(made)})\n"
    Path(log).write_text(text)
    print(text, end="")


rule bundle:
    """Write this fidelity's bundle from the outputs of every job it holds, with each job's
    provenance (python -m analysis.bundle make). With bundle=off every job is made from runs
    and the bundle is written in place (make bundle). Otherwise it is written into
    <bundle>.next (make bundle-update moves it into place): the jobs whose provenance equals
    the bundle's are restored from it, byte for byte, the others (changed parameters, code or
    simulator, and what reads them) are made from runs, so a machine with the changed jobs'
    runs only can write it."""
    input:
        outputs=BUNDLE_OUTPUTS,
        nsid=NS_ID,
        code=code("analysis.bundle"),
    output:
        directory(BUNDLE_DIR if BUNDLE_MODE == "off" else f"{BUNDLE_DIR}.next"),
    log:
        f"logs/{FIDELITY}/bundle.log",
    localrule: True
    run:
        write_bundle(output[0], input.nsid, log[0])
