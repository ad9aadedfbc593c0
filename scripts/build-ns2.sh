#!/usr/bin/env bash
# Build the patched ns-2.35: unpack the verified pristine tarball, apply ns2-patches/series
# in order (no fuzz), configure against Debian's Tcl/otcl/tclcl, make the 'ns' target.
# Usage: scripts/build-ns2.sh TARBALL BUILD_DIR OUT_BINARY [JOBS]
#   NS2_SERIES=FILE  use another series file (default ns2-patches/series; patch names in it
#                    are relative to ns2-patches/) -- for trying a patch before adding it
#   NS2_CCOPT=FLAGS  the compiler's optimisation flags (default -O2, as configure sets them)
#   NS2_LDFLAGS=FLAGS  more link flags (e.g. -flto=2 with NS2_CCOPT="-O2 -flto=2")
#   NS2_PGO_TRAIN=SCRIPT  profile-guided: build with -fprofile-generate, run SCRIPT with the
#                    instrumented binary as its argument, rebuild with -fprofile-use
# The tree is unpacked anew each time (a patch edit can never leave stale files behind);
# ccache, when installed, makes the rebuild of unchanged files nearly free.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tarball=$1 build=$2 out=$3 jobs=${4:-2}
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
. <(grep -E '^[a-z0-9]+=' "$here/ns2-patches/SOURCE")
got=$(sha256sum "$tarball" | cut -d' ' -f1)
if [ "$got" != "$sha256" ]; then
  echo "build-ns2: $tarball does not match ns2-patches/SOURCE (corrupt or another file)" >&2
  echo "  expected sha256 $sha256" >&2
  echo "  actual   sha256 $got" >&2
  echo "  fix: rm '$tarball' && snakemake --cores 1 build_ns (fetches it again)" >&2
  exit 1
fi

mkdir -p "$build"
build=$(cd "$build" && pwd)
src="$build/ns-2.35"
rm -rf "$src"
echo "build-ns2: unpacking $(basename "$tarball")"
tar -xJf "$tarball" -C "$build"
[ -d "$src" ] || { echo "build-ns2: tarball has no ns-2.35/ folder" >&2; exit 1; }

while read -r p; do
  case "$p" in ''|'#'*) continue ;; esac
  echo "build-ns2: applying $p"
  if ! patch -d "$src" -p1 --fuzz=0 --no-backup-if-mismatch --forward --quiet < "$here/ns2-patches/$p"; then
    echo "build-ns2: patch $p does not apply cleanly (fuzz 0) to the tree as patched so far" >&2
    exit 1
  fi
done < "${NS2_SERIES:-$here/ns2-patches/series}"

"$here/scripts/ns2-prefix.sh" "$build/prefix"
P="$build/prefix"
if [ -d /usr/lib/ccache ]; then
  export PATH="/usr/lib/ccache:$PATH" CCACHE_BASEDIR="$build" CCACHE_NOHASHDIR=1
  echo "build-ns2: using ccache"
fi
cd "$src"
echo "build-ns2: configure"
./configure --with-tcl="$P/tcl" --with-tcl-ver=8.6 --with-tk="$P/tk" --with-tk-ver=8.6 \
  --with-otcl="$P/otcl" --with-tclcl="$P/tclcl" > "$build/configure.log" 2>&1 \
  || { tail -20 "$build/configure.log" >&2; echo "build-ns2: configure failed (log: $build/configure.log)" >&2; exit 1; }
grep -q '^CCOPT.*-O2' Makefile || { echo "build-ns2: configure did not enable -O2" >&2; exit 1; }
ccopt="${NS2_CCOPT:--O2} -Wall -Wno-write-strings"
ldflags="-Wl,-export-dynamic ${NS2_LDFLAGS:-}"
make_ns() {  # make_ns EXTRA_FLAGS LOG
  echo "build-ns2: make -j$jobs ns ($ccopt $1)"
  make -j"$jobs" ns CCOPT="$ccopt $1" LDFLAGS="$ldflags $1" > "$2" 2>&1 \
    || { grep -E 'error|Error' "$2" | head -20 >&2; echo "build-ns2: make failed (log: $2)" >&2; exit 1; }
}
if [ -n "${NS2_PGO_TRAIN:-}" ]; then
  make_ns "-fprofile-generate -fprofile-update=single" "$build/make-instrumented.log"
  echo "build-ns2: training ($NS2_PGO_TRAIN)"
  "$NS2_PGO_TRAIN" "$src/ns" > "$build/train.log" 2>&1 \
    || { tail -20 "$build/train.log" >&2; echo "build-ns2: training failed (log: $build/train.log)" >&2; exit 1; }
  find . -name '*.o' -delete; rm -f ns
  make_ns "-fprofile-use -fprofile-partial-training -Wno-missing-profile" "$build/make.log"
else
  make_ns "" "$build/make.log"
fi
mkdir -p "$(dirname "$out")"
cp ns "$out.tmp"
mv "$out.tmp" "$out"
echo "build-ns2: built $out ($(sha256sum "$out" | cut -c1-12))"
