/* The floor kernels: see floor_kernels.h. Key and output widths are
 * run-time (a uniform branch); the bucket width, the operation, lanes per
 * key and keys in flight are compiled. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <cooperative_groups.h>
#include "floor_kernels.h"
#include "gcol/device/hash.cuh"

namespace cg = cooperative_groups;

#define REPS 5
#define BLOCK 256

namespace {

struct __align__(16) pair16 {
  unsigned long long k, v;
};

__device__ __forceinline__ uint64_t key_at(const void *keys, int kb, size_t i) {
  return kb == 4 ? (uint64_t)static_cast<const uint32_t *>(keys)[i] : static_cast<const uint64_t *>(keys)[i];
}

/* BB-byte buckets (16, 32, 64 or 128) read by a tile of L lanes per key, BB / L
 * bytes each in 16-byte loads. READ: ob output bytes per key (0: none, the
 * loads kept by a store that never happens); with p24 > 0 a further random
 * bucket is read (after the last one arrived) while a per-key draw falls
 * under p24 / 2^24: a miss's probes. CAS8 / CAS16: one 8- or 16-byte CAS on
 * the bucket's first slot from the value read (it succeeds, so the sector is
 * dirtied as an insert or an erase dirties it). CAS8_SLOT / CAS16_SLOT: the
 * same on slot i mod slots of the bucket (copies of a key). OR4: a Bloom
 * add's four 8-byte ORs, split over the lanes. U keys per tile in flight. */
template <int BB, int L, int OP, int U>
__global__ void __launch_bounds__(BLOCK) floor_kernel(ulonglong2 *table, uint64_t num_buckets, const void *keys,
                                                      int kb, size_t n, void *out, int ob, uint64_t salt,
                                                      uint32_t p24) {
  constexpr int V = BB / 16 / L > 0 ? BB / 16 / L : 1; /* 16-byte loads per lane (none for OR4) */
  constexpr int SB = OP == BENCH_FLOOR_CAS16_SLOT ? 16 : 8;
  constexpr bool SLOT = OP == BENCH_FLOOR_CAS8_SLOT || OP == BENCH_FLOOR_CAS16_SLOT;
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
      k[u] = i < n ? key_at(keys, kb, i) : 0;
      uint64_t h = gcol::hash64(k[u], 0x5eed);
      b[u] = table + (size_t)__umul64hi(h, num_buckets) * (BB / 16);
    }
    if (OP != BENCH_FLOOR_OR4) {
#pragma unroll
      for (int u = 0; u < U; ++u)
#pragma unroll
        for (int c = 0; c < V; ++c)
          q[u][c] = OP == BENCH_FLOOR_READ ? __ldg(b[u] + lane * V + c) : __ldcg(b[u] + lane * V + c);
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      size_t i = base + (size_t)u * tiles;
      if (i >= n) break;
      if (OP == BENCH_FLOOR_OR4) {
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
      for (uint64_t j = 1; OP == BENCH_FLOOR_READ && j < 16 && (gcol::hash64(k[u], j) >> 40) < p24 && x != salt;
           ++j) {
        ulonglong2 *nb = table + (size_t)__umul64hi(gcol::hash64(k[u], ~j), num_buckets) * (BB / 16);
#pragma unroll
        for (int c = 0; c < V; ++c) {
          ulonglong2 y = __ldg(nb + lane * V + c);
          x ^= y.x ^ y.y;
        }
      }
      for (int o = L / 2; o > 0; o >>= 1) x ^= tile.shfl_xor(x, o);
      /* the slot ops: the 16-byte chunk that holds slot i mod slots, from
       * the lane that read it */
      int slot = 0;
      ulonglong2 e = q[u][0];
      if (SLOT) {
        slot = (int)(i % (size_t)(BB / SB));
        const int c16 = slot * SB / 16;
#pragma unroll
        for (int c = 0; c < V; ++c)
          if (c == c16 % V) e = q[u][c];
        e.x = tile.shfl(e.x, c16 / V);
        e.y = tile.shfl(e.y, c16 / V);
      }
      if (lane != 0) continue;
      if (OP == BENCH_FLOOR_CAS8 || OP == BENCH_FLOOR_CAS8_SLOT) {
        unsigned long long *w = &b[u]->x + slot;
        atomicCAS(w, (SB == 8 && (slot & 1)) ? e.y : e.x, x ^ k[u] ^ salt);
      } else if (OP == BENCH_FLOOR_CAS16 || OP == BENCH_FLOOR_CAS16_SLOT) {
#if __CUDA_ARCH__ >= 900
        pair16 ex{e.x, e.y}, d{x ^ k[u] ^ salt, k[u]};
        atomicCAS(reinterpret_cast<pair16 *>(b[u] + slot), ex, d);
#endif
      } else if (ob == 1) {
        static_cast<uint8_t *>(out)[i] = (uint8_t)(x == k[u]);
      } else if (ob == 4) {
        static_cast<uint32_t *>(out)[i] = (uint32_t)x;
      } else if (ob == 8) {
        static_cast<uint64_t *>(out)[i] = x;
      } else if (x == salt) {
        static_cast<uint64_t *>(out)[0] = x; /* ob 0: keeps the loads */
      }
    }
  }
}

