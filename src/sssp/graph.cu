/* gcol_graph_create_csr / _create_grid3d / _destroy: device copies of the
 * input, validated on the GPU by a flagging kernel whose one-word verdict is
 * copied back (so creation synchronizes its stream once). */
#include <math.h>
#include <stdlib.h>

#include "core/api_scope.h"
#include "core/args.h"
#include "core/common.h"
#include "sssp/graph_internal.h"

using gcol::detail::api_scope;

namespace {

enum : uint32_t { BAD_OFFSETS = 1, BAD_TARGET = 2, BAD_WEIGHT = 4, BAD_COST = 8 };

/* offsets[0] == 0, non-decreasing, offsets[n] == m; targets < n; weights
 * finite and >= 0. Any failure ORs a bit into *bad. */
/* Sum of x over the warp, added once per warp to *sum (the mean weight). */
__device__ void add_sum(double x, double *sum) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
  if ((threadIdx.x & 31) == 0 && x != 0.0) atomicAdd(sum, x);
}

__global__ void check_csr(const uint32_t *off, const uint32_t *tgt, const float *w, uint32_t n, size_t m,
                          uint32_t *bad, double *sums) {
  uint32_t flags = 0;
  double sum = 0.0;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    if (off[i] > off[i + 1]) flags |= BAD_OFFSETS;
  if (blockIdx.x == 0 && threadIdx.x == 0 && (off[0] != 0 || off[n] != m)) flags |= BAD_OFFSETS;
  for (size_t e = (size_t)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += stride) {
    if (tgt[e] >= n) flags |= BAD_TARGET;
    if (!(w[e] >= 0.0f) || isinf(w[e])) flags |= BAD_WEIGHT;
    else sum += w[e];
  }
  add_sum(sum, &sums[0]);
  if (flags) atomicOr(bad, flags);
}

/* Voxel costs: >= 0 and not NaN (INFINITY is an obstacle). */
__global__ void check_costs(const float *cost, uint32_t n, uint32_t *bad, double *sums) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  bool ok = true;
  double sum = 0.0, finite = 0.0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    ok &= gcol_grid_cost_valid(cost[i]) != 0;
    if (cost[i] >= 0.0f && !isinf(cost[i])) sum += cost[i], finite += 1.0;
  }
  add_sum(sum, &sums[0]);
  add_sum(finite, &sums[1]);
  if (!ok) atomicOr(bad, (uint32_t)BAD_COST);
}

__global__ void fill_faces(uint8_t *faces, uint32_t nx, uint32_t ny, uint32_t nz) {
  size_t n = (size_t)nx * ny * nz, stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    uint32_t q = (uint32_t)(i / nx);
    faces[i] = gcol_grid_faces((uint32_t)(i % nx), q % ny, q / ny, nx, ny, nz);
  }
}

void free_graph(gcol_graph *g) {
  if (!g) return;
  g->magic = 0;
  /* cudaFree waits for the device, so work still using the graph finishes */
  cudaFree(g->offsets);
  cudaFree(g->targets);
  cudaFree(g->weights);
  cudaFree(g->cost);
  cudaFree(g->faces);
  free(g);
}

template <class T>
gcol_status_t copy_in(T **dst, const T *src, size_t count, cudaStream_t s) {
  if (count == 0) return GCOL_SUCCESS;
  GCOL_CUDA_TRY(cudaMalloc((void **)dst, count * sizeof(T)));
  GCOL_CUDA_TRY(cudaMemcpyAsync(*dst, src, count * sizeof(T), cudaMemcpyDeviceToDevice, s));
  return GCOL_SUCCESS;
}

/* Launch a checker over `items` and return its verdict (synchronizes s);
 * sums_out[0..1] receive the sums it accumulates (weights; finite costs and
 * their count). */
template <class Launch>
gcol_status_t run_check(size_t items, cudaStream_t s, double *sums_out, Launch launch) {
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  struct verdict {
    double sums[2];
    uint32_t bad;
  } *d_v = NULL, v;
  GCOL_CUDA_TRY(cudaMalloc(&d_v, sizeof *d_v));
  size_t blocks = (items + 255) / 256;
  size_t max_blocks = (size_t)dev.num_sms * 8;
  blocks = blocks < 1 ? 1 : blocks > max_blocks ? max_blocks : blocks;
  cudaError_t e = cudaMemsetAsync(d_v, 0, sizeof *d_v, s);
  if (e == cudaSuccess) {
    launch((unsigned)blocks, &d_v->bad, d_v->sums);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaMemcpyAsync(&v, d_v, sizeof v, cudaMemcpyDeviceToHost, s);
  if (e == cudaSuccess) e = cudaStreamSynchronize(s);
  cudaFree(d_v);
  if (e != cudaSuccess) return gcol_from_cuda(e);
  uint32_t bad = v.bad;
  sums_out[0] = v.sums[0], sums_out[1] = v.sums[1];
  if (!bad) return GCOL_SUCCESS;
  return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "the input breaks the rules:%s%s%s%s",
                   bad & BAD_OFFSETS ? " d_offsets is not 0 first, non-decreasing and num_edges last;" : "",
                   bad & BAD_TARGET ? " a d_targets id is >= num_vertices;" : "",
                   bad & BAD_WEIGHT ? " a d_weights entry is negative, NaN or infinite;" : "",
                   bad & BAD_COST ? " a d_voxel_cost entry is negative or NaN;" : "");
}

