/* The floor of issues 23's and 24's DRAM-bound rows: for each row, a
 * kernel that does only the memory work no implementation can skip (read
 * the key, hash it, read its one home bucket or filter block, write the
 * output; for inserts and adds also the one atomic that changes the bucket)
 * on a table of the row's size, and nothing else: no probing past the first
 * bucket, no compare, no count. The best of its shapes (1, 2 or 4 lanes per
 * key, 1 or 2 keys in flight per tile, for atomics also half the grid) is
 * the floor: a container of that layout that does more work per key cannot
 * be faster on this GPU. Misses also pay for the buckets past a full home
 * bucket: their rows read a further random bucket with the probability that
 * a bucket of a real gcol map is full at load 0.5 (measured here). A row
 * whose target is above its floor cannot be met by probing differently,
 * only by touching fewer random sectors per key (every table here but the
 * Bloom filter's 128 MiB is far larger than the L2). Median of REPS runs of
 * 100M keys (GCOL_BENCH_N); targets are the issues' figures scaled by this
 * run's copy bandwidth. */
#include <stdio.h>
#include <stdint.h>
#include <cooperative_groups.h>
#include "bench_common.h"
#include "gcol/device/hash.cuh"

namespace cg = cooperative_groups;

#define REPS 5
#define BLOCK 256
enum { OP_READ, OP_CAS8, OP_CAS16, OP_OR4 };

static bench_gpu_t gpu;
static bench_timer_t timer;

struct __align__(16) pair16 {
  unsigned long long k, v;
};

template <int KB>
__device__ __forceinline__ uint64_t key_at(const void *keys, size_t i) {
  return KB == 4 ? (uint64_t)static_cast<const uint32_t *>(keys)[i] : static_cast<const uint64_t *>(keys)[i];
}

/* BB-byte buckets (16, 32 or 64) read by a tile of L lanes per key, BB / L
 * bytes each in 16-byte loads. OP_READ: OB output bytes per key; with p24 >
 * 0 a further random bucket is read (after the last one arrived) while a
 * per-key draw falls under p24 / 2^24: a miss's probes. OP_CAS8 / OP_CAS16:
 * one 8- or 16-byte CAS on the bucket's first slot from the value read (it
 * succeeds, so the sector is dirtied as an insert dirties it). OP_OR4: a
 * Bloom add's four 8-byte ORs, split over the lanes. U keys per tile in
 * flight. */
template <int KB, int BB, int L, int OB, int OP, int U>
__global__ void __launch_bounds__(BLOCK) floor_kernel(ulonglong2 *table, uint64_t num_buckets, const void *keys,
                                                      size_t n, void *out, uint64_t salt, uint32_t p24) {
  constexpr int V = BB / 16 / L > 0 ? BB / 16 / L : 1; /* 16-byte loads per lane (none for OP_OR4) */
  auto tile = cg::tiled_partition<L>(cg::this_thread_block());
  const int lane = (int)tile.thread_rank();
  const size_t tiles = (size_t)gridDim.x * BLOCK / L;
  for (size_t base = ((size_t)blockIdx.x * BLOCK + threadIdx.x) / L; base < n; base += tiles * U) {
    ulonglong2 *b[U];
    ulonglong2 q[U][V];
    uint64_t k[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      size_t i = base + (size_t)u * tiles;
      k[u] = i < n ? key_at<KB>(keys, i) : 0;
      uint64_t h = gcol::hash64(k[u], 0x5eed);
      b[u] = table + (size_t)__umul64hi(h, num_buckets) * (BB / 16);
    }
    if (OP != OP_OR4) {
#pragma unroll
      for (int u = 0; u < U; ++u)
#pragma unroll
        for (int c = 0; c < V; ++c) q[u][c] = OP == OP_READ ? __ldg(b[u] + lane * V + c) : __ldcg(b[u] + lane * V + c);
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      size_t i = base + (size_t)u * tiles;
      if (i >= n) break;
      if (OP == OP_OR4) {
        unsigned long long *w = &b[u]->x;
#pragma unroll
        for (int c = lane * 4 / L; c < (lane + 1) * 4 / L; ++c) atomicOr(w + c, 1ULL << ((k[u] >> (6 * c)) & 63));
        continue;
      }
      uint64_t x = 0;
#pragma unroll
      for (int c = 0; c < V; ++c) x ^= q[u][c].x ^ q[u][c].y;
      /* a miss goes on while the draw says full; the branch on x makes each
       * further read wait for the one before, as a probe does */
      for (uint64_t j = 1; OP == OP_READ && j < 16 && (gcol::hash64(k[u], j) >> 40) < p24 && x != salt; ++j) {
        ulonglong2 *nb = table + (size_t)__umul64hi(gcol::hash64(k[u], ~j), num_buckets) * (BB / 16);
#pragma unroll
        for (int c = 0; c < V; ++c) {
          ulonglong2 y = __ldg(nb + lane * V + c);
          x ^= y.x ^ y.y;
        }
      }
      for (int o = L / 2; o > 0; o >>= 1) x ^= tile.shfl_xor(x, o);
      if (lane != 0) continue;
      if (OP == OP_CAS8) {
        atomicCAS(&b[u]->x, q[u][0].x, x ^ k[u] ^ salt);
      } else if (OP == OP_CAS16) {
#if __CUDA_ARCH__ >= 900
        pair16 e{q[u][0].x, q[u][0].y}, d{x ^ k[u] ^ salt, k[u]};
        atomicCAS(reinterpret_cast<pair16 *>(b[u]), e, d);
#endif
      } else if (OB == 1) {
        static_cast<uint8_t *>(out)[i] = (uint8_t)(x == k[u]);
      } else if (OB == 4) {
        static_cast<uint32_t *>(out)[i] = (uint32_t)x;
      } else {
        static_cast<uint64_t *>(out)[i] = x;
      }
    }
  }
}

