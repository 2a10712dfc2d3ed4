"""Host-only: issue 41's signatures of gcol.unique, isin, join and
groupby_reduce (keyword-only options, NumPy's result order, return_index,
sorted by default, isin's invert and dtype promotion, every join how with
its masks, 64-bit integer sums and dtype=, tuples of key columns packed into
32-, 64- and 128-bit keys, strided and narrow inputs), on the host model
(NumPy for the array library, dicts for the C containers) against NumPy and
pandas. The GPU twins are in test_gpu_signatures.py."""
import inspect

import pytest

np = pytest.importorskip("numpy")

import gcol  # noqa: E402
import host_model  # noqa: E402
import references as ref  # noqa: E402
from gcol import _keys  # noqa: E402
from host_model import CREATED  # noqa: E402


@pytest.fixture(autouse=True)
def model(monkeypatch):
    host_model.install(monkeypatch)
    monkeypatch.setattr(_keys, "SAMPLE", 8)


def rows(columns):
    return list(zip(*[c.tolist() for c in columns]))


# ---- keyword-only options --------------------------------------------------------
@pytest.mark.parametrize("fn,positional", [(gcol.unique, 1), (gcol.isin, 2), (gcol.join, 2),
                                           (gcol.groupby_reduce, 2), (gcol.dictionary_encode, 2),
                                           (gcol.value_counts, 2)])
def test_options_are_keyword_only(fn, positional):
    params = list(inspect.signature(fn).parameters.values())
    assert [p.kind for p in params[:positional]] == [inspect.Parameter.POSITIONAL_OR_KEYWORD] * positional
    assert all(p.kind == inspect.Parameter.KEYWORD_ONLY for p in params[positional:]), fn.__name__


def test_positional_options_raise_type_error():
    x = np.arange(4, dtype=np.int64)
    with pytest.raises(TypeError):
        gcol.unique(x, True)
    with pytest.raises(TypeError):
        gcol.isin(x, x, True)
    with pytest.raises(TypeError):
        gcol.join(x, x, "left")


def test_defaults_follow_numpy_and_pandas():
    assert inspect.signature(gcol.unique).parameters["sorted"].default is True
    assert inspect.signature(gcol.groupby_reduce).parameters["sorted"].default is True
    isin = inspect.signature(gcol.isin).parameters
    assert isin["invert"].default is False and isin["assume_unique"].default is False
    assert inspect.signature(gcol.join).parameters["how"].default == "inner"


# ---- unique ----------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                   "bool", "float16", "float32", "float64"])
@pytest.mark.parametrize("n", [0, 1, 50, 300])
def test_unique_returns_numpys_four_results_in_numpys_order(dtype, n):
    rng = np.random.default_rng(n)
    x = rng.integers(0, 40, n).astype(dtype)
    if dtype.startswith("float") and n:
        x[::7] = np.nan
        x[::11] = -0.0
    got = gcol.unique(x, return_index=True, return_inverse=True, return_counts=True)
    want = np.unique(x, return_index=True, return_inverse=True, return_counts=True, equal_nan=True)
    assert len(got) == 4 and got[0].dtype == x.dtype
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.reshape(-1), w.reshape(-1))
    assert got[1].dtype == got[2].dtype == got[3].dtype == np.int64
    assert gcol.unique(x).dtype == x.dtype  # sorted by default
    np.testing.assert_array_equal(gcol.unique(x), want[0])


@pytest.mark.parametrize("flags", [(True, False, False), (False, True, False), (False, False, True),
                                   (True, True, False), (True, False, True), (False, True, True)])
def test_each_combination_of_flags_keeps_numpys_order(flags):
    x = np.array([5, 3, 5, 1, 3, 5], dtype=np.int32)
    kw = dict(zip(("return_index", "return_inverse", "return_counts"), flags))
    got, want = gcol.unique(x, **kw), np.unique(x, **kw)
    assert len(got) == len(want) == 1 + sum(flags)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_unsorted_is_the_fast_path_with_aligned_results():
    rng = np.random.default_rng(5)
    x = rng.integers(-20, 20, (30, 4)).astype(np.int64)
    values, index, inverse, counts = gcol.unique(x, sorted=False, return_index=True, return_inverse=True,
                                                 return_counts=True)
    flat = x.reshape(-1)
    np.testing.assert_array_equal(np.sort(values), np.unique(x))
    np.testing.assert_array_equal(values[inverse], x)
    np.testing.assert_array_equal(flat[index], values)
    assert all(flat[:i].tolist().count(v) == 0 for v, i in zip(values.tolist(), index.tolist()))
    assert counts.tolist() == [flat.tolist().count(v) for v in values.tolist()]
    assert {kind for kind, _ in CREATED} == {"map"}


