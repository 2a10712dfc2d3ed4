#!/usr/bin/env bash
# The merged tree on a GPU, in two calls that fit the device tool's 10 minutes:
#   scripts/gpu-final.sh build suite pytest   sm_90 build of everything, the
#                                whole C suite, the GPU Python suite against it;
#   scripts/gpu-final.sh san     (after a build on the same machine: it stays)
#                                compute-sanitizer memcheck and racecheck on
#                                reduced sizes of the newer containers' tests;
#   scripts/gpu-final.sh core    (after a build) the open-addressing core's
#                                benchmarks: map, set/multiset, multimap,
#                                growable map, device API;
#   scripts/gpu-final.sh bench   (after a build) the benchmarks of
#                                the open issues: HyperLogLog/Bloom, 16-byte
#                                keys, the string dictionary (C and against
#                                pyarrow), the Python functions, call overhead.
# GCOL_SSSP_DATA: a folder holding helsinki-osm.gr (the Helsinki tests skip
# without it). Logs in $OUT; a short table last.
set -u
cd "$(dirname "$0")/.."
parts=" ${*:-build suite pytest} "
has() { [[ "$parts" == *" $1 "* ]]; }
out=${OUT:-gpu-final-logs}
mkdir -p "$out"
rows=()
add() { rows+=("$(printf '%-40s %s' "$1" "$2")"); }
since() { echo "$(( $(date +%s) - $1 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
export PYTHONDONTWRITEBYTECODE=1

if has build; then
  t0=$(date +%s)
  if ! make -j16 build-all GPU_ARCHS='-gencode arch=compute_90,code=sm_90' NCCL_HOME= >"$out/build.log" 2>&1; then
    grep -m10 -B2 -A6 "error" "$out/build.log"; tail -20 "$out/build.log"; echo "BUILD FAILED"; exit 1
  fi
  add "build sm_90" "$(since $t0), $(nm -D --defined-only build/libgcol.so | grep -c ' T ') exported"
fi
if has suite; then
  t0=$(date +%s)
  timeout 330 build/gcol_tests >"$out/tests.log" 2>&1
  rc=$?
  grep -E "^FAIL|CHECK failed|lacks" "$out/tests.log" | head -20
  add "C suite rc=$rc ($(since $t0))" "$(tail -1 "$out/tests.log")"
fi
if has pytest; then
  t0=$(date +%s)
  GCOL_LIBRARY=$PWD/build/libgcol.so timeout 200 python3 -m pytest tests/python -q -p no:cacheprovider \
    >"$out/pytest.log" 2>&1
  grep -E "^(FAILED|ERROR)" "$out/pytest.log" | head -10
  add "pytest ($(since $t0))" "$(tail -1 "$out/pytest.log")"
fi

if has san; then
  # SAN_SPECS: "tool:filter,...:max_n" words instead of the default list
  default_specs="memcheck:strmap,u128,hll:3000 memcheck:sssp_nearfar,sssp_gpu_nearfar:2000 \
racecheck:strmap_ids_growth,strmap_ids_one_hash,u128_map_u64_growable,u128_set_growable,u128_map_u32_tag,hll_matches_cpu_reference:1000"
  for spec in ${SAN_SPECS:-$default_specs}; do
    IFS=: read -r tool filter max_n <<<"$spec"
    t0=$(date +%s)
    GCOL_TEST_MAX_N=$max_n timeout 200 compute-sanitizer --tool "$tool" --error-exitcode 99 build/gcol_tests "$filter" \
      >"$out/san-$tool-${filter%%,*}.log" 2>&1
    rc=$?
    log="$out/san-$tool-${filter%%,*}.log"
    errs=$(grep -c "========= \(Invalid\|Race\|Error\)" "$log")
    grep -m3 -A6 "=========  *\(Invalid\|Race\|Error\)" "$log"
    add "$tool ${filter%%,*}... ($(since $t0))" "rc=$rc, $errs reports; $(grep -E '^[0-9]+ passed' "$log" | tail -1)"
  done
fi

if has core; then
  for b in bench_map bench_set bench_multimap bench_map_growable bench_map_device; do
    t0=$(date +%s)
    timeout 200 build/bench/$b >"$out/$b.log" 2>&1
    add "$b rc=$? ($(since $t0))" "$(grep -c MISSED "$out/$b.log") MISSED, $(grep -c ' met' "$out/$b.log") met"
  done
  echo "==== map"; grep -E "^(insert|find|contains|erase|retrieve|apply)" "$out/bench_map.log"
  echo "==== set"; grep -E "G ops/s|^(insert|contains|erase|retrieve|growable|multiset|count)" "$out/bench_set.log" | head -24
fi

if has bench; then
  for b in bench_sketch bench_u128 bench_strmap bench_call_overhead; do
    t0=$(date +%s)
    timeout 150 build/bench/$b >"$out/$b.log" 2>&1
    add "$b rc=$? ($(since $t0))" "$(grep -c MISSED "$out/$b.log") MISSED, $(grep -c ' met' "$out/$b.log") met"
  done
  t0=$(date +%s)
  GCOL_LIBRARY=$PWD/build/libgcol.so PYTHONPATH=$PWD/python timeout 100 python3 bench/bench_strmap.py \
    >"$out/bench_strmap_py.log" 2>&1
  add "bench_strmap.py rc=$? ($(since $t0))" ""
  t0=$(date +%s)
  GCOL_BENCH_PART=functions GCOL_LIBRARY=$PWD/build/libgcol.so timeout 150 python3 bench/bench_python.py \
    >"$out/bench_python.log" 2>&1
  add "bench_python functions rc=$? ($(since $t0))" ""
  echo "==== HLL"; grep -E "^\| *[0-9]+ \|" "$out/bench_sketch.log" | tail -15
  grep -iE "bloom|MiB|GiB" "$out/bench_sketch.log" | head -8
  echo "==== u128"; grep -E "insert|find|copy" "$out/bench_u128.log" | head -12
  echo "==== strmap"; tail -12 "$out/bench_strmap.log"; tail -8 "$out/bench_strmap_py.log"
  echo "==== python functions"; grep -E "^\|" "$out/bench_python.log" | head -12
fi
echo; echo "==== gpu-final$parts===="
printf '%s\n' "${rows[@]}"
