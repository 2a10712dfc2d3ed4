"""GPU: issue 41's signatures of gcol.unique, isin, join and groupby_reduce on
CuPy and PyTorch arrays, against NumPy, PyTorch and pandas: NumPy's four
unique results and sorted default, narrow dtypes (int8 ... bfloat16) and
strided views, tuples of key columns (32-, 64- and 128-bit packed keys, the
sampled size estimate included), isin's lossless promotion and invert, every
join how with its masks, 64-bit integer sums and dtype=. The host twins are
in test_host_signatures.py."""
import numpy as np
import pytest

import gcol

NARROW = ["int8", "int16", "uint8", "bool", "float16"]
WIDE = ["int32", "uint32", "int64", "uint64", "float32", "float64"]


def dev(xp, host):
    """host on the device; skips dtypes this library cannot hold."""
    try:
        return xp.dev(host)
    except (TypeError, RuntimeError) as e:
        pytest.skip("%s cannot hold %s: %s" % (xp.name, host.dtype, e))


def to_host(xp, a):
    if xp.name == "torch" and str(a.dtype) == "torch.bfloat16":
        return a.float().cpu().numpy()
    return xp.host(a)


def random_column(rng, dtype, n, domain):
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    c = rng.integers(-domain if np.dtype(dtype).kind == "i" else 0, domain, n).astype(dtype)
    if np.dtype(dtype).kind == "f" and n:
        c[::13] = np.nan
        c[::17] = -0.0
    return c


@pytest.mark.parametrize("dtype", NARROW + WIDE)
@pytest.mark.parametrize("n,domain", [(0, 1), (1, 1), (1000, 50), (300_000, 100)])
def test_unique_gives_numpys_four_results(xp, rng, dtype, n, domain):
    host = random_column(rng, dtype, n, domain)
    x = dev(xp, host)
    got = gcol.unique(x, return_index=True, return_inverse=True, return_counts=True)
    want = np.unique(host, return_index=True, return_inverse=True, return_counts=True, equal_nan=True)
    assert xp.dtype_name(got[0]) == xp.dtype_name(x)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(xp.host(g).reshape(-1), w.reshape(-1))
    np.testing.assert_array_equal(xp.host(gcol.unique(x)), want[0])  # sorted by default
    fast = gcol.unique(x, sorted=False, return_index=True)
    np.testing.assert_array_equal(host.reshape(-1)[xp.host(fast[1])], xp.host(fast[0]))


def test_unique_matches_torch_unique_for_bfloat16(gpu):
    torch = pytest.importorskip("torch")
    x = (torch.randn(100_000, device="cuda") * 8).round().to(torch.bfloat16)
    v, i, c = gcol.unique(x, return_inverse=True, return_counts=True)
    w, wi, wc = torch.unique(x, return_inverse=True, return_counts=True)
    assert v.dtype == torch.bfloat16 and torch.equal(v, w) and torch.equal(i, wi) and torch.equal(c, wc)


def test_strided_views_are_copied(xp, rng):
    host = rng.integers(0, 100, (400, 6)).astype(np.int64)
    x = dev(xp, host)
    for view, want in ((x[::3], host[::3]), (x.T, host.T), (x[:, 2], host[:, 2])):
        values, inverse = gcol.unique(view, return_inverse=True)
        np.testing.assert_array_equal(xp.host(values), np.unique(want))
        assert tuple(inverse.shape) == want.shape
        np.testing.assert_array_equal(xp.host(values)[xp.host(inverse)], want)
        np.testing.assert_array_equal(xp.host(gcol.isin(view, x[0])), np.isin(want, host[0]))


@pytest.mark.parametrize("dtypes", [("int8", "int16"), ("int32", "float32"), ("int64", "int64"),
                                    ("int64", "uint32", "int8"), ("float64", "float64"), ("bool", "int64", "int32")])