def test_return_index_alone_uses_one_map():
    x = np.array([9, 9, 2, 7, 2], dtype=np.uint64)
    values, index = gcol.unique(x, return_index=True)
    assert values.tolist() == [2, 7, 9] and index.tolist() == [2, 3, 0] and len(CREATED) == 1


def test_strided_and_reversed_views_are_copied():
    base = np.arange(40, dtype=np.int64) % 7
    for view in (base[::3], base[::-1], base.reshape(5, 8)[:, 1:3], base.reshape(5, 8).T):
        values, inverse = gcol.unique(view, return_inverse=True)
        np.testing.assert_array_equal(values, np.unique(view))
        assert inverse.shape == view.shape
        np.testing.assert_array_equal(values[inverse], view)


def test_float16_keys_follow_the_key_rule():
    x = np.array([np.nan, 0.0, -0.0, 1.5, -np.nan, 6.1e-5, -6e-8, 6e-8], dtype=np.float16)  # subnormals too
    values, counts = gcol.unique(x, return_counts=True)
    assert values.dtype == np.float16 and values.size == 6
    assert ref.keys_list(values) == ref.keys_list(np.unique(x, equal_nan=True)[:6])
    bits = values.view(np.uint16).tolist()
    assert 0x8000 not in bits and bits[-1] == 0x7E00  # +0.0 and the quiet NaN come back
    assert counts.tolist() == [1, 2, 1, 1, 1, 2]


# ---- several key columns ---------------------------------------------------------------
COLUMN_SETS = [("int8", "int8"), ("int16", "uint16"), ("int32", "float32"), ("int64",), ("uint32", "int32"),
               ("int64", "int64"), ("int64", "uint32", "int8"), ("float64", "float64"), ("bool", "int64", "int32"),
               ("int8", "int16", "int32", "uint8")]


def columns_of(dtypes, n, seed, domain=4):
    rng = np.random.default_rng(seed)
    cols = []
    for d in dtypes:
        c = rng.integers(-domain if np.dtype(d).kind == "i" else 0, domain, n).astype(d)
        if d.startswith("float"):
            c[::5] = np.nan
            c[::9] = -0.0
        cols.append(c)
    if "int64" in dtypes and n > 3:  # the top words that a 16-byte key's sentinels start from
        j = dtypes.index("int64")
        cols[j][:3] = [2**63 - 1, 2**63 - 2, -(2**63)]
    return tuple(cols)


def key_rows(columns):
    return [tuple(ref.key_of(v) for v in r) for r in rows(columns)]


@pytest.mark.parametrize("dtypes", COLUMN_SETS)
@pytest.mark.parametrize("n", [0, 1, 200])
def test_unique_of_columns_matches_pandas(dtypes, n):
    pd = pytest.importorskip("pandas")
    cols = columns_of(dtypes, n, n + len(dtypes))
    values, index, inverse, counts = gcol.unique(cols, return_index=True, return_inverse=True, return_counts=True)
    assert isinstance(values, tuple) and [v.dtype for v in values] == [c.dtype for c in cols]
    frame = pd.DataFrame({str(j): c for j, c in enumerate(cols)})
    firsts = frame.drop_duplicates()
    raw = rows(tuple(firsts[c].to_numpy() for c in firsts))
    order = sorted(range(len(raw)), key=lambda i: tuple((v != v, 0.0 if v != v else v) for v in raw[i]))
    keyed = key_rows(tuple(firsts[c].to_numpy() for c in firsts))
    want = [(keyed[i], firsts.index[i]) for i in order]
    assert key_rows(values) == [r for r, _ in want]  # lexicographic, first column first, NaN last
    assert index.tolist() == [i for _, i in want]
    assert key_rows(tuple(v[inverse] for v in values)) == key_rows(cols)
    assert counts.tolist() == [key_rows(cols).count(r) for r in key_rows(values)]
    unsorted = gcol.unique(cols, sorted=False)
    assert sorted(map(repr, key_rows(unsorted))) == sorted(map(repr, key_rows(values)))


