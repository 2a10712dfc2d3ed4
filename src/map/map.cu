/* Host API of the hash map: argument checks, state, and kernel dispatch. */
#include <stdlib.h>
#include "core/api_scope.h"
#include "core/args.h"
#include "core/common.h"
#include "map_object.h"
#include "map_policy.h"

using gcol::detail::map_state;
using gcol::detail::map_state_read;
using gcol::detail::map_state_take_latched;
using gcol::detail::api_scope;
using gcol::detail::upsert_args;
using gcol::detail::with_ops;

static_assert(sizeof(size_t) == sizeof(unsigned long long), "device counters are written as size_t");

gcol_status_t gcol::detail::map_state_read(const map_state *d, map_state *h, cudaStream_t s) {
  GCOL_CUDA_TRY(cudaMemcpyAsync(h, d, sizeof *h, cudaMemcpyDeviceToHost, s));
  GCOL_CUDA_TRY(cudaStreamSynchronize(s));
  return GCOL_SUCCESS;
}

gcol_status_t gcol::detail::map_state_take_latched(map_state *d, const map_state *h, cudaStream_t s) {
  if (!h->flags) return GCOL_SUCCESS;
  GCOL_CUDA_TRY(cudaMemsetAsync(&d->flags, 0, sizeof h->flags, s));
  if (h->flags & MAP_FLAG_FULL)
    return gcol_fail(GCOL_ERROR_FULL, "an earlier insert found no free slot for some keys (latched; they were skipped)");
  return gcol_fail(GCOL_ERROR_RESERVED_KEY,
                   "an earlier call's input held a sentinel key (empty_key or erased_key; latched, skipped)");
}

namespace {

gcol_status_t check_map(const gcol_map *m) {
  return gcol_check_handle(m, m ? m->magic : 0, GCOL_MAP_MAGIC, "gcol_map_t");
}

gcol_dptr_t keys_arg(const gcol_map *m, const char *name, const void *p, size_t n, const gcol_kv_words_t &w) {
  return gcol_dptr_t{name, p, n, (size_t)m->kb, w.keys};
}
gcol_dptr_t values_arg(const gcol_map *m, const char *name, const void *p, size_t n, const gcol_kv_words_t &w) {
  return gcol_dptr_t{name, p, n, (size_t)m->vb, w.values};
}
gcol_dptr_t count_arg(const char *name, const size_t *p) {
  return gcol_dptr_t{name, p, p ? 1u : 0u, sizeof(size_t), "one size_t"};
}
gcol_dptr_t flags_arg(const char *name, const uint8_t *p, size_t n) {
  return gcol_dptr_t{name, p, n, 1, "uint8_t flags"};
}

size_t chunk_count(const gcol_map *m) { return (size_t)m->t.num_buckets * m->l.tile; }

}  // namespace

gcol_status_t gcol::detail::map_reset_table(gcol_map *m, cudaStream_t s) {
  uint32_t nb = gcol::detail::table_buckets(m, m->cfg.capacity);
  if (nb == 0) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "capacity %zu needs more than 2^31 buckets", m->cfg.capacity);
  gcol::detail::table_t nt;
  GCOL_TRY(gcol::detail::table_create(m, nb, true, s, &nt));
  GCOL_TRY(gcol::detail::table_install(m, nt, s));
  m->used_bound = 0;
  m->may_have_tombstones = 0;
  m->device_writes = 0; /* views of the old table are void */
  GCOL_CUDA_TRY(cudaMemsetAsync(m->t.state, 0, sizeof(map_state), s));
  return GCOL_SUCCESS;
}

namespace {

gcol_status_t upsert(gcol_map_t *m, const void *keys, const void *values, size_t n, upsert_args a,
                     void *values_out, uint8_t *inserted_out, size_t *d_count, cudaStream_t s) {
  m->last = s;
  if (d_count) GCOL_CUDA_TRY(cudaMemsetAsync(d_count, 0, sizeof *d_count, s));
  if (n == 0) return GCOL_SUCCESS;
  GCOL_TRY(gcol::detail::map_make_room(m, n, s));
  return gcol_from_cuda(with_ops(m, [&](auto ops) {
    return ops.upsert(m->l, m->t, keys, values, n, a, values_out, inserted_out,
                      reinterpret_cast<unsigned long long *>(d_count), s);
  }));
}

}  // namespace

