/* Device layer of the multimap: bulk kernels over the engines of
 * mm_engines.cuh. They reuse the map's bulk-loop helpers (load_key latches
 * reserved keys, warp_add adds once per warp) and its tile loop shape: the
 * loop runs over whole warps, a tile of T lanes takes T consecutive queries,
 * each lane hashes its own, and the tile probes for each rank in turn. */
#ifndef GCOL_SRC_MULTIMAP_MM_KERNELS_CUH
#define GCOL_SRC_MULTIMAP_MM_KERNELS_CUH

#include <cooperative_groups.h>
#include "gcol/device/warp_aggregate.cuh"
#include "map/map_kernels.cuh"
#include "mm_engines.cuh"
#include "mm_ops.h"
#include "tuning_mm.h"

namespace gcol {
namespace detail {
namespace cg = cooperative_groups;

#define GCOL_MM_WARP_LOOP_BEGIN                                                               \
  const size_t stride = (size_t)gridDim.x * blockDim.x;                                       \
  for (size_t base = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) & ~(size_t)31; base < n; \
       base += stride) {                                                                      \
    const size_t i = base + (threadIdx.x & 31);

/* Matches in one visited chunk-row, summed over the tile. */
template <int SB, class Tile>
__device__ __forceinline__ unsigned long long tile_match_count(const Tile &tile, unsigned m) {
  unsigned long long c = 0;
#pragma unroll
  for (int j = 0; j < layout<SB>::per_chunk; ++j) c += __popc(tile.ballot((m >> j) & 1));
  return c;
}

/* count (WRITE false) and retrieve (WRITE true), one core. Retrieve counts
 * first too: each lane counts its own query's matches, the warp reserves
 * all its output with one atomic (tile_reserve_n), then the tiles scan again
 * and write. The second scan reads what the first just brought into L1/L2,
 * and a warp-wide reservation replaces one atomic per matching query. */
/* No __launch_bounds__ (tuning_mm.h says why). */
template <class E, int KB, int VB, bool WRITE>
__global__ void query_kernel(E e, const void *queries, size_t n, mm_query_out o) {
  constexpr int T = E::T, SB = E::SLOT_KIND;
  typedef layout<SB> L;
  auto tile = cg::tiled_partition<T>(cg::this_thread_block());
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const int lane = tile.thread_rank();
  unsigned long long total = 0;
  GCOL_MM_WARP_LOOP_BEGIN
    key_word<KB> k{};
    uint64_t h = 0;
    const bool valid = load_key<KB>(e.t, queries, i, n, k, h);
    unsigned long long mine = 0;
    for (int r = 0; r < T; ++r) {
      if (!tile.shfl(valid, r)) continue;
      unsigned long long c = 0;
      e.scan(tile, tile.shfl(k, r), tile.shfl(h, r),
             [&c, &tile](unsigned m, const chunk<SB> &) { c += tile_match_count<SB>(tile, m); });
      if (lane == r) mine = c;
    }
    if constexpr (!WRITE) {
      if (o.counts && i < n) o.counts[i] = mine;
      total += mine;
    } else {
      __syncwarp();
      unsigned long long at_mine = tile_reserve_n(warp, mine, o.cursor);
      for (int r = 0; r < T; ++r) {
        if (!tile.shfl(mine != 0, r)) continue;
        const key_word<KB> kr = tile.shfl(k, r);
        const unsigned long long q = base + (threadIdx.x & 31) - lane + r;
        unsigned long long at = tile.shfl(at_mine, r);
        e.scan(tile, kr, tile.shfl(h, r), [&](unsigned m, const chunk<SB> &c) {
#pragma unroll
          for (int j = 0; j < L::per_chunk; ++j) {
            const unsigned who = tile.ballot((m >> j) & 1);
            const unsigned long long p = at + __popc(who & tile_lower_ranks(tile));
            if ((m >> j & 1) && p < o.capacity) {
              if (o.keys) store_key_bits<KB>(o.keys, p, kr);
              store_bits<VB>(o.values, p, L::value(c.s[j]));
              o.queries[p] = q;
            }
            at += __popc(who);
          }
        });
      }
    }
  }
  if constexpr (!WRITE) warp_add(o.total, total);
}

/* count in an open table by a thread per query (the policy's solo_lookups
 * classes): the engine's scan with the whole bucket read by one thread,
 * matches summed, stopping after the first bucket with an empty slot. */
template <int KB, int VB>
__global__ void __launch_bounds__(GCOL_MM_BLOCK) oa_count_solo_kernel(table_ref t, const void *queries, size_t n, mm_query_out o) {
  constexpr int SB = slot_of<KB, VB>(), T = oa_engine<SB>::T;
  unsigned long long total = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    key_word<KB> k{};
    uint64_t h = 0;
    unsigned long long c = 0;
    if (load_key<KB>(t, queries, i, n, k, h)) {
      probe_seq seq(h, t.num_buckets);
      for (uint32_t b = 0; b < t.num_buckets; ++b, seq.next()) {
        lane_chunks<SB, T> l = load_lane<SB, T, true>(lane_base<T, SB, T>(t, seq.bucket, 0));
        unsigned m, e, x;
        classify(l, k, t, m, e, x);
        c += __popc(m);
        if (e) break;
      }
    }
    if (o.counts) o.counts[i] = c;
    total += c;
  }
  warp_add(o.total, total); /* whole blocks: every thread gets here */
}

