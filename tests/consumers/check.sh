#!/usr/bin/env bash
# The installed copy, seen from outside: `make install` into a temporary
# prefix, then consumers that know only that prefix (a C program through
# pkg-config, shared and static; a CMake project through
# find_package(gcol CONFIG REQUIRED); libgcol_nccl the same ways where it was
# built; the bare Python package through pkg-config; the wheel of `pip
# install .`'s backend in fresh venvs), then
# `make uninstall`, which must leave the prefix empty. Each check prints PASS or
# FAIL (with the output behind it), or SKIP when the machine cannot run it; the
# last line is "N passed, N failed, N skipped".
#   tests/consumers/check.sh BUILD      (MAKE, CUDA_HOME, CC from the environment)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
build=$1
make=${MAKE:-make}
cc=${CC:-cc}
cuda_home=${CUDA_HOME:-/usr/local/cuda}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
passed=0 failed=0 skipped=0
SKIP=77 # a check's exit status meaning "cannot run here"

# Without a GPU every consumer must report NO_DEVICE and exit 0; with one, a working map.
if nvidia-smi -L >/dev/null 2>&1; then expect="map ok"; else expect="GCOL_ERROR_NO_DEVICE"; fi

check() { # check NAME COMMAND...: PASS if the command succeeds, SKIP, else FAIL and its output
  local name=$1 out rc=0
  shift
  out=$("$@" 2>&1) || rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "PASS consumer_$name"
    passed=$((passed + 1))
  elif [ "$rc" -eq "$SKIP" ]; then
    echo "SKIP consumer_$name: $(tail -1 <<<"$out")"
    skipped=$((skipped + 1))
  else
    echo "FAIL consumer_$name"
    printf '%s\n' "$out" | tail -25 | sed 's/^/    /'
    failed=$((failed + 1))
  fi
}

runs() { # runs COMMAND...: exits 0 and prints the expected line
  local out rc=0
  out=$("$@" 2>&1) || rc=$?
  echo "$out"
  [ "$rc" -eq 0 ] && grep -q "$expect" <<<"$out"
}

install() {
  $make -s --no-print-directory BUILD="$build" PREFIX="$prefix" install
}

layout() {
  local v major lib=$prefix/lib
  v=$(pkg-config --modversion gcol) || return 1
  major=${v%%.*}
  for f in include/gcol/gcol.h include/gcol/device/hash.cuh include/gcol/device/detail/map_tile.cuh \
    lib/libgcol.a "lib/libgcol.so.$v" lib/cmake/gcol/gcolConfig.cmake lib/cmake/gcol/gcolConfigVersion.cmake; do
    [ -f "$prefix/$f" ] || { echo "missing $f"; return 1; }
  done
  cmp include/gcol/gcol.h "$prefix/include/gcol/gcol.h" || return 1
  if [ "$(readlink "$lib/libgcol.so")" != "libgcol.so.$major" ] ||
    [ "$(readlink "$lib/libgcol.so.$major")" != "libgcol.so.$v" ]; then
    ls -l "$lib"
    return 1
  fi
  readelf -d "$lib/libgcol.so.$v" | grep -q "SONAME.*\[libgcol.so.$major\]" || { echo "SONAME is not libgcol.so.$major"; return 1; }
  nm -D --defined-only "$lib/libgcol.so.$v" | grep -q ' gcol_version$' || { echo "gcol_version not exported"; return 1; }
  if nm -D --defined-only "$lib/libgcol.so.$v" | grep -q ' cudaMalloc$'; then echo "the CUDA runtime is exported"; return 1; fi
}

pkgconfig_shared() {
  # shellcheck disable=SC2046 # pkg-config's flags are words
  $cc -std=c11 -Wall -Wextra -Werror tests/consumers/consumer.c $(pkg-config --cflags --libs gcol) -o "$work/pc_shared" &&
    readelf -d "$work/pc_shared" | grep -q 'NEEDED.*\[libgcol\.so\.[0-9]*\]' &&
    LD_LIBRARY_PATH=$prefix/lib runs "$work/pc_shared"
}

pkgconfig_static() {
  # the --static flags, with -lgcol pointed at the archive: Libs.private must suffice
  local libs
  libs=$(pkg-config --static --libs gcol) || return 1
  # shellcheck disable=SC2046,SC2086
  $cc -std=c11 tests/consumers/consumer.c $(pkg-config --cflags gcol) ${libs/-lgcol/-l:libgcol.a} -o "$work/pc_static" &&
    ! readelf -d "$work/pc_static" | grep -q 'NEEDED.*libgcol' &&
    runs "$work/pc_static"
}

