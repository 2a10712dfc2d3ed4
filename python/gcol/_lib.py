"""Finding and loading libgcol.so, binding the C signatures of _abi to it.

The library is loaded on first use, so ``import gcol`` works anywhere. Where it
is looked for, in order (``GCOL_LIBRARY`` alone when set):
  1. next to this package (a copy shipped with it: `pip install .`, a wheel),
     then, when the package is imported from a source checkout (python/gcol
     of the repository: `pip install -e .`, or python/ on sys.path), the
     checkout's build/libgcol.so (what `make` and the editable install build),
  2. $GCOL_PREFIX/lib, then sys.prefix/lib (a conda env or venv install),
  3. the libdir of pkg-config's gcol.pc (any `make install PREFIX=...` on
     PKG_CONFIG_PATH), then /usr/local/lib,
  4. the dynamic loader's own search (LD_LIBRARY_PATH, ld.so.cache).
"""
import ctypes
import os
import subprocess
import sys
import types

from . import _abi
from ._errors import ERROR_FOR_STATUS, GcolError, LibraryNotFoundError, Status
from ._version import __version__

MAJOR = int(__version__.split(".")[0])
SONAME = "libgcol.so.%d" % MAJOR


class Functions:
    """The library's functions as attributes named without "gcol_"."""

    def __init__(self, dll, path):
        self.path = path
        _abi.bind(self, dll, _abi.CORE)


def _pkg_config_libdir():
    try:
        out = subprocess.run(["pkg-config", "--variable=libdir", "gcol"], capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def _source_build_dir(package_dir):
    """<checkout>/build when package_dir is python/gcol of a gcol source
    checkout (its Makefile and include/gcol/gcol.h beside python/), else None."""
    root = os.path.dirname(os.path.dirname(package_dir))
    header = os.path.join(root, "include", "gcol", "gcol.h")
    if os.path.isfile(os.path.join(root, "Makefile")) and os.path.isfile(header):
        return os.path.join(root, "build")
    return None


def _dirs():
    here = os.path.dirname(os.path.abspath(__file__))
    yield here
    build = _source_build_dir(here)
    if build:
        yield build
    for prefix in (os.environ.get("GCOL_PREFIX"), sys.prefix):
        if prefix:
            yield os.path.join(prefix, "lib")
    libdir = _pkg_config_libdir()  # only run when the places above have no library
    if libdir:
        yield libdir
    yield "/usr/local/lib"


def candidates():
    """Paths tried for libgcol.so, in order; lazily (pkg-config runs only if needed)."""
    explicit = os.environ.get("GCOL_LIBRARY")
    if explicit:
        yield explicit
        return
    for d in _dirs():
        for name in (SONAME, "libgcol.so"):
            path = os.path.join(d, name)
            if os.path.exists(path):
                yield path
    yield SONAME


def load(path):
    """Load libgcol.so from path; LibraryNotFoundError if it cannot be used."""
    try:
        dll = ctypes.CDLL(path)
        version = _abi.bind(types.SimpleNamespace(), dll, _abi.VERSION).version()
    except (OSError, AttributeError) as e:
        raise LibraryNotFoundError("cannot load %s: %s" % (path, e)) from None
    if version // 10000 != MAJOR:
        raise LibraryNotFoundError("%s is gcol %d.%d.%d; this package needs major version %d"
                                   % (path, version // 10000, version // 100 % 100, version % 100, MAJOR))
    return Functions(dll, path)


_functions = None


def functions():
    """The loaded library's Functions (loaded on the first call)."""
    global _functions
    if _functions is None:
        tried = []
        for path in candidates():
            try:
                _functions = load(path)
                break
            except LibraryNotFoundError as e:
                tried.append(str(e))
        else:
            raise LibraryNotFoundError(
                "libgcol.so not found; set GCOL_LIBRARY to its path or GCOL_PREFIX to the install "
                "prefix. Tried:\n  " + "\n  ".join(tried))
    return _functions


def bind(f, signatures):
    """f (functions()) with the calls of signatures (a group of _abi: SET,
    SKETCH, STRMAP) bound, once: the modules of sets, sketches and string maps
    bind theirs on first use."""
    if not all(hasattr(f, name) for name in signatures):
        _abi.bind(f, ctypes.CDLL(f.path), signatures)  # the library already loaded: same handle
    return f


_LATCHED_WORDS = {Status.FULL: "a key found no free slot", Status.RESERVED_KEY: "a key equal to a sentinel was skipped"}


def error(status, latched_by=None):
    """The GcolError subclass instance for a non-zero status returned by the
    call just made on this thread: its text is the status string and
    gcol_last_error_message() (kept as .message). latched_by: the C call
    (e.g. "gcol_map_size") that returned a FULL / RESERVED_KEY latched on the
    device by an earlier call; the C library writes no message for those, so
    the message says so instead of repeating an older one."""
    f = functions()
    if latched_by is not None and status in _LATCHED_WORDS:
        message = "%s: %s in an earlier call on this container (latched)" % (latched_by, _LATCHED_WORDS[status])
    else:
        message = (f.last_error_message() or b"").decode(errors="replace")
    text = f.status_string(status).decode()
    cuda_error = f.last_cuda_error() if status in (Status.NO_DEVICE, Status.CUDA) else 0
    if cuda_error:
        text += " (cudaError_t %d)" % cuda_error
    if message:
        text += " -- " + message
    cls = ERROR_FOR_STATUS.get(status)
    if cls is None:
        err = GcolError(text, cuda_error, message)
        err.status = status
        return err
    return cls(text, cuda_error, message)
