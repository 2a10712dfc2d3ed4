#!/usr/bin/env bash
# One GPU call for the ABI work (issue 22): an sm_90 build, the whole C suite,
# compute-sanitizer memcheck (ABI probes, maps, multimaps, primitives, paths;
# reduced sizes) and racecheck (ABI probes), the install/consumer checks, the
# call-overhead and map benchmarks; a short table last. Logs in $OUT.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-gpu-abi-logs}
mkdir -p "$out"
rows=()
add() { rows+=("$(printf '%-40s %s' "$1" "$2")"); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
arch='-gencode arch=compute_90,code=sm_90'
if ! make -j16 build-all GPU_ARCHS="$arch" NCCL_HOME= >"$out/build.log" 2>&1; then
  tail -40 "$out/build.log"; echo "BUILD FAILED"; exit 1
fi
add "build sm_90" "$(( $(date +%s) - t0 )) s"
t0=$(date +%s)
build/gcol_tests >"$out/tests.log" 2>&1
grep -E "^FAIL|CHECK failed|returned|lacks|message" "$out/tests.log" | head -30
add "C suite ($(( $(date +%s) - t0 )) s)" "$(tail -1 "$out/tests.log")"
for spec in "memcheck:abi,map_,multimap,select,reduce,scan,sssp,graph:20000" "racecheck:abi:2000"; do
  IFS=: read -r tool filter max_n <<<"$spec"
  t0=$(date +%s)
  GCOL_TEST_MAX_N=$max_n compute-sanitizer --tool "$tool" --error-exitcode 99 build/gcol_tests "$filter" \
    >"$out/san-$tool.log" 2>&1
  rc=$?
  errs=$(grep -c "========= \(Invalid\|Race\|Error\)" "$out/san-$tool.log")
  add "$tool ($(( $(date +%s) - t0 )) s)" "rc=$rc, $errs reports; $(grep -E '^[0-9]+ passed' "$out/san-$tool.log" | tail -1)"
  grep -m3 -A4 "=========  *\(Invalid\|Race\|Error\)" "$out/san-$tool.log"
done
GPU_ARCHS="$arch" NCCL_HOME= tests/consumers/check.sh build >"$out/consumers.log" 2>&1
grep -E "^(FAIL|SKIP)" -A8 "$out/consumers.log" | head -30
add "consumer checks" "$(tail -1 "$out/consumers.log")"
build/bench/bench_call_overhead | tee "$out/overhead.log"
build/bench/bench_map >"$out/bench_map.log" 2>&1
echo; echo "==== gpu-abi summary ===="
printf '%s\n' "${rows[@]}"
cat "$out/overhead.log" | tail -3
grep -E "met|MISSED" "$out/bench_map.log" | head -24
