/* Host API of the hash map: argument checks, then the open-addressing core
 * (oa_host.cu). */
#include <stddef.h>
#include <stdlib.h>
#include "core/api_scope.h"
#include "core/args.h"
#include "core/common.h"
#include "map_object.h"

using gcol::detail::map_state;
using gcol::detail::map_state_read;
using gcol::detail::map_state_take_latched;
using gcol::detail::api_scope;
using gcol::detail::oa_lookup;
using gcol::detail::oa_upsert;

gcol_status_t gcol::detail::map_state_read(const map_state *d, map_state *h, cudaStream_t s) {
  GCOL_CUDA_TRY(cudaMemcpyAsync(h, d, offsetof(map_state, cas_lock), cudaMemcpyDeviceToHost, s)); /* not the locks */
  GCOL_CUDA_TRY(cudaStreamSynchronize(s));
  return GCOL_SUCCESS;
}

gcol_status_t gcol::detail::map_state_take_latched(map_state *d, const map_state *h, cudaStream_t s) {
  if (!h->flags) return GCOL_SUCCESS;
  GCOL_CUDA_TRY(cudaMemsetAsync(&d->flags, 0, sizeof h->flags, s));
  if (h->flags & MAP_FLAG_FULL)
    return gcol_fail(GCOL_ERROR_FULL,
                     "an earlier insert found no free slot for some keys (latched; they were skipped)");
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

}  // namespace

extern "C" {

gcol_status_t gcol_map_create(gcol_map_t **map, const gcol_map_config_t *cfg, cudaStream_t s) {
  api_scope r("gcol_map_create");
  if (!map) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "map (the output handle) is NULL");
  *map = NULL;
  gcol_map_config_t c;
  GCOL_TRY(gcol_map_config_take(cfg, &c));
  gcol_map *m = (gcol_map *)calloc(1, sizeof *m);
  if (!m) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the map object");
  gcol_status_t st = gcol::detail::oa_init(m, GCOL_MAP_MAGIC, c, (int)gcol_type_size(c.value_type), s);
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
  gcol::detail::oa_release(m);
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
                     gcol_count_arg("d_num_inserted", d_num_inserted)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return oa_upsert(m, d_keys, d_values, n, {gcol::detail::UPSERT_INSERT, 0, 0}, NULL, NULL, d_num_inserted, s);
}

gcol_status_t gcol_map_insert_or_assign(gcol_map_t *m, const void *d_keys, const void *d_values, size_t n,
                                        cudaStream_t s) {
  api_scope r("gcol_map_insert_or_assign");
  GCOL_TRY(check_map(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.value_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), values_arg(m, "d_values", d_values, n, w)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return oa_upsert(m, d_keys, d_values, n, {gcol::detail::UPSERT_ASSIGN, 0, 0}, NULL, NULL, NULL, s);
}

gcol_status_t gcol_map_insert_and_find(gcol_map_t *m, const void *d_keys, const void *d_values, size_t n,
                                       void *d_values_out, uint8_t *d_inserted_out, cudaStream_t s) {
  api_scope r("gcol_map_insert_and_find");
  GCOL_TRY(check_map(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.value_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), values_arg(m, "d_values", d_values, n, w),
                     values_arg(m, "d_values_out", d_values_out, n, w),
                     gcol_flags_arg("d_inserted_out", d_inserted_out, d_inserted_out ? n : 0)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return oa_upsert(m, d_keys, d_values, n, {gcol::detail::UPSERT_INSERT, 0, 0}, d_values_out, d_inserted_out,
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
  /* no values with GCOL_OP_ADD: every key adds one (counting) */
  GCOL_TRY(gcol_check_dptrs(a, d_values || op != GCOL_OP_ADD ? GCOL_NARGS(a) : 1));
  return oa_upsert(m, d_keys, d_values, n, {gcol::detail::UPSERT_APPLY, (int)op, (int)m->cfg.value_type}, NULL,
                NULL, NULL, s);
}

gcol_status_t gcol_map_find(const gcol_map_t *m, const void *d_keys, size_t n, void *d_values_out,
                            cudaStream_t s) {
  api_scope r("gcol_map_find");
  GCOL_TRY(check_map(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.value_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), values_arg(m, "d_values_out", d_values_out, n, w)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return oa_lookup(m, d_keys, n, d_values_out, false, s);
}

gcol_status_t gcol_map_contains(const gcol_map_t *m, const void *d_keys, size_t n, uint8_t *d_found_out,
                                cudaStream_t s) {
  api_scope r("gcol_map_contains");
  GCOL_TRY(check_map(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.value_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), gcol_flags_arg("d_found_out", d_found_out, n)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return oa_lookup(m, d_keys, n, d_found_out, true, s);
}

gcol_status_t gcol_map_erase(gcol_map_t *m, const void *d_keys, size_t n, size_t *d_num_erased,
                             cudaStream_t s) {
  api_scope r("gcol_map_erase");
  GCOL_TRY(check_map(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.value_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), gcol_count_arg("d_num_erased", d_num_erased)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::oa_erase(m, d_keys, n, d_num_erased, s);
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
  return gcol::detail::oa_retrieve_all(m, d_keys_out, d_values_out, h_count_out, s);
}

gcol_status_t gcol_map_size(gcol_map_t *m, size_t *h_size_out, cudaStream_t s) {
  api_scope r("gcol_map_size");
  GCOL_TRY(check_map(m));
  if (!h_size_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_size_out is NULL");
  return gcol::detail::oa_size(m, h_size_out, s);
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
  return gcol::detail::oa_clear(m, s);
}

gcol_status_t gcol_map_reserve(gcol_map_t *m, size_t capacity, cudaStream_t s) {
  api_scope r("gcol_map_reserve");
  GCOL_TRY(check_map(m));
  return gcol::detail::oa_reserve(m, capacity, "map", s);
}

gcol_status_t gcol_map_status(gcol_map_t *m, cudaStream_t s) {
  api_scope r("gcol_map_status");
  GCOL_TRY(check_map(m));
  return gcol::detail::oa_status(m, s);
}

}  // extern "C"
