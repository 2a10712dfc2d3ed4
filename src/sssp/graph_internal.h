/* The graph handle and the grid edge rules, shared by the solver's CUDA code
 * and the CPU reference (plain C), so both build the same edges bit for bit. */
#ifndef GCOL_SRC_SSSP_GRAPH_INTERNAL_H
#define GCOL_SRC_SSSP_GRAPH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "gcol/gcol.h" /* gcol_allocator_t */

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
#define GCOL_GRAPH_MAGIC 0x47676367u /* a live graph; 0 once destroyed */

/* The size of gcol_graph_config_t in 1.4, where it first appeared: a config
 * shorter than this cannot be one (fields are only appended later). */
#define GCOL_GRAPH_CONFIG_SIZE_1_4 sizeof(gcol_graph_config_t)

struct gcol_graph {
  uint32_t magic;
  gcol_graph_kind_t kind;
  uint32_t n;        /* vertices */
  size_t m;          /* CSR: arcs; grid: n * connectivity (an upper bound) */
  uint32_t *offsets; /* CSR: n + 1 */
  uint32_t *targets; /* CSR: m */
  float *weights;    /* CSR: m */
  uint32_t nx, ny, nz;
  int connectivity;  /* grid: 6, 18 or 26 */
  float *cost;       /* grid: n voxel costs */
  uint8_t *faces;    /* grid: n gcol_grid_faces bytes */
  float mean_w;      /* mean arc weight (grid: mean finite voxel cost x 1.2,
                        about the mean step); the near-far engine's bucket
                        width comes from it */
  gcol_allocator_t allocator; /* the config's: the arrays above and every
                                 call's scratch; zeroed: cudaMalloc for the
                                 arrays, cudaMallocAsync for scratch */
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

/* Which faces of the grid the voxel (x, y, z) lies on: bit 0 x == 0, bit 1
 * x == nx - 1, bits 2 and 3 the same for y, bits 4 and 5 for z; bit 6 is
 * always set (it blocks the solver's lanes that have no admitted direction).
 * A grid graph keeps this byte per voxel, so that expanding a voxel needs no
 * division of its index into coordinates (division and face tests were about
 * 50 of the ~680 warp instructions per settled voxel on the 4,096-source
 * bench). */
GCOL_HD static inline uint8_t gcol_grid_faces(uint32_t x, uint32_t y, uint32_t z, uint32_t nx, uint32_t ny,
                                              uint32_t nz) {
  return (uint8_t)((x == 0) | (x + 1 == nx) << 1 | (y == 0) << 2 | (y + 1 == ny) << 3 | (z == 0) << 4 |
                   (z + 1 == nz) << 5 | 1 << 6);
}

/* A voxel cost is valid when it is >= 0 and not NaN (INFINITY: obstacle). */
GCOL_HD static inline int gcol_grid_cost_valid(float c) { return c >= 0.0f; }

#ifdef __cplusplus
}
#endif
#endif
