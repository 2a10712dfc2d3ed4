/* The public entry points of libgcol_nccl: check the arguments, build this
 * rank's call and run it now or queue it in the thread's open group. An
 * argument error that the other ranks cannot see (a NULL batch with n > 0)
 * does not skip the collective: the rank takes part with an empty batch and
 * the vote returns GCOL_ERROR_INVALID_ARGUMENT everywhere. Only a NULL map,
 * config or communicator returns at once. */
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "dist/dist_internal.h"
#include "dist/dist_kernels.h"
#include "map/map_internal.h"

static gcol_status_t run(dist_call_t *c, const char *name) {
  gcol_nvtx_push(name);
  gcol_status_t st;
  if (dist_group_open()) {
    st = dist_group_add(c);
    if (st != GCOL_SUCCESS && c->kind == DIST_CREATE) c->result = st, dist_call_done(c);
  } else {
    st = dist_execute(c, 1);
    dist_call_done(c);
  }
  gcol_nvtx_pop();
  return st;
}

void dist_call_done(dist_call_t *c) {
  if (c->kind != DIST_CREATE || c->result == GCOL_SUCCESS) return;
  gcol_dist_map_destroy(c->m);
  *c->map_out = NULL;
}

static dist_call_t new_call(dist_kind_t kind, gcol_dist_map_t *m, cudaStream_t s) {
  dist_call_t c;
  memset(&c, 0, sizeof c);
  c.kind = kind, c.m = m, c.s = s;
  return c;
}

gcol_status_t gcol_dist_map_create(gcol_dist_map_t **map, const gcol_map_config_t *cfg, ncclComm_t comm,
                                   cudaStream_t s) {
  if (!map) return GCOL_ERROR_INVALID_ARGUMENT;
  *map = NULL;
  if (!cfg || !comm) return GCOL_ERROR_INVALID_ARGUMENT;
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    (void)gcol_from_cuda(e != cudaSuccess ? e : cudaErrorNoDevice);
    return GCOL_ERROR_NO_DEVICE;
  }
  gcol_dist_map_t *m = calloc(1, sizeof *m);
  if (!m) return GCOL_ERROR_OUT_OF_MEMORY;
  ncclResult_t r = ncclCommCount(comm, &m->nranks);
  if (r == ncclSuccess) r = ncclCommUserRank(comm, &m->rank);
  if (r == ncclSuccess) r = ncclCommCuDevice(comm, &m->device);
  if (r != ncclSuccess) {
    free(m);
    return dist_from_nccl(r);
  }
  m->comm = comm;
  m->cfg = *cfg;
  m->key_bytes = gcol_type_size(cfg->key_type);
  m->value_bytes = gcol_type_size(cfg->value_type);
  dist_call_t c = new_call(DIST_CREATE, m, s);
  c.cfg = *cfg;
  c.map_out = map;
  c.local = gcol_map_config_check(cfg);
  if (m->nranks > GCOL_DIST_MAX_RANKS) c.local = GCOL_ERROR_INVALID_ARGUMENT;
  *map = m;
  return run(&c, "gcol_dist_map_create");
}

void gcol_dist_map_destroy(gcol_dist_map_t *m) {
  if (!m) return;
  int caller = -1;
  if (cudaGetDevice(&caller) != cudaSuccess) caller = -1;
  (void)cudaSetDevice(m->device);
  gcol_map_destroy(m->shard);
  if (m->comm_stream) (void)cudaStreamDestroy(m->comm_stream);
  cudaEvent_t ev[] = {m->ev_fwd[0], m->ev_fwd[1], m->ev_op[0], m->ev_op[1], m->ev_sync};
  for (size_t i = 0; i < sizeof ev / sizeof ev[0]; ++i)
    if (ev[i]) (void)cudaEventDestroy(ev[i]);
  if (m->h_words) (void)cudaFreeHost(m->h_words);
  free(m);
  if (caller >= 0) (void)cudaSetDevice(caller);
}

