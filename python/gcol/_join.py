"""gcol.join: the row pairs of an equi-join, through gcol's multimap."""
import math
from typing import Any, Literal, Tuple, overload

from ._errors import InvalidArgumentError
from ._keys import LOAD, Keys
from ._multimap import Multimap
from ._typing import Array

HOW = ("inner", "left", "right", "outer", "semi", "anti")


# (issue 41, item 7) the result's shape by how: a type checker sees the tuple's length
@overload
def join(left_keys: Array, right_keys: Any, *, how: Literal["inner"] = ...) -> Tuple[Array, Array]: ...
@overload  # noqa: E302
def join(left_keys: Array, right_keys: Any, *, how: Literal["left", "right"]) -> Tuple[Array, Array, Array]: ...
@overload  # noqa: E302
def join(left_keys: Array, right_keys: Any, *, how: Literal["outer"]) -> Tuple[Array, Array, Array, Array]: ...
@overload  # noqa: E302
def join(left_keys: Array, right_keys: Any, *, how: Literal["semi", "anti"]) -> Array: ...
@overload  # noqa: E302
def join(left_keys: Any, right_keys: Any, *, how: str = ...) -> Any: ...


def join(left_keys: Any, right_keys: Any, *, how: str = "inner") -> Any:
    """The row pairs of the equi-join of left_keys with right_keys, as
    pandas ``merge`` lists them.

    Parameters
    ----------
    left_keys, right_keys : device array, or tuple of device arrays
        CuPy, PyTorch CUDA, Numba, ``__cuda_array_interface__`` or DLPack
        arrays of one library and device, read as flat, of any dtype
        ``gcol.unique`` takes (dtypes that differ are compared in a common
        one that holds both exactly, as ``gcol.isin`` does). Tuples of key
        columns (as many on each side, up to 128 bits in all) join on every
        column (pandas ``merge(on=[...])``).
    how : {"inner", "left", "right", "outer", "semi", "anti"}, keyword-only
        Which rows, as pandas ``merge(how=...)`` (semi and anti: as
        ``left[left.k.isin(right.k)]`` and its complement).

    Returns
    -------
    By how (index arrays int64, masks bool, all aligned; pandas'
    ``merge(..., indicator=True)`` column is ``"left_only"`` where
    right_found is False, ``"right_only"`` where left_found is False,
    ``"both"`` elsewhere):

    ========  ==================================================  ==================================
    how       returns                                             unmatched rows
    ========  ==================================================  ==================================
    inner     ``(left_index, right_index)``                       none
    left      ``(left_index, right_index, right_found)``          right_index -1, right_found False
    right     ``(left_index, right_index, left_found)``           left_index -1, left_found False
    outer     ``(left_index, right_index, left_found,``           -1 and False on the missing side
              ``right_found)``
    semi      ``left_index``: left rows with a match, ascending   none
    anti      ``left_index``: left rows without one, ascending    all of them
    ========  ==================================================  ==================================

    Pair j joins row left_index[j] with row right_index[j]; a key on a left
    rows and b right rows gives a * b pairs. Order: inner and left in left
    row order, within a left row in right row order (pandas' order);
    right in right row order, then left row order (pandas' order); outer as
    left, then the right rows without a match in right row order (pandas
    sorts outer joins by key instead). The masks say which side a row
    lacks; -1 is kept as the index there so that old code reading -1 works.

    Raises
    ------
    gcol.InvalidArgumentError
        Host arrays, an unsupported dtype, libraries or devices that differ,
        dtypes no common dtype holds exactly, or another how.
    gcol.OutOfMemoryError, gcol.NoDeviceError

    Notes
    -----
    Float keys are compared as bits: -0.0 equals 0.0, NaN keys match each
    other (as pandas does), and every other value, subnormals included,
    matches only itself. Runs on the current stream of left_keys' library
    and waits for it (the number of pairs sizes the result).

    Examples
    --------
    >>> left = torch.tensor([3, 4, 3], device="cuda")  # doctest: +SKIP
    >>> right = torch.tensor([3, 5], device="cuda")  # doctest: +SKIP
    >>> gcol.join(left, right)  # doctest: +SKIP
    (tensor([0, 2], ...), tensor([0, 0], ...))
    >>> li, ri, right_found = gcol.join(left, right, how="left")  # doctest: +SKIP
    >>> ri, right_found  # doctest: +SKIP
    (tensor([ 0, -1,  0], ...), tensor([ True, False,  True], ...))
    >>> gcol.join(left, right, how="anti")  # doctest: +SKIP
    tensor([1], device='cuda:0')
    """
    if how not in HOW:
        raise InvalidArgumentError("how must be one of %s, not %r" % (", ".join(HOW), how))
    keys = Keys([(left_keys, "left_keys"), (right_keys, "right_keys")], promote=True)
    xp = keys.lib
    (nl, nr), (kl, kr) = keys.sizes, keys.flat
    with xp.on_device(xp.device):
        s = xp.default_stream()
        if how in ("semi", "anti"):
            result = _semi(keys, s, kl, kr, nl, nr, how == "anti")
        else:
            result = _pairs_of(keys, s, kl, kr, nl, nr, how)
    if isinstance(result, tuple):
        return tuple(keys.output(r) for r in result)
    return keys.output(result)


