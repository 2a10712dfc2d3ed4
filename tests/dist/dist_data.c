#include "dist_data.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "dist_model.h"

dd_rng_t dd_rng(uint64_t seed, uint64_t stream) {
  dd_rng_t r = {seed ^ (stream * 0xd1b54a32d192ed03ULL)};
  dd_next(&r);
  return r;
}

uint64_t dd_next(dd_rng_t *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t dd_below(dd_rng_t *r, uint64_t n) { return dd_next(r) % n; }

uint64_t dd_mask(size_t bytes) { return bytes == 4 ? 0xffffffffULL : ~0ULL; }

uint64_t dd_value(dd_rng_t *r, gcol_type_t t) {
  int32_t whole = (int32_t)dd_below(r, 1u << 21) - (1 << 20);
  if (whole == 0) whole = 1; /* keeps -0 and +0 (equal under <) out */
  if (t == GCOL_F32) {
    float f = (float)whole;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
  }
  if (t == GCOL_F64) {
    double f = (double)whole;
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
  }
  return dd_next(r) & dd_mask(gcol_type_size(t));
}

int dd_distinct_keys(uint64_t *out, size_t n, dd_rng_t *r, const gcol_map_config_t *cfg) {
  uint64_t mask = dd_mask(gcol_type_size(cfg->key_type));
  dm_model_t seen;
  if (dm_init(&seen, cfg->key_type, GCOL_U32, 0)) return -1;
  for (size_t i = 0; i < n;) {
    uint64_t k = dd_next(r) & mask;
    if (k == cfg->empty_key || k == cfg->erased_key) continue;
    int fresh = dm_insert(&seen, k, 0);
    if (fresh < 0) {
      dm_free(&seen);
      return -1;
    }
    if (fresh) out[i++] = k;
  }
  dm_free(&seen);
  return 0;
}

int dd_upload(void **d, const uint64_t *h, size_t n, size_t bytes) {
  *d = NULL;
  if (n == 0) return 0;
  unsigned char *packed = malloc(n * bytes);
  if (!packed) return -1;
  for (size_t i = 0; i < n; ++i) {
    if (bytes == 4) {
      uint32_t v = (uint32_t)h[i];
      memcpy(packed + i * 4, &v, 4);
    } else {
      memcpy(packed + i * 8, &h[i], 8);
    }
  }
  int bad = cudaMalloc(d, n * bytes) != cudaSuccess ||
            cudaMemcpy(*d, packed, n * bytes, cudaMemcpyHostToDevice) != cudaSuccess;
  free(packed);
  return bad ? -1 : 0;
}

int dd_download(uint64_t *h, const void *d, size_t n, size_t bytes) {
  if (n == 0) return 0;
  unsigned char *packed = malloc(n * bytes);
  if (!packed) return -1;
  int bad = cudaMemcpy(packed, d, n * bytes, cudaMemcpyDeviceToHost) != cudaSuccess;
  for (size_t i = 0; !bad && i < n; ++i) {
    if (bytes == 4) {
      uint32_t v;
      memcpy(&v, packed + i * 4, 4);
      h[i] = v;
    } else {
      memcpy(&h[i], packed + i * 8, 8);
    }
  }
  free(packed);
  return bad ? -1 : 0;
}

void *dd_poisoned(size_t bytes) {
  void *d = NULL;
  if (bytes == 0) bytes = 1;
  if (cudaMalloc(&d, bytes) != cudaSuccess) return NULL;
  if (cudaMemset(d, 0xAB, bytes) != cudaSuccess) {
    cudaFree(d);
    return NULL;
  }
  return d;
}

void dd_free(void *d) {
  if (d) cudaFree(d);
}
