/* The public calls the open-addressing containers share (map, set,
 * multiset, multimap; fixed and growable): one check order and one wording
 * for each. A call's shell opens its scope (name and NVTX range), checks the
 * handle, then its host outputs, then its device pointers (host rules, a
 * device, accessibility: gcol_check_dptrs), then forwards to the core.
 * Messages are formatted only when a check fails. */
#ifndef GCOL_SRC_CORE_OA_SHELL_H
#define GCOL_SRC_CORE_OA_SHELL_H

#include "core/args.h"
#include "core/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A container kind: the handle's type and the magic a live one holds. */
typedef struct {
  const char *type; /* "gcol_map_t" */
  uint32_t magic;
  const char *noun; /* "map", for messages about the container */
} gcol_oa_kind_t;

/* What a live container's arrays hold. */
typedef struct {
  gcol_type_t key_type, value_type;
  size_t kb, vb; /* bytes of a key and a value (vb 0: keys only) */
} gcol_oa_shape_t;

/* A live handle of kind k (magic: what h holds, 0 when h is NULL). */
gcol_status_t gcol_oa_check(const void *h, uint32_t magic, const gcol_oa_kind_t *k);
/* The same, then a host output `name` that must not be NULL. */
gcol_status_t gcol_oa_check_out(const void *h, uint32_t magic, const gcol_oa_kind_t *k, const char *name,
                                const void *out);

/* n keys / values of the container at p, for gcol_check_dptrs. */
static inline gcol_dptr_t gcol_oa_keys(const gcol_oa_shape_t *s, const char *name, const void *p, size_t n) {
  gcol_dptr_t a = {name, p, n, s->kb, gcol_type_words(s->key_type, GCOL_WORD_KEYS)};
  return a;
}
static inline gcol_dptr_t gcol_oa_values(const gcol_oa_shape_t *s, const char *name, const void *p, size_t n) {
  gcol_dptr_t a = {name, p, n, s->vb, gcol_type_words(s->value_type, GCOL_WORD_VALUES)};
  return a;
}

/* retrieve_all's checks after the handle: h_count_out, then the first
 * element of each output (how many are written is known only on the
 * device); values only where the container has them. */
gcol_status_t gcol_oa_check_retrieve_all(const gcol_oa_shape_t *s, const void *keys_out, const void *values_out,
                                         const size_t *h_count_out);

#ifdef __cplusplus
}

#include <stdlib.h>
#include "core/api_scope.h"

namespace gcol {
namespace detail {

/* The shells, for a container object O. Beside O (found by argument-
 * dependent lookup) stand: gcol_oa_shape_t core_shape(const O *),
 * size_t core_capacity(const O *), and core_release, core_size, core_clear,
 * core_status, core_retrieve_all (and core_reserve where O has it)
 * forwarding to its core. */

/* create's first step: the output handle `name` is not NULL; *out = NULL. */
template <class O>
gcol_status_t oa_create_begin(O **out, const char *name) {
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "%s (the output handle) is NULL", name);
  *out = NULL;
  return GCOL_SUCCESS;
}

/* create's last step, once the config is accepted: a zeroed object that
 * init(o) fills (the core's init, which sets the magic first); on failure
 * it is released and freed, *out stays NULL. */
template <class O, class Init>
gcol_status_t oa_create_end(O **out, const gcol_oa_kind_t &k, Init init) {
  O *o = (O *)calloc(1, sizeof *o);
  if (!o) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the %s object", k.noun);
  gcol_status_t st = init(o);
  if (st != GCOL_SUCCESS) {
    if (o->magic == k.magic) core_release(o);
    free(o);
    return st;
  }
  *out = o;
  return GCOL_SUCCESS;
}

/* destroy: nothing for NULL or a handle that is not live. */
template <class O>
void oa_shell_destroy(const char *call, O *o, const gcol_oa_kind_t &k) {
  if (!o || o->magic != k.magic) return;
  api_scope r(call);
  core_release(o);
  free(o);
}

/* The handle, then a host output `name` that must not be NULL. */
template <class O>
gcol_status_t oa_check_out(const O *o, const gcol_oa_kind_t &k, const char *name, const void *out) {
  return gcol_oa_check_out(o, o ? o->magic : 0, &k, name, out);
}

/* The handle; on success *sh is what its arrays hold. */
template <class O>
gcol_status_t oa_open(const O *o, const gcol_oa_kind_t &k, gcol_oa_shape_t *sh) {
  GCOL_TRY(gcol_oa_check(o, o ? o->magic : 0, &k));
  *sh = core_shape(o);
  return GCOL_SUCCESS;
}

template <class O>
gcol_status_t oa_shell_size(const char *call, O *o, const gcol_oa_kind_t &k, size_t *h_size_out, cudaStream_t s) {
  api_scope r(call);
  GCOL_TRY(oa_check_out(o, k, "h_size_out", h_size_out));
  return core_size(o, h_size_out, s);
}

template <class O>
gcol_status_t oa_shell_capacity(const char *call, const O *o, const gcol_oa_kind_t &k, size_t *h_capacity_out) {
  api_scope r(call);
  GCOL_TRY(oa_check_out(o, k, "h_capacity_out", h_capacity_out));
  *h_capacity_out = core_capacity(o);
  return GCOL_SUCCESS;
}

template <class O>
gcol_status_t oa_shell_clear(const char *call, O *o, const gcol_oa_kind_t &k, cudaStream_t s) {
  api_scope r(call);
  GCOL_TRY(gcol_oa_check(o, o ? o->magic : 0, &k));
  return core_clear(o, s);
}

template <class O>
gcol_status_t oa_shell_status(const char *call, O *o, const gcol_oa_kind_t &k, cudaStream_t s) {
  api_scope r(call);
  GCOL_TRY(gcol_oa_check(o, o ? o->magic : 0, &k));
  return core_status(o, s);
}

template <class O>
gcol_status_t oa_shell_reserve(const char *call, O *o, const gcol_oa_kind_t &k, size_t capacity, cudaStream_t s) {
  api_scope r(call);
  GCOL_TRY(gcol_oa_check(o, o ? o->magic : 0, &k));
  return core_reserve(o, capacity, k.noun, s);
}

/* values_out: NULL for the containers without values. */
template <class O>
gcol_status_t oa_shell_retrieve_all(const char *call, O *o, const gcol_oa_kind_t &k, void *keys_out,
                                    void *values_out, size_t *h_count_out, cudaStream_t s) {
  api_scope r(call);
  gcol_oa_shape_t sh;
  GCOL_TRY(oa_open(o, k, &sh));
  GCOL_TRY(gcol_oa_check_retrieve_all(&sh, keys_out, values_out, h_count_out));
  return core_retrieve_all(o, keys_out, values_out, h_count_out, s);
}

}  // namespace detail
}  // namespace gcol
#endif
#endif
