/* Host API of the string dictionary: argument checks, then the pipeline in
 * strmap_host.cu. */
#include <stdlib.h>
#include "core/api_scope.h"
#include "core/args.h"
#include "core/common.h"
#include "strmap_object.h"

using gcol::detail::api_scope;

namespace {

gcol_status_t check_strmap(const gcol_strmap *m) {
  return gcol_check_handle(m, m ? m->magic : 0, GCOL_STRMAP_MAGIC, "gcol_strmap_t");
}

/* The column's host-side rules; its pointers go into a[0..1]. */
gcol_status_t check_strings(const gcol_strings_t *k, gcol_dptr_t *a) {
  if (!k) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "keys (the gcol_strings_t) is NULL");
  if (k->offset_type != GCOL_I32 && k->offset_type != GCOL_I64)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "keys->offset_type %d is not GCOL_I32 or GCOL_I64",
                     (int)k->offset_type);
  if (k->n > GCOL_STRMAP_MAX_ROWS)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "keys->n %zu is more than GCOL_STRMAP_MAX_ROWS (%zu) rows per call",
                     k->n, (size_t)GCOL_STRMAP_MAX_ROWS);
  if (k->n && !k->d_chars && k->chars_bytes)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "keys->d_chars is NULL but keys->chars_bytes is %zu",
                     k->chars_bytes);
  size_t w = gcol_type_size(k->offset_type);
  a[0] = gcol_dptr_t{"keys->d_offsets", k->d_offsets, k->n ? k->n + 1 : 0, w, w == 4 ? "int32 offsets" : "int64 offsets"};
  a[1] = gcol_dptr_t{"keys->d_chars", k->d_chars, k->n ? k->chars_bytes : 0, 1, "string bytes"};
  return GCOL_SUCCESS;
}

gcol_dptr_t values_arg(const gcol_strmap *m, const char *name, const void *p, size_t n) {
  return gcol_dptr_t{name, p, n, (size_t)m->vb, gcol_type_name(m->cfg.value_type)};
}

bool is_integer(gcol_type_t t) { return t == GCOL_U32 || t == GCOL_I32 || t == GCOL_U64 || t == GCOL_I64; }

/* d_values NULL asks for dense ids: an integer value type. */
gcol_status_t check_ids(const gcol_strmap *m, const void *d_values) {
  if (d_values || is_integer(m->cfg.value_type)) return GCOL_SUCCESS;
  return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "d_values is NULL (dense ids) but the value type %s is not an integer",
                   gcol_type_name(m->cfg.value_type));
}

}  // namespace

extern "C" {

gcol_status_t gcol_strmap_create(gcol_strmap_t **out, const gcol_strmap_config_t *cfg, cudaStream_t s) {
  api_scope r("gcol_strmap_create");
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "m (the output handle) is NULL");
  *out = NULL;
  gcol_strmap_config_t c;
  GCOL_TRY(gcol_strmap_config_take(cfg, &c));
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  gcol_strmap *m = (gcol_strmap *)calloc(1, sizeof *m);
  if (!m) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the strmap object");
  m->magic = GCOL_STRMAP_MAGIC; /* first: a failure below is cleaned up by destroy */
  m->cfg = c;
  m->vb = (int)gcol_type_size(c.value_type);
  m->num_sms = dev.num_sms;
  m->last = s;
  gcol_status_t st = gcol::detail::str_init(m, s);
  if (st != GCOL_SUCCESS) {
    gcol_strmap_destroy(m);
    return st;
  }
  *out = m;
  return GCOL_SUCCESS;
}

void gcol_strmap_destroy(gcol_strmap_t *m) {
  if (!m || m->magic != GCOL_STRMAP_MAGIC) return;
  api_scope r("gcol_strmap_destroy");
  gcol::detail::str_release(m);
  free(m);
}

gcol_status_t gcol_strmap_insert(gcol_strmap_t *m, const gcol_strings_t *keys, const void *d_values,
                                 size_t *d_num_inserted, cudaStream_t s) {
  api_scope r("gcol_strmap_insert");
  GCOL_TRY(check_strmap(m));
  gcol_dptr_t a[4];
  GCOL_TRY(check_strings(keys, a));
  GCOL_TRY(check_ids(m, d_values));
  a[2] = values_arg(m, "d_values", d_values, d_values ? keys->n : 0);
  a[3] = gcol_count_arg("d_num_inserted", d_num_inserted);
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::str_upsert(m, *keys, d_values, d_values ? gcol::detail::STR_VALUES : gcol::detail::STR_IDS,
                                  0, NULL, NULL, d_num_inserted, s);
}

gcol_status_t gcol_strmap_insert_and_find(gcol_strmap_t *m, const gcol_strings_t *keys, const void *d_values,
                                          void *d_values_out, uint8_t *d_inserted_out, cudaStream_t s) {
  api_scope r("gcol_strmap_insert_and_find");
  GCOL_TRY(check_strmap(m));
  gcol_dptr_t a[5];
  GCOL_TRY(check_strings(keys, a));
  GCOL_TRY(check_ids(m, d_values));
  a[2] = values_arg(m, "d_values", d_values, d_values ? keys->n : 0);
  a[3] = values_arg(m, "d_values_out", d_values_out, keys->n);
  a[4] = gcol_flags_arg("d_inserted_out", d_inserted_out, d_inserted_out ? keys->n : 0);
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::str_upsert(m, *keys, d_values, d_values ? gcol::detail::STR_VALUES : gcol::detail::STR_IDS,
                                  0, d_values_out, d_inserted_out, NULL, s);
}