/* Open addressing insert: every valid pair takes a slot of its own. A tile
 * of W lanes per key (mm_insert_lanes, tuning_mm.h) over buckets of T
 * chunks. */
template <int KB, int VB, int W = mm_insert_lanes<oa_engine<slot_of<KB, VB>()>::T, VB == 0>()>
__global__ void __launch_bounds__(GCOL_MM_BLOCK, GCOL_UPSERT_BOUND_BLOCKS) oa_insert_kernel(table_ref t, const void *keys,
                                                                             const void *values, size_t n,
                                                                             unsigned long long *d_count) {
  constexpr int SB = slot_of<KB, VB>(), T = oa_engine<SB>::T;
  auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  const int lane = tile.thread_rank();
  unsigned long long pending = 0, inserted = 0; /* tile-uniform */
  GCOL_MM_WARP_LOOP_BEGIN
    key_word<KB> k{};
    uint64_t h = 0, v = 0;
    const bool valid = load_key<KB>(t, keys, i, n, k, h);
    if (valid) v = load_bits<VB>(values, i);
    for (int r = 0; r < W; ++r) {
      if (!tile.shfl(valid, r)) continue;
      if (tile_insert_dup<T, SB>(tile, t, tile.shfl(k, r), tile.shfl(v, r), tile.shfl(h, r), pending)) ++inserted;
      else if (lane == 0) atomicOr(&t.state->flags, (unsigned)MAP_FLAG_FULL);
    }
  }
  warp_add(&t.state->size, lane == 0 ? pending : 0);
  warp_add(d_count, lane == 0 ? inserted : 0);
}

/* Chained insert: a warp reserves pool nodes with one atomic on
 * t.state->size (which then counts reservations, failed ones included:
 * the size is min(that, capacity)); a pair whose node is past the pool is
 * skipped and latches FULL. Each thread writes its node, then links it
 * (chain_link: under the bucket lock when locks != NULL). */
template <int KB, int VB>
__global__ void __launch_bounds__(GCOL_MM_BLOCK) chain_insert_kernel(table_ref t, unsigned *next, unsigned *heads,
                                                          unsigned *locks, const void *keys, const void *values,
                                                          size_t n, unsigned long long *d_count) {
  constexpr int SB = slot_of<KB, VB>();
  typedef layout<SB> L;
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  unsigned long long inserted = 0;
  GCOL_MM_WARP_LOOP_BEGIN
    key_word<KB> k{};
    uint64_t h = 0, v = 0;
    const bool valid = load_key<KB>(t, keys, i, n, k, h);
    if (valid) v = load_bits<VB>(values, i);
    const unsigned long long x = tile_reserve(warp, valid, &t.state->size);
    const bool fits = valid && x < t.capacity;
    if (warp.any(valid && !fits) && warp.thread_rank() == 0) atomicOr(&t.state->flags, (unsigned)MAP_FLAG_FULL);
    if (fits) {
      static_cast<typename L::slot_t *>(t.slots)[x] = L::make(k, v);
      chain_link(heads, next, locks, chain_engine<SB>::bucket(h, t.num_buckets), (uint32_t)x);
      ++inserted;
    }
  }
  warp_add(d_count, inserted);
}
#undef GCOL_MM_WARP_LOOP_BEGIN

}  // namespace detail
}  // namespace gcol
#endif