def _semi(keys, s, kl, kr, nl, nr, anti):
    """Left rows with (without, for anti) a match: a set of the right keys, probed."""
    xp = keys.lib
    if nl == 0 or nr == 0:
        return xp.arange(nl, "int64") if anti else xp.empty(0, "int64")

    def work(capacity):
        with keys.set(capacity, s) as st:
            st.insert(kr, stream=s)
            st.status(stream=s)  # a sentinel among right_keys: ReservedKeyError, run again with others
            return st.contains(kl, stream=s)

    found = keys.run(work, [1], s, capacity=max(1, math.ceil(nr / LOAD)))
    return xp.nonzero(xp.logical_not(found) if anti else found)


def _pairs_of(keys, s, kl, kr, nl, nr, how):
    xp = keys.lib
    if nl == 0 or nr == 0:
        left, right = xp.empty(0, "int64"), xp.empty(0, "int64")
        left_alone = xp.arange(nl, "int64") if how in ("left", "outer") else left
        right_alone = xp.arange(nr, "int64") if how in ("right", "outer") else right
    else:
        inserted = [0, 1] if how in ("right", "outer") else [1]  # the left keys go into a set too
        left, right, left_alone, right_alone = keys.run(
            lambda cap: _pairs(keys, cap, s, kl, kr, how), inserted, s, capacity=max(1, math.ceil(nr / LOAD)))
    if how == "right":  # in right row order: the same sort with the sides swapped
        right, left = _in_order(xp, xp.cat([right, right_alone]),
                                xp.cat([left, xp.full(right_alone.shape[0], -1, "int64")]), nr, nl)
        return left, right, left >= 0
    if how in ("left", "outer"):
        left = xp.cat([left, left_alone])
        right = xp.cat([right, xp.full(left_alone.shape[0], -1, "int64")])
    left, right = _in_order(xp, left, right, nl, nr)
    if how == "inner":
        return left, right
    if how == "left":
        return left, right, right >= 0
    left = xp.cat([left, xp.full(right_alone.shape[0], -1, "int64")])  # outer: then the right rows alone
    right = xp.cat([right, right_alone])
    return left, right, left >= 0, right >= 0


def _pairs(keys, capacity, s, kl, kr, how):
    """(left index, right index) of every match, in no order; the left rows
    without a match (left and outer) and the right rows without one (right
    and outer), ascending, else empty."""
    xp, (nl, nr) = keys.lib, keys.sizes
    none = xp.empty(0, "int64")
    with Multimap(keys.kdtype, "int64", capacity, engine="open", stream=s, allocator=xp.name,
                  **keys.sentinel_args()) as mm:
        mm.insert(kr, xp.arange(nr, "int64"), stream=s)
        mm.status(stream=s)  # a sentinel among right_keys: ReservedKeyError, run again with others
        right, left = mm.retrieve(kl, stream=s, sentinel_queries_match_nothing=True)
        left_alone = xp.nonzero(xp.equal(mm.count(kl, stream=s), 0)) if how in ("left", "outer") else none
    right_alone = none
    if how in ("right", "outer"):  # a set of the left keys: which right rows find one
        with keys.set(max(1, math.ceil(nl / LOAD)), s) as st:
            st.insert(kl, stream=s)
            st.status(stream=s)
            right_alone = xp.nonzero(xp.logical_not(st.contains(kr, stream=s)))
    return left, right, left_alone, right_alone


def _in_order(xp, left, right, nl, nr):
    """The pairs sorted by left index, then right index (-1 first)."""
    if left.shape[0] == 0:
        return left, right
    if nl * (nr + 1) < 2**63:  # one sort of a combined key
        span = nr + 1
        combined = xp.sort(left * span + (right + 1))
        return combined // span, combined % span - 1
    order = xp.argsort(right)
    left, right = xp.take(left, order), xp.take(right, order)
    order = xp.argsort(left)
    return xp.take(left, order), xp.take(right, order)
