/* Sketch benchmark (issue 24): the Bloom filter at 1 MiB, 128 MiB and 2 GiB
 * (u64 keys, 10.5 bits per key: add of max(100M, size / 10.5 bits) keys,
 * contains of 100M added keys, FPR on 10M never-added keys) and HyperLogLog
 * over 1e9 distinct u64 items at every precision 4..18 (throughput, and the
 * relative error on 1e8 and 1e9 distinct values). Medians of REPS runs.
 * Targets: cuCollections' figures on an H100 whose copy ran at 3,000 GB/s
 * (issue 24) times the factor, scaled by this run's copy bandwidth.
 * GCOL_BENCH_HLL_N overrides the 1e9 items, GCOL_BENCH_BLOOM_MAX the largest
 * filter (bytes). The Bloom rows end with their floors (floor_kernels.h: the
 * key's 32-byte block of a filter of that size, four ORs or its read and a
 * flag; G keys/s) measured in this process, and each row's share of its
 * floor (issue 38's target: 95%); GCOL_BENCH_NO_FLOOR=1 leaves them out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_common.h"
#include "floor_kernels.h"
#include "gcol/gcol.h"
#include "sketch_ref.h"
#include "bloom/bloom_internal.h"
#include "core/test_hooks.h"

#define REPS 5
static bench_gpu_t gpu;
static bench_timer_t timer;
static cudaStream_t stream;

static double scale(void) { return gpu.copy_gbs / 3000.0; }

static const char *verdict(int ok) { return ok ? "met" : "MISSED"; }

/* keys[i] = family key (i % distinct), n of them, on the device. */
static uint64_t *repeated_keys(size_t n, size_t distinct) {
  uint64_t *d = NULL;
  BENCH_CUDA(cudaMalloc((void **)&d, n * 8));
  BENCH_CUDA(sketch_fill_keys(d, distinct, 8, 0, stream));
  for (size_t done = distinct; done < n;) {
    size_t c = done < n - done ? done : n - done;
    BENCH_CUDA(cudaMemcpyAsync(d + done, d, c * 8, cudaMemcpyDeviceToDevice, stream));
    done += c;
  }
  BENCH_CUDA(cudaStreamSynchronize(stream));
  return d;
}

typedef struct {
  const char *label;
  size_t bytes;
  double cuco_add, cuco_contains, cuco_fpr;
} bloom_row_t;

static char sweeps[3][256];
static int num_sweeps;

/* Median ms of an add of n keys into the cleared filter (it holds them after). */
static double time_add(gcol_bloom_t *b, const uint64_t *keys, size_t n) {
  double ms[REPS];
  for (int i = 0; i < REPS; ++i) {
    bench_ok(gcol_bloom_clear(b, stream), "clear");
    bench_timer_start(&timer, stream);
    bench_ok(gcol_bloom_add(b, keys, n, stream), "add");
    ms[i] = bench_timer_stop_ms(&timer, stream);
  }
  return bench_median(ms, REPS);
}

static double time_contains(gcol_bloom_t *b, const uint64_t *keys, size_t n, uint8_t *out) {
  double ms[REPS];
  for (int i = 0; i < REPS; ++i) {
    bench_timer_start(&timer, stream);
    bench_ok(gcol_bloom_contains(b, keys, n, out, stream), "contains");
    ms[i] = bench_timer_stop_ms(&timer, stream);
  }
  return bench_median(ms, REPS);
}

