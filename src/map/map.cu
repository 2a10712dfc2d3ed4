/* Host API of the hash map: argument checks, then the open-addressing core
 * (oa_host.cu). */
#include <stddef.h>
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
using gcol::detail::oa_open;

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

const gcol_oa_kind_t kMap = {"gcol_map_t", GCOL_MAP_MAGIC, "map"};

}  // namespace

extern "C" {

gcol_status_t gcol_map_create(gcol_map_t **map, const gcol_map_config_t *cfg, cudaStream_t s) {
  api_scope r("gcol_map_create");
  GCOL_TRY(gcol::detail::oa_create_begin(map, "map"));
  gcol_map_config_t c;
  GCOL_TRY(gcol_map_config_take(cfg, &c));
  return gcol::detail::oa_create_end(map, kMap, [&](gcol_map *m) {
    return gcol::detail::oa_init(m, GCOL_MAP_MAGIC, c, (int)gcol_type_size(c.value_type), s);
  });
}

void gcol_map_destroy(gcol_map_t *m) { gcol::detail::oa_shell_destroy("gcol_map_destroy", m, kMap); }

gcol_status_t gcol_map_device_view(const gcol_map_t *m, gcol_map_view_t *v) {
  api_scope r("gcol_map_device_view");
  GCOL_TRY(gcol::detail::oa_check_out(m, kMap, "view_out", v));
  *v = gcol_map_view_t{m->t.slots, m->t.state, m->t.empty_key, m->t.erased_key, m->t.empty_value, m->t.seed,
                       m->t.capacity, m->t.num_buckets, m->l.tile, m->t.key_cas, (int32_t)m->cfg.key_type,
                       (int32_t)m->cfg.value_type};
  return GCOL_SUCCESS;
}

gcol_status_t gcol_map_device_mutable_view(gcol_map_t *m, gcol_map_mutable_view_t *v) {
  api_scope r("gcol_map_device_mutable_view");
  GCOL_TRY(gcol::detail::oa_check_out(m, kMap, "view_out", v));
  GCOL_TRY(gcol_map_device_view(m, &v->view));
  m->device_writes = 1;
  m->may_have_tombstones = 1; /* kernels may erase */
  return GCOL_SUCCESS;
}

gcol_status_t gcol_map_insert(gcol_map_t *m, const void *d_keys, const void *d_values, size_t n,
                              size_t *d_num_inserted, cudaStream_t s) {
  api_scope r("gcol_map_insert");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMap, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n), gcol_oa_values(&sh, "d_values", d_values, n),
                     gcol_count_arg("d_num_inserted", d_num_inserted)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return oa_upsert(m, d_keys, d_values, n, {gcol::detail::UPSERT_INSERT, 0, 0}, NULL, NULL, d_num_inserted, s);
}

gcol_status_t gcol_map_insert_or_assign(gcol_map_t *m, const void *d_keys, const void *d_values, size_t n,
                                        cudaStream_t s) {
  api_scope r("gcol_map_insert_or_assign");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMap, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n), gcol_oa_values(&sh, "d_values", d_values, n)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return oa_upsert(m, d_keys, d_values, n, {gcol::detail::UPSERT_ASSIGN, 0, 0}, NULL, NULL, NULL, s);
}

gcol_status_t gcol_map_insert_and_find(gcol_map_t *m, const void *d_keys, const void *d_values, size_t n,
                                       void *d_values_out, uint8_t *d_inserted_out, cudaStream_t s) {
  api_scope r("gcol_map_insert_and_find");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMap, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n), gcol_oa_values(&sh, "d_values", d_values, n),
                     gcol_oa_values(&sh, "d_values_out", d_values_out, n),
                     gcol_flags_arg("d_inserted_out", d_inserted_out, d_inserted_out ? n : 0)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return oa_upsert(m, d_keys, d_values, n, {gcol::detail::UPSERT_INSERT, 0, 0}, d_values_out, d_inserted_out,
                NULL, s);
}

gcol_status_t gcol_map_insert_or_apply(gcol_map_t *m, const void *d_keys, const void *d_values, size_t n,
                                       gcol_op_t op, cudaStream_t s) {
  api_scope r("gcol_map_insert_or_apply");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMap, &sh));
  if (op != GCOL_OP_ADD && op != GCOL_OP_MIN && op != GCOL_OP_MAX)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "op %d is not GCOL_OP_ADD, GCOL_OP_MIN or GCOL_OP_MAX", (int)op);
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n), gcol_oa_values(&sh, "d_values", d_values, n)};
  /* no values with GCOL_OP_ADD: every key adds one (counting) */
  GCOL_TRY(gcol_check_dptrs(a, d_values || op != GCOL_OP_ADD ? GCOL_NARGS(a) : 1));
  return oa_upsert(m, d_keys, d_values, n, {gcol::detail::UPSERT_APPLY, (int)op, (int)m->cfg.value_type}, NULL,
                NULL, NULL, s);
}

gcol_status_t gcol_map_find(const gcol_map_t *m, const void *d_keys, size_t n, void *d_values_out,
                            cudaStream_t s) {
  api_scope r("gcol_map_find");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMap, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n), gcol_oa_values(&sh, "d_values_out", d_values_out, n)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return oa_lookup(m, d_keys, n, d_values_out, false, s);
}

gcol_status_t gcol_map_contains(const gcol_map_t *m, const void *d_keys, size_t n, uint8_t *d_found_out,
                                cudaStream_t s) {
  api_scope r("gcol_map_contains");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMap, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n), gcol_flags_arg("d_found_out", d_found_out, n)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return oa_lookup(m, d_keys, n, d_found_out, true, s);
}

gcol_status_t gcol_map_erase(gcol_map_t *m, const void *d_keys, size_t n, size_t *d_num_erased,
                             cudaStream_t s) {
  api_scope r("gcol_map_erase");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kMap, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n), gcol_count_arg("d_num_erased", d_num_erased)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::oa_erase(m, d_keys, n, d_num_erased, s);
}

gcol_status_t gcol_map_retrieve_all(gcol_map_t *m, void *d_keys_out, void *d_values_out, size_t *h_count_out,
                                    cudaStream_t s) {
  return gcol::detail::oa_shell_retrieve_all("gcol_map_retrieve_all", m, kMap, d_keys_out, d_values_out, h_count_out,
                                             s);
}

gcol_status_t gcol_map_size(gcol_map_t *m, size_t *h_size_out, cudaStream_t s) {
  return gcol::detail::oa_shell_size("gcol_map_size", m, kMap, h_size_out, s);
}

gcol_status_t gcol_map_capacity(const gcol_map_t *m, size_t *h_capacity_out) {
  return gcol::detail::oa_shell_capacity("gcol_map_capacity", m, kMap, h_capacity_out);
}

gcol_status_t gcol_map_clear(gcol_map_t *m, cudaStream_t s) {
  return gcol::detail::oa_shell_clear("gcol_map_clear", m, kMap, s);
}

gcol_status_t gcol_map_reserve(gcol_map_t *m, size_t capacity, cudaStream_t s) {
  return gcol::detail::oa_shell_reserve("gcol_map_reserve", m, kMap, capacity, s);
}

gcol_status_t gcol_map_status(gcol_map_t *m, cudaStream_t s) {
  return gcol::detail::oa_shell_status("gcol_map_status", m, kMap, s);
}

}  // extern "C"
