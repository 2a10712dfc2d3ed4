/* Host API of the multimap: argument checks, then the multimap core
 * (mm_host.cu). */
#include <stdlib.h>
#include "core/api_scope.h"
#include "core/args.h"
#include "mm_object.h"

using gcol::detail::api_scope;
using gcol::detail::MM_RETRIEVE_TEMP_BYTES;

namespace {

gcol_status_t check_mm(const gcol_multimap *m) {
  return gcol_check_handle(m, m ? m->magic : 0, GCOL_MULTIMAP_MAGIC, "gcol_multimap_t");
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
  GCOL_TRY(gcol_mm_plan(&c, 0, &p));
  gcol_multimap *m = (gcol_multimap *)calloc(1, sizeof *m);
  if (!m) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the multimap object");
  gcol_status_t st = gcol::detail::mm_init(m, GCOL_MULTIMAP_MAGIC, c, p, s);
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
  gcol::detail::mm_release(m);
  free(m);
}

gcol_status_t gcol_multimap_clear(gcol_multimap_t *m, cudaStream_t s) {
  api_scope r("gcol_multimap_clear");
  GCOL_TRY(check_mm(m));
  return gcol::detail::mm_clear(m, s);
}

gcol_status_t gcol_multimap_insert(gcol_multimap_t *m, const void *d_keys, const void *d_values, size_t n,
                                   size_t *d_num_inserted, cudaStream_t s) {
  api_scope r("gcol_multimap_insert");
  GCOL_TRY(check_mm(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.map.key_type, m->cfg.map.value_type);
  gcol_dptr_t a[] = {{"d_keys", d_keys, n, (size_t)m->p.kb, w.keys},
                     {"d_values", d_values, n, (size_t)m->p.vb, w.values},
                     gcol_count_arg("d_num_inserted", d_num_inserted)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_insert(m, d_keys, d_values, n, d_num_inserted, s);
}

/* count and retrieve record nothing in the multimap (const): see gcol.h on destroy. */
gcol_status_t gcol_multimap_count(const gcol_multimap_t *m, const void *d_keys, size_t n, size_t *d_counts,
                                  size_t *d_total, cudaStream_t s) {
  api_scope r("gcol_multimap_count");
  GCOL_TRY(check_mm(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.map.key_type, m->cfg.map.value_type);
  gcol_dptr_t a[] = {{"d_keys", d_keys, (d_counts || d_total) ? n : 0, (size_t)m->p.kb, w.keys},
                     {"d_counts", d_counts, d_counts ? n : 0, sizeof(size_t), "size_t counts"},
                     gcol_count_arg("d_total", d_total)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_count(m, d_keys, n, d_counts, d_total, s);
}

gcol_status_t gcol_multimap_retrieve(void *d_temp, size_t *temp_bytes, const gcol_multimap_t *m,
                                     const void *d_keys, size_t n, void *d_keys_out, void *d_values_out,
                                     size_t *d_query_out, size_t out_capacity, size_t *d_total, cudaStream_t s) {
  api_scope r("gcol_multimap_retrieve");
  if (!temp_bytes) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "temp_bytes is NULL");
  GCOL_TRY(check_mm(m));
  if (!d_temp) {
    *temp_bytes = MM_RETRIEVE_TEMP_BYTES;
    return GCOL_SUCCESS;
  }
  if (*temp_bytes < MM_RETRIEVE_TEMP_BYTES)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "*temp_bytes %zu is less than the %zu bytes asked for", *temp_bytes,
                     MM_RETRIEVE_TEMP_BYTES);
  gcol_kv_words_t w = gcol_kv_words(m->cfg.map.key_type, m->cfg.map.value_type);
  gcol_dptr_t a[] = {{"d_temp", d_temp, 1, 8, "temp storage"},
                     {"d_keys", d_keys, n, (size_t)m->p.kb, w.keys},
                     {"d_keys_out", d_keys_out, d_keys_out ? out_capacity : 0, (size_t)m->p.kb, w.keys},
                     {"d_values_out", d_values_out, out_capacity, (size_t)m->p.vb, w.values},
                     {"d_query_out", d_query_out, out_capacity, sizeof(size_t), "size_t query indices"},
                     {"d_total", d_total, 1, sizeof(size_t), "one size_t"}};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_retrieve(d_temp, m, d_keys, n, d_keys_out, d_values_out, d_query_out, out_capacity, d_total,
                                   s);
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
  return gcol::detail::mm_retrieve_all(m, d_keys_out, d_values_out, h_count_out, s);
}

gcol_status_t gcol_multimap_size(gcol_multimap_t *m, size_t *h_size_out, cudaStream_t s) {
  api_scope r("gcol_multimap_size");
  GCOL_TRY(check_mm(m));
  if (!h_size_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_size_out is NULL");
  return gcol::detail::mm_size(m, h_size_out, s);
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
  return gcol::detail::mm_status(m, s);
}

}  // extern "C"
