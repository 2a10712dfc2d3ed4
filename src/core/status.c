/* Status strings, the last CUDA error, the device check and NVTX ranges. */
#include "common.h"

#ifndef GCOL_NVTX_DISABLE
#include <nvtx3/nvToolsExt.h>
#endif

static _Thread_local int last_cuda_error = 0;

const char *gcol_status_string(gcol_status_t s) {
  switch (s) {
    case GCOL_SUCCESS: return "GCOL_SUCCESS: no error";
    case GCOL_ERROR_INVALID_ARGUMENT: return "GCOL_ERROR_INVALID_ARGUMENT: null pointer, bad config or unsupported type";
    case GCOL_ERROR_OUT_OF_MEMORY: return "GCOL_ERROR_OUT_OF_MEMORY: device allocation failed";
    case GCOL_ERROR_NO_DEVICE: return "GCOL_ERROR_NO_DEVICE: no usable CUDA device or driver";
    case GCOL_ERROR_CUDA: return "GCOL_ERROR_CUDA: CUDA error (see gcol_last_cuda_error)";
    case GCOL_ERROR_FULL: return "GCOL_ERROR_FULL: the container could not take every key";
    case GCOL_ERROR_RESERVED_KEY: return "GCOL_ERROR_RESERVED_KEY: input held a sentinel key";
  }
  return "unknown gcol_status_t";
}

int gcol_last_cuda_error(void) { return last_cuda_error; }

size_t gcol_type_size(gcol_type_t t) {
  switch (t) {
    case GCOL_U32: case GCOL_I32: case GCOL_F32: return 4;
    case GCOL_U64: case GCOL_I64: case GCOL_F64: return 8;
  }
  return 0;
}

gcol_status_t gcol_from_cuda(cudaError_t e) {
  if (e == cudaSuccess) return GCOL_SUCCESS;
  last_cuda_error = (int)e;
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

gcol_status_t gcol_require_device(void) {
  static _Thread_local int checked = 0; /* 1: usable */
  if (checked) return GCOL_SUCCESS;
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    gcol_status_t s = gcol_from_cuda(e);
    return s == GCOL_ERROR_CUDA ? GCOL_ERROR_NO_DEVICE : s;
  }
  if (count == 0) {
    last_cuda_error = (int)cudaErrorNoDevice;
    return GCOL_ERROR_NO_DEVICE;
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

void gcol_nvtx_push(const char *name) {
#ifndef GCOL_NVTX_DISABLE
  nvtxRangePushA(name);
#else
  (void)name;
#endif
}

void gcol_nvtx_pop(void) {
#ifndef GCOL_NVTX_DISABLE
  nvtxRangePop();
#endif
}
