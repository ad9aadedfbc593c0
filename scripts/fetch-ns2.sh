#!/usr/bin/env bash
# Fetch Debian's ns2 orig tarball into DIR and verify it against ns2-patches/SOURCE.
# Usage: scripts/fetch-ns2.sh DIR
# A tarball already in DIR (e.g. copied by hand) is used if its checksum matches.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck disable=SC1091
. <(grep -E '^[a-z0-9]+=' "$here/ns2-patches/SOURCE")
dir=$1
mkdir -p "$dir"
tarball="$dir/$file"
# verify FILE WHAT FIX: FILE's sha256 against SOURCE; on a mismatch say what FILE is
# (WHAT) and what to do (FIX), never naming a temporary file that is about to go
verify() {
  local got
  got=$(sha256sum "$1" | cut -d' ' -f1)
  if [ "$got" != "$sha256" ]; then
    echo "fetch-ns2: checksum mismatch for $2" >&2
    echo "  expected sha256 $sha256 (ns2-patches/SOURCE)" >&2
    echo "  actual   sha256 $got" >&2
    echo "  $3; the patches only apply to the pristine $version tree." >&2
    return 1
  fi
}
if [ -f "$tarball" ]; then
  verify "$tarball" "$tarball" "fix: rm '$tarball' && snakemake --cores 1 build_ns (fetches it again)"
  echo "fetch-ns2: $tarball ok"
  exit 0
fi
tmp=$(mktemp -d "$dir/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt-get source also tries Debian's packaging tarball, which may not be served: the orig
# tarball is all we need, so its exit code is not trusted; the checksum decides.
( cd "$tmp" && apt-get source --download-only "$package=$version" ) > "$tmp/apt.log" 2>&1 || true
if [ ! -f "$tmp/$file" ]; then
  echo "fetch-ns2: could not download $file with 'apt-get source'." >&2
  echo "  A deb-src entry for bookworm main is needed: run 'make setup' as root," >&2
  echo "  or see 'scripts/setup.sh --print'. apt said:" >&2
  sed 's/^/    /' "$tmp/apt.log" | tail -5 >&2
  exit 1
fi
verify "$tmp/$file" "$file as downloaded by 'apt-get source' (not kept)" \
  "the mirror served another file: check the deb-src entry (scripts/setup.sh --print), then rerun"
mv "$tmp/$file" "$tarball"
echo "fetch-ns2: $tarball ok"
