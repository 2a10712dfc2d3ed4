"""Host-only property tests (hypothesis) of gcol.unique, groupby_reduce (every
op), isin and join (every how) on the host model (NumPy for the array
library, dicts for the C containers: host_model), against NumPy, pandas and
the plain-Python references, on keys of every dtype around their edge
values (key_strategies); and the references themselves against NumPy,
pandas and SciPy. The GPU twins are in test_gpu_properties.py."""
import math

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

import gcol  # noqa: E402
import host_model  # noqa: E402
import key_strategies as ks  # noqa: E402
import references as ref  # noqa: E402
from gcol import _keys  # noqa: E402

OPS = ["sum", "min", "max", "count", "mean"]
VALUE_DTYPES = ["int32", "uint32", "int64", "uint64", "float32", "float64"]


@pytest.fixture(autouse=True)
def model(monkeypatch):
    host_model.install(monkeypatch)
    monkeypatch.setattr(_keys, "SAMPLE", 4)  # sampled size estimates (and FULL retries) from 17 keys on


def placed(host, how):
    base, cut = ks.layout(host, how)
    return base[cut]


def same_values(got, want):
    """Equal as values under the rule (NaN equals NaN, -0.0 equals 0.0)."""
    np.testing.assert_array_equal(got, want)


# ---- unique -------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ks.KEY_DTYPES)
@given(data=st.data())
def test_unique(dtype, data):
    host = data.draw(ks.keys(dtype))
    x = placed(host, data.draw(st.sampled_from(ks.LAYOUTS)))
    values, inverse, counts = gcol.unique(x, return_inverse=True, return_counts=True, sorted=True)
    want, want_counts = np.unique(host, return_counts=True, equal_nan=True)
    same_values(values, want)
    np.testing.assert_array_equal(counts, want_counts)
    assert inverse.shape == x.shape and values.dtype == host.dtype
    assert ref.keys_list(values[inverse]) == ref.keys_list(x)
    ref.canonical_results(values, dtype)
    plain = gcol.unique(x)
    assert sorted(map(repr, ref.keys_list(plain))) == sorted(map(repr, ref.keys_list(want)))
    got_values, got_counts = gcol.unique(x, return_counts=True)
    assert dict(zip(ref.keys_list(got_values), got_counts.tolist())) == ref.unique(host)[0]


def test_unique_of_strided_views_copies_them():  # issue 41: copied, no longer refused
    np.testing.assert_array_equal(gcol.unique(np.arange(10, dtype=np.int64)[::-2]), [1, 3, 5, 7, 9])


# ---- groupby_reduce -----------------------------------------------------------------
def check_group(got, want, op, dtype, group_values):
    if op == "count":
        assert got == want
    elif isinstance(want, float) and math.isnan(want):
        assert got != got, "NaN expected, got %r" % got
    elif op == "sum" and dtype.startswith("float"):
        assert got == pytest.approx(want, abs=ref.sum_tolerance(group_values, dtype), rel=0) or got == want
    elif op == "mean":
        tol = ref.sum_tolerance(group_values, dtype) / len(group_values) if dtype.startswith("float") else 0
        assert got == pytest.approx(want, rel=1e-6, abs=tol) or got == want
    else:
        assert got == want


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("kdtype", ks.KEY_DTYPES)
@given(data=st.data())
def test_groupby_reduce(op, kdtype, data):
    host = data.draw(ks.keys(kdtype))
    vdtype = data.draw(st.sampled_from(VALUE_DTYPES))
    vals = data.draw(ks.values(vdtype, host.size))
    how = data.draw(st.sampled_from(ks.LAYOUTS))
    keys, result = gcol.groupby_reduce(placed(host, how), placed(vals, how), op=op, sorted=True)
    want, groups = ref.groupby(host, vals, op, vdtype)
    same_values(keys, np.unique(host, equal_nan=True))
    ref.canonical_results(keys, kdtype)
    wide = vdtype if vdtype.startswith("float") else "uint64" if vdtype.startswith("uint") else "int64"
    want_dtype = {"count": "int64", "mean": vdtype if vdtype.startswith("float") else "float64",
                  "sum": wide}.get(op, vdtype)
    assert result.dtype == want_dtype and result.shape == keys.shape
    for k, r in zip(ref.keys_list(keys), result.tolist()):
        check_group(r, want[k], op, vdtype, groups[k])


@given(data=st.data())
def test_groupby_reduce_of_several_columns_matches_pandas(data):
    pd = pytest.importorskip("pandas")
    host = data.draw(ks.keys("int64"))
    cols = [data.draw(ks.values("int32", host.size)) for _ in range(2)]
    keys, (sums, maxes, counts) = gcol.groupby_reduce(host, [cols[0], cols[1], cols[0]], op=["sum", "max", "count"],
                                                      sorted=True)
    frame = pd.DataFrame({"k": host, "a": cols[0].astype(np.int64), "b": cols[1]}).groupby("k", sort=True)
    np.testing.assert_array_equal(keys, frame.size().index.to_numpy())
    np.testing.assert_array_equal(sums, frame["a"].sum().to_numpy())  # int64 sums (issue 41), as pandas'
    assert sums.dtype == np.int64
    np.testing.assert_array_equal(maxes, frame["b"].max().to_numpy())
    np.testing.assert_array_equal(counts, frame.size().to_numpy())


