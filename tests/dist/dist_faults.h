/* Faults on one rank that every rank must see: the call returns the same
 * status everywhere, and the next call on the map works. Each body runs on
 * whatever part of the cluster this process drives (every rank in group
 * mode, or one rank of several processes); `bad` is a global rank. */
#ifndef GCOL_TESTS_DIST_DIST_FAULTS_H
#define GCOL_TESTS_DIST_DIST_FAULTS_H

#include "dist_cluster.h"

/* The allocator of rank `bad` refuses during an insert and a find: every
 * rank gets GCOL_ERROR_OUT_OF_MEMORY and nothing is stored; once it gives
 * memory again, the same insert stores every pair. */
test_result_t df_allocator_refuses(dc_cluster_t *c, int bad);

/* Rank `bad` passes a NULL, a misaligned and a host pointer as its keys
 * (n > 0), then a NULL find output: every rank gets
 * GCOL_ERROR_INVALID_ARGUMENT, nothing is stored, and the next call works. */
test_result_t df_bad_pointers(dc_cluster_t *c, int bad);

#endif
