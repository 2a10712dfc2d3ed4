/* Device-side API of gcol's set, for users' CUDA kernels (C++17).
 *
 *   gcol_set_mutable_view_t mv;                       // host
 *   gcol_set_device_mutable_view(set, &mv);
 *   my_kernel<<<g, b, 0, s>>>(gcol::set_mutable_view<uint64_t>(mv), ...);
 *
 *   __global__ void my_kernel(gcol::set_mutable_view<uint64_t> v, ...) {
 *     bool fresh = v.insert(key);                       // per thread
 *     auto tile = cooperative_groups::tiled_partition<2>(cooperative_groups::this_thread_block());
 *     v.insert(tile, key);                              // one key per tile
 *     v.insert_each(tile, i < n, key);                  // bulk: one key per thread
 *   }
 *
 * Keys: 4- or 8-byte integers, or 16-byte keys for GCOL_U128 sets
 * (gcol::u128 or any 16-byte type, low word first).
 * The set's table is the map's without values (slots of 4, 8 or 16 bytes), so
 * these are the map's tile and bulk tile steps (detail/map_bulk.cuh) on a
 * keys-only slot kind, with the map view's rules (gcol/device/map.cuh):
 * tiles of 1 to 32 threads, every thread of a tile makes the call with the
 * same arguments, reserved keys are skipped and latched, a full set is
 * latched, gcol_set_size stays exact, kernels never grow a set. */
#ifndef GCOL_DEVICE_SET_CUH
#define GCOL_DEVICE_SET_CUH

#include "gcol/device/map.cuh"

namespace gcol {
namespace detail {

__host__ __device__ __forceinline__ table_ref table_of(const gcol_set_view_t &v) {
  table_ref t;
  t.slots = v.slots;
  t.state = static_cast<map_state *>(v.state);
  t.empty_key = v.empty_key, t.erased_key = v.erased_key, t.empty_value = 0, t.seed = v.seed;
  t.capacity = v.capacity;
  t.num_buckets = v.num_buckets;
  t.key_cas = 0; /* one-word slots; 16-byte keys: CAS128 on sm_90, the locked CAS before (cas_slot) */
  return t;
}

}  // namespace detail

/* Read-only view: contains. Chunks: 0 reads the bucket width at run time,
 * 1, 2, 4 or 8 compiles that width only (as map_view). */
template <class Key, int Chunks = 0>
class set_view {
  static_assert(Chunks == 0 || Chunks == 1 || Chunks == 2 || Chunks == 4 || Chunks == 8,
                "a bucket is 1, 2, 4 or 8 chunks (0: read at run time)");
  static_assert(sizeof(Key) == 4 || sizeof(Key) == 8 || sizeof(Key) == 16,
                "keys are 4- or 8-byte integers or 16-byte GCOL_U128 keys (gcol::u128)");

 protected:
  static constexpr int SB = detail::slot_of<sizeof(Key), 0>(); /* slot kind */
  gcol_set_view_t v_;

 public:
  typedef Key key_type;

  __host__ __device__ explicit set_view(const gcol_set_view_t &v) : v_(v) {}

  /* Whether Key matches the set's key width (and Chunks its bucket width). */
  __host__ __device__ bool compatible() const {
    int kb = v_.key_type == GCOL_U32 || v_.key_type == GCOL_I32 ? 4 : v_.key_type == GCOL_U128 ? 16 : 8;
    return kb == (int)sizeof(Key) && (Chunks == 0 || v_.bucket_chunks == Chunks);
  }

  /* One key per tile. */
  template <class Tile>
  __device__ bool contains(const Tile &tile, Key key) const {
    detail::table_ref t = detail::table_of(v_);
    auto k = detail::key_bits(key);
    uint64_t h = 0;
    if (!detail::accept_key(t, k, h)) return false;
    return detail::with_bucket<Chunks>(v_.bucket_chunks, [&](auto tc) {
      constexpr int T = decltype(tc)::value;
      return detail::on_first_worker<T>(tile, [&](const auto &w) {
        uint64_t unused;
        return (int)detail::tile_find<T, SB>(w, t, k, h, unused);
      });
    }) != 0;
  }
  /* Per thread. */
  __device__ bool contains(Key key) const { return contains(detail::solo_tile(), key); }

