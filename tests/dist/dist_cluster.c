#define _POSIX_C_SOURCE 200809L /* setenv */
#include "dist_cluster.h"

#include <stdlib.h>
#include <string.h>

#define CHECK_NCCL(expr)                                                                      \
  do {                                                                                        \
    ncclResult_t r_ = (expr);                                                                 \
    if (r_ != ncclSuccess) {                                                                  \
      fprintf(stderr, "    %s:%d: %s: %s\n", __FILE__, __LINE__, #expr, ncclGetErrorString(r_)); \
      return TEST_FAIL;                                                                       \
    }                                                                                         \
  } while (0)

void dc_nccl_env(void) { setenv("NCCL_NVLS_ENABLE", "0", 1); }

int dc_device_count(void) {
  int n = 0;
  return test_have_gpu() && cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

int dc_test_gpus(void) {
  int n = dc_device_count();
  const char *s = getenv("GCOL_TEST_GPUS");
  if (s && *s && atoi(s) < n) n = atoi(s);
  return n > DC_MAX_LOCAL ? DC_MAX_LOCAL : n;
}

static test_result_t make_streams(dc_cluster_t *c) {
  for (int i = 0; i < c->nlocal; ++i) {
    CHECK_CUDA(cudaSetDevice(c->dev[i]));
    CHECK_CUDA(cudaStreamCreate(&c->s[i]));
  }
  return TEST_PASS;
}

test_result_t dc_init_all(dc_cluster_t *c, int ndev) {
  memset(c, 0, sizeof *c);
  CHECK(ndev >= 1 && ndev <= DC_MAX_LOCAL);
  dc_nccl_env();
  c->nranks = c->nlocal = ndev;
  for (int i = 0; i < ndev; ++i) c->rank[i] = c->dev[i] = i;
  CHECK_NCCL(ncclCommInitAll(c->comm, ndev, c->dev));
  return make_streams(c);
}

test_result_t dc_init_rank(dc_cluster_t *c, int nranks, int rank, ncclUniqueId id) {
  memset(c, 0, sizeof *c);
  dc_nccl_env();
  c->nranks = nranks, c->nlocal = 1, c->rank[0] = c->dev[0] = rank;
  CHECK_CUDA(cudaSetDevice(rank));
  CHECK_NCCL(ncclCommInitRank(&c->comm[0], nranks, id, rank));
  return make_streams(c);
}

void dc_destroy_maps(dc_cluster_t *c) {
  for (int i = 0; i < c->nlocal; ++i) {
    gcol_dist_map_destroy(c->m[i]);
    c->m[i] = NULL;
  }
}

void dc_destroy(dc_cluster_t *c) {
  dc_destroy_maps(c);
  for (int i = 0; i < c->nlocal; ++i) {
    if (c->s[i]) {
      cudaSetDevice(c->dev[i]);
      cudaStreamSynchronize(c->s[i]);
      cudaStreamDestroy(c->s[i]);
    }
    if (c->comm[i]) ncclCommDestroy(c->comm[i]);
  }
  memset(c, 0, sizeof *c);
}

static gcol_status_t call_one(dc_cluster_t *c, int i, dc_op_t op, const dc_args_t *a) {
  gcol_dist_map_t *m = c->m[i];
  cudaStream_t s = c->s[i];
  switch (op) {
    case DC_CREATE: return gcol_dist_map_create(&c->m[i], a->cfg, c->comm[i], s);
    case DC_INSERT: return gcol_dist_map_insert(m, a->keys, a->values, a->n, s);
    case DC_ASSIGN: return gcol_dist_map_insert_or_assign(m, a->keys, a->values, a->n, s);
    case DC_APPLY: return gcol_dist_map_insert_or_apply(m, a->keys, a->values, a->n, a->op, s);
    case DC_FIND: return gcol_dist_map_find(m, a->keys, a->n, a->out, s);
    case DC_CONTAINS: return gcol_dist_map_contains(m, a->keys, a->n, a->found, s);
    case DC_ERASE: return gcol_dist_map_erase(m, a->keys, a->n, s);
    case DC_SIZE: return gcol_dist_map_size(m, a->h_out, s);
    case DC_RETRIEVE: return gcol_dist_map_retrieve_all(m, a->out, a->out_values, a->h_out, s);
  }
  return GCOL_ERROR_INVALID_ARGUMENT;
}

gcol_status_t dc_call(dc_cluster_t *c, dc_op_t op, const dc_args_t *a) {
  int before = -1, after = -1;
  cudaGetDevice(&before);
  gcol_status_t first = GCOL_SUCCESS;
  if (c->nlocal == 1) {
    first = call_one(c, 0, op, &a[0]);
  } else {
    first = gcol_dist_group_start();
    if (first != GCOL_SUCCESS) return first;
    for (int i = 0; i < c->nlocal; ++i) {
      gcol_status_t st = call_one(c, i, op, &a[i]);
      if (first == GCOL_SUCCESS) first = st;
    }
    gcol_status_t st = gcol_dist_group_end();
    if (first == GCOL_SUCCESS) first = st;
  }
  /* The API works on the communicator's device and restores the caller's. */
  cudaGetDevice(&after);
  if (after != before) {
    fprintf(stderr, "    a call left device %d current instead of %d\n", after, before);
    c->device_moved = 1;
  }
  return first;
}

test_result_t dc_use(const dc_cluster_t *c, int i) {
  CHECK_CUDA(cudaSetDevice(c->dev[i]));
  return TEST_PASS;
}

test_result_t dc_size_is(dc_cluster_t *c, size_t want) {
  size_t got[DC_MAX_LOCAL];
  dc_args_t a[DC_MAX_LOCAL];
  memset(a, 0, sizeof a);
  for (int i = 0; i < c->nlocal; ++i) got[i] = (size_t)-1, a[i].h_out = &got[i];
  CHECK_OK(dc_call(c, DC_SIZE, a));
  for (int i = 0; i < c->nlocal; ++i) {
    if (got[i] != want) {
      fprintf(stderr, "    rank %d: size %zu, want %zu\n", c->rank[i], got[i], want);
      return TEST_FAIL;
    }
  }
  return TEST_PASS;
}
