/* Host API of the multiset: argument checks, then the multimap core
 * (multimap/mm_host.cu) with the open engine and keys only (vb 0). */
#include "core/api_scope.h"
#include "core/args.h"
#include "map/map_policy.h"
#include "multimap/mm_object.h"
#include "set_internal.h"

using gcol::detail::api_scope;
using gcol::detail::oa_open;
using gcol::detail::MM_RETRIEVE_TEMP_BYTES;

/* contains runs the open-addressing core's find kernels on the multiset's
 * table, whose buckets are GCOL_MULTISET_TILE chunks (mm_plan.c,
 * mm_engines.cuh): their own instance for that tile
 * (oa_ops::multiset_contains, src/map/dispatch_oa.cuh), not the set's. */

namespace {

const gcol_oa_kind_t kMultiset = {"gcol_multiset_t", GCOL_MULTISET_MAGIC, "multiset"};

}  // namespace

extern "C" {

gcol_status_t gcol_multiset_create(gcol_multiset_t **ms, const gcol_set_config_t *cfg, cudaStream_t s) {
  api_scope r("gcol_multiset_create");
  GCOL_TRY(gcol::detail::oa_create_begin(ms, "ms"));
  gcol_multimap_config_t c = gcol_multimap_config_default(GCOL_U64, GCOL_U64, GCOL_MULTIMAP_OPEN);
  GCOL_TRY(gcol_set_config_take(cfg, &c.map));
  if (c.map.growable) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "cfg->growable: growable multisets are not built");
  gcol_mm_plan_t p;
  GCOL_TRY(gcol_mm_plan(&c, 1, &p));
  return gcol::detail::oa_create_end(
      ms, kMultiset, [&](gcol_multiset *m) { return gcol::detail::mm_init(m, GCOL_MULTISET_MAGIC, c, p, s); });
}

void gcol_multiset_destroy(gcol_multiset_t *m) {
  gcol::detail::oa_shell_destroy("gcol_multiset_destroy", m, kMultiset);
}

gcol_status_t gcol_multiset_insert(gcol_multiset_t *m, const void *d_keys, size_t n, size_t *d_num_inserted,
                                   cudaStream_t s) {
  api_scope r("gcol_multiset_insert");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMultiset, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n), gcol_count_arg("d_num_inserted", d_num_inserted)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_insert(m, d_keys, NULL, n, d_num_inserted, s);
}

gcol_status_t gcol_multiset_count(const gcol_multiset_t *m, const void *d_keys, size_t n, size_t *d_counts,
                                  size_t *d_total, cudaStream_t s) {
  api_scope r("gcol_multiset_count");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMultiset, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, (d_counts || d_total) ? n : 0),
                     {"d_counts", d_counts, d_counts ? n : 0, sizeof(size_t), "size_t counts"},
                     gcol_count_arg("d_total", d_total)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_count(m, d_keys, n, d_counts, d_total, s);
}

gcol_status_t gcol_multiset_contains(const gcol_multiset_t *m, const void *d_keys, size_t n, uint8_t *d_found_out,
                                     cudaStream_t s) {
  api_scope r("gcol_multiset_contains");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMultiset, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n), gcol_flags_arg("d_found_out", d_found_out, n)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_contains(m, d_keys, n, d_found_out, s);
}

gcol_status_t gcol_multiset_retrieve(void *d_temp, size_t *temp_bytes, const gcol_multiset_t *m, const void *d_keys,
                                     size_t n, void *d_keys_out, size_t *d_query_out, size_t out_capacity,
                                     size_t *d_total, cudaStream_t s) {
  api_scope r("gcol_multiset_retrieve");
  if (!temp_bytes) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "temp_bytes is NULL");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMultiset, &sh));
  if (!d_temp) {
    *temp_bytes = MM_RETRIEVE_TEMP_BYTES;
    return GCOL_SUCCESS;
  }
  if (*temp_bytes < MM_RETRIEVE_TEMP_BYTES)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "*temp_bytes %zu is less than the %zu bytes asked for", *temp_bytes,
                     MM_RETRIEVE_TEMP_BYTES);
  gcol_dptr_t a[] = {{"d_temp", d_temp, 1, 8, "temp storage"},
                     gcol_oa_keys(&sh, "d_keys", d_keys, n),
                     gcol_oa_keys(&sh, "d_keys_out", d_keys_out, d_keys_out ? out_capacity : 0),
                     {"d_query_out", d_query_out, out_capacity, sizeof(size_t), "size_t query indices"},
                     {"d_total", d_total, 1, sizeof(size_t), "one size_t"}};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_retrieve(d_temp, m, d_keys, n, d_keys_out, NULL, d_query_out, out_capacity, d_total, s);
}

gcol_status_t gcol_multiset_retrieve_all(gcol_multiset_t *m, void *d_keys_out, size_t *h_count_out, cudaStream_t s) {
  return gcol::detail::oa_shell_retrieve_all("gcol_multiset_retrieve_all", m, kMultiset, d_keys_out, NULL, h_count_out,
                                             s);
}

gcol_status_t gcol_multiset_size(gcol_multiset_t *m, size_t *h_size_out, cudaStream_t s) {
  return gcol::detail::oa_shell_size("gcol_multiset_size", m, kMultiset, h_size_out, s);
}

gcol_status_t gcol_multiset_capacity(const gcol_multiset_t *m, size_t *h_capacity_out) {
  return gcol::detail::oa_shell_capacity("gcol_multiset_capacity", m, kMultiset, h_capacity_out);
}

gcol_status_t gcol_multiset_clear(gcol_multiset_t *m, cudaStream_t s) {
  return gcol::detail::oa_shell_clear("gcol_multiset_clear", m, kMultiset, s);
}

gcol_status_t gcol_multiset_status(gcol_multiset_t *m, cudaStream_t s) {
  return gcol::detail::oa_shell_status("gcol_multiset_status", m, kMultiset, s);
}

}  // extern "C"
