#!/usr/bin/env python3
"""What the Python binding costs, and what its functions give.

Part "binding" (issue 9): per-call overhead of a tiny call (find of one key)
and the time of a 100M-key insert, through gcol.Map and through the same C
function called directly with ctypes, for CuPy and PyTorch arrays. Targets:
Python overhead per call under 20 us; the insert within 3% of the C call.

Part "functions" (issue 26): gcol.groupby_reduce, unique, isin and join on
100M int64 keys against PyTorch, CuPy and pandas, same run, same inputs, each
time the median wall time of whole calls (results made, stream synchronized).

  make bench-python      (GCOL_BENCH_PART: binding, functions or all (default);
                          GCOL_BENCH_N: keys, default 100M;
                          GCOL_BENCH_CALLS: tiny calls timed, default 20000;
                          GCOL_BENCH_SWEEP=1: also gcol at other map loads)
Needs a GPU; without one it says so and exits 0. With GCOL_LIBRARY set (as
make does) it uses this tree's python/gcol, else the installed gcol.
"""
import os
import statistics
import sys
import time

if os.environ.get("GCOL_LIBRARY"):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import gcol  # noqa: E402
from gcol import _arrays, _lib  # noqa: E402

ODD = 0x5851F42D4C957F2D  # x -> x * ODD mod 2^63 is one-to-one: unique keys, never a sentinel
MASK = 2**63 - 1


class CupyArrays:
    def __init__(self):
        import cupy
        self.m = cupy

    def unique_keys(self, n):
        i = self.m.arange(n, dtype=self.m.int64)
        return (i * ODD) & MASK, i

    def sync(self):
        self.m.cuda.get_current_stream().synchronize()

    def time_ms(self, fn):
        """GPU time from before fn is called to after its work, on the current stream."""
        start, end = self.m.cuda.Event(), self.m.cuda.Event()
        start.record()
        fn()
        end.record()
        end.synchronize()
        return self.m.cuda.get_elapsed_time(start, end)

    def device_name(self):
        return self.m.cuda.runtime.getDeviceProperties(self.m.cuda.Device().id)["name"].decode()

    def release(self):
        self.m.get_default_memory_pool().free_all_blocks()


class TorchArrays:
    def __init__(self):
        import torch
        self.m = torch

    def unique_keys(self, n):
        i = self.m.arange(n, dtype=self.m.int64, device="cuda")
        return (i * ODD) & MASK, i

    def sync(self):
        self.m.cuda.current_stream().synchronize()

    def time_ms(self, fn):
        start, end = self.m.cuda.Event(enable_timing=True), self.m.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end)

    def device_name(self):
        return self.m.cuda.get_device_name()

    def release(self):
        self.m.cuda.empty_cache()


def arrays(name):
    return {"cupy": CupyArrays, "torch": TorchArrays}[name]()


def _median_call_us(fn, calls, sync):
    """Median host time of one call; the stream is drained every 64 calls so
    that a full launch queue never blocks the timed calls."""
    for _ in range(200):
        fn()
    sync()
    times = []
    for i in range(calls):
        t0 = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - t0)
        if i % 64 == 63:
            sync()
    sync()
    return statistics.median(times) / 1000


def overhead(name, calls=20000):
    """Per-call host times (us) of find of one key: through gcol.Map (with out=
    and allocating), through ctypes directly, and ctypes' own dispatch."""
    a = arrays(name)
    keys, values = a.unique_keys(1)
    out = keys.copy() if hasattr(keys, "copy") else keys.clone()
    with gcol.Map("int64", "int64", capacity=1024) as m:
        m.insert(keys, values)
        f = _lib.functions()
        k, o = _arrays.view(keys), _arrays.view(out)
        s = _arrays.stream_handle(k.lib.stream(k))
        r = {
            "python_out": _median_call_us(lambda: m.find(keys, out=out), calls, a.sync),
            "python_alloc": _median_call_us(lambda: m.find(keys), calls, a.sync),
            "ctypes_find": _median_call_us(lambda: f.map_find(m._h, k.ptr, 1, o.ptr, s), calls, a.sync),
            "ctypes_trivial": _median_call_us(lambda: f.type_size(3), calls, a.sync),
        }
    # the C function's own host cost is ctypes_find less ctypes' dispatch; the
    # rest of a gcol.Map call is the Python layer's (ctypes dispatch included)
    r["overhead"] = r["python_out"] - (r["ctypes_find"] - r["ctypes_trivial"])
    return r


