"""Host-only: the logic of gcol.unique / groupby_reduce / isin / join (bit
views, the NaN rule, sentinel and size retries, ordering, joins' pandas
order) run with NumPy standing in for the array library and a dict standing
in for the C map. The GPU tests check the same against PyTorch, CuPy and
pandas on the device."""
import pytest

np = pytest.importorskip("numpy")

import gcol  # noqa: E402
import host_model  # noqa: E402
from gcol import _keys  # noqa: E402
from host_model import CREATED  # noqa: E402


@pytest.fixture(autouse=True)
def model(monkeypatch):
    host_model.install(monkeypatch)
    monkeypatch.setattr(_keys, "SAMPLE", 8)  # estimates from 8 keys once n > 32


DTYPES = ["int32", "uint32", "int64", "uint64", "float32", "float64"]


def keys_of(dtype, n, distinct, seed):
    from gpu_arrays import random_keys
    return random_keys(np.random.default_rng(seed), dtype, n, distinct)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,distinct", [(0, 1), (1, 1), (7, 3), (200, 50), (300, 300)])
def test_unique_matches_numpy(dtype, n, distinct):
    x = keys_of(dtype, n, distinct, n * 7 + distinct)
    values, inverse, counts = gcol.unique(x, return_inverse=True, return_counts=True, sorted=True)
    want, want_inverse, want_counts = np.unique(x, return_inverse=True, return_counts=True)
    assert values.dtype == x.dtype and inverse.dtype == counts.dtype == np.int64
    np.testing.assert_array_equal(values, want)
    np.testing.assert_array_equal(inverse.reshape(-1), want_inverse.reshape(-1))
    np.testing.assert_array_equal(counts, want_counts)
    unsorted = gcol.unique(x)
    np.testing.assert_array_equal(np.sort(unsorted), want)


def test_unique_keeps_the_shape_in_the_inverse():
    x = np.array([[3, 1], [3, 2]], dtype="int64")
    values, inverse = gcol.unique(x, return_inverse=True)
    assert inverse.shape == (2, 2)
    np.testing.assert_array_equal(values[inverse], x)


def test_float_keys_nan_is_one_value_and_negative_zero_is_zero():
    x = np.array([np.nan, 0.0, -0.0, np.nan, 1.5, -np.nan], dtype="float64")
    values, counts = gcol.unique(x, return_counts=True, sorted=True)
    assert values.size == 3 and values[0] == 0.0 and not np.signbit(values[0]) and np.isnan(values[2])
    np.testing.assert_array_equal(counts, [2, 1, 3])
    assert gcol.isin(np.array([-0.0, np.nan, 2.0]), np.array([0.0, np.nan])).tolist() == [True, True, False]


def test_sentinel_values_are_keys_like_any_other():
    top = np.iinfo("int64").max
    x = np.array([top, top - 1, 5, top, np.iinfo("int64").min, 0], dtype="int64")
    values, counts = gcol.unique(x, return_counts=True, sorted=True)
    want, want_counts = np.unique(x, return_counts=True)
    np.testing.assert_array_equal(values, want)
    np.testing.assert_array_equal(counts, want_counts)
    assert gcol.isin(x, np.array([top - 1, 5], dtype="int64")).tolist() == [False, True, True, False, False, False]
    left, right = gcol.join(x, np.array([top, 7], dtype="int64"))
    assert list(zip(left.tolist(), right.tolist())) == [(0, 0), (3, 0)]


def test_keys_holding_both_ends_get_sentinels_they_lack():
    info = np.iinfo("int32")
    x = np.array([info.max, info.max - 1, info.min, info.min + 1, 0], dtype="int32")
    values = gcol.unique(x, sorted=True)
    np.testing.assert_array_equal(values, np.sort(x))


def test_a_set_too_small_is_made_again_larger():
    x = np.arange(1000, dtype="int64") % 400  # the 8-key sample sees only singletons...
    x[:40] = 7  # ... mostly
    values = gcol.unique(x)
    assert sorted(values.tolist()) == list(range(400))
    assert {kind for kind, _ in CREATED} == {"set"}  # keys only: no map, no values
    capacities = [c for kind, c in CREATED]
    assert len(capacities) > 1 and capacities[-1] >= 400


def test_estimate_sizes_the_map_from_the_sample():
    x = np.repeat(np.arange(10, dtype="int64"), 100)
    gcol.unique(x)
    assert len(CREATED) == 1 and 10 <= CREATED[0][1] < 100  # sized for about 10 keys, not 1000


