/* Growth kernels: rebuild a table into a larger one in two streaming passes.
 *
 * A key's first bucket is umulhi(low 32 bits of its hash, num_buckets), a
 * monotone map of the hash onto the buckets, so the new table cut into
 * segments of SEG buckets corresponds to consecutive runs of old buckets.
 * Pass 1 (stage_kernel): one block per new segment reads its run of old
 * buckets once, drops every pair whose first new bucket lies in the segment
 * into a shared-memory copy of the segment (one shared atomic per pair), and
 * then writes the whole segment out with coalesced stores: the new table
 * needs no fill and no global atomics. A pair that does not fit (its first
 * bucket is full, or it belongs to another segment because it sat in a
 * later probe position of the old table) is deferred: the block packs its
 * deferred pairs at the front of its own run of old slots, which it has
 * read already, and marks their end with an empty slot. Pass 2
 * (deferred_kernel): one warp per segment inserts its deferred pairs with
 * the ordinary tile insert. Every key of pass 1 sits in its first bucket,
 * and a bucket only defers once full, so the probe invariant (a key lives
 * after full buckets only) holds as after ordinary inserts.
 *
 * Memory traffic is the old table read once and the new one written once;
 * the earlier rebuild (fill the new table, then one CAS insert per pair)
 * spent 12 ms moving 80M pairs into 200M slots on an H100 (docs/experiments.md).
 * The old table is consumed: callers free it afterwards and may not fall
 * back to it once pass 1 ran (every allocation happens before). */
#ifndef GCOL_SRC_MAP_MAP_REBUILD_CUH
#define GCOL_SRC_MAP_MAP_REBUILD_CUH

#include "gcol/device/hash.cuh"
#include "gcol/device/detail/map_bulk.cuh"
#include "gcol/device/detail/warp_redux.cuh"
#include "tuning_oa.h" /* GCOL_REBUILD_* */

namespace gcol {
namespace detail {

/* A segment: the new buckets one block stages in shared memory,
 * GCOL_REBUILD_STAGE_BYTES of slots for either slot size and any bucket
 * width T. */
template <int T, int SB>
struct rebuild_shape {
  enum { slots_per_bucket = T * layout<SB>::per_chunk, stage_slots = GCOL_REBUILD_STAGE_BYTES / layout<SB>::bytes,
         segment_buckets = stage_slots / slots_per_bucket };
};

/* First hash (low 32 bits) whose first bucket is >= b: ceil(b * 2^32 / nb). */
__device__ __forceinline__ uint64_t first_hash_of(uint64_t b, uint32_t nb) {
  return ((b << 32) + nb - 1) / nb;
}

/* The run of old buckets [*lo, *hi) that segment `seg` of `to` reads: the
 * old buckets whose hash range starts before the segment's end. Consecutive
 * segments get consecutive runs that cover the old table once. */
__device__ __forceinline__ void old_run(const table_ref &from, const table_ref &to, uint32_t seg, uint32_t seg_buckets,
                                        uint32_t *lo, uint32_t *hi) {
  uint64_t b0 = (uint64_t)seg * seg_buckets, b1 = b0 + seg_buckets;
  *lo = (uint32_t)((first_hash_of(b0, to.num_buckets) * from.num_buckets) >> 32);
  *hi = b1 >= to.num_buckets ? from.num_buckets
                             : (uint32_t)((first_hash_of(b1, to.num_buckets) * from.num_buckets) >> 32);
}

template <int T, int KB, int VB, int KC = 0>
__global__ void __launch_bounds__(GCOL_REBUILD_BLOCK) stage_kernel(table_ref from, table_ref to) {
  constexpr int SB = slot_for_scheme<slot_of<KB, VB>(), KC>(), PER = layout<SB>::per_chunk;
  constexpr int BS = rebuild_shape<T, SB>::slots_per_bucket, SEG = rebuild_shape<T, SB>::segment_buckets;
  constexpr int ITEMS = GCOL_REBUILD_ITEMS, ROUND = GCOL_REBUILD_BLOCK * ITEMS;
  typedef layout<SB> L;
  typedef typename L::slot_t slot_t;
  __shared__ slot_t stage[SEG * BS];
  __shared__ unsigned fill[SEG];
  __shared__ unsigned n_deferred;
  __shared__ unsigned long long placed;

  const uint32_t seg0 = blockIdx.x * SEG;
  const uint32_t seg_n = to.num_buckets - seg0 < (uint32_t)SEG ? to.num_buckets - seg0 : SEG;
  uint32_t ob_lo, ob_hi;
  old_run(from, to, blockIdx.x, SEG, &ob_lo, &ob_hi);
  for (int b = threadIdx.x; b < SEG; b += blockDim.x) fill[b] = 0;
  if (threadIdx.x == 0) n_deferred = 0, placed = 0;

  slot_t *old_slots = static_cast<slot_t *>(from.slots) + (size_t)ob_lo * BS;
  const chunk<SB> *old_chunks = static_cast<const chunk<SB> *>(from.slots) + (size_t)ob_lo * T;
  const size_t run_chunks = (size_t)(ob_hi - ob_lo) * T;
  unsigned my_placed = 0;
  for (size_t c0 = 0; c0 < run_chunks; c0 += ROUND) {
    chunk<SB> c[ITEMS];
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
      size_t ci = c0 + it * GCOL_REBUILD_BLOCK + threadIdx.x;
      constexpr int N = sizeof(chunk<SB>) / 16; /* 16-byte pieces (2: a 32-byte slot) */
      ulonglong2 raw[N] = {};
#pragma unroll
      for (int q = 0; q < N; ++q)
        if (ci < run_chunks) raw[q] = __ldcs(reinterpret_cast<const ulonglong2 *>(old_chunks + ci) + q); /* read once */
      memcpy(&c[it], raw, sizeof raw);
    }
    /* The whole round is read before deferred pairs overwrite the run's
     * front: a deferred pair goes to a position below the number of slots
     * read so far, so there is always room. */
    __syncthreads();
#pragma unroll
    for (int it = 0; it < ITEMS; ++it)
#pragma unroll
      for (int j = 0; j < PER; ++j) { /* whole warps run every pair: the deferral below is warp-aggregated */
        const key_of<SB> k = c0 + it * GCOL_REBUILD_BLOCK + threadIdx.x < run_chunks ? L::key(c[it].s[j])
                                                                                   : sentinel_key<key_of<SB>>(from.empty_key);
        bool live = k != sentinel_key<key_of<SB>>(from.empty_key) && k != sentinel_key<key_of<SB>>(from.erased_key);
        uint32_t b = live ? __umulhi((uint32_t)hash_key(k, to.seed), to.num_buckets) - seg0 : 0; /* wraps when below */
        unsigned pos = live && b < seg_n ? atomicAdd(&fill[b], 1u) : BS;
        if (pos < BS) stage[b * BS + pos] = c[it].s[j], ++my_placed;
        /* one shared atomic per warp: a counter every deferring thread hit
         * serialized the blocks (15% of pairs defer at load 0.8) */
        bool defer = live && pos >= BS;
        unsigned m = __ballot_sync(0xffffffffu, defer);
        if (m) {
          unsigned lane = threadIdx.x & 31, base = 0;
          if (lane == (unsigned)__ffs(m) - 1) base = atomicAdd(&n_deferred, (unsigned)__popc(m));
          base = __shfl_sync(0xffffffffu, base, __ffs(m) - 1);
          if (defer) old_slots[base + __popc(m & ((1u << lane) - 1))] = c[it].s[j];
        }
      }
  }
  my_placed = redux_add(my_placed);
  if ((threadIdx.x & 31) == 0) atomicAdd(&placed, (unsigned long long)my_placed);
  __syncthreads();
  if (threadIdx.x == 0) {
    if (n_deferred < run_chunks * PER)
      old_slots[n_deferred] = L::make(sentinel_key<key_of<SB>>(from.empty_key), from.empty_value); /* the end */
    if (placed) atomicAdd(&to.state->size, placed);
  }

