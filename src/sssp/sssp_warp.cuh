/* What one warp does for one source: Dijkstra with lazy deletion on a warp
 * heap, over a graph view that hands out a vertex's arcs 32 at a time. */
#ifndef GCOL_SRC_SSSP_SSSP_WARP_CUH
#define GCOL_SRC_SSSP_SSSP_WARP_CUH

#include <math.h>
#include <stdint.h>

#include "gcol/device/warp_heap.cuh"
#include "gcol/gcol.h" /* GCOL_SSSP_NO_PRED */
#include "sssp/graph_internal.h"

namespace gcol {
namespace detail {

/* A graph view hands out a vertex's arcs in two steps: load(u) issues the
 * loads that depend only on u, so that the solver can issue its own read of
 * dist[u] alongside (one memory round trip for both, the stale check then
 * waits on all of them); relax_all then feeds each lane one arc per round. */

/* A hint that the line holding p will be read soon (at L2, where the
 * solver's loads and atomics on dist are served). */
__device__ __forceinline__ void prefetch_l2(const void *p) { asm volatile("prefetch.global.L2 [%0];" ::"l"(p)); }

/* CSR arcs: load fetches u's arc range; each round gives lane l arc base + l. */
struct csr_view {
  const uint32_t *off, *tgt;
  const float *w;
  struct arcs {
    uint32_t b, e;
  };
  __device__ bool source_ok(uint32_t) const { return true; }
  __device__ arcs load(uint32_t u, unsigned) const { return arcs{__ldg(&off[u]), __ldg(&off[u + 1])}; }
  template <class F>
  __device__ bool relax_all(const arcs &a, unsigned lane, F &&relax) const {
    for (uint32_t base = a.b; base < a.e; base += 32) { /* warp-uniform bounds */
      uint32_t i = base + lane;
      bool ok = i < a.e;
      if (!relax(ok, ok ? __ldg(&tgt[i]) : 0u, ok ? __ldg(&w[i]) : 0.0f)) return false;
    }
    return true;
  }
};

/* Implicit voxel grid: lane l < 26 handles direction l (graph_internal.h);
 * load fetches both voxel costs and the expanded voxel's faces byte (which
 * grid faces it lies on), so the whole arc is known after one round trip. A
 * lane's direction is two words that the solver's loop keeps (its
 * neighbour's index offset, and which faces block it), not coordinates. */
struct grid_view {
  const float *cost;
  const uint8_t *faces; /* gcol_grid_faces per voxel */
  uint32_t n, nx, ny;
  int max_class;
  struct arcs {
    uint32_t v;
    float cu, cv;
    int cls;
  };
  __device__ bool source_ok(uint32_t s) const { return !isinf(__ldg(&cost[s])); }
  /* This lane's direction: bits 0-5 the faces (x = 0, x = nx - 1, y = 0, ...)
   * that block it, bit 6 set when the lane has no admitted direction, the
   * step class from bit 8; *delta the index offset of the neighbour (mod 2^32). */
  __device__ uint32_t lane_dir(unsigned lane, uint32_t &delta) const {
    int dx = 0, dy = 0, dz = 0;
    int cls = lane < 26 ? gcol_grid_dir((int)lane, &dx, &dy, &dz) : 4;
    delta = (uint32_t)dx + (uint32_t)dy * nx + (uint32_t)dz * nx * ny;
    return (uint32_t)(dx < 0) | (uint32_t)(dx > 0) << 1 | (uint32_t)(dy < 0) << 2 | (uint32_t)(dy > 0) << 3 |
           (uint32_t)(dz < 0) << 4 | (uint32_t)(dz > 0) << 5 | (uint32_t)(cls > max_class) << 6 | (uint32_t)cls << 8;
  }
  /* The neighbour's cost is loaded alongside the faces byte that says
   * whether the neighbour exists (from an index clamped into the grid), not
   * after it. */
  __device__ arcs load(uint32_t u, unsigned lane) const {
    uint32_t delta, dir = lane_dir(lane, delta);
    uint32_t v = u + delta;
    v = v < n ? v : n - 1;
    float cu = __ldg(&cost[u]), cv = dir & 0x40u ? INFINITY : __ldg(&cost[v]);
    bool in = (dir & __ldg(&faces[u])) == 0;
    return arcs{in ? v : 0u, cu, in ? cv : INFINITY, (int)(dir >> 8)};
  }
  template <class F>
  __device__ bool relax_all(const arcs &a, unsigned, F &&relax) const {
    bool ok = !isinf(a.cv);
    return relax(ok, a.v, ok ? gcol_grid_weight(a.cu, a.cv, gcol_grid_step(a.cls)) : 0.0f);
  }
};

/* Overflow handling: threshold phases. The lazy heap holds stale duplicates;
 * what Dijkstra needs is one entry per unsettled vertex with d <= dist[v] <
 * INFINITY (d: the key being expanded). When those do not all fit, the warp
 * keeps only the ones below a threshold T in the heap: relaxations to T or
 * more update dist but are not pushed, and when the heap runs dry every
 * vertex below T is settled (a path into a vertex below T only passes through
 * vertices below T), so the next phase refills from d = T. The source keeps
 * its primary heap (meta in shared memory) throughout; the price is a scan of
 * dist per refill.
 *
 * refill_heap rebuilds the heap with the vertices in [d, T). It counts before
 * it pushes: a count pass gives the number of keys in [d, T), their smallest
 * (lo) and largest; when they would fill more than refill_fill eighths of the
 * heap, a pass counts the keys below eight evenly spaced bounds in (lo, top]
 * and T becomes the highest bound that fits (none fits: the search narrows to
 * (lo, first bound] and counts again). So the one push pass always fits. (It
 * used to push first and count after an overflow: the pushes that were
 * thrown away made a third of all heap merges on the 4,096-source voxel
 * bench; docs/experiments.md.) False when T cannot separate the keys (more keys
 * equal to lo than fit): the caller falls back.
 * Vertices at exactly d may already be settled: pushing them again only
 * re-relaxes their arcs, and `left` is recounted from the targets strictly
 * below d so that they are not counted twice.
 * Scans take 4 x 32 vertices per step to keep loads in flight. */
constexpr uint32_t refill_fill = 5; /* eighths of the heap a refill may fill */

__device__ __forceinline__ void load_step(const float *dist, uint32_t n, uint32_t base, float (&dv)[4]) {
  unsigned lane = threadIdx.x & 31;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    uint32_t v = base + 32 * j + lane;
    dv[j] = v < n ? __ldcg(&dist[v]) : INFINITY; /* L2: where the relaxations' atomics land */
  }
}

__device__ __forceinline__ uint32_t warp_sum(uint32_t x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
  return x;
}

/* Count of the keys in [d, t) of dist, their smallest (lo) and largest. */
__device__ __forceinline__ void count_range(const float *dist, uint32_t n, float d, float t, uint32_t &count,
                                            float &lo, float &top) {
  count = 0, lo = t, top = d;
  for (uint32_t base = 0; base < n; base += 128) {
    float dv[4];
    load_step(dist, n, base, dv);
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (dv[j] >= d && dv[j] < t) ++count, lo = fminf(lo, dv[j]), top = fmaxf(top, dv[j]);
  }
  count = warp_sum(count);
  for (int o = 16; o > 0; o >>= 1) {
    lo = fminf(lo, __shfl_xor_sync(0xffffffffu, lo, o));
    top = fmaxf(top, __shfl_xor_sync(0xffffffffu, top, o));
  }
}

/* The keys >= d below each of the ascending bounds b (all <= t): c[j]. */
__device__ __forceinline__ void count_below(const float *dist, uint32_t n, float d, const float (&b)[8],
                                            uint32_t (&c)[8]) {
#pragma unroll
  for (int j = 0; j < 8; ++j) c[j] = 0;
  for (uint32_t base = 0; base < n; base += 128) {
    float dv[4];
    load_step(dist, n, base, dv);
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j) c[j] += dv[i] >= d && dv[i] < b[j];
  }
#pragma unroll
  for (int j = 0; j < 8; ++j) c[j] = warp_sum(c[j]);
}

