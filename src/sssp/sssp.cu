/* gcol_sssp_many_to_many and gcol_sssp_many_to_many_pred: the table calls.
 * Two engines, picked by a policy from the call: the near-far engine (a
 * block per source, nearfar.cuh) for distances to all vertices, and the
 * warp engine (a warp per source, sssp_solve.cuh with one work item per
 * source, sssp_table_task.cuh) for target lists, where a search stops once
 * its targets are settled, and for predecessors. The predecessor table is a
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

/* Near-far for every source's distances to all vertices (its bucket width:
 * a multiple of the graph's mean arc weight); the hooks' heap size or
 * engine choice override it. */
gcol_status_t nearfar_call(const gcol_graph_t *g, const uint32_t *d_sources, size_t num_sources, float *d_dist,
                           cudaStream_t s) {
  /* no heap: nothing falls back or refills (the hooks count per call) */
  if (SSSP_HOOKS.d_fallback_sources) GCOL_CUDA_TRY(cudaMemsetAsync(SSSP_HOOKS.d_fallback_sources, 0, 4, s));
  if (SSSP_HOOKS.d_refills) GCOL_CUDA_TRY(cudaMemsetAsync(SSSP_HOOKS.d_refills, 0, 4, s));
  float factor = SSSP_HOOKS.delta_factor > 0.0f ? SSSP_HOOKS.delta_factor : GCOL_SSSP_NF_DELTA;
  float delta = g->mean_w > 0.0f ? g->mean_w * factor : 1.0f;
  if (g->kind == GCOL_GRAPH_GRID) {
    gcol::detail::grid_view v;
    v.cost = g->cost, v.faces = g->faces, v.n = g->n, v.nx = g->nx, v.ny = g->ny;
    gcol_grid_connectivity_class(g->connectivity, &v.max_class);
    return gcol::detail::nearfar_solve(g, v, d_sources, num_sources, d_dist, delta, s);
  }
  gcol::detail::csr_view v;
  v.off = g->offsets, v.tgt = g->targets, v.w = g->weights;
  return gcol::detail::nearfar_solve(g, v, d_sources, num_sources, d_dist, delta, s);
}

bool use_nearfar(const uint32_t *d_targets, const uint32_t *d_pred) {
  if (d_targets || d_pred || SSSP_HOOKS.heap_nodes || SSSP_HOOKS.engine == 1) return false;
  return true;
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
  if (d_pred) {
    GCOL_TRY(gcol_check_dptr_room("d_dist", d_dist, cells * 4, "num_sources x num_targets floats"));
    GCOL_TRY(gcol_check_dptr_room("d_pred", d_pred, cells * 4, "num_sources x num_targets uint32_t"));
    table_task<true> t = {g->n, d_sources, d_targets, row, d_dist, d_pred};
    return solve_on(g, t, num_sources, d_targets != NULL, d_targets, num_targets, s);
  }
  if (use_nearfar(d_targets, d_pred)) return nearfar_call(g, d_sources, num_sources, d_dist, s);
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
