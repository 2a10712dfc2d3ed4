"""GPU benchmark mode (GCOL_PY_BENCH=1): the issue's speed targets, measured by
bench/bench_python.py. Skipped otherwise: timings are not tests of a normal run.
GCOL_BENCH_N sets the insert's keys (default 100M)."""
import os
import pathlib
import sys

import pytest

pytestmark = pytest.mark.skipif(os.environ.get("GCOL_PY_BENCH") != "1",
                                reason="benchmark mode is off (GCOL_PY_BENCH=1 turns it on)")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))


def test_python_overhead_per_call_is_under_20us(xp):
    import bench_python
    r = bench_python.overhead(xp.name, calls=5000)
    print(xp.name, r)
    assert r["overhead"] < 20


def test_big_insert_through_python_is_within_3_percent_of_the_c_call(xp):
    import bench_python
    r = bench_python.insert(xp.name, int(os.environ.get("GCOL_BENCH_N", 100_000_000)))
    bench_python.arrays(xp.name).release()
    print(xp.name, r)
    assert r["difference"] <= 0.03
