#!/usr/bin/env bash
# make test: the C suite, libgcol_nccl's suite (where NCCL was found and it was
# built), the install + consumer checks and the Python tests, then ONE closing
# line "N passed, N failed, N skipped" that adds them all up.
# The parts' own summary lines are shown relabelled ("[c] 3 passed, ...") so
# that the closing line is the only plain one. Exits 1 if anything failed or a
# part could not report; tests that skip (GPU ones without a GPU) count as
# skipped, never as passed.
#   tests/run_all.sh BUILD
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
build=${1:-build}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
summary='^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$'
passed=0 failed=0 skipped=0

# part NAME COMMAND...: run a part whose last plain summary line counts; a part
# without one, or exiting non-zero with no failure counted, is one failure.
part() {
  local name=$1 rc line p f s
  shift
  "$@" 2>&1 | tee "$logs/$name" | sed -u -E "s/$summary/[$name] &/"
  rc=${PIPESTATUS[0]}
  line=$(grep -E "$summary" "$logs/$name" | tail -1)
  if [ -z "$line" ]; then
    echo "[$name] exit status $rc and no summary line: counted as 1 failure"
    failed=$((failed + 1))
    return
  fi
  read -r p _ f _ s _ <<<"${line//,/}"
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "[$name] exit status $rc: counted as 1 failure"
    failed=$((failed + 1))
  fi
}

# pytest, its counts (from its JUnit XML) printed as a plain summary line
python_tests() {
  if ! python3 -c "import pytest" 2>/dev/null; then
    echo "pytest is not installed: python3 -m pip install pytest numpy hypothesis (.ci/run does this)"
    return 1
  fi
  local rc=0
  PYTHONDONTWRITEBYTECODE=1 GCOL_LIBRARY="$(cd "$build" && pwd)/libgcol.so" python3 -m pytest tests/python -q -rs \
    -p no:cacheprovider --junitxml="$logs/pytest.xml" || rc=$?
  [ -f "$logs/pytest.xml" ] && python3 - "$logs/pytest.xml" <<'PY'
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()
suites = [root] if root.tag == "testsuite" else list(root)
total = lambda key: sum(int(s.get(key, 0)) for s in suites)
failed, skipped = total("failures") + total("errors"), total("skipped")
print("%d passed, %d failed, %d skipped" % (total("tests") - failed - skipped, failed, skipped))
PY
  return $rc
}

part c "$build/gcol_tests"
# libgcol_nccl is built only where NCCL is found (see the Makefile)
if [ -e "$build/gcol_nccl_tests" ]; then
  part nccl "$build/gcol_nccl_tests"
else
  echo "[nccl] libgcol_nccl was not built (NCCL not found): its tests did not run"
fi
part consumers tests/consumers/check.sh "$build"
part python python_tests
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
