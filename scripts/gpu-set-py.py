"""GPU smoke test of gcol.Set / gcol.Multiset with CuPy against Python models
(standalone: tests/python's conftest needs gcol.Map, whose Python config is
being reworked elsewhere). Patches the package's expected major version to
the library's when they differ (packaging work in flight)."""
import sys
from collections import Counter

sys.path.insert(0, "python")
import gcol._lib as L  # noqa: E402

L.MAJOR = 1
import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402
import gcol  # noqa: E402

rng = np.random.default_rng(7)
for kd in ["int64", "uint64", "int32", "uint32"]:
    for growable in (False, True):
        s = gcol.Set(kd, capacity=64 if growable else 200_000, growable=growable)
        model = set()
        for _ in range(3):
            keys = rng.integers(0, 60_000, 50_000).astype(kd)
            fresh = cp.asnumpy(s.insert_and_contains(cp.asarray(keys)))
            new = set(keys.tolist()) - model
            assert int(fresh.sum()) == len(new) and set(keys[fresh].tolist()) == new
            model |= new
            s.erase(cp.asarray(keys[:10_000]))
            model -= set(keys[:10_000].tolist())
            assert len(s) == len(model)
            q = rng.integers(0, 120_000, 20_000).astype(kd)
            assert (cp.asnumpy(s.contains(cp.asarray(q))) == np.array([k in model for k in q.tolist()])).all()
        assert set(cp.asnumpy(s.retrieve_all()).tolist()) == model and len(s.retrieve_all()) == len(model)
    m = gcol.Multiset(kd, capacity=100_000)
    keys = rng.integers(0, 10_000, 40_000).astype(kd)
    m.insert(cp.asarray(keys))
    model = Counter(keys.tolist())
    q = rng.integers(0, 20_000, 5_000).astype(kd)
    counts = cp.asnumpy(m.count(cp.asarray(q)))
    assert (counts == np.array([model[k] for k in q.tolist()])).all()
    assert (cp.asnumpy(m.contains(cp.asarray(q))) == (counts > 0)).all()
    qi = cp.asnumpy(m.retrieve(cp.asarray(q)))
    assert Counter(qi.tolist()) == Counter({i: c for i, c in enumerate(counts.tolist()) if c})
    assert Counter(cp.asnumpy(m.retrieve_all()).tolist()) == model
s = gcol.Set("int64", capacity=100)
s.insert(cp.arange(1000, dtype=cp.int64))
try:
    s.status()
    raise SystemExit("no FullError")
except gcol.FullError:
    pass
print("python set/multiset smoke: passed")
