/* Device layer of the map: thin bulk kernels over the bulk tile steps of
 * gcol/device/detail/map_bulk.cuh (the same steps the device API runs).
 *
 * A tile of W threads (oa_tuning's lanes, tuning_oa.h: T for erase, T/2
 * for lookups in buckets of T >= 4 chunks; test builds may pick others for
 * sets, gcol_test_hooks.oa.lanes) takes as many consecutive inputs; each
 * thread loads and hashes its own key (coalesced, hashed once), then the tile
 * walks its ranks and probes together. The insert family instead takes one
 * key per tile of oa_tuning::upsert_lanes. The grid fills the GPU once (the
 * tile upserts: GCOL_UPSERT_WAVES times, tuning_oa.h) and strides over the
 * input, so counters are added once per warp at the end. */
#ifndef GCOL_SRC_MAP_MAP_KERNELS_CUH
#define GCOL_SRC_MAP_MAP_KERNELS_CUH

#include <type_traits>
#include <cooperative_groups.h>
#include "gcol/device/hash.cuh"
#include "gcol/device/block_aggregate.cuh"
#include "gcol/device/detail/map_bulk.cuh"
#include "tuning_oa.h" /* blocks, launch bounds, lanes */


namespace gcol {
namespace detail {
namespace cg = cooperative_groups;

/* Element i of a B-byte array; B = 0 (a set's values) reads and writes
 * nothing, so every kernel serves keys-only containers as they are. */
template <int B>
__device__ __forceinline__ uint64_t load_bits(const void *p, size_t i) {
  if constexpr (B == 0) return 0;
  else if constexpr (B == 4) return static_cast<const uint32_t *>(p)[i];
  else return static_cast<const uint64_t *>(p)[i];
}
template <int B>
__device__ __forceinline__ void store_bits(void *p, size_t i, uint64_t v) {
  if constexpr (B == 4) static_cast<uint32_t *>(p)[i] = (uint32_t)v;
  else if constexpr (B == 8) static_cast<uint64_t *>(p)[i] = v;
}

/* The value an upsert takes for input i: values[i], or one when
 * insert_or_apply counts (values NULL: the host allows it only then). */
template <int VB>
__device__ __forceinline__ uint64_t load_value(const void *values, size_t i, const upsert_args &a) {
  return values ? load_bits<VB>(values, i) : one_bits(a.vtype);
}

/* Keys: as load_bits / store_bits, and 16-byte keys (16-byte aligned arrays)
 * as key16 with one vector access. */
template <int KB>
using key_word = std::conditional_t<KB == 16, key16, uint64_t>;
template <int KB>
__device__ __forceinline__ key_word<KB> load_key_bits(const void *p, size_t i) {
  if constexpr (KB == 16) {
    ulonglong2 r = static_cast<const ulonglong2 *>(p)[i];
    return key16{r.x, r.y};
  } else {
    return load_bits<KB>(p, i);
  }
}
template <int KB>
__device__ __forceinline__ void store_key_bits(void *p, size_t i, key_word<KB> k) {
  if constexpr (KB == 16) static_cast<ulonglong2 *>(p)[i] = make_ulonglong2(k.lo, k.hi);
  else store_bits<KB>(p, i, k);
}

/* Add each warp's sum of x to *dst (one atomic per warp; dst may be NULL). */
__device__ __forceinline__ void warp_add(unsigned long long *dst, unsigned long long x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
  if (dst && (threadIdx.x & 31) == 0 && x) atomicAdd(dst, x);
}

/* Per-input prologue shared by every bulk kernel: load, flag sentinels, hash. */
template <int KB>
__device__ __forceinline__ bool load_key(const table_ref &t, const void *keys, size_t i, size_t n,
                                         key_word<KB> &k, uint64_t &h) {
  if (i >= n) return false;
  k = load_key_bits<KB>(keys, i);
  return accept_key(t, k, h);
}

/* The loop runs over whole warps (every lane iterates equally often), so the
 * warp can reconverge with __syncwarp() before it writes its outputs: one
 * full-sector store per warp instead of one partial store per tile. */
#define GCOL_TILE_LOOP_BEGIN(LANES)                                                          \
  auto tile = cg::tiled_partition<LANES>(cg::this_thread_block());                            \
  const int lane = tile.thread_rank();                                                       \
  const size_t stride = (size_t)gridDim.x * blockDim.x;                                      \
  for (size_t base = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) & ~(size_t)31; base < n; \
       base += stride) {                                                                     \
    const size_t i = base + (threadIdx.x & 31);

/* The insert family, a key per tile: each tile of W lanes (upsert_lanes,
 * tuning_oa.h)
 * takes one input per step (every lane loads it: one broadcast load),
 * probes for it, and its rank 0 writes the outputs; no shuffles of other
 * lanes' keys. MODE (an upsert_mode) is a template parameter so that each
 * kernel keeps only its own code path: fewer registers, more threads
 * resident. OUTPUTS adds insert_and_find's per-input outputs. */
template <int T, int W, int KB, int VB, int MODE, bool OUTPUTS, int KC = 0>
__global__ void __launch_bounds__(GCOL_OA_BLOCK, GCOL_UPSERT_BOUND_BLOCKS) upsert_kernel(table_ref t, const void *keys, const void *values, size_t n,
                                                     upsert_args a, void *values_out, uint8_t *inserted_out,
                                                     unsigned long long *d_count) {
  constexpr int SB = slot_for_scheme<slot_of<KB, VB>(), KC>();
  a.mode = MODE;
  auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  const int lane = tile.thread_rank();
  unsigned long long pending = 0, inserted = 0; /* tile-uniform */
  const size_t tiles = (size_t)gridDim.x * blockDim.x / W;
  for (size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / W; i < n; i += tiles) {
    key_word<KB> k{};
    uint64_t h = 0, stored = t.empty_value;
    int st = UPSERT_NO_ROOM;
    if (load_key<KB>(t, keys, i, n, k, h)) {
      st = tile_upsert<T, SB>(tile, t, k, load_value<VB>(values, i, a), h, a, stored, pending);
      inserted += st == UPSERT_INSERTED;
      if (st == UPSERT_NO_ROOM) {
        if (lane == 0) atomicOr(&t.state->flags, (unsigned)MAP_FLAG_FULL);
        stored = t.empty_value;
      }
    }
    if (OUTPUTS && lane == 0) {
      store_bits<VB>(values_out, i, stored);
      if (inserted_out) inserted_out[i] = st == UPSERT_INSERTED;
    }
  }
  /* every lane of a tile holds the tile's count: let rank 0 speak for it */
  warp_add(&t.state->size, lane == 0 ? pending : 0);
  warp_add(d_count, lane == 0 ? inserted : 0);
}

/* find (values or empty_value) and contains (0/1 bytes). One kernel for both:
 * as two template instances, contains ran 12% slower than find on an H100
 * (same probing, different code layout); a uniform branch at the store costs
 * nothing. KEYS: the keys a tile has in flight, 1 or 2 (bulk_find_step_two;
 * the test build's sweep, dispatch_oa.cuh's pick_keys). */
template <int T, int W, int KB, int VB, int KC = 0, int KEYS = 1>
__global__ void find_kernel(table_ref t, const void *keys, size_t n, void *out, bool contains) {
  constexpr int SB = slot_for_scheme<slot_of<KB, VB>(), KC>();
  GCOL_TILE_LOOP_BEGIN(W)
    key_word<KB> k{};
    uint64_t h = 0;
    bool valid = load_key<KB>(t, keys, i, n, k, h);
    uint64_t my_value;
    bool my_found;
    if constexpr (KEYS == 2) my_found = bulk_find_step_two<T, SB>(tile, t, valid, k, h, my_value);
    else my_found = bulk_find_step<T, SB>(tile, t, valid, k, h, my_value);
    __syncwarp();
    if (i < n) {
      if (contains) static_cast<uint8_t *>(out)[i] = my_found;
      else store_bits<VB>(out, i, my_value);
    }
  }
}

template <int T, int W, int KB, int VB, int KC = 0>
__global__ void erase_kernel(table_ref t, const void *keys, size_t n, unsigned long long *d_count) {
  constexpr int SB = slot_for_scheme<slot_of<KB, VB>(), KC>();
  unsigned long long erased = 0; /* tile-uniform */
  GCOL_TILE_LOOP_BEGIN(W)
    key_word<KB> k{};
    uint64_t h = 0;
    bool valid = load_key<KB>(t, keys, i, n, k, h);
    bulk_erase_step<T, SB>(tile, t, valid, k, h, erased);
  }
  warp_add(&t.state->size, lane == 0 ? (unsigned long long)(0 - erased) : 0);
  warp_add(d_count, lane == 0 ? erased : 0);
}