cmake_package() {
  cmake -S tests/consumers/cmake -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCUDAToolkit_ROOT="$cuda_home" &&
    cmake --build "$work/cmake" && runs "$work/cmake/consumer_shared" && runs "$work/cmake/consumer_static" || return 1
  # gcol::gcol_nccl(_static), where libgcol_nccl was installed
  [ ! -f "$prefix/lib/pkgconfig/gcol_nccl.pc" ] ||
    { runs "$work/cmake/consumer_nccl" && runs "$work/cmake/consumer_nccl_static"; }
}

# libgcol_nccl (installed only where NCCL was found and it was built): its
# files and links, and a program built with pkg-config, shared and static.
gcol_nccl() {
  local v major lib=$prefix/lib libs
  [ -f "$lib/pkgconfig/gcol_nccl.pc" ] || { echo "libgcol_nccl was not built here (no NCCL?)"; return $SKIP; }
  v=$(pkg-config --modversion gcol_nccl) || return 1
  major=${v%%.*}
  cmp include/gcol/gcol_nccl.h "$prefix/include/gcol/gcol_nccl.h" && [ -f "$lib/libgcol_nccl.a" ] || return 1
  if [ "$(readlink "$lib/libgcol_nccl.so")" != "libgcol_nccl.so.$major" ] ||
    [ "$(readlink "$lib/libgcol_nccl.so.$major")" != "libgcol_nccl.so.$v" ]; then
    ls -l "$lib"
    return 1
  fi
  readelf -d "$lib/libgcol_nccl.so.$v" | grep -q "SONAME.*\[libgcol_nccl.so.$major\]" || { echo "bad SONAME"; return 1; }
  if nm -D --defined-only "$lib/libgcol_nccl.so.$v" | grep -q ' cudaMalloc$'; then echo "the CUDA runtime is exported"; return 1; fi
  # shellcheck disable=SC2046 # pkg-config's flags are words
  $cc -std=c11 -Wall -Wextra -Werror tests/consumers/consumer_nccl.c $(pkg-config --cflags --libs gcol_nccl) \
    -o "$work/nccl_shared" &&
    readelf -d "$work/nccl_shared" | grep -q 'NEEDED.*\[libgcol_nccl\.so\.[0-9]*\]' &&
    LD_LIBRARY_PATH=$lib runs "$work/nccl_shared" || return 1
  # the --static flags with both gcol libraries pointed at their archives
  libs=$(pkg-config --static --libs gcol_nccl | sed -E 's/-l(gcol|gcol_nccl)( |$)/-l:lib\1.a\2/g') || return 1
  # shellcheck disable=SC2046,SC2086
  $cc -std=c11 tests/consumers/consumer_nccl.c $(pkg-config --cflags gcol_nccl) $libs -o "$work/nccl_static" &&
    ! readelf -d "$work/nccl_static" | grep -q 'NEEDED.*libgcol' &&
    runs "$work/nccl_static"
}

# The bare package (python/gcol, no library inside) finds the prefix's library
# through pkg-config's gcol.pc: the search order of a `make install` user.
python_finds_prefix() {
  mkdir -p "$work/site" && cp -r python/gcol "$work/site/" || return 1
  # no GCOL_LIBRARY: the package must find the prefix's library through gcol.pc
  (unset GCOL_LIBRARY GCOL_PREFIX && PYTHONPATH="$work/site" runs python3 - "$prefix") <<'PY'
import os
import sys

import gcol

path = os.path.realpath(gcol.library_path())
assert path.startswith(os.path.realpath(sys.argv[1]) + os.sep), path
print("loaded", path, gcol.version())
try:
    gcol.Map("int64", "int64", 100).close()
    print("map ok")
except gcol.NoDeviceError as e:
    print(e)
PY
}

