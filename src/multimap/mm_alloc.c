#include "mm_alloc.h"
#include "core/common.h"

gcol_status_t gcol_mm_alloc(const gcol_allocator_t *a, void **p, size_t bytes, cudaStream_t s) {
  *p = NULL;
  if (bytes == 0) return GCOL_SUCCESS;
  if (a->alloc) {
    *p = a->alloc(a->ctx, bytes, s);
    return *p ? GCOL_SUCCESS : GCOL_ERROR_OUT_OF_MEMORY;
  }
  cudaError_t e = cudaMallocAsync(p, bytes, s);
  if (e != cudaSuccess) {
    *p = NULL;
    (void)cudaGetLastError(); /* so a later launch check does not report this failure again */
  }
  return gcol_from_cuda(e);
}

void gcol_mm_free(const gcol_allocator_t *a, void *p, size_t bytes, cudaStream_t s) {
  if (!p) return;
  if (a->free) a->free(a->ctx, p, bytes, s);
  else (void)cudaFreeAsync(p, s); /* a void destroy has no status to return */
}
