"""Host-only: the float key rule on the bits (issue 39). -0.0 and 0.0 are one
key, every NaN is one key, every other bit pattern (subnormals too) is its
own key; the canonical bits are made with integer operations, which no
flush-to-zero mode touches. Checked on NumPy with gcol's CuPy adapter code
(NumPy in CuPy's place) against Python's own float comparison."""
import pytest

np = pytest.importorskip("numpy")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

import gcol  # noqa: E402
import host_model  # noqa: E402
import key_strategies as ks  # noqa: E402
import references as ref  # noqa: E402
from gcol import _arrays, _keys  # noqa: E402

FLOATS = ["float32", "float64"]


def canonical(host):
    """gcol's canonical bits of a float array (NumPy standing in for CuPy)."""
    w = ks.width(host.dtype)
    return host_model.NumpyLibrary().canonical_float_bits(host.view("int%d" % w), w)


@pytest.mark.parametrize("dtype", FLOATS)
@given(data=st.data())
def test_canonical_bits_follow_the_rule_on_every_pattern(dtype, data):
    bits = data.draw(st.lists(ks.bits_of(dtype), min_size=1, max_size=64))
    host = ks.from_bits(bits, dtype)
    got = canonical(host).view("uint%d" % ks.width(dtype)).tolist()
    assert got == [ref.float_bits_rule(b, ks.width(dtype)) for b in bits]
    assert host.view("uint%d" % ks.width(dtype)).tolist() == bits  # the input is not changed


@pytest.mark.parametrize("dtype", FLOATS)
@given(data=st.data())
def test_two_keys_are_one_exactly_when_python_says_they_are_equal(dtype, data):
    a, b = (ks.from_bits([data.draw(ks.bits_of(dtype))], dtype) for _ in range(2))
    same = bool(canonical(a)[0] == canonical(b)[0])
    x, y = float(a[0]), float(b[0])
    assert same == (x == y or (x != x and y != y))


@pytest.mark.parametrize("dtype", FLOATS)
def test_subnormals_are_not_zero_and_results_are_the_canonical_values(dtype):
    tiny = np.finfo(dtype).smallest_subnormal
    host = np.array([tiny, -tiny, 0.0, -0.0, np.nan, -np.nan, tiny * 3], dtype=dtype)
    bits = canonical(host)
    w = ks.width(dtype)
    assert len(set(bits.tolist())) == 5  # +-tiny, 3 tiny, one zero, one NaN
    values = bits.view(dtype)
    assert not np.signbit(values[2]) and not np.signbit(values[3])
    assert values[4:6].view("uint%d" % w).tolist() == [ref.QUIET_NAN_BITS[dtype]] * 2
    assert np.array(np.nan, dtype).view("uint%d" % w) == ref.QUIET_NAN_BITS[dtype]  # NumPy's own NaN


class NoFloatMath(np.ndarray):
    """A float array whose ufuncs raise: a GPU library's float kernels flush
    subnormals, so float keys must never pass through float arithmetic."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if any(getattr(i, "dtype", np.dtype("int8")).kind == "f" for i in inputs):
            raise AssertionError("float arithmetic on float keys: %s" % ufunc.__name__)
        plain = [i.view(np.ndarray) if isinstance(i, np.ndarray) else i for i in inputs]
        return getattr(ufunc, method)(*plain, **kwargs)


@pytest.mark.parametrize("dtype", FLOATS)
def test_keys_are_made_without_float_arithmetic(monkeypatch, dtype):
    host_model.install(monkeypatch)
    tiny = np.finfo(dtype).smallest_subnormal
    x = np.array([tiny, 0.0, -0.0, -tiny, np.nan], dtype=dtype).view(NoFloatMath)
    k = _keys.Keys([(x, "x")])
    assert len(set(k.flat[0].tolist())) == 4


def test_the_issue_column_counts_every_subnormal(monkeypatch):
    """Issue 39: float32 keys holding +-1e-45 and other subnormals beside 0.0:
    unique, groupby_reduce, isin and join agree with NumPy and the rule."""
    host_model.install(monkeypatch)
    rng = np.random.default_rng(39)
    sub = rng.integers(1, 2**23, 300).astype(np.uint32)
    sub[:2] = 1
    sub = np.concatenate([sub, sub | 0x80000000]).view(np.float32)  # +- subnormals, +-1e-45 among them
    x = np.concatenate([sub, np.float32([0.0, -0.0, 1.0, np.nan])])
    rng.shuffle(x)
    want = np.unique(x)
    values = gcol.unique(x, sorted=True)
    assert values.size == want.size
    np.testing.assert_array_equal(values, want)
    keys, counts = gcol.groupby_reduce(x, np.ones(x.size, np.int64), op="count", sorted=True)
    np.testing.assert_array_equal(keys, want)
    t = x[: x.size // 3]
    np.testing.assert_array_equal(gcol.isin(x, t), ref.isin(x, t))
    li, ri = gcol.join(x[:200], t)
    assert list(zip(li.tolist(), ri.tolist())) == ref.join(x[:200], t, "inner")


def test_libraries_share_the_rule():
    """PyTorch's adapter spells the same rule (masked_fill) as CuPy's (where)."""
    assert _arrays.Torch.canonical_float_bits is _arrays.Cupy.canonical_float_bits
    assert _arrays.FLOAT_BITS[32][2] == ref.QUIET_NAN_BITS["float32"]
    assert _arrays.FLOAT_BITS[64][2] == ref.QUIET_NAN_BITS["float64"]