@pytest.mark.parametrize("n", [0, 1, 5000, 2_000_000])  # 2M rows: the sampled size estimate (> 4 * 2^18)
def test_unique_of_key_columns_against_pandas(xp, rng, dtypes, n):
    pd = pytest.importorskip("pandas")
    cols = tuple(random_column(rng, d, n, 30) for d in dtypes)
    if "int64" in dtypes and n > 2:  # rows whose words are the first 16-byte sentinels
        j = dtypes.index("int64")
        cols[j][:2] = 2**63 - 1
    values, index, counts = gcol.unique(tuple(dev(xp, c) for c in cols), return_index=True, return_counts=True)
    frame = pd.DataFrame({str(j): c for j, c in enumerate(cols)})
    grouped = frame.groupby(list(frame.columns), sort=True, dropna=False)
    sizes = grouped.size()
    assert len(values) == len(cols) and int(xp.host(counts).sum()) == n
    np.testing.assert_array_equal(xp.host(counts), sizes.to_numpy())
    for j, v in enumerate(values):
        np.testing.assert_array_equal(xp.host(v), sizes.index.get_level_values(j).to_numpy().astype(cols[j].dtype)
                                      if len(cols) > 1 else sizes.index.to_numpy())
    firsts = frame.reset_index().groupby(list(frame.columns), sort=True, dropna=False)["index"].min()
    np.testing.assert_array_equal(xp.host(index), firsts.to_numpy())


@pytest.mark.parametrize("xd,td", [("int32", "int64"), ("uint32", "int32"), ("int16", "float32"),
                                   ("uint64", "int64"), ("int64", "float64"), ("uint8", "int8")])
def test_isin_promotes_like_numpy(xp, rng, xd, td):
    x = random_column(rng, xd, 100_000, 1000)
    t = random_column(rng, td, 3000, 1000)
    x[np.isnan(x)] = 0 if x.dtype.kind == "f" else x[0]
    t = np.nan_to_num(t) if t.dtype.kind == "f" else t
    got = gcol.isin(dev(xp, x), dev(xp, t))
    np.testing.assert_array_equal(xp.host(got), np.isin(x, t))
    np.testing.assert_array_equal(xp.host(gcol.isin(dev(xp, x), dev(xp, t), invert=True)), np.isin(x, t, invert=True))


def test_isin_refuses_what_no_dtype_holds(xp):
    with pytest.raises(gcol.InvalidArgumentError, match="no dtype holds"):
        gcol.isin(dev(xp, np.array([-1], np.int64)), dev(xp, np.array([2**63], np.uint64)))


HOWS = ["inner", "left", "right", "outer", "semi", "anti"]


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("nl,nr,domain", [(0, 3, 5), (3, 0, 5), (2000, 3000, 500), (100_000, 80_000, 50_000)])
@pytest.mark.parametrize("columns", [1, 2])
def test_join_every_how_against_pandas_merge(xp, rng, how, nl, nr, domain, columns):
    pd = pytest.importorskip("pandas")
    lk = [rng.integers(0, domain, nl).astype(np.int64), rng.integers(0, 3, nl).astype(np.int32)][:columns]
    rk = [rng.integers(0, domain, nr).astype(np.int32), rng.integers(0, 3, nr).astype(np.int32)][:columns]
    left = tuple(dev(xp, c) for c in lk) if columns > 1 else dev(xp, lk[0])
    right = tuple(dev(xp, c) for c in rk) if columns > 1 else dev(xp, rk[0])
    got = gcol.join(left, right, how=how)
    on = ["k%d" % j for j in range(columns)]
    lf = pd.DataFrame(dict({"li": np.arange(nl)}, **{o: c for o, c in zip(on, lk)}))
    rf = pd.DataFrame(dict({"ri": np.arange(nr)}, **{o: c.astype(np.int64) for o, c in zip(on, rk)}))
    for o in on:
        lf[o] = lf[o].astype(np.int64)
    if how in ("semi", "anti"):
        found = lf.set_index(on).index.isin(rf.set_index(on).index)
        want = np.nonzero(~found if how == "anti" else found)[0]
        np.testing.assert_array_equal(xp.host(got), want)
        return
    merged = pd.merge(lf, rf, on=on, how=how, indicator=True)
    want = list(zip(merged["li"].fillna(-1).astype(np.int64).tolist(),
                    merged["ri"].fillna(-1).astype(np.int64).tolist(), merged["_merge"].astype(str).tolist()))
    if how == "outer":  # pandas sorts by key; gcol: left's pairs, then right's rows alone
        want = sorted(want, key=lambda p: (p[0] < 0, p[0], p[1]))
    li, ri = xp.host(got[0]), xp.host(got[1])
    masks = [xp.host(m) for m in got[2:]]
    left_found = masks[0] if how in ("right", "outer") else li >= 0
    right_found = masks[-1] if how in ("left", "outer") else ri >= 0
    indicator = np.where(~right_found, "left_only", np.where(~left_found, "right_only", "both"))
    assert list(zip(li.tolist(), ri.tolist(), indicator.tolist())) == want


