/* Tile layer, bulk form: every lane of a tile holds its own input, loaded
 * and hashed once; the tile walks its ranks, broadcasting each rank's key,
 * hash (and value) with shuffles, and probes for it together; each lane
 * gets its own result back. The library's bulk lookups and erases
 * (src/map/) and the device API (gcol/device/map.cuh) run these steps; the
 * library's insert kernel runs the per-key step below them (tile_upsert on a
 * key per tile: upsert_lanes in src/map/map_kernels.cuh). */
#ifndef GCOL_DEVICE_DETAIL_MAP_BULK_CUH
#define GCOL_DEVICE_DETAIL_MAP_BULK_CUH

#include "gcol/device/hash.cuh"
#include "gcol/device/detail/map_tile.cuh"

namespace gcol {
namespace detail {

/* Lanes that probe one key together in the bulk steps, for buckets of T
 * 16-byte chunks: the device API's defaults (users' kernels). The library's
 * own kernels take theirs from its tuning file (src/map/tuning_oa.h,
 * oa_tuning), measured once for both, with the same numbers. Lookups in buckets of 4 or more chunks take half as many
 * lanes, each reading two chunks, so a warp has twice the keys in flight (H100,
 * 100M i64 pairs, load 0.5: find 23.0 -> 24.9 G/s, contains 22.3 -> 26.1; load
 * 0.8: find 19.3 -> 21.3). The bulk insert steps keep a lane per chunk: with two
 * chunks per lane, insert at load 0.5 went 9.95 -> 9.71 G/s (at 0.8 8.18 ->
 * 8.65), and the i32 maps' 2-chunk buckets lost on every operation. */
/* Keys-only tables (sets, multisets) take their own counts, at most T:
 * GCOL_SET_LOOKUP_LANES for lookups, GCOL_SET_INSERT_LANES for inserts and
 * erase. H100 sweep, 4-chunk buckets, 100M keys at load 0.5 (insert /
 * contains / misses / erase G/s): u64 with 2 and 4 lanes 11.18/22.77/25.79/
 * 12.02, one lane for everything 9.52/22.68/22.08/7.99; u32 11.38/23.39/
 * 26.59/12.55 against 10.07/24.11/25.78/10.93 (docs/experiments.md). */
#ifndef GCOL_SET_LOOKUP_LANES
#define GCOL_SET_LOOKUP_LANES 2
#endif
#ifndef GCOL_SET_INSERT_LANES
#define GCOL_SET_INSERT_LANES 4
#endif
template <int T, bool LOOKUP, int SB = SLOT_PAIR16>
__host__ __device__ constexpr int worker_lanes() {
  if constexpr (layout<SB>::keys_only) {
    constexpr int W = LOOKUP ? GCOL_SET_LOOKUP_LANES : GCOL_SET_INSERT_LANES;
    return W < T ? W : T;
  }
  return LOOKUP && T >= 4 ? T / 2 : T;
}

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
__device__ __forceinline__ bool accept_key(const table_ref &t, key16 k, uint64_t &h) {
  if (key_is(k, t.empty_key) || key_is(k, t.erased_key)) {
    atomicOr(&t.state->flags, (unsigned)MAP_FLAG_RESERVED);
    return false;
  }
  h = hash128(k.lo, k.hi, t.seed);
  return true;
}
/* The hash of a stored key (growth re-hashes with the new table's seed). */
__device__ __forceinline__ uint64_t hash_key(uint64_t k, uint64_t seed) { return hash64(k, seed); }
__device__ __forceinline__ uint64_t hash_key(key16 k, uint64_t seed) { return hash128(k.lo, k.hi, seed); }

/* find: *my_value is the value of this lane's key, or empty_value. (Loading
 * the first buckets of all the tile's keys at once before probing was
 * measured slower on an H100: 23.1 -> 15.9 G finds/s, registers 50.) */
template <int T, int SB, class Tile>
__device__ __forceinline__ bool bulk_find_step(const Tile &tile, const table_ref &t, bool valid, key_of<SB> k,
                                               uint64_t h, uint64_t &my_value) {
  bool my_found = false;
  my_value = t.empty_value;
  for (int r = 0; r < (int)Tile::num_threads(); ++r) {
    if (!tile.shfl(valid, r)) continue;
    uint64_t value = t.empty_value;
    bool found = tile_find<T, SB>(tile, t, tile.shfl(k, r), tile.shfl(h, r), value);
    if (tile.thread_rank() == (unsigned)r) my_found = found, my_value = found ? value : t.empty_value;
  }
  return my_found;
}

/* find with two of the tile's keys in flight at a time (tile_find_two; a
 * tile of an even number of lanes): the same answers as bulk_find_step. */
template <int T, int SB, class Tile>
__device__ __forceinline__ bool bulk_find_step_two(const Tile &tile, const table_ref &t, bool valid, key_of<SB> k,
                                                   uint64_t h, uint64_t &my_value) {
  static_assert(Tile::num_threads() % 2 == 0, "two keys at a time: an even tile");
  bool my_found = false;
  my_value = t.empty_value;
  for (int r = 0; r < (int)Tile::num_threads(); r += 2) {
    bool fa = false, fb = false;
    uint64_t xa = t.empty_value, xb = t.empty_value;
    tile_find_two<T, SB>(tile, t, tile.shfl(valid, r), tile.shfl(k, r), tile.shfl(h, r), fa, xa,
                         tile.shfl(valid, r + 1), tile.shfl(k, r + 1), tile.shfl(h, r + 1), fb, xb);
    if (tile.thread_rank() == (unsigned)r) my_found = fa, my_value = fa ? xa : t.empty_value;
    if (tile.thread_rank() == (unsigned)r + 1) my_found = fb, my_value = fb ? xb : t.empty_value;
  }
  return my_found;
}

/* insert family (a.mode): returns this lane's upsert_status (NO_ROOM for an
 * invalid lane) and the value stored for its key. pending (inserts not yet
 * added to the map's size) and inserted are tile-uniform running counts. A
 * full map is latched. */
template <int T, int SB, class Tile>
__device__ __forceinline__ int bulk_upsert_step(const Tile &tile, const table_ref &t, bool valid, key_of<SB> k,
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
__device__ __forceinline__ bool bulk_erase_step(const Tile &tile, const table_ref &t, bool valid, key_of<SB> k,
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
