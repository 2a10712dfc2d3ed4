"""gcol.isin: membership of every element of x in test_values, through gcol's hash set."""
import math
from typing import Any, Union, overload

from . import _torch_ops
from ._keys import LOAD, Keys
from ._typing import Array, KeyColumns


@overload
def isin(x: KeyColumns, test_values: KeyColumns, *, invert: bool = ..., assume_unique: bool = ...) -> Any: ...
@overload  # noqa: E302
def isin(x: Array, test_values: Any, *, invert: bool = ..., assume_unique: bool = ...) -> Array: ...


def isin(x: Union[Array, KeyColumns], test_values: Union[Array, KeyColumns], *, invert: bool = False,
         assume_unique: bool = False) -> Any:
    """Whether each element of x is in test_values, like ``numpy.isin`` /
    ``torch.isin``.

    Parameters
    ----------
    x : device array, or tuple of device arrays
        CuPy, PyTorch CUDA, Numba, ``__cuda_array_interface__`` or DLPack, of
        any shape (read as flat), of any dtype ``gcol.unique`` takes. A tuple
        of columns of one length: row i is the key ``(x[0][i], x[1][i],
        ...)`` (up to 128 bits in all) and test_values must be a tuple of as
        many columns.
    test_values : device array, or tuple of device arrays
        Of x's library and device; goes into a hash set (2 slots per
        element), then every element of x is looked up.
    invert : bool, keyword-only
        Return whether each element is *not* in test_values (as
        ``numpy.isin(..., invert=True)``, without a second pass).
    assume_unique : bool, keyword-only
        Accepted for NumPy compatibility; the result does not depend on it
        (the hash set takes duplicates as they come).

    Returns
    -------
    array of bool
        x's shape (a tuple's columns' shape), of x's library.

    Raises
    ------
    gcol.InvalidArgumentError
        Host arrays, an unsupported dtype, libraries or devices that differ,
        tuples of different widths, or dtypes that no common dtype holds
        exactly (the message says which).
    gcol.OutOfMemoryError, gcol.NoDeviceError

    Notes
    -----
    Dtypes that differ are compared in a common dtype that holds every value
    of both exactly: by their types (int32 with int64: int64; uint32 with
    int32: int64; int16 with float32: float32), else by their values, one
    sync (uint64 with int64: int64 when every uint64 value is below 2^63;
    int64 with float64: float64 when every integer is within 2^53). A float
    and an integer array with integers that the float cannot hold exactly,
    and uint64 values of 2^63 or more beside negative int64 ones, are
    refused: cast one yourself.

    Float keys are compared as bits: -0.0 equals 0.0, any NaN is in
    test_values when any NaN is (``numpy.isin`` and ``torch.isin`` find no
    NaN), and every other value, subnormals included, only equals itself.

    Runs on the current stream of x's library; waits for it once, after
    test_values is stored (the result itself is not waited for).

    Examples
    --------
    >>> x = torch.tensor([1, 5, 9, 5], device="cuda")  # doctest: +SKIP
    >>> gcol.isin(x, torch.tensor([5, 7], device="cuda", dtype=torch.int32))  # doctest: +SKIP
    tensor([False,  True, False,  True], device='cuda:0')
    >>> gcol.isin(x, torch.tensor([5, 7], device="cuda"), invert=True)  # doctest: +SKIP
    tensor([ True, False,  True, False], device='cuda:0')
    """
    if _torch_ops.traced(x, test_values):  # torch.compile: the gcol::isin operator
        return _torch_ops.isin(x, test_values, invert, assume_unique)
    keys = Keys([(x, "x"), (test_values, "test_values")], promote=True)
    xp = keys.lib
    (nx, nt), (kx, kt) = keys.sizes, keys.flat
    with xp.on_device(xp.device):
        s = xp.default_stream()
        if nx == 0 or nt == 0:
            found = xp.full(nx, False, "bool")
        else:
            found = keys.run(lambda cap: _lookup(keys, cap, s, kx, kt), [1], s,
                             capacity=max(1, math.ceil(nt / LOAD)))
        if invert:
            found = xp.logical_not(found)
        found = xp.reshape(found, keys.shapes[0])
    return keys.output(found)


def _lookup(keys, capacity, s, kx, kt):
    with keys.set(capacity, s) as st:
        st.insert(kt, stream=s)
        st.status(stream=s)  # a sentinel among test_values: ReservedKeyError, run again with others
        return st.contains(kx, stream=s)  # a sentinel in x is simply not found (test_values lacks it)
