#!/usr/bin/env bash
# The bundle end to end at smoke fidelity (make test-bundle, part of make test; after make smoke):
#  1. write the smoke bundle from this checkout's smoke outputs (bundle=off);
#  2. in a copy of the checkout without results/ (as a fresh clone) change one analysis
#     parameter (Akella et al.'s tau_S, read by step fig06) and build the smoke report: every
#     step must come from the bundle but fig06 and the steps that read its tables, which are
#     made here, and no ns run may be made (bundle=strict must refuse to start, naming fig06);
#  3. update the bundle from that build (rule bundle, bundle=on): only fig06 and what reads it
#     change;
#  4. truncate the bundle's archive: the build must refuse it, naming it and its sha256.
set -euo pipefail
root=$(pwd)
smk="$root/.venv/bin/snakemake"
py="$root/.venv/bin/python"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$root/paper/bundle/smoke"' EXIT

"$smk" bundle --cores 2 --quiet rules --config fidelity=smoke bundle=off
# the checkout's files, tracked and new (not ignored), with their times (so ns is not rebuilt)
git ls-files -co --exclude-standard | grep -v '^paper/bundle/smoke/' | tar -cf - -T - | tar -xf - -C "$tmp"
mkdir -p "$tmp/paper/bundle" "$tmp/build"
cp -rp paper/bundle/smoke "$tmp/paper/bundle/smoke"
ln -s "$root/build/ns2" "$tmp/build/ns2"
ln -s "$root/build/download" "$tmp/build/download"
cd "$tmp"
sed -i 's/tau_s: {value: 3, status: assumed/tau_s: {value: 2, status: assumed/' config/experiments/akella2002.yaml
grep -q 'tau_s: {value: 2, status: assumed' config/experiments/akella2002.yaml
# bundle=strict stops before any job, naming the changed job and what changed
if "$smk" -n --config fidelity=smoke bundle=strict > strict.log 2>&1; then
    echo "bundle smoke: bundle=strict accepted a changed job" >&2; exit 1
fi
grep -q "analyse:akella2002/fig06: params" strict.log \
    || { tail -20 strict.log; echo "bundle smoke: bundle=strict does not name fig06" >&2; exit 1; }
"$smk" --cores 2 --quiet rules --config fidelity=smoke > build.log 2>&1 || { tail -40 build.log; exit 1; }
"$py" - <<'PY'
import json
from pathlib import Path

origins = {str(p.parent.parent.relative_to("results")): json.loads(p.read_text())
           for p in Path("results").glob("*/*/smoke/origin.json")}
runs = sorted(k for k, o in origins.items() if o["from"] == "runs")
restored = sorted(k for k, o in origins.items() if o["from"] == "bundle")
made = list(Path("results").rglob("summary.json"))
print(f"bundle smoke: {len(restored)} steps restored, made here: {', '.join(runs)}; "
      f"{len(made)} ns runs made")
assert "akella2002/fig06" in runs, runs
# what reads fig06's tables: the paper's claims; nothing else is made here
assert set(runs) <= {"akella2002/fig06", "akella2002/claims"}, runs
assert len(restored) >= 40, restored
assert not made, made[:3]
assert Path("paper/report-smoke.pdf").is_file()
PY
# the bundle updated from this build (make bundle-update): fig06 and what reads it carry their
# new provenance and outputs, every other job is the old bundle's, byte for byte; with it in
# place bundle=strict finds nothing changed
"$smk" bundle --cores 2 --quiet rules --config fidelity=smoke > update.log 2>&1 \
    || { tail -30 update.log; exit 1; }
"$py" - <<'PY'
import json
from pathlib import Path

old = json.loads(Path("paper/bundle/smoke/manifest.json").read_text())["jobs"]
new = json.loads(Path("paper/bundle/smoke.next/manifest.json").read_text())["jobs"]
assert sorted(old) == sorted(new), sorted(set(old) ^ set(new))
moved = sorted(k for k in new if new[k]["digest"] != old[k]["digest"])
assert "analyse:akella2002/fig06" in moved, moved
assert set(moved) <= {"analyse:akella2002/fig06", "claims:akella2002"}, moved
same = [k for k in new if k not in moved]
assert all(new[k]["files"] == old[k]["files"] for k in same)
print(f"bundle smoke: update made {len(moved)} jobs anew and kept {len(same)}")
PY
rm -rf paper/bundle/smoke && mv paper/bundle/smoke.next paper/bundle/smoke
"$smk" -n --config fidelity=smoke bundle=strict > strict2.log 2>&1 \
    || { tail -20 strict2.log; echo "bundle smoke: the updated bundle is not current" >&2; exit 1; }
# a truncated archive is refused, with its name and the sha256 the manifest expects
want=$("$py" -c "import json; print(json.load(open('paper/bundle/smoke/manifest.json'))['archive_sha256'])")
size=$(stat -c %s paper/bundle/smoke/outputs.tar.xz)
truncate -s $((size / 2)) paper/bundle/smoke/outputs.tar.xz
rm -f results/gao/table1/smoke/tidy.csv
if "$smk" --cores 2 --quiet rules --config fidelity=smoke > corrupt.log 2>&1; then
    echo "bundle smoke: a truncated archive was accepted" >&2; exit 1
fi
grep -q "outputs.tar.xz: corrupt or truncated: sha256 .*, expected $want" corrupt.log \
    || { tail -30 corrupt.log; echo "bundle smoke: the refusal does not name the archive" >&2; exit 1; }
echo "bundle smoke: a truncated archive is refused (expected sha256 ${want:0:12}...)"
