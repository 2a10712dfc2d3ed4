#!/usr/bin/env bash
# One GPU call for shortest paths (issue 27): the sssp, heap and ABI tests,
# bench_sssp (with a prefetch-depth sweep), compute-sanitizer memcheck and
# racecheck on the predecessor and path tests at reduced sizes, an ncu
# profile (SourceCounters, WarpStateStats) of the 2D grid at 16 sources, and
# the Python sssp tests. Binaries from prebuilt/ when they run here (built on
# the host for sm_90 and carried), else built. Logs under $OUT.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-gpu-sssp-logs}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
export GCOL_SSSP_DATA=$PWD/data
B=prebuilt
if ! "$B/gcol_tests" no_such_test >/dev/null 2>&1; then
  t0=$(date +%s)
  make -j16 build/gcol_tests build/libgcol.so build/bench/bench_sssp GPU_ARCHS='-gencode arch=compute_90,code=sm_90' \
    NCCL_HOME= >"$out/build.log" 2>&1 || { grep -B2 -A8 -m5 "error" "$out/build.log"; echo "BUILD FAILED"; exit 1; }
  mkdir -p build/prebuilt && cp build/gcol_tests build/libgcol.so build/bench/bench_sssp build/prebuilt/
  B=build/prebuilt
  echo "build: $(( $(date +%s) - t0 )) s"
fi
step() { echo "== $1 rc=$2 ($(( $(date +%s) - $3 )) s)"; }
t0=$(date +%s)
timeout 60 "$B/gcol_tests" sssp,heap,dimacs,abi >"$out/tests.log" 2>&1
step "tests sssp,heap,dimacs,abi" $? $t0; tail -1 "$out/tests.log"; grep -E "^FAIL|CHECK|want|pred|pair" "$out/tests.log" | head -20
t0=$(date +%s)
GCOL_BENCH_REPS=${REPS:-2} GCOL_BENCH_SSSP_PREFETCH=${PREFETCH-2,8,16} timeout ${BENCH_S:-150} "$B/bench_sssp" >"$out/bench.log" 2>&1
step bench $? $t0
t0=$(date +%s)
GCOL_TEST_MAX_N=20000 timeout 50 compute-sanitizer --tool memcheck --error-exitcode 99 "$B/gcol_tests" sssp_pred,sssp_paths \
  >"$out/memcheck.log" 2>&1
step memcheck $? $t0; echo "$(grep -E '^[0-9]+ passed' "$out/memcheck.log" | tail -1); $(grep 'ERROR SUMMARY' "$out/memcheck.log" | tail -1)"
grep -m3 -A6 "=========  *\(Invalid\|Error\)" "$out/memcheck.log"
t0=$(date +%s)
GCOL_TEST_MAX_N=3000 timeout 35 compute-sanitizer --tool racecheck --error-exitcode 99 "$B/gcol_tests" \
  sssp_pred_csr,sssp_paths_too_small >"$out/racecheck.log" 2>&1
step racecheck $? $t0; echo "$(grep -E '^[0-9]+ passed' "$out/racecheck.log" | tail -1); $(grep 'RACECHECK SUMMARY\|ERROR SUMMARY' "$out/racecheck.log" | tail -1)"
if [ -z "${NO_NCU:-}" ]; then
  t0=$(date +%s)
  GCOL_BENCH_SSSP_ONLY=grid GCOL_BENCH_SSSP_NS=16 GCOL_BENCH_REPS=1 GCOL_BENCH_CPU_SOURCES=1 GCOL_BENCH_SSSP_PREFETCH= \
    timeout 60 ncu --section SourceCounters --section WarpStateStats --section LaunchStats --section Occupancy \
    -k regex:sssp_kernel -c 1 -o "$out/grid16" "$B/bench_sssp" >"$out/ncu.log" 2>&1
  step "ncu grid 16 sources" $? $t0
  [ -f "$out/grid16.ncu-rep" ] && ncu -i "$out/grid16.ncu-rep" --page details >"$out/ncu-details.txt" 2>&1 &&
    grep -E "Warp Cycles Per Issued|Stall|Issued Warp|Active Warps|Branch|Registers|Achieved" "$out/ncu-details.txt" | head -30
fi
t0=$(date +%s)
GCOL_LIBRARY=$PWD/$B/libgcol.so PYTHONPATH=$PWD/python timeout 30 python3 -m pytest -q -p no:cacheprovider \
  tests/python/test_gpu_sssp.py >"$out/pytest.log" 2>&1
step pytest $? $t0; tail -1 "$out/pytest.log"; grep -E "Error|assert|FAILED" "$out/pytest.log" | head -10
echo "== bench"
grep -vE "^  \(" "$out/bench.log"
