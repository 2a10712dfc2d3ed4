/* The HyperLogLog bulk kernels. Each block keeps its own copy of the
 * registers in shared memory, fed by its share of the input, and merges it
 * into the global registers at the end (a read of each, an atomicMax only
 * where the block's is larger), so the input is read at memory speed and
 * global atomics are m per block, not one per item.
 *
 * Shared registers are packed F to a 32-bit word, W bits each: bytes (4 x 8)
 * up to precision 17 (128 KiB), 6-bit fields (5 x 6) at precision 18 (2^18
 * bytes would be 256 KiB, past the SM's 227 KiB; 5 x 6 bits take 205 KiB).
 * An item reads its field and only when its rank is larger raises it with a
 * compare-and-swap loop on the word: after the first few items per register,
 * most items only read. */
#ifndef GCOL_SRC_HLL_HLL_KERNELS_CUH
#define GCOL_SRC_HLL_HLL_KERNELS_CUH

#include "gcol/device/hll.cuh"

namespace gcol {
namespace detail {

constexpr int kHllBlock = 1024;
constexpr int kHllUnroll = 8; /* independent loads in flight per thread */

template <int F, int W>
struct hll_smem {
  uint32_t *w;
  static __host__ __device__ size_t words(int p) { return ((size_t(1) << p) + F - 1) / F; }
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

template <int F, int W, int CANON, class T>
__global__ void __launch_bounds__(kHllBlock) hll_add_kernel(gcol_hll_view_t v, const T *__restrict__ items, size_t n) {
  extern __shared__ uint32_t smem[];
  hll_smem<F, W> r{smem};
  const int p = v.precision;
  const size_t words = hll_smem<F, W>::words(p);
  for (size_t i = threadIdx.x; i < words; i += blockDim.x) smem[i] = 0;
  __syncthreads();

  const size_t chunk = (size_t)blockDim.x * kHllUnroll;
  for (size_t base = (size_t)blockIdx.x * chunk; base < n; base += (size_t)gridDim.x * chunk) {
    T x[kHllUnroll];
    if (base + chunk <= n) {
#pragma unroll
      for (int k = 0; k < kHllUnroll; ++k) x[k] = __ldcs(items + base + k * blockDim.x + threadIdx.x);
#pragma unroll
      for (int k = 0; k < kHllUnroll; ++k) {
        hll_slot s = hll_slot_of(hll_bits<CANON>(x[k]), v.seed, p);
        r.raise(s.index, s.rank);
      }
    } else {
      for (int k = 0; k < kHllUnroll; ++k) {
        size_t i = base + k * blockDim.x + threadIdx.x;
        if (i < n) {
          hll_slot s = hll_slot_of(hll_bits<CANON>(items[i]), v.seed, p);
          r.raise(s.index, s.rank);
        }
      }
    }
  }
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < (1u << p); i += blockDim.x) {
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
