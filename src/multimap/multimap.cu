/* Host API of the multimap: argument checks, then the multimap core
 * (mm_host.cu). */
#include "core/api_scope.h"
#include "core/args.h"
#include "mm_object.h"

using gcol::detail::api_scope;
using gcol::detail::oa_open;
using gcol::detail::MM_RETRIEVE_TEMP_BYTES;

namespace {

const gcol_oa_kind_t kMultimap = {"gcol_multimap_t", GCOL_MULTIMAP_MAGIC, "multimap"};

}  // namespace

extern "C" {

gcol_status_t gcol_multimap_create(gcol_multimap_t **mm, const gcol_multimap_config_t *cfg, cudaStream_t s) {
  api_scope r("gcol_multimap_create");
  GCOL_TRY(gcol::detail::oa_create_begin(mm, "mm"));
  gcol_multimap_config_t c;
  GCOL_TRY(gcol_multimap_config_take(cfg, &c));
  gcol_mm_plan_t p;
  GCOL_TRY(gcol_mm_plan(&c, 0, &p));
  return gcol::detail::oa_create_end(
      mm, kMultimap, [&](gcol_multimap *m) { return gcol::detail::mm_init(m, GCOL_MULTIMAP_MAGIC, c, p, s); });
}

void gcol_multimap_destroy(gcol_multimap_t *m) {
  gcol::detail::oa_shell_destroy("gcol_multimap_destroy", m, kMultimap);
}

gcol_status_t gcol_multimap_insert(gcol_multimap_t *m, const void *d_keys, const void *d_values, size_t n,
                                   size_t *d_num_inserted, cudaStream_t s) {
  api_scope r("gcol_multimap_insert");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMultimap, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n),
                     gcol_oa_values(&sh, "d_values", d_values, n),
                     gcol_count_arg("d_num_inserted", d_num_inserted)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_insert(m, d_keys, d_values, n, d_num_inserted, s);
}

/* count and retrieve record nothing in the multimap (const): see gcol.h on destroy. */
gcol_status_t gcol_multimap_count(const gcol_multimap_t *m, const void *d_keys, size_t n, size_t *d_counts,
                                  size_t *d_total, cudaStream_t s) {
  api_scope r("gcol_multimap_count");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMultimap, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, (d_counts || d_total) ? n : 0),
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
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMultimap, &sh));
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
                     gcol_oa_values(&sh, "d_values_out", d_values_out, out_capacity),
                     {"d_query_out", d_query_out, out_capacity, sizeof(size_t), "size_t query indices"},
                     {"d_total", d_total, 1, sizeof(size_t), "one size_t"}};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::mm_retrieve(d_temp, m, d_keys, n, d_keys_out, d_values_out, d_query_out, out_capacity, d_total,
                                   s);
}

gcol_status_t gcol_multimap_retrieve_all(gcol_multimap_t *m, void *d_keys_out, void *d_values_out,
                                         size_t *h_count_out, cudaStream_t s) {
  return gcol::detail::oa_shell_retrieve_all("gcol_multimap_retrieve_all", m, kMultimap, d_keys_out, d_values_out,
                                             h_count_out, s);
}

gcol_status_t gcol_multimap_size(gcol_multimap_t *m, size_t *h_size_out, cudaStream_t s) {
  return gcol::detail::oa_shell_size("gcol_multimap_size", m, kMultimap, h_size_out, s);
}

gcol_status_t gcol_multimap_capacity(const gcol_multimap_t *m, size_t *h_capacity_out) {
  return gcol::detail::oa_shell_capacity("gcol_multimap_capacity", m, kMultimap, h_capacity_out);
}

gcol_status_t gcol_multimap_clear(gcol_multimap_t *m, cudaStream_t s) {
  return gcol::detail::oa_shell_clear("gcol_multimap_clear", m, kMultimap, s);
}

gcol_status_t gcol_multimap_status(gcol_multimap_t *m, cudaStream_t s) {
  return gcol::detail::oa_shell_status("gcol_multimap_status", m, kMultimap, s);
}

}  // extern "C"
