/* Device-side API of gcol's hash map, for users' CUDA kernels (C++17).
 *
 *   gcol_map_mutable_view_t mv;                       // host
 *   gcol_map_device_mutable_view(map, &mv);
 *   my_kernel<<<g, b, 0, s>>>(gcol::map_mutable_view<int64_t, int64_t>(mv), ...);
 *
 *   __global__ void my_kernel(gcol::map_mutable_view<int64_t, int64_t> m, ...) {
 *     m.insert(key, value);                            // per thread
 *     auto tile = cooperative_groups::tiled_partition<4>(cooperative_groups::this_thread_block());
 *     m.insert(tile, key, value);                      // one key per tile
 *     m.insert(tile, keys + first, keys + last, values + first);  // bulk: a range per tile
 *   }
 *
 * Views are typed: Key is a 4- or 8-byte integer or a 16-byte key (GCOL_U128
 * maps: gcol::u128 or any 16-byte type, low word first), Value one of the
 * map's six value types, and compatible() (host or device) says whether they match the
 * map's configuration (key width, exact value type). Semantics are the bulk
 * calls' of gcol.h: insert keeps the first value, reserved keys are skipped
 * and latched, a full map is latched (gcol_map_status), gcol_map_size stays
 * exact, kernels never grow a map. Build these kernels for the GPU they run
 * on (sm_90 code on an H100): the view's claim scheme (key_cas) is the one
 * the library's own kernels use there, and code for an older GPU cannot
 * follow the sm_90 one exactly (detail/map_tile.cuh, pub_bits). As in the
 * bulk calls, a kernel either inserts (the insert family) or erases: a slot
 * erased while inserts run beside it may be claimed before its value word
 * is cleared.
 *
 * Tiles: any cooperative_groups::thread_block_tile of 1, 2, 4, 8, 16 or 32
 * threads. The map probes a bucket of T 16-byte chunks (its tile, 2 or 4 by
 * default); a narrower tile reads several chunks per lane, a wider one is
 * split: for one key per tile the first T threads probe and the result is
 * broadcast; the bulk forms split it into the library's own probing tiles (T
 * lanes for inserts, T/2 for lookups when T = 4), each taking its own keys.
 * Every thread of the tile must make the call with the same arguments, and
 * gets the same result (bulk calls: the per-key outputs are written once).
 *
 * Bulk tile operations hash each key once: each thread loads its own key of
 * the range (coalesced) and hashes it, then the tile walks its ranks,
 * broadcasting key and hash by shuffle, and probes together. They are the
 * steps the library's own bulk lookups and erases run (detail/map_bulk.cuh;
 * its inserts take one key per tile of 2 lanes, the per-key form; on an
 * H200 its lookups in maps of 16-byte slots keep two of the tile's keys in
 * flight, bulk_find_step_two, where these keep one). Two
 * forms: a range per tile (insert(tile, first, last, values), find(tile,
 * first, last, out), ...), and one key per thread (find_each(tile, active,
 * key, &value), insert_each, ...) for fused kernels whose keys are already
 * in registers. In a grid-stride loop that whole warps run, one key per
 * thread is the fastest bulk form measured (H100: insert_each with tiles of
 * 2; for inserts, one key per tile of 2 is faster still; docs/experiments.md). */
#ifndef GCOL_DEVICE_MAP_CUH
#define GCOL_DEVICE_MAP_CUH

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <type_traits>
#include <cooperative_groups.h>
#include "gcol/gcol.h"
#include "gcol/device/detail/map_bulk.cuh"

