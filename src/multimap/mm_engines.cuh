/* Tile layer of the multimap: how each engine inserts one pair and how it
 * visits the stored pairs of one key.
 *
 * An engine's scan(tile, key, hash, visit) calls visit(m, c) once per
 * chunk-row it reads that holds the key: c is the lane's 16-byte chunk, m
 * the bits of its slots that hold the key. Calls are tile-uniform (every
 * lane calls visit together), so visit may use the tile's collectives.
 *
 * Open addressing reads the map's layout (map_layout.cuh) with its probe
 * sequence: a key's copies sit in the first free slots of its sequence, so a
 * scan stops after the first bucket that holds an empty slot (slots only go
 * from empty to full between clears: no erase, no tombstones). The chained
 * engine follows 32-bit links from the key's bucket head. */
#ifndef GCOL_SRC_MULTIMAP_MM_ENGINES_CUH
#define GCOL_SRC_MULTIMAP_MM_ENGINES_CUH

#include "gcol/device/detail/map_tile.cuh"
#include "gcol/device/lock.cuh"
#include "map/map_policy.h"
#include "mm_plan.h"

namespace gcol {
namespace detail {

template <int SB>
struct oa_engine {
  static constexpr int SLOT_KIND = SB;
  static constexpr int T = layout<SB>::keys_only      ? GCOL_MULTISET_TILE
                           : layout<SB>::bytes == 32 ? GCOL_MM_TILE32
                           : layout<SB>::bytes == 16 ? GCOL_MM_TILE16
                                                     : GCOL_MM_TILE8;
  table_ref t;

  template <class Tile, class Visit>
  __device__ __forceinline__ void scan(const Tile &tile, key_of<SB> key, uint64_t h, Visit &&visit) const {
    const chunk<SB> *chunks = static_cast<const chunk<SB> *>(t.slots);
    probe_seq seq(h, t.num_buckets);
    for (uint32_t i = 0; i < t.num_buckets; ++i, seq.next()) {
      chunk<SB> c = load_chunk_ro(chunks + (size_t)seq.bucket * T + tile.thread_rank());
      unsigned m, e, x;
      classify(c, key, t, m, e, x);
      if (tile.any(m != 0)) visit(m, c);
      if (tile.any(e != 0)) return;
    }
  }
};

/* Insert one copy of key into the first empty slot of its probe sequence,
 * by a tile of lanes over a bucket of T chunks (T / lanes each; a solo_tile:
 * one thread reads the whole bucket). A lost claim re-reads the same bucket
 * (it may still hold an empty slot). False when no slot is left (bounded:
 * every bucket once, and past 16 buckets the map_is_full check of the map). */
template <int T, int SB, class Tile>
__device__ __forceinline__ bool tile_insert_dup(const Tile &tile, const table_ref &t, key_of<SB> key, uint64_t value,
                                                uint64_t h, unsigned long long &pending) {
  typedef layout<SB> L;
  constexpr int C = T / Tile::num_threads();
  static_assert(C >= 1, "a probing tile is at most as wide as a bucket");
  const int lane = tile.thread_rank();
  probe_seq seq(h, t.num_buckets);
  for (uint32_t visited = 0; visited < t.num_buckets;) {
    if (visited >= 16 && (visited & 15) == 0 && map_is_full(tile, t, pending)) return false;
    chunk<SB> *cp = lane_base<T, SB, C>(t, seq.bucket, lane);
    const lane_chunks<SB, C> c = load_lane<SB, C, false>(cp);
    unsigned m, e, x;
    classify(c, key, t, m, e, x);
    unsigned fw = tile.ballot(e != 0);
    if (!fw) {
      ++visited, seq.next();
      continue;
    }
    int src = __ffs(fw) - 1, won = 0;
    if (lane == src) {
      typename L::slot_t now;
      won = claim<SB, false>(slot_at(cp, __ffs(e) - 1), L::make(sentinel_key<key_of<SB>>(t.empty_key), t.empty_value),
                             key, value, t, &now);
    }
    if (tile.shfl(won, src)) {
      ++pending;
      return true;
    }
  }
  return false;
}

/* One pool slot, through the read-only path. */
template <int SB>
__device__ __forceinline__ typename layout<SB>::slot_t load_slot_ro(const void *pool, uint32_t x) {
  typedef typename layout<SB>::slot_t slot_t;
  slot_t s;
  if constexpr (sizeof(slot_t) <= 8) {
    s = __ldg(static_cast<const slot_t *>(pool) + x);
  } else if constexpr (SB == SLOT_PAIR16) {
    ulonglong2 raw = __ldg(static_cast<const ulonglong2 *>(pool) + x);
    s.k = raw.x, s.v = raw.y;
  } else { /* 16-byte keys: a slot is a whole chunk */
    s = load_chunk_ro(static_cast<const chunk<SB> *>(pool) + x).s[0];
  }
  return s;
}

/* Chained engine: t.slots is the node pool's pairs, t.num_buckets the heads,
 * t.capacity the nodes. One thread walks a chain (T = 1). */
template <int SB>
struct chain_engine {
  static constexpr int SLOT_KIND = SB;
  static constexpr int T = 1;
  table_ref t;
  const unsigned *next, *heads;

  static __device__ __forceinline__ uint32_t bucket(uint64_t h, uint32_t nb) { return __umulhi((uint32_t)h, nb); }

  template <class Tile, class Visit>
  __device__ __forceinline__ void scan(const Tile &, key_of<SB> key, uint64_t h, Visit &&visit) const {
    for (unsigned x = __ldg(heads + bucket(h, t.num_buckets)); x != GCOL_MM_NIL; x = __ldg(next + x)) {
      chunk<SB> c = {};
      c.s[0] = load_slot_ro<SB>(t.slots, x);
      if (layout<SB>::key(c.s[0]) == key) visit(1u, c);
    }
  }
};

/* Link node x into bucket b. With locks: under the bucket's spin mutex (the
 * reference design). Without: one atomic exchange on the head, then the
 * link; no reader follows links inside an insert kernel, so the moment
 * between the two is never seen. */
__device__ __forceinline__ void chain_link(unsigned *heads, unsigned *next, unsigned *locks, uint32_t b,
                                           uint32_t x) {
  if (locks) {
    spin_mutex m(locks + b);
    m.lock();
    next[x] = heads[b];
    heads[b] = x;
    m.unlock();
  } else {
    next[x] = atomicExch(heads + b, x);
  }
}

}  // namespace detail
}  // namespace gcol
#endif