def test_columns_pack_into_the_narrowest_key():
    n = 20
    for dtypes, kdtype in [(("int8", "int16"), "int32"), (("int32", "uint32"), "int64"), (("int8",), "int32"),
                           (("int64", "int8"), "u128"), (("float64", "float64"), "u128")]:
        k = _keys.Keys([(columns_of(dtypes, n, 1) if len(dtypes) > 1 else columns_of(dtypes, n, 1)[0], "x")])
        assert k.kdtype == kdtype, dtypes
        assert k.flat[0].shape == ((n, 2) if kdtype == "u128" else (n,))


def test_keys_of_more_than_128_bits_are_refused():
    cols = columns_of(("int64", "int64", "int8"), 5, 2)
    with pytest.raises(gcol.InvalidArgumentError, match="136 bits in all.*up to 128 bits"):
        gcol.unique(cols)
    with pytest.raises(gcol.InvalidArgumentError, match="up to 128 bits"):
        gcol.groupby_reduce(cols, np.ones(5))


def test_16_byte_keys_that_hold_the_sentinels_are_keys_too():
    top = 2**63 - 1
    a = np.array([top, top - 1, top, 0, top - 1], dtype=np.int64)
    cols = (a, a.copy())  # rows (top, top) and (top - 1, top - 1): the first sentinels as 16-byte keys
    values, counts = gcol.unique(cols, return_counts=True)
    assert rows(values) == [(0, 0), (top - 1, top - 1), (top, top)] and counts.tolist() == [1, 2, 2]
    assert gcol.isin(cols, (a[:1], a[:1])).tolist() == [True, False, True, False, False]


def test_column_refusals():
    a, b = np.arange(4, dtype=np.int64), np.arange(5, dtype=np.int64)
    with pytest.raises(gcol.InvalidArgumentError, match=r"x\[1\] has 5 elements but x\[0\] has 4"):
        gcol.unique((a, b))
    with pytest.raises(gcol.InvalidArgumentError, match="empty tuple"):
        gcol.unique(())
    with pytest.raises(gcol.InvalidArgumentError, match="both as arrays or both as tuples"):
        gcol.isin((a, a), a)
    with pytest.raises(gcol.InvalidArgumentError, match="2 key columns but x has 1"):
        gcol.isin((a,), (a, a))


# ---- isin ------------------------------------------------------------------------
@pytest.mark.parametrize("xd,td,want", [("int32", "int64", "int64"), ("uint32", "int32", "int64"),
                                        ("int8", "uint8", "int16"), ("int16", "float32", "float32"),
                                        ("int32", "float32", "float64"), ("float16", "float64", "float64"),
                                        ("bool", "int32", "int32"), ("uint64", "int64", "int64"),
                                        ("int64", "float64", "float64"), ("uint8", "uint64", "uint64")])
def test_isin_promotes_losslessly(xd, td, want):
    x = np.array([0, 1, 3, 7, 1], dtype=xd)
    t = np.array([1, 7, 9], dtype=td)
    got = gcol.isin(x, t)
    np.testing.assert_array_equal(got, np.isin(x, t))
    assert _keys.Keys([(x, "x"), (t, "t")], promote=True).dtypes == [want]
    np.testing.assert_array_equal(gcol.isin(x, t, invert=True), np.isin(x, t, invert=True))


def test_isin_promotes_by_value_and_refuses_what_no_dtype_holds():
    big = np.array([2**63 + 5, 3], dtype=np.uint64)
    assert gcol.isin(big, np.array([3, 4], dtype=np.int64)).tolist() == [False, True]  # int64 all >= 0: uint64
    with pytest.raises(gcol.InvalidArgumentError, match="uint64 values of 2\\^63"):
        gcol.isin(big, np.array([-1, 3], dtype=np.int64))
    with pytest.raises(gcol.InvalidArgumentError, match="integers are exact in the float"):
        gcol.isin(np.array([2**53 + 1], dtype=np.int64), np.array([1.0]))
    with pytest.raises(gcol.InvalidArgumentError, match="floats and integers"):
        gcol.isin(np.array([0.5], dtype=np.float32), np.array([2**60 + 1], dtype=np.int64))
    x32 = np.array([0.5, 3.0], dtype=np.float32)  # int32 and float32: float64 holds both by type
    assert gcol.isin(x32, np.array([2**30 + 1, 3], dtype=np.int32)).tolist() == [False, True]