namespace gcol {
namespace detail {

template <class X>
struct type_code; /* the gcol_type_t of a C++ type */
template <> struct type_code<int32_t> { static constexpr int value = GCOL_I32; };
template <> struct type_code<uint32_t> { static constexpr int value = GCOL_U32; };
template <> struct type_code<int64_t> { static constexpr int value = GCOL_I64; };
template <> struct type_code<uint64_t> { static constexpr int value = GCOL_U64; };
template <> struct type_code<long long> { static constexpr int value = GCOL_I64; };
template <> struct type_code<unsigned long long> { static constexpr int value = GCOL_U64; };
template <> struct type_code<float> { static constexpr int value = GCOL_F32; };
template <> struct type_code<double> { static constexpr int value = GCOL_F64; };

/* The bits a table stores for x (zero-extended), and back. */
template <class X>
__host__ __device__ __forceinline__ uint64_t bits_of(X x) {
  if constexpr (sizeof(X) == 4) {
    uint32_t b;
    memcpy(&b, &x, 4);
    return b;
  } else {
    uint64_t b;
    memcpy(&b, &x, 8);
    return b;
  }
}
template <class X>
__host__ __device__ __forceinline__ X from_bits(uint64_t b) {
  X x;
  if constexpr (sizeof(X) == 4) {
    uint32_t w = (uint32_t)b;
    memcpy(&x, &w, 4);
  } else {
    memcpy(&x, &b, 8);
  }
  return x;
}

/* A key's bits as the table compares them: uint64_t for 4- and 8-byte keys
 * (bits_of), key16 for 16-byte keys (GCOL_U128: any 16-byte type, low word
 * first, e.g. gcol::u128 or unsigned __int128). */
template <class K>
__host__ __device__ __forceinline__ auto key_bits(const K &x) {
  if constexpr (sizeof(K) == 16) {
    key16 b;
    memcpy(&b, &x, 16);
    return b;
  } else {
    return bits_of(x);
  }
}

__host__ __device__ __forceinline__ table_ref table_of(const gcol_map_view_t &v) {
  table_ref t;
  t.slots = v.slots;
  t.state = static_cast<map_state *>(v.state);
  t.empty_key = v.empty_key, t.erased_key = v.erased_key, t.empty_value = v.empty_value, t.seed = v.seed;
  t.capacity = v.capacity;
  t.num_buckets = v.num_buckets;
  t.key_cas = v.key_cas;
  return t;
}

template <int T>
struct bucket_c {
  static constexpr int value = T;
};
/* f(bucket_c<T>()) for the map's bucket width T: Chunks when the view was
 * typed with it, else the width read at run time (code for every width). */
template <int Chunks, class F>
__device__ __forceinline__ auto with_bucket(int chunks, F f) {
  if constexpr (Chunks != 0) {
    return f(bucket_c<Chunks>());
  } else {
    switch (chunks) {
      case 1: return f(bucket_c<1>());
      case 2: return f(bucket_c<2>());
      case 4: return f(bucket_c<4>());
      default: return f(bucket_c<8>());
    }
  }
}

/* The tile that probes in the bulk forms: the caller's own when at most
 * worker_lanes wide, else its partition into tiles of that width. */
template <int T, bool LOOKUP, int SB = SLOT_PAIR16, class Tile>
__device__ __forceinline__ auto worker_tile(const Tile &tile) {
  constexpr int W = worker_lanes<T, LOOKUP, SB>();
  if constexpr (Tile::num_threads() <= (unsigned)W) return tile;
  else return cooperative_groups::tiled_partition<W>(tile);
}

/* op(worker) run by the first bucket-wide part of tile; its result on every thread. */
template <int T, class Tile, class Op>
__device__ __forceinline__ auto on_first_worker(const Tile &tile, Op op) {
  if constexpr (Tile::num_threads() <= (unsigned)T) {
    return op(tile);
  } else {
    auto w = cooperative_groups::tiled_partition<T>(tile);
    decltype(op(w)) r{};
    if (tile.thread_rank() < (unsigned)T) r = op(w);
    return tile.shfl(r, 0);
  }
}

/* Add x to the map's count with one atomic per set of lanes that arrive
 * together (a warp's worth of per-thread calls), on the stripe of this SM
 * (map_state): an atomic per call on one word serialized the grid (1.3 G
 * inserts/s). The warp sum is exact mod 2^64 from four 16-bit redux sums. */
__device__ __forceinline__ void add_count(map_state *st, unsigned long long x) {
  unsigned sm;
  asm("mov.u32 %0, %%smid;" : "=r"(sm));
  unsigned long long *dst = &st->stripe[sm % MAP_SIZE_STRIPES][0];
#if __CUDA_ARCH__ >= 800
  const unsigned mask = __activemask();
  unsigned long long sum = 0;
#pragma unroll
  for (int s = 0; s < 64; s += 16) sum += (unsigned long long)__reduce_add_sync(mask, (unsigned)(x >> s) & 0xffffu) << s;
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (lane == (unsigned)(__ffs(mask) - 1) && sum) atomicAdd(dst, sum);
#else
  if (x) atomicAdd(dst, x);
#endif
}

/* Sum of x over the tile's threads (every thread gets it). */
template <class Tile>
__device__ __forceinline__ unsigned long long tile_sum(const Tile &tile, unsigned long long x) {
  for (int o = (int)Tile::num_threads() / 2; o > 0; o >>= 1) x += tile.shfl_xor(x, o);
  return x;
}

struct lookup_result {
  int found;
  uint64_t value;
};
struct upsert_result {
  int status; /* upsert_status */
  uint64_t stored;
};

}  // namespace detail

/* Host: f(std::integral_constant<int, T>()) for the view's bucket width T,
 * to launch a kernel whose views are typed with it (see Chunks below):
 *   gcol::with_bucket_chunks(mv.view, [&](auto t) {
 *     my_kernel<decltype(t)::value><<<g, b, 0, s>>>(
 *         gcol::map_mutable_view<int64_t, int64_t, decltype(t)::value>(mv), ...);
 *   }); */
template <class F>
void with_bucket_chunks(const gcol_map_view_t &v, F f) {
  switch (v.bucket_chunks) {
    case 1: return f(std::integral_constant<int, 1>());
    case 2: return f(std::integral_constant<int, 2>());
    case 4: return f(std::integral_constant<int, 4>());
    default: return f(std::integral_constant<int, 8>());
  }
}

/* A 16-byte key (GCOL_U128) for the views: low word first. Any other
 * trivially copyable 16-byte type works as Key too. */
struct __align__(16) u128 {
  uint64_t lo, hi;
};

/* Read-only view: find and contains.
 * Chunks: 0 (default) reads the map's bucket width at run time, so a kernel
 * carries the code of every width (and the registers of the widest);
 * 1, 2, 4 or 8 compiles that width only. A typed width must be the map's
 * (compatible() checks it; gcol::with_bucket_chunks picks it on the host):
 * with it, a user's bulk kernel needs the registers of the library's own. */
template <class Key, class Value, int Chunks = 0>
class map_view {
  static_assert(Chunks == 0 || Chunks == 1 || Chunks == 2 || Chunks == 4 || Chunks == 8,
                "a bucket is 1, 2, 4 or 8 chunks (0: read at run time)");
  static_assert(sizeof(Key) == 4 || sizeof(Key) == 8 || sizeof(Key) == 16,
                "keys are 4- or 8-byte integers or 16-byte GCOL_U128 keys");
  static_assert(sizeof(Value) == 4 || sizeof(Value) == 8, "values are 4 or 8 bytes");

