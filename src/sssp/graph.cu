/* gcol_graph_create_csr / _create_grid3d (and their _with forms, which take
 * a gcol_graph_config_t) / _destroy: device copies of the input, validated on
 * the GPU by a flagging kernel whose one-word verdict is copied back (so
 * creation synchronizes its stream once). Every device allocation goes
 * through graph_alloc / graph_free: the config's allocator, or cudaMalloc /
 * cudaFree when it is zeroed (the graph's arrays live as long as the graph;
 * the solver's scratch takes the same allocator, stream-ordered). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/api_scope.h"
#include "core/args.h"
#include "core/common.h"
#include "core/config_abi.h"
#include "core/device_alloc.h"
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

/* Device memory of the graph: its allocator's (on s), or cudaMalloc. */
gcol_status_t graph_alloc(const gcol_graph *g, void **p, size_t bytes, cudaStream_t s) {
  if (g->allocator.alloc) return gcol_device_alloc(&g->allocator, p, bytes, s);
  *p = NULL;
  if (bytes == 0) return GCOL_SUCCESS;
  GCOL_CUDA_TRY(cudaMalloc(p, bytes));
  return GCOL_SUCCESS;
}

/* Give back what graph_alloc gave (NULL: nothing), with the same size:
 * the allocator's free, stream-ordered on s, or cudaFree (which waits for
 * the device, so work still using the memory finishes). */
void graph_free(const gcol_graph *g, void *p, size_t bytes, cudaStream_t s) {
  if (!p) return;
  if (g->allocator.free) g->allocator.free(g->allocator.ctx, p, bytes, s);
  else cudaFree(p);
}

/* The arrays, freed with the sizes they were allocated with (copy_in and
 * create_grid): CSR offsets, targets, weights; grid costs and faces. The
 * caller has made sure that no work uses them any more, or that s orders
 * the frees after it. */
void free_graph(gcol_graph *g, cudaStream_t s) {
  if (!g) return;
  g->magic = 0;
  size_t n = g->n, arcs = g->kind == GCOL_GRAPH_CSR ? g->m : 0;
  graph_free(g, g->offsets, (n + 1) * sizeof(uint32_t), s);
  graph_free(g, g->targets, arcs * sizeof(uint32_t), s);
  graph_free(g, g->weights, arcs * sizeof(float), s);
  graph_free(g, g->cost, n * sizeof(float), s);
  graph_free(g, g->faces, n, s);
  free(g);
}

template <class T>
gcol_status_t copy_in(const gcol_graph *g, T **dst, const T *src, size_t count, cudaStream_t s) {
  if (count == 0) return GCOL_SUCCESS;
  GCOL_TRY(graph_alloc(g, (void **)dst, count * sizeof(T), s));
  GCOL_CUDA_TRY(cudaMemcpyAsync(*dst, src, count * sizeof(T), cudaMemcpyDeviceToDevice, s));
  return GCOL_SUCCESS;
}

/* Launch a checker over `items` and return its verdict (synchronizes s);
 * sums_out[0..1] receive the sums it accumulates (weights; finite costs and
 * their count). */
template <class Launch>
gcol_status_t run_check(const gcol_graph *g, size_t items, cudaStream_t s, double *sums_out, Launch launch) {
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  struct verdict {
    double sums[2];
    uint32_t bad;
  } *d_v = NULL, v;
  GCOL_TRY(graph_alloc(g, (void **)&d_v, sizeof *d_v, s));
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
  graph_free(g, d_v, sizeof *d_v, s);
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
  GCOL_TRY(copy_in(g, &g->offsets, d_offsets, (size_t)g->n + 1, s));
  GCOL_TRY(copy_in(g, &g->targets, d_targets, g->m, s));
  GCOL_TRY(copy_in(g, &g->weights, d_weights, g->m, s));
  size_t items = g->m > g->n ? g->m : g->n;
  double sums[2] = {0.0, 0.0};
  GCOL_TRY(run_check(g, items, s, sums, [&](unsigned blocks, uint32_t *bad, double *d_sums) {
    check_csr<<<blocks, 256, 0, s>>>(g->offsets, g->targets, g->weights, g->n, g->m, bad, d_sums);
  }));
  g->mean_w = g->m ? (float)(sums[0] / (double)g->m) : 0.0f;
  return GCOL_SUCCESS;
}