gcol_status_t create_csr(gcol_graph *g, const uint32_t *d_offsets, const uint32_t *d_targets,
                         const float *d_weights, cudaStream_t s) {
  GCOL_TRY(copy_in(&g->offsets, d_offsets, (size_t)g->n + 1, s));
  GCOL_TRY(copy_in(&g->targets, d_targets, g->m, s));
  GCOL_TRY(copy_in(&g->weights, d_weights, g->m, s));
  size_t items = g->m > g->n ? g->m : g->n;
  double sums[2] = {0.0, 0.0};
  GCOL_TRY(run_check(items, s, sums, [&](unsigned blocks, uint32_t *bad, double *d_sums) {
    check_csr<<<blocks, 256, 0, s>>>(g->offsets, g->targets, g->weights, g->n, g->m, bad, d_sums);
  }));
  g->mean_w = g->m ? (float)(sums[0] / (double)g->m) : 0.0f;
  return GCOL_SUCCESS;
}

gcol_status_t create_grid(gcol_graph *g, const float *d_cost, cudaStream_t s) {
  GCOL_TRY(copy_in(&g->cost, d_cost, g->n, s));
  GCOL_CUDA_TRY(cudaMalloc((void **)&g->faces, g->n));
  double sums[2] = {0.0, 0.0};
  GCOL_TRY(run_check(g->n, s, sums, [&](unsigned blocks, uint32_t *bad, double *d_sums) {
    fill_faces<<<blocks, 256, 0, s>>>(g->faces, g->nx, g->ny, g->nz);
    check_costs<<<blocks, 256, 0, s>>>(g->cost, g->n, bad, d_sums);
  }));
  g->mean_w = sums[1] > 0 ? (float)(1.2 * sums[0] / sums[1]) : 0.0f;
  return GCOL_SUCCESS;
}

}  // namespace

extern "C" gcol_status_t gcol_graph_create_csr(gcol_graph_t **out, size_t num_vertices, size_t num_edges,
                                                const uint32_t *d_offsets, const uint32_t *d_targets,
                                                const float *d_weights, cudaStream_t s) {
  api_scope r("gcol_graph_create_csr");
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "g (the output handle) is NULL");
  *out = NULL;
  if (num_vertices == 0 || num_vertices > UINT32_MAX)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "num_vertices %zu is not in 1 .. 2^32 - 1", num_vertices);
  if (num_edges > UINT32_MAX)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "num_edges %zu is more than 2^32 - 1", num_edges);
  gcol_dptr_t a[] = {{"d_offsets", d_offsets, num_vertices + 1, 4, "uint32_t offsets"},
                     {"d_targets", d_targets, num_edges, 4, "uint32_t vertex ids"},
                     {"d_weights", d_weights, num_edges, 4, "float weights"}};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  gcol_graph *g = (gcol_graph *)calloc(1, sizeof *g);
  if (!g) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the graph object");
  g->magic = GCOL_GRAPH_MAGIC;
  g->kind = GCOL_GRAPH_CSR;
  g->n = (uint32_t)num_vertices;
  g->m = num_edges;
  gcol_status_t st = create_csr(g, d_offsets, d_targets, d_weights, s);
  if (st != GCOL_SUCCESS) {
    cudaStreamSynchronize(s); /* the copies may still be reading the input */
    free_graph(g);
    return st;
  }
  *out = g;
  return GCOL_SUCCESS;
}

extern "C" gcol_status_t gcol_graph_create_grid3d(gcol_graph_t **out, uint32_t nx, uint32_t ny, uint32_t nz,
                                                   const float *d_voxel_cost, int connectivity, cudaStream_t s) {
  api_scope r("gcol_graph_create_grid3d");
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "g (the output handle) is NULL");
  *out = NULL;
  int max_class;
  uint64_t n = (uint64_t)nx * ny * nz;
  if (n == 0 || n > UINT32_MAX)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "nx * ny * nz = %u * %u * %u is not in 1 .. 2^32 - 1", nx, ny, nz);
  if (!gcol_grid_connectivity_class(connectivity, &max_class))
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "connectivity %d is not 6, 18 or 26", connectivity);
  gcol_dptr_t a[] = {{"d_voxel_cost", d_voxel_cost, (size_t)n, 4, "float voxel costs"}};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  gcol_graph *g = (gcol_graph *)calloc(1, sizeof *g);
  if (!g) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the graph object");
  g->magic = GCOL_GRAPH_MAGIC;
  g->kind = GCOL_GRAPH_GRID;
  g->n = (uint32_t)n;
  g->m = (size_t)n * (size_t)connectivity;
  g->nx = nx, g->ny = ny, g->nz = nz;
  g->connectivity = connectivity;
  gcol_status_t st = create_grid(g, d_voxel_cost, s);
  if (st != GCOL_SUCCESS) {
    cudaStreamSynchronize(s);
    free_graph(g);
    return st;
  }
  *out = g;
  return GCOL_SUCCESS;
}

extern "C" void gcol_graph_destroy(gcol_graph_t *g) {
  if (!g || g->magic != GCOL_GRAPH_MAGIC) return;
  api_scope r("gcol_graph_destroy");
  free_graph(g);
}
