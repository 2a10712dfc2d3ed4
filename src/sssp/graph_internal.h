/* The graph handle and the grid edge rules, shared by the solver's CUDA code
 * and the CPU reference (plain C), so both build the same edges bit for bit. */
#ifndef GCOL_SRC_SSSP_GRAPH_INTERNAL_H
#define GCOL_SRC_SSSP_GRAPH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define GCOL_HD __host__ __device__
#else
#define GCOL_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { GCOL_GRAPH_CSR = 1, GCOL_GRAPH_GRID = 2 } gcol_graph_kind_t;

/* Device copies owned by the handle. A grid is implicit: its edges are
 * derived from the cost array whenever a vertex is expanded (no CSR). */
struct gcol_graph {
  gcol_graph_kind_t kind;
  uint32_t n;        /* vertices */
  size_t m;          /* CSR: arcs; grid: n * connectivity (an upper bound) */
  uint32_t *offsets; /* CSR: n + 1 */
  uint32_t *targets; /* CSR: m */
  float *weights;    /* CSR: m */
  uint32_t nx, ny, nz;
  int connectivity;  /* grid: 6, 18 or 26 */
  float *cost;       /* grid: n voxel costs */
};

/* Grid directions: index 0..25 names the 26 offsets (dx, dy, dz) in
 * {-1, 0, 1}^3 without (0, 0, 0). A direction is admitted by a connectivity
 * when its number of non-zero components is at most 1 (6), 2 (18) or 3 (26);
 * that number is also its step class (1, sqrt 2, sqrt 3). */
GCOL_HD static inline int gcol_grid_dir(int i, int *dx, int *dy, int *dz) {
  int code = i < 13 ? i : i + 1; /* skip the centre, code 13 */
  *dx = code % 3 - 1;
  *dy = (code / 3) % 3 - 1;
  *dz = code / 9 - 1;
  return (*dx != 0) + (*dy != 0) + (*dz != 0);
}

/* 1 for a supported connectivity; *max_class receives 1, 2 or 3. */
GCOL_HD static inline int gcol_grid_connectivity_class(int connectivity, int *max_class) {
  *max_class = connectivity == 6 ? 1 : connectivity == 18 ? 2 : connectivity == 26 ? 3 : 0;
  return *max_class != 0;
}

/* Step lengths as float literals, rounded the same way by gcc and nvcc. */
#define GCOL_GRID_STEP_1 1.0f
#define GCOL_GRID_STEP_2 1.41421356237309505f
#define GCOL_GRID_STEP_3 1.73205080756887729f
GCOL_HD static inline float gcol_grid_step(int step_class) {
  return step_class == 1 ? GCOL_GRID_STEP_1 : step_class == 2 ? GCOL_GRID_STEP_2 : GCOL_GRID_STEP_3;
}

/* Edge weight 0.5 * (cost[u] + cost[v]) * step, with every operation rounded
 * on its own (no fused multiply-add on the GPU), so CPU and GPU agree. */
GCOL_HD static inline float gcol_grid_weight(float cu, float cv, float step) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(__fmul_rn(0.5f, __fadd_rn(cu, cv)), step);
#else
  return 0.5f * (cu + cv) * step;
#endif
}

/* Division by a runtime divisor d >= 1 as a multiply-high and two shifts
 * (Granlund and Montgomery's round-up method, exact for every 32-bit u): the
 * solver splits a voxel index into x, y, z twice per expanded vertex, where
 * a hardware-less 32-bit division costs some twenty instructions. */
typedef struct {
  uint32_t mul, shift1, shift2;
} gcol_divider_t;
GCOL_HD static inline gcol_divider_t gcol_divider(uint32_t d) {
  uint32_t l = 0; /* ceil(log2 d) */
  while (l < 32 && ((uint64_t)1 << l) < d) ++l;
  gcol_divider_t r;
  r.mul = (uint32_t)((((uint64_t)1 << 32) * (((uint64_t)1 << l) - d)) / d + 1);
  r.shift1 = l < 1 ? l : 1;
  r.shift2 = l > 1 ? l - 1 : 0;
  return r;
}
GCOL_HD static inline uint32_t gcol_divide(gcol_divider_t by, uint32_t u) {
  uint32_t t = (uint32_t)(((uint64_t)u * by.mul) >> 32);
  return (t + ((u - t) >> by.shift1)) >> by.shift2;
}

/* A voxel cost is valid when it is >= 0 and not NaN (INFINITY: obstacle). */
GCOL_HD static inline int gcol_grid_cost_valid(float c) { return c >= 0.0f; }

#ifdef __cplusplus
}
#endif
#endif