__global__ void count_full(const uint8_t *slots, size_t num_buckets, int bucket_bytes, int slot_bytes, int key_bytes,
                           uint64_t empty_key, unsigned long long *full) {
  const uint64_t empty = key_bytes == 4 ? (uint32_t)empty_key : empty_key;
  for (size_t b = (size_t)blockIdx.x * blockDim.x + threadIdx.x; b < num_buckets; b += (size_t)gridDim.x * blockDim.x) {
    bool has_empty = false;
    for (int o = 0; o < bucket_bytes; o += slot_bytes) {
      const uint8_t *k = slots + b * bucket_bytes + o;
      uint64_t key = key_bytes == 4 ? *reinterpret_cast<const uint32_t *>(k) : *reinterpret_cast<const uint64_t *>(k);
      has_empty |= key == empty;
    }
    if (!has_empty) atomicAdd(full, 1ULL);
  }
}

__device__ __forceinline__ uint64_t mix64(uint64_t x) {
  x ^= x >> 33, x *= 0xff51afd7ed558ccdULL, x ^= x >> 33, x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

/* key i: distinct index i for i < d, else a hashed one of the d; the
 * index made a key as bench_unique_keys does (never a sentinel: >> 1) */
__global__ void repeated_kernel(void *keys, size_t kb, size_t n, size_t d, uint64_t off) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint64_t j = off + (i < d ? i : mix64(i ^ 0x243f6a8885a308d3ULL) % d);
    uint64_t k = mix64(j) >> 1;
    if (kb == 4) static_cast<uint32_t *>(keys)[i] = (uint32_t)k >> 1;
    else static_cast<uint64_t *>(keys)[i] = k;
  }
}

struct scratch_t {
  ulonglong2 *table;
  size_t table_bytes;
  void *out;
  size_t out_bytes;
  bench_timer_t timer;
  bool timer_ready;
};
scratch_t scratch;

void grow(size_t table_bytes, size_t out_bytes) {
  if (scratch.table_bytes < table_bytes) {
    if (scratch.table) BENCH_CUDA(cudaFree(scratch.table));
    BENCH_CUDA(cudaMalloc((void **)&scratch.table, table_bytes));
    BENCH_CUDA(cudaMemset(scratch.table, 0xff, table_bytes));
    scratch.table_bytes = table_bytes;
  }
  if (scratch.out_bytes < out_bytes) {
    if (scratch.out) BENCH_CUDA(cudaFree(scratch.out));
    BENCH_CUDA(cudaMalloc(&scratch.out, out_bytes));
    scratch.out_bytes = out_bytes;
  }
  if (!scratch.timer_ready) bench_timer_init(&scratch.timer), scratch.timer_ready = true;
}

/* Median G keys/s of one kernel shape on the grid / div. */
template <int BB, int L, int OP, int U>
double rate(const bench_gpu_t *g, const bench_floor_spec_t *s, const void *keys, size_t n, uint32_t p24, int div) {
  auto k = floor_kernel<BB, L, OP, U>;
  unsigned grid = bench_full_grid(g, (const void *)k, BLOCK) / div;
  double ms[REPS];
  for (int r = 0; r <= REPS; ++r) { /* run 0 warms up */
    bench_timer_start(&scratch.timer, 0);
    k<<<grid, BLOCK>>>(scratch.table, s->table_bytes / BB, keys, s->key_bytes, n, scratch.out, s->out_bytes,
                       0x9e37ull * (r + 1), p24);
    BENCH_CUDA(cudaGetLastError());
    double t = bench_timer_stop_ms(&scratch.timer, 0);
    if (r) ms[r - 1] = t;
  }
  return (double)n / (bench_median(ms, REPS) * 1e-3) / 1e9;
}

/* The best over lanes per key (1, 2, 4 where a lane still reads 16 bytes),
 * keys in flight per tile (1, 2; misses 1) and, for atomics, the whole or
 * half the grid. */
template <int BB, int OP>
bench_floor_t best(const bench_gpu_t *g, const bench_floor_spec_t *s, const void *keys, size_t n) {
  const uint32_t p24 = OP == BENCH_FLOOR_READ ? (uint32_t)(s->p_full * (1 << 24)) : 0;
  bench_floor_t f = {0, 0, 0, 0};
  const int divs = OP == BENCH_FLOOR_READ ? 1 : 2;
  for (int div = 1; div <= divs; ++div) {
    auto take = [&](double x, int l, int u) {
      if (x > f.gops) f.gops = x, f.lanes = l, f.keys = u, f.half_grid = div == 2;
    };
    take(rate<BB, 1, OP, 1>(g, s, keys, n, p24, div), 1, 1);
    if (!p24) take(rate<BB, 1, OP, 2>(g, s, keys, n, p24, div), 1, 2);
    if constexpr (BB >= 32) {
      take(rate<BB, 2, OP, 1>(g, s, keys, n, p24, div), 2, 1);
      if (!p24) take(rate<BB, 2, OP, 2>(g, s, keys, n, p24, div), 2, 2);
    }
    if constexpr (BB >= 64 || OP == BENCH_FLOOR_OR4) {
      take(rate<BB, 4, OP, 1>(g, s, keys, n, p24, div), 4, 1);
      if (!p24) take(rate<BB, 4, OP, 2>(g, s, keys, n, p24, div), 4, 2);
    }
  }
  return f;
}

