/* CUDA errors as statuses (with their message), the device check and
 * device properties: internals every module's host code uses. */
#include "common.h"

static gcol_status_t status_of(cudaError_t e) {
  switch (e) {
    case cudaErrorMemoryAllocation: return GCOL_ERROR_OUT_OF_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError: /* falls through: no driver behind it */
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
    case cudaErrorDevicesUnavailable:
      return GCOL_ERROR_NO_DEVICE;
    default: return GCOL_ERROR_CUDA;
  }
}

gcol_status_t gcol_from_cuda(cudaError_t e) {
  if (e == cudaSuccess) return GCOL_SUCCESS;
  gcol_tls_cuda_error = (int)e;
  return gcol_fail(status_of(e), "%s (%s: %s)", e == cudaErrorMemoryAllocation ? "out of device memory" : "CUDA error",
                   cudaGetErrorName(e), cudaGetErrorString(e));
}

gcol_status_t gcol_require_device(void) {
  static _Thread_local int checked = 0; /* 1: usable */
  if (checked) return GCOL_SUCCESS;
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    gcol_tls_cuda_error = (int)e;
    return gcol_fail(GCOL_ERROR_NO_DEVICE, "no usable CUDA device (%s: %s)", cudaGetErrorName(e),
                     cudaGetErrorString(e));
  }
  if (count == 0) {
    gcol_tls_cuda_error = (int)cudaErrorNoDevice;
    return gcol_fail(GCOL_ERROR_NO_DEVICE, "no CUDA device is visible");
  }
  checked = 1;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_current_device_info(gcol_device_info_t *info) {
  GCOL_TRY(gcol_require_device());
  GCOL_CUDA_TRY(cudaGetDevice(&info->device));
  GCOL_CUDA_TRY(cudaDeviceGetAttribute(&info->cc_major, cudaDevAttrComputeCapabilityMajor, info->device));
  GCOL_CUDA_TRY(cudaDeviceGetAttribute(&info->cc_minor, cudaDevAttrComputeCapabilityMinor, info->device));
  GCOL_CUDA_TRY(cudaDeviceGetAttribute(&info->num_sms, cudaDevAttrMultiProcessorCount, info->device));
  return GCOL_SUCCESS;
}

gcol_status_t gcol_device_l2_bytes(int device, size_t *l2_bytes) {
  int l2 = 0;
  GCOL_CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  *l2_bytes = (size_t)l2;
  return GCOL_SUCCESS;
}
