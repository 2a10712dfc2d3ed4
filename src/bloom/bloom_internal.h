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

/* The export format (gcol.h): a 32-byte header, then the filter's words. */
#define GCOL_BLOOM_HEADER_BYTES 32
#define GCOL_BLOOM_FORMAT 1

/* Write the export header of a filter of num_blocks blocks to out (32 bytes). */
void gcol_bloom_encode_header(uint64_t num_blocks, uint64_t seed, int key_bytes, uint8_t *out);

/* Check exported bytes against a filter's shape (block count, seed, key
 * width): INVALID_ARGUMENT with a message naming the first broken rule. */
gcol_status_t gcol_bloom_check_bytes(const void *bytes, size_t len, uint64_t num_blocks, uint64_t seed,
                                     int key_bytes);

/* The accepted config (defaults under an older, shorter struct), checked,
 * and the number of blocks it asks for. INVALID_ARGUMENT with a message. */
gcol_status_t gcol_bloom_config_take(const gcol_bloom_config_t *in, gcol_bloom_config_t *out,
                                     uint64_t *num_blocks);

#ifdef __cplusplus
}
#endif
#endif