/* Buckets of a gcol map's table without an empty slot: slots of slot_words
 * 8-byte words whose first word, masked by key_mask, holds the key. */
__global__ void count_full(const uint64_t *slots, uint32_t num_buckets, int words_per_bucket, int slot_words,
                           uint64_t key_mask, uint64_t empty_key, unsigned long long *full) {
  for (size_t b = (size_t)blockIdx.x * blockDim.x + threadIdx.x; b < num_buckets; b += (size_t)gridDim.x * blockDim.x) {
    bool has_empty = false;
    for (int w = 0; w < words_per_bucket; w += slot_words)
      has_empty |= (slots[b * words_per_bucket + w] & key_mask) == (empty_key & key_mask);
    if (!has_empty) atomicAdd(full, 1ULL);
  }
}

/* The share of full buckets in a fixed gcol map of key and value type kt
 * after n unique inserts into 2n slots. */
static double full_share(gcol_type_t kt, size_t n) {
  size_t kb = gcol_type_size(kt);
  gcol_map_config_t c = gcol_map_config_default(kt, kt);
  c.capacity = 2 * n;
  gcol_map_t *m = NULL;
  bench_ok(gcol_map_create(&m, &c, 0), "create");
  void *keys = bench_unique_keys(n, kb, 1000);
  bench_ok(gcol_map_insert(m, keys, keys, n, NULL, 0), "insert");
  gcol_map_view_t v;
  bench_ok(gcol_map_device_view(m, &v), "view");
  unsigned long long *d = NULL, full = 0;
  BENCH_CUDA(cudaMalloc((void **)&d, 8));
  BENCH_CUDA(cudaMemset(d, 0, 8));
  int slot_words = kb == 4 ? 1 : 2;
  count_full<<<1024, 256>>>(static_cast<const uint64_t *>(v.slots), v.num_buckets, 2 * v.bucket_chunks, slot_words,
                            kb == 4 ? 0xffffffffULL : ~0ULL, v.empty_key, d);
  BENCH_CUDA(cudaMemcpy(&full, d, 8, cudaMemcpyDeviceToHost));
  BENCH_CUDA(cudaFree(d));
  BENCH_CUDA(cudaFree(keys));
  gcol_map_destroy(m);
  return (double)full / v.num_buckets;
}

typedef struct {
  ulonglong2 *table;
  const void *keys;
  void *out;
  size_t n;
} floor_data_t;

/* Median G keys/s of one kernel shape on grid / div blocks. */
template <int KB, int BB, int L, int OB, int OP, int U>
static double rate(const floor_data_t &d, size_t table_bytes, uint32_t p24, int div) {
  auto k = floor_kernel<KB, BB, L, OB, OP, U>;
  unsigned grid = bench_full_grid(&gpu, (const void *)k, BLOCK) / div;
  double ms[REPS];
  for (int r = 0; r <= REPS; ++r) { /* run 0 warms up */
    bench_timer_start(&timer, 0);
    k<<<grid, BLOCK>>>(d.table, table_bytes / BB, d.keys, d.n, d.out, 0x9e37ull * (r + 1), p24);
    BENCH_CUDA(cudaGetLastError());
    double t = bench_timer_stop_ms(&timer, 0);
    if (r) ms[r - 1] = t;
  }
  return (double)d.n / (bench_median(ms, REPS) * 1e-3) / 1e9;
}

/* One row: the best over lanes per key (1, 2, 4 where a lane still reads
 * 16 bytes), keys in flight per tile (1, 2; misses 1) and, for atomics, the
 * whole or half the grid; printed beside the issue's target (G/s at copy
 * 3,000 GB/s, scaled by this run's). */
