/* Shared benchmark plumbing: the GPU's name, the device-to-device copy
 * bandwidth of this run (the ceiling every figure is compared with), event
 * timing, and medians. */
#ifndef GCOL_BENCH_COMMON_H
#define GCOL_BENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" { /* bench_common.c is C; bench_map_device.cu includes this */
#endif

typedef struct {
  char name[256];
  int cc_major, cc_minor, num_sms;
  double copy_gbs; /* bytes read + bytes written per second / 1e9, large D2D copy */
} bench_gpu_t;

/* 0 and a filled *g when a GPU is present (prints one header line); else
 * prints "no CUDA device" and returns 1. */
int bench_init(bench_gpu_t *g);

/* Blocks of block_threads that fill every SM of g once at the kernel's
 * occupancy (kernel: a __global__ function's address). */
unsigned bench_full_grid(const bench_gpu_t *g, const void *kernel, int block_threads);

/* Abort the benchmark with a message when a CUDA call fails. */
void bench_check(cudaError_t e, const char *what);
#define BENCH_CUDA(x) bench_check((x), #x)

typedef struct {
  cudaEvent_t a, b;
} bench_timer_t;
void bench_timer_init(bench_timer_t *t);
void bench_timer_start(bench_timer_t *t, cudaStream_t s);
double bench_timer_stop_ms(bench_timer_t *t, cudaStream_t s); /* waits for the stop event */

/* Median of n doubles (sorts in place). */
double bench_median(double *x, int n);

/* An environment override of a size (e.g. GCOL_BENCH_N), else the default. */
size_t bench_size(const char *env, size_t dflt);

/* The murmur3 64-bit finalizer (gcol's hash64 without a seed): a bijection,
 * for seeded, distinct-preserving host data. */
uint64_t bench_mix64(uint64_t x);

/* Wall-clock milliseconds (CLOCK_MONOTONIC), for host-timed spans. */
double bench_wall_ms(void);

/* n distinct keys of width kb (4 or 8; never a default sentinel) on the
 * device, from index off of a hashed family (cudaFree them). */
void *bench_unique_keys(size_t n, size_t kb, uint64_t off);

/* Set the release threshold of the device's default cudaMallocAsync pool
 * (UINT64_MAX: keep what is freed between calls; 0, the default: give it
 * back at every synchronization) and return the one it had. Lowering it
 * also trims the pool to the new threshold now (after a device sync). */
uint64_t bench_pool_keep(int device, uint64_t bytes);

/* Exit with "bench: what: status" when a gcol call failed. */
void bench_ok(gcol_status_t s, const char *what);

#ifdef __cplusplus
}
#endif
#endif
