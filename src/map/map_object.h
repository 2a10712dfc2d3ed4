/* The open-addressing core object behind the map and the set, and the
 * helpers their host files share (oa_host.cu: create, destroy and the
 * calls both containers make, map_table.cu: device memory and tables,
 * map_grow.cu: growth; map.cu and set.cu: their public APIs). CUDA C++ only. */
#ifndef GCOL_SRC_MAP_MAP_OBJECT_H
#define GCOL_SRC_MAP_MAP_OBJECT_H

#include "core/common.h"
#include "core/oa_shell.h"
#include "map_internal.h"
#include "map_ops.h"

#define GCOL_MAP_MAGIC 0x4d6c6367u /* a live map; 0 once destroyed */
#define GCOL_SET_MAGIC 0x536c6367u /* a live set; 0 once destroyed */

namespace gcol {
namespace detail {

/* One open-addressing table with its state, growth bookkeeping and
 * allocator: the whole of a map or a set. */
struct oa_object {
  uint32_t magic;                  /* GCOL_MAP_MAGIC, GCOL_SET_MAGIC; 0 once destroyed */
  gcol_map_config_t cfg;           /* a set's config as a map's: value_type
                                      unused, empty_value 0 */
  int kb, vb;                      /* key and value widths in bytes (vb 0: keys only) */
  gcol::detail::table_ref t;       /* what the kernels see */
  gcol::detail::launch_cfg l;      /* tile, block size, SM count */
  int needs_key_cas;               /* the kernels cannot CAS 128 bits (oa_init):
                                      t.key_cas stays 1 */
  size_t num_slots;
  size_t table_bytes;              /* bytes at t.slots */
  cudaStream_t last;               /* stream of the last call: destroy frees on it */
  /* Growable maps only: an upper bound of the non-empty slots (live keys and
   * tombstones), and whether an erase may have left tombstones since the
   * table was last rebuilt or cleared (else non-empty slots == live keys). */
  size_t used_bound;
  int may_have_tombstones;
  /* A mutable device view of this table was handed out: kernels may insert
   * and erase behind the host's back, so growth decisions count the slots
   * until the next rebuild (which ends every view). */
  int device_writes;
  /* Growable maps: the last exact count of the slots found room for its
   * batch, so the next growth is not allocated ahead (map_grow.cu). */
  int last_count_kept;
};

/* Call f with the oa_ops instance of the object's key and value widths. */
template <class F>
cudaError_t with_ops(const oa_object *m, F f) {
  return with_widths(m->kb, m->vb, [&](auto kb, auto vb) { return f(oa_ops<decltype(kb)::value, decltype(vb)::value>()); });
}

/* ---- the calls map and set share (oa_host.cu) ---- */
/* Fill a calloc'ed object from a checked config (vb 0: keys only), allocate
 * its state and an empty table on s. On failure the caller destroys it. */
gcol_status_t oa_init(oa_object *o, uint32_t magic, const gcol_map_config_t &c, int vb, cudaStream_t s);
/* Clear the magic and free the device memory (on the last call's stream). */
void oa_release(oa_object *o);
/* The insert family (growth first); d_count zeroed first. */
gcol_status_t oa_upsert(oa_object *o, const void *keys, const void *values, size_t n, upsert_args a,
                        void *values_out, uint8_t *inserted_out, size_t *d_count, cudaStream_t s);
gcol_status_t oa_lookup(const oa_object *o, const void *keys, size_t n, void *out, bool contains, cudaStream_t s);
gcol_status_t oa_erase(oa_object *o, const void *keys, size_t n, size_t *d_count, cudaStream_t s);
gcol_status_t oa_retrieve_all(oa_object *o, void *keys_out, void *values_out, size_t *h_count, cudaStream_t s);
gcol_status_t oa_size(oa_object *o, size_t *h_size, cudaStream_t s);
gcol_status_t oa_clear(oa_object *o, cudaStream_t s);
/* `noun` for the fixed container's message ("map"). */
gcol_status_t oa_reserve(oa_object *o, size_t capacity, const char *noun, cudaStream_t s);
gcol_status_t oa_status(oa_object *o, cudaStream_t s);

/* What the public calls' shells (core/oa_shell.h) call on a map or a set. */
inline gcol_oa_shape_t core_shape(const oa_object *o) {
  return gcol_oa_shape_t{o->cfg.key_type, o->cfg.value_type, (size_t)o->kb, (size_t)o->vb};
}
inline void core_release(oa_object *o) { oa_release(o); }
inline size_t core_capacity(const oa_object *o) { return o->num_slots; }
inline gcol_status_t core_size(oa_object *o, size_t *h, cudaStream_t s) { return oa_size(o, h, s); }
inline gcol_status_t core_clear(oa_object *o, cudaStream_t s) { return oa_clear(o, s); }
inline gcol_status_t core_status(oa_object *o, cudaStream_t s) { return oa_status(o, s); }
inline gcol_status_t core_reserve(oa_object *o, size_t capacity, const char *noun, cudaStream_t s) {
  return oa_reserve(o, capacity, noun, s);
}
inline gcol_status_t core_retrieve_all(oa_object *o, void *keys_out, void *values_out, size_t *h, cudaStream_t s) {
  return oa_retrieve_all(o, keys_out, values_out, h, s);
}

/* Device memory through the map's allocator (cudaMallocAsync when none).
 * map_alloc: GCOL_ERROR_OUT_OF_MEMORY (and *p = NULL) when it cannot. */
gcol_status_t map_alloc(const oa_object *m, void **p, size_t bytes, cudaStream_t s);
cudaError_t map_free(const oa_object *m, void *p, size_t bytes, cudaStream_t s);

/* A table not yet installed in a map. */
struct table_t {
  void *slots;
  uint32_t num_buckets;
  size_t num_slots, bytes;
};

/* Buckets for at least `capacity` slots with the map's tile: a prime >= 2;
 * 0 when it would not fit the probe sequence (2^31 buckets). */
uint32_t table_buckets(const oa_object *m, size_t capacity);

/* The slots and bytes of a table of nb buckets (slots NULL: not allocated). */
table_t table_shape(const oa_object *m, uint32_t nb);

/* Allocate a table of nb buckets, filled empty on s unless `fill` is false
 * (a rebuild writes every slot itself). early (or NULL): a table allocated
 * ahead (map_grow.cu), taken when it has nb buckets (its slots set to NULL),
 * else freed first. On failure nothing is left allocated and the map is
 * untouched. */
gcol_status_t table_create(const oa_object *m, uint32_t nb, bool fill, table_t *early, cudaStream_t s,
                           table_t *out);

/* Zero the published bits after a table's slots, where it has them (8-byte-
 * key pairs claimed key first: table_ref::key_cas, map_tile.cuh); every
 * fill of a map's table and every rehash into one does it. */
cudaError_t clear_pub_bits(const oa_object *m, void *slots, size_t num_slots, cudaStream_t s);

/* Make nt the map's table and free the old one (stream-ordered on s). */
gcol_status_t table_install(oa_object *m, const table_t &nt, cudaStream_t s);

/* Growable maps: before an insert-type call of n keys, make sure the table
 * holds them under max_load_factor (may synchronize s, see gcol.h). A no-op
 * for fixed maps. GCOL_ERROR_OUT_OF_MEMORY leaves the map as it was. */
gcol_status_t map_make_room(oa_object *m, size_t n, cudaStream_t s);

/* A fresh, empty table of cfg.capacity slots for the map's current tile
 * (views of the old one end); on failure the map keeps what it had. */
gcol_status_t map_reset_table(oa_object *m, cudaStream_t s);

/* gcol_map_reserve of a growable map. */
gcol_status_t map_reserve_growable(oa_object *m, size_t keys, cudaStream_t s);

}  // namespace detail
}  // namespace gcol

struct gcol_map : gcol::detail::oa_object {};
struct gcol_set : gcol::detail::oa_object {};
#endif