extern "C" {

gcol_status_t gcol_map_create(gcol_map_t **map, const gcol_map_config_t *cfg, cudaStream_t s) {
  api_scope r("gcol_map_create");
  if (!map) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "map (the output handle) is NULL");
  *map = NULL;
  gcol_map_config_t c;
  GCOL_TRY(gcol_map_config_take(cfg, &c));
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  gcol_map_policy_t p = gcol_map_policy_for(dev.cc_major);

  gcol_map *m = (gcol_map *)calloc(1, sizeof *m);
  if (!m) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the map object");
  m->magic = GCOL_MAP_MAGIC;
  m->cfg = c;
  m->kb = (int)gcol_type_size(c.key_type);
  m->vb = (int)gcol_type_size(c.value_type);
  m->t = gcol::detail::table_ref_for(c, p.key_cas);
  m->l.tile = (m->kb == 4 && m->vb == 4) ? p.tile8 : p.tile16;
  m->l.block_threads = p.block_threads;
  m->l.num_sms = dev.num_sms;
  m->last = s;

  void *state = NULL;
  gcol_status_t st = gcol::detail::map_alloc(m, &state, sizeof(map_state), s);
  m->t.state = (map_state *)state;
  if (st == GCOL_SUCCESS) st = gcol::detail::map_reset_table(m, s);
  if (st != GCOL_SUCCESS) {
    gcol_map_destroy(m);
    return st;
  }
  *map = m;
  return GCOL_SUCCESS;
}

void gcol_map_destroy(gcol_map_t *m) {
  if (!m || m->magic != GCOL_MAP_MAGIC) return;
  api_scope r("gcol_map_destroy");
  m->magic = 0;
  /* nothing to report to: a failed free leaks */
  (void)gcol::detail::map_free(m, m->t.slots, m->table_bytes, m->last);
  (void)gcol::detail::map_free(m, m->t.state, sizeof(map_state), m->last);
  free(m);
}

gcol_status_t gcol_map_device_view(const gcol_map_t *m, gcol_map_view_t *v) {
  api_scope r("gcol_map_device_view");
  GCOL_TRY(check_map(m));
  if (!v) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "view_out is NULL");
  *v = gcol_map_view_t{m->t.slots, m->t.state, m->t.empty_key, m->t.erased_key, m->t.empty_value, m->t.seed,
                       m->t.capacity, m->t.num_buckets, m->l.tile, m->t.key_cas, (int32_t)m->cfg.key_type,
                       (int32_t)m->cfg.value_type};
  return GCOL_SUCCESS;
}

gcol_status_t gcol_map_device_mutable_view(gcol_map_t *m, gcol_map_mutable_view_t *v) {
  api_scope r("gcol_map_device_mutable_view");
  GCOL_TRY(check_map(m));
  if (!v) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "view_out is NULL");
  GCOL_TRY(gcol_map_device_view(m, &v->view));
  m->device_writes = 1;
  m->may_have_tombstones = 1; /* kernels may erase */
  return GCOL_SUCCESS;
}

