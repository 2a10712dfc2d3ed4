/* The public entry points of libgcol_nccl: check the arguments, build this
 * rank's call and run it now or queue it in the thread's open group. An
 * argument error that the other ranks cannot see (a NULL batch with n > 0)
 * does not skip the collective: the rank takes part with an empty batch and
 * the vote returns GCOL_ERROR_INVALID_ARGUMENT everywhere. Only a NULL map,
 * config or communicator returns at once. Messages go to this library's
 * gcol_dist_last_error_message. */
#include <stdlib.h>
#include <string.h>

#include "core/args.h"
#include "core/device_alloc.h"
#include "core/common.h"
#include "dist/dist_internal.h"
#include "dist/dist_kernels.h"
#include "map/map_internal.h"

static gcol_status_t run(dist_call_t *c) {
  gcol_status_t st;
  if (dist_group_open()) {
    st = dist_group_add(c);
    if (st != GCOL_SUCCESS && c->kind == DIST_CREATE) c->result = st, dist_call_done(c);
  } else {
    st = dist_execute(c, 1);
    dist_call_done(c);
  }
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

static gcol_status_t create(gcol_dist_map_t **map, const gcol_map_config_t *cfg, ncclComm_t comm, cudaStream_t s) {
  if (!map) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "map (the output handle) is NULL");
  *map = NULL;
  if (!cfg) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "cfg is NULL");
  if (!comm) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "comm is NULL");
  GCOL_TRY(gcol_require_device());
  gcol_dist_map_t *m = calloc(1, sizeof *m);
  if (!m) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the map object");
  ncclResult_t r = ncclCommCount(comm, &m->nranks);
  if (r == ncclSuccess) r = ncclCommUserRank(comm, &m->rank);
  if (r == ncclSuccess) r = ncclCommCuDevice(comm, &m->device);
  if (r != ncclSuccess) {
    free(m);
    return dist_from_nccl(r);
  }
  m->magic = GCOL_DIST_MAP_MAGIC;
  m->comm = comm;
  dist_call_t c = new_call(DIST_CREATE, m, s);
  /* a refused config still takes part in the collective (with defaults) */
  c.local = gcol_map_config_take(cfg, &c.cfg);
  if (c.local == GCOL_SUCCESS && c.cfg.key_type == GCOL_U128) /* its kernels route 4- and 8-byte keys */
    c.local = gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "cfg->key_type GCOL_U128: the sharded map takes 4- and 8-byte keys");
  if (c.local != GCOL_SUCCESS) c.cfg = gcol_map_config_default(GCOL_U64, GCOL_U64);
  m->cfg = c.cfg;
  m->key_bytes = gcol_type_size(c.cfg.key_type);
  m->value_bytes = gcol_type_size(c.cfg.value_type);
  c.map_out = map;
  if (m->nranks > GCOL_DIST_MAX_RANKS)
    c.local = gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "the communicator has %d ranks; at most %d are supported",
                        m->nranks, GCOL_DIST_MAX_RANKS);
  *map = m;
  return run(&c);
}

gcol_status_t gcol_dist_map_create(gcol_dist_map_t **map, const gcol_map_config_t *cfg, ncclComm_t comm,
                                   cudaStream_t s) {
  gcol_api_begin("gcol_dist_map_create");
  gcol_status_t st = create(map, cfg, comm, s);
  gcol_api_end();
  return st;
}

void gcol_dist_map_destroy(gcol_dist_map_t *m) {
  if (!m || m->magic != GCOL_DIST_MAP_MAGIC) return;
  m->magic = 0;
  int caller = -1;
  if (cudaGetDevice(&caller) != cudaSuccess) caller = -1;
  (void)cudaSetDevice(m->device);
  gcol_map_destroy(m->shard);
  if (m->comm_stream) (void)cudaStreamDestroy(m->comm_stream);
  for (int i = 0; i < DIST_SLOTS; ++i) {
    if (m->ev_fwd[i]) (void)cudaEventDestroy(m->ev_fwd[i]);
    if (m->ev_op[i]) (void)cudaEventDestroy(m->ev_op[i]);
  }
  if (m->ev_sync) (void)cudaEventDestroy(m->ev_sync);
  if (m->h_words) (void)cudaFreeHost(m->h_words);
  if (m->d_words && m->words_from_cuda) (void)cudaFree(m->d_words);
  else if (m->d_words) (void)gcol_device_free(&m->cfg.allocator, m->d_words, m->words_bytes, NULL);
  free(m);
  if (caller >= 0) (void)cudaSetDevice(caller);
}