  /* Bulk, one key per thread (active false: none); each key hashed once. */
  template <class Tile>
  __device__ bool contains_each(const Tile &tile, bool active, Key key) const {
    const detail::table_ref t = detail::table_of(v_);
    auto k = detail::key_bits(key);
    uint64_t h = 0, unused = 0;
    bool valid = active && detail::accept_key(t, k, h);
    return detail::with_bucket<Chunks>(v_.bucket_chunks, [&](auto tc) {
      constexpr int T = decltype(tc)::value;
      return detail::bulk_find_step<T, SB>(detail::worker_tile<T, true, SB>(tile), t, valid, k, h, unused);
    });
  }

  /* Bulk: out[i] = whether first[i] is in the set, for the range. */
  template <class Tile>
  __device__ void contains(const Tile &tile, const Key *first, const Key *last, bool *out) const {
    const size_t n = (size_t)(last - first);
    for (size_t base = 0; base < n; base += Tile::num_threads()) {
      size_t i = base + tile.thread_rank();
      bool found = contains_each(tile, i < n, i < n ? first[i] : Key());
      if (i < n) out[i] = found;
    }
  }
};

/* Mutable view: contains, insert and erase. */
template <class Key, int Chunks = 0>
class set_mutable_view : public set_view<Key, Chunks> {
  using set_view<Key, Chunks>::v_;
  using set_view<Key, Chunks>::SB;

 public:
  __host__ __device__ explicit set_mutable_view(const gcol_set_mutable_view_t &v) : set_view<Key, Chunks>(v.view) {}

  /* One key per tile; true when this call inserted it. */
  template <class Tile>
  __device__ bool insert(const Tile &tile, Key key) const {
    detail::table_ref t = detail::table_of(v_);
    auto k = detail::key_bits(key);
    uint64_t h = 0;
    if (!detail::accept_key(t, k, h)) return false;
    const detail::upsert_args a = {detail::UPSERT_INSERT, 0, 0};
    return detail::with_bucket<Chunks>(v_.bucket_chunks, [&](auto tc) {
      constexpr int T = decltype(tc)::value;
      return detail::on_first_worker<T>(tile, [&](const auto &w) {
        unsigned long long pending = 0;
        uint64_t stored;
        int st = detail::tile_upsert<T, SB>(w, t, k, 0, h, a, stored, pending);
        if (w.thread_rank() == 0 && st == detail::UPSERT_NO_ROOM)
          atomicOr(&t.state->flags, (unsigned)detail::MAP_FLAG_FULL);
        detail::add_count(t.state, w.thread_rank() == 0 ? pending : 0);
        return st;
      });
    }) == detail::UPSERT_INSERTED;
  }
  /* One key per tile; true when this call erased it. */
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
  __device__ bool insert(Key key) const { return insert(detail::solo_tile(), key); }
  __device__ bool erase(Key key) const { return erase(detail::solo_tile(), key); }

  /* Bulk, one key per thread: true when this thread's key was inserted by this call. */
  template <class Tile>
  __device__ bool insert_each(const Tile &tile, bool active, Key key) const {
    const detail::table_ref t = detail::table_of(v_);
    auto k = detail::key_bits(key);
    uint64_t h = 0;
    bool valid = active && detail::accept_key(t, k, h);
    const detail::upsert_args a = {detail::UPSERT_INSERT, 0, 0};
    return detail::with_bucket<Chunks>(v_.bucket_chunks, [&](auto tc) {
      constexpr int T = decltype(tc)::value;
      auto w = detail::worker_tile<T, false, SB>(tile);
      unsigned long long pending = 0, inserted = 0;
      uint64_t stored;
      int st = detail::bulk_upsert_step<T, SB>(w, t, valid, k, 0, h, a, stored, pending, inserted);
      detail::add_count(t.state, w.thread_rank() == 0 ? pending : 0);
      return st == detail::UPSERT_INSERTED;
    });
  }

  /* Bulk: insert the keys of the range; returns how many this call inserted
   * (the same on every thread of the tile). */
  template <class Tile>
  __device__ size_t insert(const Tile &tile, const Key *first, const Key *last) const {
    const size_t n = (size_t)(last - first);
    unsigned long long mine = 0;
    for (size_t base = 0; base < n; base += Tile::num_threads()) {
      size_t i = base + tile.thread_rank();
      mine += insert_each(tile, i < n, i < n ? first[i] : Key());
    }
    return (size_t)detail::tile_sum(tile, mine);
  }
};

}  // namespace gcol
#endif