@pytest.mark.parametrize("vdtype", ["int8", "int16", "int32", "uint32", "bool", "int64", "uint64"])
def test_integer_sums_are_64_bit_like_pandas(xp, rng, vdtype):
    pd = pytest.importorskip("pandas")
    keys = rng.integers(0, 100, 200_000).astype(np.int64)
    info = np.iinfo(vdtype) if vdtype != "bool" else None
    values = (rng.integers(info.max // 2, info.max, keys.size) if info is not None and info.bits < 64 else
              rng.integers(0, 2 if vdtype == "bool" else 2**40, keys.size)).astype(vdtype)
    group_keys, (sums, means) = gcol.groupby_reduce(dev(xp, keys), [dev(xp, values)] * 2, op=["sum", "mean"])
    frame = pd.DataFrame({"k": keys, "v": values}).groupby("k")["v"]
    assert xp.dtype_name(sums) == ("uint64" if vdtype.startswith("uint") else "int64")
    np.testing.assert_array_equal(xp.host(sums), frame.sum().to_numpy())
    np.testing.assert_allclose(xp.host(means), frame.mean().to_numpy(), rtol=1e-12)
    if vdtype == "int32":  # dtype= opts out: 32-bit sums that wrap
        _, wrapped = gcol.groupby_reduce(dev(xp, keys), dev(xp, values), op="sum", dtype="int32")
        assert xp.dtype_name(wrapped) == "int32"
        np.testing.assert_array_equal(xp.host(wrapped), frame.sum().to_numpy().astype(np.int32))


@pytest.mark.parametrize("vdtype", ["float16", "int8", "uint8", "bool"])
def test_narrow_values_come_back_in_their_dtype(xp, rng, vdtype):
    pd = pytest.importorskip("pandas")
    keys = rng.integers(0, 50, 50_000).astype(np.int16)
    values = rng.integers(0, 100, keys.size).astype(vdtype)
    ops = ["sum", "min", "max", "count", "mean"]
    group_keys, results = gcol.groupby_reduce(dev(xp, keys), [dev(xp, values)] * 5, op=ops)
    frame = pd.DataFrame({"k": keys, "v": values}).groupby("k")["v"]
    assert xp.dtype_name(group_keys) == "int16"
    for o, r in zip(ops, results):
        if o in ("min", "max") or (vdtype == "float16" and o in ("sum", "mean")):
            assert xp.dtype_name(r) == vdtype, o
        want = getattr(frame, o)().to_numpy().astype(np.float64)
        np.testing.assert_allclose(xp.host(r).astype(np.float64), want, rtol=2e-3 if vdtype == "float16" else 1e-12)


def test_groupby_of_key_columns_against_pandas(xp, rng):
    pd = pytest.importorskip("pandas")
    n = 2_000_000
    a, b = rng.integers(0, 1000, n).astype(np.int64), rng.integers(-5, 5, n).astype(np.int8)
    v = rng.standard_normal(n)
    (ga, gb), (sums, counts) = gcol.groupby_reduce((dev(xp, a), dev(xp, b)), [dev(xp, v)] * 2, op=["sum", "count"])
    frame = pd.DataFrame({"a": a, "b": b, "v": v}).groupby(["a", "b"])["v"]
    want = frame.sum()
    np.testing.assert_array_equal(xp.host(ga), want.index.get_level_values(0).to_numpy())
    np.testing.assert_array_equal(xp.host(gb), want.index.get_level_values(1).to_numpy())
    assert xp.dtype_name(gb) == "int8"
    np.testing.assert_allclose(xp.host(sums), want.to_numpy(), rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(xp.host(counts), frame.size().to_numpy())
