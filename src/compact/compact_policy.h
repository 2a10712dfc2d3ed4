/* Per-architecture tuning of the ANY-order select, apart from the algorithm
 * code: tuning a new GPU is one row in compact_policy.c. */
#ifndef GCOL_SRC_COMPACT_COMPACT_POLICY_H
#define GCOL_SRC_COMPACT_COMPACT_POLICY_H

#ifdef __cplusplus
extern "C" {
#endif

/* Where the output counter is bumped: per selected item (the naive kernel,
 * kept for the benchmark), once per warp, or once per block. */
typedef enum { GCOL_AGG_THREAD = 0, GCOL_AGG_WARP = 1, GCOL_AGG_BLOCK = 2 } gcol_aggregation_t;

/* Items per thread of the shipped kernels, at block-level aggregation (every
 * row picks them; a row that wants another adds it here). */
#define GCOL_SELECT_ITEMS 8

typedef struct {
  int min_cc_major;             /* first compute capability major the row applies to */
  int block_threads;            /* a multiple of 32, 32..1024 */
  int items_per_thread;         /* 4, 8 or 16 (compiled variants) */
  gcol_aggregation_t aggregate; /* counter aggregation level */
} gcol_select_policy_t;

/* The row for a compute capability (the last row whose min_cc_major <= cc_major). */
gcol_select_policy_t gcol_select_policy_for(int cc_major);

/* 1 if the library is compiled for this policy (block size, items, level;
 * select_any.cu). */
int gcol_select_policy_supported(const gcol_select_policy_t *p);

#ifdef __cplusplus
}
#endif
#endif
