/* Host side of the multimap core (multimap.cu and multiset.cu call it after
 * their checks): allocation through the config's allocator, state, and
 * kernel dispatch. Clearing and retrieve_all run the open-addressing core's
 * fill and slot-compaction kernels (oa_ops): the open table is a map (or
 * set) table, and the chained pool is laid out as one (pairs packed as map
 * slots, unused nodes holding empty_key). */
#include "core/device_alloc.h"
#include "map/map_internal.h"
#include "map/map_policy.h"
#include "mm_object.h"

static_assert(sizeof(size_t) == sizeof(unsigned long long), "device counters are written as size_t");

namespace gcol {
namespace detail {
namespace {

/* Pairs stored: the chained engines count node reservations, failed ones too. */
size_t stored(const mm_object *m, const map_state *h) {
  return h->size < m->p.capacity ? (size_t)h->size : m->p.capacity;
}

gcol_status_t alloc_all(mm_object *m, cudaStream_t s) {
  const gcol_allocator_t *a = &m->cfg.map.allocator;
  void *state = NULL, *next = NULL, *heads = NULL, *locks = NULL;
  GCOL_TRY(gcol_device_alloc(a, &state, sizeof(map_state), s));
  m->r.t.state = (map_state *)state;
  GCOL_TRY(gcol_device_alloc(a, &m->r.t.slots, m->p.table_bytes, s));
  GCOL_TRY(gcol_device_alloc(a, &next, m->p.next_bytes, s));
  m->r.next = (unsigned *)next;
  GCOL_TRY(gcol_device_alloc(a, &heads, m->p.head_bytes, s));
  m->r.heads = (unsigned *)heads;
  GCOL_TRY(gcol_device_alloc(a, &locks, m->p.lock_bytes, s));
  m->r.locks = (unsigned *)locks;
  return GCOL_SUCCESS;
}

template <class F>
cudaError_t with_mm_ops(const mm_object *m, F f) {
  return with_widths(m->p.kb, m->p.vb, [&](auto kb, auto vb) {
    return f(mm_ops<decltype(kb)::value, decltype(vb)::value>(), oa_ops<decltype(kb)::value, decltype(vb)::value>());
  });
}

}  // namespace

gcol_status_t mm_init(mm_object *m, uint32_t magic, const gcol_multimap_config_t &c, const gcol_mm_plan_t &p,
                      cudaStream_t s) {
  m->magic = magic; /* first: a failure below is cleaned up by destroy */
  m->cfg = c;
  m->p = p;
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  GCOL_TRY(gcol_device_l2_bytes(dev.device, &m->l.l2_bytes));
  gcol_map_policy_t pol;
  GCOL_TRY(gcol_map_policy_of_device(dev.device, &pol));
  m->r.t = table_ref_for(c.map, pol.key_cas);
  m->r.t.capacity = p.capacity;
  m->r.t.num_buckets = p.num_buckets;
  m->r.chained = p.engine != GCOL_MULTIMAP_OPEN;
  m->l.tile = p.tile;
  m->l.num_sms = dev.num_sms;
  m->l.solo_lookups = pol.solo_lookups; /* contains (the find kernels' multiset instance) and the open engine's count */
  m->last = s;
  GCOL_TRY(alloc_all(m, s));
  return mm_clear(m, s);
}

void mm_release(mm_object *m) {
  m->magic = 0;
  const gcol_allocator_t *a = &m->cfg.map.allocator;
  (void)gcol_device_free(a, m->r.locks, m->p.lock_bytes, m->last);
  (void)gcol_device_free(a, m->r.heads, m->p.head_bytes, m->last);
  (void)gcol_device_free(a, m->r.next, m->p.next_bytes, m->last);
  (void)gcol_device_free(a, m->r.t.slots, m->p.table_bytes, m->last);
  (void)gcol_device_free(a, m->r.t.state, sizeof(map_state), m->last);
}

gcol_status_t mm_clear(mm_object *m, cudaStream_t s) {
  m->last = s;
  GCOL_CUDA_TRY(cudaMemsetAsync(m->r.t.state, 0, sizeof(map_state), s));
  if (m->r.heads) GCOL_CUDA_TRY(cudaMemsetAsync(m->r.heads, 0xff, m->p.head_bytes, s)); /* GCOL_MM_NIL */
  if (m->r.locks) GCOL_CUDA_TRY(cudaMemsetAsync(m->r.locks, 0, m->p.lock_bytes, s));
  const size_t num_slots = m->p.table_bytes / (size_t)m->p.slot_bytes;
  return gcol_from_cuda(with_mm_ops(m, [&](auto, auto oa) { return oa.fill(m->l, m->r.t, num_slots, s); }));
}

gcol_status_t mm_insert(mm_object *m, const void *keys, const void *values, size_t n, size_t *d_count,
                        cudaStream_t s) {
  m->last = s;
  if (d_count) GCOL_CUDA_TRY(cudaMemsetAsync(d_count, 0, sizeof *d_count, s));
  if (n == 0) return GCOL_SUCCESS;
  return gcol_from_cuda(with_mm_ops(m, [&](auto mm, auto) {
    return mm.insert(m->l.num_sms, m->r, keys, values, n, reinterpret_cast<unsigned long long *>(d_count), s);
  }));
}

/* count and retrieve record nothing in the object (const): see gcol.h on destroy. */
gcol_status_t mm_count(const mm_object *m, const void *keys, size_t n, size_t *d_counts, size_t *d_total,
                       cudaStream_t s) {
  if (d_total) GCOL_CUDA_TRY(cudaMemsetAsync(d_total, 0, sizeof *d_total, s));
  if (n == 0 || (!d_counts && !d_total)) return GCOL_SUCCESS;
  mm_query_out o = {};
  o.counts = reinterpret_cast<unsigned long long *>(d_counts);
  o.total = reinterpret_cast<unsigned long long *>(d_total);
  return gcol_from_cuda(
      with_mm_ops(m, [&](auto mm, auto) { return mm.query(m->l, m->r, keys, n, o, false, s); }));
}

gcol_status_t mm_contains(const mm_object *m, const void *keys, size_t n, uint8_t *found, cudaStream_t s) {
  if (n == 0) return GCOL_SUCCESS;
  return gcol_from_cuda(
      with_mm_ops(m, [&](auto, auto oa) { return oa.multiset_contains(m->l, m->r.t, keys, n, found, s); }));
}

gcol_status_t mm_retrieve(void *d_temp, const mm_object *m, const void *keys, size_t n, void *keys_out,
                          void *values_out, size_t *query_out, size_t out_capacity, size_t *d_total, cudaStream_t s) {
  unsigned long long *cursor = static_cast<unsigned long long *>(d_temp);
  GCOL_CUDA_TRY(cudaMemsetAsync(cursor, 0, sizeof *cursor, s));
  if (n) {
    mm_query_out o = {};
    o.keys = keys_out;
    o.values = values_out;
    o.queries = reinterpret_cast<unsigned long long *>(query_out);
    o.capacity = out_capacity;
    o.cursor = cursor;
    GCOL_CUDA_TRY(with_mm_ops(m, [&](auto mm, auto) { return mm.query(m->l, m->r, keys, n, o, true, s); }));
  }
  GCOL_CUDA_TRY(cudaMemcpyAsync(d_total, cursor, sizeof *d_total, cudaMemcpyDeviceToDevice, s));
  return GCOL_SUCCESS;
}

gcol_status_t mm_retrieve_all(mm_object *m, void *keys_out, void *values_out, size_t *h_count, cudaStream_t s) {
  m->last = s;
  GCOL_CUDA_TRY(cudaMemsetAsync(&m->r.t.state->scratch, 0, sizeof m->r.t.state->scratch, s));
  GCOL_CUDA_TRY(with_mm_ops(m, [&](auto, auto oa) {
    return oa.retrieve(m->l, m->r.t, m->p.table_bytes / gcol_chunk_bytes(m->p.kb, m->p.vb), keys_out, values_out, s);
  }));
  map_state h;
  GCOL_TRY(map_state_read(m->r.t.state, &h, s));
  *h_count = (size_t)h.scratch;
  return map_state_take_latched(m->r.t.state, &h, s);
}

gcol_status_t mm_size(mm_object *m, size_t *h_size, cudaStream_t s) {
  m->last = s;
  map_state h;
  GCOL_TRY(map_state_read(m->r.t.state, &h, s));
  *h_size = stored(m, &h);
  return map_state_take_latched(m->r.t.state, &h, s);
}

gcol_status_t mm_status(mm_object *m, cudaStream_t s) {
  m->last = s;
  map_state h;
  GCOL_TRY(map_state_read(m->r.t.state, &h, s));
  return map_state_take_latched(m->r.t.state, &h, s);
}

}  // namespace detail
}  // namespace gcol
