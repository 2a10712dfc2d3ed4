/* Stream compaction benchmark (issue 4): gcol_select_flagged on 200M 16-byte
 * items with half of them selected at random (GCOL_BENCH_N overrides n),
 * next to the device-to-device copy bandwidth of the same run:
 *   - ANY order (the policy's kernel) and STABLE order against
 *     cub::DeviceSelect::Flagged called directly;
 *   - the ANY kernel with one atomic per item (naive), per warp and per
 *     block, at the policy's block size and items per thread;
 *   - a sweep of block size x items per thread x level, to tune the table in
 *     src/compact/compact_policy.c.
 * Bytes counted: flags read (n), items read (16 n), selected items written
 * (16 k), the floor model; GB/s is that over the median time.
 * Targets (H100, copy 3,026 GB/s): ANY <= 1.8 ms; STABLE within 10% of CUB. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_common.h"
#include "bench_compact_cub.h"
#include "compact/compact_internal.h"
#include "gcol/gcol.h"

#define REPS 7
#define ITEM 16
static bench_gpu_t gpu;
static bench_timer_t timer;
static cudaStream_t stream;
static size_t n, expect;
static void *d_in, *d_out, *d_temp;
static uint8_t *d_flags;
static size_t *d_count, temp_bytes;

static void ok(gcol_status_t s, const char *what) { bench_ok(s, what); }

typedef enum { RUN_ANY, RUN_STABLE, RUN_CUB, RUN_POLICY } run_t;

static void run_once(run_t r, const gcol_select_policy_t *p) {
  size_t bytes = temp_bytes;
  switch (r) {
    case RUN_ANY:
      ok(gcol_select_flagged(d_temp, &bytes, d_in, d_flags, d_out, d_count, n, ITEM, GCOL_ORDER_ANY, stream), "ANY");
      break;
    case RUN_STABLE:
      ok(gcol_select_flagged(d_temp, &bytes, d_in, d_flags, d_out, d_count, n, ITEM, GCOL_ORDER_STABLE, stream),
         "STABLE");
      break;
    case RUN_CUB: BENCH_CUDA(bench_cub_select_flagged16(d_temp, &bytes, d_in, d_flags, d_out, d_count, n, stream)); break;
    case RUN_POLICY:
      BENCH_CUDA(cudaMemsetAsync(d_count, 0, sizeof *d_count, stream));
      BENCH_CUDA(gcol_select_any_launch(d_in, d_flags, d_out, (unsigned long long *)d_count, n, ITEM, p, stream));
      break;
  }
}

/* Median ms of REPS timed runs after one warm-up; checks the count. */
static double time_run(run_t r, const gcol_select_policy_t *p, int reps) {
  double ms[REPS];
  run_once(r, p);
  for (int i = 0; i < reps; ++i) {
    bench_timer_start(&timer, stream);
    run_once(r, p);
    ms[i] = bench_timer_stop_ms(&timer, stream);
  }
  size_t got = 0;
  BENCH_CUDA(cudaMemcpy(&got, d_count, sizeof got, cudaMemcpyDeviceToHost));
  if (got != expect) {
    fprintf(stderr, "bench: selected %zu, expected %zu\n", got, expect);
    exit(1);
  }
  return bench_median(ms, reps);
}

static void row(const char *name, double ms, const char *note) {
  double gbs = ((double)n * (1 + ITEM) + (double)expect * ITEM) / (ms * 1e-3) / 1e9;
  printf("  %-34s %9.3f ms %8.0f GB/s %6.1f%% of copy  %s\n", name, ms, gbs, 100.0 * gbs / gpu.copy_gbs, note);
}

static const char *level_name(gcol_aggregation_t a) {
  return a == GCOL_AGG_THREAD ? "thread" : a == GCOL_AGG_WARP ? "warp" : "block";
}

