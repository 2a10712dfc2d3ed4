/* Host API of the HyperLogLog sketch: argument checks, the object, dispatch
 * to hll_kernels.cuh; the estimate and the byte format are hll_estimate.c's. */
#include <stdlib.h>
#include "core/api_scope.h"
#include "core/args.h"
#include "core/common.h"
#include "core/device_alloc.h"
#include "core/grid_fill.cuh"
#include "core/test_hooks.h"
#include "hll_internal.h"
#include "hll_kernels.cuh"

#define GCOL_HLL_MAGIC 0x6c6c4867u /* a live sketch; 0 once destroyed */

struct gcol_hll {
  uint32_t magic;
  gcol_hll_config_t cfg;
  gcol_hll_view_t v;
  size_t m;              /* registers */
  int num_sms;
  cudaStream_t last;
};

using gcol::detail::api_scope;
using gcol::detail::grid_fill;

namespace {

gcol_status_t check_hll(const gcol_hll *h) {
  return gcol_check_handle(h, h ? h->magic : 0, GCOL_HLL_MAGIC, "gcol_hll_t");
}

template <int P, int CANON, class T, bool AT_ONCE>
cudaError_t launch_add_as(const gcol_hll *h, const void *items, size_t n, cudaStream_t s) {
  auto k = gcol::detail::hll_add_kernel<P, CANON, T, AT_ONCE>;
  size_t smem = gcol::detail::hll_layout<P, AT_ONCE>::bytes;
  cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  if (e != cudaSuccess) return e;
  constexpr int unroll = gcol::detail::hll_unroll<T>();
  size_t threads = (n + unroll - 1) / unroll;
  unsigned grid = grid_fill(k, gcol::detail::kHllBlock, h->num_sms, threads, smem);
  k<<<grid, gcol::detail::kHllBlock, smem, s>>>(h->v, (const T *)items, n);
  return cudaGetLastError();
}

/* The tuning's overflow form (kHllOverflowAtOnce), or in test builds the
 * hll_overflow hook's for the precisions with fields. */
template <int P, int CANON, class T>
cudaError_t launch_add(const gcol_hll *h, const void *items, size_t n, cudaStream_t s) {
#ifdef GCOL_TESTING
  if constexpr (P > gcol::detail::kHllWordFieldsMaxPrecision) {
    const bool at_once = GCOL_HOOKS.hll_overflow ? GCOL_HOOKS.hll_overflow == 2 : gcol::detail::kHllOverflowAtOnce;
    return at_once ? launch_add_as<P, CANON, T, true>(h, items, n, s) : launch_add_as<P, CANON, T, false>(h, items, n, s);
  }
#endif
  return launch_add_as<P, CANON, T, gcol::detail::kHllOverflowAtOnce>(h, items, n, s);
}

template <int P>
struct precision_c {
  static constexpr int value = P;
};

/* f(precision_c<P>()) for the sketch's precision (4..18). */
template <class F>
cudaError_t with_precision(int p, F f) {
  switch (p) {
    case 4: return f(precision_c<4>());
    case 5: return f(precision_c<5>());
    case 6: return f(precision_c<6>());
    case 7: return f(precision_c<7>());
    case 8: return f(precision_c<8>());
    case 9: return f(precision_c<9>());
    case 10: return f(precision_c<10>());
    case 11: return f(precision_c<11>());
    case 12: return f(precision_c<12>());
    case 13: return f(precision_c<13>());
    case 14: return f(precision_c<14>());
    case 15: return f(precision_c<15>());
    case 16: return f(precision_c<16>());
    case 17: return f(precision_c<17>());
    default: return f(precision_c<18>());
  }
}

/* Checks common to add and add_raw; then the launch. */
gcol_status_t add_items(gcol_hll *h, const void *items, size_t n, size_t bytes, int canon, const char *what,
                        cudaStream_t s) {
  gcol_dptr_t a[] = {{"d_items", items, n, bytes, what}};
  GCOL_TRY(gcol_check_dptrs(a, 1));
  h->last = s;
  if (n == 0) return GCOL_SUCCESS;
  cudaError_t e = with_precision(h->v.precision, [&](auto pc) {
    constexpr int P = decltype(pc)::value;
    if (canon == 1) return launch_add<P, 1, uint32_t>(h, items, n, s);
    if (canon == 2) return launch_add<P, 2, uint64_t>(h, items, n, s);
    return bytes == 4 ? launch_add<P, 0, uint32_t>(h, items, n, s) : launch_add<P, 0, uint64_t>(h, items, n, s);
  });
  return gcol_from_cuda(e);
}

gcol_status_t same_shape(const gcol_hll *dst, const gcol_hll *src) {
  if (dst->v.precision != src->v.precision)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "dst has precision %d and src %d: sketches must match",
                     dst->v.precision, src->v.precision);
  if (dst->v.seed != src->v.seed)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "dst has seed 0x%llx and src 0x%llx: sketches must share the seed",
                     (unsigned long long)dst->v.seed, (unsigned long long)src->v.seed);
  return GCOL_SUCCESS;
}

