/* gcol_sssp_many_to_many and gcol_sssp_many_to_many_pred: the table calls.
 * Two engines, picked by a policy from the call and the graph (pick_engine):
 * the near-far engine (a block per source, nearfar.cuh) for distances, to
 * all vertices or to target lists, and the warp engine (a warp per source,
 * sssp_solve.cuh with one work item per source, sssp_table_task.cuh) for
 * predecessors and where near-far's blocks do not fit. Either stops a
 * search once its targets are final. The predecessor table is a
 * separate compiled variant of the warp engine, so the distances-only
 * kernels are the same as before it existed. */
#include "core/api_scope.h"
#include "core/args.h"
#include "core/dptr_room.h"
#include "sssp/nearfar.cuh"
#include "sssp/sssp_solve.cuh"
#include "sssp/sssp_table_task.cuh"

using gcol::detail::api_scope;
using gcol::detail::table_task;

namespace {

enum { ENGINE_WARP = 1, ENGINE_NEARFAR = 2 };

/* The near-far bucket width in mean arc weights, from the graph's class:
 * 2 on a grid of one layer (the 2D grid), 8 elsewhere. The sweep of issue
 * 27 (docs/experiments.md, widths 1-16) put the 2D grid's best at 2 (9% ahead
 * of 8), the road networks' at 8-16 (5-11% ahead of 2) and the voxel grid
 * flat from 1 to 8. Not the weights make the difference (both grids draw
 * the same costs); the class does, so the rule names the class. The hooks'
 * factor overrides it. */
float nf_delta(const gcol_graph_t *g) {
  float factor = SSSP_HOOKS.delta_factor > 0.0f ? SSSP_HOOKS.delta_factor
                 : g->kind == GCOL_GRAPH_GRID && g->nz == 1 ? GCOL_SSSP_NF_DELTA_2D_GRID
                                                           : GCOL_SSSP_NF_DELTA;
  return g->mean_w > 0.0f ? g->mean_w * factor : 1.0f;
}

/* The policy: which engine runs a table call. Predecessors: the warp
 * engine (near-far has none). Distances only, to all vertices or to a
 * target list: near-far, when one of its blocks per SM fits in half the
 * free device memory (nearfar_fit_in_memory, the sizing the engine runs
 * with: 6n words, plus n floats and two target lists with targets), else
 * the warp engine, whose scratch is per warp (4n bytes with targets) and
 * which can run with fewer. Near-far is a block
 * of 8 warps expanding a bucket of vertices together, where the warp
 * engine expands one vertex per warp step: on the bench's graphs it was
 * 3.3x-9x faster at 256-1,024 sources, and at 4,096 sources with target
 * lists (the warp engine's best case, 31 warps per SM) still 2.1x (voxel
 * grid), 1.24x and 1.41x (road networks) faster, and level on a 6,067-vertex
 * road graph (docs/experiments.md, issue 27). A target list of 2^31 or more entries
 * (its pending count is 32-bit) and the hooks' heap size go to the warp
 * engine; the hooks' engine forces either. *fit: near-far's sizing, set
 * whenever *engine is ENGINE_NEARFAR. */
gcol_status_t pick_engine(const gcol_graph_t *g, bool targets, size_t num_targets, bool pred, int *engine,
                          gcol::detail::nearfar_fit *fit) {
  *engine = ENGINE_WARP;
  if (pred || SSSP_HOOKS.heap_nodes || SSSP_HOOKS.engine == ENGINE_WARP) return GCOL_SUCCESS;
  if (targets && num_targets >= ((size_t)1 << 31)) return GCOL_SUCCESS;
  GCOL_TRY(gcol::detail::nearfar_fit_in_memory(g->n, targets, num_targets, fit));
  if (SSSP_HOOKS.engine == ENGINE_NEARFAR) {
    *engine = ENGINE_NEARFAR;
    return GCOL_SUCCESS;
  }
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  if (fit->mem_blocks >= (size_t)dev.num_sms) *engine = ENGINE_NEARFAR;
  return GCOL_SUCCESS;
}

void note_engine(int engine) {
#ifdef GCOL_TESTING
  gcol_test_hooks.sssp.last_engine = (uint32_t)engine;
#else
  (void)engine;
#endif
}

/* A distances-only table on the near-far engine, sized by pick_engine's fit. */
gcol_status_t nearfar_call(const gcol_graph_t *g, const gcol::detail::nearfar_fit &fit, const uint32_t *d_sources,
                           size_t num_sources, const uint32_t *d_targets, float *d_dist, cudaStream_t s) {
  /* no heap: nothing falls back or refills (the hooks count per call) */
  if (SSSP_HOOKS.d_fallback_sources) GCOL_CUDA_TRY(cudaMemsetAsync(SSSP_HOOKS.d_fallback_sources, 0, 4, s));
  if (SSSP_HOOKS.d_refills) GCOL_CUDA_TRY(cudaMemsetAsync(SSSP_HOOKS.d_refills, 0, 4, s));
  float delta = nf_delta(g);
  size_t max_blocks = SSSP_HOOKS.nf_blocks;
  int threads = SSSP_HOOKS.nf_threads ? (int)SSSP_HOOKS.nf_threads : gcol::detail::nearfar_threads();
  if (g->kind == GCOL_GRAPH_GRID) {
    gcol::detail::grid_view v;
    v.cost = g->cost, v.faces = g->faces, v.n = g->n, v.nx = g->nx, v.ny = g->ny;
    gcol_grid_connectivity_class(g->connectivity, &v.max_class);
    return gcol::detail::nearfar_solve(g, v, fit, d_sources, num_sources, d_targets, d_dist, delta, threads,
                                       max_blocks, s);
  }
  gcol::detail::csr_view v;
  v.off = g->offsets, v.tgt = g->targets, v.w = g->weights;
  return gcol::detail::nearfar_solve(g, v, fit, d_sources, num_sources, d_targets, d_dist, delta, threads,
                                     max_blocks, s);
}

gcol_status_t table_call(const gcol_graph_t *g, const uint32_t *d_sources, size_t num_sources,
                         const uint32_t *d_targets, size_t num_targets, float *d_dist, uint32_t *d_pred,
                         cudaStream_t s) {
  GCOL_TRY(gcol_check_handle(g, g ? g->magic : 0, GCOL_GRAPH_MAGIC, "gcol_graph_t"));
  if (num_sources > UINT32_MAX)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "num_sources %zu is more than 2^32 - 1", num_sources);
  if (!d_targets && num_targets != g->n)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "d_targets is NULL (all vertices) but num_targets %zu is not the "
                     "vertex count %u", num_targets, g->n);
  if (num_targets && num_sources > SIZE_MAX / sizeof(float) / num_targets)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "num_sources x num_targets = %zu x %zu floats overflow size_t",
                     num_sources, num_targets);
  size_t work = num_targets ? num_sources : 0; /* no work: nothing is read or written */
  size_t cells = work * num_targets;
  gcol_dptr_t a[] = {{"d_sources", d_sources, work, 4, "uint32_t vertex ids"},
                     {"d_targets", d_targets, d_targets && num_sources ? num_targets : 0, 4, "uint32_t vertex ids"},
                     {"d_dist", d_dist, cells, 4, "float distances"},
                     {"d_pred", d_pred, d_pred ? cells : 0, 4, "uint32_t predecessors"}};
  GCOL_TRY(gcol_check_dptrs_host(a, GCOL_NARGS(a)));
  if (work == 0) return GCOL_SUCCESS;
  GCOL_TRY(gcol_require_device());
  GCOL_TRY(gcol_check_dptrs_device(a, GCOL_NARGS(a)));
  size_t row = d_targets ? num_targets : g->n;
  int engine = ENGINE_WARP;
  gcol::detail::nearfar_fit fit;
  GCOL_TRY(pick_engine(g, d_targets != NULL, num_targets, d_pred != NULL, &engine, &fit));
  note_engine(engine);
  if (d_pred) {
    GCOL_TRY(gcol_check_dptr_room("d_dist", d_dist, cells * 4, "num_sources x num_targets floats"));
    GCOL_TRY(gcol_check_dptr_room("d_pred", d_pred, cells * 4, "num_sources x num_targets uint32_t"));
    table_task<true> t = {g->n, d_sources, d_targets, row, d_dist, d_pred};
    return solve_on(g, t, num_sources, d_targets != NULL, d_targets, num_targets, s);
  }
  if (engine == ENGINE_NEARFAR) return nearfar_call(g, fit, d_sources, num_sources, d_targets, d_dist, s);
  table_task<false> t = {g->n, d_sources, d_targets, row, d_dist, NULL};
  return solve_on(g, t, num_sources, d_targets != NULL, d_targets, num_targets, s);
}

}  // namespace

extern "C" gcol_status_t gcol_sssp_many_to_many(const gcol_graph_t *g, const uint32_t *d_sources,
                                                 size_t num_sources, const uint32_t *d_targets, size_t num_targets,
                                                 float *d_dist, cudaStream_t s) {
  api_scope r("gcol_sssp_many_to_many");
  return table_call(g, d_sources, num_sources, d_targets, num_targets, d_dist, NULL, s);
}

extern "C" gcol_status_t gcol_sssp_many_to_many_pred(const gcol_graph_t *g, const uint32_t *d_sources,
                                                      size_t num_sources, const uint32_t *d_targets,
                                                      size_t num_targets, float *d_dist, uint32_t *d_pred,
                                                      cudaStream_t s) {
  api_scope r("gcol_sssp_many_to_many_pred");
  return table_call(g, d_sources, num_sources, d_targets, num_targets, d_dist, d_pred, s);
}