int main(void) {
  if (bench_init(&gpu)) return 0;
  BENCH_CUDA(cudaStreamCreate(&stream));
  bench_timer_init(&timer);
  n = bench_size("GCOL_BENCH_N", (size_t)200000000);

  /* half the flags set at random (non-zero bytes of any value select) */
  uint8_t *h_flags = malloc(n);
  uint64_t x = 0x9e3779b97f4a7c15ULL;
  expect = 0;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    h_flags[i] = (x >> 40) & 1 ? (uint8_t)(1 + (x >> 48) % 255) : 0;
    expect += h_flags[i] != 0;
  }
  BENCH_CUDA(cudaMalloc((void **)&d_flags, n));
  BENCH_CUDA(cudaMemcpy(d_flags, h_flags, n, cudaMemcpyHostToDevice));
  free(h_flags);
  BENCH_CUDA(cudaMalloc(&d_in, n * ITEM));
  BENCH_CUDA(cudaMemset(d_in, 0x5a, n * ITEM));
  BENCH_CUDA(cudaMalloc(&d_out, n * ITEM));
  BENCH_CUDA(cudaMalloc((void **)&d_count, sizeof *d_count));

  /* one temp buffer, large enough for every variant */
  size_t b_any = 0, b_stable = 0, b_cub = 0;
  ok(gcol_select_flagged(NULL, &b_any, d_in, d_flags, d_out, d_count, n, ITEM, GCOL_ORDER_ANY, stream), "size");
  ok(gcol_select_flagged(NULL, &b_stable, d_in, d_flags, d_out, d_count, n, ITEM, GCOL_ORDER_STABLE, stream), "size");
  BENCH_CUDA(bench_cub_select_flagged16(NULL, &b_cub, d_in, d_flags, d_out, d_count, n, stream));
  temp_bytes = b_any > b_stable ? b_any : b_stable;
  if (b_cub > temp_bytes) temp_bytes = b_cub;
  BENCH_CUDA(cudaMalloc(&d_temp, temp_bytes));

  gcol_select_policy_t pol = gcol_select_policy_for(gpu.cc_major);
  double target = 1.8 * 3026.0 / gpu.copy_gbs;
  printf("select_flagged: %zu items of %d bytes, %zu selected (%.1f%%); bytes = n + 16n + 16k\n", n, ITEM, expect,
         100.0 * (double)expect / (double)(n ? n : 1));
  printf("  policy for sm_%d%d: %d threads, %d items/thread, %s-aggregated\n", gpu.cc_major, gpu.cc_minor,
         pol.block_threads, pol.items_per_thread, level_name(pol.aggregate));
  char note[128];
  double t_any = time_run(RUN_ANY, NULL, REPS);
  snprintf(note, sizeof note, "target <= %.2f ms (1.8 ms at 3,026 GB/s copy)", target);
  row("gcol ANY", t_any, note);
  double t_cub = time_run(RUN_CUB, NULL, REPS);
  row("cub::DeviceSelect::Flagged", t_cub, "reference for STABLE");
  double t_stable = time_run(RUN_STABLE, NULL, REPS);
  snprintf(note, sizeof note, "%+.1f%% vs CUB (target within +10%%)", 100.0 * (t_stable / t_cub - 1));
  row("gcol STABLE", t_stable, note);

  printf("aggregation levels (ANY kernel, %d threads, %d items/thread):\n", pol.block_threads, pol.items_per_thread);
  const gcol_aggregation_t levels[] = {GCOL_AGG_THREAD, GCOL_AGG_WARP, GCOL_AGG_BLOCK};
  for (int l = 0; l < 3; ++l) {
    gcol_select_policy_t p = pol;
    p.aggregate = levels[l];
    char name[64];
    snprintf(name, sizeof name, "one atomic per %s", level_name(levels[l]));
    row(name, time_run(RUN_POLICY, &p, levels[l] == GCOL_AGG_THREAD ? 3 : REPS), "");
  }

  printf("policy sweep (ANY kernel; pick the fastest for this GPU's row):\n");
  const int blocks[] = {128, 256, 512}, items[] = {4, 8, 16};
  for (int l = 1; l < 3; ++l)
    for (int b = 0; b < 3; ++b)
      for (int i = 0; i < 3; ++i) {
        gcol_select_policy_t p = {0, blocks[b], items[i], levels[l]};
        char name[64];
        snprintf(name, sizeof name, "%s, %d threads, %d items", level_name(levels[l]), blocks[b], items[i]);
        /* a variant whose registers do not fit the block size is reported, not timed */
        cudaError_t e = gcol_select_any_launch(d_in, d_flags, d_out, (unsigned long long *)d_count, n, ITEM, &p, stream);
        if (e == cudaErrorLaunchOutOfResources) {
          printf("  %-34s does not fit (registers per block)\n", name);
          continue;
        }
        BENCH_CUDA(e);
        row(name, time_run(RUN_POLICY, &p, REPS), "");
      }

  BENCH_CUDA(cudaFree(d_temp));
  BENCH_CUDA(cudaFree(d_in));
  BENCH_CUDA(cudaFree(d_out));
  BENCH_CUDA(cudaFree(d_flags));
  BENCH_CUDA(cudaFree(d_count));
  BENCH_CUDA(cudaStreamDestroy(stream));
  return 0;
}
