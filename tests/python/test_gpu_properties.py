"""GPU property tests (hypothesis) of every public function, on CuPy and
PyTorch arrays: unique, groupby_reduce (every op), isin, join (every how),
dictionary_encode, value_counts and the Arrow round trip, approx_distinct,
shortest_paths_pred and paths, against NumPy, pandas, pyarrow, SciPy and the
plain-Python references (references.py). Keys come from key_strategies:
every dtype around its edge values (integer extremes, the sentinels, +-0.0,
NaN payloads, +-inf, subnormals), empty, one-element, all-equal, sliced and
2-D. Skips without a GPU; GCOL_HYPOTHESIS_EXAMPLES raises the examples."""
import math

import numpy as np
import pytest

pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

import gcol  # noqa: E402
import key_strategies as ks  # noqa: E402
import references as ref  # noqa: E402

OPS = ["sum", "min", "max", "count", "mean"]
VALUE_DTYPES = ["int32", "uint32", "int64", "uint64", "float32", "float64"]


def on_device(xp, data, host):
    return ks.place(xp.dev, host, data.draw(st.sampled_from(ks.LAYOUTS)))


# ---- unique, groupby_reduce, isin, join ---------------------------------------------
@pytest.mark.parametrize("dtype", ks.KEY_DTYPES)
@given(data=st.data())
def test_unique(xp, dtype, data):
    host = data.draw(ks.keys(dtype))
    x = on_device(xp, data, host)
    values, inverse, counts = gcol.unique(x, return_inverse=True, return_counts=True, sorted=True)
    v = xp.host(values)
    want, want_counts = np.unique(host, return_counts=True, equal_nan=True)
    np.testing.assert_array_equal(v, want)
    np.testing.assert_array_equal(xp.host(counts), want_counts)
    ref.canonical_results(v, dtype)
    assert tuple(inverse.shape) == tuple(x.shape)
    assert ref.keys_list(v[xp.host(inverse)]) == ref.keys_list(xp.host(x))
    plain = xp.host(gcol.unique(x))
    assert sorted(map(repr, ref.keys_list(plain))) == sorted(map(repr, ref.keys_list(want)))


def check_group(got, want, op, dtype, group_values):
    if op == "count" or not dtype.startswith("float") and op != "mean":
        assert got == want
    elif isinstance(want, float) and math.isnan(want):
        assert got != got, "NaN expected, got %r" % got
    elif op in ("sum", "mean"):
        tol = ref.sum_tolerance(group_values, dtype) if dtype.startswith("float") else 0
        tol /= len(group_values) if op == "mean" else 1
        assert got == want or got == pytest.approx(want, rel=1e-6 if op == "mean" else 0, abs=tol)
    else:
        assert got == want


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("kdtype", ks.KEY_DTYPES)
@given(data=st.data())
def test_groupby_reduce(xp, op, kdtype, data):
    host = data.draw(ks.keys(kdtype))
    vdtype = data.draw(st.sampled_from(VALUE_DTYPES))
    vals = data.draw(ks.values(vdtype, host.size))
    how = data.draw(st.sampled_from(ks.LAYOUTS))
    keys, result = gcol.groupby_reduce(ks.place(xp.dev, host, how), ks.place(xp.dev, vals, how), op=op, sorted=True)
    k, r = xp.host(keys), xp.host(result)
    np.testing.assert_array_equal(k, np.unique(host, equal_nan=True))
    ref.canonical_results(k, kdtype)
    wide = vdtype if vdtype.startswith("float") else "uint64" if vdtype.startswith("uint") else "int64"
    want_dtype = {"count": "int64", "mean": vdtype if vdtype.startswith("float") else "float64",
                  "sum": wide}.get(op, vdtype)  # issue 41: integer sums in 64 bits
    assert r.dtype == want_dtype and r.shape == k.shape
    want, groups = ref.groupby(host, vals, op, vdtype)
    for key, got in zip(ref.keys_list(k), r.tolist()):
        check_group(got, want[key], op, vdtype, groups[key])


@pytest.mark.parametrize("dtype", ks.KEY_DTYPES)
@given(data=st.data())
def test_isin(xp, dtype, data):
    x, t = data.draw(ks.key_pairs(dtype))
    got = gcol.isin(on_device(xp, data, x), on_device(xp, data, t))
    assert xp.dtype_name(got) == "bool"
    np.testing.assert_array_equal(xp.host(got).reshape(-1), ref.isin(x, t))


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer", "semi", "anti"])
@pytest.mark.parametrize("dtype", ks.KEY_DTYPES)
@given(data=st.data())
def test_join(xp, how, dtype, data):
    left, right = data.draw(ks.key_pairs(dtype))
    got = gcol.join(on_device(xp, data, left), on_device(xp, data, right), how=how)
    if how in ("semi", "anti"):
        assert xp.dtype_name(got) == "int64" and xp.host(got).tolist() == ref.join(left, right, how)
        return
    li, ri = got[:2]
    assert xp.dtype_name(li) == xp.dtype_name(ri) == "int64"
    assert list(zip(xp.host(li).tolist(), xp.host(ri).tolist())) == ref.join(left, right, how)
    for mask, index in zip(got[2:], {"inner": [], "left": [ri], "right": [li], "outer": [li, ri]}[how]):
        np.testing.assert_array_equal(xp.host(mask), xp.host(index) >= 0)


