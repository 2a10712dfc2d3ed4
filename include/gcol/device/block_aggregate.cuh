/* Block-aggregated reservation of output slots (CUDA C++, device code).
 *
 * One level above warp_aggregate.cuh: each warp sums its requests, the warp
 * totals meet in shared memory, and one thread makes one global atomicAdd
 * for the whole block. A block's slots are contiguous, in thread order
 * (warp by warp). Use it when even one atomic per warp is too many (a
 * same-address atomic costs about one L2 cycle, so one per 32 items of a
 * bandwidth-bound filter is a measurable share).
 *
 *   typedef gcol::block_reserve<256, unsigned long long> reserve_t;
 *   __shared__ reserve_t::temp_storage tmp;
 *   unsigned long long slot = reserve_t(tmp).reserve(keep, d_count);
 *   if (keep) d_out[slot] = item;
 *
 * Rules (as CUB's block primitives): every thread of the block calls,
 * the block is 1-, 2- or 3-D with a thread count that is a multiple of 32
 * and at most MAX_BLOCK_THREADS, each call synchronizes the block
 * (__syncthreads, twice), and a __syncthreads() must separate one call from
 * the next use of the same temp_storage. */
#ifndef GCOL_DEVICE_BLOCK_AGGREGATE_CUH
#define GCOL_DEVICE_BLOCK_AGGREGATE_CUH

#include <cooperative_groups.h>
#include "gcol/device/warp_aggregate.cuh"

namespace gcol {

template <int MAX_BLOCK_THREADS, class Counter>
class block_reserve {
  static_assert(MAX_BLOCK_THREADS % 32 == 0 && MAX_BLOCK_THREADS <= 1024, "whole warps, at most 1024 threads");
  static constexpr int MAX_WARPS = MAX_BLOCK_THREADS / 32;

 public:
  struct temp_storage {
    Counter warp_base[MAX_WARPS];
  };

  __device__ __forceinline__ explicit block_reserve(temp_storage &t) : t_(t) {}

  /* Every thread passes its warp's total (the same value on the 32 lanes);
   * every thread gets its warp's first slot. */
  __device__ __forceinline__ Counter warp_base(Counter warp_total, Counter *counter) {
    namespace cg = cooperative_groups;
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    const unsigned w = block.thread_rank() / 32, warps = block.num_threads() / 32;
    if (warp.thread_rank() == 0) t_.warp_base[w] = warp_total;
    __syncthreads();
    if (w == 0) {
      const unsigned lane = warp.thread_rank();
      Counter total;
      const Counter before = tile_exclusive_sum(warp, lane < warps ? t_.warp_base[lane] : Counter(0), &total);
      const Counter base = tile_atomic_base(warp, total, counter);
      if (lane < warps) t_.warp_base[lane] = base + before;
    }
    __syncthreads();
    return t_.warp_base[w];
  }

  /* A slot for every thread whose want is true; others get an unspecified value. */
  __device__ __forceinline__ Counter reserve(bool want, Counter *counter) {
    auto warp = cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block());
    const unsigned votes = warp.ballot(want);
    return warp_base((Counter)__popc(votes), counter) + (Counter)__popc(votes & tile_lower_ranks(warp));
  }

  /* n slots per thread; returns the first of this thread's n. */
  __device__ __forceinline__ Counter reserve_n(Counter n, Counter *counter) {
    auto warp = cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block());
    Counter total;
    const Counter before = tile_exclusive_sum(warp, n, &total);
    return warp_base(total, counter) + before;
  }

 private:
  temp_storage &t_;
};

}  // namespace gcol
#endif
