#!/usr/bin/env python3
"""Link libgcol.so again against an older glibc's symbol versions, so that the
release wheel can carry manylinux_2_28 when it is built on a newer system.

    scripts/link_glibc.py --glibc 2.28 --nvcc NVCC --archs "GPU_ARCHS" --soname libgcol.so.1 \
        OUT.so OBJECT...          (the Makefile's $(BUILD)/glibc/libgcol.so)

A library linked on glibc >= 2.34 needs GLIBC_2.34 (the static CUDA runtime's
pthread and dl calls bind to the versions of the libc it is linked against),
which no manylinux_2_28 system has. The same objects linked against glibc
2.28's stub libraries (the ones zig ships for every glibc version: `pip install
ziglang`) bind to the old versions and need libpthread.so.0, libdl.so.2 and
librt.so.1 as such systems have them. The objects, their kernels and the C++
runtime (the system's libstdc++ and libgcc_s, by path) stay as built; nvcc's
own link runs first for its device-link object. The result must export the same
gcol_* symbols as nvcc's link (checked); it is written to OUT.so.
Standard library only; exits 1 with the reason when something is missing.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "packaging"))
import wheel_tag  # noqa: E402


def fail(why):
    sys.exit("link_glibc: " + why)


def zig_command():
    """How to run zig: the ziglang wheel's module, else a zig on PATH."""
    try:
        subprocess.run([sys.executable, "-m", "ziglang", "version"], check=True, capture_output=True)
        return [sys.executable, "-m", "ziglang"]
    except (OSError, subprocess.CalledProcessError):
        pass
    if shutil.which("zig"):
        return ["zig"]
    fail("zig is needed for a manylinux_2_28 link: `python3 -m pip install ziglang` (or build with "
         "WHEEL_GLIBC= for a wheel tagged by this system's glibc)")


def runtime_library(name):
    """The system C++ runtime file the objects were compiled for (g++'s)."""
    path = subprocess.run(["g++", "-print-file-name=" + name], capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(path) or not os.path.exists(path):
        fail("g++ does not know where %s is" % name)
    return path


def exported(path):
    """The gcol_* functions and objects a shared library exports."""
    out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.split() and line.split()[-1].startswith("gcol_")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--glibc", required=True, help="the glibc whose symbol versions to bind, e.g. 2.28")
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--archs", required=True, help="the -gencode flags the objects were built with")
    ap.add_argument("--soname", required=True)
    ap.add_argument("library", help="where the new link goes")
    ap.add_argument("objects", nargs="+")
    args = ap.parse_args()
    zig = zig_command()
    nvcc = shutil.which(args.nvcc) or args.nvcc
    cuda_lib = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))), "targets", "x86_64-linux", "lib")
    if not os.path.exists(os.path.join(cuda_lib, "libcudart_static.a")):
        fail("no libcudart_static.a in %s" % cuda_lib)
    with tempfile.TemporaryDirectory(prefix="gcol-link-") as tmp:
        # nvcc's own link, kept: its device-link object (fatbin registration)
        subprocess.run([nvcc, "-shared"] + args.archs.split() + args.objects +
                       ["--keep", "--keep-dir", tmp, "-o", os.path.join(tmp, "nvcc.so")], check=True)
        dlink = glob.glob(os.path.join(tmp, "*_dlink.o"))
        if len(dlink) != 1:
            fail("nvcc left %d device-link objects, not one" % len(dlink))
        exports = os.path.join(tmp, "exports.map")
        with open(exports, "w") as f:
            f.write("{ global: gcol_*; local: *; };\n")  # the API only, as --exclude-libs=ALL gives nvcc's link
        out = os.path.join(tmp, "glibc.so")
        cmd = zig + ["c++", "-target", "x86_64-linux-gnu." + args.glibc, "-shared", "-nostdlib++",
                     "-Wl,-soname=" + args.soname, "-Wl,--version-script=" + exports] + dlink + args.objects + \
            ["-L" + cuda_lib, "-lcudadevrt", "-lcudart_static", "-lrt", "-lpthread", "-ldl",
             runtime_library("libstdc++.so.6"), runtime_library("libgcc_s.so.1"), "-o", out]
        subprocess.run(cmd, check=True)
        want, got = exported(os.path.join(tmp, "nvcc.so")), exported(out)
        if want != got:
            fail("the glibc %s link exports %d gcol_* symbols, nvcc's %d" % (args.glibc, len(got), len(want)))
        shutil.move(out, args.library)
    print("link_glibc: %s linked against glibc %s's symbol versions: %d exports, tag %s" %
          (args.library, args.glibc, len(want), wheel_tag.manylinux_tag(args.library)))


if __name__ == "__main__":
    main()
