/* Internal hooks of the shortest-path module (not public API): the heap
 * replay driver that the heap's GPU tests use, and test hooks of the solver. */
#ifndef GCOL_SRC_SSSP_SSSP_INTERNAL_H
#define GCOL_SRC_SSSP_SSSP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "gcol/gcol.h"

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

/* ---- solver hooks (tests and benchmarks; not thread-safe) ----------------- */
typedef struct {
  uint32_t heap_nodes;          /* 0: the default primary heap; else its node
                                   count (1..1057), e.g. tiny to force overflow */
  uint32_t *d_fallback_sources; /* NULL, or a device word that each
                                   gcol_sssp_many_to_many call sets (on its
                                   stream) to the number of sources whose
                                   primary heap overflowed and that the
                                   fallback solved */
  uint32_t *d_refills;          /* NULL, or a device word that each call
                                   zeroes and then counts heap refills in
                                   (overflows absorbed by rebuilding the
                                   heap from the distances) */
  uint32_t engine;              /* 0: the policy (sssp.cu); 1: the warp
                                   engine; 2: near-far wherever it applies */
  float delta_factor;           /* 0: the policy's near-far bucket width
                                   (gcol_detail_sssp_delta_factor x the
                                   mean arc weight); else this factor */
  uint32_t nf_blocks;           /* 0: near-far runs the blocks that fit;
                                   else at most this many (tests: several
                                   sources per block) */
  uint32_t last_engine;         /* set by each table call: the engine that
                                   ran it (1 warp, 2 near-far) */
  uint32_t nf_threads;          /* 0: near-far's block size by the policy
                                   (nearfar_threads: 512); else 256 or 512 */
} gcol_detail_sssp_hooks_t;
extern gcol_detail_sssp_hooks_t gcol_detail_sssp_hooks;

/* The largest primary heap in nodes (root + 32 + 1024: 33,824 pairs); the
 * solver takes fewer when many sources need more warps per SM (sssp.cu). */
#define GCOL_SSSP_HEAP_NODES 1057u

/* The near-far engine's bucket width in mean arc weights (sssp.cu): 2 on
 * a grid of one layer (nz == 1: the 2D grid), 8 on every other graph
 * (bench/RESULTS.md, issue 27: the bucket-width sweep). */
#define GCOL_SSSP_NF_DELTA 8.0f
#define GCOL_SSSP_NF_DELTA_2D_GRID 2.0f

#ifdef __cplusplus
}
#endif
#endif
