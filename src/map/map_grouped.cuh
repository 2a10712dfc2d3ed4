/* Grouped insert_or_apply: a batch much larger than its fixed map (many
 * applies per key) is first reduced per key in shared memory, so the map
 * takes one apply per distinct key instead of one per input.
 *
 * Why: 100M applies onto 1M or 10M keys are bound by the map's atomics, in
 * L2 or in DRAM (H100: 3.1 and 8.5 ms); shared-memory atomics are an order
 * of magnitude cheaper. The batch is split by the top bits of the key's hash
 * into P partitions small enough that one block's shared table holds the
 * distinct keys of one partition:
 *   1. histogram: the size of every partition;
 *   2. starts: their exclusive scan (the scatter's cursors), and the
 *      reduce's work items;
 *   3. scatter, once, or for many partitions twice (by the top half of
 *      the bits, then by all of them): keys (and values) copied to their
 *      partition's range, a tile at a time sorted in shared memory so that
 *      the writes are long runs;
 *   4. reduce: a block per work item (a partition, or a piece of a large
 *      one) folds its range into a shared table with the op's atomics,
 *      then applies each (key, partial) to the map.
 * A key the shared table has no room for is applied to the map at once, so
 * a partition holding more distinct keys than planned costs speed, never a
 * result: the ops are associative and commutative, so any split of a key's
 * inputs into partials folds to the same value (floats: up to the order of
 * additions, which atomics never fixed). Sentinel keys are latched and
 * skipped where the direct path does it (accept_key in step 4).
 *
 * Region order (oa_ops::order_regions, tuning_oa.h says when) runs steps
 * 1-3 alone on a batch of keys: one pass into runs of the table's buckets. */
#ifndef GCOL_SRC_MAP_MAP_GROUPED_CUH
#define GCOL_SRC_MAP_MAP_GROUPED_CUH

#include <type_traits>
#include <cub/block/block_scan.cuh>
#include "map_kernels.cuh"