static void bench_bloom(const bloom_row_t *r) {
  size_t distinct = (size_t)((double)r->bytes * 8 / 10.5), n_add = distinct > 100000000 ? distinct : 100000000;
  size_t n_q = 100000000, n_fpr = 10000000;
  gcol_bloom_config_t c = gcol_bloom_config_default(GCOL_U64);
  c.size_bytes = r->bytes;
  gcol_bloom_t *b = NULL;
  bench_ok(gcol_bloom_create(&b, &c, stream), "bloom create");
  uint64_t *keys = repeated_keys(n_add, distinct), *miss = NULL;
  uint8_t *out = NULL, *h = (uint8_t *)malloc(n_fpr);
  BENCH_CUDA(cudaMalloc((void **)&miss, n_fpr * 8));
  BENCH_CUDA(cudaMalloc((void **)&out, n_q));
  BENCH_CUDA(sketch_fill_keys(miss, n_fpr, 8, (uint64_t)1 << 40, stream)); /* indices never added */
  /* the tile sweep first (threads per key of the bulk kernels), then the policy's */
  double sweep[2][3];
  for (int t = 0; t < 3; ++t) {
    gcol_test_hooks.bloom_add_tile = gcol_test_hooks.bloom_contains_tile = 1 << t;
    sweep[0][t] = time_add(b, keys, n_add);
    sweep[1][t] = time_contains(b, keys, n_q, out);
  }
  gcol_test_hooks.bloom_add_tile = gcol_test_hooks.bloom_contains_tile = 0; /* the policy's */
  snprintf(sweeps[num_sweeps++], sizeof sweeps[0], "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |", r->label,
           n_add / sweep[0][0] / 1e6, n_add / sweep[0][1] / 1e6, n_add / sweep[0][2] / 1e6, n_q / sweep[1][0] / 1e6,
           n_q / sweep[1][1] / 1e6, n_q / sweep[1][2] / 1e6);
  double ms_add = time_add(b, keys, n_add), ms_q = time_contains(b, keys, n_q, out);
  bench_ok(gcol_bloom_contains(b, miss, n_fpr, out, stream), "contains (never added)");
  BENCH_CUDA(cudaMemcpy(h, out, n_fpr, cudaMemcpyDeviceToHost));
  size_t pos = 0;
  for (size_t i = 0; i < n_fpr; ++i) pos += h[i];
  double formula = 0, measured = (double)pos / (double)n_fpr;
  bench_ok(gcol_bloom_expected_fpr(r->bytes, distinct, &formula), "expected_fpr");
  double add = (double)n_add / (ms_add * 1e-3) / 1e9, q = (double)n_q / (ms_q * 1e-3) / 1e9;
  double t_add = 1.2 * r->cuco_add * scale(), t_q = 1.1 * r->cuco_contains * scale();
  double t_fpr = r->cuco_fpr / 3 < 1.25 * formula ? r->cuco_fpr / 3 : 1.25 * formula;
  double f_add = 0, f_q = 0;
  if (!getenv("GCOL_BENCH_NO_FLOOR")) {
    gcol_bloom_view_t v;
    bench_ok(gcol_bloom_device_view(b, &v), "view");
    const size_t table = (size_t)v.num_blocks * 32; /* 4 words per block */
    bench_floor_spec_t fa = {8, 32, 0, BENCH_FLOOR_OR4, table, 0}, fq = {8, 32, 1, BENCH_FLOOR_READ, table, 0};
    f_add = bench_floor_measure(&gpu, &fa, keys, n_add).gops;
    f_q = bench_floor_measure(&gpu, &fq, keys, n_q).gops;
    bench_floor_release();
  }
  printf("| %s | %.2f | %.2f | %.2f %s | %.2f | %.2f %s | %.3f%% | %.3f%% | %.2f | %.2f%% %s |", r->label,
         (double)r->bytes * 8 / (double)distinct, add, t_add, verdict(add >= t_add), q, t_q, verdict(q >= t_q),
         100 * formula, 100 * measured, measured / formula, 100 * t_fpr, verdict(measured <= t_fpr));
  if (f_add > 0)
    printf(" %.2f | %.1f%% %s | %.2f | %.1f%% %s |\n", f_add, 100 * add / f_add, verdict(add >= 0.95 * f_add), f_q,
           100 * q / f_q, verdict(q >= 0.95 * f_q));
  else
    printf(" - | | - | |\n");
  fflush(stdout);
  free(h);
  BENCH_CUDA(cudaFree(keys));
  BENCH_CUDA(cudaFree(miss));
  BENCH_CUDA(cudaFree(out));
  gcol_bloom_destroy(b);
}

static double hll_estimate_of(gcol_hll_t *h, const uint64_t *items, size_t n) {
  double e = 0;
  bench_ok(gcol_hll_clear(h, stream), "clear");
  bench_ok(gcol_hll_add(h, items, n, GCOL_U64, stream), "add");
  bench_ok(gcol_hll_estimate(h, &e, stream), "estimate");
  return (e - (double)n) / (double)n;
}

static void bench_hll(const uint64_t *items, size_t n, int p) {
  gcol_hll_config_t c = gcol_hll_config_default();
  c.precision = p;
  gcol_hll_t *h = NULL;
  bench_ok(gcol_hll_create(&h, &c, stream), "hll create");
  double ms[REPS];
  bench_ok(gcol_hll_add(h, items, n, GCOL_U64, stream), "warm-up");
  for (int i = 0; i < REPS; ++i) {
    bench_ok(gcol_hll_clear(h, stream), "clear");
    bench_timer_start(&timer, stream);
    bench_ok(gcol_hll_add(h, items, n, GCOL_U64, stream), "add");
    ms[i] = bench_timer_stop_ms(&timer, stream);
  }
  double med = bench_median(ms, REPS), rate = (double)n / (med * 1e-3) / 1e9, target = 300 * scale();
  double se = 1.04 / sqrt((double)(1u << p));
  size_t n8 = n / 10;
  double e8 = hll_estimate_of(h, items, n8), e9 = hll_estimate_of(h, items, n);
  printf("| %d | %.3f | %.1f | %.0f%% | %.0f %s | %+.3f%% (%s) | %+.3f%% (%s) | %.3f%% |\n", p, med, rate,
         100 * rate * 8 / gpu.copy_gbs, target, verdict(rate >= target), 100 * e8, fabs(e8) <= 3 * se ? "ok" : "OUT",
         100 * e9, fabs(e9) <= 3 * se ? "ok" : "OUT", 300 * se);
  fflush(stdout);
  gcol_hll_destroy(h);
}

