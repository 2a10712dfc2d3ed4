/* Launchers of user-style kernels over the sketches' device API
 * (include/gcol/device/bloom.cuh, hll.cuh; tests/sketch_device_kernels.cu). */
#ifndef GCOL_TESTS_SKETCH_DEVICE_KERNELS_H
#define GCOL_TESTS_SKETCH_DEVICE_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Add keys (u64 when wide, else u32) through gcol::bloom_ref: tile 0 per
 * thread, 1/2/4/8 one key per cooperative tile of that size. d_found NULL:
 * add; else contains into d_found. Synchronizes; the first CUDA error. */
cudaError_t dev_bloom_run(const gcol_bloom_view_t *v, int wide, int tile, const void *d_keys, size_t n,
                          uint8_t *d_found);

/* Add items (u64 when wide, else u32) through gcol::hll_ref. Synchronizes. */
cudaError_t dev_hll_add(const gcol_hll_view_t *v, int wide, const void *d_items, size_t n);

#ifdef __cplusplus
}
#endif
#endif
