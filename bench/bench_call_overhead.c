/* What the ABI's argument checks cost per call: a one-key gcol_map_find
 * (host time per call, launches queued on one stream, median of several
 * rounds) next to the check alone (one cudaPointerGetAttributes per device
 * pointer, as gcol_check_dptrs makes them). Target (issue 22): the checks
 * stay under 1 us per call. */
#include <stdio.h>
#include "bench_common.h"

#define CALLS 20000
#define ROUNDS 7

int main(void) {
  bench_gpu_t gpu;
  if (bench_init(&gpu)) return 0;
  cudaStream_t s;
  BENCH_CUDA(cudaStreamCreate(&s));
  gcol_map_config_t cfg = gcol_map_config_default(GCOL_I64, GCOL_I64);
  cfg.capacity = 1 << 20;
  gcol_map_t *m = NULL;
  bench_ok(gcol_map_create(&m, &cfg, s), "create");
  void *keys = bench_unique_keys(1, 8, 1), *out = NULL;
  BENCH_CUDA(cudaMalloc(&out, 8));
  bench_ok(gcol_map_insert(m, keys, keys, 1, NULL, s), "insert");
  double call[ROUNDS], check[ROUNDS];
  for (int r = 0; r < ROUNDS; ++r) {
    BENCH_CUDA(cudaStreamSynchronize(s));
    double t0 = 1e3 * bench_wall_ms();
    for (int i = 0; i < CALLS; ++i) bench_ok(gcol_map_find(m, keys, 1, out, s), "find");
    double t1 = 1e3 * bench_wall_ms();
    BENCH_CUDA(cudaStreamSynchronize(s));
    call[r] = (t1 - t0) / CALLS;
    struct cudaPointerAttributes a;
    t0 = 1e3 * bench_wall_ms();
    for (int i = 0; i < CALLS; ++i) {
      BENCH_CUDA(cudaPointerGetAttributes(&a, keys));
      BENCH_CUDA(cudaPointerGetAttributes(&a, out));
    }
    check[r] = (1e3 * bench_wall_ms() - t0) / CALLS;
  }
  double c = bench_median(call, ROUNDS), k = bench_median(check, ROUNDS);
  printf("%-44s %8s\n", "one-key call (host time, queued)", "us/call");
  printf("%-44s %8.3f\n", "gcol_map_find, 1 key, checks included", c);
  printf("%-44s %8.3f  target < 1 us: %s\n", "  of which pointer checks (2 pointers)", k, k < 1.0 ? "met" : "MISSED");
  gcol_map_destroy(m);
  cudaFree(keys), cudaFree(out);
  return 0;
}