#undef GCOL_TILE_LOOP_BEGIN

/* The same operations by a thread per key (the policy's solo_* classes):
 * the tile steps with a tile of one thread, which reads the whole bucket
 * itself, so no shuffle or ballot is left. find, assign and apply take a
 * thread per key (grid_per_item; H100, 100M applies onto 1M keys in the L2:
 * 3.06 ms against 3.73 striding); inserts stride over a grid that fills the
 * GPU once (100M u32 inserts into a DRAM table: 14.0 against 7.9 G/s with a thread each;
 * 100M inserts of 1M keys in the L2: 1.17 against 1.46 ms), or half of it
 * into a DRAM table on sm_90 (solo_insert_div, map_policy.c). */
template <int T, int KB, int VB, int KC = 0>
__global__ void __launch_bounds__(GCOL_OA_BLOCK) find_solo_kernel(table_ref t, const void *keys, size_t n, void *out,
                                                        bool contains) {
  constexpr int SB = slot_for_scheme<slot_of<KB, VB>(), KC>();
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    key_word<KB> k{};
    uint64_t h = 0, v = t.empty_value;
    bool found = load_key<KB>(t, keys, i, n, k, h) && tile_find<T, SB>(solo_tile{}, t, k, h, v);
    if (contains) static_cast<uint8_t *>(out)[i] = found;
    else store_bits<VB>(out, i, found ? v : t.empty_value);
  }
}

