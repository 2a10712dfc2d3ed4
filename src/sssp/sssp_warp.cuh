/* What one warp does for one source: Dijkstra with lazy deletion on a warp
 * heap, over a graph view that hands out a vertex's arcs 32 at a time. */
#ifndef GCOL_SRC_SSSP_SSSP_WARP_CUH
#define GCOL_SRC_SSSP_SSSP_WARP_CUH

#include <math.h>
#include <stdint.h>

#include "gcol/device/warp_heap.cuh"
#include "sssp/graph_internal.h"

namespace gcol {
namespace detail {

/* CSR arcs: each round of the loop gives lane l the arc base + l. */
struct csr_view {
  const uint32_t *off, *tgt;
  const float *w;
  __device__ bool source_ok(uint32_t) const { return true; }
  template <class F>
  __device__ bool expand(uint32_t u, unsigned lane, F &&relax) const {
    uint32_t b = __ldg(&off[u]), e = __ldg(&off[u + 1]);
    for (uint32_t base = b; base < e; base += 32) { /* warp-uniform bounds */
      uint32_t i = base + lane;
      bool ok = i < e;
      if (!relax(ok, ok ? __ldg(&tgt[i]) : 0u, ok ? __ldg(&w[i]) : 0.0f)) return false;
    }
    return true;
  }
};

/* Implicit voxel grid: lane l < 26 handles direction l (graph_internal.h). */
struct grid_view {
  const float *cost;
  uint32_t nx, ny, nz;
  int max_class;
  __device__ bool source_ok(uint32_t s) const { return !isinf(__ldg(&cost[s])); }
  template <class F>
  __device__ bool expand(uint32_t u, unsigned lane, F &&relax) const {
    float cu = __ldg(&cost[u]);
    int x = (int)(u % nx), y = (int)((u / nx) % ny), z = (int)(u / nx / ny);
    int dx = 0, dy = 0, dz = 0;
    int cls = lane < 26 ? gcol_grid_dir((int)lane, &dx, &dy, &dz) : 4;
    int X = x + dx, Y = y + dy, Z = z + dz;
    bool ok = cls <= max_class && X >= 0 && Y >= 0 && Z >= 0 && X < (int)nx && Y < (int)ny && Z < (int)nz;
    uint32_t v = ok ? (uint32_t)X + nx * ((uint32_t)Y + ny * (uint32_t)Z) : 0u;
    float cv = ok ? __ldg(&cost[v]) : INFINITY;
    ok = ok && !isinf(cv);
    return relax(ok, v, ok ? gcol_grid_weight(cu, cv, gcol_grid_step(cls)) : 0.0f);
  }
};

/* Distances from s into dist[0..n) (global, private to this warp). With
 * target flags, stop once `distinct` flagged vertices are settled. Returns
 * false when the heap overflowed (dist is then incomplete).
 *
 * dist is written by plain stores (the fill) and atomicMin (relaxations:
 * two lanes may reach one vertex through parallel arcs), and read with
 * __ldcg, at L2 where the atomics land, never through a stale L1 line.
 * Non-negative floats order like their bit patterns as ints. */
template <class G>
__device__ bool warp_dijkstra(const G &g, uint32_t n, uint32_t s, float *dist, const uint32_t *target_flags,
                              uint32_t distinct, warp_heap &h) {
  unsigned lane = threadIdx.x & 31;
  for (uint32_t i = lane; i < n; i += 32) dist[i] = INFINITY;
  __syncwarp();
  if (!g.source_ok(s) || (target_flags && distinct == 0)) return true;
  if (lane == 0) dist[s] = 0.0f;
  __syncwarp();
  h.clear();
  h.push(0.0f, s);
  uint32_t left = distinct;
  float d;
  uint32_t u;
  while (h.pop(d, u)) {
    if (d > __ldcg(&dist[u])) continue; /* stale: u was reached cheaper */
    if (target_flags && __ldg(&target_flags[u]) && --left == 0) break;
    bool fit = g.expand(u, lane, [&](bool ok, uint32_t v, float w) {
      float nd = __fadd_rn(d, w);
      bool better = false;
      if (ok && nd < __ldcg(&dist[v])) {
        int old = atomicMin((int *)&dist[v], __float_as_int(nd));
        better = nd < __int_as_float(old);
      }
      return h.push_bulk(better, nd, v);
    });
    if (!fit) return false;
  }
  return true;
}

}  // namespace detail
}  // namespace gcol
#endif
