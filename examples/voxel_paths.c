/* Distance table on a generated voxel volume: a 48 x 48 x 32 block of tissue
 * with random costs and a spherical obstacle, 26-connected; 8 sources to 5
 * targets on the GPU, printed next to a simple CPU search on the same grid
 * (label correcting with a FIFO queue; the example needs nothing but gcol).
 * Without a GPU it prints "no CUDA device" and exits 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gcol/gcol.h"

#define NX 48
#define NY 48
#define NZ 32

static int fail(const char *what, gcol_status_t s) {
  fprintf(stderr, "%s: %s (%s)\n", what, gcol_status_string(s), gcol_last_error_message());
  return 1;
}

/* Distances from src over the grid's arcs (weights as gcol_graph_create_grid3d
 * defines them), by label correcting: a vertex whose distance drops is queued
 * again until nothing improves. dist and queue hold n entries, in_queue n flags. */
static void cpu_distances(const float *cost, uint32_t src, float *dist, uint32_t *queue, unsigned char *in_queue) {
  const uint32_t n = NX * NY * NZ;
  for (uint32_t v = 0; v < n; ++v) dist[v] = INFINITY, in_queue[v] = 0;
  if (isinf(cost[src])) return;
  size_t head = 0, count = 1;
  dist[src] = 0.0f, queue[0] = src, in_queue[src] = 1;
  while (count) {
    uint32_t u = queue[head];
    head = (head + 1) % n, --count, in_queue[u] = 0;
    int x = (int)(u % NX), y = (int)(u / NX % NY), z = (int)(u / (NX * NY));
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          int steps = (dx != 0) + (dy != 0) + (dz != 0);
          if (!steps || x + dx < 0 || x + dx >= NX || y + dy < 0 || y + dy >= NY || z + dz < 0 || z + dz >= NZ) continue;
          uint32_t v = (uint32_t)((x + dx) + NX * ((y + dy) + NY * (z + dz)));
          if (isinf(cost[v])) continue;
          float step = steps == 1 ? 1.0f : steps == 2 ? sqrtf(2.0f) : sqrtf(3.0f);
          float d = dist[u] + 0.5f * (cost[u] + cost[v]) * step;
          if (d < dist[v]) {
            dist[v] = d;
            if (!in_queue[v]) queue[(head + count++) % n] = v, in_queue[v] = 1;
          }
        }
  }
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

  float *dist = malloc(n * sizeof *dist);
  uint32_t *queue = malloc(n * sizeof *queue);
  unsigned char *in_queue = malloc(n);
  for (int i = 0; i < 8; ++i) {
    cpu_distances(cost, sources[i], dist, queue, in_queue);
    for (int j = 0; j < 5; ++j) cpu[i * 5 + j] = dist[targets[j]];
  }
  free(dist), free(queue), free(in_queue);
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
  gcol_graph_destroy(g);
  cudaFree(d_cost), cudaFree(d_dist), cudaFree(d_src), cudaFree(d_tgt);
  free(cost);
  return mismatches ? 1 : 0;
}
