/* String dictionary internals shared by its host files, the tests and the
 * test hook (C-compatible). */
#ifndef GCOL_SRC_STRMAP_STRMAP_INTERNAL_H
#define GCOL_SRC_STRMAP_STRMAP_INTERNAL_H

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* sizeof(gcol_strmap_config_t) in its first release: the shortest accepted. */
#define GCOL_STRMAP_CONFIG_SIZE_1_1 sizeof(gcol_strmap_config_t)

/* Slots per bucket (one thread scans a bucket: 64 bytes). */
#define GCOL_STRMAP_BUCKET 8

/* The accepted config (an older, shorter struct takes the defaults it
 * lacks), checked with the map's rules. INVALID_ARGUMENT with a message. */
gcol_status_t gcol_strmap_config_take(const gcol_strmap_config_t *in, gcol_strmap_config_t *out);

/* (libgcol_testing.a only: tests/support/strmap_testing.cu.) Keep only the
 * bits of mask of every string's 64-bit hash, so that distinct strings
 * collide (mask 0: one hash for all). The strmap must be empty. */
gcol_status_t gcol_strmap_set_hash_mask_for_testing(gcol_strmap_t *m, uint64_t mask);

#ifdef __cplusplus
}
#endif
#endif
