/* Internal helpers shared by every module's host code (C and CUDA C). */
#ifndef GCOL_SRC_CORE_COMMON_H
#define GCOL_SRC_CORE_COMMON_H

#include "gcol/gcol.h"
#include <cuda_runtime_api.h>
#include "core/error.h"
#include "core/nvtx.h" /* gcol_nvtx_push / gcol_nvtx_pop */

#ifdef __cplusplus
extern "C" {
#endif

/* Map a cudaError_t to a status, remembering it for gcol_last_cuda_error(). */
gcol_status_t gcol_from_cuda(cudaError_t e);

/* GCOL_SUCCESS if a usable device is current, else GCOL_ERROR_NO_DEVICE.
 * Cheap after the first call on a thread. */
gcol_status_t gcol_require_device(void);

/* Properties of the current device that policies and launch sizing need. */
typedef struct {
  int device;
  int cc_major, cc_minor; /* compute capability */
  int num_sms;
} gcol_device_info_t;
gcol_status_t gcol_current_device_info(gcol_device_info_t *info);
/* The L2 cache of a device (open-addressing tables pick kernels by it, at creation). */
gcol_status_t gcol_device_l2_bytes(int device, size_t *l2_bytes);

#ifdef __cplusplus
}
#endif

/* Return early from a gcol_status_t function when a CUDA call fails. */
#define GCOL_CUDA_TRY(call)                                    \
  do {                                                         \
    cudaError_t gcol_e_ = (call);                              \
    if (gcol_e_ != cudaSuccess) return gcol_from_cuda(gcol_e_); \
  } while (0)

#define GCOL_TRY(call)                            \
  do {                                            \
    gcol_status_t gcol_s_ = (call);               \
    if (gcol_s_ != GCOL_SUCCESS) return gcol_s_;  \
  } while (0)

#endif