gcol_status_t launch_max(gcol_hll *dst, const uint32_t *src, cudaStream_t s) {
  auto k = gcol::detail::hll_max_kernel;
  k<<<grid_fill(k, gcol::detail::kHllMergeBlock, dst->num_sms, dst->m), gcol::detail::kHllMergeBlock, 0, s>>>(dst->v.registers, src, dst->m);
  return gcol_from_cuda(cudaGetLastError());
}

/* The registers on the host (synchronizes s). */
/* The registers on the host, malloc'd (no std::vector: its instantiations
 * would be exported from libgcol.so, which must export the API alone). */
struct host_registers {
  uint32_t *p;
  explicit host_registers(size_t m) : p((uint32_t *)malloc(m * sizeof(uint32_t))) {}
  ~host_registers() { free(p); }
  host_registers(const host_registers &) = delete;
  host_registers &operator=(const host_registers &) = delete;
  uint32_t *data() const { return p; }
};

gcol_status_t no_host_memory(const host_registers &r) {
  return r.p ? GCOL_SUCCESS : gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the registers");
}

gcol_status_t read_registers(const gcol_hll *h, const host_registers &reg, cudaStream_t s) {
  GCOL_TRY(no_host_memory(reg));
  GCOL_CUDA_TRY(cudaMemcpyAsync(reg.data(), h->v.registers, h->m * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
  GCOL_CUDA_TRY(cudaStreamSynchronize(s));
  return GCOL_SUCCESS;
}

gcol_status_t import_bytes(gcol_hll *h, const void *bytes, size_t len, bool merge, cudaStream_t s) {
  GCOL_TRY(check_hll(h));
  host_registers reg(h->m);
  GCOL_TRY(no_host_memory(reg));
  GCOL_TRY(gcol_hll_decode(bytes, len, h->v.precision, h->v.seed, reg.data()));
  GCOL_TRY(gcol_require_device());
  h->last = s;
  size_t b = h->m * sizeof(uint32_t);
  /* pageable source: the copy is staged before cudaMemcpyAsync returns */
  if (!merge) return gcol_from_cuda(cudaMemcpyAsync(h->v.registers, reg.data(), b, cudaMemcpyHostToDevice, s));
  void *tmp = NULL;
  GCOL_TRY(gcol_device_alloc(&h->cfg.allocator, &tmp, b, s));
  gcol_status_t st = gcol_from_cuda(cudaMemcpyAsync(tmp, reg.data(), b, cudaMemcpyHostToDevice, s));
  if (st == GCOL_SUCCESS) st = launch_max(h, (const uint32_t *)tmp, s);
  cudaError_t fe = gcol_device_free(&h->cfg.allocator, tmp, b, s);
  return st != GCOL_SUCCESS ? st : gcol_from_cuda(fe);
}

}  // namespace

extern "C" {

gcol_status_t gcol_hll_create(gcol_hll_t **out, const gcol_hll_config_t *cfg, cudaStream_t s) {
  api_scope r("gcol_hll_create");
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "hll (the output handle) is NULL");
  *out = NULL;
  gcol_hll_config_t c;
  GCOL_TRY(gcol_hll_config_take(cfg, &c));
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  gcol_hll *h = (gcol_hll *)calloc(1, sizeof *h);
  if (!h) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the sketch object");
  h->cfg = c;
  h->m = (size_t)1 << c.precision;
  h->num_sms = dev.num_sms;
  h->last = s;
  h->v.precision = c.precision;
  h->v.seed = c.seed;
  void *reg = NULL;
  size_t b = h->m * sizeof(uint32_t);
  gcol_status_t st = gcol_device_alloc(&c.allocator, &reg, b, s);
  if (st == GCOL_SUCCESS) st = gcol_from_cuda(cudaMemsetAsync(reg, 0, b, s));
  if (st != GCOL_SUCCESS) {
    (void)gcol_device_free(&c.allocator, reg, b, s);
    free(h);
    return st;
  }
  h->v.registers = (uint32_t *)reg;
  h->magic = GCOL_HLL_MAGIC;
  *out = h;
  return GCOL_SUCCESS;
}

void gcol_hll_destroy(gcol_hll_t *h) {
  if (!h || h->magic != GCOL_HLL_MAGIC) return;
  api_scope r("gcol_hll_destroy");
  h->magic = 0;
  (void)gcol_device_free(&h->cfg.allocator, h->v.registers, h->m * sizeof(uint32_t), h->last);
  free(h);
}

gcol_status_t gcol_hll_add(gcol_hll_t *h, const void *d_items, size_t n, gcol_type_t t, cudaStream_t s) {
  api_scope r("gcol_hll_add");
  GCOL_TRY(check_hll(h));
  size_t bytes = gcol_type_size(t);
  if (bytes == 0) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "t (%d) is not a gcol_type_t", (int)t);
  if (t == GCOL_U128) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "t is GCOL_U128, a key type only: HyperLogLog items are 4 or 8 bytes");
  int canon = t == GCOL_F32 ? 1 : t == GCOL_F64 ? 2 : 0;
  return add_items(h, d_items, n, bytes, canon, gcol_type_words(t, GCOL_WORD_ITEMS), s);
}

