"""GPU: gcol.Map against a dict / NumPy model on fresh random data, with CuPy
and with PyTorch arrays (skipped without a GPU or without the library)."""
import numpy as np
import pytest

import gcol

PAIRS = [("int64", "int64"), ("int32", "float32"), ("uint32", "uint32"), ("uint64", "float64")]


def random_keys(rng, n, dtype, distinct, absent=False):
    """n keys drawn from `distinct` values below 2^30 (absent=True: from above
    2^30 instead, so never stored); never a sentinel."""
    lo = 2**30 if absent else 0
    pool = lo + rng.choice(2**30 - 2, size=distinct, replace=False)
    return pool[rng.integers(0, distinct, n)].astype(dtype)


def value_of(keys, dtype, salt=0):
    """A value per key (equal keys, equal values); never the empty value."""
    return ((keys.astype(np.int64) + salt) % 1000003).astype(dtype)


@pytest.mark.parametrize("kd,vd", PAIRS)
def test_insert_find_contains_against_a_dict(xp, rng, kd, vd):
    n = 200_000
    keys = random_keys(rng, n, kd, distinct=n // 2)
    m = gcol.Map(kd, vd, capacity=2 * n)
    m.insert(xp.dev(keys), xp.dev(value_of(keys, vd)))
    model = dict(zip(keys.tolist(), value_of(keys, vd).tolist()))
    assert len(m) == len(model)

    m.insert(xp.dev(keys), xp.dev(value_of(keys, vd, salt=1)))  # present keys keep their first value
    queries = np.concatenate([keys[:5000], random_keys(rng, 5000, kd, 5000, absent=True)])
    found = m.find(xp.dev(queries))
    assert xp.is_native(found) and xp.dtype_name(found) == vd
    expect = np.array([model.get(k, m.empty_value) for k in queries.tolist()], dtype=vd)
    np.testing.assert_array_equal(xp.host(found), expect)
    present = m.contains(xp.dev(queries))
    assert xp.dtype_name(present) == "bool"
    np.testing.assert_array_equal(xp.host(present), [k in model for k in queries.tolist()])


def test_assign_erase_and_retrieve_all(xp, rng):
    n = 100_000
    keys = np.unique(random_keys(rng, n, "int64", n))
    m = gcol.Map("int64", "float64", capacity=2 * len(keys))
    m.insert(xp.dev(keys), xp.dev(value_of(keys, "float64")))
    m.insert_or_assign(xp.dev(keys[::2]), xp.dev(value_of(keys[::2], "float64", salt=5)))
    m.erase(xp.dev(keys[1::4]))
    model = dict(zip(keys.tolist(), value_of(keys, "float64").tolist()))
    model.update(zip(keys[::2].tolist(), value_of(keys[::2], "float64", salt=5).tolist()))
    for k in keys[1::4].tolist():
        del model[k]
    assert len(m) == len(model)
    got_keys, got_values = m.retrieve_all()
    assert xp.is_native(got_keys) and xp.is_native(got_values)
    got = dict(zip(xp.host(got_keys).tolist(), xp.host(got_values).tolist()))
    assert got == model
    np.testing.assert_array_equal(xp.host(m.contains(xp.dev(keys[1::4]))), False)
    m.clear()
    assert len(m) == 0


@pytest.mark.parametrize("value_dtype", ["int32", "float64"])
def test_insert_or_apply_without_values_counts(xp, rng, value_dtype):
    keys = rng.integers(0, 3000, 200_000).astype(np.int64)
    m = gcol.Map("int64", value_dtype, capacity=8000)
    m.insert_or_apply(xp.dev(keys), None, gcol.ADD)
    got_keys, got_counts = (xp.host(a) for a in m.retrieve_all())
    order = np.argsort(got_keys)
    groups, counts = np.unique(keys, return_counts=True)
    np.testing.assert_array_equal(got_keys[order], groups)
    np.testing.assert_array_equal(got_counts[order], counts.astype(value_dtype))
    with pytest.raises(gcol.InvalidArgumentError, match="d_values"):
        m.insert_or_apply(xp.dev(keys), None, gcol.MIN)


@pytest.mark.parametrize("op,reduce", [(gcol.ADD, np.add), ("min", np.minimum), (gcol.MAX, np.maximum)])
def test_group_by_through_insert_or_apply_equals_numpy(xp, rng, op, reduce):
    rows = 1_000_000
    keys = rng.integers(0, 5000, rows).astype(np.int64)
    values = rng.integers(-1000, 1000, rows).astype(np.int64)
    m = gcol.Map("int64", "int64", capacity=10_000)
    m.insert_or_apply(xp.dev(keys), xp.dev(values), op)
    got_keys, got_values = (xp.host(a) for a in m.retrieve_all())
    order = np.argsort(got_keys)
    groups, inverse = np.unique(keys, return_inverse=True)
    if reduce is np.add:
        expect = np.bincount(inverse, weights=values).astype(np.int64)  # exact: |sums| < 2^53
    else:
        expect = np.full(len(groups), values.max() if reduce is np.minimum else values.min())
        reduce.at(expect, inverse, values)
    np.testing.assert_array_equal(got_keys[order], groups)
    np.testing.assert_array_equal(got_values[order], expect)


def test_float_sums_by_key(xp, rng):
    keys = rng.integers(0, 100, 100_000).astype(np.int32)
    values = rng.random(100_000)
    m = gcol.Map("int32", "float64", capacity=1000)
    m.insert_or_apply(xp.dev(keys), xp.dev(values))
    got = xp.host(m.find(xp.dev(np.arange(100, dtype=np.int32))))
    np.testing.assert_allclose(got, np.bincount(keys, weights=values, minlength=100), rtol=1e-9)


def test_insert_and_find_marks_one_inserter_per_key(xp, rng):
    keys = random_keys(rng, 50_000, "int64", 10_000)
    m = gcol.Map("int64", "int64", capacity=100_000)
    m.insert(xp.dev(keys[:1000]), xp.dev(value_of(keys[:1000], "int64")))
    stored, inserted = m.insert_and_find(xp.dev(keys), xp.dev(value_of(keys, "int64")))
    np.testing.assert_array_equal(xp.host(stored), value_of(keys, "int64"))
    inserted = xp.host(inserted)
    assert inserted.dtype == np.bool_
    assert inserted.sum() == len(set(keys.tolist()) - set(keys[:1000].tolist()))
    assert len(set(keys[inserted].tolist())) == inserted.sum()


def test_a_growable_map_grows(xp, rng):
    keys = np.unique(random_keys(rng, 1_000_000, "uint64", 1_000_000))
    m = gcol.Map("uint64", "uint64", capacity=1000, growable=True)
    for part in np.array_split(keys, 7):
        m.insert(xp.dev(part), xp.dev(value_of(part, "uint64")))
    assert len(m) == len(keys) and m.capacity >= len(keys)
    np.testing.assert_array_equal(xp.host(m.find(xp.dev(keys))), value_of(keys, "uint64"))


def test_full_and_reserved_key_are_raised_by_the_next_synchronizing_call(xp, rng):
    m = gcol.Map("int64", "int64", capacity=1000)
    keys = np.unique(random_keys(rng, 10 * m.capacity, "int64", 10 * m.capacity))
    m.insert(xp.dev(keys), xp.dev(keys))
    with pytest.raises(gcol.FullError) as info:
        len(m)
    assert info.value.status == gcol.Status.FULL and info.value.result == m.capacity
    assert len(m) == m.capacity  # the error was reported once

    m = gcol.Map("int64", "int64", capacity=100)
    m.insert(xp.dev(np.array([1, m.empty_key, 2])), xp.dev(np.array([10, 20, 30])))
    with pytest.raises(gcol.ReservedKeyError):
        m.status()
    assert len(m) == 2


def test_streams_given_or_current(xp, rng):
    keys = np.unique(random_keys(rng, 100_000, "int64", 100_000))
    k, v = xp.dev(keys), xp.dev(value_of(keys, "int64"))
    xp.sync_all()
    s = xp.stream()
    m = gcol.Map("int64", "int64", capacity=2 * len(keys), stream=s)
    m.insert(k, v, stream=s)
    found = m.find(k, stream=s.cuda_stream if hasattr(s, "cuda_stream") else s.ptr)  # a raw handle
    xp.synchronize(s)
    np.testing.assert_array_equal(xp.host(found), value_of(keys, "int64"))
    current = xp.stream()
    with xp.using(current):
        present = m.contains(k)  # on the library's current stream
        assert len(m) == len(keys)  # waits on the current stream
    xp.synchronize(current)
    assert xp.host(present).all()


def test_inputs_are_checked(xp, rng):
    keys = random_keys(rng, 100, "int64", 100)
    m = gcol.Map("int64", "int64", capacity=1000)
    with pytest.raises(gcol.InvalidArgumentError, match="contiguous"):
        m.find(xp.dev(keys)[::2])
    with pytest.raises(gcol.InvalidArgumentError, match="host array"):
        m.find(keys)
    with pytest.raises(gcol.InvalidArgumentError, match="keys must be int64"):
        m.find(xp.dev(keys.astype(np.int32)))
    with pytest.raises(gcol.InvalidArgumentError, match="elements"):
        m.insert(xp.dev(keys), xp.dev(keys[:50]))
    with pytest.raises(gcol.InvalidArgumentError, match="out must be"):
        m.find(xp.dev(keys), out=xp.dev(np.zeros(100, np.float64)))


def test_empty_inputs_and_out(xp):
    m = gcol.Map("int32", "int32", capacity=10)
    empty = xp.dev(np.zeros(0, np.int32))
    m.insert(empty, empty)
    assert xp.host(m.find(empty)).shape == (0,)
    keys, values = m.retrieve_all()
    assert xp.host(keys).shape == (0,) and xp.host(values).shape == (0,)
    out = xp.dev(np.zeros(3, np.int32))
    m.insert(xp.dev(np.array([1, 2], np.int32)), xp.dev(np.array([5, 6], np.int32)))
    assert m.find(xp.dev(np.array([2, 1, 3], np.int32)), out=out) is out
    np.testing.assert_array_equal(xp.host(out), [6, 5, -1])


def test_dlpack_capsules_and_objects(gpu):
    torch = pytest.importorskip("torch")
    from torch.utils.dlpack import to_dlpack
    keys = torch.arange(1000, device="cuda", dtype=torch.int64)
    m = gcol.Map("int64", "int64", capacity=4000)
    m.insert(to_dlpack(keys), to_dlpack(keys * 2))
    found = m.find(to_dlpack(keys))
    assert isinstance(found, torch.Tensor) and found.is_cuda  # capsules: outputs from PyTorch
    assert torch.equal(found, keys * 2)
