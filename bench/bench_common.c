#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "bench_common.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void bench_check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "bench: %s failed: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
double bench_median(double *x, int n) {
  qsort(x, (size_t)n, sizeof *x, cmp_double);
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

void bench_timer_init(bench_timer_t *t) {
  BENCH_CUDA(cudaEventCreate(&t->a));
  BENCH_CUDA(cudaEventCreate(&t->b));
}
void bench_timer_start(bench_timer_t *t, cudaStream_t s) { BENCH_CUDA(cudaEventRecord(t->a, s)); }
double bench_timer_stop_ms(bench_timer_t *t, cudaStream_t s) {
  float ms = 0;
  BENCH_CUDA(cudaEventRecord(t->b, s));
  BENCH_CUDA(cudaEventSynchronize(t->b));
  BENCH_CUDA(cudaEventElapsedTime(&ms, t->a, t->b));
  return ms;
}

size_t bench_size(const char *env, size_t dflt) {
  const char *v = getenv(env);
  return v ? (size_t)strtoull(v, NULL, 10) : dflt;
}

int bench_init(bench_gpu_t *g) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    printf("no CUDA device: benchmarks need a GPU\n");
    return 1;
  }
  struct cudaDeviceProp p;
  BENCH_CUDA(cudaGetDeviceProperties(&p, 0));
  memset(g, 0, sizeof *g);
  snprintf(g->name, sizeof g->name, "%s", p.name);
  g->cc_major = p.major, g->cc_minor = p.minor, g->num_sms = p.multiProcessorCount;
  /* 2 GiB copied device to device, median of 7, after a warm-up */
  size_t bytes = (size_t)2 << 30;
  void *a = NULL, *b = NULL;
  BENCH_CUDA(cudaMalloc(&a, bytes));
  BENCH_CUDA(cudaMalloc(&b, bytes));
  BENCH_CUDA(cudaMemset(a, 1, bytes));
  bench_timer_t t;
  bench_timer_init(&t);
  double ms[7];
  BENCH_CUDA(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
  for (int i = 0; i < 7; ++i) {
    bench_timer_start(&t, 0);
    BENCH_CUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0));
    ms[i] = bench_timer_stop_ms(&t, 0);
  }
  g->copy_gbs = 2.0 * (double)bytes / (bench_median(ms, 7) * 1e-3) / 1e9;
  BENCH_CUDA(cudaFree(a));
  BENCH_CUDA(cudaFree(b));
  printf("GPU: %s (sm_%d%d, %d SMs), device-to-device copy %.0f GB/s (read + write)\n", g->name, g->cc_major,
         g->cc_minor, g->num_sms, g->copy_gbs);
  return 0;
}

unsigned bench_full_grid(const bench_gpu_t *g, const void *kernel, int block_threads) {
  int per_sm = 0;
  BENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_threads, 0));
  return (unsigned)(per_sm * g->num_sms);
}

uint64_t bench_mix64(uint64_t x) {
  x ^= x >> 33, x *= 0xff51afd7ed558ccdULL, x ^= x >> 33, x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

double bench_wall_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

void *bench_unique_keys(size_t n, size_t kb, uint64_t off) {
  uint8_t *h = malloc(n * kb + 1);
  if (!h) bench_check(cudaErrorMemoryAllocation, "host keys");
  uint64_t i = off;
  for (size_t j = 0; j < n; ++i) {
    uint64_t k = bench_mix64(i);
    if (kb == 4) {
      /* 32-bit keys: a bijection of the 32-bit index keeps them distinct */
      uint32_t x = (uint32_t)i;
      x ^= x >> 16, x *= 0x85ebca6bu, x ^= x >> 13, x *= 0xc2b2ae35u, x ^= x >> 16;
      if (x >= 0xfffffffeu) continue;
      ((uint32_t *)h)[j++] = x;
    } else {
      if (k >= ~0ULL - 1) continue;
      ((uint64_t *)h)[j++] = k;
    }
  }
  void *d = NULL;
  BENCH_CUDA(cudaMalloc(&d, n * kb + 1));
  BENCH_CUDA(cudaMemcpy(d, h, n * kb, cudaMemcpyHostToDevice));
  free(h);
  return d;
}

uint64_t bench_pool_keep(int device, uint64_t bytes) {
  cudaMemPool_t pool;
  uint64_t old = 0; /* cuuint64_t */
  BENCH_CUDA(cudaDeviceGetDefaultMemPool(&pool, device));
  BENCH_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &old));
  BENCH_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &bytes));
  if (bytes < old) {
    BENCH_CUDA(cudaDeviceSynchronize());
    BENCH_CUDA(cudaMemPoolTrimTo(pool, (size_t)bytes));
  }
  return old;
}

void bench_ok(gcol_status_t s, const char *what) {
  if (s != GCOL_SUCCESS) {
    fprintf(stderr, "bench: %s: %s\n", what, gcol_status_string(s));
    exit(1);
  }
}
