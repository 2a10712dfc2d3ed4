/* Host API of the multiset: argument checks, then the multimap core
 * (multimap/mm_host.cu) with the open engine and keys only (vb 0). */
#include <stdlib.h>
#include "core/api_scope.h"
#include "core/args.h"
#include "map/map_policy.h"
#include "multimap/mm_object.h"
#include "set_internal.h"

using gcol::detail::api_scope;
using gcol::detail::MM_RETRIEVE_TEMP_BYTES;

/* contains runs the open-addressing core's find kernels on the multiset's
 * table, whose buckets are GCOL_MULTISET_TILE chunks (mm_plan.c,
 * mm_engines.cuh): their own instance for that tile
 * (oa_ops::multiset_contains, src/map/dispatch_oa.cuh), not the set's. */

namespace {

gcol_status_t check_ms(const gcol_multiset *m) {
  return gcol_check_handle(m, m ? m->magic : 0, GCOL_MULTISET_MAGIC, "gcol_multiset_t");
}

gcol_dptr_t keys_arg(const gcol_multiset *m, const char *name, const void *p, size_t n, const gcol_kv_words_t &w) {
  return gcol_dptr_t{name, p, n, (size_t)m->p.kb, w.keys};
}

}  // namespace

extern "C" {

gcol_status_t gcol_multiset_create(gcol_multiset_t **ms, const gcol_set_config_t *cfg, cudaStream_t s) {
  api_scope r("gcol_multiset_create");
  if (!ms) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "ms (the output handle) is NULL");
  *ms = NULL;
  gcol_multimap_config_t c = gcol_multimap_config_default(GCOL_U64, GCOL_U64, GCOL_MULTIMAP_OPEN);
  GCOL_TRY(gcol_set_config_take(cfg, &c.map));
  if (c.map.growable) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "cfg->growable: growable multisets are not built");
  gcol_mm_plan_t p;
  GCOL_TRY(gcol_mm_plan(&c, 1, &p));
  gcol_multiset *m = (gcol_multiset *)calloc(1, sizeof *m);
  if (!m) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the multiset object");
  gcol_status_t st = gcol::detail::mm_init(m, GCOL_MULTISET_MAGIC, c, p, s);
  if (st != GCOL_SUCCESS) {
    gcol_multiset_destroy(m);
    return st;
  }
  *ms = m;
  return GCOL_SUCCESS;
}

void gcol_multiset_destroy(gcol_multiset_t *m) {
  if (!m || m->magic != GCOL_MULTISET_MAGIC) return;
  api_scope r("gcol_multiset_destroy");
  gcol::detail::mm_release(m);
  free(m);
}

gcol_status_t gcol_multiset_insert(gcol_multiset_t *m, const void *d_keys, size_t n, size_t *d_num_inserted,
                                   cudaStream_t s) {
  api_scope r("gcol_multiset_insert");
  GCOL_TRY(check_ms(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.map.key_type, m->cfg.map.key_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), gcol_count_arg("d_num_inserted", d_num_inserted)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_insert(m, d_keys, NULL, n, d_num_inserted, s);
}

gcol_status_t gcol_multiset_count(const gcol_multiset_t *m, const void *d_keys, size_t n, size_t *d_counts,
                                  size_t *d_total, cudaStream_t s) {
  api_scope r("gcol_multiset_count");
  GCOL_TRY(check_ms(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.map.key_type, m->cfg.map.key_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, (d_counts || d_total) ? n : 0, w),
                     {"d_counts", d_counts, d_counts ? n : 0, sizeof(size_t), "size_t counts"},
                     gcol_count_arg("d_total", d_total)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_count(m, d_keys, n, d_counts, d_total, s);
}

gcol_status_t gcol_multiset_contains(const gcol_multiset_t *m, const void *d_keys, size_t n, uint8_t *d_found_out,
                                     cudaStream_t s) {
  api_scope r("gcol_multiset_contains");
  GCOL_TRY(check_ms(m));
  gcol_kv_words_t w = gcol_kv_words(m->cfg.map.key_type, m->cfg.map.key_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys", d_keys, n, w), gcol_flags_arg("d_found_out", d_found_out, n)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_contains(m, d_keys, n, d_found_out, s);
}

gcol_status_t gcol_multiset_retrieve(void *d_temp, size_t *temp_bytes, const gcol_multiset_t *m, const void *d_keys,
                                     size_t n, void *d_keys_out, size_t *d_query_out, size_t out_capacity,
                                     size_t *d_total, cudaStream_t s) {
  api_scope r("gcol_multiset_retrieve");
  if (!temp_bytes) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "temp_bytes is NULL");
  GCOL_TRY(check_ms(m));
  if (!d_temp) {
    *temp_bytes = MM_RETRIEVE_TEMP_BYTES;
    return GCOL_SUCCESS;
  }
  if (*temp_bytes < MM_RETRIEVE_TEMP_BYTES)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "*temp_bytes %zu is less than the %zu bytes asked for", *temp_bytes,
                     MM_RETRIEVE_TEMP_BYTES);
  gcol_kv_words_t w = gcol_kv_words(m->cfg.map.key_type, m->cfg.map.key_type);
  gcol_dptr_t a[] = {{"d_temp", d_temp, 1, 8, "temp storage"},
                     keys_arg(m, "d_keys", d_keys, n, w),
                     keys_arg(m, "d_keys_out", d_keys_out, d_keys_out ? out_capacity : 0, w),
                     {"d_query_out", d_query_out, out_capacity, sizeof(size_t), "size_t query indices"},
                     {"d_total", d_total, 1, sizeof(size_t), "one size_t"}};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_retrieve(d_temp, m, d_keys, n, d_keys_out, NULL, d_query_out, out_capacity, d_total, s);
}

gcol_status_t gcol_multiset_retrieve_all(gcol_multiset_t *m, void *d_keys_out, size_t *h_count_out, cudaStream_t s) {
  api_scope r("gcol_multiset_retrieve_all");
  GCOL_TRY(check_ms(m));
  if (!h_count_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_count_out is NULL");
  gcol_kv_words_t w = gcol_kv_words(m->cfg.map.key_type, m->cfg.map.key_type);
  gcol_dptr_t a[] = {keys_arg(m, "d_keys_out", d_keys_out, 1, w)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_retrieve_all(m, d_keys_out, NULL, h_count_out, s);
}

gcol_status_t gcol_multiset_size(gcol_multiset_t *m, size_t *h_size_out, cudaStream_t s) {
  api_scope r("gcol_multiset_size");
  GCOL_TRY(check_ms(m));
  if (!h_size_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_size_out is NULL");
  return gcol::detail::mm_size(m, h_size_out, s);
}

gcol_status_t gcol_multiset_capacity(const gcol_multiset_t *m, size_t *h_capacity_out) {
  api_scope r("gcol_multiset_capacity");
  GCOL_TRY(check_ms(m));
  if (!h_capacity_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_capacity_out is NULL");
  *h_capacity_out = m->p.capacity;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_multiset_clear(gcol_multiset_t *m, cudaStream_t s) {
  api_scope r("gcol_multiset_clear");
  GCOL_TRY(check_ms(m));
  return gcol::detail::mm_clear(m, s);
}

gcol_status_t gcol_multiset_status(gcol_multiset_t *m, cudaStream_t s) {
  api_scope r("gcol_multiset_status");
  GCOL_TRY(check_ms(m));
  return gcol::detail::mm_status(m, s);
}

}  // extern "C"
