/* Host API of the multimap: argument checks, state, allocation through the
 * config's allocator, and kernel dispatch. Clearing and retrieve_all reuse
 * the map's fill and slot-compaction kernels (map_ops): the open table is a
 * map table, and the chained pool is laid out as one (pairs packed as map
 * slots, unused nodes holding empty_key). */
#include <stdlib.h>
#include <type_traits>
#include "core/api_scope.h"
#include "core/args.h"
#include "core/common.h"
#include "core/device_alloc.h"
#include "map/map_ops.h"
#include "map/map_policy.h"
#include "mm_ops.h"
#include "mm_plan.h"

using gcol::detail::launch_cfg;
using gcol::detail::map_ops;
using gcol::detail::map_state;
using gcol::detail::map_state_read;
using gcol::detail::map_state_take_latched;
using gcol::detail::mm_ops;
using gcol::detail::mm_query_out;
using gcol::detail::mm_ref;
using gcol::detail::api_scope;

static_assert(sizeof(size_t) == sizeof(unsigned long long), "device counters are written as size_t");

#define GCOL_MULTIMAP_MAGIC 0x4d6d6367u /* a live multimap; 0 once destroyed */

struct gcol_multimap {
  uint32_t magic;
  gcol_multimap_config_t cfg;
  gcol_mm_plan_t p;
  mm_ref r;
  launch_cfg l;      /* for the map's fill and retrieve_all kernels */
  cudaStream_t last; /* stream of the last call: destroy frees on it */
};