 protected:
  /* slot kind; 8-byte-key pairs as SLOT_PAIR16K: the view's key_cas picks the claim scheme */
  static constexpr int SB = detail::slot_for_scheme<detail::slot_of<sizeof(Key), sizeof(Value)>(), 1>();
  gcol_map_view_t v_;

 public:
  typedef Key key_type;
  typedef Value mapped_type;

  __host__ __device__ explicit map_view(const gcol_map_view_t &v) : v_(v) {}

  /* Whether Key and Value match the map (check before launching). */
  __host__ __device__ bool compatible() const {
    int kb = v_.key_type == GCOL_U32 || v_.key_type == GCOL_I32 ? 4 : v_.key_type == GCOL_U128 ? 16 : 8;
    return kb == (int)sizeof(Key) && v_.value_type == detail::type_code<Value>::value &&
           (Chunks == 0 || v_.bucket_chunks == Chunks);
  }
  __host__ __device__ Value empty_value() const { return detail::from_bits<Value>(v_.empty_value); }

  /* One key per tile: true and *value_out (if not NULL) when present. */
  template <class Tile>
  __device__ bool find(const Tile &tile, Key key, Value *value_out) const {
    detail::table_ref t = detail::table_of(v_);
    auto k = detail::key_bits(key);
    uint64_t h = 0;
    if (!detail::accept_key(t, k, h)) return false;
    detail::lookup_result r = detail::with_bucket<Chunks>(v_.bucket_chunks, [&](auto tc) {
      constexpr int T = decltype(tc)::value;
      return detail::on_first_worker<T>(tile, [&](const auto &w) {
        detail::lookup_result x{0, 0};
        x.found = detail::tile_find<T, SB>(w, t, k, h, x.value);
        return x;
      });
    });
    if (r.found && value_out) *value_out = detail::from_bits<Value>(r.value);
    return r.found;
  }
  template <class Tile>
  __device__ bool contains(const Tile &tile, Key key) const {
    return find(tile, key, (Value *)NULL);
  }
  /* Per thread. */
  __device__ bool find(Key key, Value *value_out) const { return find(detail::solo_tile(), key, value_out); }
  __device__ bool contains(Key key) const { return find(detail::solo_tile(), key, (Value *)NULL); }

