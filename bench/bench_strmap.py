"""Dictionary encoding and value_counts of a string column: gcol on the GPU
against pyarrow.compute on this box's CPU, same column, same run (issue 25:
>= 100x pyarrow.compute.dictionary_encode). 20M rows, 2M distinct, 12.5 bytes
on average, random order, seeded. Prints met/MISSED.
   GCOL_LIBRARY=build/libgcol.so PYTHONPATH=python python3 bench/bench_strmap.py"""
import os
import time

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

N = int(os.environ.get("GCOL_BENCH_STR_N", 20_000_000))
D = N // 10


def column(n, d, seed=25):
    rng = np.random.default_rng(seed)
    lens = rng.integers(5, 21, size=d)                      # 5..20 bytes: 12.5 on average
    body = rng.integers(ord("a"), ord("z") + 1, size=(d, 20), dtype=np.uint8)
    k = np.arange(d)
    for j in range(5):                                      # k in base 26: unique prefixes
        body[:, j] = ord("a") + (k // 26**j) % 26
    pick = np.concatenate([k, rng.integers(0, d, size=n - d)])
    rng.shuffle(pick)
    rl = lens[pick]
    off = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(rl, out=off[1:])
    start = pick.astype(np.int64) * 20
    idx = np.repeat(start - off[:-1], rl) + np.arange(off[-1], dtype=np.int64)
    chars = body.reshape(-1)[idx]
    return off, chars


def timed(f, reps):
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        r = f()
        ts.append(time.perf_counter() - t)
    return sorted(ts)[len(ts) // 2] * 1e3, r


def main():
    t0 = time.perf_counter()
    off, chars = column(N, D)
    arr = pa.StringArray.from_buffers(N, pa.py_buffer(off), pa.py_buffer(chars))
    print("column: %d rows, %d distinct, %.2f bytes on average (%.1f s to make)"
          % (N, D, off[-1] / N, time.perf_counter() - t0))
    cpu_enc, want = timed(lambda: pc.dictionary_encode(arr), 1)
    cpu_vc, _ = timed(lambda: pc.value_counts(arr), 1)
    print("pyarrow %s on %d CPU cores: dictionary_encode %.0f ms, value_counts %.0f ms"
          % (pa.__version__, os.cpu_count(), cpu_enc, cpu_vc))
    import cupy
    import gcol
    d_off, d_chars = cupy.asarray(off), cupy.asarray(chars)
    sync = cupy.cuda.get_current_stream().synchronize

    def enc():
        r = gcol.dictionary_encode(d_off, d_chars)
        sync()
        return r

    def vc():
        r = gcol.value_counts(d_off, d_chars)
        sync()
        return r

    enc()
    gpu_enc, (ids, do, dc) = timed(enc, 5)
    vc()
    gpu_vc, (vo, vch, cnt) = timed(vc, 5)
    same = (np.array_equal(ids.get(), want.indices.to_numpy())
            and gcol.strings_to_arrow(do, dc).equals(want.dictionary))
    print("gcol dictionary_encode %.2f ms (%.0fx pyarrow: %s; <= 38 ms: %s), same dictionary and ids as pyarrow: %s"
          % (gpu_enc, cpu_enc / gpu_enc, "met" if cpu_enc / gpu_enc >= 100 else "MISSED",
             "met" if gpu_enc <= 38 else "MISSED", same))
    print("gcol value_counts %.2f ms (%.0fx pyarrow: %s), %d distinct, counts sum %d"
          % (gpu_vc, cpu_vc / gpu_vc, "met" if cpu_vc / gpu_vc >= 100 else "MISSED", int(vo.shape[0] - 1),
             int(cnt.sum())))


if __name__ == "__main__":
    main()