def test_isin_of_columns_and_invert():
    x = (np.array([1, 1, 2, 2], dtype=np.int32), np.array([0.5, 1.5, 0.5, np.nan]))
    t = (np.array([1, 2, 2], dtype=np.int64), np.array([0.5, np.nan, 9.0]))  # int32 against int64 too
    assert gcol.isin(x, t).tolist() == [True, False, False, True]
    assert gcol.isin(x, t, invert=True, assume_unique=True).tolist() == [False, True, True, False]


# ---- join ------------------------------------------------------------------------
HOWS = ["inner", "left", "right", "outer", "semi", "anti"]


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("nl,nr", [(0, 4), (4, 0), (30, 20)])
def test_join_every_how_matches_the_reference(how, nl, nr):
    rng = np.random.default_rng(nl + nr)
    left, right = rng.integers(0, 8, nl).astype(np.int32), rng.integers(4, 12, nr).astype(np.int64)
    got = gcol.join(left, right, how=how)
    if how in ("semi", "anti"):
        assert got.dtype == np.int64 and got.tolist() == ref.join(left, right, how)
        want = np.nonzero(np.isin(left, right, invert=how == "anti"))[0]
        np.testing.assert_array_equal(got, want)
        return
    li, ri = got[:2]
    assert list(zip(li.tolist(), ri.tolist())) == ref.join(left, right, how)
    masks = got[2:]
    assert len(masks) == {"inner": 0, "left": 1, "right": 1, "outer": 2}[how]
    expected = {"left": [ri >= 0], "right": [li >= 0], "outer": [li >= 0, ri >= 0]}.get(how, [])
    for m, e in zip(masks, expected):
        assert m.dtype == bool
        np.testing.assert_array_equal(m, e)


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
def test_join_of_columns_matches_pandas_merge_with_indicator(how):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(7)
    lc = (rng.integers(0, 3, 40).astype(np.int64), rng.integers(0, 3, 40).astype(np.int16))
    rc = (rng.integers(1, 4, 25).astype(np.int64), rng.integers(0, 3, 25).astype(np.int16))
    got = gcol.join(lc, rc, how=how)
    lf = pd.DataFrame({"a": lc[0], "b": lc[1], "li": np.arange(40)})
    rf = pd.DataFrame({"a": rc[0], "b": rc[1], "ri": np.arange(25)})
    merged = pd.merge(lf, rf, on=["a", "b"], how=how, indicator=True)
    want = list(zip(merged["li"].fillna(-1).astype(np.int64), merged["ri"].fillna(-1).astype(np.int64),
                    merged["_merge"].astype(str)))
    li, ri = got[:2]
    left_found = li >= 0 if how in ("inner", "left") else got[2]
    right_found = got[-1] if how in ("left", "outer") else ri >= 0
    indicator = np.where(~right_found, "left_only", np.where(~left_found, "right_only", "both"))
    mine = list(zip(li.tolist(), ri.tolist(), indicator.tolist()))
    if how == "outer":  # pandas sorts by key; gcol: left's pairs, then right's rows alone
        want = sorted(want, key=lambda p: (p[0] < 0, p[0], p[1]))
    assert mine == [(int(a), int(b), c) for a, b, c in want]


def test_join_promotes_like_isin_and_refuses_other_hows():
    li, ri = gcol.join(np.array([1, 2], dtype=np.uint8), np.array([2.0, 1.0, 2.0]))
    assert li.tolist() == [0, 1, 1] and ri.tolist() == [1, 0, 2]
    with pytest.raises(gcol.InvalidArgumentError, match="how must be one of inner, left, right, outer, semi, anti"):
        gcol.join(li, ri, how="cross")


