/* Host-side rules of the Bloom filter that need no GPU (C): the FPR
 * formula, sizing, and config checks. Shared by bloom.cu and the tests. */
#ifndef GCOL_SRC_BLOOM_BLOOM_INTERNAL_H
#define GCOL_SRC_BLOOM_BLOOM_INTERNAL_H

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GCOL_BLOOM_BLOCK_BYTES 32
#define GCOL_BLOOM_MAX_BYTES ((size_t)1 << 40)
#define GCOL_BLOOM_MAX_KEYS ((size_t)1 << 40)
/* the size of gcol_bloom_config_t in gcol 1.0 */
#define GCOL_BLOOM_CONFIG_SIZE_1_0 sizeof(gcol_bloom_config_t)

/* Threads per key of the bulk kernels (1, 2 or 4; bloom.cu). A variable so
 * that the benchmark can sweep it; the library never changes it. */
typedef struct {
  int add_tile, contains_tile;
} gcol_bloom_policy_t;
extern gcol_bloom_policy_t gcol_bloom_policy;

/* FPR of num_blocks blocks holding n distinct keys (gcol.h's formula). */
double gcol_bloom_fpr_blocks(uint64_t num_blocks, uint64_t n);

/* The accepted config (defaults under an older, shorter struct), checked,
 * and the number of blocks it asks for. INVALID_ARGUMENT with a message. */
gcol_status_t gcol_bloom_config_take(const gcol_bloom_config_t *in, gcol_bloom_config_t *out,
                                     uint64_t *num_blocks);

#ifdef __cplusplus
}
#endif
#endif
