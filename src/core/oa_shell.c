/* The open-addressing containers' shared checks (see oa_shell.h). */
#include "oa_shell.h"
#include "error.h"

gcol_status_t gcol_oa_check(const void *h, uint32_t magic, const gcol_oa_kind_t *k) {
  return gcol_check_handle(h, magic, k->magic, k->type);
}

gcol_status_t gcol_oa_check_out(const void *h, uint32_t magic, const gcol_oa_kind_t *k, const char *name,
                                const void *out) {
  GCOL_TRY(gcol_check_handle(h, magic, k->magic, k->type));
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL", name);
  return GCOL_SUCCESS;
}

gcol_status_t gcol_oa_check_retrieve_all(const gcol_oa_shape_t *s, const void *keys_out, const void *values_out,
                                         const size_t *h_count_out) {
  if (!h_count_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_count_out is NULL");
  gcol_dptr_t a[] = {gcol_oa_keys(s, "d_keys_out", keys_out, 1),
                     gcol_oa_values(s, "d_values_out", values_out, s->vb ? 1 : 0)};
  return gcol_check_dptrs(a, GCOL_NARGS(a));
}