/* The threshold for a refill from d (keys in [d, t) are candidates): t
 * itself when they fit, else the highest counted bound that fits; ok false
 * when none separates them. count: the candidates in [d, t). Out of line
 * and by value: its eight counters and bounds get registers of their own,
 * not the solver loop's (a refill is rare; its call costs nothing here). */
struct refill_bound {
  float t;
  uint32_t count;
  bool ok;
};
__device__ __noinline__ inline refill_bound refill_threshold(const float *dist, uint32_t n, float d, float t, uint32_t fit) {
  refill_bound r = {t, 0, true};
  float lo, hi;
  count_range(dist, n, d, t, r.count, lo, hi);
  if (r.count <= fit) return r;
  for (int round = 0; round < 8 && hi > lo; ++round) {
    float b[8], step = (hi - lo) * 0.125f;
    uint32_t c[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) b[j] = j == 7 ? hi : lo + step * (float)(j + 1);
    count_below(dist, n, d, b, c);
    bool found = false;
#pragma unroll
    for (int j = 0; j < 8; ++j) /* c rises with j: the last that fits is the highest */
      if (c[j] <= fit && b[j] > lo) r.t = b[j], found = true;
    if (found) return r;
    hi = b[0];
  }
  r.ok = false;
  return r;
}

__device__ inline bool refill_heap(warp_heap &h, const float *dist, uint32_t n, float d, float &t,
                            const uint32_t *target_flags, uint32_t distinct, uint32_t &left) {
  unsigned lane = threadIdx.x & 31;
  uint64_t room = h.capacity_pairs() / 8 * refill_fill;
  refill_bound r = refill_threshold(dist, n, d, t, (uint32_t)(room < UINT32_MAX ? room : UINT32_MAX));
  if (!r.ok) return false;
  t = r.t;
  h.clear();
  if (r.count == 0) return true; /* nothing left: the search ends */
  uint32_t below = 0; /* targets settled strictly below d, this lane's share */
  bool fit = true;
  for (uint32_t base = 0; base < n && fit; base += 128) {
    float dv[4];
    load_step(dist, n, base, dv);
    /* one push site (a rolled loop, the entry picked by selects): the
     * solver's hot loop keeps its registers */
#pragma unroll 1
    for (int j = 0; j < 4 && fit; ++j) {
      float x = j == 0 ? dv[0] : j == 1 ? dv[1] : j == 2 ? dv[2] : dv[3];
      uint32_t v = base + 32 * j + lane;
      if (target_flags && x < d && __ldg(&target_flags[v])) ++below;
      fit = h.push_bulk(x >= d && x < t, x, v);
    }
  }
  if (target_flags) left = distinct - warp_sum(below);
  return fit; /* it was counted to fit */
}

