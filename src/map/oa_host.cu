/* Host side of the open-addressing core: what the map and the set both do
 * once their public call has checked its arguments (map.cu, set.cu). The
 * kernels come from oa_ops (map_ops.h), dispatched on the object's widths. */
#include <stdlib.h>
#include "core/api_scope.h"
#include "core/common.h"
#include "map_object.h"
#include "map_policy.h"

static_assert(sizeof(size_t) == sizeof(unsigned long long), "device counters are written as size_t");

namespace gcol {
namespace detail {

gcol_status_t oa_init(oa_object *o, uint32_t magic, const gcol_map_config_t &c, int vb, cudaStream_t s) {
  o->magic = magic; /* first: a failure below is cleaned up by destroy */
  o->cfg = c;
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  GCOL_TRY(gcol_device_l2_bytes(dev.device, &o->l.l2_bytes));
  gcol_map_policy_t p = gcol_map_policy_for(dev.cc_major);
  o->kb = (int)gcol_type_size(c.key_type);
  o->vb = vb;
  o->t = table_ref_for(c, p.key_cas);
  o->l.tile = gcol_oa_tile(&p, o->kb, vb, c.capacity, c.growable, o->l.l2_bytes);
  o->l.block_threads = p.block_threads;
  o->l.num_sms = dev.num_sms;
  o->l.solo_lookups = p.solo_lookups;
  o->l.solo_upserts = p.solo_upserts;
  o->last = s;
  void *state = NULL;
  GCOL_TRY(map_alloc(o, &state, sizeof(map_state), s));
  o->t.state = (map_state *)state;
  return map_reset_table(o, s);
}

void oa_release(oa_object *o) {
  o->magic = 0;
  /* nothing to report to: a failed free leaks */
  (void)map_free(o, o->t.slots, o->table_bytes, o->last);
  (void)map_free(o, o->t.state, sizeof(map_state), o->last);
}

gcol_status_t map_reset_table(oa_object *m, cudaStream_t s) {
  uint32_t nb = table_buckets(m, m->cfg.capacity);
  if (nb == 0) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "capacity %zu needs more than 2^31 buckets", m->cfg.capacity);
  table_t nt;
  GCOL_TRY(table_create(m, nb, true, s, &nt));
  GCOL_TRY(table_install(m, nt, s));
  m->used_bound = 0;
  m->may_have_tombstones = 0;
  m->device_writes = 0; /* views of the old table are void */
  GCOL_CUDA_TRY(cudaMemsetAsync(m->t.state, 0, sizeof(map_state), s));
  return GCOL_SUCCESS;
}

gcol_status_t oa_upsert(oa_object *o, const void *keys, const void *values, size_t n, upsert_args a,
                        void *values_out, uint8_t *inserted_out, size_t *d_count, cudaStream_t s) {
  o->last = s;
  if (d_count) GCOL_CUDA_TRY(cudaMemsetAsync(d_count, 0, sizeof *d_count, s));
  if (n == 0) return GCOL_SUCCESS;
  GCOL_TRY(map_make_room(o, n, s));
  return gcol_from_cuda(with_ops(o, [&](auto ops) {
    return ops.upsert(o->l, o->t, keys, values, n, a, values_out, inserted_out,
                      reinterpret_cast<unsigned long long *>(d_count), s);
  }));
}

/* Lookups record nothing in the object (const): see gcol_map_destroy. */
gcol_status_t oa_lookup(const oa_object *o, const void *keys, size_t n, void *out, bool contains, cudaStream_t s) {
  if (n == 0) return GCOL_SUCCESS;
  return gcol_from_cuda(with_ops(o, [&](auto ops) { return ops.find(o->l, o->t, keys, n, out, contains, s); }));
}

gcol_status_t oa_erase(oa_object *o, const void *keys, size_t n, size_t *d_count, cudaStream_t s) {
  o->last = s;
  if (d_count) GCOL_CUDA_TRY(cudaMemsetAsync(d_count, 0, sizeof *d_count, s));
  if (n == 0) return GCOL_SUCCESS;
  o->may_have_tombstones = 1;
  return gcol_from_cuda(with_ops(o, [&](auto ops) {
    return ops.erase(o->l, o->t, keys, n, reinterpret_cast<unsigned long long *>(d_count), s);
  }));
}

gcol_status_t oa_retrieve_all(oa_object *o, void *keys_out, void *values_out, size_t *h_count, cudaStream_t s) {
  o->last = s;
  GCOL_CUDA_TRY(cudaMemsetAsync(&o->t.state->scratch, 0, sizeof o->t.state->scratch, s));
  const size_t chunks = (size_t)o->t.num_buckets * o->l.tile;
  GCOL_CUDA_TRY(with_ops(o, [&](auto ops) { return ops.retrieve(o->l, o->t, chunks, keys_out, values_out, s); }));
  map_state h;
  GCOL_TRY(map_state_read(o->t.state, &h, s));
  *h_count = (size_t)h.scratch;
  return map_state_take_latched(o->t.state, &h, s);
}

gcol_status_t oa_size(oa_object *o, size_t *h_size, cudaStream_t s) {
  o->last = s;
  map_state h;
  GCOL_TRY(map_state_read(o->t.state, &h, s));
  *h_size = (size_t)live_keys(&h);
  return map_state_take_latched(o->t.state, &h, s);
}

gcol_status_t oa_clear(oa_object *o, cudaStream_t s) {
  o->last = s;
  o->used_bound = 0;
  o->may_have_tombstones = 0;
  GCOL_CUDA_TRY(cudaMemsetAsync(o->t.state, 0, sizeof(map_state), s));
  return gcol_from_cuda(with_ops(o, [&](auto ops) { return ops.fill(o->l, o->t, o->num_slots, s); }));
}

gcol_status_t oa_reserve(oa_object *o, size_t capacity, const char *noun, cudaStream_t s) {
  if (!o->cfg.growable) {
    if (capacity <= o->num_slots) return GCOL_SUCCESS;
    return gcol_fail(GCOL_ERROR_FULL, "capacity %zu is more than this fixed %s's %zu slots", capacity, noun,
                     o->num_slots);
  }
  o->last = s;
  return map_reserve_growable(o, capacity, s);
}

gcol_status_t oa_status(oa_object *o, cudaStream_t s) {
  o->last = s;
  map_state h;
  GCOL_TRY(map_state_read(o->t.state, &h, s));
  return map_state_take_latched(o->t.state, &h, s);
}

}  // namespace detail
}  // namespace gcol
