"""GPU: 16-byte keys (key dtype "u128", issue 25) in gcol.Map, Set, Multiset
and Multimap, as (n, 2) uint64/int64 CuPy and PyTorch arrays, against NumPy
models; and the refusals of badly shaped key arrays."""
import numpy as np
import pytest

import gcol


def u128_keys(rng, n, distinct):
    """n keys (rows of (low, high) uint64 words) drawn from `distinct` ones;
    some share a word, some hold the default sentinel in one word."""
    pool = rng.integers(0, 2**63, size=(distinct, 2), dtype=np.uint64)
    pool[::5, 1] = 42  # a shared high word
    pool[1::7, 0] = np.uint64(2**64 - 1)  # the empty sentinel in the low word: an ordinary key
    pool = np.unique(pool, axis=0)
    return pool[rng.integers(0, len(pool), n)]


def as_tuples(a):
    return [tuple(r) for r in np.asarray(a).tolist()]


def test_map_round_trip(xp, rng):
    n = 100_000
    keys = u128_keys(rng, n, n // 2)
    vals = (keys[:, 0] % 1000003 + keys[:, 1] % 7).astype(np.uint64)  # equal keys, equal values
    m = gcol.Map("u128", "uint64", capacity=64, growable=True)
    m.insert(xp.dev(keys), xp.dev(vals))
    model = dict(zip(as_tuples(keys), vals.tolist()))
    assert len(m) == len(model)
    misses = rng.integers(2**63, 2**64 - 2, size=(5000, 2), dtype=np.uint64)
    queries = np.concatenate([keys[:5000], misses])
    found = xp.host(m.find(xp.dev(queries)))
    expect = [model.get(k, m.empty_value) for k in as_tuples(queries)]
    np.testing.assert_array_equal(found, np.array(expect, dtype=np.uint64))
    present = xp.host(m.contains(xp.dev(queries)))
    np.testing.assert_array_equal(present, np.array([k in model for k in as_tuples(queries)]))
    got_keys, got_vals = m.retrieve_all()
    assert xp.dtype_name(got_keys) == "uint64" and tuple(got_keys.shape) == (len(model), 2)
    assert dict(zip(as_tuples(xp.host(got_keys)), xp.host(got_vals).tolist())) == model
    m.erase(xp.dev(keys[: n // 2]))
    gone = set(as_tuples(keys[: n // 2]))
    assert len(m) == len(set(model) - gone)


def test_int64_rows_and_sum(xp, rng):
    keys = u128_keys(rng, 50_000, 1000).view(np.int64)
    m = gcol.Map("u128", "int64", capacity=4000)
    m.insert_or_apply(xp.dev(keys), xp.dev(np.ones(len(keys), np.int64)), gcol.ADD)
    k, v = m.retrieve_all()
    uniq, counts = np.unique(keys, axis=0, return_counts=True)
    got = dict(zip(as_tuples(xp.host(k).view(np.int64)), xp.host(v).tolist()))
    assert got == dict(zip(as_tuples(uniq), counts.tolist()))


def test_set_and_multiset(xp, rng):
    keys = u128_keys(rng, 40_000, 5000)
    s = gcol.Set("u128", capacity=16, growable=True)
    s.insert(xp.dev(keys))
    assert len(s) == len(set(as_tuples(keys)))
    assert xp.host(s.contains(xp.dev(keys))).all()
    ms = gcol.Multiset("u128", capacity=2 * len(keys))
    ms.insert(xp.dev(keys))
    counts = xp.host(ms.count(xp.dev(keys[:100])))
    uniq, c = np.unique(keys, axis=0, return_counts=True)
    model = dict(zip(as_tuples(uniq), c.tolist()))
    assert counts.tolist() == [model[k] for k in as_tuples(keys[:100])]


def test_multimap(xp, rng):
    keys = u128_keys(rng, 20_000, 2000)
    vals = np.arange(len(keys), dtype=np.int32)
    mm = gcol.Multimap("u128", "int32", capacity=2 * len(keys))
    mm.insert(xp.dev(keys), xp.dev(vals))
    counts = xp.host(mm.count(xp.dev(keys[:50])))
    uniq, c = np.unique(keys, axis=0, return_counts=True)
    model = dict(zip(as_tuples(uniq), c.tolist()))
    assert counts.tolist() == [model[k] for k in as_tuples(keys[:50])]


def test_bad_key_arrays_refused(gpu):
    cupy = pytest.importorskip("cupy")
    m = gcol.Map("u128", "uint64", capacity=100)
    with pytest.raises(gcol.InvalidArgumentError, match=r"\(n, 2\)"):
        m.insert(cupy.zeros(8, cupy.uint64), cupy.zeros(4, cupy.uint64))
    with pytest.raises(gcol.InvalidArgumentError, match=r"\(n, 2\)"):
        m.find(cupy.zeros((4, 2), cupy.uint32))
    with pytest.raises(gcol.InvalidArgumentError, match="elements"):
        m.insert(cupy.zeros((4, 2), cupy.uint64), cupy.zeros(8, cupy.uint64))
    with pytest.raises(gcol.InvalidArgumentError, match="key type only"):
        gcol.Map("uint64", "u128", capacity=10)
    m.insert(cupy.arange(8, dtype=cupy.uint64).reshape(4, 2), cupy.ones(4, cupy.uint64))  # still usable
    assert len(m) == 4