static gcol_status_t check_map(const gcol_dist_map_t *m) {
  return gcol_check_handle(m, m ? m->magic : 0, GCOL_DIST_MAP_MAGIC, "gcol_dist_map_t");
}

/* This rank's batch against the rules (NULL, alignment, memory the map's
 * device can read); a refusal is voted, not returned at once. */
static gcol_status_t check_batch(dist_kind_t kind, const gcol_dist_map_t *m, const void *keys, const void *values,
                                 size_t n, gcol_op_t op, const void *out) {
  if (n > UINT32_MAX) /* batch positions travel as 32-bit indices */
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "n %zu is more than 2^32 - 1", n);
  if (kind == DIST_APPLY && op != GCOL_OP_ADD && op != GCOL_OP_MIN && op != GCOL_OP_MAX)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "op %d is not GCOL_OP_ADD, GCOL_OP_MIN or GCOL_OP_MAX", (int)op);
  size_t out_bytes = kind == DIST_FIND ? m->value_bytes : 1;
  gcol_dptr_t a[] = {{"d_keys", keys, n, m->key_bytes, gcol_type_name(m->cfg.key_type)},
                     {"d_values", values, dist_kind_carries_values(kind) ? n : 0, m->value_bytes,
                      gcol_type_name(m->cfg.value_type)},
                     {kind == DIST_FIND ? "d_values_out" : "d_found_out", out, dist_kind_answers(kind) ? n : 0,
                      out_bytes, kind == DIST_FIND ? gcol_type_name(m->cfg.value_type) : "uint8_t flags"}};
  GCOL_TRY(gcol_check_dptrs_host(a, GCOL_NARGS(a)));
  return gcol_check_dptrs_on(a, GCOL_NARGS(a), m->device);
}

/* Keyed calls; what the kind needs (values, answers, op) is checked here. */
static gcol_status_t keyed_call(dist_kind_t kind, gcol_dist_map_t *m, const void *keys, const void *values,
                                size_t n, gcol_op_t op, void *out, cudaStream_t s, const char *name) {
  gcol_api_begin(name);
  gcol_status_t st = check_map(m);
  if (st == GCOL_SUCCESS) {
    dist_call_t c = new_call(kind, m, s);
    c.keys = keys, c.values = values, c.n = n, c.op = op, c.out = out;
    c.local = check_batch(kind, m, keys, values, n, op, out);
    st = run(&c);
  }
  gcol_api_end();
  return st;
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

/* size and retrieve_all: a NULL host output is voted like a bad batch. */
static gcol_status_t whole_map_call(dist_kind_t kind, gcol_dist_map_t *m, void *keys_out, void *values_out,
                                    size_t *h_out, cudaStream_t s, const char *name) {
  gcol_api_begin(name);
  gcol_status_t st = check_map(m);
  if (st == GCOL_SUCCESS) {
    dist_call_t c = new_call(kind, m, s);
    c.out = keys_out, c.out_values = values_out, c.h_out = h_out;
    if (!h_out) c.local = gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "the host output is NULL");
    st = run(&c);
  }
  gcol_api_end();
  return st;
}

gcol_status_t gcol_dist_map_size(gcol_dist_map_t *m, size_t *h_size_out, cudaStream_t s) {
  return whole_map_call(DIST_SIZE, m, NULL, NULL, h_size_out, s, "gcol_dist_map_size");
}

gcol_status_t gcol_dist_map_retrieve_all(gcol_dist_map_t *m, void *d_keys_out, void *d_values_out,
                                         size_t *h_count_out, cudaStream_t s) {
  return whole_map_call(DIST_RETRIEVE, m, d_keys_out, d_values_out, h_count_out, s, "gcol_dist_map_retrieve_all");
}

gcol_map_t *gcol_dist_map_shard(gcol_dist_map_t *m) { return check_map(m) == GCOL_SUCCESS ? m->shard : NULL; }
