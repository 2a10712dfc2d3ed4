#!/usr/bin/env bash
# One GPU call for the string dictionary (issue 25): build, the strmap tests,
# compute-sanitizer memcheck and racecheck at reduced sizes, the Python
# strmap tests, bench_strmap and the Python comparison with pyarrow on this
# box's CPU. Logs under $OUT.   scripts/gpu-str.sh [filter]   (default strmap)
set -u
cd "$(dirname "$0")/.."
out=${OUT:-gpu-str-logs}
mkdir -p "$out"
filter=${1:-strmap}
arch='-gencode arch=compute_90,code=sm_90'
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
ls -la /usr/share/dict/ /usr/share/common-licenses/ 2>&1 | head -30 >"$out/texts.txt"
ls /usr/lib/python3*/LICENSE.txt /usr/local/lib/python3*/LICENSE.txt 2>/dev/null >>"$out/texts.txt"
t0=$(date +%s)
if ! make -j16 build/gcol_tests build/libgcol.so build/bench/bench_strmap GPU_ARCHS="$arch" NCCL_HOME= \
    >"$out/build.log" 2>&1; then
  grep -B2 -A8 -m5 "error" "$out/build.log"; echo "BUILD FAILED"; exit 1
fi
echo "build: $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
timeout 120 build/gcol_tests "$filter" >"$out/tests.log" 2>&1
echo "tests ($filter) rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$out/tests.log")"
grep -E "^FAIL|CHECK|differs|row|returned" "$out/tests.log" | head -20
t0=$(date +%s)
GCOL_TEST_MAX_N=3000 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 build/gcol_tests "$filter" \
  >"$out/memcheck.log" 2>&1
echo "memcheck rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E '^[0-9]+ passed' "$out/memcheck.log" | tail -1); $(grep 'ERROR SUMMARY' "$out/memcheck.log" | tail -1)"
grep -m3 -A8 "=========  *\(Invalid\|Error\|Program\)" "$out/memcheck.log"
t0=$(date +%s)
GCOL_TEST_MAX_N=1000 timeout 60 compute-sanitizer --tool racecheck --error-exitcode 99 build/gcol_tests strmap_ids_growth,strmap_ids_one_hash,strmap_apply_add_u32 \
  >"$out/racecheck.log" 2>&1
echo "racecheck rc=$? ($(( $(date +%s) - t0 )) s): $(grep -E '^[0-9]+ passed' "$out/racecheck.log" | tail -1); $(grep 'RACECHECK SUMMARY\|ERROR SUMMARY' "$out/racecheck.log" | tail -1)"
if [ -f tests/python/test_gpu_strmap.py ]; then
  t0=$(date +%s)
  GCOL_LIBRARY=$PWD/build/libgcol.so PYTHONPATH=$PWD/python timeout 90 python3 -m pytest -q -p no:cacheprovider \
    tests/python/test_gpu_strmap.py >"$out/pytest.log" 2>&1
  echo "pytest rc=$? ($(( $(date +%s) - t0 )) s): $(tail -1 "$out/pytest.log")"
  grep -E "Error|assert|FAILED" "$out/pytest.log" | head -10
fi
t0=$(date +%s)
timeout 100 build/bench/bench_strmap >"$out/bench.log" 2>&1
echo "bench rc=$? ($(( $(date +%s) - t0 )) s)"
cat "$out/bench.log"
t0=$(date +%s)
GCOL_LIBRARY=$PWD/build/libgcol.so PYTHONPATH=$PWD/python timeout 100 python3 bench/bench_strmap.py >"$out/bench_py.log" 2>&1
echo "bench_strmap.py rc=$? ($(( $(date +%s) - t0 )) s)"
cat "$out/bench_py.log"
cat "$out/texts.txt"