  /* Bulk, one key per thread: every thread of the tile brings its own key
   * (active false: none) and gets its own answer; each key is hashed once. */
  template <class Tile>
  __device__ bool find_each(const Tile &tile, bool active, Key key, Value *value_out) const {
    const detail::table_ref t = detail::table_of(v_);
    auto k = detail::key_bits(key);
    uint64_t h = 0, v = 0;
    bool valid = active && detail::accept_key(t, k, h);
    bool found = detail::with_bucket<Chunks>(v_.bucket_chunks, [&](auto tc) {
      constexpr int T = decltype(tc)::value;
      return detail::bulk_find_step<T, SB>(detail::worker_tile<T, true>(tile), t, valid, k, h, v);
    });
    if (found && value_out) *value_out = detail::from_bits<Value>(v);
    return found;
  }
  template <class Tile>
  __device__ bool contains_each(const Tile &tile, bool active, Key key) const {
    return find_each(tile, active, key, (Value *)NULL);
  }

  /* Bulk: out[i] = the value of first[i], or empty_value(), for the range. */
  template <class Tile>
  __device__ void find(const Tile &tile, const Key *first, const Key *last, Value *out) const {
    lookup_range(tile, first, last, [&](size_t i, bool, uint64_t v) { out[i] = detail::from_bits<Value>(v); });
  }
  /* Bulk: out[i] = whether first[i] is present. */
  template <class Tile>
  __device__ void contains(const Tile &tile, const Key *first, const Key *last, bool *out) const {
    lookup_range(tile, first, last, [&](size_t i, bool found, uint64_t) { out[i] = found; });
  }

 protected:
  template <class Tile, class Store>
  __device__ __forceinline__ void lookup_range(const Tile &tile, const Key *first, const Key *last, Store store) const {
    const detail::table_ref t = detail::table_of(v_);
    const size_t n = (size_t)(last - first);
    detail::with_bucket<Chunks>(v_.bucket_chunks, [&](auto tc) {
      constexpr int T = decltype(tc)::value;
      auto w = detail::worker_tile<T, true>(tile);
      for (size_t base = 0; base < n; base += Tile::num_threads()) {
        size_t i = base + tile.thread_rank();
        auto k = detail::key_bits(i < n ? first[i] : Key());
        uint64_t h = 0, v;
        bool valid = i < n && detail::accept_key(t, k, h);
        bool found = detail::bulk_find_step<T, SB>(w, t, valid, k, h, v);
        if (i < n) store(i, found, v);
      }
      return 0;
    });
  }
};

/* Mutable view: the read-only operations plus the insert family and erase. */
template <class Key, class Value, int Chunks = 0>
class map_mutable_view : public map_view<Key, Value, Chunks> {
  using map_view<Key, Value, Chunks>::v_;
  using map_view<Key, Value, Chunks>::SB;

