/* The ranks one host thread drives (one, or several through
 * gcol_dist_group_start/end) and one collective call over all of them. */
#ifndef GCOL_TESTS_DIST_DIST_CLUSTER_H
#define GCOL_TESTS_DIST_DIST_CLUSTER_H

#include <nccl.h>

#include "../harness.h"
#include "gcol/gcol_nccl.h"

#define DC_MAX_LOCAL 8

typedef struct {
  int nranks;                /* ranks of the communicator */
  int nlocal;                /* ranks driven here; > 1: calls go in one group */
  int rank[DC_MAX_LOCAL];    /* global rank of each local one */
  int dev[DC_MAX_LOCAL];
  ncclComm_t comm[DC_MAX_LOCAL];
  cudaStream_t s[DC_MAX_LOCAL];
  gcol_dist_map_t *m[DC_MAX_LOCAL];
  int device_moved;          /* set when a call left another device current */
} dc_cluster_t;

/* Set NCCL_NVLS_ENABLE=0 (before any NCCL call: see KINDS.md). */
void dc_nccl_env(void);
/* Number of CUDA devices, 0 when none is usable. */
int dc_device_count(void);
/* GPUs the several-GPU tests use: every visible one (at most DC_MAX_LOCAL),
 * or fewer where GCOL_TEST_GPUS says so (a 4-GPU host runs them on 2 too). */
int dc_test_gpus(void);

/* One process, ndev ranks on devices 0..ndev-1 (ncclCommInitAll). */
test_result_t dc_init_all(dc_cluster_t *c, int ndev);
/* Rank `rank` of an nranks-rank communicator of several processes, on
 * device `rank` (ncclCommInitRank). */
test_result_t dc_init_rank(dc_cluster_t *c, int nranks, int rank, ncclUniqueId id);
/* Destroy maps, streams and communicators. */
void dc_destroy(dc_cluster_t *c);
/* Destroy the maps only (the communicators stay for another create). */
void dc_destroy_maps(dc_cluster_t *c);

typedef enum {
  DC_CREATE, DC_INSERT, DC_ASSIGN, DC_APPLY, DC_FIND, DC_CONTAINS, DC_ERASE, DC_SIZE, DC_RETRIEVE
} dc_op_t;

/* One local rank's arguments of a call; unused fields are ignored. */
typedef struct {
  const gcol_map_config_t *cfg; /* create */
  const void *keys, *values;
  size_t n;
  gcol_op_t op;                 /* apply */
  void *out;                    /* find: values; retrieve: keys */
  void *out_values;             /* retrieve: values */
  uint8_t *found;               /* contains */
  size_t *h_out;                /* size, retrieve: count */
} dc_args_t;

/* The call on every local rank (a[i] for local rank i), as one group when
 * nlocal > 1. Returns the first failure, of a queueing call or of the group. */
gcol_status_t dc_call(dc_cluster_t *c, dc_op_t op, const dc_args_t *a);

/* gcol_dist_map_size on every local rank returns want. */
test_result_t dc_size_is(dc_cluster_t *c, size_t want);

/* Make device of local rank i current (for allocations, shard reads). */
test_result_t dc_use(const dc_cluster_t *c, int i);

#endif