# ---- groupby_reduce ---------------------------------------------------------------------
@pytest.mark.parametrize("vdtype,want", [("int8", "int64"), ("int16", "int64"), ("int32", "int64"),
                                         ("uint8", "uint64"), ("uint32", "uint64"), ("bool", "int64"),
                                         ("int64", "int64"), ("uint64", "uint64"), ("float32", "float32")])
def test_integer_sums_accumulate_in_64_bits(vdtype, want):
    keys = np.array([1, 2, 1, 1], dtype=np.int64)
    big = {"int8": 100, "int16": 30000, "int32": 2**31 - 1, "uint8": 200, "uint32": 2**32 - 1, "bool": 1,
           "int64": 5, "uint64": 5, "float32": 1.5}[vdtype]
    values = np.full(4, big, dtype=vdtype)
    group_keys, sums = gcol.groupby_reduce(keys, values, op="sum")
    assert group_keys.tolist() == [1, 2] and sums.dtype == want
    assert sums.tolist() == [3 * values[0].item(), values[0].item()]
    import pandas as pd
    frame = pd.DataFrame({"k": keys, "v": values}).groupby("k")["v"].sum()
    np.testing.assert_array_equal(sums, frame.to_numpy())


def test_dtype_opts_out_of_64_bit_sums():
    keys = np.zeros(3, dtype=np.int64)
    values = np.full(3, 2**30 + 1, dtype=np.int32)
    _, sums = gcol.groupby_reduce(keys, values, op="sum", dtype="int32")
    assert sums.dtype == np.int32 and sums.tolist() == [int(ref.wrap(3 * (2**30 + 1), "int32"))]
    _, (s, m, f) = gcol.groupby_reduce(keys, [values, values, values], op=["sum", "mean", "mean"],
                                       dtype=[None, "int32", "float32"])
    assert s.dtype == np.int64 and s.tolist() == [3 * (2**30 + 1)]
    assert m.dtype == np.float64 and m.tolist() == [int(ref.wrap(3 * (2**30 + 1), "int32")) / 3]
    assert f.dtype == np.float32


@pytest.mark.parametrize("vdtype", ["float16", "int8", "uint16", "bool"])
def test_narrow_values_come_back_in_their_dtype(vdtype):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(3)
    keys = rng.integers(0, 5, 100).astype(np.int16)
    values = rng.integers(0, 50, 100).astype(vdtype)
    ops = ["sum", "min", "max", "count", "mean"]
    group_keys, results = gcol.groupby_reduce(keys, [values] * 5, op=ops)
    assert group_keys.dtype == np.int16
    frame = pd.DataFrame({"k": keys, "v": values}).groupby("k")["v"]
    np.testing.assert_array_equal(group_keys, frame.size().index.to_numpy())
    floats = vdtype == "float16"
    want_dtypes = {"sum": vdtype if floats else ("uint64" if vdtype.startswith("uint") else "int64"),
                   "min": vdtype, "max": vdtype, "count": "int64", "mean": vdtype if floats else "float64"}
    for o, r in zip(ops, results):
        assert r.dtype == want_dtypes[o], o
        w = getattr(frame, o)().to_numpy()
        np.testing.assert_allclose(r.astype(np.float64), w.astype(np.float64), rtol=2e-3 if floats else 1e-12)


@pytest.mark.parametrize("dtypes", [("int64", "int8"), ("int32", "float64"), ("int64", "int64"), ("bool", "uint8")])
def test_groupby_of_key_columns_matches_pandas(dtypes):
    pd = pytest.importorskip("pandas")
    cols = columns_of(dtypes, 150, 4)
    values = np.random.default_rng(4).integers(-100, 100, 150).astype(np.int32)
    group_keys, (sums, counts) = gcol.groupby_reduce(cols, [values, values], op=["sum", "count"])
    frame = pd.DataFrame({"a": cols[0], "b": cols[1], "v": values}).groupby(["a", "b"], dropna=False)["v"]
    want = frame.sum()
    assert key_rows(group_keys) == [tuple(ref.key_of(v) for v in k) for k in want.index.tolist()]
    np.testing.assert_array_equal(sums, want.to_numpy())
    np.testing.assert_array_equal(counts, frame.size().to_numpy())
    assert sums.dtype == np.int64 and [g.dtype for g in group_keys] == [c.dtype for c in cols]
