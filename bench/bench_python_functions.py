"""Issue 26's table (run by bench_python.py): gcol's functions against
PyTorch, CuPy and pandas on the same inputs in the same run.

100M int64 keys (random 63-bit values, G distinct), float32 values:
  group-by sum     PyTorch torch.unique(return_inverse) + index_add_   targets 4x (1M groups), 3x (10M)
  unique           torch.unique                                        2x (1M distinct), 1.3x (10M)
  unique + counts  torch.unique(return_counts=True)                    2x, 1.3x
  isin             cupy.isin, 100M against 1M                          3x
  inner join       pandas merge on the CPU, 10M x 10M rows             50x
Each time: the median of whole calls (result made, device synchronized), after
one warm-up; pandas: the median of 2. Ratio = other / gcol.
"""
import statistics
import time

import gcol

ODD = 0x5851F42D4C957F2D
MASK = 2**63 - 1


def _torch():
    import torch
    return torch


def timed_ms(fn, reps=5, warm=1):
    torch = _torch()
    for _ in range(warm):
        fn()
    times = []
    for _ in range(reps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def scrambled(ids):
    """Distinct ids as distinct random-looking 63-bit keys."""
    return (ids * ODD) & MASK


def copy_bandwidth_gbs(n):
    torch = _torch()
    a = torch.empty(n, dtype=torch.int64, device="cuda")
    b = torch.empty_like(a)
    ms = timed_ms(lambda: b.copy_(a), reps=10)
    return 2 * 8 * n / (ms * 1e-3) / 1e9


ROWS = []


def row(task, other_name, other_ms, gcol_ms, target):
    ratio = other_ms / gcol_ms
    ROWS.append("| %s | %s %.2f ms | %.2f ms | %.2fx | >= %gx %s |"
                % (task, other_name, other_ms, gcol_ms, ratio, target, "met" if ratio >= target else "MISSED"))
    print(ROWS[-1], flush=True)


def groupby_and_unique(n, groups, targets, sweep):
    torch = _torch()
    keys = scrambled(torch.randint(0, groups, (n,), device="cuda"))
    values = torch.rand(n, device="cuda")

    def torch_groupby():
        uniq, inverse = torch.unique(keys, return_inverse=True)
        return uniq, torch.zeros(uniq.numel(), device="cuda").index_add_(0, inverse, values)

    got_keys, got_sums = gcol.groupby_reduce(keys, values, op="sum")
    want_keys, want_sums = torch_groupby()
    assert got_keys.numel() == want_keys.numel(), (got_keys.numel(), want_keys.numel())
    assert torch.allclose(got_sums.sum(), want_sums.sum(), rtol=1e-3)
    label = "%dM" % (groups // 10**6)
    row("group-by sum, %s groups" % label, "PyTorch", timed_ms(torch_groupby),
        timed_ms(lambda: gcol.groupby_reduce(keys, values, op="sum")), targets[0])
    assert gcol.unique(keys).numel() == want_keys.numel()
    row("unique, %s distinct" % label, "torch.unique", timed_ms(lambda: torch.unique(keys)),
        timed_ms(lambda: gcol.unique(keys)), targets[1])
    counts = gcol.unique(keys, return_counts=True)[1]
    assert int(counts.sum()) == n
    row("unique + counts, %s distinct" % label, "torch.unique", timed_ms(lambda: torch.unique(keys, return_counts=True)),
        timed_ms(lambda: gcol.unique(keys, return_counts=True)), targets[1])
    if sweep:
        from gcol import _keys
        saved = _keys.LOAD
        for load in (0.35, 0.5, 0.7):
            _keys.LOAD = load
            print("  sweep %s: load %.2f: group-by sum %.2f ms, unique %.2f ms, counts %.2f ms" % (
                label, load, timed_ms(lambda: gcol.groupby_reduce(keys, values, op="sum")),
                timed_ms(lambda: gcol.unique(keys)), timed_ms(lambda: gcol.unique(keys, return_counts=True))))
        _keys.LOAD = saved
        k = _keys.Keys([(keys, "keys")])
        s = torch.cuda.current_stream()
        print("  sweep %s: the size estimate alone %.3f ms (capacity %d)" % (
            label, timed_ms(lambda: k.estimate_capacity(0, s)), k.estimate_capacity(0, s)))
        for allocator in (None, "torch"):
            def known_capacity():  # the "gcol today": a Map sized for the groups, by hand
                with gcol.Map("int64", "float32", capacity=2 * groups, allocator=allocator) as m:
                    m.insert_or_apply(keys, values, gcol.ADD)
                    return m.retrieve_all()

            def create():
                gcol.Map("int64", "float32", capacity=2 * groups, stream=s, allocator=allocator).close()
            print("  sweep %s: gcol.Map by hand (capacity 2 x groups, allocator %s) %.2f ms; create + destroy "
                  "alone %.3f ms" % (label, allocator, timed_ms(known_capacity), timed_ms(create)))
        with gcol.Map("int64", "float32", capacity=2 * groups, allocator="torch", stream=s) as m:
            clear = timed_ms(lambda: m.clear())
            apply = timed_ms(lambda: (m.clear(), m.insert_or_apply(keys, values, gcol.ADD)))
            m.insert_or_apply(keys, values, gcol.ADD)
            retrieve = timed_ms(lambda: m.retrieve_all())
        with gcol.Map("int64", "int64", capacity=2 * groups, allocator="torch", stream=s) as m:
            insert = timed_ms(lambda: (m.clear(), m.insert(keys, keys)))
            m.insert(keys, keys)
            find = timed_ms(lambda: m.find(keys))
        print("  sweep %s: kernels alone: insert_or_apply %.2f ms, insert %.2f ms, find %.2f ms, retrieve_all "
              "%.3f ms, clear %.3f ms" % (label, apply - clear, insert - clear, find, retrieve, clear))
    del keys, values
    torch.cuda.empty_cache()


def isin(n, m):
    torch = _torch()
    import cupy
    x = scrambled(torch.randint(0, 2 * m, (n,), device="cuda"))
    test = scrambled(torch.randperm(2 * m, device="cuda")[:m])
    xc, tc = cupy.from_dlpack(x), cupy.from_dlpack(test)
    got = gcol.isin(xc, tc)
    assert bool((got == cupy.isin(xc, tc)).all())
    row("isin, %dM against %dM" % (n // 10**6, m // 10**6), "cupy.isin", timed_ms(lambda: cupy.isin(xc, tc)),
        timed_ms(lambda: gcol.isin(xc, tc)), 3)
    print("  (torch.isin on the same keys: %.2f ms)" % timed_ms(lambda: torch.isin(x, test)))
    del x, test, xc, tc, got
    cupy.get_default_memory_pool().free_all_blocks()
    torch.cuda.empty_cache()


def join(rows):
    torch = _torch()
    import numpy as np
    import pandas as pd
    left = torch.randint(0, rows, (rows,), device="cuda")
    right = torch.randint(0, rows, (rows,), device="cuda")
    lf = pd.DataFrame({"k": left.cpu().numpy(), "li": np.arange(rows)})
    rf = pd.DataFrame({"k": right.cpu().numpy(), "ri": np.arange(rows)})
    li, ri = gcol.join(left, right)
    times = []
    for _ in range(2):
        t0 = time.perf_counter()
        merged = pd.merge(lf, rf, on="k", how="inner")
        times.append((time.perf_counter() - t0) * 1e3)
    assert len(merged) == li.numel(), (len(merged), li.numel())
    assert bool((left[li] == right[ri]).all())
    row("inner join, %dM x %dM rows (%d pairs)" % (rows // 10**6, rows // 10**6, li.numel()), "pandas merge (CPU)",
        statistics.median(times), timed_ms(lambda: gcol.join(left, right)), 50)


def main(n, sweep=False):
    try:
        torch = _torch()
    except ImportError:
        print("functions: PyTorch is not installed, skipped")
        return
    torch.manual_seed(0)
    print("functions: %s keys; device-to-device copy %.0f GB/s (read + write); PyTorch %s"
          % (format(n, ","), copy_bandwidth_gbs(n), torch.__version__), flush=True)
    print()
    print("| task | other | gcol | ratio (other / gcol) | target |")
    print("|---|---|---|---|---|")
    groupby_and_unique(n, 1_000_000, (4, 2), sweep)
    groupby_and_unique(n, 10_000_000, (3, 1.3), sweep)
    try:
        isin(n, 1_000_000)
    except ImportError:
        print("| isin | CuPy is not installed: skipped | | | |")
    try:
        join(n // 10)
    except ImportError:
        print("| inner join | pandas is not installed: skipped | | | |")
    print()
    print("\n".join(["| task | other | gcol | ratio (other / gcol) | target |", "|---|---|---|---|---|"] + ROWS))
