#!/usr/bin/env bash
# Run every tcl/tests/test-*.tcl with the given ns binary and count the checks.
# Usage: tcl/tests/run.sh NS_BINARY [TEST ...]   (default: all tests)
set -uo pipefail
ns=${1:?usage: tcl/tests/run.sh NS_BINARY [TEST ...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$ns" ] || { echo "tcl-tests: ns binary '$ns' not found or not executable" >&2; exit 2; }
ns=$(cd "$(dirname "$ns")" && pwd)/$(basename "$ns")
if [ $# -gt 0 ]; then tests=("$@"); else tests=("$here"/test-*.tcl); fi
passed=0 failed=0 broken=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for t in "${tests[@]}"; do
  [ -f "$t" ] || { echo "tcl-tests: no such test $t" >&2; broken=$((broken+1)); continue; }
  t=$(cd "$(dirname "$t")" && pwd)/$(basename "$t")
  name=$(basename "$t" .tcl)
  # each test runs in its own scratch folder (some write files)
  mkdir -p "$tmp/$name"
  ( cd "$tmp/$name" && "$ns" "$t" ) > "$tmp/$name.out" 2>&1
  rc=$?
  p=$(grep -c '^ok ' "$tmp/$name.out"); f=$(grep -c '^FAIL ' "$tmp/$name.out")
  passed=$((passed+p)); failed=$((failed+f))
  if [ $rc -ne 0 ] || [ "$f" -gt 0 ] || [ "$p" -eq 0 ]; then
    echo "--- $name (exit $rc)"; grep -v '^ok ' "$tmp/$name.out" | tail -20
    [ "$f" -eq 0 ] && broken=$((broken+1))
  else
    echo "$name: $p passed"
  fi
done
echo "tcl-tests: $passed passed, $((failed+broken)) failed"
[ $failed -eq 0 ] && [ $broken -eq 0 ] && [ $passed -gt 0 ]
