#!/usr/bin/env bash
# One GPU call for the sketches (issue 24): build, the sketch tests, compute-
# sanitizer memcheck (and racecheck on the shared-memory HLL kernel) at
# reduced sizes, the Python sketch tests, bench_sketch. Logs under $OUT.
#   scripts/gpu-sketch.sh [filter]   (default bloom,hll,sketch)
set -u
cd "$(dirname "$0")/.."
out=${OUT:-gpu-sketch-logs}
mkdir -p "$out"
filter=${1:-bloom,hll,sketch}
arch='-gencode arch=compute_90,code=sm_90'
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
if ! make -j16 build/gcol_tests build/libgcol.so build/bench/bench_sketch GPU_ARCHS="$arch" NCCL_HOME= \
    >"$out/build.log" 2>&1; then
  grep -B2 -A8 -m5 "error" "$out/build.log"; echo "BUILD FAILED"; exit 1
fi
echo "build: $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
timeout 200 build/gcol_tests "$filter" >"$out/tests.log" 2>&1
echo "tests ($filter) rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$out/tests.log")"
grep -E "^FAIL|CHECK|formula|error" "$out/tests.log" | head -20
if [ -n "${FULL_SUITE:-}" ]; then
  t0=$(date +%s)
  timeout 200 build/gcol_tests >"$out/tests-all.log" 2>&1
  echo "whole suite rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$out/tests-all.log")"
  grep -E "^FAIL" "$out/tests-all.log" | head
fi
t0=$(date +%s)
GCOL_TEST_MAX_N=20000 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 99 build/gcol_tests "$filter" \
  >"$out/memcheck.log" 2>&1
echo "memcheck rc=$? ($(( $(date +%s) - t0 )) s): $(grep -c '========= \(Invalid\|Error\)' "$out/memcheck.log") reports; $(grep -E '^[0-9]+ passed' "$out/memcheck.log" | tail -1); $(grep 'ERROR SUMMARY' "$out/memcheck.log" | tail -1)"
grep -m3 -A6 "=========  *\(Invalid\|Error\)" "$out/memcheck.log"
t0=$(date +%s)
GCOL_TEST_MAX_N=3000 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 99 build/gcol_tests hll_matches,hll_merge \
  >"$out/racecheck.log" 2>&1
echo "racecheck rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E '^[0-9]+ passed' "$out/racecheck.log" | tail -1); $(grep 'RACECHECK SUMMARY\|ERROR SUMMARY' "$out/racecheck.log" | tail -1)"
t0=$(date +%s)
# The package at this commit says version 0.1.0 and its Map config lacks the
# 1.0 header (both being rewritten on another branch), so conftest's GPU probe
# fails: run the sketch tests from a copy with those two lines patched.
py=$(mktemp -d); mkdir -p "$py/tests"; cp -r python "$py/"; cp -r tests/python "$py/tests/"
sed -i 's/__version__ = .*/__version__ = "1.0.0"/' "$py/python/gcol/_version.py"
sed -i 's/gcol.Map("int32", "int32", 1).close()/gcol.HyperLogLog(4).close()/' "$py/tests/python/conftest.py"
(cd "$py" && GCOL_LIBRARY=$OLDPWD/build/libgcol.so timeout 120 python3 -m pytest -q -p no:cacheprovider \
  tests/python/test_host_sketch.py tests/python/test_gpu_sketch.py) >"$out/pytest.log" 2>&1
echo "pytest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$out/pytest.log")"
grep -E "Error|assert|FAILED" "$out/pytest.log" | head -10
t0=$(date +%s)
timeout 200 build/bench/bench_sketch >"$out/bench.log" 2>&1
echo "bench rc=$? ($(( $(date +%s) - t0 )) s)"
cat "$out/bench.log"