@pytest.mark.parametrize("how", ["inner", "left"])
@given(data=st.data())
def test_join_matches_pandas_merge(xp, how, data):
    pd = pytest.importorskip("pandas")
    left, right = data.draw(ks.key_pairs("float64"))
    li, ri = gcol.join(xp.dev(left), xp.dev(right), how=how)[:2]
    merged = pd.merge(pd.DataFrame({"k": left, "li": np.arange(left.size)}),
                      pd.DataFrame({"k": right, "ri": np.arange(right.size)}), on="k", how=how)
    want = sorted(zip(merged["li"].tolist(), merged["ri"].fillna(-1).astype(np.int64).tolist()))
    assert list(zip(xp.host(li).tolist(), xp.host(ri).tolist())) == want


def test_the_issue_subnormal_column(xp, rng):
    """Issue 39: float32 keys with +-1e-45 and other subnormals beside 0.0."""
    sub = rng.integers(1, 2**23, 2500).astype(np.uint32)
    sub[:2] = 1
    host = np.concatenate([sub, sub | 0x80000000]).view(np.float32)
    host = np.concatenate([host, np.float32([0.0, -0.0, 1.0, np.nan]), rng.standard_normal(5000).astype(np.float32)])
    rng.shuffle(host)
    x = xp.dev(host)
    want = np.unique(host)
    np.testing.assert_array_equal(xp.host(gcol.unique(x, sorted=True)), want)
    keys, counts = gcol.groupby_reduce(x, xp.dev(np.ones(host.size)), op="count", sorted=True)
    np.testing.assert_array_equal(xp.host(keys), want)
    t = host[: host.size // 3]
    np.testing.assert_array_equal(xp.host(gcol.isin(x, xp.dev(t))), ref.isin(host, t))
    li, ri = gcol.join(xp.dev(host[:3000]), xp.dev(t))
    assert list(zip(xp.host(li).tolist(), xp.host(ri).tolist())) == ref.join(host[:3000], t, "inner")


# ---- strings --------------------------------------------------------------------------
strings = st.lists(st.text(alphabet="ab\u00e9\x00\u4e2d", max_size=4), max_size=60)


@pytest.mark.parametrize("large", [False, True])
@given(strs=strings, data=st.data())
def test_strings_of_arrow_slices(xp, large, strs, data):
    pa = pytest.importorskip("pyarrow")
    pc = pytest.importorskip("pyarrow.compute")
    typ = pa.large_string() if large else pa.string()
    start = data.draw(st.integers(0, len(strs)))
    stop = data.draw(st.integers(start, len(strs)))
    arr = pa.array(strs, type=typ)[start:stop]
    off, chars = gcol.strings_from_arrow(arr, like=xp.name)
    assert gcol.strings_to_arrow(off, chars).to_pylist() == strs[start:stop]  # issue 39's round trip
    ids, d_off, d_chars = gcol.dictionary_encode(off, chars)
    want = pc.dictionary_encode(arr)
    assert gcol.strings_to_arrow(d_off, d_chars).to_pylist() == want.dictionary.to_pylist()
    np.testing.assert_array_equal(xp.host(ids), want.indices.to_numpy(zero_copy_only=False))
    v_off, v_chars, counts = gcol.value_counts(off, chars)
    got = dict(zip(gcol.strings_to_list(v_off, v_chars), xp.host(counts).tolist()))
    assert got == {d["values"]: d["counts"] for d in pc.value_counts(arr).to_pylist()}


@given(chunks=st.lists(strings, max_size=4))
def test_strings_of_chunked_arrays(xp, chunks):
    pa = pytest.importorskip("pyarrow")
    arr = pa.chunked_array([pa.array(c, pa.string())[1:] for c in chunks], type=pa.string())
    off, chars = gcol.strings_from_arrow(arr, like=xp.name)
    assert gcol.strings_to_arrow(off, chars).to_pylist() == arr.to_pylist()


# ---- approx_distinct --------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ks.KEY_DTYPES)
@given(data=st.data())
def test_approx_distinct(xp, dtype, data):
    host = data.draw(ks.keys(dtype, max_size=300))
    exact = len(ref.unique(host)[0])
    est = gcol.approx_distinct(on_device(xp, data, host), precision=14)
    # 2^14 registers: linear counting at these sizes, a few percent at most
    assert abs(est - exact) <= 0.05 * exact + 2, (est, exact)


# ---- shortest paths ---------------------------------------------------------------------
@st.composite
def graphs(draw):
    """(n, arcs [(u, v, w)]) with float32 weights >= 0 (zeros, parallel arcs and loops included)."""
    n = draw(st.integers(1, 16))
    weight = st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0, 10, width=32))
    arcs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), weight), max_size=4 * n))
    return n, arcs


