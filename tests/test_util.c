#include "test_util.h"
#include <cuda_runtime_api.h>
#include <string.h>

/* murmur3's finalizers are bijections; their inverses undo each step. */
static uint64_t inv64(uint64_t a) { /* inverse of an odd number mod 2^64 (Newton) */
  uint64_t x = a;
  for (int i = 0; i < 6; ++i) x *= 2 - a * x;
  return x;
}
static uint32_t inv32(uint32_t a) {
  uint32_t x = a;
  for (int i = 0; i < 5; ++i) x *= 2 - a * x;
  return x;
}
static uint64_t unshift64(uint64_t x, int s) { /* inverse of x ^= x >> s */
  uint64_t r = x;
  for (int i = s; i < 64; i += s) r = x ^ (r >> s);
  return r;
}
static uint32_t unshift32(uint32_t x, int s) {
  uint32_t r = x;
  for (int i = s; i < 32; i += s) r = x ^ (r >> s);
  return r;
}

uint64_t tu_mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}
uint64_t tu_unmix64(uint64_t x) {
  x = unshift64(x, 33);
  x *= inv64(0xc4ceb9fe1a85ec53ULL);
  x = unshift64(x, 33);
  x *= inv64(0xff51afd7ed558ccdULL);
  return unshift64(x, 33);
}
uint32_t tu_mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  x ^= x >> 16;
  return x;
}
uint32_t tu_unmix32(uint32_t x) {
  x = unshift32(x, 16);
  x *= inv32(0xc2b2ae35u);
  x = unshift32(x, 13);
  x *= inv32(0x85ebca6bu);
  return unshift32(x, 16);
}

uint64_t tu_key(uint64_t offset, uint64_t i, size_t key_bytes) {
  return key_bytes == 4 ? tu_mix32((uint32_t)(offset + i)) : tu_mix64(offset + i);
}
uint64_t tu_key_index(uint64_t offset, uint64_t key, size_t key_bytes) {
  return key_bytes == 4 ? (uint32_t)(tu_unmix32((uint32_t)key) - (uint32_t)offset) : tu_unmix64(key) - offset;
}

void tu_unique_keys(void *keys, size_t key_bytes, size_t n, uint64_t offset, uint64_t *span) {
  uint64_t ones = key_bytes == 4 ? 0xffffffffULL : ~0ULL, i = 0;
  for (size_t j = 0; j < n; ++i) {
    uint64_t k = tu_key(offset, i, key_bytes);
    if (k == ones || k == ones - 1) continue;
    tu_put(keys, j++, key_bytes, k);
  }
  if (span) *span = i;
}

uint64_t tu_value(uint64_t key, uint64_t salt, size_t value_bytes) {
  uint64_t v = tu_mix64(key * 0x9e3779b97f4a7c15ULL + salt);
  return value_bytes == 4 ? (uint32_t)v : v;
}

uint64_t tu_get(const void *a, size_t i, size_t bytes) {
  return bytes == 4 ? ((const uint32_t *)a)[i] : ((const uint64_t *)a)[i];
}
void tu_put(void *a, size_t i, size_t bytes, uint64_t v) {
  if (bytes == 4) ((uint32_t *)a)[i] = (uint32_t)v;
  else ((uint64_t *)a)[i] = v;
}

void *tu_to_device(const void *h, size_t bytes) {
  void *d = NULL;
  if (cudaMalloc(&d, bytes ? bytes : 1) != cudaSuccess) return NULL;
  /* tu_to_device and tu_poisoned end with the device idle: a pageable upload
   * may still be in flight when cudaMemcpy returns, and cudaMemset runs on
   * the legacy stream; a test's non-blocking streams wait for neither. */
  if ((bytes && cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice) != cudaSuccess) || cudaDeviceSynchronize() != cudaSuccess) {
    cudaFree(d);
    return NULL;
  }
  return d;
}
void *tu_poisoned(size_t bytes) {
  void *d = NULL;
  if (cudaMalloc(&d, bytes ? bytes : 1) != cudaSuccess) return NULL;
  if (cudaMemset(d, 0xA5, bytes ? bytes : 1) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
    cudaFree(d);
    return NULL;
  }
  return d;
}
int tu_to_host(void *h, const void *d, size_t bytes) {
  /* after all work on the device: the copy's legacy stream would not wait
   * for a test's non-blocking streams */
  return bytes && (cudaDeviceSynchronize() != cudaSuccess || cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost) != cudaSuccess);
}
size_t tu_read_size(const size_t *d) {
  size_t x = (size_t)-1;
  cudaMemcpy(&x, d, sizeof x, cudaMemcpyDeviceToHost);
  return x;
}

void tu_free(void *d) {
  if (d) cudaFree(d);
}

uint64_t tu_next(tu_rng_t *r) {
  r->s ^= r->s << 13;
  r->s ^= r->s >> 7;
  r->s ^= r->s << 17;
  return r->s;
}

double tu_bits_to_double(gcol_type_t t, uint64_t bits) {
  if (t == GCOL_F32) {
    float f;
    uint32_t u = (uint32_t)bits;
    memcpy(&f, &u, 4);
    return f;
  }
  double d;
  memcpy(&d, &bits, 8);
  return d;
}

uint64_t tu_double_to_bits(gcol_type_t t, double x) {
  if (t == GCOL_F32) {
    float f = (float)x;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
  }
  uint64_t u;
  memcpy(&u, &x, 8);
  return u;
}
