"""gcol.groupby_reduce: reduce value columns by key through gcol's hash map
(one insert_or_apply pass per column and reduction)."""
from typing import Any, List, Optional, Sequence, Tuple, Union

from ._arrays import adopt
from ._dtypes import dtype_name
from ._errors import InvalidArgumentError
from ._keys import FUNCTION_DTYPES, Keys, is_float, prepare
from ._map import ADD, MAX, MIN
from ._typing import DTypeLike, Ops

OPS = ("sum", "min", "max", "count", "mean")
_MAP_OPS = {"sum": ADD, "min": MIN, "max": MAX}
VALUE_DTYPES = ("int32", "uint32", "int64", "uint64", "float32", "float64")  # what the map stores
# narrow value dtypes as the map stores them (min and max come back in the input's dtype)
_WIDENED = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "int32", "uint16": "int32",
            "float16": "float32", "bfloat16": "float32"}


def groupby_reduce(keys: Any, values: Union[Any, Sequence[Any]], *, op: Ops = "sum", sorted: bool = True,
                   dtype: Union[None, DTypeLike, Sequence[Optional[DTypeLike]]] = None
                   ) -> Tuple[Any, Union[Any, List[Any]]]:
    """Group the rows by key and reduce each value column: ``(group_keys, results)``.

    Parameters
    ----------
    keys : device array, or tuple of device arrays
        CuPy, PyTorch CUDA, Numba, ``__cuda_array_interface__`` or DLPack,
        read as flat (n rows), of any dtype ``gcol.unique`` takes. A tuple
        of key columns of one length groups by every column (pandas
        ``groupby([...])``; up to 128 bits in all).
    values : device array, or list/tuple of them
        One value column of n elements, or several (one call for all), of
        keys' library: int8 to int64, uint8 to uint64, bool, float16,
        bfloat16, float32 or float64. Strided views are copied first.
    op : str or sequence of str, keyword-only
        "sum", "min", "max", "count" or "mean", or one per column.
    sorted : bool, keyword-only, default True
        group_keys ascending (tuples: lexicographically), as pandas'
        ``groupby(sort=True)``. ``sorted=False`` is the fast path: groups in
        an unspecified order (results stay aligned with group_keys).
    dtype : dtype, or one per column (None entries keep the default), keyword-only
        What sums and means accumulate in (int32, uint32, int64, uint64,
        float32 or float64), as NumPy's ``sum(dtype=)``. Default: int64 for
        signed integers and bool, uint64 for unsigned ones (no wrapping
        below 2^63 / 2^64), float32 for float16/bfloat16 (results cast
        back), the column's own dtype for float32 and float64.
        ``dtype="int32"`` keeps the wrapping 32-bit sums of gcol 1.3.

    Returns
    -------
    group_keys : array, or tuple of arrays
        One per distinct key, keys' dtype(s).
    results : array, or list of arrays
        Aligned with group_keys: one array, or a list when values was a
        list/tuple. Dtypes: sum: the accumulator's (int64 / uint64 for
        integers by default; float16/bfloat16 columns: their own); min and
        max: the column's; count: int64; mean: float64 for integer columns
        (the accumulator's if it is a float), the column's for float ones.

    Raises
    ------
    gcol.InvalidArgumentError
        Host arrays, unsupported dtypes, a column of another length or
        library, an unknown op, a dtype that is not a sum type, or keys of
        more than 128 bits in all (the message says which).
    gcol.OutOfMemoryError, gcol.NoDeviceError

    Notes
    -----
    Floats: sum and mean take NaN along (NaN result); min and max skip NaN
    values (NaN only where a group has nothing else). Float keys, compared
    as bits: -0.0 and 0.0 are one key (+0.0 in group_keys), all NaN keys
    are one group (the quiet NaN in group_keys; pandas' default dropna=True
    drops them), every other bit pattern, subnormals included, is its own
    key. Empty inputs give empty results. Runs on the current stream of
    keys' library and waits for it (the number of groups sizes the results).

    Examples
    --------
    >>> k = torch.tensor([2, 1, 2], device="cuda")  # doctest: +SKIP
    >>> v = torch.tensor([10, 20, 30], device="cuda", dtype=torch.int32)  # doctest: +SKIP
    >>> gcol.groupby_reduce(k, v, op="sum")                # int64 sums  # doctest: +SKIP
    (tensor([1, 2], ...), tensor([20, 40], ...))
    >>> gk, (s, m) = gcol.groupby_reduce(k, [v, v], op=["sum", "mean"])  # doctest: +SKIP
    >>> gcol.groupby_reduce(k, v, op="sum", dtype="int32")  # 32-bit, wrapping  # doctest: +SKIP
    (tensor([1, 2], ...), tensor([20, 40], ..., dtype=torch.int32))
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
    dtypes = list(dtype) if isinstance(dtype, (list, tuple)) else [dtype] * len(columns)
    if len(dtypes) != len(columns):
        raise InvalidArgumentError("dtype has %d entries for %d value columns" % (len(dtypes), len(columns)))
    accumulators = []
    for d in dtypes:
        if d is not None:
            try:
                d = dtype_name(d)
            except InvalidArgumentError:
                pass  # named below with what dtype= takes
            if d not in VALUE_DTYPES:
                raise InvalidArgumentError("dtype must be one of %s (what sums and means accumulate in), not %s"
                                           % (", ".join(VALUE_DTYPES), d))
        accumulators.append(d)
    k = Keys([(keys, "keys")])
    xp, n = k.lib, k.sizes[0]
    cols = []
    for i, c in enumerate(columns):
        what = "values" if single else "values[%d]" % i
        a = adopt(c, what)
        if a.lib.name != xp.name:
            raise InvalidArgumentError("%s is a %s array but keys a %s one: pass arrays of one library"
                                       % (what, a.lib.name, xp.name))
        if a.lib.device != xp.device:
            raise InvalidArgumentError("%s is on device %s but keys on %s: pass arrays of one device"
                                       % (what, a.lib.device, xp.device))
        if a.dtype not in FUNCTION_DTYPES:
            raise InvalidArgumentError("%s: values must be %s, not %s" % (what, ", ".join(FUNCTION_DTYPES), a.dtype))
        if a.n != n:
            raise InvalidArgumentError("%s has %d elements, keys %d" % (what, a.n, n))
        cols.append((xp.reshape(prepare(a, what), (-1,)), a.dtype))
    specs = [_spec(o, d, acc) for o, (_, d), acc in zip(ops, cols, accumulators)]
    with xp.on_device(xp.device):
        s = xp.default_stream()
        passes = _passes(xp, n, cols, specs)
        if n == 0:
            bits = k.flat[0]
            reduced = {key: xp.empty(0, map_dtype) for key, (_, _, map_dtype) in passes.items()}
        else:
            bits, reduced = k.run(lambda cap: _reduce(k, cap, s, passes), [0], s)
        group_keys = k.values(bits)
        results = [_result(xp, reduced, i, spec) for i, spec in enumerate(specs)]
        if sorted and n:
            order = k.order(group_keys)
            group_keys = k.take(group_keys, order)
            results = [xp.take(r, order) for r in results]
    results = [k.output(r) for r in results]
    return k.output(group_keys), (results[0] if single else results)


def _spec(op, dtype, accumulator):
    """(op, the map's value dtype, the result's dtype, the mean's division dtype or None)."""
    if op == "count":
        return op, "int64", "int64", None
    if op in ("min", "max"):
        return op, _WIDENED.get(dtype, dtype), dtype, None
    if accumulator is None:
        if is_float(dtype):
            accumulator = _WIDENED.get(dtype, dtype)
        else:
            accumulator = "uint64" if dtype.startswith("uint") else "int64"
    if op == "sum":
        result = dtype if dtype in ("float16", "bfloat16") and accumulator == "float32" else accumulator
        return op, accumulator, result, None
    division = accumulator if is_float(accumulator) else "float64"
    result = dtype if dtype in ("float16", "bfloat16") and division == "float32" else division
    return op, accumulator, result, division


def _passes(xp, n, cols, specs):
    """{pass key: (values, map op, value dtype)}: one insert_or_apply pass each;
    "count" (values None: the map adds one per key) is shared by every count and mean."""
    passes = {}
    count_dtype = "int32" if n < 2**31 else "int64"
    for i, ((column, dtype), (o, map_dtype, _, _)) in enumerate(zip(cols, specs)):
        if o in _MAP_OPS or o == "mean":
            values = column if map_dtype == dtype else xp.astype(column, map_dtype)
            passes[(i, "sum" if o == "mean" else o)] = (values, _MAP_OPS.get(o, ADD), map_dtype)
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


def _result(xp, reduced, i, spec):
    o, map_dtype, result, division = spec
    if o in _MAP_OPS:
        r = reduced[(i, o)]
        return r if result == map_dtype else xp.astype(r, result)
    count = xp.astype(reduced["count"], "int64")
    if o == "count":
        return count
    mean = xp.divide(reduced[(i, "sum")], count, division)
    return mean if result == division else xp.astype(mean, result)
