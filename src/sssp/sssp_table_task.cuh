/* The work item of the table calls (gcol_sssp_many_to_many and _pred): item
 * i is source i; its row of the output holds the distances (and, with
 * PRED, predecessors) to every target. Without targets the search runs in
 * the output rows themselves; with targets in per-warp scratch rows that
 * finish gathers from. */
#ifndef GCOL_SRC_SSSP_SSSP_TABLE_TASK_CUH
#define GCOL_SRC_SSSP_SSSP_TABLE_TASK_CUH

#include <math.h>
#include <stdint.h>
#include "gcol/gcol.h"

namespace gcol {
namespace detail {

template <bool P>
struct table_task {
  static constexpr bool PRED = P;
  uint32_t n;
  const uint32_t *sources, *targets; /* targets NULL: all vertices */
  size_t row;                        /* output row length */
  float *out;
  uint32_t *pout;                    /* PRED: the predecessor table */

  __device__ void fill(uint32_t i, unsigned lane) const {
    float *r = out + (size_t)i * row;
    for (size_t j = lane; j < row; j += 32) {
      r[j] = NAN;
      if (P) pout[(size_t)i * row + j] = GCOL_SSSP_NO_PRED;
    }
  }
  __device__ bool begin(uint32_t i, uint32_t &s, unsigned lane) const {
    s = sources[i];
    if (s < n) return true;
    fill(i, lane); /* an invalid source id: a NaN row */
    return false;
  }
  __device__ float *dist_row(uint32_t i, float *scratch) const { return targets ? scratch : out + (size_t)i * row; }
  __device__ uint32_t *pred_row(uint32_t i, uint32_t *pscratch) const {
    return targets ? pscratch : pout + (size_t)i * row;
  }
  __device__ void fail(uint32_t i, unsigned lane) const { fill(i, lane); }
  __device__ void finish(uint32_t i, uint32_t, const float *dist, const uint32_t *pred, unsigned lane) const {
    if (!targets) return;
    float *r = out + (size_t)i * row;
    for (size_t j = lane; j < row; j += 32) {
      uint32_t t = targets[j];
      r[j] = t < n ? __ldcg(&dist[t]) : NAN;
      if (P) pout[(size_t)i * row + j] = t < n ? __ldcg(&pred[t]) : GCOL_SSSP_NO_PRED;
    }
  }
};

}  // namespace detail
}  // namespace gcol
#endif