 public:
  __host__ __device__ explicit map_mutable_view(const gcol_map_mutable_view_t &v) : map_view<Key, Value, Chunks>(v.view) {}

  /* One key per tile; true when this call inserted the key. */
  template <class Tile>
  __device__ bool insert(const Tile &tile, Key key, Value value) const {
    return upsert(tile, key, value, {detail::UPSERT_INSERT, 0, 0}).status == detail::UPSERT_INSERTED;
  }
  /* insert, and *stored_out = the value stored for key afterwards. */
  template <class Tile>
  __device__ bool insert_and_find(const Tile &tile, Key key, Value value, Value *stored_out) const {
    detail::upsert_result r = upsert(tile, key, value, {detail::UPSERT_INSERT, 0, 0});
    if (stored_out) *stored_out = detail::from_bits<Value>(r.stored);
    return r.status == detail::UPSERT_INSERTED;
  }
  template <class Tile>
  __device__ bool insert_or_assign(const Tile &tile, Key key, Value value) const {
    return upsert(tile, key, value, {detail::UPSERT_ASSIGN, 0, 0}).status == detail::UPSERT_INSERTED;
  }
  /* Stored value := op(stored, value), or insert value when absent. */
  template <class Tile>
  __device__ bool insert_or_apply(const Tile &tile, Key key, Value value, gcol_op_t op) const {
    return upsert(tile, key, value, {detail::UPSERT_APPLY, (int)op, v_.value_type}).status ==
           detail::UPSERT_INSERTED;
  }
  /* true when this call erased the key. */
  template <class Tile>
  __device__ bool erase(const Tile &tile, Key key) const {
    detail::table_ref t = detail::table_of(v_);
    auto k = detail::key_bits(key);
    uint64_t h = 0;
    if (!detail::accept_key(t, k, h)) return false;
    return detail::with_bucket<Chunks>(v_.bucket_chunks, [&](auto tc) {
      constexpr int T = decltype(tc)::value;
      return detail::on_first_worker<T>(tile, [&](const auto &w) {
        int erased = detail::tile_erase<T, SB>(w, t, k, h);
        detail::add_count(t.state, erased && w.thread_rank() == 0 ? ~0ULL : 0); /* minus one */
        return erased;
      });
    }) != 0;
  }

  /* Per thread. */
  __device__ bool insert(Key key, Value value) const { return insert(detail::solo_tile(), key, value); }
  __device__ bool insert_and_find(Key key, Value value, Value *stored_out) const {
    return insert_and_find(detail::solo_tile(), key, value, stored_out);
  }
  __device__ bool insert_or_assign(Key key, Value value) const {
    return insert_or_assign(detail::solo_tile(), key, value);
  }
  __device__ bool insert_or_apply(Key key, Value value, gcol_op_t op) const {
    return insert_or_apply(detail::solo_tile(), key, value, op);
  }
  __device__ bool erase(Key key) const { return erase(detail::solo_tile(), key); }

  /* Bulk, one pair per thread (see find_each): true when this thread's pair
   * was inserted by this call. */
  template <class Tile>
  __device__ bool insert_each(const Tile &tile, bool active, Key key, Value value) const {
    return upsert_each(tile, active, key, value, {detail::UPSERT_INSERT, 0, 0});
  }
  template <class Tile>
  __device__ bool insert_or_apply_each(const Tile &tile, bool active, Key key, Value value, gcol_op_t op) const {
    return upsert_each(tile, active, key, value, {detail::UPSERT_APPLY, (int)op, v_.value_type});
  }

