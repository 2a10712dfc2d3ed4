/* The HyperLogLog bulk kernels. Each block keeps its own copy of the
 * registers in shared memory, fed by its share of the input, and merges it
 * into the global registers at the end (a read of each, an atomicMax only
 * where the block's is larger), so the input is read at memory speed and
 * global atomics are m per block, not one per item.
 *
 * Shared registers are packed F to a 32-bit word, W bits each: bytes (4 x 8)
 * up to precision 17 (128 KiB), 6-bit fields (5 x 6) at precision 18 (2^18
 * bytes would be 256 KiB, past the SM's 227 KiB; 5 x 6 bits take 205 KiB).
 * A thread hashes 8 items, reads their 8 registers, and only where an item's
 * rank is larger raises the register with a compare-and-swap loop on its
 * word: after the first few items per register, most items only read. A
 * read may be stale (another thread raised the register since): registers
 * only grow, so a stale value is never too large, and the CAS loop works
 * from the word it finds. The precision is a template parameter: the hash
 * bits are then split with constant shifts (the kernel is bound by integer
 * instructions, not by the input read). */
#ifndef GCOL_SRC_HLL_HLL_KERNELS_CUH
#define GCOL_SRC_HLL_HLL_KERNELS_CUH

#include <stdint.h>
#include "gcol/device/hll.cuh"

namespace gcol {
namespace detail {

constexpr int kHllBlock = 1024;
constexpr int kHllItems = 8; /* per thread and step: 2 or 4 16-byte loads */

template <int P>
struct hll_smem {
  static constexpr int F = P <= 17 ? 4 : 5; /* fields per word */
  static constexpr int W = P <= 17 ? 8 : 6; /* bits per field */
  static constexpr size_t words = ((size_t(1) << P) + F - 1) / F;
  uint32_t *w;
  __device__ __forceinline__ uint32_t get(uint32_t i) const {
    if (F == 4) return reinterpret_cast<const uint8_t *>(w)[i];
    return (w[i / F] >> ((i % F) * W)) & ((1u << W) - 1);
  }
  __device__ __forceinline__ void raise(uint32_t i, uint32_t rank, uint32_t seen) const {
    uint32_t *word = w + i / F, sh = (i % F) * W, mask = ((1u << W) - 1) << sh;
    if (rank <= seen) return;
    uint32_t old = *word;
    while (((old & mask) >> sh) < rank) {
      uint32_t prev = atomicCAS(word, old, (old & ~mask) | (rank << sh));
      if (prev == old) break;
      old = prev;
    }
  }
};

template <int P>
__device__ __forceinline__ hll_slot hll_slot_p(uint64_t x, uint64_t seed, int canon, bool wide) {
  if (canon) x = wide ? hll_canonical_f64(x) : hll_canonical_f32((uint32_t)x);
  return hll_slot_of(x, seed, P); /* inlined: P is a constant here */
}

/* Hash, read and raise k items (their reads issued together). */
template <int P, int K>
__device__ __forceinline__ void hll_take(const hll_smem<P> &r, const uint64_t (&x)[K], uint64_t seed, int canon,
                                         bool wide) {
  hll_slot s[K];
  uint32_t seen[K];
#pragma unroll
  for (int k = 0; k < K; ++k) s[k] = hll_slot_p<P>(x[k], seed, canon, wide);
#pragma unroll
  for (int k = 0; k < K; ++k) seen[k] = r.get(s[k].index);
#pragma unroll
  for (int k = 0; k < K; ++k) r.raise(s[k].index, s[k].rank, seen[k]);
}

template <int P, class T>
__device__ __forceinline__ void hll_take_one(const hll_smem<P> &r, T item, uint64_t seed, int canon) {
  uint64_t x[1] = {(uint64_t)item};
  hll_take<P, 1>(r, x, seed, canon, sizeof(T) == 8);
}

/* items: n of T (4 or 8 bytes), aligned to T. The body is read as 16-byte
 * vectors; the items before the first 16-byte boundary and after the last
 * are taken by block 0. canon: floats (-0.0 and NaNs made one value). */
template <int P, class T>
__global__ void __launch_bounds__(kHllBlock) hll_add_kernel(gcol_hll_view_t v, const T *__restrict__ items, size_t n,
                                                             int canon) {
  extern __shared__ uint32_t smem[];
  hll_smem<P> r{smem};
  for (size_t i = threadIdx.x; i < hll_smem<P>::words; i += blockDim.x) smem[i] = 0;
  __syncthreads();

  constexpr int V = 16 / sizeof(T), U = kHllItems / V; /* items per vector, vectors per step */
  constexpr bool wide = sizeof(T) == 8;
  const uint64_t seed = v.seed;
  size_t head = ((16 - ((uintptr_t)items & 15)) & 15) / sizeof(T);
  if (head > n) head = n;
  const uint4 *vec = reinterpret_cast<const uint4 *>(items + head);
  size_t nv = (n - head) / V, tail = head + nv * V;
  if (blockIdx.x == 0) {
    if (threadIdx.x < head) hll_take_one<P>(r, items[threadIdx.x], seed, canon);
    if (threadIdx.x < n - tail) hll_take_one<P>(r, items[tail + threadIdx.x], seed, canon);
  }

  const size_t chunk = (size_t)blockDim.x * U;
  for (size_t base = (size_t)blockIdx.x * chunk; base < nv; base += (size_t)gridDim.x * chunk) {
    const uint4 *p = vec + base + threadIdx.x;
    if (base + chunk <= nv) {
      uint4 q[U];
#pragma unroll
      for (int u = 0; u < U; ++u) q[u] = __ldcs(p + u * blockDim.x);
      uint64_t x[kHllItems];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        if (wide) {
          x[2 * u] = (uint64_t)q[u].y << 32 | q[u].x;
          x[2 * u + 1] = (uint64_t)q[u].w << 32 | q[u].z;
        } else {
          x[4 * u] = q[u].x, x[4 * u + 1] = q[u].y, x[4 * u + 2] = q[u].z, x[4 * u + 3] = q[u].w;
        }
      }
      hll_take<P, kHllItems>(r, x, seed, canon, wide);
    } else {
      for (int u = 0; u < U; ++u) {
        if (base + threadIdx.x + (size_t)u * blockDim.x >= nv) break;
        const T *e = reinterpret_cast<const T *>(p + u * blockDim.x);
        for (int k = 0; k < V; ++k) hll_take_one<P>(r, e[k], seed, canon);
      }
    }
  }
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < (1u << P); i += blockDim.x) {
    uint32_t rank = r.get(i);
    if (rank > *(volatile uint32_t *)(v.registers + i)) atomicMax(v.registers + i, rank);
  }
}

/* dst = max(dst, src) over n registers. */
__global__ void hll_max_kernel(uint32_t *__restrict__ dst, const uint32_t *__restrict__ src, size_t n) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) dst[i] = max(dst[i], src[i]);
}

}  // namespace detail
}  // namespace gcol
#endif