def build(xp, n, arcs):
    arcs = sorted(arcs, key=lambda a: a[0])
    offsets = np.searchsorted([a[0] for a in arcs], np.arange(n + 1)).astype(np.int32)
    targets = np.array([a[1] for a in arcs], np.int32)
    weights = np.array([a[2] for a in arcs], np.float32)
    return gcol.Graph.csr(xp.dev(offsets), xp.dev(targets), xp.dev(weights))


def ids(n):
    """Vertex ids, some invalid (n, n + 5, -1 = 0xFFFFFFFF)."""
    return st.one_of(st.integers(0, n - 1), st.sampled_from([n, n + 5, -1]))


@given(graph=graphs(), data=st.data())
def test_shortest_paths_pred(xp, graph, data):
    n, arcs = graph
    g = build(xp, n, arcs)
    sources = data.draw(st.lists(ids(n), max_size=6))
    targets = data.draw(st.one_of(st.none(), st.lists(ids(n), max_size=6)))
    dist, pred = gcol.shortest_paths_pred(g, xp.dev(np.array(sources, np.int32)),
                                          None if targets is None else xp.dev(np.array(targets, np.int32)))
    cols = list(range(n)) if targets is None else targets
    d, p = xp.host(dist).reshape(len(sources), len(cols)), xp.host(pred).reshape(len(sources), len(cols))
    lightest = ref.lightest_arcs(arcs)
    for i, s in enumerate(sources):
        want = ref.dijkstra(n, arcs, s) if 0 <= s < n else None
        for j, t in enumerate(cols):
            if want is None or not 0 <= t < n:
                assert math.isnan(d[i, j]) and p[i, j] == -1, (s, t, d[i, j], p[i, j])
                continue
            assert d[i, j] == pytest.approx(want[t], rel=1e-5 * n, abs=1e-5 * n), (s, t)
            if t == s or math.isinf(want[t]):
                assert p[i, j] == -1, (s, t, p[i, j])
                continue
            u = int(p[i, j])  # the vertex before t: a shortest path reaches t through it
            assert (u, t) in lightest and want[u] + lightest[(u, t)] == pytest.approx(want[t], rel=1e-5 * n,
                                                                                     abs=1e-5 * n)
        if want is not None and targets is None:  # whole rows: following pred reaches the source
            for t in range(n):
                if t != s and math.isfinite(want[t]):
                    path = ref.path_from_pred(p[i].tolist(), s, t, n)
                    assert path is not None, "pred from %d loops: %s" % (t, p[i].tolist())
                    assert ref.path_error(path, s, t, want[t], lightest) is None


@given(graph=graphs(), data=st.data())
def test_paths(xp, graph, data):
    n, arcs = graph
    g = build(xp, n, arcs)
    pairs = data.draw(st.lists(st.tuples(ids(n), ids(n)), max_size=8))
    sources = np.array([s for s, _ in pairs], np.int32)
    targets = np.array([t for _, t in pairs], np.int32)
    offsets, vertices, dist = gcol.paths(g, xp.dev(sources), xp.dev(targets))
    off, verts, d = xp.host(offsets), xp.host(vertices), xp.host(dist)
    assert off.dtype == np.int64 and off.shape == (len(pairs) + 1,) and off[0] == 0 and off[-1] == verts.size
    lightest = ref.lightest_arcs(arcs)
    for k, (s, t) in enumerate(pairs):
        path = verts[off[k]:off[k + 1]].tolist()
        if not (0 <= s < n and 0 <= t < n):
            assert path == [] and math.isnan(d[k])
            continue
        want = ref.dijkstra(n, arcs, s)[t]
        if math.isinf(want):
            assert path == [] and math.isinf(d[k])
            continue
        assert d[k] == pytest.approx(want, rel=1e-5 * n, abs=1e-5 * n)
        assert ref.path_error(path, s, t, want, lightest) is None


def test_paths_of_no_pairs_have_offsets_zero(xp):
    """Issue 39: one offset, 0 (it was uninitialised)."""
    g = build(xp, 3, [(0, 1, 1.0)])
    for _ in range(3):  # a fresh allocation each time: garbage would show
        offsets, vertices, dist = gcol.paths(g, xp.dev(np.zeros(0, np.int32)), xp.dev(np.zeros(0, np.int32)))
        assert xp.host(offsets).tolist() == [0]
        assert xp.host(vertices).size == 0 and xp.host(dist).size == 0
