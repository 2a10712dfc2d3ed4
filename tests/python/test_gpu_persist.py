"""GPU: copies (copy(), copy.copy, copy.deepcopy) and pickle round trips of
every container hold the original's settings and contents, and are
independent of it (changing one leaves the other); Map and Set without a
capacity grow; BloomFilter and HyperLogLog bytes round trips."""
import copy
import pickle
from collections import Counter

import numpy as np
import pytest

import gcol

COPIES = {"copy": lambda c: c.copy(), "copy.copy": copy.copy, "copy.deepcopy": copy.deepcopy,
          "pickle": lambda c: pickle.loads(pickle.dumps(c))}


def distinct(rng, n, dtype, lo=0):
    return (lo + rng.choice(2**30 - 2, size=n, replace=False)).astype(dtype)


def pairs(xp, m):
    k, v = m.retrieve_all()
    k, v = xp.host(k), xp.host(v)
    return sorted(zip(k.tolist(), v.tolist()))


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("growable", [False, True])
def test_map_copies(xp, rng, how, growable):
    keys = distinct(rng, 20_000, "int64")
    vals = rng.standard_normal(keys.size).astype("float32")
    m = gcol.Map("int64", "float32", capacity=None if growable else 50_000, seed=7, empty_value=-1.5,
                 erased_key=-7)
    m.insert(xp.dev(keys), xp.dev(vals))
    c = COPIES[how](m)
    assert c is not m and c._h != m._h
    assert pairs(xp, c) == pairs(xp, m)
    assert (c.growable, c.empty_value, c.erased_key, c._cfg.seed) == (growable, -1.5, -7, 7)
    assert c.capacity >= m.capacity if growable else c.capacity == m.capacity
    extra = distinct(rng, 100, "int64", lo=2**31)
    c.insert(xp.dev(extra), xp.dev(np.ones(100, "float32")))
    assert len(c) == len(m) + 100
    m.erase(xp.dev(keys[:10]))
    assert len(m) == keys.size - 10 and len(c) == keys.size + 100
    del m  # the copy owns its own memory
    assert len(c) == keys.size + 100


def test_map_u128_and_float_sentinels_round_trip(xp, rng):
    keys = rng.integers(0, 2**62, size=(5000, 2), dtype="uint64")
    m = gcol.Map("u128", "float64", capacity=20_000, empty_value=float("nan"))
    m.insert(xp.dev(keys), xp.dev(np.arange(5000, dtype="float64")))
    back = pickle.loads(pickle.dumps(m))
    a, b = [xp.host(x) for x in m.retrieve_all()], [xp.host(x) for x in back.retrieve_all()]
    order_a, order_b = np.lexsort(a[0].T), np.lexsort(b[0].T)
    np.testing.assert_array_equal(a[0][order_a], b[0][order_b])
    np.testing.assert_array_equal(a[1][order_a], b[1][order_b])
    assert back._cfg.empty_value == m._cfg.empty_value  # bit for bit


@pytest.mark.parametrize("how", COPIES)
def test_set_and_multiset_copies(xp, rng, how):
    keys = distinct(rng, 10_000, "uint32")
    s = gcol.Set("uint32")  # no capacity: grows
    assert s.growable
    s.insert(xp.dev(keys))
    c = COPIES[how](s)
    assert c.growable and sorted(xp.host(c.retrieve_all()).tolist()) == sorted(keys.tolist())
    c.erase(xp.dev(keys[:5]))
    assert len(s) == keys.size and len(c) == keys.size - 5
    dup = np.repeat(keys[:1000], 3)
    ms = gcol.Multiset("uint32", capacity=10_000, seed=11)
    ms.insert(xp.dev(dup))
    mc = COPIES[how](ms)
    assert Counter(xp.host(mc.retrieve_all()).tolist()) == Counter(dup.tolist())
    assert mc.capacity == ms.capacity and mc._cfg.seed == 11


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("engine", ["open", "chained"])
def test_multimap_copies(xp, rng, how, engine):
    keys = np.repeat(distinct(rng, 2000, "int32"), 2)
    vals = np.arange(keys.size, dtype="int64")
    m = gcol.Multimap("int32", "int64", capacity=8000, engine=engine)
    m.insert(xp.dev(keys), xp.dev(vals))
    c = COPIES[how](m)
    assert c.engine == engine and pairs(xp, c) == pairs(xp, m)
    c.clear()
    assert len(m) == keys.size and len(c) == 0


@pytest.mark.parametrize("how", COPIES)
def test_string_map_copies_keep_entry_order_and_ids(gpu, how):
    pytest.importorskip("cupy")
    m = gcol.StringMap("int32", capacity=8)
    words = ["a", "bb", "", "ccc", "a", "dddd"]
    m.insert_and_find(*gcol.strings_from_list(words))
    c = COPIES[how](m)
    o, ch, v = c.retrieve_all()  # a copy made by pickle has no input yet: its outputs may come from torch
    assert gcol.strings_to_list(o, ch) == ["a", "bb", "", "ccc", "dddd"] and _host(v) == [0, 1, 2, 3, 4]
    new = gcol.strings_from_list(["zz", "a"])
    assert _host(c.insert_and_find(*new)) == _host(m.insert_and_find(*new)) == [5, 0]


def _host(a):
    """A CuPy array's or a torch tensor's values as a list."""
    return a.get().tolist() if hasattr(a, "get") else a.cpu().tolist()


@pytest.mark.parametrize("how", COPIES)
def test_sketch_copies(xp, rng, how):
    keys = distinct(rng, 50_000, "uint64")
    f = gcol.BloomFilter("uint64", expected_keys=100_000, fpr=0.01, seed=9)
    f.add(xp.dev(keys))
    fc = COPIES[how](f)
    assert fc.to_bytes() == f.to_bytes() and fc.size_bytes == f.size_bytes and fc.seed == 9
    assert xp.host(fc.contains(xp.dev(keys))).all()
    fc.clear()
    assert xp.host(f.contains(xp.dev(keys))).all()
    h = gcol.HyperLogLog(12, seed=3)
    h.add(xp.dev(keys))
    hc = COPIES[how](h)
    assert hc.to_bytes() == h.to_bytes() and hc.estimate() == h.estimate()
    hc.clear()
    assert h.estimate() > 40_000


def test_bloom_bytes_round_trip_and_refusals(xp, rng):
    keys = distinct(rng, 10_000, "int32")
    f = gcol.BloomFilter("int32", size_bytes=4000, seed=1)
    f.add(xp.dev(keys))
    data = f.to_bytes()
    assert data[:4] == b"GBLM" and len(data) == 32 + f.size_bytes and data[5] == 4
    g = gcol.BloomFilter.from_bytes(data, key_dtype="int32")
    assert g.key_dtype == "int32" and g.to_bytes() == data
    assert gcol.BloomFilter.from_bytes(data).key_dtype == "uint32"
    assert xp.host(g.contains(xp.dev(keys))).all()
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.BloomFilter.from_bytes(data[:-1])
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.BloomFilter.from_bytes(data, key_dtype="uint64")  # another key width
    other = gcol.BloomFilter("int32", size_bytes=4032, seed=1)
    with pytest.raises(gcol.InvalidArgumentError):
        other._fill((data,), None)  # another size: refused, unchanged
    assert not any(other.to_bytes()[32:])
