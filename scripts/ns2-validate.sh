#!/usr/bin/env bash
# Check that an ns binary reproduces ns-2's own validation-suite reference outputs.
#
# Usage: scripts/ns2-validate.sh NS_BINARY NS_SRC_TREE SUITE [SUITE ...]
#   NS_BINARY    the ns executable to test (e.g. build/ns2/bin/ns)
#   NS_SRC_TREE  an ns-2.35 source tree (e.g. build/ns2/ns-2.35); read only
#   SUITE        a name X with NS_SRC_TREE/tcl/test/test-all-X (red, sack, simple, ...)
# Example (the set the project uses):
#   scripts/ns2-validate.sh build/ns2/bin/ns build/ns2/ns-2.35 red sack simple tcpVariants newreno
#
# How ns-2's harness works, and what this script does instead of running it:
#   tcl/test/test-all-X only sets file/directory/version and calls ./test-all-template1,
#   which takes ns from $NS (default ../../ns, the tree's own binary), lists the tests
#   (version v2: every "Class Test/NAME" in the suite script), runs "$NS FILE NAME QUIET"
#   in tcl/test, and compares the produced temp.rands byte for byte (cmp) with the
#   gunzipped reference test-output-X/NAME.gz. The suite scripts themselves never start
#   ns; they post-process traces with perl tools at ../../bin/{getrc,raw2xg,...} (perl's
#   path, /usr/bin/perl, is compiled into ns from tcl/lib/ns-autoconf.tcl) and some read
#   ../ex, ../mobility, ../mcast, ... relative to tcl/test.
#   This script rebuilds that layout in a scratch dir: ns-2.35/ns -> NS_BINARY,
#   ns-2.35/bin and ns-2.35/tcl/* -> symlinks into NS_SRC_TREE, and a fresh copy of the
#   files of tcl/test for every suite (tests write temp files there); the source tree is
#   never written. It asks the suite's own test-all-X (with test-all-template1 replaced by
#   a stub that records its arguments) for file/directory/version, lists and runs the
#   tests exactly as test-all-template1 does and compares the same way, but:
#     - temp.rands is deleted before each test (the template would silently compare a
#       previous test's leftover temp.rands if a test wrote none): no output = failure;
#     - an ns exit status other than 0 is a failure (the template ignores it), except 2,
#       which the template reports as "Test not implemented" and does not count: neither
#       do we, but it is printed;
#     - no "sleep 1" between tests (only there to let xgraph start), never interactive;
#     - LC_ALL=C, so awk/sort inside the test scripts behave the same for every caller.
# Output: one line per suite "suite NAME: N passed, M failed (S s)", indented lines for
# every failure/skip, then "ns2-validation: N passed, M failed" (tests, not suites).
# Exit status: 0 only if no test failed and every suite ran at least one test; 1 if a
# test failed or a suite ran none; 2 on a usage/setup error (bad NS_BINARY, tree, suite),
# detected before any test runs.
# Failing tests' outputs and ns logs are kept (path printed); otherwise the scratch dir
# is removed. Needs only bash, coreutils, gzip, cmp (diffutils), awk, perl.
set -euo pipefail

