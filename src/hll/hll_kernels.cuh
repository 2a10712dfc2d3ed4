/* The HyperLogLog bulk kernels. Each block keeps its own copy of the
 * registers in shared memory, fed by its share of the input, and merges it
 * into the global registers at the end, so the input is read at memory
 * speed and global atomics are at most m per block, not one per item.
 *
 * Shared registers are packed F to a 32-bit word, W bits each: bytes (4 x 8)
 * up to precision 17 (128 KiB), 6-bit fields (5 x 6) at precision 18 (2^18
 * bytes would be 256 KiB, past the SM's 227 KiB; 5 x 6 bits take 205 KiB).
 * An item reads its register's word and only when its rank is larger raises
 * it with a compare-and-swap loop: after the first few items per register,
 * most items only read. The precision is a template parameter, so the hash
 * is split with constant shifts (the kernel is bound by integer
 * instructions, not by the input read).
 *
 * The merge: block b walks the registers from its own offset (b * m / grid),
 * reading each global register first and using atomicMax only where its own
 * is larger. Blocks finish together; walking in the same order, each would
 * find every global register still low and all would take the atomic (m x
 * blocks atomics, 35M at precision 18). Staggered, a register meets the
 * blocks one after another and only the few blocks holding a new maximum
 * write it. H100, 1e9 items (with the constant shifts, same day): p 17
 * 6.98 -> 4.01 ms, p 18 9.17 -> 4.43 ms; p 13 6.55 -> 6.35 ms. */
#ifndef GCOL_SRC_HLL_HLL_KERNELS_CUH
#define GCOL_SRC_HLL_HLL_KERNELS_CUH

#include <stdint.h>
#include "gcol/device/hll.cuh"

namespace gcol {
namespace detail {

constexpr int kHllBlock = 1024;
constexpr int kHllUnroll = 8; /* independent loads in flight per thread */

template <int P>
struct hll_smem {
  static constexpr int F = P <= 17 ? 4 : 5; /* fields per word */
  static constexpr int W = P <= 17 ? 8 : 6; /* bits per field */
  static constexpr size_t words = ((size_t(1) << P) + F - 1) / F;
  uint32_t *w;
  __device__ __forceinline__ uint32_t get(uint32_t i) const {
    return (((volatile uint32_t *)w)[i / F] >> ((i % F) * W)) & ((1u << W) - 1);
  }
  __device__ __forceinline__ void raise(uint32_t i, uint32_t rank) const {
    uint32_t *word = w + i / F, sh = (i % F) * W, mask = ((1u << W) - 1) << sh;
    uint32_t old = *(volatile uint32_t *)word;
    while (((old & mask) >> sh) < rank) {
      uint32_t prev = atomicCAS(word, old, (old & ~mask) | (rank << sh));
      if (prev == old) break;
      old = prev;
    }
  }
};

/* The bits an item is hashed as: CANON 0 raw, 1 f32, 2 f64. */
template <int CANON, class T>
__device__ __forceinline__ uint64_t hll_bits(T x) {
  if (CANON == 1) return hll_canonical_f32((uint32_t)x);
  if (CANON == 2) return hll_canonical_f64((uint64_t)x);
  return (uint64_t)x;
}

template <int P, int CANON, class T>
__device__ __forceinline__ void hll_take(const hll_smem<P> &r, T item, uint64_t seed) {
  hll_slot s = hll_slot_of(hll_bits<CANON>(item), seed, P); /* P constant: constant shifts */
  r.raise(s.index, s.rank);
}

template <int P, int CANON, class T>
__global__ void __launch_bounds__(kHllBlock) hll_add_kernel(gcol_hll_view_t v, const T *__restrict__ items, size_t n) {
  extern __shared__ uint32_t smem[];
  hll_smem<P> r{smem};
  for (size_t i = threadIdx.x; i < hll_smem<P>::words; i += blockDim.x) smem[i] = 0;
  __syncthreads();

  const uint64_t seed = v.seed;
  const size_t chunk = (size_t)blockDim.x * kHllUnroll;
  for (size_t base = (size_t)blockIdx.x * chunk; base < n; base += (size_t)gridDim.x * chunk) {
    if (base + chunk <= n) {
      T x[kHllUnroll];
#pragma unroll
      for (int k = 0; k < kHllUnroll; ++k) x[k] = __ldcs(items + base + k * blockDim.x + threadIdx.x);
#pragma unroll
      for (int k = 0; k < kHllUnroll; ++k) hll_take<P, CANON>(r, x[k], seed);
    } else {
      for (int k = 0; k < kHllUnroll; ++k) {
        size_t i = base + k * blockDim.x + threadIdx.x;
        if (i < n) hll_take<P, CANON>(r, items[i], seed);
      }
    }
  }
  __syncthreads();
  constexpr uint32_t m = 1u << P;
  uint32_t start = (uint32_t)(((uint64_t)blockIdx.x * m / gridDim.x) & ~31ull);
  for (uint32_t j = threadIdx.x; j < m; j += blockDim.x) {
    uint32_t i = (j + start) & (m - 1), rank = r.get(i);
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
