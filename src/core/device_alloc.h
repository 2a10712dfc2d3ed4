/* Device memory of every container: the config's gcol_allocator_t, or
 * cudaMallocAsync / cudaFreeAsync when it is zeroed. */
#ifndef GCOL_SRC_CORE_DEVICE_ALLOC_H
#define GCOL_SRC_CORE_DEVICE_ALLOC_H

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *p = bytes of device memory usable on s (NULL for bytes == 0, which
 * succeeds). GCOL_ERROR_OUT_OF_MEMORY when the allocator gives NULL. */
gcol_status_t gcol_device_alloc(const gcol_allocator_t *a, void **p, size_t bytes, cudaStream_t s);

/* gcol_device_alloc for memory a call can do without (scratch it has a
 * slower way around): 1 on success; else 0, *p NULL, and this thread's
 * message and CUDA error as they were, since the call may still succeed and
 * calls that succeed leave them alone (gcol.h). */
int gcol_device_try_alloc(const gcol_allocator_t *a, void **p, size_t bytes, cudaStream_t s);

/* Give back what gcol_device_alloc gave (NULL is a no-op), stream-ordered on
 * s. The error of cudaFreeAsync (a user allocator's free cannot fail). */
cudaError_t gcol_device_free(const gcol_allocator_t *a, void *p, size_t bytes, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
