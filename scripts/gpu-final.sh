#!/usr/bin/env bash
# The merged tree in one GPU call: sm_90 build, the whole C suite, the GPU
# Python suite against this build, compute-sanitizer memcheck on the ABI,
# set/multiset and sketch suites (racecheck on the ABI probes), the
# call-overhead bench; a short table last. Logs in $OUT.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-gpu-final-logs}
mkdir -p "$out"
rows=()
add() { rows+=("$(printf '%-34s %s' "$1" "$2")"); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
if ! make -j16 build-all GPU_ARCHS='-gencode arch=compute_90,code=sm_90' NCCL_HOME= >"$out/build.log" 2>&1; then
  tail -40 "$out/build.log"; echo "BUILD FAILED"; exit 1
fi
add "build sm_90" "$(( $(date +%s) - t0 )) s, $(nm -D --defined-only build/libgcol.so | wc -l) exported"
t0=$(date +%s)
timeout 240 build/gcol_tests >"$out/tests.log" 2>&1
grep -E "^FAIL|CHECK failed|lacks" "$out/tests.log" | head -20
add "C suite ($(( $(date +%s) - t0 )) s)" "$(tail -1 "$out/tests.log")"
t0=$(date +%s)
PYTHONDONTWRITEBYTECODE=1 GCOL_LIBRARY=$PWD/build/libgcol.so timeout 150 python3 -m pytest tests/python -q -x \
  -p no:cacheprovider >"$out/pytest.log" 2>&1
grep -E "FAILED|Error" "$out/pytest.log" | head -10
add "pytest ($(( $(date +%s) - t0 )) s)" "$(tail -1 "$out/pytest.log")"
for spec in "memcheck:abi,set_,multiset,bloom,hll,sketch:20000" "racecheck:abi:2000"; do
  IFS=: read -r tool filter max_n <<<"$spec"
  t0=$(date +%s)
  GCOL_TEST_MAX_N=$max_n timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 99 build/gcol_tests "$filter" \
    >"$out/san-$tool.log" 2>&1
  rc=$?
  errs=$(grep -c "========= \(Invalid\|Race\|Error\)" "$out/san-$tool.log")
  add "$tool ($(( $(date +%s) - t0 )) s)" "rc=$rc, $errs reports; $(grep -E '^[0-9]+ passed' "$out/san-$tool.log" | tail -1)"
done
build/bench/bench_call_overhead >"$out/overhead.log" 2>&1
echo; echo "==== gpu-final summary ===="
printf '%s\n' "${rows[@]}"
tail -3 "$out/overhead.log"
