/* CPU references of the sketches (plain C, written apart from the device
 * code so that the tests compare two implementations): the Bloom filter's
 * layout and the HyperLogLog registers, with gcol.h's hash rules; and a
 * device generator of distinct keys for tests and benchmarks. */
#ifndef GCOL_TESTS_SUPPORT_SKETCH_REF_H
#define GCOL_TESTS_SUPPORT_SKETCH_REF_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* words: 4 * num_blocks 64-bit words; keys of kb (4 or 8) bytes. */
void ref_bloom_add(uint64_t *words, uint64_t num_blocks, uint64_t seed, const void *keys, size_t n, size_t kb);
/* out[i] = 1 if key i's eight bits are all set. */
void ref_bloom_contains(const uint64_t *words, uint64_t num_blocks, uint64_t seed, const void *keys, size_t n,
                        size_t kb, uint8_t *out);

/* reg: 2^p registers; items of ib (4 or 8) bytes; canon 1: f32 items, 2: f64
 * items (-0.0 as 0.0, NaNs as one), 0: raw bits. */
void ref_hll_add(uint32_t *reg, int p, uint64_t seed, const void *items, size_t n, size_t ib, int canon);

/* d[i] = the i-th of a family of distinct keys, kb (4 or 8) bytes: a
 * bijection of off + i (4-byte keys: distinct while n <= 2^32). On s. */
cudaError_t sketch_fill_keys(void *d, size_t n, size_t kb, uint64_t off, cudaStream_t s);

/* Add n u64 items through gcol::hll_ref (global check-before-atomicMax), 8
 * blocks of 256 per SM, on s (no synchronization). */
cudaError_t sketch_hll_global_add(const gcol_hll_view_t *v, const uint64_t *d_items, size_t n, int num_sms,
                                  cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
