#!/usr/bin/env bash
# One GPU call for 16-byte keys (issue 25): an sm_90 build of what the tests
# and benchmarks need, the GCOL_U128 tests (map, set, multimap, multiset,
# device API; both claim schemes), the whole C suite, compute-sanitizer
# memcheck and racecheck on the u128 tests at reduced sizes, the Python
# tests, bench_u128 and bench_map; a short table last. Logs in $OUT.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-gpu-k16-logs}
mkdir -p "$out"
rows=()
add() { rows+=("$(printf '%-34s %s' "$1" "$2")"); }
start=$(date +%s)
left() { echo $(( 400 - ($(date +%s) - start) )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
if ! make -j16 build/libgcol.so build/gcol_tests build/bench/bench_u128 build/bench/bench_map \
     GPU_ARCHS='-gencode arch=compute_90,code=sm_90' NCCL_HOME= >"$out/build.log" 2>&1; then
  grep -m20 -B2 -A6 "error" "$out/build.log"; tail -20 "$out/build.log"; echo "BUILD FAILED"; exit 1
fi
add "build sm_90" "$(( $(date +%s) - t0 )) s"
t0=$(date +%s)
timeout 120 build/gcol_tests u128 >"$out/u128.log" 2>&1
grep -E "FAIL|CHECK failed|returned|wanted" "$out/u128.log" | head -30
add "u128 tests ($(( $(date +%s) - t0 )) s)" "$(tail -1 "$out/u128.log")"
t0=$(date +%s)
GCOL_TEST_MAX_N=3000 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 build/gcol_tests u128 \
  >"$out/san-memcheck.log" 2>&1
rc=$?
add "memcheck u128 ($(( $(date +%s) - t0 )) s)" "rc=$rc, $(grep -c '========= \(Invalid\|Error\)' "$out/san-memcheck.log") reports; $(grep -E '^[0-9]+ passed' "$out/san-memcheck.log" | tail -1)"
grep -m3 -A6 "=========  *\(Invalid\|Error\)" "$out/san-memcheck.log"
t0=$(date +%s)
GCOL_TEST_MAX_N=1000 timeout 60 compute-sanitizer --tool racecheck --error-exitcode 99 build/gcol_tests \
  u128_map_u64_growable,u128_set_growable,u128_map_u32_tag >"$out/san-racecheck.log" 2>&1
rc=$?
add "racecheck u128 ($(( $(date +%s) - t0 )) s)" "rc=$rc, $(grep -c '========= \(Race\|Error\)' "$out/san-racecheck.log") reports; $(grep -E '^[0-9]+ passed' "$out/san-racecheck.log" | tail -1)"
grep -m3 -A6 "=========  *\(Race\|Error\)" "$out/san-racecheck.log"
t0=$(date +%s)
GCOL_LIBRARY=build/libgcol.so timeout 90 python3 -m pytest -q -x tests/python/test_gpu_u128.py tests/python/test_host_u128.py \
  tests/python/test_gpu_map.py tests/python/test_gpu_set.py >"$out/pytest.log" 2>&1
add "pytest u128+map+set ($(( $(date +%s) - t0 )) s)" "$(tail -1 "$out/pytest.log")"
grep -E "^(FAILED|ERROR)|Error" "$out/pytest.log" | head -10
t0=$(date +%s)
timeout 90 build/bench/bench_u128 >"$out/bench_u128.log" 2>&1
rc=$?
add "bench_u128 ($(( $(date +%s) - t0 )) s)" "rc=$rc"
if [ "$(left)" -gt 100 ]; then
  t0=$(date +%s)
  timeout 110 build/bench/bench_map >"$out/bench_map.log" 2>&1
  rc=$?
  add "bench_map ($(( $(date +%s) - t0 )) s)" "rc=$rc"
fi
t0=$(date +%s)
GCOL_TEST_MAX_N=2000000 timeout "$(left)" build/gcol_tests >"$out/tests.log" 2>&1
add "C suite, n <= 2M ($(( $(date +%s) - t0 )) s)" "$(tail -1 "$out/tests.log")"
grep -E "^FAIL|CHECK failed" "$out/tests.log" | head -10
echo; echo "==== gpu-k16 summary ===="
printf '%s\n' "${rows[@]}"
cat "$out/bench_u128.log"
grep -E "i64/i64" "$out/bench_map.log" 2>/dev/null | head -12
