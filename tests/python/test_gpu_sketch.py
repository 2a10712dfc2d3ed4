"""GPU: gcol.BloomFilter and gcol.HyperLogLog with CuPy and PyTorch arrays:
no false negatives, FPR near the formula, merge, estimates within 3
standard errors, byte round trips, approx_distinct."""
import math

import numpy as np
import pytest

import gcol


def distinct(rng, n, dtype, lo=0):
    return (lo + rng.choice(2**31 - 2, size=n, replace=False)).astype(dtype)


@pytest.mark.parametrize("kd", ["uint32", "int64"])
def test_bloom_no_false_negatives_and_fpr_near_formula(xp, rng, kd):
    n, q = 100_000, 200_000
    keys = distinct(rng, n + q, kd)
    f = gcol.BloomFilter(kd, size_bytes=int(n * 10.5 / 8))
    f.add(xp.dev(keys[:n]))
    assert xp.host(f.contains(xp.dev(keys[:n]))).all()
    measured = xp.host(f.contains(xp.dev(keys[n:]))).mean()
    want = f.expected_fpr(n)
    assert abs(measured - want) < 6 * math.sqrt(want / q) + 0.05 * want
    assert f.bits == 8 * f.size_bytes


def test_bloom_merge_intersect_clear(xp, rng):
    a = gcol.BloomFilter("uint64", expected_keys=10_000, fpr=0.01, seed=5)
    b = gcol.BloomFilter("uint64", expected_keys=10_000, fpr=0.01, seed=5)
    k1, k2 = distinct(rng, 5000, "uint64"), distinct(rng, 5000, "uint64", lo=2**40)
    a.add(xp.dev(k1))
    b.add(xp.dev(k2))
    both = np.concatenate([k1, k2])
    a.merge(b)
    assert xp.host(a.contains(xp.dev(both))).all()
    b.intersect(a)
    assert xp.host(b.contains(xp.dev(k2))).all()
    other = gcol.BloomFilter("uint64", expected_keys=10_000, fpr=0.01, seed=6)
    with pytest.raises(gcol.InvalidArgumentError):
        a.merge(other)
    a.clear()
    assert not xp.host(a.contains(xp.dev(both))).any()


@pytest.mark.parametrize("dtype", ["int32", "uint64", "float64"])
def test_hll_estimate_and_bytes(xp, rng, dtype):
    n, p = 300_000, 14
    x = distinct(rng, n, "int64").astype(dtype)
    h = gcol.HyperLogLog(p)
    h.add(xp.dev(np.concatenate([x, x[: n // 3]])))  # duplicates count once
    e = h.estimate()
    assert abs(e - n) / n < 3 * 1.04 / math.sqrt(2**p)
    data = h.to_bytes()
    assert len(data) == 16 + 2**p and data[:4] == b"GHLL"
    g = gcol.HyperLogLog.from_bytes(data)
    assert g.precision == p and g.estimate() == e
    g.merge_bytes(data)
    assert g.estimate() == e
    with pytest.raises(gcol.InvalidArgumentError):
        g.merge_bytes(data[:-1])


def test_hll_merge_and_approx_distinct(xp, rng):
    x = distinct(rng, 400_000, "uint64")
    a, b = gcol.HyperLogLog(16), gcol.HyperLogLog(16)
    a.add(xp.dev(x[:250_000]))
    b.add(xp.dev(x[150_000:]))
    a.merge(b)
    assert abs(a.estimate() - 400_000) / 400_000 < 3 * 1.04 / 256
    with pytest.raises(gcol.InvalidArgumentError):
        a.merge(gcol.HyperLogLog(15))
    est = gcol.approx_distinct(xp.dev(x), precision=18)
    assert abs(est - 400_000) / 400_000 < 3 * 1.04 / 512
