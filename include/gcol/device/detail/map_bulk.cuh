/* Tile layer, bulk form: every lane of a tile holds its own input, loaded
 * and hashed once; the tile walks its ranks, broadcasting each rank's key,
 * hash (and value) with shuffles, and probes for it together; each lane
 * gets its own result back. The library's bulk kernels (src/map/) and the
 * device API (gcol/device/map.cuh) both run these steps: one probing path. */
#ifndef GCOL_DEVICE_DETAIL_MAP_BULK_CUH
#define GCOL_DEVICE_DETAIL_MAP_BULK_CUH

#include "gcol/device/hash.cuh"
#include "gcol/device/detail/map_tile.cuh"

namespace gcol {
namespace detail {

/* Per-input prologue: a sentinel key is latched as RESERVED and skipped;
 * any other key is hashed. */
__device__ __forceinline__ bool accept_key(const table_ref &t, uint64_t k, uint64_t &h) {
  if (k == t.empty_key || k == t.erased_key) {
    atomicOr(&t.state->flags, (unsigned)MAP_FLAG_RESERVED);
    return false;
  }
  h = hash64(k, t.seed);
  return true;
}

/* The first bucket of a key, as one lane's chunks: the verdict if it
 * decides the lookup (1 found, 0 absent), -1 when probing must go on. */
template <int T, int SB, int C, class Tile>
__device__ __forceinline__ int first_bucket_verdict(const Tile &tile, const table_ref &t, const lane_chunks<SB, C> &c,
                                                    uint64_t key, uint64_t &value) {
  unsigned m, e, x;
  classify(c, key, t, m, e, x);
  unsigned who = tile.ballot(m != 0);
  if (who) {
    uint64_t v = m ? layout<SB>::value(pick(c, __ffs(m) - 1)) : 0;
    value = tile.shfl(v, __ffs(who) - 1);
    return 1;
  }
  return tile.any(e != 0) ? 0 : -1;
}

/* find: *my_value is the value of this lane's key, or empty_value. The
 * first buckets of all the tile's keys are loaded at once (one load per
 * key and lane in flight together, the point of hashing every key up
 * front); the few keys their first bucket does not decide probe on. */
template <int T, int SB, class Tile>
__device__ __forceinline__ bool bulk_find_step(const Tile &tile, const table_ref &t, bool valid, uint64_t k,
                                               uint64_t h, uint64_t &my_value) {
  constexpr int W = Tile::num_threads(), C = T / W;
  lane_chunks<SB, C> first[W];
#pragma unroll
  for (int r = 0; r < W; ++r) {
    uint64_t hr = tile.shfl(h, r);
    if (tile.shfl(valid, r))
      first[r] = load_lane<SB, C, true>(lane_base<T, SB, C>(t, probe_seq(hr, t.num_buckets).bucket, tile.thread_rank()));
  }
  bool my_found = false;
  my_value = t.empty_value;
#pragma unroll
  for (int r = 0; r < W; ++r) {
    if (!tile.shfl(valid, r)) continue;
    uint64_t kr = tile.shfl(k, r), value = t.empty_value;
    int found = first_bucket_verdict<T, SB>(tile, t, first[r], kr, value);
    if (found < 0) found = tile_find<T, SB>(tile, t, kr, tile.shfl(h, r), value);
    if (tile.thread_rank() == (unsigned)r) my_found = found, my_value = found ? value : t.empty_value;
  }
  return my_found;
}

/* insert family (a.mode): returns this lane's upsert_status (NO_ROOM for an
 * invalid lane) and the value stored for its key. pending (inserts not yet
 * added to the map's size) and inserted are tile-uniform running counts. A
 * full map is latched. */
template <int T, int SB, class Tile>
__device__ __forceinline__ int bulk_upsert_step(const Tile &tile, const table_ref &t, bool valid, uint64_t k,
                                                uint64_t v, uint64_t h, const upsert_args &a, uint64_t &my_stored,
                                                unsigned long long &pending, unsigned long long &inserted) {
  int my_status = UPSERT_NO_ROOM;
  my_stored = t.empty_value;
  for (int r = 0; r < (int)Tile::num_threads(); ++r) {
    if (!tile.shfl(valid, r)) continue;
    uint64_t stored = t.empty_value;
    int st = tile_upsert<T, SB>(tile, t, tile.shfl(k, r), tile.shfl(v, r), tile.shfl(h, r), a, stored, pending);
    if (st == UPSERT_INSERTED) ++inserted;
    if (st == UPSERT_NO_ROOM) {
      if (tile.thread_rank() == 0) atomicOr(&t.state->flags, (unsigned)MAP_FLAG_FULL);
      stored = t.empty_value;
    }
    if (tile.thread_rank() == (unsigned)r) my_status = st, my_stored = stored;
  }
  return my_status;
}

/* erase: whether this lane's key was erased (by this call); erased is a
 * tile-uniform running count. */
template <int T, int SB, class Tile>
__device__ __forceinline__ bool bulk_erase_step(const Tile &tile, const table_ref &t, bool valid, uint64_t k,
                                                uint64_t h, unsigned long long &erased) {
  bool mine = false;
  for (int r = 0; r < (int)Tile::num_threads(); ++r) {
    if (!tile.shfl(valid, r)) continue;
    bool e = tile_erase<T, SB>(tile, t, tile.shfl(k, r), tile.shfl(h, r));
    erased += e;
    if (tile.thread_rank() == (unsigned)r) mine = e;
  }
  return mine;
}

}  // namespace detail
}  // namespace gcol
#endif
