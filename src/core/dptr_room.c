/* gcol_check_dptr_room: the allocation's extent from cuMemGetAddressRange,
 * reached through the runtime's entry-point query so that libgcol needs no
 * -lcuda at link time. */
#include "dptr_room.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "error.h"

typedef int (*range_fn_t)(unsigned long long *base, size_t *size, unsigned long long p); /* CUresult, CUdeviceptr */

static range_fn_t range_fn(void) {
  static _Atomic(range_fn_t) fn = NULL;
  static atomic_int tried = 0;
  range_fn_t f = atomic_load(&fn);
  if (f || atomic_load(&tried)) return f;
  void *p = NULL;
  enum cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &p, 12000, cudaEnableDefault, &q) == cudaSuccess &&
      q == cudaDriverEntryPointSuccess)
    memcpy(&f, &p, sizeof f); /* ISO C has no cast from void * to a function pointer */
  (void)cudaGetLastError();
  atomic_store(&fn, f);
  atomic_store(&tried, 1);
  return f;
}

gcol_status_t gcol_check_dptr_room(const char *name, const void *p, size_t bytes, const char *what) {
  range_fn_t f = range_fn();
  unsigned long long base = 0;
  size_t size = 0;
  if (!f || bytes == 0 || f(&base, &size, (unsigned long long)(uintptr_t)p) != 0) return GCOL_SUCCESS;
  size_t room = (size_t)(base + size - (unsigned long long)(uintptr_t)p);
  if (room >= bytes) return GCOL_SUCCESS;
  return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "%s %p has %zu bytes to the end of its allocation; the call writes %zu (%s)",
                   name, p, room, bytes, what);
}
