/* Argument checks of device pointers, shared by every public call: NULL and
 * alignment on the host first, then a usable device, then that the memory is
 * one the current device's kernels can read (device, managed or mapped
 * pinned memory), so that no input can fault the caller's CUDA context. */
#ifndef GCOL_SRC_CORE_ARGS_H
#define GCOL_SRC_CORE_ARGS_H

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *name;  /* the parameter, as the header names it ("d_keys") */
  const void *p;
  size_t count;      /* elements the call reads or writes; 0: p is not used
                        (may be NULL) and is not checked */
  size_t align;      /* bytes p must be aligned to (a power of two) */
  const char *what;  /* what it holds, for the message ("GCOL_U64 keys") */
} gcol_dptr_t;

/* Every pointer's host-side rules (non-NULL where count > 0, aligned), then
 * gcol_require_device, then device accessibility. The first failure sets the
 * message and is returned: GCOL_ERROR_INVALID_ARGUMENT, or
 * GCOL_ERROR_NO_DEVICE. */
gcol_status_t gcol_check_dptrs(const gcol_dptr_t *a, size_t k);

/* Only the host-side rules (no device needed). */
gcol_status_t gcol_check_dptrs_host(const gcol_dptr_t *a, size_t k);

/* Only device accessibility (a device is current). */
gcol_status_t gcol_check_dptrs_device(const gcol_dptr_t *a, size_t k);

/* Device accessibility for kernels of `device` (not necessarily current). */
gcol_status_t gcol_check_dptrs_on(const gcol_dptr_t *a, size_t k, int device);

#define GCOL_NARGS(a) (sizeof(a) / sizeof((a)[0]))

/* Common arguments: an optional count output (one size_t, checked only
 * when given) and n flag bytes. */
gcol_dptr_t gcol_count_arg(const char *name, const size_t *p);
gcol_dptr_t gcol_flags_arg(const char *name, const uint8_t *p, size_t n);

/* A live handle: not NULL, and `magic` (read by the caller from the handle,
 * 0 when it is NULL) is what create set and destroy clears. `type` names the
 * handle's type for the message ("gcol_map_t"). */
gcol_status_t gcol_check_handle(const void *h, uint32_t magic, uint32_t want, const char *type);

/* "GCOL_U64 keys" / "GCOL_F32 values" / "GCOL_I32 items": what an array of a
 * type holds, for pointer messages. A string constant: nothing is formatted
 * unless a check fails. */
typedef enum { GCOL_WORD_KEYS, GCOL_WORD_VALUES, GCOL_WORD_ITEMS } gcol_word_t;
const char *gcol_type_words(gcol_type_t t, gcol_word_t what);

#ifdef __cplusplus
}
#endif
#endif
