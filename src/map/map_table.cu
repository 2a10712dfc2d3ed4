/* Device memory of a map: the allocator hook, and building and swapping tables. */
#include "core/device_alloc.h"
#include "map_object.h"

namespace gcol {
namespace detail {

gcol_status_t map_alloc(const oa_object *m, void **p, size_t bytes, cudaStream_t s) {
  return gcol_device_alloc(&m->cfg.allocator, p, bytes, s);
}

cudaError_t map_free(const oa_object *m, void *p, size_t bytes, cudaStream_t s) {
  return gcol_device_free(&m->cfg.allocator, p, bytes, s);
}

uint32_t table_buckets(const oa_object *m, size_t capacity) {
  size_t per_bucket = gcol_map_bucket_slots(m->l.tile, m->kb, m->vb);
  size_t want = capacity / per_bucket + (capacity % per_bucket != 0);
  if (want < 2) want = 2;
  return want < 0x7fffffffULL ? gcol_next_prime((uint32_t)want) : 0;
}

/* Bytes after the slots: the published bits of 8-byte-key pairs claimed key
 * first (key_cas, before sm_90 or forced by a test; map_tile.cuh). */
static size_t pub_bytes(const oa_object *m, size_t num_slots) {
  const bool pair16 = m->vb != 0 && m->kb != 16 && !(m->kb == 4 && m->vb == 4);
  return pair16 && m->t.key_cas ? pub_bits_bytes(num_slots) : 0;
}

cudaError_t clear_pub_bits(const oa_object *m, void *slots, size_t num_slots, cudaStream_t s) {
  const size_t bytes = pub_bytes(m, num_slots);
  return bytes ? cudaMemsetAsync(static_cast<char *>(slots) + num_slots * 16, 0, bytes, s) : cudaSuccess;
}

table_t table_shape(const oa_object *m, uint32_t nb) {
  const size_t num_slots = (size_t)nb * gcol_map_bucket_slots(m->l.tile, m->kb, m->vb);
  return table_t{NULL, nb, num_slots, (size_t)nb * m->l.tile * gcol_chunk_bytes(m->kb, m->vb) + pub_bytes(m, num_slots)};
}

gcol_status_t table_create(const oa_object *m, uint32_t nb, bool fill, table_t *early, cudaStream_t s,
                           table_t *out) {
  table_t nt = table_shape(m, nb);
  if (early && early->slots && early->num_buckets == nb) {
    nt.slots = early->slots;
    early->slots = NULL;
  } else {
    if (early && early->slots) { /* the wrong size: given back before the right one is asked for */
      (void)map_free(m, early->slots, early->bytes, s);
      early->slots = NULL;
    }
    GCOL_TRY(map_alloc(m, &nt.slots, nt.bytes, s));
  }
  table_ref r = m->t;
  r.slots = nt.slots;
  r.num_buckets = nt.num_buckets;
  r.capacity = nt.num_slots;
  cudaError_t e = fill ? with_ops(m, [&](auto ops) { return ops.fill(m->l, r, nt.num_slots, s); }) : cudaSuccess;
  if (e == cudaSuccess && fill) e = clear_pub_bits(m, nt.slots, nt.num_slots, s);
  if (e != cudaSuccess) {
    (void)map_free(m, nt.slots, nt.bytes, s);
    return gcol_from_cuda(e);
  }
  *out = nt;
  return GCOL_SUCCESS;
}

gcol_status_t table_install(oa_object *m, const table_t &nt, cudaStream_t s) {
  void *old = m->t.slots;
  size_t old_bytes = m->table_bytes;
  m->t.slots = nt.slots;
  m->t.num_buckets = nt.num_buckets;
  m->t.capacity = nt.num_slots;
  m->num_slots = nt.num_slots;
  m->table_bytes = nt.bytes;
  /* the map is whole already; a failed free only leaks the old table */
  return gcol_from_cuda(map_free(m, old, old_bytes, s));
}

}  // namespace detail
}  // namespace gcol