namespace gcol {
namespace detail {

/* Block sizes, items per thread, probes and loads: tuning_oa.h
 * (GCOL_GROUPED_*). A key that finds no room after GCOL_GROUPED_PROBES
 * shared slots goes to the map. */

/* Words of the shared table: keys and values as wide as the map's. */
template <int B>
using shared_word = std::conditional_t<B == 4, unsigned, unsigned long long>;

/* The partition of a key: bits [top - pbits, top) of its hash. Grouping
 * takes the top of the whole hash (top 64: the shared table takes the low
 * bits, the map its own mix of both); region order (below) the top of the
 * low 32 bits, which pick the home bucket (probe_seq), so a partition is a
 * run of the table's buckets. */
__device__ __forceinline__ uint32_t grouped_part(uint64_t h, int pbits, int top) {
  return (uint32_t)((h << (64 - top)) >> (64 - pbits));
}

/* 1. The partition sizes of every pass at once: hist[p] for the top bits0
 * bits of the hash, and when bits1 > 0 (two passes) hist[2^bits0 + p] for
 * the top bits1. */
template <int KB>
__global__ void __launch_bounds__(GCOL_GROUPED_BLOCK) grouped_histogram_kernel(table_ref t, const void *keys, size_t n,
                                                                               int bits0, int bits1, int top,
                                                                               uint32_t *hist) {
  extern __shared__ uint32_t h[];
  const uint32_t first = 1u << bits0, total = first + (bits1 ? 1u << bits1 : 0);
  for (uint32_t p = threadIdx.x; p < total; p += blockDim.x) h[p] = 0;
  __syncthreads();
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint64_t x = hash_key(load_key_bits<KB>(keys, i), t.seed);
    atomicAdd(&h[grouped_part(x, bits0, top)], 1u);
    if (bits1) atomicAdd(&h[first + grouped_part(x, bits1, top)], 1u);
  }
  __syncthreads();
  for (uint32_t p = threadIdx.x; p < total; p += blockDim.x)
    if (h[p]) atomicAdd(&hist[p], h[p]);
}

/* An exclusive scan of value(p) for p in [0, parts) by a whole block, each
 * thread over a run of consecutive p: f(p, start of p, value(p)) for every
 * p, value(p) taken before f runs (f may overwrite what it reads). */
typedef cub::BlockScan<uint32_t, GCOL_GROUPED_BLOCK> grouped_scan_t;
template <class V, class F>
__device__ __forceinline__ void grouped_block_scan(uint32_t parts, typename grouped_scan_t::TempStorage &tmp, V value,
                                                   F f) {
  const uint32_t per = (parts + blockDim.x - 1) / blockDim.x, first = threadIdx.x * per;
  uint32_t sum = 0;
  for (uint32_t j = 0; j < per && first + j < parts; ++j) sum += value(first + j);
  grouped_scan_t(tmp).ExclusiveSum(sum, sum);
  for (uint32_t j = 0; j < per && first + j < parts; ++j) {
    const uint32_t c = value(first + j);
    f(first + j, sum, c);
    sum += c;
  }
}

/* 2. cursor := exclusive scan of each pass's sizes (each partition's start,
 * where the scatter writes), and the reduce's work: each partition of the
 * last pass cut into items of at most `chunk` inputs, items[2i] /
 * items[2i + 1] the begin and end of item i, *num_items their number
 * (items NULL: none). (One block; at most 2^13 + 2^7 counters; bits1 0:
 * one pass.) A template only so that each kernel instance file
 * may hold a copy. */
template <int KB>
__global__ void __launch_bounds__(GCOL_GROUPED_BLOCK) grouped_starts_kernel(const uint32_t *hist, int bits0, int bits1,
                                                                            uint32_t *cursor, uint32_t chunk,
                                                                            uint32_t *items, uint32_t *num_items) {
  __shared__ typename grouped_scan_t::TempStorage tmp;
  const int passes = bits1 ? 2 : 1;
  uint32_t base = 0, parts = 0;
  for (int pass = 0; pass < passes; ++pass) {
    base = pass ? 1u << bits0 : 0, parts = 1u << (pass ? bits1 : bits0);
    grouped_block_scan(parts, tmp, [&](uint32_t p) { return hist[base + p]; },
                       [&](uint32_t p, uint32_t start, uint32_t) { cursor[base + p] = start; });
    __syncthreads(); /* tmp again; the starts seen by the whole block */
  }
  if (!items) return; /* region order: no work items */
  grouped_block_scan(parts, tmp, [&](uint32_t p) { return (hist[base + p] + chunk - 1) / chunk; },
                     [&](uint32_t p, uint32_t item, uint32_t k) {
                       const uint32_t begin = cursor[base + p], end = begin + hist[base + p];
                       for (uint32_t i = 0; i < k; ++i, ++item) {
                         items[2 * item] = begin + i * chunk;
                         items[2 * item + 1] = end - begin - i * chunk > chunk ? begin + (i + 1) * chunk : end;
                       }
                       if (p == parts - 1) *num_items = item;
                     });
}

/* 3. One pass of the partitioning: each block takes tiles of
 * GCOL_GROUPED_BLOCK x GCOL_GROUPED_ITEMS inputs, sorts a tile by partition
 * in shared memory (a counting sort), reserves each partition's run with one
 * atomic on its cursor, and writes the runs out coalesced. (Writing every
 * input straight to its partition was 3-4x slower: a warp's 32 stores then
 * go to 32 places.) The second pass (shift > 0: bits - shift are the first
 * pass's) reads input sorted by the first pass's partitions, so a tile
 * meets only the 2^shift partitions under each first-pass partition from
 * its first input's to its last's, and only their counters are scanned
 * (H100, 100M i64 keys into 2048: 1.05 -> 0.88 ms). */
template <int KB, int VB>
struct grouped_tile_storage {
  static constexpr int tile = GCOL_GROUPED_BLOCK * GCOL_GROUPED_ITEMS;
  shared_word<KB> keys[tile];
  shared_word<VB> values[VB ? tile : 1]; /* VB 0: keys alone */
  uint16_t part[tile];
};
template <int KB, int VB>
__global__ void __launch_bounds__(GCOL_GROUPED_BLOCK, GCOL_GROUPED_SCATTER_MIN_BLOCKS) grouped_scatter_kernel(table_ref t, const void *keys,
                                                                             const void *values, size_t n, int bits,
                                                                             int shift, int top, uint32_t *cursor,
                                                                             void *part_keys, void *part_values) {
  typedef grouped_tile_storage<KB, VB> st_t;
  constexpr int TILE = st_t::tile, ITEMS = GCOL_GROUPED_ITEMS;
  extern __shared__ unsigned long long smem[];
  st_t &st = *reinterpret_cast<st_t *>(smem);
  const uint32_t parts = 1u << bits;
  /* count[p]: the tile's inputs in p, then how far its run moves from the
     staging area to the output; at[p]: the run's start in the staging area */
  uint32_t *count = reinterpret_cast<uint32_t *>(&st + 1), *at = count + parts;
  __shared__ typename grouped_scan_t::TempStorage tmp;
  for (uint32_t p = threadIdx.x; p < parts; p += blockDim.x) count[p] = 0;
  __syncthreads();
  for (size_t base = (size_t)blockIdx.x * TILE; base < n; base += (size_t)gridDim.x * TILE) {
    const uint32_t tile_n = n - base < (size_t)TILE ? (uint32_t)(n - base) : (uint32_t)TILE;
    uint32_t lo = 0, hi = parts; /* the partitions this tile may meet */
    if (shift) {
      lo = grouped_part(hash_key(load_key_bits<KB>(keys, base), t.seed), bits - shift, top) << shift;
      hi = (grouped_part(hash_key(load_key_bits<KB>(keys, base + tile_n - 1), t.seed), bits - shift, top) + 1) << shift;
    }
    key_word<KB> k[ITEMS];
    uint64_t v[ITEMS];
    uint32_t part[ITEMS], rank[ITEMS];
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      const uint32_t i = j * GCOL_GROUPED_BLOCK + threadIdx.x;
      if (i < tile_n) {
        k[j] = load_key_bits<KB>(keys, base + i);
        v[j] = values ? load_bits<VB>(values, base + i) : 0;
        part[j] = grouped_part(hash_key(k[j], t.seed), bits, top) - lo;
        rank[j] = atomicAdd(&count[part[j]], 1u);
      }
    }
    __syncthreads();
    /* the output runs: one atomic per partition present */
    grouped_block_scan(hi - lo, tmp, [&](uint32_t p) { return count[p]; }, [&](uint32_t p, uint32_t start, uint32_t c) {
      at[p] = start;
      count[p] = c ? atomicAdd(&cursor[lo + p], c) - start : 0;
    });
    __syncthreads();
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      if (j * GCOL_GROUPED_BLOCK + threadIdx.x < tile_n) {
        const uint32_t x = at[part[j]] + rank[j];
        st.keys[x] = (shared_word<KB>)k[j];
        if (VB && values) st.values[x] = (shared_word<VB>)v[j];
        st.part[x] = (uint16_t)part[j];
      }
    }
    __syncthreads();
    for (uint32_t x = threadIdx.x; x < tile_n; x += blockDim.x) {
      const uint32_t o = count[st.part[x]] + x;
      store_key_bits<KB>(part_keys, o, st.keys[x]);
      if (values) store_bits<VB>(part_values, o, st.values[x]);
    }
    __syncthreads(); /* count is read above until every thread is done */
    for (uint32_t p = threadIdx.x; p < hi - lo; p += blockDim.x) count[p] = 0;
    __syncthreads();
  }
}