gcol_status_t gcol_hll_add_raw(gcol_hll_t *h, const void *d_items, size_t n, size_t item_bytes, cudaStream_t s) {
  api_scope r("gcol_hll_add_raw");
  GCOL_TRY(check_hll(h));
  if (item_bytes != 4 && item_bytes != 8)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "item_bytes %zu is not 4 or 8", item_bytes);
  return add_items(h, d_items, n, item_bytes, 0, item_bytes == 4 ? "4-byte items" : "8-byte items", s);
}

gcol_status_t gcol_hll_merge(gcol_hll_t *dst, const gcol_hll_t *src, cudaStream_t s) {
  api_scope r("gcol_hll_merge");
  GCOL_TRY(check_hll(dst));
  GCOL_TRY(check_hll(src));
  GCOL_TRY(same_shape(dst, src));
  GCOL_TRY(gcol_require_device());
  dst->last = s;
  if (dst == src) return GCOL_SUCCESS;
  return launch_max(dst, src->v.registers, s);
}

gcol_status_t gcol_hll_estimate(const gcol_hll_t *h, double *out, cudaStream_t s) {
  api_scope r("gcol_hll_estimate");
  GCOL_TRY(check_hll(h));
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_estimate_out is NULL");
  GCOL_TRY(gcol_require_device());
  host_registers reg(h->m);
  GCOL_TRY(read_registers(h, reg, s));
  *out = gcol_hll_estimate_registers(reg.data(), h->v.precision);
  return GCOL_SUCCESS;
}

gcol_status_t gcol_hll_clear(gcol_hll_t *h, cudaStream_t s) {
  api_scope r("gcol_hll_clear");
  GCOL_TRY(check_hll(h));
  GCOL_TRY(gcol_require_device());
  h->last = s;
  return gcol_from_cuda(cudaMemsetAsync(h->v.registers, 0, h->m * sizeof(uint32_t), s));
}

gcol_status_t gcol_hll_export_size(const gcol_hll_t *h, size_t *out) {
  api_scope r("gcol_hll_export_size");
  GCOL_TRY(check_hll(h));
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_bytes_out is NULL");
  *out = GCOL_HLL_HEADER_BYTES + h->m;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_hll_export(const gcol_hll_t *h, void *bytes, size_t capacity, size_t *len_out, cudaStream_t s) {
  api_scope r("gcol_hll_export");
  GCOL_TRY(check_hll(h));
  size_t want = GCOL_HLL_HEADER_BYTES + h->m;
  if (!bytes) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_bytes is NULL");
  if (capacity < want)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "capacity %zu is less than the %zu bytes of the sketch", capacity,
                     want);
  GCOL_TRY(gcol_require_device());
  host_registers reg(h->m);
  GCOL_TRY(read_registers(h, reg, s));
  gcol_hll_encode(reg.data(), h->v.precision, h->v.seed, (uint8_t *)bytes);
  if (len_out) *len_out = want;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_hll_import(gcol_hll_t *h, const void *bytes, size_t len, cudaStream_t s) {
  api_scope r("gcol_hll_import");
  return import_bytes(h, bytes, len, false, s);
}

gcol_status_t gcol_hll_import_merge(gcol_hll_t *h, const void *bytes, size_t len, cudaStream_t s) {
  api_scope r("gcol_hll_import_merge");
  return import_bytes(h, bytes, len, true, s);
}

gcol_status_t gcol_hll_precision(const gcol_hll_t *h, int *out) {
  api_scope r("gcol_hll_precision");
  GCOL_TRY(check_hll(h));
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_precision_out is NULL");
  *out = h->v.precision;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_hll_device_view(const gcol_hll_t *h, gcol_hll_view_t *out) {
  api_scope r("gcol_hll_device_view");
  GCOL_TRY(check_hll(h));
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "view_out is NULL");
  *out = h->v;
  return GCOL_SUCCESS;
}

}  // extern "C"