def insert(name, n, reps=5):
    """Median GPU-timed ms of inserting n unique i64/i64 pairs at load 0.5,
    through gcol.Map.insert and through ctypes gcol_map_insert."""
    a = arrays(name)
    keys, values = a.unique_keys(n)
    r = {}
    with gcol.Map("int64", "int64", capacity=2 * n) as m:
        f = _lib.functions()
        k, v = _arrays.view(keys), _arrays.view(values)
        s = _arrays.stream_handle(k.lib.stream(k))
        variants = {"python": lambda: m.insert(keys, values),
                    "ctypes": lambda: f.map_insert(m._h, k.ptr, v.ptr, n, None, s)}
        for variant, fn in variants.items():
            times = []
            for _ in range(reps):
                m.clear()
                a.sync()
                times.append(a.time_ms(fn))
                assert len(m) == n, "insert lost keys"
            r[variant] = statistics.median(times)
    r["difference"] = r["python"] / r["ctypes"] - 1
    return r


def binding_tables(names, n, calls):
    print("| library | find of 1 key: gcol.Map (out=) | (allocating) | ctypes direct | ctypes dispatch "
          "| Python overhead (target < 20 us) |")
    print("|---|---|---|---|---|---|")
    for name in names:
        r = overhead(name, calls)
        print("| %s | %.2f us | %.2f us | %.2f us | %.2f us | %.2f us %s |" % (
            name, r["python_out"], r["python_alloc"], r["ctypes_find"], r["ctypes_trivial"], r["overhead"],
            "met" if r["overhead"] < 20 else "MISSED"))
    print()
    print("| library | insert %s i64/i64, load 0.5: gcol.Map | ctypes direct "
          "| difference (target within 3%%) |" % format(n, ","))
    print("|---|---|---|---|")
    for name in names:
        r = insert(name, n)
        arrays(name).release()  # the keys and the table of this run are garbage now
        verdict = "met" if r["difference"] <= 0.03 else "MISSED"
        print("| %s | %.2f ms | %.2f ms | %+.2f%% %s |"
              % (name, r["python"], r["ctypes"], 100 * r["difference"], verdict))


def main():
    try:
        gcol.Map("int32", "int32", 1).close()
    except gcol.NoDeviceError as e:
        print("no CUDA device: the Python benchmark needs a GPU (%s)" % e)
        return 0
    names = []
    for name in ("cupy", "torch"):
        try:
            arrays(name)
            names.append(name)
        except ImportError:
            print("%s: not installed, skipped" % name)
    if not names:
        print("neither CuPy nor PyTorch is installed: nothing to measure")
        return 0
    n = int(os.environ.get("GCOL_BENCH_N", 100_000_000))
    calls = int(os.environ.get("GCOL_BENCH_CALLS", 20000))
    part = os.environ.get("GCOL_BENCH_PART", "all")
    print("gcol Python, GPU: %s, libgcol: %s" % (arrays(names[0]).device_name(), gcol.library_path()))
    print()
    if part in ("binding", "all"):
        binding_tables(names, n, calls)
        print()
    if part in ("functions", "all"):
        import bench_python_functions
        bench_python_functions.main(n, os.environ.get("GCOL_BENCH_SWEEP") == "1")
    return 0


if __name__ == "__main__":
    sys.exit(main())
