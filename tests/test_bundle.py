"""The fidelity bundle (analysis/bundle.py): deterministic archive, provenance, restore that
refuses corrupt files, compare with the checkout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis import bundle


def _outputs(root: Path) -> dict:
    """Two jobs' outputs under ``root``: a step (a table, a folder of two files, numbers) and
    a search record."""
    (root / "r" / "extra").mkdir(parents=True)
    (root / "r" / "tidy.csv").write_text("a,b\n1,2\n")
    (root / "r" / "extra" / "x.csv").write_text("x\n1\n")
    (root / "r" / "extra" / "y.csv").write_text("y\n2\n")
    (root / "n.csv").write_text("key,value\nk,1\n")
    (root / "s").mkdir()
    (root / "s" / "search.json").write_text('{"ne": 1}\n')
    return {
        "analyse:p/step": {
            "components": {"params": "p1", "code": "c1", "sim": "s1", "upstream": "u1"},
            "outputs": ["r/tidy.csv", "r/extra", "n.csv"],
        },
        "search:p/full/s": {
            "components": {"params": "p2", "code": "c2", "sim": "s1", "upstream": "u0"},
            "outputs": ["s/search.json"],
        },
    }


@pytest.fixture
def made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> bundle.Manifest:
    monkeypatch.chdir(tmp_path)
    spec = _outputs(tmp_path)
    return bundle.make(
        spec, Path("b"), fidelity="smoke", commit="abc123", ns_id="nsid", date="2026-11-28"
    )


def test_make_lists_every_file_with_its_sha256_and_is_deterministic(
    made: bundle.Manifest, tmp_path: Path
) -> None:
    """The manifest holds each job's files (a folder output by its files) with their sha256
    and the digest of its components; making it again gives the same archive bytes."""
    job = made.jobs["analyse:p/step"]
    assert sorted(job.files) == ["n.csv", "r/extra/x.csv", "r/extra/y.csv", "r/tidy.csv"]
    assert job.files["r/tidy.csv"] == bundle.sha256_bytes(b"a,b\n1,2\n")
    assert job.digest == bundle.digest(job.components)
    assert made.commit == "abc123" and made.ns_id == "nsid" and made.fidelity == "smoke"
    first = made.archive.read_bytes()
    again = bundle.make(
        _spec_only(tmp_path), Path("b2"), fidelity="smoke", commit="abc123", ns_id="nsid"
    )
    assert again.archive.read_bytes() == first
    assert bundle.sha256_bytes(first) == made.archive_sha256


def _spec_only(root: Path) -> dict:
    doc = json.loads((root / "b" / bundle.MANIFEST).read_text())
    return {
        k: {"components": j["components"], "outputs": j["outputs"]} for k, j in doc["jobs"].items()
    }


def test_restore_writes_the_files_back_and_empties_an_output_folder(
    made: bundle.Manifest, tmp_path: Path
) -> None:
    """After the outputs are lost (a fresh clone) restore writes them byte for byte; a file a
    folder output held but the bundle does not is removed."""
    before = {p: Path(p).read_bytes() for p in made.jobs["analyse:p/step"].files}
    for p in before:
        Path(p).unlink()
    Path("r/extra/stale.csv").write_text("old\n")
    files = bundle.restore(made, "analyse:p/step", ["r/tidy.csv", "r/extra", "n.csv"])
    assert files == sorted(before)
    assert {p: Path(p).read_bytes() for p in before} == before
    assert not Path("r/extra/stale.csv").exists()
    assert all(s == "same" for _, s in bundle.compare(made))


def test_restore_refuses_a_corrupt_or_truncated_archive(made: bundle.Manifest) -> None:
    """A truncated archive is refused with its name and the sha256 the manifest expects; so
    is one archive member whose bytes differ from the manifest's."""
    data = made.archive.read_bytes()
    made.archive.write_bytes(data[: len(data) // 2])
    want = made.archive_sha256
    with pytest.raises(bundle.BundleError, match=rf"tar.xz: corrupt or truncated.*expected {want}"):
        bundle.restore(made, "search:p/full/s")
    made.archive.write_bytes(data)
    doc = json.loads((made.folder / bundle.MANIFEST).read_text())
    doc["jobs"]["search:p/full/s"]["files"]["s/search.json"] = "0" * 64
    (made.folder / bundle.MANIFEST).write_text(json.dumps(doc))
    with pytest.raises(bundle.BundleError, match="s/search.json: sha256 .*, expected 0{64}"):
        bundle.restore(bundle.load(made.folder), "search:p/full/s")


def test_restore_checks_the_declared_outputs_and_the_job(made: bundle.Manifest) -> None:
    with pytest.raises(bundle.BundleError, match="no job analyse:p/other"):
        bundle.restore(made, "analyse:p/other")
    with pytest.raises(bundle.BundleError, match="the workflow declares"):
        bundle.restore(made, "analyse:p/step", ["r/tidy.csv"])


def test_changed_names_the_components_that_differ(made: bundle.Manifest) -> None:
    job = made.jobs["analyse:p/step"]
    assert job.changed(job.components) == []
    assert job.changed({**job.components, "params": "p9", "code": "c9"}) == ["code", "params"]


def test_compare_finds_changed_missing_and_extra_files(made: bundle.Manifest) -> None:
    Path("r/tidy.csv").write_text("a,b\n1,3\n")
    Path("n.csv").unlink()
    Path("r/extra/z.csv").write_text("z\n")
    rows = dict(bundle.compare(made, ["analyse:p/step"]))
    assert rows["r/tidy.csv"] == "differs" and rows["n.csv"] == "missing"
    assert rows["r/extra/z.csv"] == "extra" and rows["r/extra/x.csv"] == "same"
    assert bundle.main(["compare", "--bundle", "b"]) == 1


def test_make_refuses_missing_outputs_and_load_a_bad_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(bundle.BundleError, match="nothing.csv: output missing"):
        bundle.make(
            {"analyse:p/x": {"components": {}, "outputs": ["nothing.csv"]}},
            Path("b"),
            fidelity="smoke",
            commit="c",
            ns_id="n",
        )
    with pytest.raises(bundle.BundleError, match="no bundle manifest"):
        bundle.load(tmp_path / "none")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / bundle.MANIFEST).write_text("{}")
    with pytest.raises(bundle.BundleError, match="not a bundle manifest"):
        bundle.load(tmp_path / "bad")


def test_digest_by_hand() -> None:
    """16 hex digits of the sha256 of the sorted-key JSON; files_digest counts content."""
    assert bundle.digest({"b": 1, "a": 2}) == bundle.sha256_bytes(b'{"a": 2, "b": 1}')[:16]


def test_origin_and_restore_cli(made: bundle.Manifest) -> None:
    Path("s/search.json").unlink()
    rc = bundle.main(["restore", "--bundle", "b", "--job", "search:p/full/s", "--origin", "o.json"])
    assert rc == 0 and Path("s/search.json").read_text() == '{"ne": 1}\n'
    assert json.loads(Path("o.json").read_text()) == {
        "from": "bundle",
        "commit": "abc123",
        "date": "2026-11-28",
    }
    assert bundle.origin() == {"from": "runs"}