/* Keyed calls; what the kind needs (values, answers, op) is checked here. */
static gcol_status_t keyed_call(dist_kind_t kind, gcol_dist_map_t *m, const void *keys, const void *values,
                                size_t n, gcol_op_t op, void *out, cudaStream_t s, const char *name) {
  if (!m) return GCOL_ERROR_INVALID_ARGUMENT;
  dist_call_t c = new_call(kind, m, s);
  c.keys = keys, c.values = values, c.n = n, c.op = op, c.out = out;
  int bad = n > UINT32_MAX; /* batch positions travel as 32-bit indices */
  if (n && (!keys || (dist_kind_carries_values(kind) && !values) || (dist_kind_answers(kind) && !out))) bad = 1;
  if (kind == DIST_APPLY && op != GCOL_OP_ADD && op != GCOL_OP_MIN && op != GCOL_OP_MAX) bad = 1;
  if (bad) c.local = GCOL_ERROR_INVALID_ARGUMENT;
  return run(&c, name);
}

gcol_status_t gcol_dist_map_insert(gcol_dist_map_t *m, const void *d_keys, const void *d_values, size_t n,
                                   cudaStream_t s) {
  return keyed_call(DIST_INSERT, m, d_keys, d_values, n, GCOL_OP_ADD, NULL, s, "gcol_dist_map_insert");
}

gcol_status_t gcol_dist_map_insert_or_assign(gcol_dist_map_t *m, const void *d_keys, const void *d_values,
                                             size_t n, cudaStream_t s) {
  return keyed_call(DIST_ASSIGN, m, d_keys, d_values, n, GCOL_OP_ADD, NULL, s, "gcol_dist_map_insert_or_assign");
}

gcol_status_t gcol_dist_map_insert_or_apply(gcol_dist_map_t *m, const void *d_keys, const void *d_values,
                                            size_t n, gcol_op_t op, cudaStream_t s) {
  return keyed_call(DIST_APPLY, m, d_keys, d_values, n, op, NULL, s, "gcol_dist_map_insert_or_apply");
}

gcol_status_t gcol_dist_map_find(gcol_dist_map_t *m, const void *d_keys, size_t n, void *d_values_out,
                                 cudaStream_t s) {
  return keyed_call(DIST_FIND, m, d_keys, NULL, n, GCOL_OP_ADD, d_values_out, s, "gcol_dist_map_find");
}

gcol_status_t gcol_dist_map_contains(gcol_dist_map_t *m, const void *d_keys, size_t n, uint8_t *d_found_out,
                                     cudaStream_t s) {
  return keyed_call(DIST_CONTAINS, m, d_keys, NULL, n, GCOL_OP_ADD, d_found_out, s, "gcol_dist_map_contains");
}

gcol_status_t gcol_dist_map_erase(gcol_dist_map_t *m, const void *d_keys, size_t n, cudaStream_t s) {
  return keyed_call(DIST_ERASE, m, d_keys, NULL, n, GCOL_OP_ADD, NULL, s, "gcol_dist_map_erase");
}

gcol_status_t gcol_dist_map_size(gcol_dist_map_t *m, size_t *h_size_out, cudaStream_t s) {
  if (!m) return GCOL_ERROR_INVALID_ARGUMENT;
  dist_call_t c = new_call(DIST_SIZE, m, s);
  c.h_out = h_size_out;
  if (!h_size_out) c.local = GCOL_ERROR_INVALID_ARGUMENT;
  return run(&c, "gcol_dist_map_size");
}

gcol_status_t gcol_dist_map_retrieve_all(gcol_dist_map_t *m, void *d_keys_out, void *d_values_out,
                                         size_t *h_count_out, cudaStream_t s) {
  if (!m) return GCOL_ERROR_INVALID_ARGUMENT;
  dist_call_t c = new_call(DIST_RETRIEVE, m, s);
  c.out = d_keys_out, c.out_values = d_values_out, c.h_out = h_count_out;
  if (!h_count_out) c.local = GCOL_ERROR_INVALID_ARGUMENT;
  return run(&c, "gcol_dist_map_retrieve_all");
}

gcol_map_t *gcol_dist_map_shard(gcol_dist_map_t *m) { return m ? m->shard : NULL; }
