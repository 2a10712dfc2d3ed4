/* Tuning of the HyperLogLog kernels (hll_kernels.cuh), in one place: what
 * they are compiled for. CUDA C++ (the kernels and hll.cu read it). */
#ifndef GCOL_SRC_HLL_TUNING_HLL_H
#define GCOL_SRC_HLL_TUNING_HLL_H

namespace gcol {
namespace detail {

/* Threads of the add kernel (its launch bound): one block's shared copy of
 * the registers is fed by as many threads as a block holds. */
constexpr int kHllBlock = 1024;

/* Threads of the merge kernel (hll_max_kernel). */
constexpr int kHllMergeBlock = 256;

/* Items per thread and step of the add kernel: 32 bytes of loads in flight. */
template <class T>
constexpr int hll_unroll() {
  return sizeof(T) == 4 ? 8 : 4;
}

/* The largest precision whose shared registers are 32-bit words (FIELD 32,
 * 64 KiB at 14); above, 6-bit thermometer fields (hll_kernels.cuh says
 * why: at p <= 14 the fields lose to words, 1e9 u64 items on an H100, exp
 * sweep in docs/experiments.md). */
constexpr int kHllWordFieldsMaxPrecision = 14;

/* Above it, 6-bit thermometer fields. Wider fields at p 15 and 16 (16 and 8
 * bits, 64 KiB: fewer ranks overflow, still two blocks per SM) showed no
 * gain on an H200 (1e9 u64 items, overflow at once, G items/s, 6-bit /
 * wider, one run of bench_sketch, 2026-11-27): p 15 432 / 408, p 16 431 /
 * 417, the wider ones measured earlier in the run, where the same kernel
 * ran up to 8% slower (docs/experiments.md). */
template <int P>
constexpr int hll_field_bits() {
  return P <= kHllWordFieldsMaxPrecision ? 32 : 6;
}

/* A rank a field cannot hold raises the global register: false reads the
 * register first and calls atomicMax only where the rank is larger (the
 * lane waits for the read, and its warp with it); true calls atomicMax at
 * once, whose result nobody waits for (a reduction in the L2). H200, 1e9 u64
 * items, G items/s read first / at once (bench_sketch, 2026-11-27, two runs
 * on two H200s): p 15 405 / 442 and 380 / 432, p 16 404 / 437 and 377 /
 * 431, p 17 450 / 463 and 419 / 437, p 18 369 / 407 and 357 / 397. Test
 * builds compile both (the hll_overflow hook). */
constexpr bool kHllOverflowAtOnce = true;

}  // namespace detail
}  // namespace gcol
#endif
