/* cub::DeviceSelect::Flagged on 16-byte items called directly (not through
 * gcol), the reference that gcol's STABLE order is held to. */
#ifndef GCOL_BENCH_COMPACT_CUB_H
#define GCOL_BENCH_COMPACT_CUB_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif
cudaError_t bench_cub_select_flagged16(void *d_temp, size_t *temp_bytes, const void *d_in, const uint8_t *d_flags,
                                       void *d_out, size_t *d_num_selected, size_t n, cudaStream_t s);
#ifdef __cplusplus
}
#endif
#endif