gcol_status_t gcol_map_insert(gcol_map_t *m, const void *d_keys, const void *d_values, size_t n,
                              size_t *d_num_inserted, cudaStream_t s) {
  api_scope r("gcol_map_insert");
  GCOL_TRY(check_map(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.value_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), values_arg(m, "d_values", d_values, n, w),
                     count_arg("d_num_inserted", d_num_inserted)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return upsert(m, d_keys, d_values, n, {gcol::detail::UPSERT_INSERT, 0, 0}, NULL, NULL, d_num_inserted, s);
}

gcol_status_t gcol_map_insert_or_assign(gcol_map_t *m, const void *d_keys, const void *d_values, size_t n,
                                        cudaStream_t s) {
  api_scope r("gcol_map_insert_or_assign");
  GCOL_TRY(check_map(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.value_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), values_arg(m, "d_values", d_values, n, w)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return upsert(m, d_keys, d_values, n, {gcol::detail::UPSERT_ASSIGN, 0, 0}, NULL, NULL, NULL, s);
}

gcol_status_t gcol_map_insert_and_find(gcol_map_t *m, const void *d_keys, const void *d_values, size_t n,
                                       void *d_values_out, uint8_t *d_inserted_out, cudaStream_t s) {
  api_scope r("gcol_map_insert_and_find");
  GCOL_TRY(check_map(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.value_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), values_arg(m, "d_values", d_values, n, w),
                     values_arg(m, "d_values_out", d_values_out, n, w),
                     flags_arg("d_inserted_out", d_inserted_out, d_inserted_out ? n : 0)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return upsert(m, d_keys, d_values, n, {gcol::detail::UPSERT_INSERT, 0, 0}, d_values_out, d_inserted_out,
                NULL, s);
}

gcol_status_t gcol_map_insert_or_apply(gcol_map_t *m, const void *d_keys, const void *d_values, size_t n,
                                       gcol_op_t op, cudaStream_t s) {
  api_scope r("gcol_map_insert_or_apply");
  GCOL_TRY(check_map(m));
  if (op != GCOL_OP_ADD && op != GCOL_OP_MIN && op != GCOL_OP_MAX)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "op %d is not GCOL_OP_ADD, GCOL_OP_MIN or GCOL_OP_MAX", (int)op);
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.value_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), values_arg(m, "d_values", d_values, n, w)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return upsert(m, d_keys, d_values, n, {gcol::detail::UPSERT_APPLY, (int)op, (int)m->cfg.value_type}, NULL,
                NULL, NULL, s);
}

/* Lookups record nothing in the map (const): see gcol_map_destroy. */
static gcol_status_t lookup(const gcol_map_t *m, const void *keys, size_t n, void *out, bool contains,
                            cudaStream_t s) {
  if (n == 0) return GCOL_SUCCESS;
  return gcol_from_cuda(with_ops(m, [&](auto ops) { return ops.find(m->l, m->t, keys, n, out, contains, s); }));
}

gcol_status_t gcol_map_find(const gcol_map_t *m, const void *d_keys, size_t n, void *d_values_out,
                            cudaStream_t s) {
  api_scope r("gcol_map_find");
  GCOL_TRY(check_map(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.value_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), values_arg(m, "d_values_out", d_values_out, n, w)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return lookup(m, d_keys, n, d_values_out, false, s);
}

gcol_status_t gcol_map_contains(const gcol_map_t *m, const void *d_keys, size_t n, uint8_t *d_found_out,
                                cudaStream_t s) {
  api_scope r("gcol_map_contains");
  GCOL_TRY(check_map(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.value_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), flags_arg("d_found_out", d_found_out, n)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return lookup(m, d_keys, n, d_found_out, true, s);
}

gcol_status_t gcol_map_erase(gcol_map_t *m, const void *d_keys, size_t n, size_t *d_num_erased,
                             cudaStream_t s) {
  api_scope r("gcol_map_erase");
  GCOL_TRY(check_map(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.value_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), count_arg("d_num_erased", d_num_erased)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  m->last = s;
  if (d_num_erased) GCOL_CUDA_TRY(cudaMemsetAsync(d_num_erased, 0, sizeof *d_num_erased, s));
  if (n == 0) return GCOL_SUCCESS;
  m->may_have_tombstones = 1;
  return gcol_from_cuda(with_ops(m, [&](auto ops) {
    return ops.erase(m->l, m->t, d_keys, n, reinterpret_cast<unsigned long long *>(d_num_erased), s);
  }));
}

gcol_status_t gcol_map_retrieve_all(gcol_map_t *m, void *d_keys_out, void *d_values_out, size_t *h_count_out,
                                    cudaStream_t s) {
  api_scope r("gcol_map_retrieve_all");
  GCOL_TRY(check_map(m));
  if (!h_count_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_count_out is NULL");
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.value_type);
  /* how many pairs are written is known only on the device: the first
     element of each output is what can be checked */
  gcol_dptr_t a[] = {keys_arg(m, "d_keys_out", d_keys_out, 1, w), values_arg(m, "d_values_out", d_values_out, 1, w)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  m->last = s;
  GCOL_CUDA_TRY(cudaMemsetAsync(&m->t.state->scratch, 0, sizeof m->t.state->scratch, s));
  GCOL_CUDA_TRY(with_ops(m, [&](auto ops) {
    return ops.retrieve(m->l, m->t, chunk_count(m), d_keys_out, d_values_out, s);
  }));
  map_state h;
  GCOL_TRY(map_state_read(m->t.state, &h, s));
  *h_count_out = (size_t)h.scratch;
  return map_state_take_latched(m->t.state, &h, s);
}

gcol_status_t gcol_map_size(gcol_map_t *m, size_t *h_size_out, cudaStream_t s) {
  api_scope r("gcol_map_size");
  GCOL_TRY(check_map(m));
  if (!h_size_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_size_out is NULL");
  m->last = s;
  map_state h;
  GCOL_TRY(map_state_read(m->t.state, &h, s));
  *h_size_out = (size_t)gcol::detail::live_keys(&h);
  return map_state_take_latched(m->t.state, &h, s);
}

gcol_status_t gcol_map_capacity(const gcol_map_t *m, size_t *h_capacity_out) {
  api_scope r("gcol_map_capacity");
  GCOL_TRY(check_map(m));
  if (!h_capacity_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_capacity_out is NULL");
  *h_capacity_out = m->num_slots;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_map_clear(gcol_map_t *m, cudaStream_t s) {
  api_scope r("gcol_map_clear");
  GCOL_TRY(check_map(m));
  m->last = s;
  m->used_bound = 0;
  m->may_have_tombstones = 0;
  GCOL_CUDA_TRY(cudaMemsetAsync(m->t.state, 0, sizeof(map_state), s));
  return gcol_from_cuda(with_ops(m, [&](auto ops) { return ops.fill(m->l, m->t, m->num_slots, s); }));
}

gcol_status_t gcol_map_reserve(gcol_map_t *m, size_t capacity, cudaStream_t s) {
  api_scope r("gcol_map_reserve");
  GCOL_TRY(check_map(m));
  if (!m->cfg.growable) {
    if (capacity <= m->num_slots) return GCOL_SUCCESS;
    return gcol_fail(GCOL_ERROR_FULL, "capacity %zu is more than this fixed map's %zu slots", capacity, m->num_slots);
  }
  m->last = s;
  return gcol::detail::map_reserve_growable(m, capacity, s);
}

gcol_status_t gcol_map_status(gcol_map_t *m, cudaStream_t s) {
  api_scope r("gcol_map_status");
  GCOL_TRY(check_map(m));
  m->last = s;
  map_state h;
  GCOL_TRY(map_state_read(m->t.state, &h, s));
  return map_state_take_latched(m->t.state, &h, s);
}

}  // extern "C"