# ---- isin, join ---------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ks.KEY_DTYPES)
@given(data=st.data())
def test_isin(dtype, data):
    x, t = data.draw(ks.key_pairs(dtype))
    xs, ts = placed(x, data.draw(st.sampled_from(ks.LAYOUTS))), placed(t, data.draw(st.sampled_from(ks.LAYOUTS)))
    got = gcol.isin(xs, ts)
    assert got.dtype == bool and got.shape == xs.shape
    np.testing.assert_array_equal(got, ref.isin(xs, ts))
    if dtype.startswith("float"):  # NumPy's isin: NaN is never in anything; the rule says otherwise
        same = ~np.isnan(xs)
        np.testing.assert_array_equal(got[same], np.isin(xs, ts)[same])
    else:
        np.testing.assert_array_equal(got, np.isin(xs, ts))


HOWS = ["inner", "left", "right", "outer", "semi", "anti"]


def join_pairs(result, how):
    """gcol.join's result as ref.join gives it, after checking its shape and masks."""
    if how in ("semi", "anti"):
        assert result.dtype == np.int64
        return result.tolist()
    li, ri = result[:2]
    assert li.dtype == ri.dtype == np.int64 and li.shape == ri.shape
    masks = {"inner": [], "left": [ri], "right": [li], "outer": [li, ri]}[how]
    assert len(result) == 2 + len(masks)
    for mask, index in zip(result[2:], masks):
        assert mask.dtype == bool
        np.testing.assert_array_equal(mask, index >= 0)
    return list(zip(li.tolist(), ri.tolist()))


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("dtype", ks.KEY_DTYPES)
@given(data=st.data())
def test_join(how, dtype, data):
    left, right = data.draw(ks.key_pairs(dtype))
    ls, rs = placed(left, data.draw(st.sampled_from(ks.LAYOUTS))), placed(right, data.draw(st.sampled_from(ks.LAYOUTS)))
    assert join_pairs(gcol.join(ls, rs, how=how), how) == ref.join(ls, rs, how)


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
@given(data=st.data())
def test_join_matches_pandas_merge(how, data):
    pd = pytest.importorskip("pandas")
    left, right = data.draw(ks.key_pairs("int64"))
    got = join_pairs(gcol.join(left, right, how=how), how)
    merged = pd.merge(pd.DataFrame({"k": left, "li": np.arange(left.size)}),
                      pd.DataFrame({"k": right, "ri": np.arange(right.size)}), on="k", how=how)
    want = list(zip(merged["li"].fillna(-1).astype(np.int64).tolist(), merged["ri"].fillna(-1).astype(np.int64).tolist()))
    if how == "outer":  # pandas sorts an outer join by key; gcol lists left's pairs, then right's rows alone
        want = sorted(want, key=lambda p: (p[0] < 0, p[0], p[1]))
    assert got == want


# ---- the references themselves ------------------------------------------------------
@pytest.mark.parametrize("dtype", ks.KEY_DTYPES)
@given(data=st.data())
def test_reference_unique_is_numpys(dtype, data):
    host = data.draw(ks.keys(dtype))
    want, want_counts = np.unique(host, return_counts=True, equal_nan=True)
    assert ref.unique(host)[0] == dict(zip(ref.keys_list(want), want_counts.tolist()))


@given(data=st.data())
def test_reference_groupby_is_pandas(data):
    pd = pytest.importorskip("pandas")
    host = data.draw(ks.keys("float64"))
    vals = np.array(data.draw(st.lists(st.floats(-100, 100), min_size=host.size, max_size=host.size)))
    frame = pd.DataFrame({"k": host, "v": vals}).groupby("k", dropna=False)["v"]
    for op in ("min", "max", "count"):
        want = dict(zip(ref.keys_list(frame.agg(op).index.to_numpy()), frame.agg(op).tolist()))
        assert ref.groupby(host, vals, op, "float64")[0] == want


@given(data=st.data())
def test_reference_dijkstra_is_scipys(data):
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    sparse = pytest.importorskip("scipy.sparse")
    n = data.draw(st.integers(1, 12))
    arcs = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.floats(0.5, 10)),
                              max_size=40))
    best = ref.lightest_arcs(arcs)
    matrix = sparse.csr_matrix(([best[a] for a in best], ([a[0] for a in best], [a[1] for a in best])), shape=(n, n))
    want = csgraph.dijkstra(matrix, directed=True)
    for s in range(n):
        np.testing.assert_allclose(ref.dijkstra(n, arcs, s), want[s])
