/* Helpers of the shortest-path tests: random host graphs, device copies of a
 * graph, one GPU many-to-many call from host arrays, and the comparison with
 * the CPU reference. */
#ifndef GCOL_TESTS_SSSP_TEST_UTIL_H
#define GCOL_TESTS_SSSP_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include "gcol/gcol.h"
#include "sssp_ref.h"
#include "test_util.h"

/* n vertices, m random arcs (zero weights, self loops and parallel arcs
 * included; weights in [0, 10) with some exact zeros). With `split`, arcs
 * stay inside two halves and the last n/10 vertices get no arcs
 * (unreachable parts). 0 on success. */
int st_random_graph(uint32_t n, size_t m, int split, tu_rng_t *rng, gcol_ref_csr_t *out);

/* k random vertex ids below `below` (malloc'd). */
uint32_t *st_random_ids(size_t k, uint32_t below, tu_rng_t *rng);

/* A voxel grid on both sides: the CPU's CSR into *h and the device graph
 * (NULL on failure). */
gcol_graph_t *st_grid_graph(uint32_t nx, uint32_t ny, uint32_t nz, const float *cost, int connectivity,
                            gcol_ref_csr_t *h);

/* Random voxel costs in [0.5, 2.5) with a share of INFINITY obstacles. */
float *st_random_costs(size_t n, double obstacle_share, tu_rng_t *rng);

/* The graph of a host CSR on the device; NULL on failure. */
gcol_graph_t *st_device_graph(const gcol_ref_csr_t *h);

/* gcol_sssp_many_to_many from host arrays (targets may be NULL: all); the
 * result table into h_out. Returns the call's status (or a copy failure as
 * GCOL_ERROR_CUDA). */
gcol_status_t st_gpu_table(const gcol_graph_t *g, const uint32_t *sources, size_t ns, const uint32_t *targets,
                           size_t nt, float *h_out);

/* 1 when got matches want: both NaN, both the same infinity, or within a
 * relative 1e-5 (float additions may be ordered differently along equal-cost
 * ties; in practice the tables are bit-identical). Prints the first mismatch. */
int st_same_table(const float *want, const float *got, size_t rows, size_t cols);

/* 1 when the GPU table (st_gpu_table) of these sources and targets (NULL:
 * all vertices) equals the CPU reference's (st_same_table). */
int st_check_table(const gcol_ref_csr_t *h, const gcol_graph_t *g, const uint32_t *src, size_t ns,
                   const uint32_t *tgt, size_t nt);

/* The Helsinki road graph (../shared/data/helsinki-osm.gr beside the repo,
 * or $GCOL_SSSP_DATA/helsinki-osm.gr); 0 when loaded, else not found. */
int st_load_helsinki(gcol_ref_csr_t *out);

#endif