namespace {

const size_t RETRIEVE_TEMP_BYTES = 256; /* one output cursor, padded */

template <class F>
cudaError_t with_widths(const gcol_multimap *m, F f) {
  if (m->p.kb == 4) return m->p.vb == 4 ? f(std::integral_constant<int, 4>(), std::integral_constant<int, 4>())
                                        : f(std::integral_constant<int, 4>(), std::integral_constant<int, 8>());
  return m->p.vb == 4 ? f(std::integral_constant<int, 8>(), std::integral_constant<int, 4>())
                      : f(std::integral_constant<int, 8>(), std::integral_constant<int, 8>());
}

gcol_status_t check_mm(const gcol_multimap *m) {
  return gcol_check_handle(m, m ? m->magic : 0, GCOL_MULTIMAP_MAGIC, "gcol_multimap_t");
}

/* Pairs stored: the chained engines count node reservations, failed ones too. */
size_t stored(const gcol_multimap *m, const map_state *h) {
  return h->size < m->p.capacity ? (size_t)h->size : m->p.capacity;
}

gcol_status_t alloc_all(gcol_multimap *m, cudaStream_t s) {
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

}  // namespace

extern "C" {

gcol_status_t gcol_multimap_create(gcol_multimap_t **mm, const gcol_multimap_config_t *cfg, cudaStream_t s) {
  api_scope r("gcol_multimap_create");
  if (!mm) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "mm (the output handle) is NULL");
  *mm = NULL;
  gcol_multimap_config_t c;
  GCOL_TRY(gcol_multimap_config_take(cfg, &c));
  gcol_mm_plan_t p;
  GCOL_TRY(gcol_mm_plan(&c, &p));
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  gcol_map_policy_t pol = gcol_map_policy_for(dev.cc_major);

  gcol_multimap *m = (gcol_multimap *)calloc(1, sizeof *m);
  if (!m) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the multimap object");
  m->magic = GCOL_MULTIMAP_MAGIC;
  m->cfg = c;
  m->p = p;
  m->r.t = gcol::detail::table_ref_for(c.map, pol.key_cas);
  m->r.t.capacity = p.capacity;
  m->r.t.num_buckets = p.num_buckets;
  m->r.chained = p.engine != GCOL_MULTIMAP_OPEN;
  m->l.tile = p.tile;
  m->l.block_threads = pol.block_threads;
  m->l.num_sms = dev.num_sms;
  m->last = s;
  gcol_status_t st = alloc_all(m, s);
  if (st == GCOL_SUCCESS) st = gcol_multimap_clear(m, s);
  if (st != GCOL_SUCCESS) {
    gcol_multimap_destroy(m);
    return st;
  }
  *mm = m;
  return GCOL_SUCCESS;
}

void gcol_multimap_destroy(gcol_multimap_t *m) {
  if (!m || m->magic != GCOL_MULTIMAP_MAGIC) return;
  api_scope r("gcol_multimap_destroy");
  m->magic = 0;
  const gcol_allocator_t *a = &m->cfg.map.allocator;
  (void)gcol_device_free(a, m->r.locks, m->p.lock_bytes, m->last);
  (void)gcol_device_free(a, m->r.heads, m->p.head_bytes, m->last);
  (void)gcol_device_free(a, m->r.next, m->p.next_bytes, m->last);
  (void)gcol_device_free(a, m->r.t.slots, m->p.table_bytes, m->last);
  (void)gcol_device_free(a, m->r.t.state, sizeof(map_state), m->last);
  free(m);
}

gcol_status_t gcol_multimap_clear(gcol_multimap_t *m, cudaStream_t s) {
  api_scope r("gcol_multimap_clear");
  GCOL_TRY(check_mm(m));
  m->last = s;
  GCOL_CUDA_TRY(cudaMemsetAsync(m->r.t.state, 0, sizeof(map_state), s));
  if (m->r.heads) GCOL_CUDA_TRY(cudaMemsetAsync(m->r.heads, 0xff, m->p.head_bytes, s)); /* GCOL_MM_NIL */
  if (m->r.locks) GCOL_CUDA_TRY(cudaMemsetAsync(m->r.locks, 0, m->p.lock_bytes, s));
  const size_t num_slots = m->p.table_bytes / (size_t)m->p.slot_bytes;
  return gcol_from_cuda(with_widths(m, [&](auto kb, auto vb) {
    return map_ops<decltype(kb)::value, decltype(vb)::value>::fill(m->l, m->r.t, num_slots, s);
  }));
}

gcol_status_t gcol_multimap_insert(gcol_multimap_t *m, const void *d_keys, const void *d_values, size_t n,
                                   size_t *d_num_inserted, cudaStream_t s) {
  api_scope r("gcol_multimap_insert");
  GCOL_TRY(check_mm(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.map.key_type, m->cfg.map.value_type);
  gcol_dptr_t a[] = {{"d_keys", d_keys, n, (size_t)m->p.kb, w.keys},
                     {"d_values", d_values, n, (size_t)m->p.vb, w.values},
                     {"d_num_inserted", d_num_inserted, d_num_inserted ? 1u : 0u, sizeof(size_t), "one size_t"}};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  m->last = s;
  if (d_num_inserted) GCOL_CUDA_TRY(cudaMemsetAsync(d_num_inserted, 0, sizeof *d_num_inserted, s));
  if (n == 0) return GCOL_SUCCESS;
  return gcol_from_cuda(with_widths(m, [&](auto kb, auto vb) {
    return mm_ops<decltype(kb)::value, decltype(vb)::value>::insert(
        m->l.num_sms, m->r, d_keys, d_values, n, reinterpret_cast<unsigned long long *>(d_num_inserted), s);
  }));
}

/* count and retrieve record nothing in the multimap (const): see gcol.h on destroy. */
gcol_status_t gcol_multimap_count(const gcol_multimap_t *m, const void *d_keys, size_t n, size_t *d_counts,
                                  size_t *d_total, cudaStream_t s) {
  api_scope r("gcol_multimap_count");
  GCOL_TRY(check_mm(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.map.key_type, m->cfg.map.value_type);
  gcol_dptr_t a[] = {{"d_keys", d_keys, (d_counts || d_total) ? n : 0, (size_t)m->p.kb, w.keys},
                     {"d_counts", d_counts, d_counts ? n : 0, sizeof(size_t), "size_t counts"},
                     {"d_total", d_total, d_total ? 1u : 0u, sizeof(size_t), "one size_t"}};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  if (d_total) GCOL_CUDA_TRY(cudaMemsetAsync(d_total, 0, sizeof *d_total, s));
  if (n == 0 || (!d_counts && !d_total)) return GCOL_SUCCESS;
  mm_query_out o = {};
  o.counts = reinterpret_cast<unsigned long long *>(d_counts);
  o.total = reinterpret_cast<unsigned long long *>(d_total);
  return gcol_from_cuda(with_widths(m, [&](auto kb, auto vb) {
    return mm_ops<decltype(kb)::value, decltype(vb)::value>::query(m->l.num_sms, m->r, d_keys, n, o, false, s);
  }));
}

gcol_status_t gcol_multimap_retrieve(void *d_temp, size_t *temp_bytes, const gcol_multimap_t *m,
                                     const void *d_keys, size_t n, void *d_keys_out, void *d_values_out,
                                     size_t *d_query_out, size_t out_capacity, size_t *d_total, cudaStream_t s) {
  api_scope r("gcol_multimap_retrieve");
  if (!temp_bytes) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "temp_bytes is NULL");
  GCOL_TRY(check_mm(m));
  if (!d_temp) {
    *temp_bytes = RETRIEVE_TEMP_BYTES;
    return GCOL_SUCCESS;
  }
  if (*temp_bytes < RETRIEVE_TEMP_BYTES)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "*temp_bytes %zu is less than the %zu bytes asked for", *temp_bytes,
                     RETRIEVE_TEMP_BYTES);
  gcol_kv_words_t w = gcol_kv_words(m->cfg.map.key_type, m->cfg.map.value_type);
  gcol_dptr_t a[] = {{"d_temp", d_temp, 1, 8, "temp storage"},
                     {"d_keys", d_keys, n, (size_t)m->p.kb, w.keys},
                     {"d_keys_out", d_keys_out, d_keys_out ? out_capacity : 0, (size_t)m->p.kb, w.keys},
                     {"d_values_out", d_values_out, out_capacity, (size_t)m->p.vb, w.values},
                     {"d_query_out", d_query_out, out_capacity, sizeof(size_t), "size_t query indices"},
                     {"d_total", d_total, 1, sizeof(size_t), "one size_t"}};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  unsigned long long *cursor = static_cast<unsigned long long *>(d_temp);
  GCOL_CUDA_TRY(cudaMemsetAsync(cursor, 0, sizeof *cursor, s));
  if (n) {
    mm_query_out o = {};
    o.keys = d_keys_out;
    o.values = d_values_out;
    o.queries = reinterpret_cast<unsigned long long *>(d_query_out);
    o.capacity = out_capacity;
    o.cursor = cursor;
    GCOL_CUDA_TRY(with_widths(m, [&](auto kb, auto vb) {
      return mm_ops<decltype(kb)::value, decltype(vb)::value>::query(m->l.num_sms, m->r, d_keys, n, o, true, s);
    }));
  }
  GCOL_CUDA_TRY(cudaMemcpyAsync(d_total, cursor, sizeof *d_total, cudaMemcpyDeviceToDevice, s));
  return GCOL_SUCCESS;
}

gcol_status_t gcol_multimap_retrieve_all(gcol_multimap_t *m, void *d_keys_out, void *d_values_out,
                                         size_t *h_count_out, cudaStream_t s) {
  api_scope r("gcol_multimap_retrieve_all");
  GCOL_TRY(check_mm(m));
  if (!h_count_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_count_out is NULL");
  gcol_kv_words_t w = gcol_kv_words(m->cfg.map.key_type, m->cfg.map.value_type);
  gcol_dptr_t a[] = {{"d_keys_out", d_keys_out, 1, (size_t)m->p.kb, w.keys},
                     {"d_values_out", d_values_out, 1, (size_t)m->p.vb, w.values}};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  m->last = s;
  GCOL_CUDA_TRY(cudaMemsetAsync(&m->r.t.state->scratch, 0, sizeof m->r.t.state->scratch, s));
  GCOL_CUDA_TRY(with_widths(m, [&](auto kb, auto vb) {
    return map_ops<decltype(kb)::value, decltype(vb)::value>::retrieve(m->l, m->r.t, m->p.table_bytes / 16,
                                                                       d_keys_out, d_values_out, s);
  }));
  map_state h;
  GCOL_TRY(map_state_read(m->r.t.state, &h, s));
  *h_count_out = (size_t)h.scratch;
  return map_state_take_latched(m->r.t.state, &h, s);
}

gcol_status_t gcol_multimap_size(gcol_multimap_t *m, size_t *h_size_out, cudaStream_t s) {
  api_scope r("gcol_multimap_size");
  GCOL_TRY(check_mm(m));
  if (!h_size_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_size_out is NULL");
  m->last = s;
  map_state h;
  GCOL_TRY(map_state_read(m->r.t.state, &h, s));
  *h_size_out = stored(m, &h);
  return map_state_take_latched(m->r.t.state, &h, s);
}

gcol_status_t gcol_multimap_capacity(const gcol_multimap_t *m, size_t *h_capacity_out) {
  api_scope r("gcol_multimap_capacity");
  GCOL_TRY(check_mm(m));
  if (!h_capacity_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_capacity_out is NULL");
  *h_capacity_out = m->p.capacity;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_multimap_status(gcol_multimap_t *m, cudaStream_t s) {
  api_scope r("gcol_multimap_status");
  GCOL_TRY(check_mm(m));
  m->last = s;
  map_state h;
  GCOL_TRY(map_state_read(m->r.t.state, &h, s));
  return map_state_take_latched(m->r.t.state, &h, s);
}

}  // extern "C"
