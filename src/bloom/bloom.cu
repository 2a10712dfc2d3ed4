/* Host API of the Bloom filter: argument checks, the object, dispatch to
 * bloom_kernels.cuh. */
#include <stdlib.h>
#include "core/api_scope.h"
#include "core/args.h"
#include "core/common.h"
#include "core/device_alloc.h"
#include "core/grid_fill.cuh"
#include "core/test_hooks.h"
#include "bloom_internal.h"
#include "bloom_kernels.cuh"

#define GCOL_BLOOM_MAGIC 0x6d6f6c42u /* a live filter; 0 once destroyed */

struct gcol_bloom {
  uint32_t magic;
  gcol_bloom_config_t cfg;
  gcol_bloom_view_t v;   /* what the kernels see */
  size_t bytes;
  int num_sms;
  cudaStream_t last;     /* destroy frees on it */
};

using gcol::detail::api_scope;
using gcol::detail::grid_fill;

namespace {

constexpr int kBlock = 256;

gcol_status_t check_bloom(const gcol_bloom *b) {
  return gcol_check_handle(b, b ? b->magic : 0, GCOL_BLOOM_MAGIC, "gcol_bloom_t");
}

gcol_status_t check_keys(const gcol_bloom *b, const void *keys, size_t n, const uint8_t *out) {
  gcol_dptr_t a[] = {{"d_keys", keys, n, (size_t)b->v.key_bytes, gcol_type_words(b->cfg.key_type, GCOL_WORD_KEYS)},
                     gcol_flags_arg("d_found_out", out, out ? n : 0)};
  return gcol_check_dptrs(a, out ? 2 : 1);
}

template <int T>
struct tile_c {
  static constexpr int value = T;
};

/* f(key, tile) with the key type and the tile size as types: the policy's
 * tile Policy, or in the test and bench build the hook's (0: the policy's). */
template <int Policy, class F>
cudaError_t with_key_tile(const gcol_bloom *b, int hook, F f) {
  auto by_tile = [&](auto key) {
#ifdef GCOL_TESTING
    if (hook == 4) return f(key, tile_c<4>());
    if (hook == 2) return f(key, tile_c<2>());
    if (hook == 1) return f(key, tile_c<1>());
#else
    (void)hook;
#endif
    return f(key, tile_c<Policy>());
  };
  return b->v.key_bytes == 4 ? by_tile(uint32_t()) : by_tile(uint64_t());
}

/* Merge and intersect: same shape and seed, else a refusal. */
gcol_status_t combine(gcol_bloom *dst, const gcol_bloom *src, bool is_or, cudaStream_t s) {
  GCOL_TRY(check_bloom(dst));
  GCOL_TRY(check_bloom(src));
  if (dst->v.num_blocks != src->v.num_blocks)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "dst has %llu blocks and src %llu: filters must be the same size",
                     (unsigned long long)dst->v.num_blocks, (unsigned long long)src->v.num_blocks);
  if (dst->v.seed != src->v.seed)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "dst has seed 0x%llx and src 0x%llx: filters must share the seed",
                     (unsigned long long)dst->v.seed, (unsigned long long)src->v.seed);
  if (dst->v.key_bytes != src->v.key_bytes)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "dst holds %d-byte keys and src %d-byte keys", dst->v.key_bytes,
                     src->v.key_bytes);
  GCOL_TRY(gcol_require_device());
  dst->last = s;
  if (dst == src) return GCOL_SUCCESS; /* x | x == x & x == x */
  size_t pairs = (size_t)dst->v.num_blocks * 2; /* 16-byte pairs of words */
  auto k = is_or ? gcol::detail::bloom_combine_kernel<true> : gcol::detail::bloom_combine_kernel<false>;
  k<<<grid_fill(k, kBlock, dst->num_sms, pairs), kBlock, 0, s>>>(
      reinterpret_cast<ulonglong2 *>(dst->v.words), reinterpret_cast<const ulonglong2 *>(src->v.words), pairs);
  return gcol_from_cuda(cudaGetLastError());
}

}  // namespace