/* One key's upsert by this thread alone; a map with no room for it is
 * latched FULL. The thread-per-key kernels' step (here and map_grouped.cuh). */
template <int T, int SB>
__device__ __forceinline__ int solo_upsert(const table_ref &t, key_of<SB> k, uint64_t v, uint64_t h,
                                           const upsert_args &a, uint64_t &stored, unsigned long long &pending) {
  int st = tile_upsert<T, SB>(solo_tile{}, t, k, v, h, a, stored, pending);
  if (st == UPSERT_NO_ROOM) atomicOr(&t.state->flags, (unsigned)MAP_FLAG_FULL);
  return st;
}

template <int T, int KB, int VB, int MODE, bool OUTPUTS, int KC = 0>
__global__ void __launch_bounds__(GCOL_OA_BLOCK) upsert_solo_kernel(table_ref t, const void *keys, const void *values, size_t n,
                                                          upsert_args a, void *values_out, uint8_t *inserted_out,
                                                          unsigned long long *d_count) {
  constexpr int SB = slot_for_scheme<slot_of<KB, VB>(), KC>();
  a.mode = MODE;
  unsigned long long pending = 0, inserted = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    key_word<KB> k{};
    uint64_t h = 0, stored = t.empty_value;
    int st = UPSERT_NO_ROOM;
    if (load_key<KB>(t, keys, i, n, k, h)) {
      st = solo_upsert<T, SB>(t, k, load_value<VB>(values, i, a), h, a, stored, pending);
      inserted += st == UPSERT_INSERTED;
      if (st == UPSERT_NO_ROOM) stored = t.empty_value;
    }
    if (OUTPUTS) {
      store_bits<VB>(values_out, i, stored);
      if (inserted_out) inserted_out[i] = st == UPSERT_INSERTED;
    }
  }
  warp_add(&t.state->size, pending); /* every thread reaches here: whole blocks of GCOL_OA_BLOCK */
  warp_add(d_count, inserted);
}

