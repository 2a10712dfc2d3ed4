/* The HyperLogLog bulk kernels. Each block keeps its own copy of the
 * registers in shared memory, fed by its share of the input, and merges it
 * into the global registers at the end, so the input is read at memory
 * speed and global atomics are at most m per block, not one per item.
 *
 * Two shared layouts (hll_layout), both updated with one native shared
 * atomic and no compare-and-swap loop:
 *  - FIELD 32, up to precision 14 (64 KiB): one 32-bit word per register,
 *    read first and raised with atomicMax only where the rank is larger;
 *  - FIELD 6, precisions 15..18: five 6-bit fields per word (205 KiB at
 *    p 18) holding ranks 1..6 as thermometer codes (rank r = its r low bits
 *    set). The OR of two codes is the code of their maximum, so an item ORs
 *    its code in (after a read shows a bit missing); the 1/64 of items with a
 *    larger rank raise the global register with an atomicMax nobody waits
 *    for (kHllOverflowAtOnce). Merged register = max(popcount(field), global).
 * The packed byte fields with a CAS loop that shipped before ran at 150-265
 * G items/s on an H100: lanes that had to raise a field diverged into the
 * loop (half a warp active on average, ncu); these run at 320-385 (1e9 u64
 * items, exp sweep in docs/experiments.md). Thermometer fields at p <= 14 lose
 * to 32-bit words (few registers: the overflow atomics contend).
 *
 * The merge: block b walks the registers from its own offset (b * m / grid),
 * reading each global register first and using atomicMax only where its own
 * is larger. Staggered, a register meets the blocks one after another and
 * only the few holding a new maximum write it. */
#ifndef GCOL_SRC_HLL_HLL_KERNELS_CUH
#define GCOL_SRC_HLL_HLL_KERNELS_CUH

#include <stdint.h>
#include "gcol/device/hll.cuh"
#include "tuning_hll.h" /* block sizes, unroll, the word-field precision */

namespace gcol {
namespace detail {

template <int P, bool AT_ONCE = kHllOverflowAtOnce>
struct hll_layout {
  static constexpr int FIELD = hll_field_bits<P>(); /* bits per register */
  static constexpr uint32_t F = 32 / FIELD;        /* registers per word */
  static constexpr size_t words = ((size_t(1) << P) + F - 1) / F;
  static constexpr size_t bytes = words * sizeof(uint32_t);

  /* Take one item's (index, rank) into the block's words w; ranks a
   * thermometer field cannot hold go to the global registers g. */
  static __device__ __forceinline__ void take(uint32_t *w, uint32_t *g, hll_slot s) {
    if constexpr (FIELD == 32) {
      if (((volatile uint32_t *)w)[s.index] < s.rank) atomicMax(w + s.index, s.rank);
    } else {
      if (s.rank <= (uint32_t)FIELD) {
        uint32_t code = ((1u << s.rank) - 1) << ((s.index % F) * FIELD);
        if ((((volatile uint32_t *)w)[s.index / F] & code) != code) atomicOr(w + s.index / F, code);
      } else if (AT_ONCE || *(volatile uint32_t *)(g + s.index) < s.rank) {
        atomicMax(g + s.index, s.rank);
      }
    }
  }
  /* The block's rank of register i. */
  static __device__ __forceinline__ uint32_t rank(const uint32_t *w, uint32_t i) {
    if constexpr (FIELD == 32) return w[i];
    else return (uint32_t)__popc((w[i / F] >> ((i % F) * FIELD)) & ((1u << FIELD) - 1));
  }
};

/* The bits an item is hashed as: CANON 0 raw, 1 f32, 2 f64. */
template <int CANON, class T>
__device__ __forceinline__ uint64_t hll_bits(T x) {
  if (CANON == 1) return hll_canonical_f32((uint32_t)x);
  if (CANON == 2) return hll_canonical_f64((uint64_t)x);
  return (uint64_t)x;
}

template <int P, int CANON, class T, bool AT_ONCE = kHllOverflowAtOnce>
__global__ void __launch_bounds__(kHllBlock) hll_add_kernel(gcol_hll_view_t v, const T *__restrict__ items, size_t n) {
  typedef hll_layout<P, AT_ONCE> L;
  constexpr int U = hll_unroll<T>();
  extern __shared__ uint32_t w[];
  for (size_t i = threadIdx.x; i < L::words; i += blockDim.x) w[i] = 0;
  __syncthreads();

  const uint64_t seed = v.seed;
  uint32_t *g = v.registers;
  const size_t chunk = (size_t)blockDim.x * U;
  for (size_t base = (size_t)blockIdx.x * chunk; base < n; base += (size_t)gridDim.x * chunk) {
    if (base + chunk <= n) {
      T x[U];
#pragma unroll
      for (int k = 0; k < U; ++k) x[k] = __ldcs(items + base + k * blockDim.x + threadIdx.x);
#pragma unroll
      for (int k = 0; k < U; ++k) L::take(w, g, hll_slot_of(hll_bits<CANON>(x[k]), seed, P));
    } else {
      for (int k = 0; k < U; ++k) {
        size_t i = base + k * blockDim.x + threadIdx.x;
        if (i < n) L::take(w, g, hll_slot_of(hll_bits<CANON>(items[i]), seed, P));
      }
    }
  }
  __syncthreads();
  constexpr uint32_t m = 1u << P;
  uint32_t start = (uint32_t)(((uint64_t)blockIdx.x * m / gridDim.x) & ~31ull);
  for (uint32_t j = threadIdx.x; j < m; j += blockDim.x) {
    uint32_t i = (j + start) & (m - 1), rank = L::rank(w, i);
    if (rank > *(volatile uint32_t *)(g + i)) atomicMax(g + i, rank);
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
