/* Acceptance of a caller's config struct (GCOL_CONFIG_HEADER): magic,
 * version and size checked, the caller's bytes copied over this library's
 * defaults, so that a struct from an older header takes the defaults of the
 * fields it lacks. */
#ifndef GCOL_SRC_CORE_CONFIG_ABI_H
#define GCOL_SRC_CORE_CONFIG_ABI_H

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  GCOL_CONFIG_HEADER
} gcol_config_header_t;

/* The header every _default function writes. */
gcol_config_header_t gcol_config_header(size_t size);

/* *out holds this library's defaults (out_size bytes); copy the caller's
 * in->size bytes over them. min_size is the size of the struct in 1.0 (a
 * shorter one cannot be ours). GCOL_ERROR_INVALID_ARGUMENT with a message
 * naming `what` when in is NULL, its magic or major version is not ours, or
 * its size is outside [min_size, out_size]. */
gcol_status_t gcol_config_take(const void *in, void *out, size_t min_size, size_t out_size, const char *what);

#ifdef __cplusplus
}
#endif
#endif