gcol_status_t create_grid(gcol_graph *g, const float *d_cost, cudaStream_t s) {
  GCOL_TRY(copy_in(g, &g->cost, d_cost, g->n, s));
  GCOL_TRY(graph_alloc(g, (void **)&g->faces, g->n, s));
  double sums[2] = {0.0, 0.0};
  GCOL_TRY(run_check(g, g->n, s, sums, [&](unsigned blocks, uint32_t *bad, double *d_sums) {
    fill_faces<<<blocks, 256, 0, s>>>(g->faces, g->nx, g->ny, g->nz);
    check_costs<<<blocks, 256, 0, s>>>(g->cost, g->n, bad, d_sums);
  }));
  g->mean_w = sums[1] > 0 ? (float)(1.2 * sums[0] / sums[1]) : 0.0f;
  return GCOL_SUCCESS;
}

/* The caller's config over this library's defaults (GCOL_CONFIG_HEADER),
 * and its rules. NULL cfg_in: the defaults (the calls without a config). */
gcol_status_t take_config(const gcol_graph_config_t *cfg_in, gcol_graph_config_t *c) {
  *c = gcol_graph_config_default();
  if (!cfg_in) return GCOL_SUCCESS;
  GCOL_TRY(gcol_config_take(cfg_in, c, GCOL_GRAPH_CONFIG_SIZE_1_4, sizeof *c, "cfg"));
  if ((c->allocator.alloc == NULL) != (c->allocator.free == NULL))
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "cfg->allocator sets only one of alloc and free");
  return GCOL_SUCCESS;
}

/* A new handle of the given kind with the config's allocator, or NULL (no host memory). */
gcol_graph *new_graph(gcol_graph_kind_t kind, const gcol_graph_config_t &c) {
  gcol_graph *g = (gcol_graph *)calloc(1, sizeof *g);
  if (!g) return NULL;
  g->magic = GCOL_GRAPH_MAGIC;
  g->kind = kind;
  g->allocator = c.allocator;
  return g;
}

/* The end of a creation: the handle, or on failure everything freed (the
 * copies may still be reading the input: s is synchronized first). */
gcol_status_t finish_create(gcol_graph *g, gcol_status_t st, gcol_graph_t **out, cudaStream_t s) {
  if (st != GCOL_SUCCESS) {
    cudaStreamSynchronize(s);
    free_graph(g, s);
    return st;
  }
  *out = g;
  return GCOL_SUCCESS;
}

gcol_status_t create_csr_call(gcol_graph_t **out, size_t num_vertices, size_t num_edges, const uint32_t *d_offsets,
                              const uint32_t *d_targets, const float *d_weights, const gcol_graph_config_t *cfg,
                              bool cfg_required, cudaStream_t s) {
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "g (the output handle) is NULL");
  *out = NULL;
  if (cfg_required && !cfg) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "cfg is NULL");
  gcol_graph_config_t c;
  GCOL_TRY(take_config(cfg, &c));
  if (num_vertices == 0 || num_vertices > UINT32_MAX)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "num_vertices %zu is not in 1 .. 2^32 - 1", num_vertices);
  if (num_edges > UINT32_MAX)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "num_edges %zu is more than 2^32 - 1", num_edges);
  gcol_dptr_t a[] = {{"d_offsets", d_offsets, num_vertices + 1, 4, "uint32_t offsets"},
                     {"d_targets", d_targets, num_edges, 4, "uint32_t vertex ids"},
                     {"d_weights", d_weights, num_edges, 4, "float weights"}};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  gcol_graph *g = new_graph(GCOL_GRAPH_CSR, c);
  if (!g) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the graph object");
  g->n = (uint32_t)num_vertices;
  g->m = num_edges;
  return finish_create(g, create_csr(g, d_offsets, d_targets, d_weights, s), out, s);
}

