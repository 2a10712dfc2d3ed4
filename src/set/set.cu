/* Host API of the set: argument checks, then the open-addressing core
 * (map/oa_host.cu) with keys only (vb 0). */
#include "core/api_scope.h"
#include "core/args.h"
#include "map/map_object.h"
#include "set_internal.h"

using gcol::detail::api_scope;
using gcol::detail::oa_open;

namespace {

const gcol_oa_kind_t kSet = {"gcol_set_t", GCOL_SET_MAGIC, "set"};

}  // namespace

extern "C" {

gcol_status_t gcol_set_create(gcol_set_t **set, const gcol_set_config_t *cfg, cudaStream_t s) {
  api_scope r("gcol_set_create");
  GCOL_TRY(gcol::detail::oa_create_begin(set, "set"));
  gcol_map_config_t c;
  GCOL_TRY(gcol_set_config_take(cfg, &c));
  return gcol::detail::oa_create_end(set, kSet,
                                     [&](gcol_set *m) { return gcol::detail::oa_init(m, GCOL_SET_MAGIC, c, 0, s); });
}

void gcol_set_destroy(gcol_set_t *m) { gcol::detail::oa_shell_destroy("gcol_set_destroy", m, kSet); }

gcol_status_t gcol_set_insert(gcol_set_t *m, const void *d_keys, size_t n, size_t *d_num_inserted, cudaStream_t s) {
  api_scope r("gcol_set_insert");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kSet, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n),
                     gcol_count_arg("d_num_inserted", d_num_inserted)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::oa_upsert(m, d_keys, NULL, n, {gcol::detail::UPSERT_INSERT, 0, 0}, NULL, NULL, d_num_inserted,
                                 s);
}

gcol_status_t gcol_set_insert_and_contains(gcol_set_t *m, const void *d_keys, size_t n, uint8_t *d_inserted_out,
                                           cudaStream_t s) {
  api_scope r("gcol_set_insert_and_contains");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kSet, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n), gcol_flags_arg("d_inserted_out", d_inserted_out, n)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::oa_upsert(m, d_keys, NULL, n, {gcol::detail::UPSERT_INSERT, 0, 0}, NULL, d_inserted_out, NULL,
                                 s);
}

gcol_status_t gcol_set_contains(const gcol_set_t *m, const void *d_keys, size_t n, uint8_t *d_found_out,
                                cudaStream_t s) {
  api_scope r("gcol_set_contains");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kSet, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n), gcol_flags_arg("d_found_out", d_found_out, n)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::oa_lookup(m, d_keys, n, d_found_out, true, s);
}

gcol_status_t gcol_set_erase(gcol_set_t *m, const void *d_keys, size_t n, size_t *d_num_erased, cudaStream_t s) {
  api_scope r("gcol_set_erase");
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(m, kSet, &sh));
  gcol_dptr_t a[] = {gcol_oa_keys(&sh, "d_keys", d_keys, n),
                     gcol_count_arg("d_num_erased", d_num_erased)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::oa_erase(m, d_keys, n, d_num_erased, s);
}

gcol_status_t gcol_set_retrieve_all(gcol_set_t *m, void *d_keys_out, size_t *h_count_out, cudaStream_t s) {
  return gcol::detail::oa_shell_retrieve_all("gcol_set_retrieve_all", m, kSet, d_keys_out, NULL, h_count_out, s);
}

gcol_status_t gcol_set_size(gcol_set_t *m, size_t *h_size_out, cudaStream_t s) {
  return gcol::detail::oa_shell_size("gcol_set_size", m, kSet, h_size_out, s);
}

gcol_status_t gcol_set_capacity(const gcol_set_t *m, size_t *h_capacity_out) {
  return gcol::detail::oa_shell_capacity("gcol_set_capacity", m, kSet, h_capacity_out);
}

gcol_status_t gcol_set_clear(gcol_set_t *m, cudaStream_t s) {
  return gcol::detail::oa_shell_clear("gcol_set_clear", m, kSet, s);
}

gcol_status_t gcol_set_reserve(gcol_set_t *m, size_t capacity, cudaStream_t s) {
  return gcol::detail::oa_shell_reserve("gcol_set_reserve", m, kSet, capacity, s);
}

gcol_status_t gcol_set_status(gcol_set_t *m, cudaStream_t s) {
  return gcol::detail::oa_shell_status("gcol_set_status", m, kSet, s);
}

gcol_status_t gcol_set_device_view(const gcol_set_t *m, gcol_set_view_t *v) {
  api_scope r("gcol_set_device_view");
  GCOL_TRY(gcol::detail::oa_check_out(m, kSet, "view_out", v));
  *v = gcol_set_view_t{m->t.slots, m->t.state, m->t.empty_key, m->t.erased_key, m->t.seed, m->t.capacity,
                       m->t.num_buckets, m->l.tile, (int32_t)m->cfg.key_type};
  return GCOL_SUCCESS;
}

gcol_status_t gcol_set_device_mutable_view(gcol_set_t *m, gcol_set_mutable_view_t *v) {
  api_scope r("gcol_set_device_mutable_view");
  GCOL_TRY(gcol::detail::oa_check_out(m, kSet, "view_out", v));
  GCOL_TRY(gcol_set_device_view(m, &v->view));
  m->device_writes = 1;
  m->may_have_tombstones = 1; /* kernels may erase */
  return GCOL_SUCCESS;
}

}  // extern "C"
