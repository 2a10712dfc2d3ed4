/* The public status queries: strings, the last CUDA error and message of
 * this thread, type sizes. (The internals that set them: error.c,
 * cuda_status.c.) */
#include "common.h"

const char *gcol_status_string(gcol_status_t s) {
  switch (s) {
    case GCOL_SUCCESS: return "GCOL_SUCCESS: no error";
    case GCOL_ERROR_INVALID_ARGUMENT: return "GCOL_ERROR_INVALID_ARGUMENT: null pointer, bad config or unsupported type";
    case GCOL_ERROR_OUT_OF_MEMORY: return "GCOL_ERROR_OUT_OF_MEMORY: device allocation failed";
    case GCOL_ERROR_NO_DEVICE: return "GCOL_ERROR_NO_DEVICE: no usable CUDA device or driver";
    case GCOL_ERROR_CUDA: return "GCOL_ERROR_CUDA: CUDA error (see gcol_last_cuda_error)";
    case GCOL_ERROR_FULL: return "GCOL_ERROR_FULL: the container could not take every key";
    case GCOL_ERROR_RESERVED_KEY: return "GCOL_ERROR_RESERVED_KEY: input held a sentinel key";
    case GCOL_ERROR_NCCL: return "GCOL_ERROR_NCCL: NCCL error (libgcol_nccl; see gcol_dist_last_nccl_error)";
  }
  return "unknown gcol_status_t";
}

int gcol_last_cuda_error(void) { return gcol_tls_cuda_error; }

const char *gcol_last_error_message(void) { return gcol_tls_message; }

size_t gcol_type_size(gcol_type_t t) {
  switch (t) {
    case GCOL_U32: case GCOL_I32: case GCOL_F32: return 4;
    case GCOL_U64: case GCOL_I64: case GCOL_F64: return 8;
    case GCOL_U128: return 16;
  }
  return 0;
}

