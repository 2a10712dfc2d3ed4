"""hypothesis strategies for gcol's inputs: key arrays of every key dtype
drawn around their edge values (integer extremes; the sentinels that gcol's
functions start with and fall back to, and the containers' defaults; +-0.0,
NaNs with several payloads, +-inf, subnormals), in the sizes and layouts
callers pass (empty, one element, all equal, sliced, 2-D). Arrays are built
from bit patterns, so every pattern of the width can come up."""
import numpy as np
from hypothesis import strategies as st

KEY_DTYPES = ("int32", "uint32", "int64", "uint64", "float32", "float64")
LAYOUTS = ("flat", "sliced", "2d")


def width(dtype):
    return np.dtype(dtype).itemsize * 8


def edge_bits(dtype):
    """Bit patterns (unsigned ints) worth trying for keys of dtype."""
    w = width(dtype)
    ones, top = 2**w - 1, 2**(w - 1)
    edges = [0, 1, 2, ones, ones - 1,  # -1 / max; the containers' empty and erased keys (all ones, minus one)
             top - 1, top - 2,  # the functions' first sentinels: the top two signed values
             top, top + 1]  # their fallback: the bottom two (also -0.0 and the least negative subnormal)
    if dtype.startswith("float"):
        mant = 23 if w == 32 else 52
        exp = (2**(w - 1 - mant) - 1) << mant  # +inf
        edges += [exp, exp | top,  # +-inf
                  exp | 1 << (mant - 1), exp | 1 << (mant - 1) | top,  # quiet NaN, negative
                  exp | 1, exp | (1 << mant) - 1, exp | 12345 | top,  # signalling NaN, payloads
                  (1 << mant) - 1, ((1 << mant) - 1) | top, 3, 3 | top,  # subnormals
                  1 << mant, exp - 1, (exp - 1) | top,  # least normal, +-max finite
                  ((2**(w - 2 - mant) - 1) << mant), ((2**(w - 2 - mant) - 1) << mant) | top]  # +-1.0
    return edges


def bits_of(dtype):
    """One bit pattern of dtype's width: an edge value or any pattern."""
    return st.one_of(st.sampled_from(edge_bits(dtype)), st.integers(0, 2**width(dtype) - 1))


def from_bits(bits, dtype):
    return np.array(bits, dtype="uint%d" % width(dtype)).view(dtype)


@st.composite
def pools(draw, dtype, most=12):
    """A few distinct-or-not bit patterns that key arrays are drawn from (so keys repeat)."""
    return draw(st.lists(bits_of(dtype), min_size=1, max_size=most))


@st.composite
def picks(draw, pool, dtype, max_size=48):
    """A host array of dtype: n keys from pool (n may be 0 or 1; a pool of one: all equal)."""
    n = draw(st.integers(0, max_size))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n))
    return from_bits([pool[i] for i in idx], dtype)


@st.composite
def keys(draw, dtype, max_size=48):
    return draw(picks(draw(pools(dtype)), dtype, max_size))


@st.composite
def key_pairs(draw, dtype, max_size=48):
    """Two key arrays from one pool (isin's x and test_values, join's sides): they share keys."""
    pool = draw(pools(dtype))
    return draw(picks(pool, dtype, max_size)), draw(picks(pool, dtype, max_size))


def values(dtype, n):
    """A value column of n for groupby_reduce: integer extremes (sums wrap),
    and floats whose sums in any order stay far from overflow (|v| <= 1e6),
    with +-0.0, subnormals, +-inf and NaN."""
    if dtype.startswith("float"):
        tiny = float(np.finfo(dtype).smallest_subnormal)
        special = st.sampled_from([0.0, -0.0, tiny, -tiny, np.inf, -np.inf, np.nan])
        one = st.one_of(special, st.floats(-1e6, 1e6, width=width(dtype)))
    else:
        lo, hi = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
        one = st.one_of(st.sampled_from([lo, hi, 0, 1]), st.integers(lo, hi), st.integers(max(lo, -1000), 1000))
    return st.lists(one, min_size=n, max_size=n).map(lambda v: np.array(v, dtype=dtype))


def layout(host, how, pad=3):
    """(host array to copy to the device, slice to take there) so that the
    device array is host in the layout how: 'flat'; 'sliced' (a contiguous
    view that does not start at its allocation); '2d' (a (2, n/2) array when n
    is even)."""
    if how == "sliced":
        big = np.concatenate([np.zeros(pad, host.dtype), host, np.zeros(pad, host.dtype)])
        return big, slice(pad, pad + host.size)
    if how == "2d" and host.size % 2 == 0 and host.size:
        return host.reshape(2, -1), slice(None)
    return host, slice(None)


def place(xp_dev, host, how):
    """host on the device (xp_dev: host -> device array) in layout how."""
    base, cut = layout(host, how)
    return xp_dev(base)[cut]