/* Non-empty slots (live keys and tombstones) added to t.state->scratch: the
 * exact figure a growth decision needs once erases made the host's bound loose. */
template <int SB>
__global__ void count_used_kernel(table_ref t, size_t num_chunks) {
  typedef layout<SB> L;
  const chunk<SB> *chunks = static_cast<const chunk<SB> *>(t.slots);
  unsigned long long used = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < num_chunks; i += (size_t)gridDim.x * blockDim.x) {
    chunk<SB> c = load_chunk_ro(chunks + i);
#pragma unroll
    for (int j = 0; j < L::per_chunk; ++j) used += !key_is(L::key(c.s[j]), t.empty_key);
  }
  warp_add(&t.state->scratch, used);
}

/* Every slot := (empty_key, empty_value). */
template <int SB>
__global__ void fill_kernel(table_ref t, size_t num_slots) {
  typedef layout<SB> L;
  typename L::slot_t e = L::make(sentinel_key<key_of<SB>>(t.empty_key), t.empty_value);
  typename L::slot_t *s = static_cast<typename L::slot_t *>(t.slots);
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < num_slots; i += (size_t)gridDim.x * blockDim.x)
    s[i] = e;
}

/* retrieve_all: a stream compaction of the slots with the predicate "holds a
 * key". Each thread reads GCOL_RETRIEVE_ITEMS 16-byte chunks (warp-striped, so
 * every load is a full coalesced 512-byte warp access); each warp ballots per
 * slot position, the block reserves all its warps' output at once
 * (block_reserve: one global atomic per block and step), and each warp writes
 * its pairs densely, one coalesced run per ballot. */
template <int KB, int VB>
__global__ void __launch_bounds__(GCOL_RETRIEVE_BLOCK) retrieve_kernel(table_ref t, size_t num_chunks, void *keys_out,
                                                                   void *values_out) {
  constexpr int SB = slot_of<KB, VB>(), PER = layout<SB>::per_chunk, ITEMS = GCOL_RETRIEVE_ITEMS;
  typedef layout<SB> L;
  typedef block_reserve<GCOL_RETRIEVE_BLOCK, unsigned long long> reserve_t;
  __shared__ typename reserve_t::temp_storage tmp;
  const chunk<SB> *chunks = static_cast<const chunk<SB> *>(t.slots);
  const unsigned lane = threadIdx.x & 31, lower = (1u << lane) - 1;
  const size_t per_block = (size_t)ITEMS * blockDim.x;
  for (size_t base = (size_t)blockIdx.x * per_block; base < num_chunks; base += (size_t)gridDim.x * per_block) {
    chunk<SB> c[ITEMS];
    unsigned filled[ITEMS][PER];
    unsigned long long total = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      size_t ci = base + (size_t)k * blockDim.x + threadIdx.x;
      if (ci < num_chunks) c[k] = load_chunk_ro(chunks + ci);
#pragma unroll
      for (int j = 0; j < PER; ++j) {
        key_of<SB> key = ci < num_chunks ? L::key(c[k].s[j]) : sentinel_key<key_of<SB>>(t.empty_key);
        filled[k][j] = __ballot_sync(0xffffffffu, !key_is(key, t.empty_key) && !key_is(key, t.erased_key));
        total += __popc(filled[k][j]);
      }
    }
    unsigned long long out = reserve_t(tmp).warp_base(total, &t.state->scratch);
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
#pragma unroll
      for (int j = 0; j < PER; ++j) {
        if (filled[k][j] >> lane & 1) {
          unsigned long long o = out + __popc(filled[k][j] & lower);
          store_key_bits<KB>(keys_out, o, L::key(c[k].s[j]));
          store_bits<VB>(values_out, o, L::value(c[k].s[j]));
        }
        out += __popc(filled[k][j]);
      }
    __syncthreads(); /* tmp is reused by the next step */
  }
}

}  // namespace detail
}  // namespace gcol
#endif
