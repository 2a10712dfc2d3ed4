"""GPU: gcol.Set and gcol.Multiset against Python set / Counter models, with
CuPy and PyTorch arrays (skipped without a GPU or without the library)."""
from collections import Counter

import numpy as np
import pytest

import gcol

KEYS = ["int64", "uint64", "int32", "uint32"]


def random_keys(rng, n, dtype, distinct, absent=False):
    lo = 2**30 if absent else 0
    pool = lo + rng.choice(2**30 - 2, size=distinct, replace=False)
    return pool[rng.integers(0, distinct, n)].astype(dtype)


@pytest.mark.parametrize("kd", KEYS)
@pytest.mark.parametrize("growable", [False, True])
def test_set_against_a_python_set(xp, rng, kd, growable):
    n = 50_000
    s = gcol.Set(kd, capacity=64 if growable else 2 * n, growable=growable)
    model = set()
    for _ in range(3):
        keys = random_keys(rng, n, kd, distinct=n // 2)
        fresh = xp.host(s.insert_and_contains(xp.dev(keys)))
        new = set(keys.tolist()) - model
        assert int(fresh.sum()) == len(new)
        assert set(keys[fresh].tolist()) == new
        model |= new
        gone = keys[: n // 4]
        s.erase(xp.dev(gone))
        model -= set(gone.tolist())
        assert len(s) == len(model)
        queries = np.concatenate([keys, random_keys(rng, 1000, kd, 1000, absent=True)])
        np.testing.assert_array_equal(xp.host(s.contains(xp.dev(queries))),
                                      np.array([k in model for k in queries.tolist()]))
    everything = xp.host(s.retrieve_all())
    assert len(everything) == len(model) and set(everything.tolist()) == model
    s.clear()
    assert len(s) == 0


@pytest.mark.parametrize("kd", KEYS)
def test_multiset_against_a_counter(xp, rng, kd):
    n = 40_000
    keys = random_keys(rng, n, kd, distinct=n // 4)
    m = gcol.Multiset(kd, capacity=2 * n)
    m.insert(xp.dev(keys))
    model = Counter(keys.tolist())
    assert len(m) == n
    queries = np.concatenate([keys[:3000], random_keys(rng, 3000, kd, 3000, absent=True)])
    counts = xp.host(m.count(xp.dev(queries)))
    np.testing.assert_array_equal(counts, [model[k] for k in queries.tolist()])
    np.testing.assert_array_equal(xp.host(m.contains(xp.dev(queries))), counts > 0)
    q = xp.host(m.retrieve(xp.dev(queries)))
    assert Counter(q.tolist()) == Counter({i: c for i, c in enumerate(counts.tolist()) if c})
    assert Counter(xp.host(m.retrieve_all()).tolist()) == model


def test_set_full_and_reserved(xp):
    s = gcol.Set("int64", capacity=100)
    with pytest.raises(gcol.FullError):
        s.insert(xp.dev(np.arange(1000, dtype="int64")))
        s.status()
    s.clear()
    with pytest.raises(gcol.ReservedKeyError):
        s.insert(xp.dev(np.array([1, -1, 2], dtype="int64")))
        s.status()
    with pytest.raises(gcol.InvalidArgumentError):
        s.insert(xp.dev(np.array([1, 2], dtype="int32")))


@pytest.mark.parametrize("kind", ["set", "multiset"])
def test_tables_from_the_array_librarys_pool(xp, rng, kind):
    """allocator="torch"/"cupy": the table comes from the library's own pool and works as ever."""
    keys = random_keys(rng, 20_000, "int64", distinct=5_000)
    t = (gcol.Set("int64", 64, growable=True, allocator=xp.name) if kind == "set"
         else gcol.Multiset("int64", 2 * len(keys), allocator=xp.name))
    t.insert(xp.dev(keys))
    want = set(keys.tolist()) if kind == "set" else Counter(keys.tolist())
    got = xp.host(t.retrieve_all()).tolist()
    assert (set(got) if kind == "set" else Counter(got)) == want
    t.close()