gcol_status_t gcol_strmap_insert_or_apply(gcol_strmap_t *m, const gcol_strings_t *keys, const void *d_values,
                                          gcol_op_t op, cudaStream_t s) {
  api_scope r("gcol_strmap_insert_or_apply");
  GCOL_TRY(check_strmap(m));
  if (op != GCOL_OP_ADD && op != GCOL_OP_MIN && op != GCOL_OP_MAX)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "op %d is not GCOL_OP_ADD, GCOL_OP_MIN or GCOL_OP_MAX", (int)op);
  gcol_dptr_t a[3];
  GCOL_TRY(check_strings(keys, a));
  a[2] = values_arg(m, "d_values", d_values, keys->n);
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::str_upsert(m, *keys, d_values, gcol::detail::STR_APPLY, (int)op, NULL, NULL, NULL, s);
}

gcol_status_t gcol_strmap_find(const gcol_strmap_t *m, const gcol_strings_t *keys, void *d_values_out,
                               cudaStream_t s) {
  api_scope r("gcol_strmap_find");
  GCOL_TRY(check_strmap(m));
  gcol_dptr_t a[3];
  GCOL_TRY(check_strings(keys, a));
  a[2] = values_arg(m, "d_values_out", d_values_out, keys->n);
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::str_lookup(m, *keys, d_values_out, false, s);
}

gcol_status_t gcol_strmap_contains(const gcol_strmap_t *m, const gcol_strings_t *keys, uint8_t *d_found_out,
                                   cudaStream_t s) {
  api_scope r("gcol_strmap_contains");
  GCOL_TRY(check_strmap(m));
  gcol_dptr_t a[3];
  GCOL_TRY(check_strings(keys, a));
  a[2] = gcol_flags_arg("d_found_out", d_found_out, keys->n);
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::str_lookup(m, *keys, d_found_out, true, s);
}

gcol_status_t gcol_strmap_retrieve_all(gcol_strmap_t *m, void *d_offsets_out, gcol_type_t offset_type,
                                       void *d_chars_out, void *d_values_out, size_t *h_count_out,
                                       size_t *h_chars_bytes_out, cudaStream_t s) {
  api_scope r("gcol_strmap_retrieve_all");
  GCOL_TRY(check_strmap(m));
  if (!h_count_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_count_out is NULL");
  if (!h_chars_bytes_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_chars_bytes_out is NULL");
  if (offset_type != GCOL_I32 && offset_type != GCOL_I64)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "offset_type %d is not GCOL_I32 or GCOL_I64", (int)offset_type);
  if (offset_type == GCOL_I32 && m->arena_used > 0x7fffffffULL)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "the %zu stored bytes do not fit int32 offsets (use GCOL_I64)",
                     m->arena_used);
  *h_count_out = m->count;
  *h_chars_bytes_out = m->arena_used;
  if (!d_offsets_out) return GCOL_SUCCESS; /* the size query */
  size_t w = gcol_type_size(offset_type);
  gcol_dptr_t a[] = {{"d_offsets_out", d_offsets_out, m->count + 1, w, w == 4 ? "int32 offsets" : "int64 offsets"},
                     {"d_chars_out", d_chars_out, m->arena_used, 1, "string bytes"},
                     values_arg(m, "d_values_out", d_values_out, d_values_out ? m->count : 0)};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  return gcol::detail::str_retrieve(m, d_offsets_out, offset_type, d_chars_out, d_values_out, s);
}

gcol_status_t gcol_strmap_size(gcol_strmap_t *m, size_t *h_size_out, cudaStream_t s) {
  api_scope r("gcol_strmap_size");
  GCOL_TRY(check_strmap(m));
  if (!h_size_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_size_out is NULL");
  GCOL_TRY(gcol_require_device());
  *h_size_out = m->count;
  return gcol::detail::str_take_latched(m, s);
}

gcol_status_t gcol_strmap_capacity(const gcol_strmap_t *m, size_t *h_capacity_out) {
  api_scope r("gcol_strmap_capacity");
  GCOL_TRY(check_strmap(m));
  if (!h_capacity_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_capacity_out is NULL");
  *h_capacity_out = m->num_slots;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_strmap_clear(gcol_strmap_t *m, cudaStream_t s) {
  api_scope r("gcol_strmap_clear");
  GCOL_TRY(check_strmap(m));
  GCOL_TRY(gcol_require_device());
  return gcol::detail::str_clear(m, s);
}

gcol_status_t gcol_strmap_status(gcol_strmap_t *m, cudaStream_t s) {
  api_scope r("gcol_strmap_status");
  GCOL_TRY(check_strmap(m));
  GCOL_TRY(gcol_require_device());
  return gcol::detail::str_take_latched(m, s);
}

}  // extern "C"
