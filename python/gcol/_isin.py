"""gcol.isin: membership of every element of x in test_values, through gcol's hash set."""
import math
from typing import Any

from ._keys import LOAD, Keys


def isin(x: Any, test_values: Any) -> Any:
    """A bool array of x's shape: whether each element of x is in test_values
    (``torch.isin`` / ``cupy.isin`` without their options).

    x, test_values: C-contiguous device arrays (CuPy, PyTorch CUDA, Numba,
    ``__cuda_array_interface__`` or DLPack) of one library and one dtype:
    int32, uint32, int64, uint64, float32 or float64; any shapes (read as
    flat). test_values goes into a hash set (2 slots per element), then every
    element of x is looked up. Float keys, compared as bits: -0.0 equals 0.0,
    any NaN is in test_values when any NaN is (``torch.isin`` finds no NaN),
    and every other value, subnormals included, only equals itself.

    Stream: the current stream of x's library; the call waits for it once,
    after test_values is stored (the result itself is not waited for).

    Errors: gcol.InvalidArgumentError for host arrays, strided views, an
    unsupported dtype, or dtypes or libraries that differ (the message says
    which); OutOfMemoryError; NoDeviceError.
    """
    keys = Keys([(x, "x"), (test_values, "test_values")])
    be = keys.backend
    (nx, nt), (kx, kt) = keys.sizes, keys.flat
    with be.context():
        s = be.stream()
        if nx == 0 or nt == 0:
            found = be.full(nx, False, "bool")
        else:
            found = keys.run(lambda cap: _lookup(keys, cap, s, kx, kt), [1], s,
                             capacity=max(1, math.ceil(nt / LOAD)))
        found = be.reshape(found, keys.shapes[0])
    return keys.output(found)


def _lookup(keys, capacity, s, kx, kt):
    with keys.set(capacity, s) as st:
        st.insert(kt, stream=s)
        st.status(stream=s)  # a sentinel among test_values: ReservedKeyError, run again with others
        return st.contains(kx, stream=s)  # a sentinel in x is simply not found (test_values lacks it)