/* Shared memory of grouped_scatter_kernel for 2^bits partitions. */
template <int KB, int VB>
inline size_t grouped_scatter_smem(int bits) {
  return sizeof(grouped_tile_storage<KB, VB>) + 2 * sizeof(uint32_t) * ((size_t)1 << bits);
}

/* The value every slot of the shared table starts from: op's identity, so a
 * slot is applied to without being initialized by its claimer. Float MIN
 * and MAX start from NaN, which gives way to any number (ops.cuh), so a
 * group of NaNs still folds to NaN. */
__device__ __forceinline__ uint64_t op_identity_bits(int op, int vtype) {
  if (op == GCOL_OP_ADD) return 0;
  const bool mn = op == GCOL_OP_MIN;
  switch (vtype) {
    case GCOL_U32: return mn ? 0xffffffffull : 0;
    case GCOL_I32: return mn ? 0x7fffffffull : 0x80000000ull;
    case GCOL_U64: return mn ? ~0ull : 0;
    case GCOL_I64: return mn ? 0x7fffffffffffffffull : 0x8000000000000000ull;
    case GCOL_F32: return 0x7fc00000ull;
    default: return 0x7ff8000000000000ull;
  }
}

/* Where a key of the reduce finds no room in the shared table: straight to
 * the map. Out of line, so that the unrolled fold loop stays small (inlined
 * there, the upsert's code made the loop several times slower). */