extern "C" {

gcol_status_t gcol_bloom_create(gcol_bloom_t **out, const gcol_bloom_config_t *cfg, cudaStream_t s) {
  api_scope r("gcol_bloom_create");
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "bloom (the output handle) is NULL");
  *out = NULL;
  gcol_bloom_config_t c;
  uint64_t blocks = 0;
  GCOL_TRY(gcol_bloom_config_take(cfg, &c, &blocks));
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  gcol_bloom *b = (gcol_bloom *)calloc(1, sizeof *b);
  if (!b) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the filter object");
  b->cfg = c;
  b->bytes = (size_t)blocks * GCOL_BLOOM_BLOCK_BYTES;
  b->num_sms = dev.num_sms;
  b->last = s;
  b->v.num_blocks = blocks;
  b->v.seed = c.seed;
  b->v.key_bytes = (int32_t)gcol_type_size(c.key_type);
  void *w = NULL;
  gcol_status_t st = gcol_device_alloc(&c.allocator, &w, b->bytes, s);
  if (st == GCOL_SUCCESS) st = gcol_from_cuda(cudaMemsetAsync(w, 0, b->bytes, s));
  if (st != GCOL_SUCCESS) {
    (void)gcol_device_free(&c.allocator, w, b->bytes, s);
    free(b);
    return st;
  }
  b->v.words = (uint64_t *)w;
  b->magic = GCOL_BLOOM_MAGIC;
  *out = b;
  return GCOL_SUCCESS;
}

void gcol_bloom_destroy(gcol_bloom_t *b) {
  if (!b || b->magic != GCOL_BLOOM_MAGIC) return;
  api_scope r("gcol_bloom_destroy");
  b->magic = 0;
  (void)gcol_device_free(&b->cfg.allocator, b->v.words, b->bytes, b->last); /* a failed free leaks */
  free(b);
}

gcol_status_t gcol_bloom_add(gcol_bloom_t *b, const void *d_keys, size_t n, cudaStream_t s) {
  api_scope r("gcol_bloom_add");
  GCOL_TRY(check_bloom(b));
  GCOL_TRY(check_keys(b, d_keys, n, NULL));
  b->last = s;
  if (n == 0) return GCOL_SUCCESS;
  const int hook = GCOL_HOOKS.bloom_add_tile;
  return gcol_from_cuda(with_key_tile<GCOL_BLOOM_ADD_TILE>(b, hook, [&](auto key, auto tile) {
    using K = decltype(key);
    constexpr int T = decltype(tile)::value;
    auto k = gcol::detail::bloom_add_kernel<K, T>;
    k<<<grid_fill(k, kBlock, b->num_sms, n), kBlock, 0, s>>>(b->v, (const K *)d_keys, n);
    return cudaGetLastError();
  }));
}

gcol_status_t gcol_bloom_contains(const gcol_bloom_t *b, const void *d_keys, size_t n, uint8_t *d_found_out,
                                  cudaStream_t s) {
  api_scope r("gcol_bloom_contains");
  GCOL_TRY(check_bloom(b));
  if (n && !d_found_out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "d_found_out is NULL (%zu keys)", n);
  GCOL_TRY(check_keys(b, d_keys, n, d_found_out));
  if (n == 0) return GCOL_SUCCESS;
  const int hook = GCOL_HOOKS.bloom_contains_tile;
  return gcol_from_cuda(with_key_tile<GCOL_BLOOM_CONTAINS_TILE>(b, hook, [&](auto key, auto tile) {
    using K = decltype(key);
    constexpr int T = decltype(tile)::value;
    auto k = gcol::detail::bloom_contains_kernel<K, T>;
    k<<<grid_fill(k, kBlock, b->num_sms, n * T), kBlock, 0, s>>>(b->v, (const K *)d_keys, n, d_found_out);
    return cudaGetLastError();
  }));
}

