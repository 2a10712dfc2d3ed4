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

}  // namespace detail
}  // namespace gcol
#endif
