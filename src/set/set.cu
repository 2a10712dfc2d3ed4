/* Host API of the set: argument checks, then the open-addressing core
 * (map/oa_host.cu) with keys only (vb 0). */
#include <stdlib.h>
#include "core/api_scope.h"
#include "core/args.h"
#include "map/map_object.h"
#include "set_internal.h"

using gcol::detail::api_scope;

namespace {

gcol_status_t check_set(const gcol_set *m) {
  return gcol_check_handle(m, m ? m->magic : 0, GCOL_SET_MAGIC, "gcol_set_t");
}

gcol_dptr_t keys_arg(const gcol_set *m, const char *name, const void *p, size_t n, const gcol_kv_words_t &w) {
  return gcol_dptr_t{name, p, n, (size_t)m->kb, w.keys};
}

}  // namespace

extern "C" {

gcol_status_t gcol_set_create(gcol_set_t **set, const gcol_set_config_t *cfg, cudaStream_t s) {
  api_scope r("gcol_set_create");
  if (!set) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "set (the output handle) is NULL");
  *set = NULL;
  gcol_map_config_t c;
  GCOL_TRY(gcol_set_config_take(cfg, &c));
  gcol_set *m = (gcol_set *)calloc(1, sizeof *m);
  if (!m) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the set object");
  gcol_status_t st = gcol::detail::oa_init(m, GCOL_SET_MAGIC, c, 0, s);
  if (st != GCOL_SUCCESS) {
    gcol_set_destroy(m);
    return st;
  }
  *set = m;
  return GCOL_SUCCESS;
}

void gcol_set_destroy(gcol_set_t *m) {
  if (!m || m->magic != GCOL_SET_MAGIC) return;
  api_scope r("gcol_set_destroy");
  gcol::detail::oa_release(m);
  free(m);
}

gcol_status_t gcol_set_insert(gcol_set_t *m, const void *d_keys, size_t n, size_t *d_num_inserted, cudaStream_t s) {
  api_scope r("gcol_set_insert");
  GCOL_TRY(check_set(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.key_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w),
                     gcol_count_arg("d_num_inserted", d_num_inserted)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::oa_upsert(m, d_keys, NULL, n, {gcol::detail::UPSERT_INSERT, 0, 0}, NULL, NULL, d_num_inserted,
                                 s);
}

gcol_status_t gcol_set_insert_and_contains(gcol_set_t *m, const void *d_keys, size_t n, uint8_t *d_inserted_out,
                                           cudaStream_t s) {
  api_scope r("gcol_set_insert_and_contains");
  GCOL_TRY(check_set(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.key_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), gcol_flags_arg("d_inserted_out", d_inserted_out, n)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::oa_upsert(m, d_keys, NULL, n, {gcol::detail::UPSERT_INSERT, 0, 0}, NULL, d_inserted_out, NULL,
                                 s);
}

gcol_status_t gcol_set_contains(const gcol_set_t *m, const void *d_keys, size_t n, uint8_t *d_found_out,
                                cudaStream_t s) {
  api_scope r("gcol_set_contains");
  GCOL_TRY(check_set(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.key_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), gcol_flags_arg("d_found_out", d_found_out, n)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::oa_lookup(m, d_keys, n, d_found_out, true, s);
}

gcol_status_t gcol_set_erase(gcol_set_t *m, const void *d_keys, size_t n, size_t *d_num_erased, cudaStream_t s) {
  api_scope r("gcol_set_erase");
  GCOL_TRY(check_set(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.key_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w),
                     gcol_count_arg("d_num_erased", d_num_erased)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::oa_erase(m, d_keys, n, d_num_erased, s);
}

gcol_status_t gcol_set_retrieve_all(gcol_set_t *m, void *d_keys_out, size_t *h_count_out, cudaStream_t s) {
  api_scope r("gcol_set_retrieve_all");
  GCOL_TRY(check_set(m));
  if (!h_count_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_count_out is NULL");
  gcol_kv_words_t w = gcol_kv_words(m->cfg.key_type, m->cfg.key_type);
  /* how many keys are written is known only on the device: the first
     element is what can be checked */
  gcol_dptr_t a[] = {keys_arg(m, "d_keys_out", d_keys_out, 1, w)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::oa_retrieve_all(m, d_keys_out, NULL, h_count_out, s);
}

gcol_status_t gcol_set_size(gcol_set_t *m, size_t *h_size_out, cudaStream_t s) {
  api_scope r("gcol_set_size");
  GCOL_TRY(check_set(m));
  if (!h_size_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_size_out is NULL");
  return gcol::detail::oa_size(m, h_size_out, s);
}

gcol_status_t gcol_set_capacity(const gcol_set_t *m, size_t *h_capacity_out) {
  api_scope r("gcol_set_capacity");
  GCOL_TRY(check_set(m));
  if (!h_capacity_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_capacity_out is NULL");
  *h_capacity_out = m->num_slots;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_set_clear(gcol_set_t *m, cudaStream_t s) {
  api_scope r("gcol_set_clear");
  GCOL_TRY(check_set(m));
  return gcol::detail::oa_clear(m, s);
}

gcol_status_t gcol_set_reserve(gcol_set_t *m, size_t capacity, cudaStream_t s) {
  api_scope r("gcol_set_reserve");
  GCOL_TRY(check_set(m));
  return gcol::detail::oa_reserve(m, capacity, "set", s);
}

gcol_status_t gcol_set_status(gcol_set_t *m, cudaStream_t s) {
  api_scope r("gcol_set_status");
  GCOL_TRY(check_set(m));
  return gcol::detail::oa_status(m, s);
}

gcol_status_t gcol_set_device_view(const gcol_set_t *m, gcol_set_view_t *v) {
  api_scope r("gcol_set_device_view");
  GCOL_TRY(check_set(m));
  if (!v) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "view_out is NULL");
  *v = gcol_set_view_t{m->t.slots, m->t.state, m->t.empty_key, m->t.erased_key, m->t.seed, m->t.capacity,
                       m->t.num_buckets, m->l.tile, (int32_t)m->cfg.key_type};
  return GCOL_SUCCESS;
}

gcol_status_t gcol_set_device_mutable_view(gcol_set_t *m, gcol_set_mutable_view_t *v) {
  api_scope r("gcol_set_device_mutable_view");
  GCOL_TRY(check_set(m));
  if (!v) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "view_out is NULL");
  GCOL_TRY(gcol_set_device_view(m, &v->view));
  m->device_writes = 1;
  m->may_have_tombstones = 1; /* kernels may erase */
  return GCOL_SUCCESS;
}

}  // extern "C"
