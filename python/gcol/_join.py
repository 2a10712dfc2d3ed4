"""gcol.join: the row pairs of an equi-join, through gcol's multimap."""
import math
from typing import Any, Tuple

from ._errors import InvalidArgumentError
from ._keys import LOAD, Keys
from ._multimap import Multimap

HOW = ("inner", "left")


def join(left_keys: Any, right_keys: Any, how: str = "inner") -> Tuple[Any, Any]:
    """The row pairs of the join of left_keys with right_keys, as
    ``(left_index, right_index)``: int64 arrays, pair j joining row
    left_index[j] with row right_index[j].

    left_keys, right_keys: C-contiguous device arrays (CuPy, PyTorch CUDA,
    Numba, ``__cuda_array_interface__`` or DLPack) of one library and one
    dtype (int32, uint32, int64, uint64, float32, float64), read as flat.
    how: "inner" (every pair of rows with equal keys) or "left" (those, and
    each left row without a match once, with right_index -1).

    pandas ``merge`` semantics: a key on a left rows and b right rows gives
    a * b pairs; the pairs come in left row order, and within a left row in
    right row order (``pd.merge(..., how=how)`` with each frame's index as a
    column lists the same pairs in this order). Float keys, compared as
    bits: -0.0 equals 0.0, NaN keys match each other (as pandas does), and
    every other value, subnormals included, matches only itself.

    Stream: the current stream of left_keys' library; the call waits for it
    (the number of pairs sizes the result).

    Errors: gcol.InvalidArgumentError for host arrays, strided views, an
    unsupported dtype, dtypes or libraries that differ, or another how (the
    message says which); OutOfMemoryError; NoDeviceError.
    """
    if how not in HOW:
        raise InvalidArgumentError("how must be 'inner' or 'left', not %r" % (how,))
    keys = Keys([(left_keys, "left_keys"), (right_keys, "right_keys")])
    be = keys.backend
    (nl, nr), (kl, kr) = keys.sizes, keys.flat
    with be.context():
        s = be.stream()
        if nl == 0 or (nr == 0 and how == "inner"):
            left, right = be.empty(0, "int64"), be.empty(0, "int64")
        elif nr == 0:
            left, right = be.arange(nl, "int64"), be.full(nl, -1, "int64")
        else:
            left, right = keys.run(lambda cap: _pairs(keys, cap, s, kl, kr, how), [1], s,
                                   capacity=max(1, math.ceil(nr / LOAD)))
            left, right = _in_order(be, left, right, nl, nr)
    return keys.output(left), keys.output(right)


def _pairs(keys, capacity, s, kl, kr, how):
    """(left index, right index) of every match, in no order; with how="left"
    also (i, -1) for each left row i without one."""
    be, nr = keys.backend, keys.sizes[1]
    with Multimap(keys.kdtype, "int64", capacity, engine="open", empty_key=keys.sentinels[0],
                  erased_key=keys.sentinels[1], stream=s, allocator=be.name) as mm:
        mm.insert(kr, be.arange(nr, "int64"), stream=s)
        mm.status(stream=s)  # a sentinel among right_keys: ReservedKeyError, run again with others
        right, left = mm.retrieve(kl, stream=s, sentinel_queries_match_nothing=True)
        if how == "left":
            alone = be.nonzero(be.equal(mm.count(kl, stream=s), 0))
            left = be.cat([left, alone])
            right = be.cat([right, be.full(alone.shape[0], -1, "int64")])
    return left, right


def _in_order(be, left, right, nl, nr):
    """The pairs sorted by left index, then right index (-1 first)."""
    if nl * (nr + 1) < 2**63:  # one sort of a combined key
        span = nr + 1
        combined = be.sort(left * span + (right + 1))
        return combined // span, combined % span - 1
    order = be.argsort(right)
    left, right = be.take(left, order), be.take(right, order)
    order = be.argsort(left)
    return be.take(left, order), be.take(right, order)