template <int BB>
bench_floor_t by_op(const bench_gpu_t *g, const bench_floor_spec_t *s, const void *keys, size_t n) {
  switch (s->op) {
    case BENCH_FLOOR_READ: return best<BB, BENCH_FLOOR_READ>(g, s, keys, n);
    case BENCH_FLOOR_CAS8: return best<BB, BENCH_FLOOR_CAS8>(g, s, keys, n);
    case BENCH_FLOOR_CAS16: return best<BB, BENCH_FLOOR_CAS16>(g, s, keys, n);
    case BENCH_FLOOR_OR4: return best<BB, BENCH_FLOOR_OR4>(g, s, keys, n);
    case BENCH_FLOOR_CAS8_SLOT: return best<BB, BENCH_FLOOR_CAS8_SLOT>(g, s, keys, n);
    case BENCH_FLOOR_CAS16_SLOT: return best<BB, BENCH_FLOOR_CAS16_SLOT>(g, s, keys, n);
  }
  fprintf(stderr, "bench: floor: unknown operation %d\n", (int)s->op);
  return bench_floor_t{0, 0, 0, 0};
}

}  // namespace

extern "C" bench_floor_t bench_floor_measure(const bench_gpu_t *g, const bench_floor_spec_t *s, const void *keys,
                                             size_t n) {
  const bool ok_out = s->out_bytes == 0 || s->out_bytes == 1 || s->out_bytes == 4 || s->out_bytes == 8;
  if ((s->key_bytes != 4 && s->key_bytes != 8) || !ok_out || s->table_bytes < (size_t)s->bucket_bytes) {
    fprintf(stderr, "bench: floor: unsupported spec (key %d B, bucket %d B, output %d B): no floor\n",
            s->key_bytes, s->bucket_bytes, s->out_bytes);
    return bench_floor_t{0, 0, 0, 0};
  }
  grow(s->table_bytes, n * 8 > 8 ? n * 8 : 8);
  switch (s->bucket_bytes) {
    case 16: return by_op<16>(g, s, keys, n);
    case 32: return by_op<32>(g, s, keys, n);
    case 64: return by_op<64>(g, s, keys, n);
    case 128: return by_op<128>(g, s, keys, n);
  }
  fprintf(stderr, "bench: floor: unsupported bucket of %d bytes: no floor\n", s->bucket_bytes);
  return bench_floor_t{0, 0, 0, 0};
}

extern "C" double bench_floor_gops(const bench_gpu_t *g, bench_floor_op_t op, int key_bytes, int bucket_bytes,
                                   int out_bytes, size_t table_bytes, double p_full, const void *keys, size_t n) {
  if (getenv("GCOL_BENCH_NO_FLOOR")) return 0;
  const bench_floor_spec_t s = {key_bytes, bucket_bytes, out_bytes, op, table_bytes, p_full};
  return bench_floor_measure(g, &s, keys, n).gops;
}

extern "C" void bench_floor_release(void) {
  if (scratch.table) BENCH_CUDA(cudaFree(scratch.table));
  if (scratch.out) BENCH_CUDA(cudaFree(scratch.out));
  scratch.table = NULL, scratch.out = NULL, scratch.table_bytes = scratch.out_bytes = 0;
}

extern "C" double bench_floor_full_share(const void *slots, size_t num_buckets, int bucket_bytes, int slot_bytes,
                                         int key_bytes, uint64_t empty_key) {
  unsigned long long *d = NULL, full = 0;
  BENCH_CUDA(cudaMalloc((void **)&d, 8));
  BENCH_CUDA(cudaMemset(d, 0, 8));
  count_full<<<1024, 256>>>(static_cast<const uint8_t *>(slots), num_buckets, bucket_bytes, slot_bytes,
                            key_bytes > 8 ? 8 : key_bytes, empty_key, d);
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaMemcpy(&full, d, 8, cudaMemcpyDeviceToHost));
  BENCH_CUDA(cudaFree(d));
  return num_buckets ? (double)full / (double)num_buckets : 0;
}

extern "C" void *bench_floor_repeated_keys(size_t n, size_t kb, size_t copies, uint64_t off) {
  size_t d = copies && n / copies ? n / copies : 1;
  void *keys = NULL;
  BENCH_CUDA(cudaMalloc(&keys, n * kb + 1));
  repeated_kernel<<<1024, 256>>>(keys, kb, n, d, off);
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaDeviceSynchronize());
  return keys;
}
