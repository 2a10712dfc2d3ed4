"""gcol.unique: the distinct values of a device array through gcol's hash set or map."""
from typing import Any, Literal, Tuple, overload

from . import _torch_ops
from ._keys import Keys
from ._map import ADD, MIN
from ._typing import Array, KeyColumns

# (issue 41, item 7) one overload per combination of the return_* flags: what
# a type checker sees is what the call returns (an array, or a tuple of them
# in NumPy's order: values, index, inverse, counts)
_F = Literal[False]
_T = Literal[True]


@overload
def unique(x: KeyColumns, *, sorted: bool = ..., return_index: _F = ..., return_inverse: _F = ...,
           return_counts: _F = ...) -> KeyColumns: ...
@overload  # noqa: E302
def unique(x: Array, *, sorted: bool = ..., return_index: _F = ..., return_inverse: _F = ...,
           return_counts: _F = ...) -> Array: ...
@overload  # noqa: E302
def unique(x: Array, *, sorted: bool = ..., return_index: _T, return_inverse: _F = ...,
           return_counts: _F = ...) -> Tuple[Array, Array]: ...
@overload  # noqa: E302
def unique(x: Array, *, sorted: bool = ..., return_index: _F = ..., return_inverse: _T,
           return_counts: _F = ...) -> Tuple[Array, Array]: ...
@overload  # noqa: E302
def unique(x: Array, *, sorted: bool = ..., return_index: _F = ..., return_inverse: _F = ...,
           return_counts: _T) -> Tuple[Array, Array]: ...
@overload  # noqa: E302
def unique(x: Array, *, sorted: bool = ..., return_index: _T, return_inverse: _T,
           return_counts: _F = ...) -> Tuple[Array, Array, Array]: ...
@overload  # noqa: E302
def unique(x: Array, *, sorted: bool = ..., return_index: _T, return_inverse: _F = ...,
           return_counts: _T) -> Tuple[Array, Array, Array]: ...
@overload  # noqa: E302
def unique(x: Array, *, sorted: bool = ..., return_index: _F = ..., return_inverse: _T,
           return_counts: _T) -> Tuple[Array, Array, Array]: ...
@overload  # noqa: E302
def unique(x: Array, *, sorted: bool = ..., return_index: _T, return_inverse: _T,
           return_counts: _T) -> Tuple[Array, Array, Array, Array]: ...
@overload  # noqa: E302
def unique(x: Any, *, sorted: bool = ..., return_index: bool = ..., return_inverse: bool = ...,
           return_counts: bool = ...) -> Any: ...


