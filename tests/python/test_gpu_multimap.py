"""GPU: gcol.Multimap (three engines) against a model, with CuPy and PyTorch."""
import collections

import numpy as np
import pytest

import gcol


@pytest.mark.parametrize("engine", ["open", "chained", "chained_lockfree"])
def test_count_retrieve_and_retrieve_all_against_a_model(xp, rng, engine):
    n = 100_000
    keys = rng.integers(0, 20_000, n).astype(np.int64)
    values = np.arange(n, dtype=np.int64)
    mm = gcol.Multimap("int64", "int64", capacity=2 * n, engine=engine)
    mm.insert(xp.dev(keys), xp.dev(values))
    assert len(mm) == n

    by_key = collections.defaultdict(list)
    for k, v in zip(keys.tolist(), values.tolist()):
        by_key[k].append(v)
    queries = np.concatenate([rng.choice(keys, 500), np.arange(30_000, 30_100)]).astype(np.int64)
    counts = mm.count(xp.dev(queries))
    assert xp.is_native(counts)
    np.testing.assert_array_equal(xp.host(counts), [len(by_key.get(q, ())) for q in queries.tolist()])

    got_values, query_index = mm.retrieve(xp.dev(queries))
    got = sorted(zip(xp.host(query_index).tolist(), xp.host(got_values).tolist()))
    assert got == sorted((i, v) for i, q in enumerate(queries.tolist()) for v in by_key.get(q, ()))

    all_keys, all_values = mm.retrieve_all()
    assert sorted(zip(xp.host(all_keys).tolist(), xp.host(all_values).tolist())) == sorted(
        zip(keys.tolist(), values.tolist()))
    mm.clear()
    assert len(mm) == 0


def test_a_full_chained_pool_raises(xp):
    mm = gcol.Multimap("int32", "int32", capacity=100, engine="chained")
    keys = xp.dev(np.arange(300, dtype=np.int32) % 7)
    mm.insert(keys, keys)
    with pytest.raises(gcol.FullError):
        mm.status()
    assert len(mm) == mm.capacity
