"""A fidelity's bundle: the outputs of every job that reads ns runs (analysis steps, claims,
search records, diagrams), archived with their provenance, so that the report of that
fidelity is rebuilt on another machine without a single ns run.

A bundle is a folder ``paper/bundle/<fidelity>/`` of two files:

* ``outputs.tar.xz``: the jobs' output files, in a deterministic archive (sorted members,
  no times, owners or modes), so the same outputs give the same bytes;
* ``manifest.json``: the commit, date and ns identity of the run that made them, the
  archive's sha256, and per job (key ``rule:target``) its provenance ``components`` (the
  digests of its parameters, code, simulator and upstream jobs, computed by the workflow:
  rules/bundle.smk), their ``digest`` and every output file with its sha256.

The workflow restores a job from the bundle when its current digest equals the manifest's
(rules/bundle.smk); otherwise it reruns it. Restoring refuses a corrupt or truncated archive,
and any file whose bytes do not match the manifest, naming the file and the sha256 expected.

Usage::

    python -m analysis.bundle make --spec SPEC.json --out DIR --commit C --ns-id ID
    python -m analysis.bundle restore --bundle DIR --job KEY --outputs PATH ... --origin F
    python -m analysis.bundle compare --bundle DIR [--job KEY ...]   # files vs the bundle
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import lzma
import shutil
import sys
import tarfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from analysis import nsio

MANIFEST = "manifest.json"
ARCHIVE = "outputs.tar.xz"
#: xz preset of the archive: -6, xz's default (a smaller archive at -9 costs 10x the memory)
XZ_PRESET = 6


class BundleError(ValueError):
    """A bundle that cannot be used: its message names the file and what is wrong."""


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def digest(obj: object) -> str:
    """The digest of a JSON value (keys sorted): 16 hex digits, as the workflow's runs_pin."""
    return sha256_bytes(json.dumps(obj, sort_keys=True).encode())[:16]


def files_digest(paths: Iterable[str | Path]) -> str:
    """The digest of some files' paths and contents (sorted by path; a missing file counts as
    absent, so adding it later changes the digest)."""
    h = hashlib.sha256()
    for p in sorted(str(p) for p in paths):
        f = Path(p)
        h.update(f"{p} {nsio.sha256(f) if f.is_file() else '-'}\n".encode())
    return h.hexdigest()[:16]


def output_files(outputs: Sequence[str | Path]) -> list[str]:
    """The files of a job's outputs: a file itself, a folder's files (recursively), sorted."""
    out: list[str] = []
    for o in outputs:
        p = Path(o)
        if p.is_dir():
            out += [str(f) for f in sorted(p.rglob("*")) if f.is_file()]
        elif p.is_file():
            out.append(str(p))
        else:
            raise BundleError(f"{p}: output missing (make the fidelity's outputs first)")
    return sorted(out)


@dataclass(frozen=True)
class Job:
    """One job of the manifest: its provenance components and their digest, its declared
    outputs and the sha256 of every file they hold."""

    key: str
    components: dict[str, str]
    digest: str
    outputs: tuple[str, ...]
    files: dict[str, str]

    def changed(self, components: Mapping[str, str]) -> list[str]:
        """The names of the components that differ from ``components`` (sorted)."""
        names = set(self.components) | set(components)
        return sorted(n for n in names if self.components.get(n) != components.get(n))


@dataclass(frozen=True)
class Manifest:
    folder: Path
    fidelity: str
    commit: str
    date: str
    ns_id: str
    archive_sha256: str
    jobs: dict[str, Job]

    @property
    def archive(self) -> Path:
        return self.folder / ARCHIVE


