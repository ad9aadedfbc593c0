#!/usr/bin/env bash
# Write a patch for ns2-patches/ from a development tree.
# Usage: scripts/ns2-mkpatch.sh BASE_SERIES DEV_TREE OUT.patch "one-line description"
#   BASE_SERIES  a series file listing the patches the new one applies on top of
#   DEV_TREE     an ns-2.35 tree (e.g. build/dev/ns-2.35 from build-ns2.sh) holding your edits
# The base tree is rebuilt from the verified tarball + BASE_SERIES in a temp folder; the
# patch holds every difference in source files (build products are excluded).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
base_series=$1 dev=$2 out=$3 desc=$4
dev=$(cd "$dev" && pwd)
case "$base_series" in /*) ;; *) base_series="$PWD/$base_series" ;; esac
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
. <(grep -E '^[a-z0-9]+=' "$here/ns2-patches/SOURCE")
tarball="$here/build/download/$file"
[ -f "$tarball" ] || "$here/scripts/fetch-ns2.sh" "$here/build/download"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tar -xJf "$tarball" -C "$tmp"
while read -r p; do
  case "$p" in ''|'#'*) continue ;; esac
  patch -d "$tmp/ns-2.35" -p1 --fuzz=0 --no-backup-if-mismatch --quiet < "$here/ns2-patches/$p"
done < "$base_series"
{
  echo "$desc"
  echo
  (cd "$tmp" && diff -ruN \
    -x '*.o' -x '*.d' -x '*.a' -x gen -x Makefile -x config.status -x config.log \
    -x autoconf.h -x ns-autoconf.tcl -x ns -x nse -x nstk -x '*.orig' -x '*.rej' \
    -x 'indep-utils' -x '.configure' -x 'validate*' \
    ns-2.35 "$dev" \
    | grep -v -e '^diff -ruN ' -e '^Binary files ' \
    | sed -e "s|^--- ns-2.35/|--- a/|" -e "s|^+++ $dev/|+++ b/|" \
    | sed -E 's/^(---|\+\+\+) ([^\t]*)\t.*/\1 \2/') || true
} > "$out"
n=$(grep -c '^+++ ' "$out" || true)
echo "ns2-mkpatch: $out ($n files)"
