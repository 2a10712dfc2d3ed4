/* Internal hooks of the shortest-path module (not public API): the heap
 * replay driver that the heap's GPU tests use, and test hooks of the solver. */
#ifndef GCOL_SRC_SSSP_SSSP_INTERNAL_H
#define GCOL_SRC_SSSP_SSSP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "gcol/gcol.h"
#include "core/test_hooks.h" /* the solver's hooks: gcol_test_hooks.sssp */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- heap replay ----------------------------------------------------------
 * One op per entry. A bulk push is `count` (1..32) consecutive entries with
 * op GCOL_HEAP_OP_BULK, the first one carrying the count; its result goes to
 * the first entry's slot. */
enum { GCOL_HEAP_OP_PUSH = 0, GCOL_HEAP_OP_POP = 1, GCOL_HEAP_OP_BULK = 2 };
typedef struct {
  uint32_t op, count;
  float key;
  uint32_t val;
} gcol_heap_op_t;
typedef struct {
  float key;     /* pop: the key popped; push: top key after the push */
  uint32_t val;  /* pop: the payload popped; push: top payload after */
  uint32_t size; /* heap size after the op */
  uint32_t ok;   /* 1: pop found an element / push fit; 0: empty / overflow */
} gcol_heap_result_t;

/* Replay ops on num_warps independent warp heaps of cap_nodes nodes each
 * (meta_in_shared: tops and counts in shared memory, else in global memory)
 * and write num_warps x n results, warp-major. Synchronous (cudaMalloc, copies).
 * GCOL_ERROR_INVALID_ARGUMENT: a NaN push key, a bad bulk count, cap_nodes
 * outside 1..2^22-1 (1..6144 with meta_in_shared), num_warps < 1. */
gcol_status_t gcol_detail_heap_replay(const gcol_heap_op_t *h_ops, size_t n, uint32_t cap_nodes,
                                      int meta_in_shared, int num_warps, gcol_heap_result_t *h_results);

/* ---- heap throughput (benchmark) ------------------------------------------
 * `warps` warps (4 per block, tops and counts in shared memory, cap_nodes <=
 * 1057 per heap) each push `pairs` pseudo-random pairs in bulks of 32 and then
 * pop them all. *ms_out: kernel time; *disorder_out: pops that came out of
 * order (must be 0). Synchronous. */
gcol_status_t gcol_detail_heap_bench(uint32_t warps, uint32_t pairs, uint32_t cap_nodes, float *ms_out,
                                     unsigned long long *disorder_out);

/* The largest primary heap in nodes (root + 32 + 1024: 33,824 pairs); the
 * solver takes fewer when many sources need more warps per SM (sssp.cu). */
#define GCOL_SSSP_HEAP_NODES 1057u

/* The near-far engine's bucket width in mean arc weights (sssp.cu): 2 on
 * a grid of one layer (nz == 1: the 2D grid), 8 on every other graph
 * (docs/experiments.md, issue 27: the bucket-width sweep). */
#define GCOL_SSSP_NF_DELTA 8.0f
#define GCOL_SSSP_NF_DELTA_2D_GRID 2.0f

#ifdef __cplusplus
}
#endif
#endif