def _tar_bytes(files: Sequence[str]) -> bytes:
    """A tar of ``files`` under their relative paths: sorted, every time, owner and mode the
    same, so equal files give equal bytes."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in sorted(set(files)):
            data = Path(name).read_bytes()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 0
            info.mode = 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def make(
    spec: Mapping[str, Mapping],
    out: Path,
    *,
    fidelity: str,
    commit: str,
    ns_id: str,
    date: str | None = None,
) -> Manifest:
    """Write the bundle of the jobs of ``spec`` (key -> {"components": {name: digest},
    "outputs": [path, ...]}) into the folder ``out``: the archive first, then the manifest
    (written last and atomically: a bundle whose manifest exists is complete)."""
    jobs: dict[str, dict] = {}
    every: list[str] = []
    for key in sorted(spec):
        js = spec[key]
        comps = {str(k): str(v) for k, v in js["components"].items()}
        files = output_files(js["outputs"])
        every += files
        jobs[key] = {
            "components": comps,
            "digest": digest(comps),
            "outputs": list(js["outputs"]),
            "files": {f: nsio.sha256(Path(f)) for f in files},
        }
    data = lzma.compress(_tar_bytes(every), preset=XZ_PRESET)
    out.mkdir(parents=True, exist_ok=True)
    (out / MANIFEST).unlink(missing_ok=True)
    tmp = out / f".{ARCHIVE}.tmp"
    tmp.write_bytes(data)
    tmp.rename(out / ARCHIVE)
    doc = {
        "fidelity": fidelity,
        "commit": commit,
        "date": date or time.strftime("%Y-%m-%d", time.gmtime()),
        "ns_id": ns_id,
        "archive": ARCHIVE,
        "archive_sha256": sha256_bytes(data),
        "jobs": jobs,
    }
    tmp = out / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    tmp.rename(out / MANIFEST)
    return load(out)


def load(folder: Path) -> Manifest:
    """The manifest of the bundle in ``folder`` (BundleError, naming the file, when it is
    missing or malformed)."""
    path = folder / MANIFEST
    try:
        doc = json.loads(path.read_text())
        jobs = {
            k: Job(
                key=k,
                components=dict(j["components"]),
                digest=str(j["digest"]),
                outputs=tuple(j["outputs"]),
                files=dict(j["files"]),
            )
            for k, j in doc["jobs"].items()
        }
        return Manifest(
            folder=folder,
            fidelity=str(doc["fidelity"]),
            commit=str(doc["commit"]),
            date=str(doc["date"]),
            ns_id=str(doc["ns_id"]),
            archive_sha256=str(doc["archive_sha256"]),
            jobs=jobs,
        )
    except FileNotFoundError as e:
        raise BundleError(f"{path}: no bundle manifest") from e
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as e:
        raise BundleError(f"{path}: not a bundle manifest ({e})") from e


def _members(man: Manifest, wanted: set[str]) -> dict[str, bytes]:
    """The bytes of the archive's members named in ``wanted``, after checking the archive's
    sha256 and then each member's against the manifest."""
    try:
        data = man.archive.read_bytes()
    except FileNotFoundError as e:
        raise BundleError(f"{man.archive}: missing (expected sha256 {man.archive_sha256})") from e
    got = sha256_bytes(data)
    if got != man.archive_sha256:
        raise BundleError(
            f"{man.archive}: corrupt or truncated: sha256 {got}, expected {man.archive_sha256}"
        )
    found: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(lzma.decompress(data)), mode="r:") as tar:
        for m in tar:
            if m.name in wanted and m.isfile():
                f = tar.extractfile(m)
                found[m.name] = f.read() if f is not None else b""
    return found


