/* What one thread block of the ANY-order select does with one tile of
 * block_threads * ITEMS items (CUB's "agent" layer).
 *
 * Each warp owns 32 * ITEMS consecutive items, read warp-striped (item
 * j * 32 + lane at step j), so every step is one coalesced access per warp:
 * 32 flag bytes, then 32 items. Items are loaded only where their flag is
 * set: with 16-byte items and half the flags set, a quarter of the 32-byte
 * sectors are never read. The warp ballots each step, counts its selected
 * items, reserves that many slots at once (AGG) and writes step by step,
 * each step's survivors contiguous (coalesced stores). */
#ifndef GCOL_SRC_COMPACT_SELECT_ANY_AGENT_CUH
#define GCOL_SRC_COMPACT_SELECT_ANY_AGENT_CUH

#include <cooperative_groups.h>
#include "gcol/device/block_aggregate.cuh"
#include "gcol/device/warp_aggregate.cuh"
#include "compact_policy.h"

namespace gcol {
namespace detail {
namespace cg = cooperative_groups;

/* atomicAdd in PTX, so that the compiler cannot warp-aggregate it on its own
 * (nvcc does so for a plain atomicAdd of a constant): the benchmark's
 * one-atomic-per-item baseline must really make one atomic per item. */
__device__ __forceinline__ unsigned long long atomic_add_unaggregated(unsigned long long *p, unsigned long long v) {
  unsigned long long old;
  asm volatile("atom.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
  return old;
}

/* Largest block the kernels take (sizes the block counter's shared memory). */
constexpr int SELECT_MAX_BLOCK_THREADS = 1024;

template <class Item, int ITEMS, int AGG>
__device__ __forceinline__ void select_any_tile(const Item *__restrict__ in, const uint8_t *__restrict__ flags,
                                                Item *__restrict__ out, unsigned long long *counter, size_t n,
                                                size_t warp_begin,
                                                typename block_reserve<SELECT_MAX_BLOCK_THREADS,
                                                                       unsigned long long>::temp_storage &tmp) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned lane = warp.thread_rank();
  bool keep[ITEMS];
  Item v[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const size_t i = warp_begin + (size_t)j * 32 + lane;
    keep[j] = i < n && flags[i] != 0;
  }
#pragma unroll
  for (int j = 0; j < ITEMS; ++j)
    if (keep[j]) v[j] = in[warp_begin + (size_t)j * 32 + lane];

  if (AGG == GCOL_AGG_THREAD) { /* the naive baseline: one atomic per item */
#pragma unroll
    for (int j = 0; j < ITEMS; ++j)
      if (keep[j]) out[atomic_add_unaggregated(counter, 1ull)] = v[j];
    return;
  }
  unsigned votes[ITEMS];
  unsigned long long total = 0;
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    votes[j] = warp.ballot(keep[j]);
    total += __popc(votes[j]);
  }
  unsigned long long slot;
  if (AGG == GCOL_AGG_WARP) slot = tile_atomic_base(warp, total, counter);
  else slot = block_reserve<SELECT_MAX_BLOCK_THREADS, unsigned long long>(tmp).warp_base(total, counter);
  const unsigned lower = tile_lower_ranks(warp);
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    if (keep[j]) out[slot + __popc(votes[j] & lower)] = v[j];
    slot += __popc(votes[j]);
  }
}

/* Grid-strided over tiles; every thread of a block runs the same number of
 * iterations, so the block-level counter's barriers are uniform. */
template <class Item, int ITEMS, int AGG>
__global__ void select_any_kernel(const Item *__restrict__ in, const uint8_t *__restrict__ flags,
                                  Item *__restrict__ out, unsigned long long *counter, size_t n) {
  __shared__ typename block_reserve<SELECT_MAX_BLOCK_THREADS, unsigned long long>::temp_storage tmp;
  const size_t tile_items = (size_t)blockDim.x * ITEMS;
  const size_t num_tiles = (n + tile_items - 1) / tile_items;
  for (size_t t = blockIdx.x; t < num_tiles; t += gridDim.x) {
    const size_t warp_begin = t * tile_items + (size_t)(threadIdx.x / 32) * 32 * ITEMS;
    select_any_tile<Item, ITEMS, AGG>(in, flags, out, counter, n, warp_begin, tmp);
    if (AGG == GCOL_AGG_BLOCK) __syncthreads(); /* tmp is reused by the next tile */
  }
}

}  // namespace detail
}  // namespace gcol
#endif
