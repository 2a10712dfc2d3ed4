/* Device-pointer checks (see args.h). The accessibility test asks the
 * driver what a pointer is (cudaPointerGetAttributes, a host-side table
 * look-up, no device work). */
#include <stdint.h>
#include "args.h"
#include "common.h"
#include "error.h"

gcol_status_t gcol_check_dptrs_host(const gcol_dptr_t *a, size_t k) {
  for (size_t i = 0; i < k; ++i) {
    if (a[i].count == 0) continue;
    if (!a[i].p) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL (%zu %s)", a[i].name, a[i].count, a[i].what);
    if ((uintptr_t)a[i].p & (a[i].align - 1))
      return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "%s %p is not %zu-byte aligned (%s)", a[i].name, a[i].p,
                       a[i].align, a[i].what);
  }
  return GCOL_SUCCESS;
}

/* Whether kernels of the current device may read pageable host memory
 * (HMM or ATS systems); asked once per thread and device. */
static int pageable_ok(int device) {
  static _Thread_local int known_device = -1, ok = 0;
  if (known_device != device) {
    int v = 0;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrPageableMemoryAccess, device) != cudaSuccess) v = 0;
    (void)cudaGetLastError();
    known_device = device;
    ok = v;
  }
  return ok;
}

gcol_status_t gcol_check_dptrs_device(const gcol_dptr_t *a, size_t k) {
  int device = -1;
  cudaError_t e = cudaGetDevice(&device);
  if (e != cudaSuccess) return gcol_from_cuda(e);
  return gcol_check_dptrs_on(a, k, device);
}

gcol_status_t gcol_check_dptrs_on(const gcol_dptr_t *a, size_t k, int device) {
  for (size_t i = 0; i < k; ++i) {
    if (a[i].count == 0) continue;
    struct cudaPointerAttributes at;
    if (cudaPointerGetAttributes(&at, a[i].p) != cudaSuccess) {
      (void)cudaGetLastError();
      return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "%s %p is not memory CUDA knows (%s)", a[i].name, a[i].p,
                       a[i].what);
    }
    switch (at.type) {
      case cudaMemoryTypeManaged: continue;
      case cudaMemoryTypeDevice:
        if (at.device == device) continue;
        return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "%s %p is memory of device %d, not of device %d (%s)",
                         a[i].name, a[i].p, at.device, device, a[i].what);
      case cudaMemoryTypeHost:
        if (at.devicePointer) continue;
        return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "%s %p is pinned host memory not mapped for the device (%s)",
                         a[i].name, a[i].p, a[i].what);
      default:
        if (pageable_ok(device)) continue;
        return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT,
                         "%s %p is host memory; device, managed or mapped pinned memory is required (%s)", a[i].name,
                         a[i].p, a[i].what);
    }
  }
  return GCOL_SUCCESS;
}

gcol_dptr_t gcol_count_arg(const char *name, const size_t *p) {
  gcol_dptr_t a = {name, p, p ? 1u : 0u, sizeof(size_t), "one size_t"};
  return a;
}

gcol_dptr_t gcol_flags_arg(const char *name, const uint8_t *p, size_t n) {
  gcol_dptr_t a = {name, p, n, 1, "uint8_t flags"};
  return a;
}

gcol_status_t gcol_check_handle(const void *h, uint32_t magic, uint32_t want, const char *type) {
  if (!h) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "the %s handle is NULL", type);
  if (magic != want)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "%p is not a live %s (destroyed, or another object)", h, type);
  return GCOL_SUCCESS;
}

const char *gcol_type_words(gcol_type_t t, gcol_word_t what) {
#define GCOL_WORDS_ROW(T) {#T " keys", #T " values", #T " items"}
  static const char *const rows[][3] = {GCOL_WORDS_ROW(GCOL_U32), GCOL_WORDS_ROW(GCOL_U64), GCOL_WORDS_ROW(GCOL_I32),
                                        GCOL_WORDS_ROW(GCOL_I64), GCOL_WORDS_ROW(GCOL_F32), GCOL_WORDS_ROW(GCOL_F64),
                                        GCOL_WORDS_ROW(GCOL_U128)};
#undef GCOL_WORDS_ROW
  _Static_assert(GCOL_U32 == 0 && GCOL_U128 == 6, "rows follow gcol_type_t");
  static const char *const unknown[3] = {"keys of an unknown gcol_type_t", "values of an unknown gcol_type_t",
                                         "items of an unknown gcol_type_t"};
  const int w = what == GCOL_WORD_VALUES ? 1 : what == GCOL_WORD_ITEMS ? 2 : 0;
  const unsigned i = (unsigned)t;
  return i < sizeof rows / sizeof rows[0] ? rows[i][w] : unknown[w];
}

gcol_status_t gcol_check_dptrs(const gcol_dptr_t *a, size_t k) {
  GCOL_TRY(gcol_check_dptrs_host(a, k));
  GCOL_TRY(gcol_require_device());
  return gcol_check_dptrs_device(a, k);
}