# Only the API is exported: the functions each public header declares with
# GCOL_API are exactly the dynamic symbols its library defines.
exports_match_headers() {
  local lib=$prefix/lib pair header so want got rc=0
  for pair in gcol.h:libgcol.so gcol_nccl.h:libgcol_nccl.so; do
    header=$prefix/include/gcol/${pair%%:*} so=$lib/${pair##*:}
    [ -f "$so" ] || continue
    want=$(grep -oE '^GCOL_API [^(]*\bgcol_[a-z0-9_]+\(' "$header" | grep -oE 'gcol_[a-z0-9_]+\($' | tr -d '(' | sort)
    got=$(nm -D --defined-only "$so" | awk '{print $3}' | sort)
    if [ "$want" != "$got" ]; then
      echo "${pair##*:} exports differ from ${pair%%:*}'s declarations (< declared only, > exported only):"
      diff <(echo "$want") <(echo "$got") | grep '^[<>]'
      rc=1
    else
      echo "${pair##*:}: $(wc -l <<<"$got") symbols, exactly the API"
    fi
  done
  return $rc
}

# An example of the repository built against the install alone (pkg-config and
# the CUDA runtime for its own cudaMalloc calls), as a user builds it.
example_against_install() {
  # shellcheck disable=SC2046 # pkg-config's flags are words
  $cc -std=c11 -Wall -Wextra -Werror examples/voxel_paths.c $(pkg-config --cflags --libs gcol) \
    -L"$cuda_home/lib64" -lcudart -lm -o "$work/voxel_paths" || return 1
  local out
  out=$(LD_LIBRARY_PATH=$prefix/lib:$cuda_home/lib64 "$work/voxel_paths" 2>&1) || { echo "$out"; return 1; }
  echo "$out"
  grep -q "no CUDA device\|GPU and CPU agree" <<<"$out"
}

# The README's C example (its one ```c block), built as the README says: against
# this build's header and libgcol.so, plus the CUDA runtime for its own
# cudaMalloc. Run from a folder that holds the library under its SONAME: without a
# GPU it must stop at gcol_map_create with NO_DEVICE's message and exit 0; with one
# it checks the key it found itself.
readme_c_example() {
  local src=$work/readme_example.c lib soname out blocks
  blocks=$(grep -c '^```c$' README.md)
  [ "$blocks" -eq 1 ] || { echo "README.md has $blocks \`\`\`c blocks; this check builds exactly one"; return 1; }
  awk '/^```c$/ { on = 1; next } on && /^```/ { exit } on' README.md >"$src"
  lib=$(cd "$build" && pwd)/libgcol.so
  soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  [ -n "$soname" ] || { echo "$lib has no SONAME"; return 1; }
  mkdir -p "$work/readme_lib" && ln -sf "$lib" "$work/readme_lib/$soname" || return 1
  $cc -std=c11 -pedantic -Wall -Wextra -Werror -Iinclude -isystem "$cuda_home/include" "$src" "$lib" \
    -L"$cuda_home/lib64" -lcudart -o "$work/readme_example" || return 1
  out=$(LD_LIBRARY_PATH=$work/readme_lib:$cuda_home/lib64 "$work/readme_example" 2>&1) ||
    { echo "$out"; return 1; }
  echo "$out"
  if [ "$expect" = "map ok" ]; then grep -q "^key 21 -> 21 " <<<"$out"; else grep -q "no usable CUDA device" <<<"$out"; fi
}

# `pip install .`'s backend (pyproject.toml + setup.py) the way a user meets it,
# offline: an sdist of this tree, a wheel from the sdist built in a fresh venv
# that sees only the system's setuptools (.ci/run installs it), with this
# build's library (GCOL_PREBUILT_LIBRARY: nothing is compiled again), then the
# wheel installed into a second, clean venv, where `import gcol` must load the
# copy inside the package with no GCOL_LIBRARY and no other gcol on the path.
# The distribution is gcol-cuda13x (files gcol_cuda13x-*); the sdist and the
# wheel carry LICENSE; scripts/check_wheel.py checks the wheel's manylinux tag
# against what its library needs (the cheap part of `make wheel`'s check).
setuptools_ok() {
  python3 -c 'import setuptools, sys; sys.exit(int(setuptools.__version__.split(".")[0]) < 77)' \
    2>/dev/null || { echo "needs setuptools >= 77 (.ci/run installs it)"; return 1; }
}

python_wheel() {
  local src=$work/wheel-src lib
  setuptools_ok || return $SKIP
  lib=$(cd "$build" && pwd)/libgcol.so
  # venv-build: no pip or setuptools of its own (3.11 would put its old ones in), the system's seen
  python3 -m venv --system-site-packages --without-pip "$work/venv-build" && python3 -m venv "$work/venv" || return 1
  mkdir -p "$src" && tar -C . --exclude=./.git --exclude=./build --exclude='./build-*' -cf - . | tar -C "$src" -xf - ||
    return 1
  (cd "$src" && "$work/venv-build/bin/python" -c \
    'import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))' "$work/sdist" \
    >"$work/sdist.log" 2>&1) || { tail -20 "$work/sdist.log"; return 1; }
  # (the listing whole first: grep -q would close the pipe on tar under pipefail)
  tar -tzf "$work"/sdist/gcol_cuda13x-*.tar.gz >"$work/sdist.list" &&
    grep -qE '^gcol_cuda13x-[^/]+/LICENSE$' "$work/sdist.list" || { echo "the sdist has no LICENSE"; return 1; }
  GCOL_PREBUILT_LIBRARY=$lib "$work/venv-build/bin/python" -m pip wheel -q --no-deps --no-build-isolation \
    --no-index -w "$work/dist" "$work"/sdist/gcol_cuda13x-*.tar.gz || return 1
  python3 scripts/check_wheel.py "$work"/dist/gcol_cuda13x-*.whl || return 1
  "$work/venv/bin/python" -m pip install -q --no-index --no-deps "$work"/dist/gcol_cuda13x-*-py3-none-*.whl ||
    return 1
  (cd "$work" && unset GCOL_LIBRARY GCOL_PREFIX PYTHONPATH && runs "$work/venv/bin/python" -) <<'PY'
import importlib.metadata
import os
import sysconfig

import gcol

dist = importlib.metadata.distribution("gcol-cuda13x")  # the distribution that holds `import gcol`
assert dist.version == gcol.__version__, dist.version
assert dist.metadata["License-Expression"] == "Apache-2.0", dist.metadata["License-Expression"]
assert any(str(f).endswith("licenses/LICENSE") for f in dist.files), "no LICENSE in the installed wheel"
site = os.path.realpath(sysconfig.get_paths()["platlib"])
path = os.path.realpath(gcol.library_path())
assert os.path.realpath(gcol.__file__).startswith(site + os.sep), gcol.__file__
assert path == os.path.join(site, "gcol", "libgcol.so.%d" % gcol.version()[0]), path
assert os.path.isfile(os.path.join(site, "gcol", "py.typed"))
print("wheel's gcol", gcol.__version__, "loads", path, gcol.version())
try:
    gcol.Map("int64", "int64", 100).close()
    print("map ok")
except gcol.NoDeviceError as e:
    print(e)
PY
}

# Without nvcc the build stops with one line that says so.
python_wheel_without_nvcc() {
  local out line
  setuptools_ok || return $SKIP
  [ -x "$work/venv-build/bin/python" ] && ls "$work"/sdist/gcol_cuda13x-*.tar.gz >/dev/null ||
    { echo "python_wheel made no sdist"; return 1; }
  if out=$(env -u GCOL_PREBUILT_LIBRARY CUDA_HOME="$work/no-cuda" "$work/venv-build/bin/python" -m pip wheel \
    --no-deps --no-build-isolation --no-index -w "$work/dist-none" "$work"/sdist/gcol_cuda13x-*.tar.gz 2>&1); then
    echo "a wheel was built without nvcc"
    return 1
  fi
  line="gcol: cannot build libgcol.so: no nvcc at $work/no-cuda/bin/nvcc"
  [ "$(grep -c '^ *gcol: ' <<<"$out")" -eq 1 ] && grep -q "^ *$line" <<<"$out" || { echo "$out"; return 1; }
}

# make wheel's second link: this build's objects against glibc 2.28's symbol
# versions (scripts/link_glibc.py, zig) give a library that carries
# manylinux_2_28, exports what nvcc's link exports (the script checks) and
# answers as it does, here through the Python package.
manylinux_2_28_link() {
  local lib=$build/glibc/libgcol.so tag
  python3 -c 'import ziglang' 2>/dev/null || command -v zig >/dev/null ||
    { echo "zig is not installed (python3 -m pip install ziglang; .ci/run does)"; return $SKIP; }
  $make -s --no-print-directory BUILD="$build" "$lib" >"$work/glibc.log" 2>&1 || { tail -20 "$work/glibc.log"; return 1; }
  tag=$(python3 packaging/wheel_tag.py "$lib") || return 1
  [ "$tag" = manylinux_2_28_x86_64 ] || { echo "the glibc 2.28 link carries $tag"; return 1; }
  (unset GCOL_PREFIX && GCOL_LIBRARY=$lib PYTHONPATH=python runs python3 -) <<'PY'
import os
import gcol

print("loaded", os.path.realpath(gcol.library_path()), gcol.version())
try:
    gcol.Map("int64", "int64", 100).close()
    print("map ok")
except gcol.NoDeviceError as e:
    print(e)
PY
}

uninstall() {
  [ -f "$prefix/share/gcol/install_manifest.txt" ] || { echo "nothing was installed"; return 1; }
  $make -s --no-print-directory BUILD="$build" PREFIX="$prefix" uninstall || return 1
  [ -z "$(find "$prefix" -mindepth 1)" ] || { echo "left behind:"; find "$prefix" -mindepth 1; return 1; }
}

check install install
check installed_layout layout
check pkgconfig_shared pkgconfig_shared
check pkgconfig_static pkgconfig_static
check cmake_find_package cmake_package
check gcol_nccl gcol_nccl
check exports_match_headers exports_match_headers
check example_against_install example_against_install
check readme_c_example readme_c_example
check python_finds_prefix python_finds_prefix
check python_wheel python_wheel
check python_wheel_without_nvcc python_wheel_without_nvcc
check manylinux_2_28_link manylinux_2_28_link
check uninstall_leaves_nothing uninstall
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
