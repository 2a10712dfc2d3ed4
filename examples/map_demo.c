/* The main demo: insert and look up 10M random 64-bit keys, print throughput.
 * Without a GPU it says so and exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>
#include "gcol/gcol.h"

#define N 10000000

static int fail(const char *what, gcol_status_t s) {
  fprintf(stderr, "%s: %s\n", what, gcol_status_string(s));
  return 1;
}

int main(void) {
  gcol_map_config_t cfg = gcol_map_config_default(GCOL_U64, GCOL_U64);
  cfg.capacity = 2 * N; /* load factor 0.5 */
  gcol_map_t *map = NULL;
  gcol_status_t s = gcol_map_create(&map, &cfg, 0);
  if (s == GCOL_ERROR_NO_DEVICE) {
    printf("no CUDA device: gcol needs an NVIDIA GPU (%s)\n", gcol_status_string(s));
    return 0;
  }
  if (s != GCOL_SUCCESS) return fail("gcol_map_create", s);

  uint64_t *h_keys = malloc(N * sizeof *h_keys), x = 0x2545F4914F6CDD1DULL;
  for (size_t i = 0; i < N; ++i) { /* xorshift: random, duplicates possible */
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    h_keys[i] = x >> 1; /* never a sentinel (all ones, all ones - 1) */
  }
  uint64_t *d_keys, *d_values, *d_found;
  size_t *d_inserted, inserted = 0, size = 0;
  if (cudaMalloc((void **)&d_keys, N * 8) || cudaMalloc((void **)&d_values, N * 8) ||
      cudaMalloc((void **)&d_found, N * 8) || cudaMalloc((void **)&d_inserted, sizeof(size_t)) ||
      cudaMemcpy(d_keys, h_keys, N * 8, cudaMemcpyHostToDevice) ||
      cudaMemcpy(d_values, h_keys, N * 8, cudaMemcpyHostToDevice)) {
    fprintf(stderr, "CUDA allocation or copy failed\n");
    return 1;
  }
  cudaEvent_t t0, t1, t2;
  cudaEventCreate(&t0), cudaEventCreate(&t1), cudaEventCreate(&t2);
  cudaEventRecord(t0, 0);
  if ((s = gcol_map_insert(map, d_keys, d_values, N, d_inserted, 0))) return fail("insert", s);
  cudaEventRecord(t1, 0);
  if ((s = gcol_map_find(map, d_keys, N, d_found, 0))) return fail("find", s);
  cudaEventRecord(t2, 0);
  if ((s = gcol_map_size(map, &size, 0))) return fail("size", s);
  cudaMemcpy(&inserted, d_inserted, sizeof inserted, cudaMemcpyDeviceToHost);
  float ins_ms = 0, find_ms = 0;
  cudaEventElapsedTime(&ins_ms, t0, t1), cudaEventElapsedTime(&find_ms, t1, t2);

  /* every key must find its own value (keys are their values here) */
  uint64_t *h_found = malloc(N * 8);
  cudaMemcpy(h_found, d_found, N * 8, cudaMemcpyDeviceToHost);
  size_t wrong = 0;
  for (size_t i = 0; i < N; ++i) wrong += h_found[i] != h_keys[i];
  printf("inserted %zu distinct of %d keys (map size %zu): insert %.2f G keys/s, find %.2f G keys/s, %zu wrong\n",
         inserted, N, size, N / (ins_ms * 1e6), N / (find_ms * 1e6), wrong);
  gcol_map_destroy(map);
  cudaFree(d_keys), cudaFree(d_values), cudaFree(d_found), cudaFree(d_inserted);
  free(h_keys), free(h_found);
  return wrong != 0;
}