template <int KB, int BB, int OB, int OP>
static void row(const char *label, double target, const floor_data_t &d, size_t table_bytes, uint32_t p24 = 0) {
  double best = 0;
  int bl = 0, bu = 0, bd = 0;
  const int divs = OP == OP_READ ? 1 : 2;
  for (int div = 1; div <= divs; ++div) {
    auto take = [&](double x, int l, int u) {
      if (x > best) best = x, bl = l, bu = u, bd = div;
    };
    take(rate<KB, BB, 1, OB, OP, 1>(d, table_bytes, p24, div), 1, 1);
    if (!p24) take(rate<KB, BB, 1, OB, OP, 2>(d, table_bytes, p24, div), 1, 2);
    if constexpr (BB >= 32) {
      take(rate<KB, BB, 2, OB, OP, 1>(d, table_bytes, p24, div), 2, 1);
      if (!p24) take(rate<KB, BB, 2, OB, OP, 2>(d, table_bytes, p24, div), 2, 2);
    }
    if constexpr (BB >= 64 || OP == OP_OR4) {
      take(rate<KB, BB, 4, OB, OP, 1>(d, table_bytes, p24, div), 4, 1);
      if (!p24) take(rate<KB, BB, 4, OB, OP, 2>(d, table_bytes, p24, div), 4, 2);
    }
  }
  target *= gpu.copy_gbs / 3000.0;
  printf("| %-38s | %5.0f MB | %2d B | %6.2f (%d x %d%s) | %6.2f | %s |\n", label, table_bytes / 1e6, BB, best, bl, bu,
         bd == 2 ? ", half grid" : "", target, target <= best ? "below the floor" : "ABOVE the floor");
}

int main(void) {
  if (bench_init(&gpu)) return 0;
  bench_timer_init(&timer);
  const size_t n = bench_size("GCOL_BENCH_N", 100000000);
  const size_t slots = 2 * n; /* load 0.5 */
  const size_t biggest = (size_t)16 * slots > ((size_t)2 << 30) ? (size_t)16 * slots : ((size_t)2 << 30);
  const double share32 = full_share(GCOL_I32, n), share64 = full_share(GCOL_I64, n);
  const uint32_t p32 = (uint32_t)(share32 * (1 << 24)), p64 = (uint32_t)(share64 * (1 << 24)); /* out of 2^24 */
  floor_data_t d = {NULL, bench_unique_keys(n, 8, 0), NULL, n};
  BENCH_CUDA(cudaMalloc((void **)&d.table, biggest));
  BENCH_CUDA(cudaMalloc(&d.out, n * 8));
  BENCH_CUDA(cudaMemset(d.table, 0xff, biggest));

  printf("\nFloors: the home bucket and nothing else, %zu keys (G keys/s; targets scaled by copy/3000). Full "
         "buckets at load 0.5 in a gcol map: i32 pairs %.1f%%, i64 pairs %.1f%%\n",
         n, 100 * share32, 100 * share64);
  printf("| row | table | bucket | floor (lanes x keys in flight) | target | target vs floor |\n"
         "|---|---|---|---|---|---|\n");
  /* issue 23: the map (i32 pairs: 8-byte slots, 32-byte buckets; i64: 16-byte slots, 64-byte buckets) */
  row<4, 32, 1, OP_READ>("i32 map contains, load 0.5", 28.26 * 1.1, d, 8 * slots);
  row<4, 32, 4, OP_READ>("i32 map find miss, home bucket only", 25.62 * 1.1, d, 8 * slots);
  row<4, 32, 4, OP_READ>("i32 map find miss, with full buckets", 25.62 * 1.1, d, 8 * slots, p32);
  row<4, 32, 4, OP_CAS8>("i32 map insert, load 0.5", 11.00 * 1.1, d, 8 * slots);
  row<8, 64, 1, OP_READ>("i64 map contains, load 0.5", 26.09 * 1.1, d, 16 * slots);
  row<8, 32, 1, OP_READ>("i64 map contains, 32 B of the bucket", 26.09 * 1.1, d, 16 * slots);
  row<8, 64, 8, OP_READ>("i64 map find miss, home bucket only", 21.80 * 1.1, d, 16 * slots);
  row<8, 64, 8, OP_READ>("i64 map find miss, with full buckets", 21.80 * 1.1, d, 16 * slots, p64);
  row<8, 64, 8, OP_CAS16>("i64 map insert, load 0.5 (CAS128)", 10.56 * 1.1, d, 16 * slots);
  row<8, 64, 8, OP_CAS8>("i64 map insert, load 0.5 (CAS64)", 10.56 * 1.1, d, 16 * slots);
  /* issue 23: the u64 set (8-byte slots, 32-byte buckets; 64-byte ones for comparison) */
  row<8, 32, 1, OP_CAS8>("u64 set insert, load 0.5", 10.44 * 1.1, d, 8 * slots);
  row<8, 64, 1, OP_CAS8>("u64 set insert, 64 B buckets", 10.44 * 1.1, d, 8 * slots);
  row<8, 32, 1, OP_READ>("u64 set contains, load 0.5", 22.58 * 1.1, d, 8 * slots);
  /* issue 24: the Bloom filter (32-byte blocks, 8-byte keys) */
  row<8, 32, 1, OP_READ>("Bloom contains, 128 MiB", 34.3 * 1.1, d, (size_t)128 << 20);
  row<8, 32, 1, OP_READ>("Bloom contains, 2 GiB", 28.5 * 1.1, d, (size_t)2 << 30);
  row<8, 32, 1, OP_OR4>("Bloom add, 2 GiB", 11.5 * 1.2, d, (size_t)2 << 30);
  BENCH_CUDA(cudaFree(d.table));
  BENCH_CUDA(cudaFree((void *)d.keys));
  BENCH_CUDA(cudaFree(d.out));
  return 0;
}