prog=ns2-validate
die() { echo "$prog: $*" >&2; exit 2; }
usage() { echo "usage: $0 NS_BINARY NS_SRC_TREE SUITE [SUITE ...]" >&2; exit 2; }
[ $# -ge 3 ] || usage

# Longest a single test may run before it counts as failed (the slowest test in
# red/sack/simple/tcpVariants/newreno takes a few seconds).
per_test_timeout=600

# Tests that fail with stock ns-2.35 for reasons unrelated to our patches. Each entry is
# SKIP[suite/test]="reason"; a skipped test is not run, not counted, and printed on its
# own line; an entry naming a test the suite does not have is an error.
# Every test of red, sack, simple, tcpVariants, newreno (and of tcp,
# rbp, monitor, packmime and the other suites in ns-2.35's top-level ./validate list
# tried so far) matches its reference byte for byte with this build under Tcl 8.6, so
# nothing needs skipping. Known exception outside that list: suite "quiescent" (5 of its
# 10 tests: tfrc_onoff, tfrc_onoff_oldcode, tcp_telnet, tfrc_cbr_conservative, tcp_cbr)
# differs from its stored outputs with Debian's stock ns 2.35+dfsg-5 too; upstream's
# ./validate does not run that suite. Skip those here (with that reason) if it is added.
# tcpLinux: 20 of its 29 tests differ from the stored outputs with this build before our
# TCP-Linux module (patch 0026) too, byte for byte the same output with and without it
# (checked 2026-11-23); the other 9 (base, bic, cubic, htcp, veno, ...) match and are run.
tcplinux_stock="differs from the stored output without our patch 0026 too (same bytes)"
declare -A SKIP=(
    [tcpLinux/tcpLinuxDropTail_compound]="$tcplinux_stock"
    [tcpLinux/tcpLinuxDropTail_highspeed]="$tcplinux_stock"
    [tcpLinux/tcpLinuxDropTail_hybla]="$tcplinux_stock"
    [tcpLinux/tcpLinuxDropTail_illinois]="$tcplinux_stock"
    [tcpLinux/tcpLinuxDropTail_lp]="$tcplinux_stock"
    [tcpLinux/tcpLinuxDropTail_reno]="$tcplinux_stock"
    [tcpLinux/tcpLinuxDropTail_scalable]="$tcplinux_stock"
    [tcpLinux/tcpLinuxDropTail_vegas]="$tcplinux_stock"
    [tcpLinux/tcpLinuxDropTail_westwood]="$tcplinux_stock"
    [tcpLinux/tcpLinuxDropTail_yeah]="$tcplinux_stock"
    [tcpLinux/tcpLinuxRED_compound]="$tcplinux_stock"
    [tcpLinux/tcpLinuxRED_highspeed]="$tcplinux_stock"
    [tcpLinux/tcpLinuxRED_hybla]="$tcplinux_stock"
    [tcpLinux/tcpLinuxRED_illinois]="$tcplinux_stock"
    [tcpLinux/tcpLinuxRED_lp]="$tcplinux_stock"
    [tcpLinux/tcpLinuxRED_reno]="$tcplinux_stock"
    [tcpLinux/tcpLinuxRED_scalable]="$tcplinux_stock"
    [tcpLinux/tcpLinuxRED_vegas]="$tcplinux_stock"
    [tcpLinux/tcpLinuxRED_westwood]="$tcplinux_stock"
    [tcpLinux/tcpLinuxRED_yeah]="$tcplinux_stock"
)

ns_arg=$1 src_arg=$2
shift 2
suites=("$@")

# ---- check the arguments before doing anything -------------------------------------
[ -e "$ns_arg" ] || die "NS_BINARY '$ns_arg' does not exist"
[ -f "$ns_arg" ] && [ -x "$ns_arg" ] || die "NS_BINARY '$ns_arg' is not an executable file"
ns_bin=$(readlink -f -- "$ns_arg")
[ -d "$src_arg" ] || die "NS_SRC_TREE '$src_arg' is not a directory"
src=$(cd -- "$src_arg" && pwd -P)
testdir="$src/tcl/test"
[ -f "$testdir/test-all-template1" ] && [ -d "$src/bin" ] && [ -f "$src/bin/raw2xg" ] \
  || die "NS_SRC_TREE '$src_arg' does not look like an ns-2.35 tree (no tcl/test/test-all-template1 or bin/raw2xg)"
for s in "${suites[@]}"; do
  case "$s" in
    template1|template1.*|*/*|'') die "'$s' is not a suite name" ;;
  esac
  [ -f "$testdir/test-all-$s" ] || die "no suite '$s' (no $testdir/test-all-$s)"
done
for tool in perl gzip cmp awk timeout; do
  command -v "$tool" >/dev/null || die "'$tool' not found in PATH"
done
export LC_ALL=C

work=$(mktemp -d "${TMPDIR:-/tmp}/ns2-validate.XXXXXX")
keep=false
cleanup() { if ! $keep; then rm -rf -- "$work"; fi; }
trap cleanup EXIT
trap 'keep=false; exit 130' INT TERM

# ---- the binary must be an ns that runs a Tcl script -----------------------------------
printf 'puts "ns-version [ns-version]"\nexit 0\n' > "$work/probe.tcl"
if ! probe=$(cd "$work" && timeout 60 "$ns_bin" probe.tcl 2>&1) \
   || ! grep -q '^ns-version ' <<<"$probe"; then
  die "NS_BINARY '$ns_arg' does not run as ns (probe script gave: $(head -c 300 <<<"$probe"))"
fi

# ---- scratch layout: ns-2.35/{ns,bin,tcl/*} ------------------------------------------------
root="$work/ns-2.35"
mkdir -p "$root/tcl"
ln -s "$ns_bin" "$root/ns"
ln -s "$src/bin" "$root/bin"
for d in "$src"/tcl/*; do
  [ "$(basename "$d")" = test ] || ln -s "$d" "$root/tcl/"
done
run="$root/tcl/test"
failed_dir="$work/failed"

now() { date +%s%N; }

fresh_testdir() {   # fresh copy of tcl/test's files (not the reference-output dirs)
  rm -rf -- "$run"
  mkdir "$run"
  find "$testdir" -maxdepth 1 -type f -exec cp -p -t "$run" {} +
}

# ---- phase 1: resolve every suite before running any ---------------------------------
# The suite's own test-all-X is run with test-all-template1 replaced by a stub that
# records its arguments (file, directory, version, flags/test names).
declare -A S_FILE S_DIR S_TESTS
fresh_testdir
printf '#!/bin/sh\nfor a in "$@"; do printf "%%s\\n" "$a"; done > template1.args\n' \
  > "$run/test-all-template1"
chmod +x "$run/test-all-template1"
for s in "${suites[@]}"; do
  rm -f "$run/template1.args"
  (cd "$run" && sh "./test-all-$s" quiet >/dev/null 2>&1) || true
  [ -s "$run/template1.args" ] || die "suite '$s': test-all-$s does not call test-all-template1; not supported"
  mapfile -t targs < "$run/template1.args"
  file=${targs[0]} directory=${targs[1]} version=${targs[2]:-}
  [ -f "$run/$file" ] || die "suite '$s': script $file not found"
  [ -d "$testdir/$directory" ] || die "suite '$s': no reference outputs $testdir/$directory"
  # test list, as test-all-template1 makes it (extra non-flag arguments select tests)
  tests=()
  for a in "${targs[@]:3}"; do
    case "$a" in quiet|QUIET|new|NEW) ;; *) tests+=("$a") ;; esac
  done
  if [ ${#tests[@]} -eq 0 ]; then
    if [ "$version" = v2 ]; then
      mapfile -t tests < <(awk '/^Class Test\//{ print substr($2,index($2, "/")+1) }' "$run/$file")
    else
      mapfile -t tests < <(awk '/^proc test_/{ print substr($2,index($2, "_")+1) }' "$run/$file")
    fi
  fi
  S_FILE[$s]=$file S_DIR[$s]=$directory S_TESTS[$s]="${tests[*]}"
done
# every skip-list entry must name a test that exists (a stale entry is an error)
for k in "${!SKIP[@]}"; do
  ks=${k%%/*} kt=${k#*/}
  if [ -n "${S_TESTS[$ks]+x}" ] && [[ " ${S_TESTS[$ks]} " != *" $kt "* ]]; then
    die "skip list entry '$k' names no test of suite '$ks'"
  fi
