/* A hash-join probe fused with a filter, inside one user kernel, through the
 * map's device API (include/gcol/device/map.cuh).
 *
 * Build side: 1M distinct customer ids (32-bit) go into a gcol map with the
 * host bulk call. Probe side: 16M orders (customer id, amount); the query is
 *   SELECT count(*) FROM orders JOIN customers USING (id) WHERE amount > 500
 * One kernel reads the probe columns, applies the filter, probes the map with
 * contains_each (each thread brings its own key, the tile hashes each key once
 * and probes together) and counts matches with one atomic per warp. The CPU
 * answers the same query with a bitmap; both counts are printed. */
#include <stdio.h>
#include <stdlib.h>
#include <cooperative_groups.h>
#include "gcol/gcol.h"
#include "gcol/device/map.cuh"

namespace cg = cooperative_groups;
typedef gcol::map_view<uint32_t, uint32_t> customers_t;

#define ID_RANGE (1u << 22) /* ids are drawn from [0, 4M) */

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}
static void ok(gcol_status_t s, const char *what) {
  if (s != GCOL_SUCCESS) {
    fprintf(stderr, "%s: %s\n", what, gcol_status_string(s));
    exit(1);
  }
}

__global__ void probe_kernel(customers_t customers, const uint32_t *id, const float *amount, size_t n,
                             unsigned long long *matches) {
  auto tile = cg::tiled_partition<4>(cg::this_thread_block());
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  unsigned long long mine = 0;
  /* every thread runs the same number of steps, so tiles stay whole */
  for (size_t base = (size_t)blockIdx.x * blockDim.x; base < n; base += stride) {
    size_t i = base + threadIdx.x;
    bool wanted = i < n && amount[i] > 500.0f; /* the filter, before the probe */
    mine += customers.contains_each(tile, wanted, wanted ? id[i] : 0u);
  }
  for (int o = 16; o > 0; o >>= 1) mine += __shfl_xor_sync(0xffffffffu, mine, o);
  if ((threadIdx.x & 31) == 0 && mine) atomicAdd(matches, mine);
}

static uint32_t rng(uint64_t *s) {
  *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
  return (uint32_t)(*s >> 16);
}

int main(void) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("no CUDA device: nothing to run\n");
    return 0;
  }
  const size_t nb = 1u << 20, np = 16u << 20;
  uint32_t *build = (uint32_t *)malloc(nb * 4), *probe = (uint32_t *)malloc(np * 4);
  float *amount = (float *)malloc(np * 4);
  unsigned char *in_build = (unsigned char *)calloc(ID_RANGE, 1);
  if (!build || !probe || !amount || !in_build) return 1;
  uint64_t s = 88172645463325252ULL;
  for (size_t i = 0; i < nb;) { /* distinct build ids */
    uint32_t k = rng(&s) % ID_RANGE;
    if (!in_build[k]) in_build[k] = 1, build[i++] = k;
  }
  unsigned long long cpu = 0;
  for (size_t i = 0; i < np; ++i) {
    probe[i] = rng(&s) % ID_RANGE;
    amount[i] = (float)(rng(&s) % 1000);
    cpu += amount[i] > 500.0f && in_build[probe[i]];
  }

  uint32_t *d_build, *d_probe;
  float *d_amount;
  unsigned long long *d_matches;
  check(cudaMalloc(&d_build, nb * 4), "malloc");
  check(cudaMalloc(&d_probe, np * 4), "malloc");
  check(cudaMalloc(&d_amount, np * 4), "malloc");
  check(cudaMalloc(&d_matches, 8), "malloc");
  check(cudaMemcpy(d_build, build, nb * 4, cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(d_probe, probe, np * 4, cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(d_amount, amount, np * 4, cudaMemcpyHostToDevice), "copy");
  check(cudaMemset(d_matches, 0, 8), "memset");

  gcol_map_config_t c = gcol_map_config_default(GCOL_U32, GCOL_U32);
  c.capacity = 2 * nb;
  gcol_map_t *map;
  ok(gcol_map_create(&map, &c, 0), "create");
  ok(gcol_map_insert(map, d_build, d_build, nb, NULL, 0), "insert"); /* value: the id itself */
  gcol_map_view_t view;
  ok(gcol_map_device_view(map, &view), "view");
  customers_t customers(view);
  if (!customers.compatible()) return 1;

  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "event");
  check(cudaEventCreate(&b), "event");
  check(cudaEventRecord(a, 0), "event");
  probe_kernel<<<1024, 256>>>(customers, d_probe, d_amount, np, d_matches);
  check(cudaGetLastError(), "launch");
  check(cudaEventRecord(b, 0), "event");
  unsigned long long gpu = 0;
  check(cudaMemcpy(&gpu, d_matches, 8, cudaMemcpyDeviceToHost), "copy");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, a, b), "event");
  ok(gcol_map_status(map, 0), "status");
  printf("fused probe of %zu orders against %zu customers (amount > 500): GPU %llu matches in %.3f ms, CPU %llu: %s\n",
         np, nb, gpu, ms, cpu, gpu == cpu ? "agree" : "DIFFER");
  gcol_map_destroy(map);
  cudaFree(d_build), cudaFree(d_probe), cudaFree(d_amount), cudaFree(d_matches);
  free(build), free(probe), free(amount), free(in_build);
  return gpu == cpu ? 0 : 1;
}
