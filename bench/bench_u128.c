/* 16-byte keys (GCOL_U128, issue 25): 100M unique random keys -> 8-byte
 * values (GCOL_BENCH_N overrides) at loads 0.5 and 0.8, insert / find /
 * contains / erase, the median of several runs each; the probing tile and
 * the pre-sm_90 claim scheme (the tag, forced by the test hook) for
 * comparison. Targets (issue 25, load 0.5): insert >= 7 and find >= 16 G
 * keys/s on an H100 whose copy runs at 3,000 GB/s, scaled by this run's
 * copy bandwidth. */
#include <stdio.h>
#include <stdlib.h>
#include "bench_common.h"
#include "gcol/gcol.h"
#include "map/map_internal.h"

#define REPS 5
static bench_gpu_t gpu;
static bench_timer_t timer;
static cudaStream_t stream;

static void ok(gcol_status_t s, const char *what) { bench_ok(s, what); }

/* n unique 16-byte keys: unique random low words, random high words. */
static void *u128_keys(size_t n, uint64_t off) {
  void *lo = bench_unique_keys(n, 8, off), *hi = bench_unique_keys(n, 8, off + 7 * n + 12345), *k = NULL;
  BENCH_CUDA(cudaMalloc(&k, n * 16));
  BENCH_CUDA(cudaMemcpy2D(k, 16, lo, 8, 8, n, cudaMemcpyDeviceToDevice));
  BENCH_CUDA(cudaMemcpy2D((char *)k + 8, 16, hi, 8, 8, n, cudaMemcpyDeviceToDevice));
  BENCH_CUDA(cudaFree(lo));
  BENCH_CUDA(cudaFree(hi));
  return k;
}

typedef enum { OP_INSERT, OP_FIND, OP_MISS, OP_CONTAINS, OP_ERASE } op_t;

static double time_op(gcol_map_t *m, op_t op, const void *keys, const void *misses, const void *vals, void *out,
                      size_t n) {
  double ms[REPS];
  for (int r = 0; r < REPS; ++r) {
    if (op == OP_INSERT) ok(gcol_map_clear(m, stream), "clear");
    if (op == OP_ERASE) ok(gcol_map_insert(m, keys, vals, n, NULL, stream), "refill");
    bench_timer_start(&timer, stream);
    switch (op) {
      case OP_INSERT: ok(gcol_map_insert(m, keys, vals, n, NULL, stream), "insert"); break;
      case OP_FIND: ok(gcol_map_find(m, keys, n, out, stream), "find"); break;
      case OP_MISS: ok(gcol_map_find(m, misses, n, out, stream), "find"); break;
      case OP_CONTAINS: ok(gcol_map_contains(m, keys, n, out, stream), "contains"); break;
      case OP_ERASE: ok(gcol_map_erase(m, keys, n, NULL, stream), "erase"); break;
    }
    ms[r] = bench_timer_stop_ms(&timer, stream);
  }
  ok(gcol_map_status(m, stream), "status");
  return bench_median(ms, REPS);
}

/* One row; target <= 0: none. Bytes: key + value in or out (contains: 1). */
static void row(const char *op, const char *what, double load, size_t n, double ms, double bytes, double target) {
  double gops = (double)n / (ms * 1e-3) / 1e9, share = gops * bytes / gpu.copy_gbs;
  printf("%-14s %-16s %4.2f %9.2f %8.2f %6.1f%%", op, what, load, ms, gops, 100 * share);
  if (target > 0) {
    double t = target * gpu.copy_gbs / 3000.0;
    printf(" %7.2f %s\n", t, gops >= t ? "met" : "MISSED");
  } else {
    printf("       -\n");
  }
}

static void run(size_t n, double load, int tile, int key_cas, int full, const void *keys, const void *misses,
                const void *vals, void *out) {
  gcol_map_config_t c = gcol_map_config_default(GCOL_U128, GCOL_U64);
  c.capacity = (size_t)((double)n / load);
  gcol_map_t *m = NULL;
  ok(gcol_map_create(&m, &c, stream), "create");
  if (tile) ok(gcol_map_set_policy_for_testing(m, tile, key_cas), "policy");
  size_t cap = 0;
  ok(gcol_map_capacity(m, &cap), "capacity");
  char what[32];
  snprintf(what, sizeof what, "u128/u64%s%s", tile ? (tile == 1 ? " t1" : tile == 2 ? " t2" : tile == 4 ? " t4" : " t8") : "",
           key_cas ? " tag" : "");
  double real = (double)n / (double)cap;
  int targets = full && load < 0.6;
  row("insert", what, real, n, time_op(m, OP_INSERT, keys, misses, vals, out, n), 24, targets ? 7.0 : 0);
  row("find (hits)", what, real, n, time_op(m, OP_FIND, keys, misses, vals, out, n), 24, targets ? 16.0 : 0);
  if (full) {
    row("find (misses)", what, real, n, time_op(m, OP_MISS, keys, misses, vals, out, n), 24, 0);
    row("contains", what, real, n, time_op(m, OP_CONTAINS, keys, misses, vals, out, n), 17, 0);
    row("erase", what, real, n, time_op(m, OP_ERASE, keys, misses, vals, out, n), 16, 0);
  }
  gcol_map_destroy(m);
}

int main(void) {
  if (bench_init(&gpu)) return 0;
  bench_timer_init(&timer);
  BENCH_CUDA(cudaStreamCreate(&stream));
  size_t n = bench_size("GCOL_BENCH_N", 100000000);
  void *keys = u128_keys(n, 1000), *misses = u128_keys(n, 1000 + 3 * n), *vals = bench_unique_keys(n, 8, 77), *out = NULL;
  BENCH_CUDA(cudaMalloc(&out, n * 8));
  printf("\n16-byte keys -> 8-byte values, %zu unique random keys, median of %d runs\n", n, REPS);
  printf("%-14s %-16s %4s %9s %8s %7s %7s\n", "operation", "pairs", "load", "ms", "G ops/s", "of copy", "target");
  run(n, 0.5, 0, 0, 1, keys, misses, vals, out);
  run(n, 0.8, 0, 0, 1, keys, misses, vals, out);
  /* the bucket width (tile, 32-byte chunks) and the tag scheme, load 0.5 */
  run(n, 0.5, 1, 0, 0, keys, misses, vals, out);
  run(n, 0.5, 4, 0, 0, keys, misses, vals, out);
  run(n, 0.5, 2, 1, 0, keys, misses, vals, out);
  BENCH_CUDA(cudaFree(keys));
  BENCH_CUDA(cudaFree(misses));
  BENCH_CUDA(cudaFree(vals));
  BENCH_CUDA(cudaFree(out));
  return 0;
}
