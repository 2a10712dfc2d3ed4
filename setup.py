"""The build step of `pip install .` / `pip wheel .`: setuptools packages
python/gcol (pyproject.toml says what), and this adds libgcol.so, built from
source by the Makefile with the machine's CUDA toolkit, inside the package.

Environment:
  CUDA_HOME               the toolkit (default: the one of `nvcc` on PATH, then
                          /usr/local/cuda); its nvcc builds the library
  GPU_ARCHS               nvcc's -gencode flags, as for make (default: the
                          Makefile's sm_80 + sm_90 + compute_90 PTX)
  GCOL_PREBUILT_LIBRARY   a libgcol.so already built (e.g. build/libgcol.so of
                          `make`): packaged as it is, nothing is compiled
The wheel holds a platform library but no Python extension, so it is tagged
py3-none-<platform>: any CPython 3 on that platform can use it.
"""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1: the wheel package's
    from wheel.bdist_wheel import bdist_wheel

ROOT = os.path.dirname(os.path.abspath(__file__))


def stop(line):
    """End the build with one line that says what is missing."""
    sys.exit("gcol: " + line)


def soname():
    header = open(os.path.join(ROOT, "include", "gcol", "gcol.h")).read()
    return "libgcol.so.%s" % re.search(r"#define GCOL_VERSION_MAJOR (\d+)", header).group(1)


def cuda_home():
    if os.environ.get("CUDA_HOME"):
        return os.environ["CUDA_HOME"]
    nvcc = shutil.which("nvcc")
    return os.path.dirname(os.path.dirname(os.path.realpath(nvcc))) if nvcc else "/usr/local/cuda"


def build_library(build_temp):
    """make's libgcol.so in build_temp (incremental, like any make build)."""
    home = cuda_home()
    nvcc = os.path.join(home, "bin", "nvcc")
    if not os.access(nvcc, os.X_OK):
        stop("cannot build libgcol.so: no nvcc at %s (install the CUDA toolkit, 12.4 or later, and set "
             "CUDA_HOME to it)" % nvcc)
    for what in ("include/cuda_runtime_api.h", "lib64/libcudart_static.a"):
        if not os.path.exists(os.path.join(home, what)):
            stop("cannot build libgcol.so: the CUDA toolkit at %s has no %s (set CUDA_HOME to a complete "
                 "toolkit)" % (home, what))
    make = shutil.which("make")
    if make is None:
        stop("cannot build libgcol.so: GNU make is not installed")
    target = os.path.join(build_temp, "libgcol.so")
    cmd = [make, "-C", ROOT, "BUILD=" + build_temp, "CUDA_HOME=" + home, "NVCC=" + nvcc, target]
    if os.environ.get("GPU_ARCHS"):
        cmd.append("GPU_ARCHS=" + os.environ["GPU_ARCHS"])
    print("gcol: building libgcol.so:", " ".join(cmd), flush=True)
    rc = subprocess.call(cmd)
    if rc != 0:
        stop("building libgcol.so failed (make exited %d; `pip install -v .` shows its output)" % rc)
    return target


class BuildPyWithLibrary(build_py):
    """build_py, then libgcol.so (prebuilt or made now) into the package as its SONAME."""

    def run(self):
        super().run()
        prebuilt = os.environ.get("GCOL_PREBUILT_LIBRARY")
        if prebuilt:
            if not os.path.isfile(prebuilt):
                stop("GCOL_PREBUILT_LIBRARY=%s is not a file" % prebuilt)
            library = prebuilt
        else:
            build_temp = os.path.abspath(os.path.join(self.get_finalized_command("build").build_temp, "gcol"))
            library = build_library(build_temp)
        destination = os.path.join(self.build_lib, "gcol", soname())
        self.mkpath(os.path.dirname(destination))
        self.copy_file(library, destination, preserve_mode=True)


class PlatformDistribution(Distribution):
    """Holds a platform library: installed in platlib, a platform wheel."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    """A wheel for this platform (it holds libgcol.so) that any Python 3 can use (ctypes, no extension)."""

    def get_tag(self):
        return ("py3", "none") + tuple(super().get_tag()[2:])


setup(distclass=PlatformDistribution, cmdclass={"build_py": BuildPyWithLibrary, "bdist_wheel": PlatformWheel})
