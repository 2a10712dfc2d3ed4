/* Tile-aggregated reservation of output slots (CUDA C++, device code).
 *
 * When many threads append to one output array through one counter, a
 * per-thread atomicAdd serialises them on that address. Here a tile of
 * 1..32 threads (a cooperative_groups thread_block_tile) votes instead:
 * __ballot (tile.ballot) says who wants a slot, __popc of the lower ranks'
 * votes ranks each thread, one thread does one atomicAdd for the whole
 * tile, and the base is broadcast with a shuffle. A tile's slots are
 * contiguous and in rank order, so its writes coalesce.
 *
 *   auto tile = cg::tiled_partition<32>(cg::this_thread_block());
 *   unsigned long long slot = gcol::tile_reserve(tile, keep, d_count);
 *   if (keep) d_out[slot] = item;
 *
 * Every thread of the tile must make the call (the tile must be converged).
 * Counters: unsigned int, int, unsigned long, unsigned long long (size_t on
 * 64-bit Linux is unsigned long). */
#ifndef GCOL_DEVICE_WARP_AGGREGATE_CUH
#define GCOL_DEVICE_WARP_AGGREGATE_CUH

#include <cooperative_groups.h>

namespace gcol {
namespace detail {
/* atomicAdd for every supported counter type (size_t has no overload). */
__device__ __forceinline__ unsigned atomic_add(unsigned *c, unsigned x) { return atomicAdd(c, x); }
__device__ __forceinline__ int atomic_add(int *c, int x) { return atomicAdd(c, x); }
__device__ __forceinline__ unsigned long long atomic_add(unsigned long long *c, unsigned long long x) {
  return atomicAdd(c, x);
}
__device__ __forceinline__ unsigned long atomic_add(unsigned long *c, unsigned long x) {
  static_assert(sizeof(unsigned long) == sizeof(unsigned long long), "64-bit unsigned long");
  return (unsigned long)atomicAdd(reinterpret_cast<unsigned long long *>(c), (unsigned long long)x);
}
}  // namespace detail

/* Bits of the ranks below this thread's rank in a tile ballot. */
template <class Tile>
__device__ __forceinline__ unsigned tile_lower_ranks(const Tile &tile) {
  return (1u << tile.thread_rank()) - 1u;
}

/* Exclusive prefix sum of x over the tile's ranks; *total receives the sum
 * (on every thread). Inclusive Hillis-Steele over shuffles, log2(tile) steps. */
template <class Tile, class T>
__device__ __forceinline__ T tile_exclusive_sum(const Tile &tile, T x, T *total) {
  T inc = x;
  for (unsigned o = 1; o < tile.num_threads(); o <<= 1) {
    T y = tile.shfl_up(inc, o);
    if (tile.thread_rank() >= o) inc += y;
  }
  *total = tile.shfl(inc, tile.num_threads() - 1);
  return inc - x;
}

/* One atomicAdd of count (the same on every thread of the tile) to *counter,
 * made by rank 0 and skipped when count is 0; every thread gets the value
 * the counter had before, the first slot of the tile's range. */
template <class Tile, class Counter>
__device__ __forceinline__ Counter tile_atomic_base(const Tile &tile, Counter count, Counter *counter) {
  Counter base = 0;
  if (tile.thread_rank() == 0 && count) base = detail::atomic_add(counter, count);
  return tile.shfl(base, 0);
}

/* A slot for every thread whose want is true (distinct, contiguous per tile
 * in rank order); threads without want get an unspecified value. */
template <class Tile, class Counter>
__device__ __forceinline__ Counter tile_reserve(const Tile &tile, bool want, Counter *counter) {
  const unsigned votes = tile.ballot(want);
  const Counter base = tile_atomic_base(tile, (Counter)__popc(votes), counter);
  return base + (Counter)__popc(votes & tile_lower_ranks(tile));
}

/* n slots for every thread (n may differ per thread, 0 allowed); returns the
 * first of this thread's n. The tile's ranges are contiguous in rank order. */
template <class Tile, class Counter>
__device__ __forceinline__ Counter tile_reserve_n(const Tile &tile, Counter n, Counter *counter) {
  Counter total;
  const Counter before = tile_exclusive_sum(tile, n, &total);
  return tile_atomic_base(tile, total, counter) + before;
}

}  // namespace gcol
#endif