  /* the segment, in order: staged pairs then empty slots in each bucket */
  const slot_t empty = L::make(sentinel_key<key_of<SB>>(to.empty_key), to.empty_value);
  slot_t *out = static_cast<slot_t *>(to.slots) + (size_t)seg0 * BS;
  /* pairs claimed key first: a moved value equal to empty_value is
     published by its bit (map_tile.cuh; rehash zeroed the bits) */
  const bool mark = is_pair16(SB) && split_claim<SB>(to);
  for (unsigned s = threadIdx.x; s < seg_n * BS; s += blockDim.x) {
    unsigned b = s / BS, pos = s % BS;
    out[s] = pos < fill[b] ? stage[s] : empty;
    if constexpr (is_pair16(SB))
      if (mark && pos < fill[b] && L::value(stage[s]) == to.empty_value) mark_published(to, out + s);
  }
}

/* Pass 2: one warp per segment inserts the pairs pass 1 deferred. */
template <int T, int KB, int VB, int KC = 0>
__global__ void __launch_bounds__(GCOL_REBUILD_BLOCK) deferred_kernel(table_ref from, table_ref to,
                                                                    uint32_t num_segments) {
  constexpr int SB = slot_for_scheme<slot_of<KB, VB>(), KC>();
  constexpr int BS = rebuild_shape<T, SB>::slots_per_bucket, SEG = rebuild_shape<T, SB>::segment_buckets;
  typedef layout<SB> L;
  typedef typename L::slot_t slot_t;
  const uint32_t seg = blockIdx.x * (GCOL_REBUILD_BLOCK / 32) + threadIdx.x / 32;
  if (seg >= num_segments) return; /* whole warps leave */
  auto tile = cg::tiled_partition<T>(cg::this_thread_block());
  const unsigned lane = threadIdx.x & 31;
  const upsert_args a = {UPSERT_INSERT, 0, 0};
  uint32_t ob_lo, ob_hi;
  old_run(from, to, seg, SEG, &ob_lo, &ob_hi);
  const slot_t *run = static_cast<const slot_t *>(from.slots) + (size_t)ob_lo * BS;
  const size_t run_slots = (size_t)(ob_hi - ob_lo) * BS;
  unsigned long long pending = 0, inserted = 0; /* tile-uniform */
  for (size_t w = 0;; w += 32) {
    slot_t s = L::make(sentinel_key<key_of<SB>>(from.empty_key), from.empty_value);
    if (w + lane < run_slots) s = run[w + lane];
    key_of<SB> k = L::key(s);
    unsigned end = __ballot_sync(0xffffffffu, key_is(k, from.empty_key)); /* past the run reads as empty */
    bool valid = end ? lane < (unsigned)__ffs(end) - 1 : true;
    uint64_t h = valid ? hash_key(k, to.seed) : 0, v = L::value(s);
    uint64_t stored; /* cannot run out of room below load 1; a full map would be latched */
    bulk_upsert_step<T, SB>(tile, to, valid, k, v, h, a, stored, pending, inserted);
    if (end) break;
  }
  if (tile.thread_rank() == 0 && pending) atomicAdd(&to.state->size, pending);
}

}  // namespace detail
}  // namespace gcol
#endif