def unique(x: Any, *, sorted: bool = True, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False) -> Any:
    """The distinct values of x, like ``numpy.unique`` / ``torch.unique``
    (without ``axis``/``dim``).

    Parameters
    ----------
    x : device array, or tuple of device arrays
        A device array of any shape (CuPy, PyTorch CUDA, Numba,
        ``__cuda_array_interface__`` or DLPack), read as flat, of int8, int16,
        int32, int64, uint8, uint16, uint32, uint64, bool, float16, bfloat16
        (PyTorch), float32 or float64. Strided views are copied first. A tuple
        of such arrays of one length is several key columns: row i is the key
        ``(x[0][i], x[1][i], ...)``, packed into one key of up to 128 bits.
    sorted : bool, keyword-only, default True
        Values ascending (tuples: lexicographically, first column first), so
        every run gives the same order as ``numpy.unique``. ``sorted=False``
        is the fast path: the order is unspecified (the hash table's) and may
        differ between runs and GPUs; index, inverse and counts stay aligned
        with it.
    return_index : bool, keyword-only
        Also return, per value, the index (into flat x) of its first
        occurrence, as ``numpy.unique``.
    return_inverse : bool, keyword-only
        Also return, per element of x, the index of its value:
        ``values[inverse] == x``.
    return_counts : bool, keyword-only
        Also return how often each value occurs.

    Returns
    -------
    values : array, or tuple of arrays
        One per distinct value, x's dtype (a tuple of columns, each in its
        column's dtype, when x was a tuple).
    index : int64 array, like values (if return_index)
    inverse : int64 array of x's shape (if return_inverse)
    counts : int64 array, like values (if return_counts)
        With any flag the result is a tuple in NumPy's order ``(values,
        index, inverse, counts)``, holding the ones asked for. Arrays of x's
        library (Numba inputs get Numba arrays; DLPack inputs CuPy or
        PyTorch ones, whichever is imported).

    Raises
    ------
    gcol.InvalidArgumentError
        Host arrays, another dtype, tuples of columns of different lengths or
        libraries, or columns of more than 128 bits in all (the message says
        which).
    gcol.OutOfMemoryError, gcol.NoDeviceError

    Notes
    -----
    Float keys are compared as bits: -0.0 and 0.0 are one value (+0.0 in
    values), every NaN is one value (the quiet NaN, bits 0x7fc00000 or
    0x7ff8000000000000, in values), and every other bit pattern, subnormals
    included, is its own value. ``numpy.unique`` (``equal_nan=True``) groups
    the same but returns whichever zero and NaN sort first; ``torch.unique``
    keeps each NaN apart. An empty x gives empty results.

    Runs on the current stream of x's library (``torch.cuda.current_stream()``,
    ``cupy.cuda.get_current_stream()``) and waits for it (the number of
    distinct values sizes the result), as ``torch.unique`` does.

    Examples
    --------
    >>> x = torch.tensor([3, 1, 3, 2], device="cuda")  # doctest: +SKIP
    >>> gcol.unique(x)  # doctest: +SKIP
    tensor([1, 2, 3], device='cuda:0')
    >>> values, index, inverse, counts = gcol.unique(  # doctest: +SKIP
    ...     x, return_index=True, return_inverse=True, return_counts=True)
    >>> index, inverse, counts  # doctest: +SKIP
    (tensor([1, 3, 0], ...), tensor([2, 0, 2, 1], ...), tensor([1, 1, 2], ...))
    >>> gcol.unique((x, x % 2))                 # distinct rows of two columns  # doctest: +SKIP
    (tensor([1, 2, 3], ...), tensor([1, 0, 1], ...))
    """
    if _torch_ops.traced(x):  # torch.compile: the gcol::unique operator
        return _torch_ops.unique(x, sorted, return_index, return_inverse, return_counts)
    keys = Keys([(x, "x")])
    xp, n = keys.lib, keys.sizes[0]
    with xp.on_device(xp.device):
        s = xp.default_stream()
        if n == 0:
            bits = keys.flat[0]
            first = ids = counts = xp.empty(0, "int64")
        else:
            bits, first, ids, counts = keys.run(
                lambda cap: _distinct(keys, cap, s, return_index, return_inverse, return_counts), [0], s)
        values = keys.values(bits)
        if sorted and n:
            order = keys.order(values)
            values = keys.take(values, order)
            if return_index:
                first = xp.take(first, order)
            if return_counts:
                counts = xp.take(counts, order)
            if return_inverse:
                ids = xp.take(xp.scatter_arange(order, order.shape[0], "int64"), ids)
        results = [values]
        if return_index:
            results.append(xp.astype(first, "int64"))
        if return_inverse:
            results.append(xp.reshape(ids, keys.shapes[0]))
        if return_counts:
            results.append(xp.astype(counts, "int64"))
    results = [keys.output(r) for r in results]
    return results[0] if len(results) == 1 else tuple(results)


def _distinct(keys, capacity, s, return_index, return_inverse, return_counts):
    """(distinct key bits, first index or None, per-input group id or None,
    counts or None) from one set, or one or two maps."""
    xp, n, k = keys.lib, keys.sizes[0], keys.flat[0]
    if not (return_index or return_inverse or return_counts):  # keys only: a set (H100, 100M keys: 13% faster)
        with keys.set(capacity, s) as st:
            st.insert(k, stream=s)
            return st.retrieve_all(stream=s), None, None, None
    counts_here = return_counts and not return_index  # counts in the first map, else in a second one
    # int64 group ids and first indices; counts alone fit int32 below 2^31 inputs
    value_dtype = "int64" if return_index or return_inverse or n >= 2**31 else "int32"
    first = counts = ids = None
    with keys.map(value_dtype, capacity, s) as m:
        if return_index:  # the least index of each key: its first occurrence
            m.insert_or_apply(k, xp.arange(n, "int64"), MIN, stream=s)
        elif counts_here:
            m.insert_or_apply(k, None, ADD, stream=s)  # no values: every key adds one
        else:
            m.insert(k, xp.empty(n, value_dtype), stream=s)
        bits, stored = m.retrieve_all(stream=s)
        first = stored if return_index else None
        counts = stored if counts_here else None
        if return_inverse:  # number the distinct keys in the map, then look every input up
            m.insert_or_assign(bits, xp.arange(bits.shape[0], "int64"), stream=s)
            ids = m.find(k, stream=s)
    if return_counts and counts is None:  # same keys, same size: no retry past the first map
        with keys.map("int32" if n < 2**31 else "int64", capacity, s) as m:
            m.insert_or_apply(k, None, ADD, stream=s)
            counts = m.find(bits, stream=s)
    return bits, first, ids, counts
