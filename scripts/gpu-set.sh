#!/usr/bin/env bash
# One GPU call for issue 23 (sets on the open-addressing core): build, the
# whole GPU suite, compute-sanitizer on the new suites, Python set tests,
# ncu of the set kernels, bench_set (+ sweep), bench_map and bench_multimap;
# env: SUITE (test filter), SWEEP=1, SKIP_NCU=1, SKIP_MAPBENCH=1;
# a short table last. Logs under $OUT.
set -u
out=${OUT:-gpu-set-logs}; mkdir -p "$out"
arch='-gencode arch=compute_90,code=sm_90'
sum=(); add() { sum+=("$(printf '%-30s %s' "$1" "$2")"); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
if ! make -j16 build-all GPU_ARCHS="$arch" NCCL_HOME= >"$out/build.log" 2>&1; then
  grep -m20 -B2 -A5 error "$out/build.log"; echo BUILD FAILED; exit 1; fi
add build "ok $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
timeout 150 build/gcol_tests ${SUITE:-} >"$out/tests.log" 2>&1
grep -E "FAIL|CHECK|wanted" "$out/tests.log" | head -30
add "GPU suite ($(( $(date +%s) - t0 )) s)" "$(tail -1 "$out/tests.log")"
for tool in memcheck racecheck; do
  t0=$(date +%s); n=20000; [ $tool = racecheck ] && n=3000
  GCOL_TEST_MAX_N=$n timeout 70 compute-sanitizer --tool $tool --error-exitcode 99 build/gcol_tests set,multiset \
    >"$out/san-$tool.log" 2>&1; rc=$?
  add "$tool set,multiset ($(( $(date +%s) - t0 )) s)" "rc=$rc $(grep -c '========= \(Invalid\|Race\|Error\)' "$out/san-$tool.log") reports; $(grep -E '^[0-9]+ passed' "$out/san-$tool.log" | tail -1)"
  grep -m3 -A4 "=========  *\(Invalid\|Race\|Error\)" "$out/san-$tool.log"
done
GCOL_LIBRARY=$PWD/build/libgcol.so timeout 60 python3 scripts/gpu-set-py.py >"$out/python.log" 2>&1
add "python Set/Multiset smoke" "rc=$? $(tail -1 "$out/python.log")"
[ -z "${SKIP_NCU:-}" ] && GCOL_BENCH_N=20000000 timeout 60 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis \
  -k regex:'find_kernel|upsert_kernel|erase_kernel' -c 6 build/bench/bench_set >"$out/ncu.log" 2>&1
add ncu "rc=$? ($(grep -c 'Memory Throughput' "$out/ncu.log") kernels)"
[ -n "${SWEEP:-}" ] && export GCOL_BENCH_SWEEP=1 # bench_set sweeps when the variable exists at all
timeout 150 build/bench/bench_set >"$out/bench_set.log" 2>&1
if [ -z "${SKIP_MAPBENCH:-}" ]; then
  timeout 60 build/bench/bench_map >"$out/bench_map.log" 2>&1
  timeout 40 build/bench/bench_multimap >"$out/bench_multimap.log" 2>&1
fi
echo; echo "==== ncu (per kernel: name, DRAM / memory throughput) ===="
grep -E "^  [a-z_]+.*\(|DRAM Throughput|Memory Throughput|Duration" "$out/ncu.log" | head -40
echo; echo "==== bench_map ===="; grep -vE "^\s*$" "$out/bench_map.log" | head -30
echo; echo "==== bench_multimap ===="; grep -E "open|target" "$out/bench_multimap.log" | head -8
echo; echo "==== bench_set ===="; cat "$out/bench_set.log"
echo; echo "==== summary ===="; printf '%s\n' "${sum[@]}"