/* The alternative to shared registers: the device API's global
 * check-before-atomicMax per item. */
static void bench_hll_global(const uint64_t *items, size_t n, int p) {
  gcol_hll_config_t c = gcol_hll_config_default();
  c.precision = p;
  gcol_hll_t *h = NULL;
  gcol_hll_view_t v;
  bench_ok(gcol_hll_create(&h, &c, stream), "hll create");
  bench_ok(gcol_hll_device_view(h, &v), "view");
  double ms[REPS];
  for (int i = 0; i < REPS; ++i) {
    bench_ok(gcol_hll_clear(h, stream), "clear");
    bench_timer_start(&timer, stream);
    BENCH_CUDA(sketch_hll_global_add(&v, items, n, gpu.num_sms, stream));
    ms[i] = bench_timer_stop_ms(&timer, stream);
  }
  double med = bench_median(ms, REPS);
  printf("| %d (device API: global check-before-atomicMax) | %.3f | %.1f | %.0f%% | - | | | |\n", p, med,
         (double)n / (med * 1e-3) / 1e9, 100 * (double)n * 8 / (med * 1e-3) / 1e9 / gpu.copy_gbs);
  gcol_hll_destroy(h);
}

int main(void) {
  if (bench_init(&gpu)) return 0;
  BENCH_CUDA(cudaStreamCreate(&stream));
  bench_timer_init(&timer);
  size_t max_bloom = bench_size("GCOL_BENCH_BLOOM_MAX", (size_t)2 << 30);
  const bloom_row_t rows[3] = {{"1 MiB", (size_t)1 << 20, 15.4, 77.6, 0.050},
                               {"128 MiB", (size_t)128 << 20, 12.8, 34.3, 0.153},
                               {"2 GiB", (size_t)2 << 30, 11.5, 28.5, 0.231}};
  printf("\nBloom filter, u64 keys at 10.5 bits/key (targets: add 1.2x, contains 1.1x cuco x copy/3000; "
         "FPR <= min(1.25 x formula, cuco / 3))\n");
  printf("| filter | bits/key | add G/s | target | contains G/s | target | formula FPR | measured FPR | "
         "measured/formula | FPR target | add floor | of floor | contains floor | of floor |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < 3; ++i)
    if (rows[i].bytes <= max_bloom) bench_bloom(&rows[i]);

  printf("\nBloom tile sweep (threads per key of the bulk kernels; G keys/s; policy: add %d, contains %d)\n"
         "| filter | add 1 | add 2 | add 4 | contains 1 | contains 2 | contains 4 |\n|---|---|---|---|---|---|---|\n",
         GCOL_BLOOM_ADD_TILE, GCOL_BLOOM_CONTAINS_TILE);
  for (int i = 0; i < num_sweeps; ++i) printf("%s\n", sweeps[i]);

  size_t n = bench_size("GCOL_BENCH_HLL_N", 1000000000);
  uint64_t *items = NULL;
  BENCH_CUDA(cudaMalloc((void **)&items, n * 8));
  BENCH_CUDA(sketch_fill_keys(items, n, 8, 0, stream));
  BENCH_CUDA(cudaStreamSynchronize(stream));
  printf("\nHyperLogLog, %zu distinct u64 items (target 300 G items/s x copy/3000 at every precision; "
         "error on 1e8 and 1e9 distinct within 3 standard errors)\n", n);
  printf("| precision | ms | G items/s | of copy | target | error %zu | error %zu | 3 se |\n"
         "|---|---|---|---|---|---|---|---|\n", n / 10, n);
  for (int p = 4; p <= 18; ++p) bench_hll(items, n, p);
  /* issue 38: the precisions with thermometer fields, their overflow ranks
   * read first or by atomicMax at once (the hll_overflow hook) */
  printf("\nHyperLogLog overflow sweep (p > 14; policy above: tuning_hll.h kHllOverflowAtOnce)\n");
  printf("| precision | ms | G items/s | of copy | target | error %zu | error %zu | 3 se |\n"
         "|---|---|---|---|---|---|---|---|\n", n / 10, n);
  for (int form = 1; form <= 2; ++form) {
    gcol_test_hooks.hll_overflow = form;
    printf("| overflow %s | | | | | | | |\n", form == 1 ? "read first" : "at once");
    for (int p = 15; p <= 18; ++p) bench_hll(items, n, p);
  }
  gcol_test_hooks.hll_overflow = 0;
  bench_hll_global(items, n, 13);
  bench_hll_global(items, n, 18);
  BENCH_CUDA(cudaFree(items));
  return 0;
}
