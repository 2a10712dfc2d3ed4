/* Scenarios run on a cluster of ranks (one rank, several ranks in one
 * process, or one rank of several processes) and checked against the CPU
 * model. Every process generates every rank's batches from test_seed(), so
 * each can keep the whole model, and drives only its own ranks. */
#ifndef GCOL_TESTS_DIST_DIST_SCENARIO_H
#define GCOL_TESTS_DIST_DIST_SCENARIO_H

#include "dist_cluster.h"

#define DS_MAX_RANKS DC_MAX_LOCAL
#define DS_MAX_STEPS 8

typedef enum { DS_INSERT, DS_ASSIGN, DS_APPLY, DS_ERASE } ds_kind_t;

/* One collective call: its kind and every global rank's batch size. */
typedef struct {
  ds_kind_t kind;
  size_t n[DS_MAX_RANKS];
} ds_step_t;

typedef struct {
  gcol_type_t key_type, value_type;
  gcol_op_t apply_op;
  size_t pool;     /* distinct keys the batches draw from (so they repeat) */
  size_t absent;   /* distinct keys never inserted (find/contains misses) */
  size_t capacity; /* per shard */
  int growable;
  int slices;      /* 1: batches take consecutive pool keys (all distinct
                      while the pool lasts) instead of random draws */
  int nsteps;
  ds_step_t steps[DS_MAX_STEPS];
} ds_spec_t;

/* The steps in order, each followed by checks of size, find and contains on
 * every rank; then retrieve_all on every rank. Duplicates of a key (within a
 * batch or across ranks) carry different values: insert must store one of
 * the new key's candidates, insert_or_assign one of all of them, and every
 * rank must then find the same value. */
test_result_t ds_run(dc_cluster_t *c, const ds_spec_t *spec);

/* A fixed shard of ~1000 slots on rank `victim` gets 5000 keys it owns (sent
 * by another rank when there is one): every rank gets GCOL_ERROR_FULL, each
 * key is found with its own value or not at all, and size = keys found. */
test_result_t ds_fill(dc_cluster_t *c, int victim);

/* Rank `bad` has both sentinels in its batch: every rank gets
 * GCOL_ERROR_RESERVED_KEY and every other key of every rank is stored. */
test_result_t ds_reserved(dc_cluster_t *c, gcol_type_t key_type, int bad);

#endif