gcol_status_t gcol_bloom_clear(gcol_bloom_t *b, cudaStream_t s) {
  api_scope r("gcol_bloom_clear");
  GCOL_TRY(check_bloom(b));
  GCOL_TRY(gcol_require_device());
  b->last = s;
  return gcol_from_cuda(cudaMemsetAsync(b->v.words, 0, b->bytes, s));
}

gcol_status_t gcol_bloom_merge(gcol_bloom_t *dst, const gcol_bloom_t *src, cudaStream_t s) {
  api_scope r("gcol_bloom_merge");
  return combine(dst, src, true, s);
}

gcol_status_t gcol_bloom_intersect(gcol_bloom_t *dst, const gcol_bloom_t *src, cudaStream_t s) {
  api_scope r("gcol_bloom_intersect");
  return combine(dst, src, false, s);
}

gcol_status_t gcol_bloom_bits(const gcol_bloom_t *b, size_t *out) {
  api_scope r("gcol_bloom_bits");
  GCOL_TRY(check_bloom(b));
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_bits_out is NULL");
  *out = b->bytes * 8;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_bloom_size(const gcol_bloom_t *b, size_t *out) {
  api_scope r("gcol_bloom_size");
  GCOL_TRY(check_bloom(b));
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_bytes_out is NULL");
  *out = b->bytes;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_bloom_export_size(const gcol_bloom_t *b, size_t *out) {
  api_scope r("gcol_bloom_export_size");
  GCOL_TRY(check_bloom(b));
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_bytes_out is NULL");
  *out = GCOL_BLOOM_HEADER_BYTES + b->bytes;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_bloom_export(const gcol_bloom_t *b, void *bytes, size_t capacity, size_t *len_out,
                                cudaStream_t s) {
  api_scope r("gcol_bloom_export");
  GCOL_TRY(check_bloom(b));
  size_t want = GCOL_BLOOM_HEADER_BYTES + b->bytes;
  if (!bytes) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "h_bytes is NULL");
  if (capacity < want)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "capacity %zu is less than the %zu bytes of the filter", capacity,
                     want);
  GCOL_TRY(gcol_require_device());
  uint8_t *o = (uint8_t *)bytes;
  GCOL_CUDA_TRY(cudaMemcpyAsync(o + GCOL_BLOOM_HEADER_BYTES, b->v.words, b->bytes, cudaMemcpyDeviceToHost, s));
  GCOL_CUDA_TRY(cudaStreamSynchronize(s));
  gcol_bloom_encode_header(b->v.num_blocks, b->v.seed, b->v.key_bytes, o); /* last: only a whole export is one */
  if (len_out) *len_out = want;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_bloom_import(gcol_bloom_t *b, const void *bytes, size_t len, cudaStream_t s) {
  api_scope r("gcol_bloom_import");
  GCOL_TRY(check_bloom(b));
  GCOL_TRY(gcol_bloom_check_bytes(bytes, len, b->v.num_blocks, b->v.seed, b->v.key_bytes));
  GCOL_TRY(gcol_require_device());
  b->last = s;
  const uint8_t *in = (const uint8_t *)bytes + GCOL_BLOOM_HEADER_BYTES;
  GCOL_CUDA_TRY(cudaMemcpyAsync(b->v.words, in, b->bytes, cudaMemcpyHostToDevice, s));
  /* pinned bytes are read by the copy engine after return: finish before the caller reuses them */
  GCOL_CUDA_TRY(cudaStreamSynchronize(s));
  return GCOL_SUCCESS;
}

gcol_status_t gcol_bloom_device_view(const gcol_bloom_t *b, gcol_bloom_view_t *out) {
  api_scope r("gcol_bloom_device_view");
  GCOL_TRY(check_bloom(b));
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "view_out is NULL");
  *out = b->v;
  return GCOL_SUCCESS;
}

}  // extern "C"
