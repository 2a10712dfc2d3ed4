/* Distance table on a generated voxel volume: a 48 x 48 x 32 block of tissue
 * with random costs and a spherical obstacle, 26-connected; 8 sources to 5
 * targets on the GPU, printed next to a CPU Dijkstra on the same grid.
 * Without a GPU it prints "no CUDA device" and exits 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gcol/gcol.h"
#include "sssp/sssp_ref.h" /* the library's CPU reference, for the comparison */

#define NX 48
#define NY 48
#define NZ 32

static int fail(const char *what, gcol_status_t s) {
  fprintf(stderr, "%s: %s\n", what, gcol_status_string(s));
  return 1;
}

int main(void) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("no CUDA device\n");
    return 0;
  }
  const uint32_t n = NX * NY * NZ;
  float *cost = malloc(n * sizeof *cost);
  uint64_t r = 88172645463325252ULL;
  for (uint32_t z = 0; z < NZ; ++z)
    for (uint32_t y = 0; y < NY; ++y)
      for (uint32_t x = 0; x < NX; ++x) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        float dx = x - 24.0f, dy = y - 24.0f, dz = z - 16.0f;
        int inside = dx * dx + dy * dy + dz * dz < 100.0f; /* radius-10 obstacle */
        cost[x + NX * (y + NY * z)] = inside ? INFINITY : 1.0f + (float)(r % 1000) / 250.0f;
      }
  uint32_t sources[8], targets[5] = {0, n - 1, NX / 2, n / 2 + 3, NX * NY * (NZ - 1)};
  for (int i = 0; i < 8; ++i) sources[i] = (uint32_t)i * 9973u % n;

  float *d_cost, *d_dist;
  uint32_t *d_src, *d_tgt;
  if (cudaMalloc((void **)&d_cost, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc((void **)&d_dist, sizeof(float) * 8 * 5) != cudaSuccess ||
      cudaMalloc((void **)&d_src, sizeof sources) != cudaSuccess ||
      cudaMalloc((void **)&d_tgt, sizeof targets) != cudaSuccess) {
    fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(d_cost, cost, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_src, sources, sizeof sources, cudaMemcpyHostToDevice);
  cudaMemcpy(d_tgt, targets, sizeof targets, cudaMemcpyHostToDevice);

  gcol_graph_t *g = NULL;
  gcol_status_t s = gcol_graph_create_grid3d(&g, NX, NY, NZ, d_cost, 26, 0);
  if (s != GCOL_SUCCESS) return fail("gcol_graph_create_grid3d", s);
  s = gcol_sssp_many_to_many(g, d_src, 8, d_tgt, 5, d_dist, 0);
  if (s != GCOL_SUCCESS) return fail("gcol_sssp_many_to_many", s);
  float gpu[8 * 5], cpu[8 * 5];
  if (cudaMemcpy(gpu, d_dist, sizeof gpu, cudaMemcpyDeviceToHost) != cudaSuccess) {
    fprintf(stderr, "copy failed\n");
    return 1;
  }

  gcol_ref_csr_t h;
  if (gcol_ref_grid_csr(NX, NY, NZ, cost, 26, &h) != 0 || gcol_ref_many_to_many(&h, sources, 8, targets, 5, cpu, 0) < 0) {
    fprintf(stderr, "CPU reference failed\n");
    return 1;
  }
  printf("voxel volume %dx%dx%d, 26-connected, spherical obstacle; distances GPU / CPU\n", NX, NY, NZ);
  int mismatches = 0;
  for (int i = 0; i < 8; ++i) {
    printf("source %6u:", sources[i]);
    for (int j = 0; j < 5; ++j) {
      float a = gpu[i * 5 + j], b = cpu[i * 5 + j];
      mismatches += !(a == b || fabsf(a - b) <= 1e-5f * fabsf(b));
      printf("  %8.3f / %8.3f", a, b);
    }
    printf("\n");
  }
  printf("%s\n", mismatches ? "MISMATCH between GPU and CPU" : "GPU and CPU agree");
  gcol_ref_csr_free(&h);
  gcol_graph_destroy(g);
  cudaFree(d_cost), cudaFree(d_dist), cudaFree(d_src), cudaFree(d_tgt);
  free(cost);
  return mismatches ? 1 : 0;
}
