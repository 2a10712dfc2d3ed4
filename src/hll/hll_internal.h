/* Host-side rules of the HyperLogLog sketch that need no GPU (C): the
 * estimator, the byte format, config checks. Shared by hll.cu and tests. */
#ifndef GCOL_SRC_HLL_HLL_INTERNAL_H
#define GCOL_SRC_HLL_HLL_INTERNAL_H

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GCOL_HLL_MIN_PRECISION 4
#define GCOL_HLL_MAX_PRECISION 18
#define GCOL_HLL_HEADER_BYTES 16
#define GCOL_HLL_FORMAT 1
#define GCOL_HLL_CONFIG_SIZE_1_0 sizeof(gcol_hll_config_t)

/* Ertl's improved estimate from m = 2^p registers (values 0..65-p). */
double gcol_hll_estimate_registers(const uint32_t *reg, int p);

/* The export format: header and one byte per register. */
void gcol_hll_encode(const uint32_t *reg, int p, uint64_t seed, uint8_t *out);

/* Check bytes against a sketch's precision and seed and decode the
 * registers into reg (2^p of them). INVALID_ARGUMENT with a message naming
 * the first broken rule; reg is then untouched. */
gcol_status_t gcol_hll_decode(const void *bytes, size_t len, int p, uint64_t seed, uint32_t *reg);

gcol_status_t gcol_hll_config_take(const gcol_hll_config_t *in, gcol_hll_config_t *out);

#ifdef __cplusplus
}
#endif
#endif