/* Predecessors (PRED, pred[0..n) private to the warp like dist): pred[v] =
 * u is written only when u's expansion strictly lowers dist[v] (the
 * atomicMin's old value is larger). u is expanded only once dist[u] is final
 * (popped at its own distance; a refill's re-push of a vertex at exactly d
 * re-relaxes arcs that can no longer improve anything), so the last write
 * into pred[v] comes after the last write into pred[u]: following pred moves
 * to vertices whose predecessor was fixed earlier, ending at s, even across
 * zero-weight cycles (an equal distance never replaces a predecessor), and
 * dist[v] == dist[u] + w exactly (the same rounded addition). Lanes of one
 * expansion that reach v by parallel arcs all write the same u; a
 * __syncwarp after each expansion orders its pred stores before the next
 * expansion's. Ties: the first arc, in settle order, that reaches v's final
 * distance. */

/* Distances from s into dist[0..n) (global, private to this warp). With
 * target flags, stop once `distinct` flagged vertices are settled. Returns
 * false when the heap cannot hold the frontier even in threshold phases, or
 * after max_refills refills (each scans dist; past that the caller's
 * big-heap fallback is cheaper); dist is then incomplete. *refills (may be
 * NULL) counts refills.
 *
 * dist is written by plain stores (the fill) and atomicMin (relaxations:
 * two lanes may reach one vertex through parallel arcs), and read with
 * __ldcg, at L2 where the atomics land, never through a stale L1 line.
 * Non-negative floats order like their bit patterns as ints. */
