/* Device-API benchmark (issue 7): insert and find of 100M i64->i64 pairs at
 * load 0.5 (GCOL_BENCH_N overrides n) from user-style kernels through
 * gcol::map_mutable_view / gcol::map_view, with (a) one key per tile (every
 * thread of the tile loads the key and hashes it) and (b) bulk tile calls
 * (each thread loads and hashes its own key once; W keys per call, one call
 * per tile over a contiguous share, or one key per thread in a grid-stride
 * loop), tiles of 1 to 32 threads,
 * next to the host bulk API. Targets: bulk >= 1.05x per-key at the best tile
 * size, and bulk within 3% of the host API. Median of 5 runs. The views are
 * typed with the map's bucket width (gcol::with_bucket_chunks), as the
 * header recommends; one row repeats tile 4 with the width read at run time.
 * Last, the floors: what a find or insert costs that touches only the key's
 * first bucket (floor_kernel), against which the best of each form is shown. */
#include <stdio.h>
#include <stdlib.h>
#include <cooperative_groups.h>
#include "bench_common.h"
#include "gcol/gcol.h"
#include "gcol/device/map.cuh"

namespace cg = cooperative_groups;
template <int C>
using mview_t = gcol::map_mutable_view<int64_t, int64_t, C>;
template <int C>
using view_t = gcol::map_view<int64_t, int64_t, C>;

#define REPS 5
#define BLOCK 256
/* The bulk insert kernels ask for 6 resident blocks per SM (40 registers),
 * as the library's own upsert kernels do: with views typed to the bucket
 * width that spills a little and still wins (H100: 9.35 -> 9.60 G/s at tile
 * 32); with run-time-width views it spills 80-136 bytes and loses. */
#define INSERT_MIN_BLOCKS 6
static bench_gpu_t gpu;
static bench_timer_t timer;
static cudaStream_t stream;

/* (a) one key per tile, grid-stride over keys */
template <int C, int W>
__global__ void __launch_bounds__(BLOCK) insert_per_key(mview_t<C> m, const int64_t *keys, const int64_t *vals, size_t n) {
  auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  const size_t tiles = (size_t)gridDim.x * BLOCK / W;
  for (size_t i = ((size_t)blockIdx.x * BLOCK + threadIdx.x) / W; i < n; i += tiles) m.insert(tile, keys[i], vals[i]);
}
template <int C, int W>
__global__ void __launch_bounds__(BLOCK) find_per_key(view_t<C> m, const int64_t *keys, size_t n, int64_t *out) {
  auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  const size_t tiles = (size_t)gridDim.x * BLOCK / W;
  for (size_t i = ((size_t)blockIdx.x * BLOCK + threadIdx.x) / W; i < n; i += tiles) {
    int64_t v = m.empty_value();
    m.find(tile, keys[i], &v);
    if (tile.thread_rank() == 0) out[i] = v;
  }
}

/* The ranges a tile takes for the bulk calls: (b) W keys per call,
 * grid-stride, so a warp reads 32 consecutive keys per step; or (c) one call
 * over a contiguous share of the keys, so the tile's count is added to the
 * map's size once. */
template <int W, bool SHARE, class F>
__device__ __forceinline__ void for_tile_ranges(size_t n, F f) {
  const size_t t = ((size_t)blockIdx.x * BLOCK + threadIdx.x) / W, tiles = (size_t)gridDim.x * BLOCK / W;
  const size_t len = SHARE ? (n + tiles - 1) / tiles : W, stride = SHARE ? n : tiles * W;
  for (size_t first = t * len; first < n; first += stride) f(first, first + len < n ? first + len : n);
}
template <int C, int W, bool SHARE>
__global__ void __launch_bounds__(BLOCK, INSERT_MIN_BLOCKS) insert_bulk(mview_t<C> m, const int64_t *keys, const int64_t *vals, size_t n) {
  auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  for_tile_ranges<W, SHARE>(n, [&](size_t a, size_t b) { m.insert(tile, keys + a, keys + b, vals + a); });
}
template <int C, int W, bool SHARE>
__global__ void __launch_bounds__(BLOCK) find_bulk(view_t<C> m, const int64_t *keys, size_t n, int64_t *out) {
  auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  for_tile_ranges<W, SHARE>(n, [&](size_t a, size_t b) { m.find(tile, keys + a, keys + b, out + a); });
}

