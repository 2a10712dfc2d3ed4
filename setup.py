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
  GCOL_WITH_NCCL=1        also build and package libgcol_nccl.so (gcol.DistMap;
                          needs NCCL's headers, NCCL_HOME as for make)
The wheel holds a platform library but no Python extension, so it is tagged
py3-none-<platform>: any CPython 3 on that platform can use it. The platform
is the manylinux tag the library can carry (packaging/wheel_tag.py reads its
ELF symbol versions): manylinux_2_28_x86_64 for a library linked against
glibc 2.28's symbol versions, as `make wheel` links the release wheel's
(scripts/link_glibc.py) or a manylinux_2_28 image would; a build on a newer
glibc gets the newer tag it needs, never a tag that claims more than the
library can do.

`pip install -e .` (editable) builds the library in the tree's build/ (`make
build/libgcol.so`), where the package, imported from python/gcol, finds it.
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
sys.path.insert(0, os.path.join(ROOT, "packaging"))
import wheel_tag  # noqa: E402 (packaging/wheel_tag.py, in the sdist too)


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


def build_nccl_library(build_temp):
    """GCOL_WITH_NCCL=1: make's libgcol_nccl.so too (gcol.DistMap), beside
    libgcol.so. Off by default: it needs NCCL's headers to build and ties the
    wheel to libnccl.so.2, which PyTorch's nvidia-nccl wheel provides at run
    time. None when it cannot be built (the rest of the package works)."""
    if os.environ.get("GCOL_WITH_NCCL") != "1":
        return None
    home = cuda_home()
    target = os.path.join(build_temp, "libgcol_nccl.so")
    cmd = [shutil.which("make") or "make", "-C", ROOT, "BUILD=" + build_temp, "CUDA_HOME=" + home,
           "NVCC=" + os.path.join(home, "bin", "nvcc"), target]
    if os.environ.get("GPU_ARCHS"):
        cmd.append("GPU_ARCHS=" + os.environ["GPU_ARCHS"])
    print("gcol: building libgcol_nccl.so:", " ".join(cmd), flush=True)
    if subprocess.call(cmd) != 0:
        print("gcol: libgcol_nccl.so was not built (NCCL not found? set NCCL_HOME); gcol.DistMap will say so",
              flush=True)
        return None
    return target


class BuildPyWithLibrary(build_py):
    """build_py, then libgcol.so (prebuilt or made now) into the package as its SONAME."""

    def run(self):
        super().run()
        prebuilt = os.environ.get("GCOL_PREBUILT_LIBRARY")
        if getattr(self, "editable_mode", False):
            # pip install -e: the package stays in python/gcol and finds the
            # tree's build/libgcol.so (gcol/_lib.py), so build that one
            self.distribution.gcol_library = build_library(os.path.join(ROOT, "build"))
            return
        if prebuilt:
            if not os.path.isfile(prebuilt):
                stop("GCOL_PREBUILT_LIBRARY=%s is not a file" % prebuilt)
            library = prebuilt
        else:
            build_temp = os.path.abspath(os.path.join(self.get_finalized_command("build").build_temp, "gcol"))
            library = build_library(build_temp)
        self.distribution.gcol_library = library  # bdist_wheel tags the wheel from it
        destination = os.path.join(self.build_lib, "gcol", soname())
        self.mkpath(os.path.dirname(destination))
        self.copy_file(library, destination, preserve_mode=True)
        nccl_library = None if prebuilt else build_nccl_library(os.path.dirname(library))
        if nccl_library:
            self.copy_file(nccl_library, os.path.join(self.build_lib, "gcol", soname().replace("libgcol", "libgcol_nccl")),
                           preserve_mode=True)


class PlatformDistribution(Distribution):
    """Holds a platform library: installed in platlib, a platform wheel."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    """A wheel for this platform (it holds libgcol.so) that any Python 3 can
    use (ctypes, no extension), tagged with the manylinux tag the library can
    carry (not setuptools' linux_<arch>, which PyPI refuses)."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        platform = super().get_tag()[2]
        library = getattr(self.distribution, "gcol_library", None)
        if library and platform.startswith("linux_"):
            try:
                platform = wheel_tag.manylinux_tag(library)
            except ValueError as e:
                stop("the library has no manylinux tag: %s" % e)
        return ("py3", "none", platform)


setup(distclass=PlatformDistribution, cmdclass={"build_py": BuildPyWithLibrary, "bdist_wheel": PlatformWheel})
