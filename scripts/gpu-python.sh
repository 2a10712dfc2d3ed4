#!/usr/bin/env bash
# The Python package on a GPU machine, as a new user gets it (issue 26):
#   1. a fresh virtual environment and `pip install .` from this tree, offline
#      (pip takes setuptools from WHEELS, a folder of wheels, when given), the
#      library built from source for GPU_ARCHS; then a wheel from the sdist;
#   2. bench/bench_python.py (GCOL_BENCH_SWEEP=1 adds the map-load sweep);
#   3. the GPU pytest suite against that installed package;
#   4. a wheel from the sdist (built again from source).
# Logs go to $OUT (default /tmp/gcol-gpu-python); a summary is printed last.
#   scripts/gpu-python.sh        (run from the repository root)
set -uo pipefail
repo=$(pwd)
out=${OUT:-/tmp/gcol-gpu-python}
mkdir -p "$out"
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
export GPU_ARCHS=${GPU_ARCHS:-"-gencode arch=compute_90,code=sm_90"}
wheels=${WHEELS:-}
pip_offline=(--no-index)
[ -n "$wheels" ] && pip_offline+=(--find-links "$wheels")
summary=()
nvidia-smi -L
python3 --version

# 1. fresh venv + pip install .
venv=/tmp/gcol-venv
rm -rf "$venv" /tmp/gcol-sdist /tmp/gcol-wheel
if python3 -m venv "$venv" 2>"$out/venv.err"; then
  pip=("$venv/bin/python" -m pip)
else
  python3 -m venv --without-pip "$venv" && pip=(python3 -m pip --python "$venv/bin/python")
fi
start=$(date +%s)
"${pip[@]}" install -v "${pip_offline[@]}" . >"$out/pip_install.log" 2>&1
rc=$?
summary+=("pip install . (fresh venv, offline, from source): rc=$rc in $(($(date +%s) - start)) s")
grep -E "^gcol:|Successfully installed|error" "$out/pip_install.log" | tail -5
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
(cd /tmp && env -u GCOL_LIBRARY -u PYTHONPATH "$venv/bin/python" -c \
  'import gcol; print("installed gcol", gcol.__version__, "loads", gcol.library_path(), gcol.version())') 2>&1 |
  tee "$out/import.log"
summary+=("import in the venv: $(tail -1 "$out/import.log")")

# 2. the benchmark, with the installed package
(cd /tmp && env -u GCOL_LIBRARY PYTHONPATH="$site:$repo/bench" timeout 200 python3 "$repo/bench/bench_python.py" \
  >"$out/bench.log" 2>&1)
summary+=("bench_python.py: rc=$?")

# 3. GPU pytest against the installed package (PyTorch's python, the venv's gcol)
start=$(date +%s)
(cd /tmp && GCOL_TEST_INSTALLED=1 PYTHONPATH="$site" timeout 200 python3 -m pytest "$repo/tests/python" -q -rs \
  -p no:cacheprovider --junitxml="$out/pytest.xml" >"$out/pytest.log" 2>&1)
rc=$?
tail -15 "$out/pytest.log"
summary+=("pytest (installed package, GPU): rc=$rc in $(($(date +%s) - start)) s: $(tail -1 "$out/pytest.log")")

# 4. the sdist builds the same way: sdist, then a wheel from it (compiled again)
start=$(date +%s)
if python3 -m build --version >/dev/null 2>&1; then
  PIP_NO_INDEX=1 PIP_FIND_LINKS="$wheels" python3 -m build --sdist --outdir /tmp/gcol-sdist . >"$out/sdist.log" 2>&1 &&
    "${pip[@]}" wheel "${pip_offline[@]}" --no-deps -w /tmp/gcol-wheel /tmp/gcol-sdist/gcol_cuda13x-*.tar.gz >>"$out/sdist.log" 2>&1
  rc=$?
  summary+=("sdist -> wheel: rc=$rc in $(($(date +%s) - start)) s: $(ls /tmp/gcol-sdist /tmp/gcol-wheel 2>/dev/null | grep -E 'tar.gz|whl' | tr '\n' ' ')")
  python3 -m zipfile -l /tmp/gcol-wheel/*.whl 2>/dev/null | grep libgcol | tee -a "$out/sdist.log"
fi

echo
echo "==== summary"
printf '%s\n' "${summary[@]}"
echo
grep -E '^\||sweep|copy|torch.isin|GPU' "$out/bench.log"
