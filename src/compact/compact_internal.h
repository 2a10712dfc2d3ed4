/* The compaction module's internal entry points (C linkage, callable from
 * C and CUDA host code: the public API, the containers' retrieve_all, the
 * benchmark). They check nothing: callers validate arguments. */
#ifndef GCOL_SRC_COMPACT_COMPACT_INTERNAL_H
#define GCOL_SRC_COMPACT_COMPACT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "gcol/gcol.h"
#include "compact_policy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Temp bytes the ANY order asks for. It uses none (the count is accumulated
 * in place in d_num_selected), but a size of 0 would make the two-phase
 * idiom allocate NULL and query forever. */
#define GCOL_SELECT_ANY_TEMP_BYTES ((size_t)16)

/* ANY-order select, one pass: adds the number of selected items to
 * *d_counter (not zeroed here, so calls can append) and writes each selected
 * item to d_out[old counter + k] for a distinct k. Items of item_bytes (1, 2,
 * 4, 8, 16), pointers aligned to it; p must be supported. n == 0: no launch. */
cudaError_t gcol_select_any_launch(const void *d_in, const uint8_t *d_flags, void *d_out,
                                   unsigned long long *d_counter, size_t n, size_t item_bytes,
                                   const gcol_select_policy_t *p, cudaStream_t s);

/* cub::DeviceSelect::Flagged on items of item_bytes (two-phase: d_temp NULL
 * only sets *temp_bytes). */
cudaError_t gcol_select_stable_cub(void *d_temp, size_t *temp_bytes, const void *d_in, const uint8_t *d_flags,
                                   void *d_out, size_t *d_num_selected, size_t n, size_t item_bytes,
                                   cudaStream_t s);

/* cub::DeviceReduce::Reduce / cub::DeviceScan::ExclusiveScan with the op's
 * identity as the initial value (two-phase). */
cudaError_t gcol_reduce_cub(void *d_temp, size_t *temp_bytes, const void *d_in, void *d_out, size_t n,
                            gcol_type_t t, gcol_op_t op, cudaStream_t s);
cudaError_t gcol_exclusive_scan_cub(void *d_temp, size_t *temp_bytes, const void *d_in, void *d_out, size_t n,
                                    gcol_type_t t, gcol_op_t op, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