done

# ---- phase 2: run --------------------------------------------------------------------
total_pass=0 total_fail=0 bad_suite=false
for s in "${suites[@]}"; do
  t0=$(now)
  fresh_testdir
  file=${S_FILE[$s]} directory=${S_DIR[$s]}
  read -r -a tests <<<"${S_TESTS[$s]}"
  refdir="$testdir/$directory"

  pass=0 fail=0 notes=()
  for t in "${tests[@]}"; do
    if [ -n "${SKIP[$s/$t]+x}" ]; then
      notes+=("  skip $s/$t: ${SKIP[$s/$t]}")
      continue
    fi
    rm -f "$run/temp.rands"
    log="$run/ns.log"
    set +e
    case "$file" in
      *-session.tcl | *-mixmode.tcl)
        (cd "$run" && timeout "$per_test_timeout" "$root/ns" "$file" "$t" > temp.rands 2> "$log") ;;
      *-mpls.tcl | *-webtraf.tcl | *-message.tcl)
        (cd "$run" && timeout "$per_test_timeout" "$root/ns" "$file" "$t" QUIET > temp.rands 2> "$log") ;;
      *)
        (cd "$run" && timeout "$per_test_timeout" "$root/ns" "$file" "$t" QUIET > "$log" 2>&1) ;;
    esac
    rc=$?
    set -e
    why=""
    if [ $rc -eq 2 ]; then
      notes+=("  not implemented $s/$t: ns exited 2 (test-all-template1 does not count it either)")
      continue
    elif [ $rc -eq 124 ]; then
      why="timed out after ${per_test_timeout}s"
    elif [ $rc -ne 0 ]; then
      why="ns exited with status $rc"
    elif [ ! -f "$run/temp.rands" ]; then
      why="no temp.rands written"
    elif [ ! -f "$refdir/$t.gz" ]; then
      why="no reference output $directory/$t.gz"
    elif ! gzip -dc "$refdir/$t.gz" | cmp -s - "$run/temp.rands"; then
      why="output differs from $directory/$t.gz"
    fi
    if [ -z "$why" ]; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1))
      keep=true
      mkdir -p "$failed_dir/$s"
      if [ -f "$run/temp.rands" ]; then cp "$run/temp.rands" "$failed_dir/$s/$t.test"; fi
      if [ -f "$refdir/$t.gz" ]; then gzip -dc "$refdir/$t.gz" > "$failed_dir/$s/$t"; fi
      cp "$log" "$failed_dir/$s/$t.log"
      notes+=("  FAIL $s/$t: $why (kept in $failed_dir/$s/$t.{test,log})")
    fi
  done
  rm -rf -- "$run"
  t1=$(now)
  secs=$(( (t1 - t0) / 100000000 ))   # tenths of a second
  echo "suite $s: $pass passed, $fail failed ($((secs / 10)).$((secs % 10)) s)"
  for n in "${notes[@]+"${notes[@]}"}"; do echo "$n"; done
  if [ $((pass + fail)) -eq 0 ]; then
    echo "  ERROR $s: ran zero tests"
    bad_suite=true
  fi
  total_pass=$((total_pass + pass))
  total_fail=$((total_fail + fail))
done

echo "ns2-validation: $total_pass passed, $total_fail failed"
if $keep; then
  echo "$prog: outputs of failing tests kept in $failed_dir (diff NAME.test NAME)" >&2
fi
if [ $total_fail -ne 0 ] || $bad_suite; then
  exit 1
fi
exit 0
