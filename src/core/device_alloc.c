#include <string.h>
#include "core/device_alloc.h"
#include "core/common.h"

gcol_status_t gcol_device_alloc(const gcol_allocator_t *a, void **p, size_t bytes, cudaStream_t s) {
  *p = NULL;
  if (bytes == 0) return GCOL_SUCCESS;
  if (a->alloc) {
    *p = a->alloc(a->ctx, bytes, s);
    if (*p) return GCOL_SUCCESS;
    return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "the allocator gave no memory for %zu bytes", bytes);
  }
  cudaError_t e = cudaMallocAsync(p, bytes, s);
  if (e != cudaSuccess) {
    *p = NULL;
    (void)cudaGetLastError(); /* so a later launch check does not report this failure again */
  }
  return gcol_from_cuda(e);
}

int gcol_device_try_alloc(const gcol_allocator_t *a, void **p, size_t bytes, cudaStream_t s) {
  char message[GCOL_MESSAGE_BYTES];
  const int cuda_error = gcol_tls_cuda_error;
  memcpy(message, gcol_tls_message, sizeof message);
  if (gcol_device_alloc(a, p, bytes, s) == GCOL_SUCCESS) return 1;
  memcpy(gcol_tls_message, message, sizeof message);
  gcol_tls_cuda_error = cuda_error;
  return 0;
}

cudaError_t gcol_device_free(const gcol_allocator_t *a, void *p, size_t bytes, cudaStream_t s) {
  if (!p) return cudaSuccess;
  if (!a->free) return cudaFreeAsync(p, s);
  a->free(a->ctx, p, bytes, s);
  return cudaSuccess;
}
