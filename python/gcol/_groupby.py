"""gcol.groupby_reduce: reduce value columns by key through gcol's hash map
(one insert_or_apply pass per column and reduction)."""
from typing import Any, List, Sequence, Tuple, Union

from ._errors import InvalidArgumentError
from ._keys import Keys
from ._map import ADD, MAX, MIN
from ._xp import adopt

OPS = ("sum", "min", "max", "count", "mean")
_MAP_OPS = {"sum": ADD, "min": MIN, "max": MAX}
VALUE_DTYPES = ("int32", "uint32", "int64", "uint64", "float32", "float64")


def groupby_reduce(keys: Any, values: Union[Any, Sequence[Any]], op: Union[str, Sequence[str]] = "sum",
                   sorted: bool = False) -> Tuple[Any, Union[Any, List[Any]]]:
    """Group the rows by key and reduce each value column: ``(group_keys, results)``.

    keys: a C-contiguous device array (CuPy, PyTorch CUDA, Numba,
    ``__cuda_array_interface__`` or DLPack) of int32, uint32, int64, uint64,
    float32 or float64, read as flat (n rows).
    values: one such array of n elements, or a list/tuple of them (several
    columns in one call; each of the six dtypes), of keys' library.
    op: "sum", "min", "max", "count" or "mean", or one per column.
    sorted: group_keys ascending (else in no particular order).

    Returns group_keys (1-D, keys' dtype, one per distinct key) and the
    reduced column(s) aligned with it: one array, or a list when values was a
    list/tuple. Result dtypes: sum, min, max keep the column's dtype (integer
    sums wrap, as with ``index_add_``; pass int64 for 64-bit sums); count is
    int64; mean is float64 for integer columns and the column's dtype for
    floats. Floats: sum and mean take NaN along (NaN result); min and max
    skip NaN values (NaN only where a group has nothing else). Float keys,
    compared as bits: -0.0 and 0.0 are one key (+0.0 in group_keys), all NaN
    keys are one group (the quiet NaN in group_keys; pandas' default
    dropna=True drops them), every other bit pattern, subnormals included,
    is its own key. Empty inputs give empty results.

    Stream: the current stream of keys' library; the call waits for it (the
    number of groups sizes the results).

    Errors: gcol.InvalidArgumentError for host arrays, strided views,
    unsupported dtypes, a column of another length or library, an unknown op
    (the message says which); OutOfMemoryError; NoDeviceError.
    """
    single = not isinstance(values, (list, tuple))
    columns = [values] if single else list(values)
    if not columns:
        raise InvalidArgumentError("values is an empty list: give at least one column")
    ops = [op] * len(columns) if isinstance(op, str) else list(op)
    if len(ops) != len(columns):
        raise InvalidArgumentError("op has %d entries for %d value columns" % (len(ops), len(columns)))
    for o in ops:
        if o not in OPS:
            raise InvalidArgumentError("op must be one of %s, not %r" % (", ".join(OPS), o))
    k = Keys([(keys, "keys")])
    be, n = k.backend, k.sizes[0]
    cols = []
    for i, c in enumerate(columns):
        what = "values" if single else "values[%d]" % i
        a, v = adopt(c, what)
        if a.backend.name != be.name:
            raise InvalidArgumentError("%s is a %s array but keys a %s one: pass arrays of one library"
                                       % (what, a.backend.name, be.name))
        if a.backend.device != be.device:
            raise InvalidArgumentError("%s is on device %s but keys on %s: pass arrays of one device"
                                       % (what, a.backend.device, be.device))
        if v.dtype not in VALUE_DTYPES:
            raise InvalidArgumentError("%s: values must be int32, uint32, int64, uint64, float32 or float64, "
                                       "not %s" % (what, v.dtype))
        if v.n != n:
            raise InvalidArgumentError("%s has %d elements, keys %d" % (what, v.n, n))
        cols.append((be.reshape(a.array, (-1,)), v.dtype))
    with be.context():
        s = be.stream()
        passes = _passes(be, n, cols, ops)
        if n == 0:
            bits = k.flat[0]
            reduced = {key: be.empty(0, dtype) for key, (_, _, dtype) in passes.items()}
        else:
            bits, reduced = k.run(lambda cap: _reduce(k, cap, s, passes), [0], s)
        group_keys = k.values(bits)
        results = [_result(be, reduced, i, o, dtype) for i, (o, (_, dtype)) in enumerate(zip(ops, cols))]
        if sorted and n:
            order = be.argsort(k.sort_key(group_keys))
            group_keys = be.take(group_keys, order)
            results = [be.take(r, order) for r in results]
    results = [k.output(r) for r in results]
    return k.output(group_keys), (results[0] if single else results)


def _passes(be, n, cols, ops):
    """{pass key: (values, map op, value dtype)}: one insert_or_apply pass each;
    "count" (values None: the map adds one per key) is shared by every count and mean."""
    passes = {}
    count_dtype = "int32" if n < 2**31 else "int64"
    for i, (o, (column, dtype)) in enumerate(zip(ops, cols)):
        if o in _MAP_OPS:
            passes[(i, o)] = (column, _MAP_OPS[o], dtype)
        if o == "mean":
            wide = dtype if dtype.startswith("float") or dtype.endswith("64") else (
                "int64" if dtype == "int32" else "uint64")
            passes[(i, "sum")] = (column if wide == dtype else be.astype(column, wide), ADD, wide)
        if o in ("count", "mean") and "count" not in passes:
            passes["count"] = (None, ADD, count_dtype)  # no values: the map counts
    return passes


def _reduce(k, capacity, s, passes):
    """(group key bits, {pass key: reduced column aligned with them})."""
    items = list(passes.items())
    first, (column, op, dtype) = items[0]
    with k.map(dtype, capacity, s) as m:
        m.insert_or_apply(k.flat[0], column, op, stream=s)
        bits, first_result = m.retrieve_all(stream=s)
    reduced = {first: first_result}
    for key, (column, op, dtype) in items[1:]:  # same keys, same size: no retry past the first
        with k.map(dtype, capacity, s) as m:
            m.insert_or_apply(k.flat[0], column, op, stream=s)
            reduced[key] = m.find(bits, stream=s)
    return bits, reduced


def _result(be, reduced, i, o, dtype):
    if o in _MAP_OPS:
        return reduced[(i, o)]
    count = be.astype(reduced["count"], "int64")
    if o == "count":
        return count
    return be.divide(reduced[(i, "sum")], count, dtype if dtype.startswith("float") else "float64")
