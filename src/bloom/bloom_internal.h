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

/* Threads per key of the bulk kernels (1, 2 or 4). Add: 4, the four ORs of
 * a key leave a warp as one request to its 32-byte block instead of four
 * (H100, G keys/s at 1 MiB / 128 MiB / 2 GiB: 1 lane 21.4 / 10.8 / 9.4, 2
 * lanes 30.6 / 14.1 / 11.7, 4 lanes 56.8 / 16.5 / 12.9). Contains: 1 (86.6 /
 * 32.8 / 27.2; 2 lanes 69.3 / 31.3 / 26.1, 4 lanes 46.4 / 30.4 / 25.3).
 * docs/experiments.md, 2026-11-24. The shipped library builds these alone; the
 * benchmark sweeps the others through gcol_test_hooks (core/test_hooks.h). */
#define GCOL_BLOOM_ADD_TILE 4
#define GCOL_BLOOM_CONTAINS_TILE 1

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