/* (d) one key per thread (insert_each / find_each) in a grid-stride loop
 * that whole warps run, as the library's own kernels: the keys are in
 * registers already, so there is no range to walk. */
template <class F>
__device__ __forceinline__ void for_each_key(size_t n, F f) {
  const size_t stride = (size_t)gridDim.x * BLOCK;
  for (size_t base = ((size_t)blockIdx.x * BLOCK + threadIdx.x) & ~(size_t)31; base < n; base += stride) {
    const size_t i = base + (threadIdx.x & 31);
    f(i < n, i);
  }
}
template <int C, int W>
__global__ void __launch_bounds__(BLOCK, INSERT_MIN_BLOCKS) insert_each(mview_t<C> m, const int64_t *keys, const int64_t *vals, size_t n) {
  auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  for_each_key(n, [&](bool active, size_t i) { m.insert_each(tile, active, active ? keys[i] : 0, active ? vals[i] : 0); });
}
template <int C, int W>
__global__ void __launch_bounds__(BLOCK) find_each(view_t<C> m, const int64_t *keys, size_t n, int64_t *out) {
  auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  for_each_key(n, [&](bool active, size_t i) {
    int64_t v = m.empty_value();
    m.find_each(tile, active, active ? keys[i] : 0, &v);
    if (active) out[i] = v;
  });
}

/* The floors of find and insert: per key, load the key, hash it and read its
 * first bucket (the map's own table and bucket count; C 16-byte chunks, a tile
 * of W lanes reading C / W each); a find then writes 8 bytes, an insert loads
 * its value and makes one CAS on the bucket's first key word (one that never
 * succeeds: it compares with the erased key, which this bench never writes).
 * A find or insert that ends in its first bucket does at least this. */
template <int C, int W, bool INSERT>
__global__ void __launch_bounds__(BLOCK) floor_kernel(gcol_map_view_t v, const int64_t *keys, const int64_t *vals,
                                                      size_t n, int64_t *out) {
  auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  const size_t tiles = (size_t)gridDim.x * BLOCK / W;
  ulonglong2 *slots = static_cast<ulonglong2 *>(v.slots);
  for (size_t i = ((size_t)blockIdx.x * BLOCK + threadIdx.x) / W; i < n; i += tiles) {
    uint64_t h = gcol::hash64((uint64_t)keys[i], v.seed);
    ulonglong2 *b = slots + (size_t)__umulhi((uint32_t)h, v.num_buckets) * C;
    unsigned long long x = 0;
#pragma unroll
    for (int c = 0; c < C / W; ++c) {
      ulonglong2 q = INSERT ? __ldcg(b + tile.thread_rank() * (C / W) + c) : __ldg(b + tile.thread_rank() * (C / W) + c);
      x ^= q.x ^ q.y;
    }
    for (int o = W / 2; o > 0; o >>= 1) x ^= tile.shfl_xor(x, o);
    if (tile.thread_rank() == 0) {
      if (INSERT) atomicCAS(&b->x, (unsigned long long)v.erased_key, x ^ (unsigned long long)vals[i]);
      else out[i] = (int64_t)x;
    }
  }
}

template <class K>
static unsigned grid_of(K kernel) {
  return bench_full_grid(&gpu, (const void *)kernel, BLOCK);
}

struct times {
  double insert, find;
};

/* Median insert (into the cleared map) and find times of one variant;
 * kind 0: host API, 1: per-key, 2: bulk (W keys per call), 3: bulk (a range
 * per tile), 4: bulk (one key per thread). */