template <int T, int SB>
__device__ __noinline__ void grouped_overflow(const table_ref &t, uint64_t k, uint64_t v, uint64_t h,
                                              const upsert_args &a, unsigned long long *pending) {
  uint64_t stored; /* solo_upsert's, unused by an apply */
  (void)solo_upsert<T, SB>(t, k, v, h, a, stored, *pending);
}

/* Apply v to shared slot `slot` (its value word w). Where the value's
 * shared atomic is a CAS loop (8-byte values, float MIN/MAX) and the whole
 * warp applies to one slot, the warp first folds its values with shuffles
 * and one lane applies: with a key holding half of a batch of 100M i64
 * pairs, the 512 threads of the block that held it retried one 64-bit CAS
 * each, and the call took 1.4 s. (Folding every group of equal slots with
 * __match_any_sync cost more than it saved: 10x slower with few keys.)
 * Native atomics (4-byte ADD/MIN/MAX, float ADD) apply as they are. 4-byte
 * values: the word's low half is all atomic_apply_word touches. */
__device__ __forceinline__ void grouped_fold(unsigned long long *w, uint32_t slot, uint64_t v, const upsert_args &a) {
  const bool cas_loop = a.vtype == GCOL_U64 || a.vtype == GCOL_I64 || a.vtype == GCOL_F64 ||
                        (a.vtype == GCOL_F32 && a.op != GCOL_OP_ADD);
  if (cas_loop) {
    const unsigned active = __activemask();
    const int lane = threadIdx.x & 31, leader = __ffs(active) - 1;
    if (__all_sync(active, slot == __shfl_sync(active, slot, leader))) {
      if (active == 0xffffffffu) {
        for (int o = 16; o > 0; o >>= 1) v = combine_bits(v, __shfl_xor_sync(active, v, o), a.op, a.vtype);
      } else { /* a part of the warp: its lanes one by one, to the leader */
        for (unsigned m = active & (active - 1); m; m &= m - 1) {
          const uint64_t x = __shfl_sync(active, v, __ffs(m) - 1);
          if (lane == leader) v = combine_bits(v, x, a.op, a.vtype);
        }
      }
      if (lane != leader) return;
    }
  }
  atomic_apply_word(w, v, a.op, a.vtype);
}

/* 4. A block per work item (striding over them: a partition, or a piece of
 * one past `chunk` inputs, so that a key holding much of the batch is folded
 * by many blocks): fold the item's range into a table of `slots` keys and
 * values in shared memory, then apply each (key, partial) to the map. The
 * table is probed a 16-byte bucket of keys at a time (one vector load: 2
 * keys of 8 bytes or 4 of 4), each thread has GCOL_GROUPED_LOADS inputs in
 * flight, and the claimed slots are listed (order), so that the flush walks
 * only them and resets only them. H100, 100M inputs onto 10M i64 keys,
 * counting: 2.41 ms with a slot per probe, one input per thread and
 * whole-table sweeps, 1.56 so. */
