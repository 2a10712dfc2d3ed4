#!/usr/bin/env bash
# One GPU call for shortest paths (issue 27): the sssp, heap and ABI tests,
# bench_sssp (with engine and bucket-width rows), compute-sanitizer memcheck
# (every sssp test) and racecheck (a few) at reduced sizes, ncu profiles
# (SourceCounters, WarpStateStats) of both engines on a reduced 2D grid at
# 16 sources, and
# the Python sssp tests. Binaries from prebuilt/ when they run here (built on
# the host for sm_90 and carried), else built. Logs under $OUT.
# Knobs (environment): REPS, VARIANTS and TVARIANTS (bench_sssp's variant rows
# of all-vertex and target-list problems), EXTRAS=0 (no predecessor and path
# rows), NO_NCU, MEMCHECK_TESTS and RACE (the sanitizers' tests), and the timeouts TESTS_S, BENCH_S,
# MEMCHECK_S, RACECHECK_S, PYTEST_S.
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
timeout ${TESTS_S:-60} "$B/gcol_tests" sssp,heap,dimacs,abi >"$out/tests.log" 2>&1
step "tests sssp,heap,dimacs,abi" $? $t0; tail -1 "$out/tests.log"; grep -E "^FAIL|CHECK|want|pred|pair" "$out/tests.log" | head -20
t0=$(date +%s)
GCOL_BENCH_REPS=${REPS:-2} GCOL_BENCH_SSSP_VARIANTS=${VARIANTS-w,2,8,32} GCOL_BENCH_SSSP_TARGET_VARIANTS=${TVARIANTS-w,n} \
  GCOL_BENCH_SSSP_EXTRAS=${EXTRAS:-1} timeout ${BENCH_S:-170} "$B/bench_sssp" \
  >"$out/bench.log" 2>&1
step bench $? $t0
t0=$(date +%s)
GCOL_TEST_MAX_N=20000 timeout ${MEMCHECK_S:-70} compute-sanitizer --tool memcheck --error-exitcode 99 "$B/gcol_tests" ${MEMCHECK_TESTS:-sssp} \
  >"$out/memcheck.log" 2>&1
step memcheck $? $t0; echo "$(grep -E '^[0-9]+ passed' "$out/memcheck.log" | tail -1); $(grep 'ERROR SUMMARY' "$out/memcheck.log" | tail -1)"
grep -m3 -A6 "=========  *\(Invalid\|Error\)" "$out/memcheck.log"
t0=$(date +%s)
GCOL_TEST_MAX_N=3000 timeout ${RACECHECK_S:-40} compute-sanitizer --tool racecheck --error-exitcode 99 "$B/gcol_tests" \
  ${RACE:-sssp_pred_csr,sssp_paths_too_small,sssp_gpu_nearfar,sssp_gpu_random,sssp_nearfar} >"$out/racecheck.log" 2>&1
step racecheck $? $t0; echo "$(grep -E '^[0-9]+ passed' "$out/racecheck.log" | tail -1); $(grep 'RACECHECK SUMMARY\|ERROR SUMMARY' "$out/racecheck.log" | tail -1)"
if [ -z "${NO_NCU:-}" ]; then
  # ncu on a reduced 2D grid, 16 sources: the warp engine (128^2) and near-far (256^2)
  for e in "sssp_kernel w 128" "nearfar_kernel _ 256"; do
    set -- $e
    v=$2; [ "$v" = _ ] && v=
    t0=$(date +%s)
    GCOL_BENCH_SSSP_ONLY=grid GCOL_BENCH_SSSP_NS=16 GCOL_BENCH_SSSP_GRID_SIDE=$3 GCOL_BENCH_REPS=1 \
      GCOL_BENCH_CPU_SOURCES=1 GCOL_BENCH_SSSP_VARIANTS=$v timeout 45 ncu --section SourceCounters \
      --section WarpStateStats --section LaunchStats --section Occupancy --section SpeedOfLight \
      -k regex:$1 -c 1 -o "$out/$1" "$B/bench_sssp" >"$out/ncu-$1.log" 2>&1
    step "ncu $1 (grid $3^2, 16 sources)" $? $t0
    [ -f "$out/$1.ncu-rep" ] && ncu -i "$out/$1.ncu-rep" --page details >"$out/ncu-$1.txt" 2>&1 &&
      grep -E "Duration|Warp Cycles Per Issued|Issued Warp|Achieved Occupancy|Executed Ipc A|No Eligible|Compute \(SM\) Th|Memory Th" \
        "$out/ncu-$1.txt" | head -12
  done
fi
t0=$(date +%s)
GCOL_LIBRARY=$PWD/$B/libgcol.so PYTHONPATH=$PWD/python timeout ${PYTEST_S:-25} python3 -m pytest -q -p no:cacheprovider \
  tests/python/test_gpu_sssp.py >"$out/pytest.log" 2>&1
step pytest $? $t0; tail -1 "$out/pytest.log"; grep -E "Error|assert|FAILED" "$out/pytest.log" | head -10
echo "== bench"
grep -vE "^  \(" "$out/bench.log"