template <int C, int W>
static times run(gcol_map_t *m, int kind, const int64_t *keys, const int64_t *vals, int64_t *out, size_t n) {
  double ins[REPS], fnd[REPS];
  for (int r = 0; r < REPS; ++r) {
    bench_ok(gcol_map_clear(m, stream), "clear");
    gcol_map_mutable_view_t mv;
    gcol_map_view_t v;
    bench_ok(gcol_map_device_mutable_view(m, &mv), "mutable view");
    bench_ok(gcol_map_device_view(m, &v), "view");
    mview_t<C> mm(mv);
    view_t<C> vv(v);
    if (!mm.compatible()) bench_check(cudaErrorInvalidValue, "view types");
    bench_timer_start(&timer, stream);
    if (kind == 0) bench_ok(gcol_map_insert(m, keys, vals, n, NULL, stream), "insert");
    if (kind == 1) insert_per_key<C, W><<<grid_of(insert_per_key<C, W>), BLOCK, 0, stream>>>(mm, keys, vals, n);
    if (kind == 2) insert_bulk<C, W, false><<<grid_of(insert_bulk<C, W, false>), BLOCK, 0, stream>>>(mm, keys, vals, n);
    if (kind == 3) insert_bulk<C, W, true><<<grid_of(insert_bulk<C, W, true>), BLOCK, 0, stream>>>(mm, keys, vals, n);
    if (kind == 4) insert_each<C, W><<<grid_of(insert_each<C, W>), BLOCK, 0, stream>>>(mm, keys, vals, n);
    ins[r] = bench_timer_stop_ms(&timer, stream);
    BENCH_CUDA(cudaGetLastError());
    bench_timer_start(&timer, stream);
    if (kind == 0) bench_ok(gcol_map_find(m, keys, n, out, stream), "find");
    if (kind == 1) find_per_key<C, W><<<grid_of(find_per_key<C, W>), BLOCK, 0, stream>>>(vv, keys, n, out);
    if (kind == 2) find_bulk<C, W, false><<<grid_of(find_bulk<C, W, false>), BLOCK, 0, stream>>>(vv, keys, n, out);
    if (kind == 3) find_bulk<C, W, true><<<grid_of(find_bulk<C, W, true>), BLOCK, 0, stream>>>(vv, keys, n, out);
    if (kind == 4) find_each<C, W><<<grid_of(find_each<C, W>), BLOCK, 0, stream>>>(vv, keys, n, out);
    fnd[r] = bench_timer_stop_ms(&timer, stream);
    BENCH_CUDA(cudaGetLastError());
  }
  size_t size = 0;
  bench_ok(gcol_map_size(m, &size, stream), "size");
  bench_ok(gcol_map_status(m, stream), "status");
  if (size != n) fprintf(stderr, "bench: size %zu after inserting %zu keys\n", size, n);
  /* every find returned the inserted value: spot-check the last run's output */
  int64_t got[4], want[4];
  for (int j = 0; j < 4; ++j) {
    size_t i = (size_t)j * (n / 4);
    BENCH_CUDA(cudaMemcpy(&got[j], out + i, 8, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(&want[j], vals + i, 8, cudaMemcpyDeviceToHost));
    if (got[j] != want[j]) fprintf(stderr, "bench: find %zu returned %lld, inserted %lld\n", i, (long long)got[j], (long long)want[j]);
  }
  return times{bench_median(ins, REPS), bench_median(fnd, REPS)};
}

static double gops(size_t n, double ms) { return (double)n / (ms * 1e-3) / 1e9; }

template <int C, int W>
static void tile_row(gcol_map_t *m, const int64_t *keys, const int64_t *vals, int64_t *out, size_t n, times *best_key,
                     times *best_bulk) {
  times a = run<C, W>(m, 1, keys, vals, out, n), b = run<C, W>(m, 2, keys, vals, out, n),
        c = run<C, W>(m, 3, keys, vals, out, n), d = run<C, W>(m, 4, keys, vals, out, n);
  printf("%4d%s %11.2f %11.2f %11.2f %11.2f %11.2f %11.2f %11.2f %11.2f\n", W, C ? "" : " (run-time width)",
         gops(n, a.insert), gops(n, b.insert), gops(n, c.insert), gops(n, d.insert), gops(n, a.find), gops(n, b.find),
         gops(n, c.find), gops(n, d.find));
  /* b becomes the best bulk form of this tile */
  if (c.insert < b.insert) b.insert = c.insert;
  if (d.insert < b.insert) b.insert = d.insert;
  if (c.find < b.find) b.find = c.find;
  if (d.find < b.find) b.find = d.find;
  if (a.insert < best_key->insert) best_key->insert = a.insert;
  if (a.find < best_key->find) best_key->find = a.find;
  if (b.insert < best_bulk->insert) best_bulk->insert = b.insert;
  if (b.find < best_bulk->find) best_bulk->find = b.find;
}

int main(void) {
  if (bench_init(&gpu)) return 0;
  bench_timer_init(&timer);
  BENCH_CUDA(cudaStreamCreate(&stream));
  size_t n = bench_size("GCOL_BENCH_N", 100000000);
  int64_t *keys = (int64_t *)bench_unique_keys(n, 8, 1000), *vals = (int64_t *)bench_unique_keys(n, 8, 77), *out = NULL;
  BENCH_CUDA(cudaMalloc(&out, n * 8));
  gcol_map_config_t c = gcol_map_config_default(GCOL_I64, GCOL_I64);
  c.capacity = 2 * n;
  gcol_map_t *m = NULL;
  bench_ok(gcol_map_create(&m, &c, stream), "create");

  printf("\ndevice API, %zu i64->i64 pairs at load 0.5, user kernels of %d threads per block, median of %d runs\n", n,
         BLOCK, REPS);
  printf("%4s %11s %11s %11s %11s %11s %11s %11s %11s   (G ops/s; bulk: W keys per call, range: one call per "
         "tile, each: one key per thread)\n",
         "tile", "ins/key", "ins/bulk", "ins/range", "ins/each", "find/key", "find/bulk", "find/range", "find/each");
  times host = run<0, 1>(m, 0, keys, vals, out, n), key = {1e30, 1e30}, bulk = {1e30, 1e30};
  gcol_map_view_t v;
  bench_ok(gcol_map_device_view(m, &v), "view");
  gcol::with_bucket_chunks(v, [&](auto t) {
    constexpr int C = decltype(t)::value;
    tile_row<C, 1>(m, keys, vals, out, n, &key, &bulk);
    tile_row<C, 2>(m, keys, vals, out, n, &key, &bulk);
    tile_row<C, 4>(m, keys, vals, out, n, &key, &bulk);
    tile_row<C, 8>(m, keys, vals, out, n, &key, &bulk);
    tile_row<C, 16>(m, keys, vals, out, n, &key, &bulk);
    tile_row<C, 32>(m, keys, vals, out, n, &key, &bulk);
  });
  /* the floors, with every tile that divides the bucket; the best is shown */
  times floors = {1e30, 1e30};
  gcol::with_bucket_chunks(v, [&](auto t) {
    constexpr int C = decltype(t)::value;
    auto floor_of = [&](auto k, double *best) {
      double ms[REPS];
      for (int r = 0; r < REPS; ++r) {
        bench_timer_start(&timer, stream);
        k<<<grid_of(k), BLOCK, 0, stream>>>(v, keys, vals, n, out);
        ms[r] = bench_timer_stop_ms(&timer, stream);
        BENCH_CUDA(cudaGetLastError());
      }
      double m = bench_median(ms, REPS);
      if (m < *best) *best = m;
    };
    floor_of(floor_kernel<C, 1, false>, &floors.find);
    floor_of(floor_kernel<C, 1, true>, &floors.insert);
    if constexpr (C >= 2) floor_of(floor_kernel<C, 2, false>, &floors.find), floor_of(floor_kernel<C, 2, true>, &floors.insert);
    if constexpr (C >= 4) floor_of(floor_kernel<C, 4, false>, &floors.find), floor_of(floor_kernel<C, 4, true>, &floors.insert);
  });
  times unused_key = key, unused_bulk = bulk; /* the run-time-width row is shown, not ranked */
  tile_row<0, 4>(m, keys, vals, out, n, &unused_key, &unused_bulk);
  const char *ops[2] = {"insert", "find"};
  double h[2] = {host.insert, host.find}, k[2] = {key.insert, key.find}, b[2] = {bulk.insert, bulk.find};
  for (int o = 0; o < 2; ++o) {
    double vs_key = k[o] / b[o], vs_host = h[o] / b[o];
    printf("%-6s host API %.2f G/s; best bulk %.2f, best per-key %.2f: bulk/per-key %.3fx (target >= 1.05x) %s; "
           "bulk/host %.3fx (target >= 0.97x) %s\n",
           ops[o], gops(n, h[o]), gops(n, b[o]), gops(n, k[o]), vs_key, vs_key >= 1.05 ? "met" : "MISSED", vs_host,
           vs_host >= 0.97 ? "met" : "MISSED");
  }
  double f[2] = {floors.insert, floors.find};
  for (int o = 0; o < 2; ++o)
    printf("%-6s floor (first bucket read%s, no probing) %.2f G/s; best per-key is %.3fx of it, best bulk %.3fx\n",
           ops[o], o ? "" : " + one CAS", gops(n, f[o]), f[o] / k[o], f[o] / b[o]);
  gcol_map_destroy(m);
  BENCH_CUDA(cudaFree(keys));
  BENCH_CUDA(cudaFree(vals));
  BENCH_CUDA(cudaFree(out));
  return 0;
}