template <int T, int KB, int VB, int KC = 0>
__global__ void __launch_bounds__(GCOL_GROUPED_REDUCE_BLOCK) grouped_reduce_kernel(
    table_ref t, const void *part_keys, const void *part_values, const uint32_t *items, const uint32_t *num_items,
    uint32_t slots, upsert_args a) {
  constexpr int SB = slot_for_scheme<slot_of<KB, VB>(), KC>(), W = 16 / KB, U = GCOL_GROUPED_LOADS;
  typedef shared_word<KB> kw;
  typedef shared_word<VB> vw;
  extern __shared__ unsigned long long smem[];
  kw *skeys = reinterpret_cast<kw *>(smem); /* slots: a multiple of W (grouped_shape) */
  vw *vals = reinterpret_cast<vw *>(skeys + slots);
  uint16_t *order = reinterpret_cast<uint16_t *>(vals + slots);
  /* slots claimed in this round's table, r & 1: the other counter is reset
     while this one is in use, so each round needs two barriers, not three */
  __shared__ uint32_t claimed_by_round[2];
  const kw empty = (kw)t.empty_key; /* never a stored key: accept_key turns sentinels away */
  const vw identity = (vw)op_identity_bits(a.op, a.vtype);
  const uint32_t work = *num_items, room = slots - slots / 8, buckets = slots / W;
  a.mode = UPSERT_APPLY;
  unsigned long long pending = 0;
  for (uint32_t j = threadIdx.x; j < slots; j += blockDim.x) skeys[j] = empty, vals[j] = identity;
  if (threadIdx.x == 0) claimed_by_round[0] = 0;
  for (uint32_t item = blockIdx.x, r = 0; item < work; item += gridDim.x, ++r) {
    uint32_t &claimed = claimed_by_round[r & 1];
    __syncthreads(); /* the table is empty again, claimed 0 */
    if (threadIdx.x == 0) claimed_by_round[(r + 1) & 1] = 0; /* the last round's: read by all by now */
    const size_t begin = items[2 * item], end = items[2 * item + 1];
    for (size_t base = begin; base < end; base += (size_t)U * blockDim.x) {
      key_word<KB> k[U];
      uint64_t v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const size_t i = base + u * blockDim.x + threadIdx.x;
        if (i < end) k[u] = load_key_bits<KB>(part_keys, i), v[u] = load_value<VB>(part_values, i, a);
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        uint64_t h;
        if (base + u * blockDim.x + threadIdx.x >= end || !accept_key(t, k[u], h)) continue;
        const kw key = (kw)k[u];
        uint32_t b = (uint32_t)(((h & 0xffffffffull) * buckets) >> 32);
        int slot = -1;
        for (int step = 0; step < GCOL_GROUPED_PROBES; ++step) {
          kw cur[W];
          if constexpr (KB == 8) {
            const ulonglong2 q = reinterpret_cast<const ulonglong2 *>(skeys)[b];
            cur[0] = q.x, cur[1] = q.y;
          } else {
            const uint4 q = reinterpret_cast<const uint4 *>(skeys)[b];
            cur[0] = q.x, cur[1] = q.y, cur[2] = q.z, cur[3] = q.w;
          }
          int hit = -1, gap = -1; /* the bucket's first match, first empty slot */
#pragma unroll
          for (int w = W - 1; w >= 0; --w) {
            if (cur[w] == key) hit = w;
            if (cur[w] == empty) gap = w;
          }
          if (hit >= 0) {
            slot = b * W + hit;
            break;
          }
          if (gap < 0) { /* full bucket: the next */
            b = b + 1 == buckets ? 0 : b + 1;
            continue;
          }
          if (*(volatile uint32_t *)&claimed >= room) break; /* full enough: to the map */
          const uint32_t j = b * W + gap;
          const kw old = atomicCAS(&skeys[j], empty, key);
          if (old == empty) order[atomicAdd(&claimed, 1u)] = (uint16_t)j; /* at most slots claims */
          if (old == empty || old == key) {
            slot = j;
            break;
          }
          /* another key took the slot: the same bucket again */
        }
        if (slot >= 0) grouped_fold(reinterpret_cast<unsigned long long *>(&vals[slot]), (uint32_t)slot, v[u], a);
        else grouped_overflow<T, SB>(t, k[u], v[u], h, a, &pending);
      }
    }
    __syncthreads();
    const uint32_t c = claimed;
    for (uint32_t x = threadIdx.x; x < c; x += blockDim.x) {
      const uint32_t j = order[x];
      const uint64_t k = skeys[j];
      uint64_t stored;
      (void)solo_upsert<T, SB>(t, k, vals[j], hash_key(k, t.seed), a, stored, pending);
      skeys[j] = empty, vals[j] = identity;
    }
  }
  warp_add(&t.state->size, pending); /* every thread reaches here: whole warps */
}

}  // namespace detail
}  // namespace gcol
#endif
