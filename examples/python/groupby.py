#!/usr/bin/env python3
"""Group-by-sum of 10M rows on the GPU with gcol: one Map.insert_or_apply(ADD)
call, then retrieve_all. Uses CuPy if installed, else PyTorch; prints a few
groups and the time. Without a GPU it says so and exits 0.

  PYTHONPATH=python GCOL_LIBRARY=build/libgcol.so python3 examples/python/groupby.py
  (or after `pip install ./python` and `make install`: python3 examples/python/groupby.py)
"""
import sys
import time
from typing import Any, Tuple

import gcol

ROWS, GROUPS = 10_000_000, 100_000


def random_rows(n: int, groups: int) -> Tuple[Any, Any, Any]:
    """(group keys int64, values float64) on the GPU, with CuPy or PyTorch."""
    try:
        import cupy  # type: ignore[import-not-found, unused-ignore]
        return cupy.random.randint(0, groups, n, dtype=cupy.int64), cupy.random.random(n), cupy
    except ImportError:
        import torch  # type: ignore[import-not-found, unused-ignore]
        keys = torch.randint(0, groups, (n,), dtype=torch.int64, device="cuda")
        return keys, torch.rand(n, dtype=torch.float64, device="cuda"), torch


def main() -> int:
    try:
        sums = gcol.Map("int64", "float64", capacity=2 * GROUPS)
    except gcol.NoDeviceError as e:
        print("no CUDA device: this example needs an NVIDIA GPU (%s)" % e)
        return 0
    try:
        keys, values, lib = random_rows(ROWS, GROUPS)
    except ImportError:
        print("this example needs CuPy or PyTorch")
        return 0

    sums.insert_or_apply(keys[:1000], values[:1000], gcol.ADD)  # loads the kernel: not timed
    sums.clear()
    len(sums)  # waits for the stream: the rows are ready
    start = time.perf_counter()
    sums.insert_or_apply(keys, values, gcol.ADD)  # sum of values per key
    group_keys, group_sums = sums.retrieve_all()  # waits for the GPU
    seconds = time.perf_counter() - start

    print("group-by-sum of %d rows (%s): %d groups in %.2f ms" % (ROWS, lib.__name__, len(group_keys),
                                                                  1000 * seconds))
    first = group_keys.argsort()[:5]  # the smallest keys (CuPy and PyTorch both sort so)
    for k, s in zip(group_keys[first].tolist(), group_sums[first].tolist()):
        print("  key %6d: sum %.3f" % (k, s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