def restore(man: Manifest, key: str, outputs: Sequence[str] | None = None) -> list[str]:
    """Write the output files of job ``key`` from the bundle; the files written. A declared
    output folder is emptied first (it holds exactly the bundle's files after). ``outputs``,
    when given, must be the job's declared outputs (the workflow's), else BundleError."""
    job = man.jobs.get(key)
    if job is None:
        raise BundleError(f"{man.folder / MANIFEST}: no job {key}")
    if outputs is not None and sorted(outputs) != sorted(job.outputs):
        raise BundleError(
            f"{man.folder / MANIFEST}: job {key} has outputs {sorted(job.outputs)}, "
            f"the workflow declares {sorted(outputs)}"
        )
    found = _members(man, set(job.files))
    for name, want in sorted(job.files.items()):
        if name not in found:
            raise BundleError(f"{man.archive}: {name} missing (expected sha256 {want})")
        got = sha256_bytes(found[name])
        if got != want:
            raise BundleError(f"{man.archive}: {name}: sha256 {got}, expected {want}")
    for o in job.outputs:
        p = Path(o)
        if p.is_dir():
            shutil.rmtree(p)
    for name in sorted(job.files):
        p = Path(name)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(f".{p.name}.restore")
        tmp.write_bytes(found[name])
        tmp.rename(p)
    for o in job.outputs:  # a folder output with no files in it
        if o not in job.files:
            Path(o).mkdir(parents=True, exist_ok=True)
    return sorted(job.files)


def compare(man: Manifest, keys: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """(file, status) for every file of the jobs ``keys`` (all by default): ``same``, ``differs``
    or ``missing`` here, against the bundle's sha256; files here that the bundle does not
    hold, in a job's output folder, are ``extra``."""
    rows: list[tuple[str, str]] = []
    for key in keys or sorted(man.jobs):
        job = man.jobs.get(key)
        if job is None:
            raise BundleError(f"{man.folder / MANIFEST}: no job {key}")
        for name, want in sorted(job.files.items()):
            p = Path(name)
            if not p.is_file():
                rows.append((name, "missing"))
            else:
                rows.append((name, "same" if nsio.sha256(p) == want else "differs"))
        for o in job.outputs:
            if Path(o).is_dir():
                rows += [(f, "extra") for f in output_files([o]) if f not in job.files]
    return rows


def origin(man: Manifest | None = None) -> dict[str, str]:
    """What a step's ``origin.json`` says: restored from the bundle ``man`` (its commit and
    date), or (None) made from runs."""
    if man is None:
        return {"from": "runs"}
    return {"from": "bundle", "commit": man.commit, "date": man.date}


def write_origin(path: Path, doc: Mapping[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(dict(doc), sort_keys=True) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m analysis.bundle", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    mk = sub.add_parser("make", help="write a bundle from the jobs of a spec file")
    mk.add_argument("--spec", type=Path, required=True)
    mk.add_argument("--out", type=Path, required=True)
    mk.add_argument("--fidelity", required=True)
    mk.add_argument("--commit", required=True)
    mk.add_argument("--ns-id", type=Path, required=True, help="the ns.id file")
    rs = sub.add_parser("restore", help="write one job's outputs from the bundle")
    rs.add_argument("--bundle", type=Path, required=True)
    rs.add_argument("--job", required=True)
    rs.add_argument("--outputs", nargs="*", default=None)
    rs.add_argument("--origin", type=Path, help="the step's origin.json to write")
    cp = sub.add_parser("compare", help="compare this checkout's files with the bundle's")
    cp.add_argument("--bundle", type=Path, required=True)
    cp.add_argument("--job", nargs="*", default=None)
    a = ap.parse_args(argv)
    try:
        if a.cmd == "make":
            man = make(
                json.loads(a.spec.read_text()),
                a.out,
                fidelity=a.fidelity,
                commit=a.commit,
                ns_id=a.ns_id.read_text().strip(),
            )
            size = man.archive.stat().st_size
            print(f"{a.out}: {len(man.jobs)} jobs, {size / 1e6:.2f} MB", file=sys.stderr)
        elif a.cmd == "restore":
            man = load(a.bundle)
            files = restore(man, a.job, a.outputs)
            if a.origin is not None:
                write_origin(a.origin, origin(man))
            print(f"{a.job}: {len(files)} files restored from {a.bundle} ({man.commit[:12]})")
        else:
            rows = compare(load(a.bundle), a.job)
            for name, status in rows:
                if status != "same":
                    print(f"{status}\t{name}")
            bad = sum(s != "same" for _, s in rows)
            print(f"{len(rows)} files, {bad} not the bundle's", file=sys.stderr)
            return 1 if bad else 0
    except BundleError as e:
        print(f"bundle: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