@pytest.mark.parametrize("op", ["sum", "min", "max", "count", "mean"])
@pytest.mark.parametrize("vdtype", ["int32", "int64", "float32", "float64", "uint32"])
def test_groupby_reduce_matches_a_dict(op, vdtype):
    rng = np.random.default_rng(3)
    keys = rng.integers(-5, 5, 300).astype("int64")
    values = rng.integers(0, 100, 300).astype(vdtype)
    group_keys, result = gcol.groupby_reduce(keys, values, op=op, sorted=True)
    np.testing.assert_array_equal(group_keys, np.unique(keys))
    for g, r in zip(group_keys.tolist(), result.tolist()):
        col = values[keys == g]
        want = {"sum": col.sum(), "min": col.min(), "max": col.max(), "count": col.size,
                "mean": col.astype("float64").mean()}[op]
        assert r == pytest.approx(float(want), rel=1e-6)
    wide = vdtype if vdtype.startswith("float") else "uint64" if vdtype.startswith("uint") else "int64"
    want_dtype = {"count": "int64", "mean": vdtype if vdtype.startswith("float") else "float64",
                  "sum": wide}.get(op, vdtype)  # issue 41: integer sums in 64 bits
    assert result.dtype == want_dtype


def test_groupby_reduce_several_columns_align():
    keys = np.array([2, 1, 2, 3, 1], dtype="int32")
    a = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    b = np.array([10, 20, 30, 40, 50], dtype="int64")
    group_keys, (sums, maxes, counts, means) = gcol.groupby_reduce(keys, [a, b, a, b], op=["sum", "max", "count",
                                                                                        "mean"], sorted=True)
    assert group_keys.tolist() == [1, 2, 3]
    assert sums.tolist() == [7.0, 4.0, 4.0] and maxes.tolist() == [50, 30, 40]
    assert counts.tolist() == [2, 2, 1] and means.tolist() == [35.0, 20.0, 40.0]


def test_groupby_reduce_refusals():
    keys = np.arange(4, dtype="int64")
    with pytest.raises(gcol.InvalidArgumentError, match="values has 3 elements, keys 4"):
        gcol.groupby_reduce(keys, np.zeros(3))
    with pytest.raises(gcol.InvalidArgumentError, match="op must be one of"):
        gcol.groupby_reduce(keys, np.zeros(4), op="median")
    with pytest.raises(gcol.InvalidArgumentError, match="op has 1 entries for 2"):
        gcol.groupby_reduce(keys, [np.zeros(4), np.zeros(4)], op=["sum"])
    with pytest.raises(gcol.InvalidArgumentError, match="values must be"):
        gcol.groupby_reduce(keys, np.zeros(4, dtype="complex64"))
    with pytest.raises(gcol.InvalidArgumentError, match="keys must be"):
        gcol.groupby_reduce(np.zeros(4, dtype="complex64"), np.zeros(4))
    with pytest.raises(gcol.InvalidArgumentError, match="dtype must be one of"):
        gcol.groupby_reduce(keys, np.zeros(4), dtype="int8")
    with pytest.raises(gcol.InvalidArgumentError, match="dtype has 1 entries for 2"):
        gcol.groupby_reduce(keys, [np.zeros(4), np.zeros(4)], dtype=["int64"])
    with pytest.raises(TypeError):
        gcol.groupby_reduce(keys, np.zeros(4), "sum")  # issue 41: options are keyword-only


def test_empty_inputs_give_empty_results():
    e = np.zeros(0, dtype="int64")
    assert gcol.unique(e).size == 0
    values, inverse, counts = gcol.unique(e, return_inverse=True, return_counts=True)
    assert values.size == inverse.size == counts.size == 0 and counts.dtype == np.int64
    k, r = gcol.groupby_reduce(e, np.zeros(0, dtype="float32"), op="mean")
    assert k.size == r.size == 0 and r.dtype == np.float32
    assert gcol.isin(e, np.arange(3, dtype="int64")).size == 0
    assert gcol.isin(np.arange(3, dtype="int64"), e).tolist() == [False] * 3
    left, right, found = gcol.join(np.arange(2, dtype="int64"), e, how="left")
    assert left.tolist() == [0, 1] and right.tolist() == [-1, -1] and found.tolist() == [False, False]
    assert gcol.join(e, np.arange(2, dtype="int64"))[0].size == 0


def test_isin_and_mismatched_dtypes():
    x = np.array([1, 5, 9, 5], dtype="uint64")
    assert gcol.isin(x, np.array([5, 2**64 - 1], dtype="uint64")).tolist() == [False, True, False, True]
    assert gcol.isin(x, np.array([5], dtype="int64")).tolist() == [False, True, False, True]  # issue 41: promoted


@pytest.mark.parametrize("how", ["inner", "left"])
def test_join_lists_pandas_pairs_in_left_then_right_order(how):
    rng = np.random.default_rng(11)
    left = rng.integers(0, 6, 40).astype("int64")
    right = rng.integers(3, 9, 30).astype("int64")
    li, ri = gcol.join(left, right, how=how)[:2]
    want = []
    for i, k in enumerate(left.tolist()):
        matches = [j for j, r in enumerate(right.tolist()) if r == k]
        want += [(i, j) for j in matches] or ([(i, -1)] if how == "left" else [])
    assert list(zip(li.tolist(), ri.tolist())) == want
    assert li.dtype == ri.dtype == np.int64
    with pytest.raises(gcol.InvalidArgumentError, match="how must be"):
        gcol.join(left, right, how="full")
