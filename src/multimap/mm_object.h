/* The multimap core object behind the multimap and the multiset (keys only:
 * the open engine with vb 0), and the calls both make once their public
 * call has checked its arguments (mm_host.cu). CUDA C++ only. */
#ifndef GCOL_SRC_MULTIMAP_MM_OBJECT_H
#define GCOL_SRC_MULTIMAP_MM_OBJECT_H

#include "core/common.h"
#include "core/oa_shell.h"
#include "map/map_ops.h"
#include "mm_ops.h"
#include "mm_plan.h"

#define GCOL_MULTIMAP_MAGIC 0x4d6d6367u /* a live multimap; 0 once destroyed */
#define GCOL_MULTISET_MAGIC 0x536d6367u /* a live multiset; 0 once destroyed */

namespace gcol {
namespace detail {

struct mm_object {
  uint32_t magic;
  gcol_multimap_config_t cfg; /* a multiset's as a multimap's (open engine) */
  gcol_mm_plan_t p;
  mm_ref r;
  launch_cfg l;      /* for the core's fill, contains and retrieve_all kernels */
  cudaStream_t last; /* stream of the last call: destroy frees on it */
};

/* Bytes of the temp storage of mm_retrieve. */
const size_t MM_RETRIEVE_TEMP_BYTES = 256; /* one output cursor, padded */

/* Fill a calloc'ed object from a config and its plan, allocate and clear
 * on s. On failure the caller destroys it. */
gcol_status_t mm_init(mm_object *o, uint32_t magic, const gcol_multimap_config_t &c, const gcol_mm_plan_t &p,
                      cudaStream_t s);
void mm_release(mm_object *o);
gcol_status_t mm_clear(mm_object *o, cudaStream_t s);
gcol_status_t mm_insert(mm_object *o, const void *keys, const void *values, size_t n, size_t *d_count, cudaStream_t s);
/* count: n > 0 and an output wanted (checked by the caller); d_total zeroed here */
gcol_status_t mm_count(const mm_object *o, const void *keys, size_t n, size_t *d_counts, size_t *d_total,
                       cudaStream_t s);
/* Open engine only (the multiset): found[i] = key i has a copy, through the
 * open-addressing core's find kernels compiled for the multiset's tile
 * (oa_ops::multiset_contains; the table is laid out as a set's). */
gcol_status_t mm_contains(const mm_object *o, const void *keys, size_t n, uint8_t *found, cudaStream_t s);
gcol_status_t mm_retrieve(void *d_temp, const mm_object *o, const void *keys, size_t n, void *keys_out,
                          void *values_out, size_t *query_out, size_t out_capacity, size_t *d_total, cudaStream_t s);
gcol_status_t mm_retrieve_all(mm_object *o, void *keys_out, void *values_out, size_t *h_count, cudaStream_t s);
gcol_status_t mm_size(mm_object *o, size_t *h_size, cudaStream_t s);
gcol_status_t mm_status(mm_object *o, cudaStream_t s);

/* What the public calls' shells (core/oa_shell.h) call on a multimap or a
 * multiset (keys only: vb 0). */
inline gcol_oa_shape_t core_shape(const mm_object *o) {
  return gcol_oa_shape_t{o->cfg.map.key_type, o->cfg.map.value_type, (size_t)o->p.kb, (size_t)o->p.vb};
}
inline void core_release(mm_object *o) { mm_release(o); }
inline size_t core_capacity(const mm_object *o) { return o->p.capacity; }
inline gcol_status_t core_size(mm_object *o, size_t *h, cudaStream_t s) { return mm_size(o, h, s); }
inline gcol_status_t core_clear(mm_object *o, cudaStream_t s) { return mm_clear(o, s); }
inline gcol_status_t core_status(mm_object *o, cudaStream_t s) { return mm_status(o, s); }
inline gcol_status_t core_retrieve_all(mm_object *o, void *keys_out, void *values_out, size_t *h, cudaStream_t s) {
  return mm_retrieve_all(o, keys_out, values_out, h, s);
}

}  // namespace detail
}  // namespace gcol

struct gcol_multimap : gcol::detail::mm_object {};
struct gcol_multiset : gcol::detail::mm_object {};
#endif
