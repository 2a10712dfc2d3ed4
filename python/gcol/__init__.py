"""gcol for Python: GPU hash maps, multimaps and shortest paths over gcol's C
library (libgcol.so, through ctypes), on CuPy, PyTorch, Numba or any DLPack
device arrays, without copying through the host.

    import cupy, gcol
    m = gcol.Map("int64", "float64", capacity=2 * n)
    m.insert_or_apply(keys, values, gcol.ADD)      # group-by sum
    keys, sums = m.retrieve_all()

and the calls people make on arrays (PyTorch, CuPy, Numba, DLPack):

    values, counts = gcol.unique(x, return_counts=True)          # sorted, as numpy.unique
    group_keys, sums = gcol.groupby_reduce(keys, values, op="sum")
    mask = gcol.isin(x, test_values, invert=False)
    left_index, right_index = gcol.join(left_keys, right_keys, how="inner")
    (a, b), counts = gcol.unique((col_a, col_b), return_counts=True)   # key columns

Errors are GcolError subclasses carrying the C status (``.status``) and the
C library's message (``.message``: the call, the argument and the rule).
"""
from typing import Tuple

from ._errors import (CudaError, FullError, GcolError, InvalidArgumentError, LibraryNotFoundError,
                      NcclError, NoDeviceError, OutOfMemoryError, ReservedKeyError, Status)
from ._map import ADD, MAX, MIN, Map, Op
from ._dist import DistMap  # several GPUs (libgcol_nccl, NCCL loaded on first use)
from ._multimap import Multimap
from ._set import Multiset, Set
from ._sssp import NO_PRED, Graph, shortest_paths, shortest_paths_pred, paths
from ._sketch import BloomFilter, HyperLogLog, approx_distinct
from ._version import __version__

# ---- functions over device arrays (issue 26) ----------------------------------
from ._groupby import groupby_reduce
from ._isin import isin
from ._join import join
from ._unique import unique

# ---- string dictionary (issue 25) ----------------------------------------------
from ._strmap import (StringMap, dictionary_encode, strings_from_arrow, strings_from_list, strings_to_arrow,
                      strings_to_list, value_counts)
from . import _torch_ops

_torch_ops.register_if_imported()  # torch.compile's gcol:: operators, when PyTorch is already imported


def library_path() -> str:
    """The path of the libgcol.so in use, loading it if needed.

    Returns
    -------
    str
        Found through ``GCOL_LIBRARY``, next to the package, or the system's
        library path, in that order.

    Raises
    ------
    gcol.LibraryNotFoundError
        No libgcol.so could be loaded.

    Examples
    --------
    >>> "libgcol.so" in gcol.library_path()  # libgcol.so.1 inside an installed wheel
    True
    """
    from ._lib import functions
    return functions().path


def version() -> Tuple[int, int, int]:
    """The loaded C library's version.

    Returns
    -------
    (major, minor, patch) : tuple of int
        ``gcol_version()`` of the libgcol.so in use; ``gcol.__version__`` is
        the Python package's, which follows it.

    Raises
    ------
    gcol.LibraryNotFoundError
        No libgcol.so could be loaded.

    Examples
    --------
    >>> major, minor, patch = gcol.version()
    >>> "%d.%d.%d" % (major, minor, patch) == gcol.__version__
    True
    """
    from ._lib import functions
    v = functions().version()
    return (v // 10000, v // 100 % 100, v % 100)


__all__ = ["Map", "DistMap", "Multimap", "Graph", "shortest_paths", "shortest_paths_pred", "paths", "NO_PRED", "Op", "ADD", "MIN", "MAX", "Status", "GcolError",
           "InvalidArgumentError", "OutOfMemoryError", "NoDeviceError", "CudaError", "FullError",
           "ReservedKeyError", "NcclError", "LibraryNotFoundError", "library_path", "version", "__version__",
           "unique", "groupby_reduce", "isin", "join"]
__all__ += ["Set", "Multiset", "BloomFilter", "HyperLogLog", "approx_distinct"]  # issue 39: were missing
__all__ += ["StringMap", "dictionary_encode", "value_counts", "strings_from_arrow", "strings_from_list",
            "strings_to_arrow", "strings_to_list"]