gcol_status_t create_grid_call(gcol_graph_t **out, uint32_t nx, uint32_t ny, uint32_t nz, const float *d_voxel_cost,
                               int connectivity, const gcol_graph_config_t *cfg, bool cfg_required, cudaStream_t s) {
  if (!out) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "g (the output handle) is NULL");
  *out = NULL;
  if (cfg_required && !cfg) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "cfg is NULL");
  gcol_graph_config_t c;
  GCOL_TRY(take_config(cfg, &c));
  int max_class;
  uint64_t n = (uint64_t)nx * ny * nz;
  if (n == 0 || n > UINT32_MAX)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "nx * ny * nz = %u * %u * %u is not in 1 .. 2^32 - 1", nx, ny, nz);
  if (!gcol_grid_connectivity_class(connectivity, &max_class))
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "connectivity %d is not 6, 18 or 26", connectivity);
  gcol_dptr_t a[] = {{"d_voxel_cost", d_voxel_cost, (size_t)n, 4, "float voxel costs"}};
  GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  gcol_graph *g = new_graph(GCOL_GRAPH_GRID, c);
  if (!g) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the graph object");
  g->n = (uint32_t)n;
  g->m = (size_t)n * (size_t)connectivity;
  g->nx = nx, g->ny = ny, g->nz = nz;
  g->connectivity = connectivity;
  return finish_create(g, create_grid(g, d_voxel_cost, s), out, s);
}

}  // namespace

extern "C" gcol_graph_config_t gcol_graph_config_default(void) {
  gcol_graph_config_t c;
  memset(&c, 0, sizeof c);
  gcol_config_header_t h = gcol_config_header(sizeof c);
  memcpy(&c, &h, sizeof h);
  return c;
}

extern "C" gcol_status_t gcol_graph_create_csr(gcol_graph_t **out, size_t num_vertices, size_t num_edges,
                                                const uint32_t *d_offsets, const uint32_t *d_targets,
                                                const float *d_weights, cudaStream_t s) {
  api_scope r("gcol_graph_create_csr");
  return create_csr_call(out, num_vertices, num_edges, d_offsets, d_targets, d_weights, NULL, false, s);
}

extern "C" gcol_status_t gcol_graph_create_csr_with(gcol_graph_t **out, size_t num_vertices, size_t num_edges,
                                                     const uint32_t *d_offsets, const uint32_t *d_targets,
                                                     const float *d_weights, const gcol_graph_config_t *cfg,
                                                     cudaStream_t s) {
  api_scope r("gcol_graph_create_csr_with");
  return create_csr_call(out, num_vertices, num_edges, d_offsets, d_targets, d_weights, cfg, true, s);
}

extern "C" gcol_status_t gcol_graph_create_grid3d(gcol_graph_t **out, uint32_t nx, uint32_t ny, uint32_t nz,
                                                   const float *d_voxel_cost, int connectivity, cudaStream_t s) {
  api_scope r("gcol_graph_create_grid3d");
  return create_grid_call(out, nx, ny, nz, d_voxel_cost, connectivity, NULL, false, s);
}

extern "C" gcol_status_t gcol_graph_create_grid3d_with(gcol_graph_t **out, uint32_t nx, uint32_t ny, uint32_t nz,
                                                        const float *d_voxel_cost, int connectivity,
                                                        const gcol_graph_config_t *cfg, cudaStream_t s) {
  api_scope r("gcol_graph_create_grid3d_with");
  return create_grid_call(out, nx, ny, nz, d_voxel_cost, connectivity, cfg, true, s);
}

extern "C" void gcol_graph_destroy(gcol_graph_t *g) {
  if (!g || g->magic != GCOL_GRAPH_MAGIC) return;
  api_scope r("gcol_graph_destroy");
  /* Calls on the graph may be pending on any stream: wait for them all (the
   * default cudaFree waits by itself), then free on stream 0. */
  if (g->allocator.free) cudaDeviceSynchronize();
  free_graph(g, 0);
}
