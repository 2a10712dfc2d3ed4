/* CPU reference for the shortest-path module (internal, plain C): host CSR
 * graphs, Dijkstra on a binary heap, a multithreaded many-to-many table with
 * the solver's exact output rules, the voxel grid as an explicit CSR, and a
 * DIMACS .gr reader. Tests, benchmarks and examples check the GPU with it. */
#ifndef GCOL_SRC_SSSP_SSSP_REF_H
#define GCOL_SRC_SSSP_SSSP_REF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A host CSR graph; every array malloc'd and owned (gcol_ref_csr_free). */
typedef struct {
  uint32_t n;
  size_t m;
  uint32_t *offsets; /* n + 1 */
  uint32_t *targets; /* m */
  float *weights;    /* m */
  uint8_t *blocked;  /* NULL, or n flags: a blocked vertex (grid obstacle) has
                        distance INFINITY even from itself */
} gcol_ref_csr_t;

void gcol_ref_csr_free(gcol_ref_csr_t *g);

/* 1 when the arrays are a valid graph for gcol_graph_create_csr (offsets[0]
 * == 0, non-decreasing, offsets[n] == m, targets < n, weights finite, >= 0). */
int gcol_ref_csr_valid(size_t n, size_t m, const uint32_t *offsets, const uint32_t *targets,
                       const float *weights);

/* Distances from s into dist[0..n), INFINITY where unreachable; binary heap
 * with lazy deletion, stops once the `num_stop` vertices flagged in stop
 * (NULL: none, run to the end) are settled. Returns the relaxations done
 * (arcs scanned), or -1 when out of memory. */
long long gcol_ref_dijkstra(const gcol_ref_csr_t *g, uint32_t s, float *dist, const uint8_t *stop,
                            size_t num_stop);

/* The table gcol_sssp_many_to_many computes, on `threads` threads (<= 0: all
 * cores): row i holds the distances from sources[i] to targets (NULL: all
 * vertices, num_targets must be n). An id >= n gives NaN where the GPU does.
 * Returns the total relaxations, or -1 on failure. */
long long gcol_ref_many_to_many(const gcol_ref_csr_t *g, const uint32_t *sources, size_t num_sources,
                                const uint32_t *targets, size_t num_targets, float *out, int threads);

/* The voxel grid of gcol_graph_create_grid3d as an explicit CSR with blocked
 * obstacles. 0 on success, -1 on an invalid argument (cost < 0 or NaN, a zero
 * or too large dimension, a connectivity other than 6, 18, 26), -2 out of memory. */
int gcol_ref_grid_csr(uint32_t nx, uint32_t ny, uint32_t nz, const float *cost, int connectivity,
                      gcol_ref_csr_t *out);

/* Read a DIMACS shortest-path file ("p sp n m", "a u v w" with 1-based ids,
 * "c" comments) into a CSR keeping the arcs of each vertex in file order.
 * 0 on success, -1 if the file cannot be opened, -2 on a malformed file,
 * -3 out of memory. */
int gcol_ref_read_dimacs(const char *path, gcol_ref_csr_t *out);
int gcol_ref_parse_dimacs(const char *text, gcol_ref_csr_t *out); /* same, from memory */

/* Build a CSR from n vertices and m arcs given as (src, dst, w) arrays
 * (counting sort by source; each source's arcs keep their order).
 * 0 on success, -1 on an id >= n, -3 out of memory. */
int gcol_ref_csr_from_arcs(uint32_t n, size_t m, const uint32_t *src, const uint32_t *dst, const float *w,
                           gcol_ref_csr_t *out);

#ifdef __cplusplus
}
#endif
#endif
