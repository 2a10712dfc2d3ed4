/* The work item of gcol_sssp_paths: the pairs sorted by source, item i is
 * the sorted position i, and only the head of each run of one source
 * searches (into per-warp scratch rows of distances and predecessors). Its
 * lanes then walk the predecessors of the run's pairs, one pair per lane:
 * once to count the path's vertices, then, after reserving that many slots
 * of the unordered path buffer with one atomic, again to write them from
 * the target back to the source. A later kernel (paths.cu) moves them into
 * pair order. */
#ifndef GCOL_SRC_SSSP_PATH_TASK_CUH
#define GCOL_SRC_SSSP_PATH_TASK_CUH

#include <math.h>
#include <stdint.h>
#include "gcol/gcol.h"

namespace gcol {
namespace detail {

struct path_task {
  static constexpr bool PRED = true;
  uint32_t n, num_pairs;
  const uint32_t *key;           /* sorted sources, an id >= n clamped to n */
  const uint32_t *pair;          /* the pair at each sorted position */
  const uint32_t *targets;       /* per pair */
  float *pair_dist;              /* per pair, or NULL */
  unsigned long long *len;       /* per pair: the path's vertex count, 0: none */
  unsigned long long *start;     /* per pair: where its path lies in buf */
  uint32_t *buf;                 /* unordered paths, cap vertices */
  unsigned long long cap, *cursor;

  /* Every pair of the run at sorted position i: no path. */
  __device__ void none(uint32_t i, uint32_t s, unsigned lane) const {
    for (uint32_t p = i + lane; p < num_pairs && key[p] == s; p += 32) {
      uint32_t k = pair[p];
      len[k] = 0;
      if (pair_dist) pair_dist[k] = NAN;
    }
  }
  __device__ bool begin(uint32_t i, uint32_t &s, unsigned lane) const {
    s = key[i];
    if (i > 0 && key[i - 1] == s) return false; /* the run's head searches for it */
    if (s < n) return true;
    none(i, s, lane);
    return false;
  }
  __device__ float *dist_row(uint32_t, float *scratch) const { return scratch; }
  __device__ uint32_t *pred_row(uint32_t, uint32_t *pscratch) const { return pscratch; }
  __device__ void fail(uint32_t i, unsigned lane) const { none(i, key[i], lane); }

  /* Lanes walk independently (no warp-wide operation inside the loop). The
   * bound n on a walk's length only guards against a predecessor bug. */
  __device__ void finish(uint32_t i, uint32_t s, const float *dist, const uint32_t *pred, unsigned lane) const {
    for (uint32_t p = i + lane; p < num_pairs && key[p] == s; p += 32) {
      uint32_t k = pair[p], t = targets[k];
      float d = t < n ? __ldcg(&dist[t]) : NAN;
      unsigned long long count = 0;
      if (d < INFINITY) {
        uint32_t v = t;
        for (count = 1; v != s && v < n && count <= n; ++count) v = __ldcg(&pred[v]);
        if (v != s) count = 0, d = NAN; /* unreachable by construction */
      }
      if (count) {
        unsigned long long at = atomicAdd(cursor, count);
        start[k] = at;
        if (at + count <= cap) { /* else the paths are not written: the caller asks again */
          uint32_t v = t;
          for (unsigned long long j = at + count - 1;; --j) {
            buf[j] = v;
            if (v == s) break;
            v = __ldcg(&pred[v]);
          }
        }
      }
      len[k] = count;
      if (pair_dist) pair_dist[k] = d;
    }
  }
};

}  // namespace detail
}  // namespace gcol
#endif