  /* Bulk: insert the pairs (first[i], values[i]) of the range; returns how
   * many this call inserted (the same on every thread of the tile). */
  template <class Tile>
  __device__ size_t insert(const Tile &tile, const Key *first, const Key *last, const Value *values) const {
    return upsert_range(tile, first, last, values, {detail::UPSERT_INSERT, 0, 0});
  }
  template <class Tile>
  __device__ size_t insert_or_apply(const Tile &tile, const Key *first, const Key *last, const Value *values,
                                    gcol_op_t op) const {
    return upsert_range(tile, first, last, values, {detail::UPSERT_APPLY, (int)op, v_.value_type});
  }

 private:
  template <class Tile>
  __device__ __forceinline__ detail::upsert_result upsert(const Tile &tile, Key key, Value value, detail::upsert_args a) const {
    detail::table_ref t = detail::table_of(v_);
    auto k = detail::key_bits(key);
    uint64_t v = detail::bits_of(value), h = 0;
    if (!detail::accept_key(t, k, h)) return detail::upsert_result{detail::UPSERT_NO_ROOM, t.empty_value};
    return detail::with_bucket<Chunks>(v_.bucket_chunks, [&](auto tc) {
      constexpr int T = decltype(tc)::value;
      return detail::on_first_worker<T>(tile, [&](const auto &w) {
        unsigned long long pending = 0;
        detail::upsert_result r{0, t.empty_value};
        r.status = detail::tile_upsert<T, SB>(w, t, k, v, h, a, r.stored, pending);
        if (w.thread_rank() == 0 && r.status == detail::UPSERT_NO_ROOM)
          atomicOr(&t.state->flags, (unsigned)detail::MAP_FLAG_FULL);
        detail::add_count(t.state, w.thread_rank() == 0 ? pending : 0);
        return r;
      });
    });
  }

  template <class Tile>
  __device__ __forceinline__ bool upsert_each(const Tile &tile, bool active, Key key, Value value, detail::upsert_args a) const {
    const detail::table_ref t = detail::table_of(v_);
    auto k = detail::key_bits(key);
    uint64_t v = detail::bits_of(value), h = 0;
    bool valid = active && detail::accept_key(t, k, h);
    return detail::with_bucket<Chunks>(v_.bucket_chunks, [&](auto tc) {
      constexpr int T = decltype(tc)::value;
      auto w = detail::worker_tile<T, false>(tile);
      unsigned long long pending = 0, inserted = 0;
      uint64_t stored;
      int st = detail::bulk_upsert_step<T, SB>(w, t, valid, k, v, h, a, stored, pending, inserted);
      detail::add_count(t.state, w.thread_rank() == 0 ? pending : 0);
      return st == detail::UPSERT_INSERTED;
    });
  }

  template <class Tile>
  __device__ __forceinline__ size_t upsert_range(const Tile &tile, const Key *first, const Key *last, const Value *values,
                                 detail::upsert_args a) const {
    const detail::table_ref t = detail::table_of(v_);
    const size_t n = (size_t)(last - first);
    return detail::with_bucket<Chunks>(v_.bucket_chunks, [&](auto tc) {
      constexpr int T = decltype(tc)::value;
      auto w = detail::worker_tile<T, false>(tile);
      unsigned long long pending = 0, inserted = 0; /* uniform over w */
      for (size_t base = 0; base < n; base += Tile::num_threads()) {
        size_t i = base + tile.thread_rank();
        auto k = detail::key_bits(i < n ? first[i] : Key());
        uint64_t h = 0, stored;
        bool valid = i < n && detail::accept_key(t, k, h);
        uint64_t v = valid ? detail::bits_of(values[i]) : 0;
        detail::bulk_upsert_step<T, SB>(w, t, valid, k, v, h, a, stored, pending, inserted);
      }
      detail::add_count(t.state, w.thread_rank() == 0 ? pending : 0);
      return (size_t)detail::tile_sum(tile, w.thread_rank() == 0 ? inserted : 0);
    });
  }
};

}  // namespace gcol
#endif