template <bool PRED, class G>
__device__ bool warp_dijkstra(const G &g, uint32_t n, uint32_t s, float *dist, uint32_t *pred,
                              const uint32_t *target_flags, uint32_t distinct, uint32_t max_refills, warp_heap &h,
                              uint32_t *refills) {
  unsigned lane = threadIdx.x & 31;
  for (uint32_t i = lane; i < n; i += 32) {
    dist[i] = INFINITY;
    if (PRED) pred[i] = GCOL_SSSP_NO_PRED;
  }
  __syncwarp();
  if (!g.source_ok(s) || (target_flags && distinct == 0)) return true;
  if (lane == 0) dist[s] = 0.0f;
  __syncwarp();
  h.clear();
  uint32_t left = distinct, used = 0;
  float d = 0.0f, t = INFINITY; /* the phase's threshold: only keys below it are in the heap */
  uint32_t u = s;
  typename G::arcs arcs;
  bool is_target = false;
  float du = 0.0f;
  /* What the expansion of u reads, issued by the pop before it refills the
   * heap's root, so that both wait on memory at once. */
  auto fetch = [&](float, uint32_t x) {
    arcs = g.load(x, lane);
    is_target = target_flags && __ldg(&target_flags[x]);
    du = __ldcg(&dist[x]);
    /* The next two vertices, most likely: their dist lines to L2 for the
     * stale check (a hint; their neighbours' lines as well cost more DRAM
     * traffic than they saved, docs/experiments.md; deeper prefetch, 8 or 16
     * vertices and their arcs' first lines, gave nothing where few warps
     * share an SM either, issue 27). */
    uint32_t next = h.peek_value(lane);
    if (lane == 1 || lane == 2) prefetch_l2(&dist[next < n ? next : n - 1]);
  };
  for (bool first = true;; first = false) { /* the source is expanded without a trip through the heap */
    bool refill = false;
    if (first) fetch(d, u);
    if (!first && !h.pop(d, u, fetch)) {
      if (t == INFINITY) break;
      d = t, t = INFINITY; /* the phase is over: everything below t is settled */
      refill = true;
    } else {
      if (d > du) continue; /* stale: u was reached cheaper */
      if (is_target && --left == 0) break;
      /* atomicMin without a read first: the atomic costs one round trip, a
       * read to filter it would cost another */
      refill = !g.relax_all(arcs, lane, [&](bool ok, uint32_t v, float w) {
        float nd = __fadd_rn(d, w);
        bool better = ok && nd < __int_as_float(atomicMin((int *)&dist[v], __float_as_int(nd)));
        if (PRED && better) pred[v] = u;
        return h.push_bulk(better && nd < t, nd, v);
      });
      if (PRED) __syncwarp(); /* this expansion's pred stores before the next one's */
    }
    if (!refill) continue;
    if (used++ == max_refills) return false;
    __syncwarp(); /* every lane's relaxation is in dist before the scan */
    if (!refill_heap(h, dist, n, d, t, target_flags, distinct, left)) return false;
    if (refills && lane == 0) atomicAdd(refills, 1u);
  }
  return true;
}

}  // namespace detail
}  // namespace gcol
#endif
