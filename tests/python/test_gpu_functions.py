"""GPU: gcol.unique, groupby_reduce, isin and join against NumPy, PyTorch,
CuPy and pandas on random data (empty and single-element inputs included),
with CuPy and PyTorch arrays; bad input; Numba and DLPack inputs; streams;
the C library's messages on exceptions."""
import ctypes

import numpy as np
import pytest

import gcol
from gpu_arrays import random_keys

DTYPES = ["int32", "uint32", "int64", "uint64", "float32", "float64"]
SIZES = [(0, 1), (1, 1), (1000, 10), (200_000, 20_000), (300_000, 300_000)]


def native_unique(xp, x):
    """The array library's own sorted unique with inverse and counts, on host."""
    if xp.name == "torch":
        if x.dtype in (getattr(xp.m, "uint32", None), getattr(xp.m, "uint64", None)):
            return None  # torch.unique has no kernels for these
        v, i, c = xp.m.unique(x, return_inverse=True, return_counts=True)
    else:
        v, i, c = xp.m.unique(x, return_inverse=True, return_counts=True)
    return xp.host(v), xp.host(i), xp.host(c)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,distinct", SIZES)
def test_unique_against_numpy_and_the_library(xp, rng, dtype, n, distinct):
    host = random_keys(rng, dtype, n, distinct)
    x = xp.dev(host)
    values, inverse, counts = gcol.unique(x, return_inverse=True, return_counts=True, sorted=True)
    assert xp.is_native(values) and xp.is_native(inverse) and xp.is_native(counts)
    assert xp.dtype_name(values) == dtype and xp.dtype_name(inverse) == xp.dtype_name(counts) == "int64"
    want, want_inverse, want_counts = np.unique(host, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(xp.host(values), want)
    np.testing.assert_array_equal(xp.host(inverse).reshape(-1), want_inverse.reshape(-1))
    np.testing.assert_array_equal(xp.host(counts), want_counts)
    native = native_unique(xp, x)
    if native is not None:
        np.testing.assert_array_equal(xp.host(values), native[0])
        np.testing.assert_array_equal(xp.host(counts), native[2])
    plain = gcol.unique(x)
    np.testing.assert_array_equal(np.sort(xp.host(plain)), want)
    got_values, got_counts = gcol.unique(x, return_counts=True)
    assert dict(zip(xp.host(got_values).tolist(), xp.host(got_counts).tolist())) == dict(
        zip(want.tolist(), want_counts.tolist()))


def test_unique_of_many_keys_uses_the_estimate(xp, rng):
    host = random_keys(rng, "int64", 5_000_000, 100_000)  # > 4 * 2^20 keys: sampled size
    values, inverse, counts = gcol.unique(xp.dev(host), return_inverse=True, return_counts=True)
    v, c = xp.host(values), xp.host(counts)
    np.testing.assert_array_equal(np.sort(v), np.unique(host))
    np.testing.assert_array_equal(v[xp.host(inverse)], host)
    assert c.sum() == host.size


def test_unique_inverse_keeps_the_shape(xp, rng):
    host = rng.integers(0, 5, (30, 7)).astype(np.int64)
    values, inverse = gcol.unique(xp.dev(host), return_inverse=True)
    assert tuple(inverse.shape) == (30, 7)
    np.testing.assert_array_equal(xp.host(values)[xp.host(inverse)], host)


def test_float_keys_follow_the_nan_rule(xp):
    host = np.array([np.nan, 0.0, -0.0, 1.5, np.nan, -np.inf], dtype=np.float32)
    values, counts = gcol.unique(xp.dev(host), return_counts=True, sorted=True)
    v = xp.host(values)
    assert v.size == 4 and v[0] == -np.inf and v[1] == 0.0 and not np.signbit(v[1]) and np.isnan(v[3])
    assert xp.host(counts).tolist() == [1, 2, 1, 2]
    found = gcol.isin(xp.dev(np.array([np.nan, -0.0, 2.0], np.float32)), xp.dev(np.array([0.0, np.nan], np.float32)))
    assert xp.host(found).tolist() == [True, True, False]


def test_sentinel_values_are_keys_like_any_other(xp):
    top, bottom = np.iinfo(np.int64).max, np.iinfo(np.int64).min
    host = np.array([top, top - 1, 5, top, bottom, bottom + 1, -1, -2], dtype=np.int64)
    values, counts = gcol.unique(xp.dev(host), return_counts=True, sorted=True)
    want, want_counts = np.unique(host, return_counts=True)
    np.testing.assert_array_equal(xp.host(values), want)
    np.testing.assert_array_equal(xp.host(counts), want_counts)
    group_keys, sums = gcol.groupby_reduce(xp.dev(host), xp.dev(np.ones(8)), sorted=True)
    np.testing.assert_array_equal(xp.host(sums), want_counts.astype(float))
    found = gcol.isin(xp.dev(host), xp.dev(np.array([top, -1], np.int64)))
    assert xp.host(found).tolist() == [True, False, False, True, False, False, True, False]
    left, right = gcol.join(xp.dev(host), xp.dev(np.array([top - 1, bottom], np.int64)))
    assert list(zip(xp.host(left).tolist(), xp.host(right).tolist())) == [(1, 0), (4, 1)]


@pytest.mark.parametrize("vdtype", ["float64", "float32", "int64", "int32"])
@pytest.mark.parametrize("n,groups", [(0, 1), (1, 1), (50_000, 100), (300_000, 100_000)])
def test_groupby_reduce_against_pandas(xp, rng, vdtype, n, groups):
    pd = pytest.importorskip("pandas")
    keys = rng.integers(-(2**40), 2**40, groups)[rng.integers(0, groups, n)].astype(np.int64)
    values = (rng.standard_normal(n) * 100).astype(vdtype) if vdtype.startswith("float") else \
        rng.integers(-1000, 1000, n).astype(vdtype)
    ops = ["sum", "min", "max", "count", "mean"]
    group_keys, results = gcol.groupby_reduce(xp.dev(keys), [xp.dev(values)] * len(ops), op=ops, sorted=True)
    frame = pd.DataFrame({"k": keys, "v": values}).groupby("k", sort=True)["v"]
    np.testing.assert_array_equal(xp.host(group_keys), np.unique(keys))
    for op, got in zip(ops, results):
        want = getattr(frame, op)().to_numpy()
        got = xp.host(got)
        if op == "count":
            assert got.dtype == np.int64
            np.testing.assert_array_equal(got, want)
        elif vdtype.startswith("float") and op in ("sum", "mean"):
            np.testing.assert_allclose(got, want, rtol=1e-3 if vdtype == "float32" else 1e-9, atol=1e-2)
        else:
            np.testing.assert_allclose(got, want.astype(got.dtype), rtol=1e-12)
    # one column, no sort: the single-pass path
    gk, sums = gcol.groupby_reduce(xp.dev(keys), xp.dev(values), op="sum")
    assert dict(zip(xp.host(gk).tolist(), xp.host(sums).tolist())) == pytest.approx(
        dict(zip(np.unique(keys).tolist(), frame.sum().to_numpy().astype(vdtype).tolist())), rel=1e-3, abs=1e-2)


def test_groupby_sum_against_pytorch_index_add(rng, gpu):
    torch = pytest.importorskip("torch")
    keys = torch.from_numpy(rng.integers(0, 5000, 1_000_000)).cuda()
    values = torch.rand(keys.numel(), device="cuda", dtype=torch.float64)
    uniq, inverse = torch.unique(keys, return_inverse=True)
    want = torch.zeros(uniq.numel(), dtype=values.dtype, device="cuda").index_add_(0, inverse, values)
    group_keys, sums = gcol.groupby_reduce(keys, values, op="sum", sorted=True)
    assert torch.equal(group_keys, uniq)
    assert torch.allclose(sums, want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,m", [(0, 5), (5, 0), (1, 1), (100_000, 1000), (50_000, 200_000)])
def test_isin_against_numpy_and_the_library(xp, rng, dtype, n, m):
    pool = random_keys(rng, dtype, 2 * max(n, m, 1), 2 * max(n, m, 1))
    x, t = pool[rng.integers(0, pool.size, n)], pool[rng.integers(0, pool.size, m)]
    got = gcol.isin(xp.dev(x), xp.dev(t))
    assert xp.is_native(got) and xp.dtype_name(got) == "bool"
    np.testing.assert_array_equal(xp.host(got), np.isin(x, t))
    if xp.name == "cupy" or not dtype.startswith("uint"):
        np.testing.assert_array_equal(xp.host(got), xp.host(xp.m.isin(xp.dev(x), xp.dev(t))))


@pytest.mark.parametrize("how", ["inner", "left"])
@pytest.mark.parametrize("nl,nr,domain", [(0, 3, 5), (3, 0, 5), (1, 1, 1), (2000, 3000, 500), (100_000, 80_000, 50_000)])
def test_join_against_pandas_merge(xp, rng, how, nl, nr, domain):
    pd = pytest.importorskip("pandas")
    left = rng.integers(0, domain, nl).astype(np.int64)
    right = rng.integers(0, domain, nr).astype(np.int64)
    li, ri = gcol.join(xp.dev(left), xp.dev(right), how=how)[:2]
    assert xp.dtype_name(li) == xp.dtype_name(ri) == "int64"
    merged = pd.merge(pd.DataFrame({"k": left, "li": np.arange(nl)}), pd.DataFrame({"k": right, "ri": np.arange(nr)}),
                      on="k", how=how)
    want = sorted(zip(merged["li"].tolist(), merged["ri"].fillna(-1).astype(np.int64).tolist()))
    got = list(zip(xp.host(li).tolist(), xp.host(ri).tolist()))
    assert got == want  # pandas' pairs, in left row order then right row order


def test_join_float_keys_and_int32(xp):
    li, ri = gcol.join(xp.dev(np.array([np.nan, 1.0, -0.0])), xp.dev(np.array([0.0, np.nan, np.nan])))
    assert list(zip(xp.host(li).tolist(), xp.host(ri).tolist())) == [(0, 1), (0, 2), (2, 0)]
    li, ri, found = gcol.join(xp.dev(np.array([3, 4, 3], np.int32)), xp.dev(np.array([3], np.int32)), how="left")
    assert list(zip(xp.host(li).tolist(), xp.host(ri).tolist())) == [(0, 0), (1, -1), (2, 0)]
    assert xp.host(found).tolist() == [True, False, True]


# ---- bad input: clear exceptions, never a crash ------------------------------
def test_bad_input_raises_clear_errors(xp):
    x = xp.dev(np.arange(10, dtype=np.int64))
    with pytest.raises(gcol.InvalidArgumentError, match="host array"):
        gcol.unique(np.arange(10))
    with pytest.raises(gcol.InvalidArgumentError, match="no dtype holds every value"):
        gcol.isin(-x, xp.dev(np.array([2**63 + 1], dtype=np.uint64)))
    with pytest.raises(gcol.InvalidArgumentError, match="values has 9 elements, keys 10"):
        gcol.groupby_reduce(x, xp.dev(np.zeros(9)))
    with pytest.raises(gcol.InvalidArgumentError, match="x: keys must be"):
        gcol.unique(xp.dev(np.arange(10, dtype=np.complex64)))
    with pytest.raises(gcol.InvalidArgumentError, match="values must be"):
        gcol.groupby_reduce(x, xp.dev(np.zeros(10, dtype=np.complex64)))
    with pytest.raises(gcol.InvalidArgumentError, match="how must be"):
        gcol.join(x, x, how="cross")
    with pytest.raises(gcol.InvalidArgumentError, match="up to 128 bits"):
        gcol.unique((x, x, x))
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.join(x, np.arange(3))
    # the context is still usable
    assert xp.host(gcol.unique(x, sorted=True)).tolist() == list(range(10))


def test_torch_cpu_tensors_and_mixed_libraries_are_refused(gpu):
    torch = pytest.importorskip("torch")
    cupy = pytest.importorskip("cupy")
    with pytest.raises(gcol.InvalidArgumentError, match="host array"):
        gcol.isin(torch.arange(4), torch.arange(2))
    with pytest.raises(gcol.InvalidArgumentError, match="one library"):
        gcol.isin(torch.arange(4, device="cuda"), cupy.arange(2, dtype=cupy.int64))


def test_numba_and_dlpack_inputs(gpu):
    numba_cuda = pytest.importorskip("numba.cuda")
    cupy = pytest.importorskip("cupy")
    d = numba_cuda.to_device(np.array([3, 1, 3, 2], dtype=np.int64))
    values = gcol.unique(d, sorted=True)
    assert numba_cuda.is_cuda_array(values) and type(values).__module__.startswith("numba")
    assert values.copy_to_host().tolist() == [1, 2, 3]
    x = cupy.array([5, 6, 5], dtype=cupy.int64)
    values = gcol.unique(x.toDlpack(), sorted=True)
    assert cupy.asnumpy(cupy.asarray(values)).tolist() == [5, 6]


def test_results_are_on_the_current_stream(xp, rng):
    host = rng.integers(0, 1000, 500_000).astype(np.int64)
    stream = xp.stream()
    with xp.using(stream):
        x = xp.dev(host)
        values, counts = gcol.unique(x, return_counts=True)
        found = gcol.isin(x, values)
        total = counts.sum()
    xp.synchronize(stream)
    assert int(total) == host.size and bool(xp.host(found).all())


# ---- issue 22: the C library's messages reach Python --------------------------
def test_a_misaligned_pointer_is_refused_with_its_message(xp):
    from gcol import _arrays
    keys = xp.dev(np.arange(16, dtype=np.int64))
    with gcol.Map("int64", "int64", capacity=64) as m:
        k = _arrays.view(keys)
        status = m._f.map_insert(m._h, ctypes.c_void_p(k.ptr + 4), ctypes.c_void_p(k.ptr), 8, None, 0)
        with pytest.raises(gcol.InvalidArgumentError) as info:
            m._check(status)
        assert info.value.message.startswith("gcol_map_insert: d_keys") and "aligned" in info.value.message
        m.insert(keys, keys)  # a good call after it works
        assert len(m) == 16


def test_a_host_array_refused_by_the_c_library_names_it(gpu):
    host = (ctypes.c_int64 * 8)()
    with gcol.Map("int64", "int64", capacity=64) as m:
        status = m._f.map_insert(m._h, ctypes.addressof(host), ctypes.addressof(host), 8, None, 0)
        if status == 0:
            pytest.skip("this device reads pageable host memory: the C library accepts it")
        with pytest.raises(gcol.InvalidArgumentError) as info:
            m._check(status)
        assert info.value.message.startswith("gcol_map_insert: d_keys")
