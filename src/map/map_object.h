/* The map object and the helpers its host files share (map.cu: the API,
 * map_table.cu: device memory and tables, map_grow.cu: growth). CUDA C++ only. */
#ifndef GCOL_SRC_MAP_MAP_OBJECT_H
#define GCOL_SRC_MAP_MAP_OBJECT_H

#include "core/common.h"
#include "map_internal.h"
#include "map_ops.h"

#define GCOL_MAP_MAGIC 0x4d6c6367u /* a live map; 0 once destroyed */

struct gcol_map {
  uint32_t magic;
  gcol_map_config_t cfg;
  int kb, vb;                      /* key and value widths in bytes */
  gcol::detail::table_ref t;       /* what the kernels see */
  gcol::detail::launch_cfg l;      /* tile, block size, SM count */
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
};

namespace gcol {
namespace detail {

/* Call f with the map_ops instance of the map's key and value widths. */
template <class F>
cudaError_t with_ops(const gcol_map *m, F f) {
  if (m->kb == 4) return m->vb == 4 ? f(map_ops<4, 4>()) : f(map_ops<4, 8>());
  return m->vb == 4 ? f(map_ops<8, 4>()) : f(map_ops<8, 8>());
}

/* Device memory through the map's allocator (cudaMallocAsync when none).
 * map_alloc: GCOL_ERROR_OUT_OF_MEMORY (and *p = NULL) when it cannot. */
gcol_status_t map_alloc(const gcol_map *m, void **p, size_t bytes, cudaStream_t s);
cudaError_t map_free(const gcol_map *m, void *p, size_t bytes, cudaStream_t s);

/* A table not yet installed in a map. */
struct table_t {
  void *slots;
  uint32_t num_buckets;
  size_t num_slots, bytes;
};

/* Buckets for at least `capacity` slots with the map's tile: a prime >= 2;
 * 0 when it would not fit the probe sequence (2^31 buckets). */
uint32_t table_buckets(const gcol_map *m, size_t capacity);

/* Allocate a table of nb buckets, filled empty on s unless `fill` is false
 * (a rebuild writes every slot itself). On failure nothing is left
 * allocated and the map is untouched. */
gcol_status_t table_create(const gcol_map *m, uint32_t nb, bool fill, cudaStream_t s, table_t *out);

/* Make nt the map's table and free the old one (stream-ordered on s). */
gcol_status_t table_install(gcol_map *m, const table_t &nt, cudaStream_t s);

/* Growable maps: before an insert-type call of n keys, make sure the table
 * holds them under max_load_factor (may synchronize s, see gcol.h). A no-op
 * for fixed maps. GCOL_ERROR_OUT_OF_MEMORY leaves the map as it was. */
gcol_status_t map_make_room(gcol_map *m, size_t n, cudaStream_t s);

/* A fresh, empty table of cfg.capacity slots for the map's current tile
 * (views of the old one end); on failure the map keeps what it had. */
gcol_status_t map_reset_table(gcol_map *m, cudaStream_t s);

/* gcol_map_reserve of a growable map. */
gcol_status_t map_reserve_growable(gcol_map *m, size_t keys, cudaStream_t s);

}  // namespace detail
}  // namespace gcol
#endif
