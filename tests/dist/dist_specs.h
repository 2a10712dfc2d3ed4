/* The scenarios the GPU tests run, sized from one number. */
#ifndef GCOL_TESTS_DIST_DIST_SPECS_H
#define GCOL_TESTS_DIST_DIST_SPECS_H

#include "dist_scenario.h"

/* One rank, n = the first batch: insert, insert, insert_or_assign,
 * insert_or_apply(op), erase, insert again; keys from a pool of 3n/4. */
ds_spec_t dspec_one_rank(gcol_type_t kt, gcol_type_t vt, gcol_op_t op, size_t n);

/* nranks ranks, n = rank 0's first batch: unequal batches (n, 7n/30 and
 * its multiples), rank 0 once with an empty batch and the others once, a
 * shared pool (so keys repeat across ranks with different values). */
ds_spec_t dspec_ranks(int nranks, gcol_type_t kt, gcol_type_t vt, gcol_op_t op, size_t n);

/* One rank's batch far larger than the others': rank 0 sends n keys per
 * step while the others send a thousandth of that or nothing, then rank 0
 * sends nothing. */
ds_spec_t dspec_skewed(int nranks, size_t n);

/* Growable shards of 1024 initial slots, `total` distinct u64 keys in 4
 * inserts, split evenly over nranks. */
ds_spec_t dspec_growable(int nranks, size_t total);

/* Whether a spec exceeds test_max_n() (its pool or one call's keys). */
int dspec_too_large(const ds_spec_t *s);

#endif
