/* Running calls: alone (one rank per process), or several queued between
 * gcol_dist_group_start and gcol_dist_group_end (one process driving
 * several GPUs). The calls go through the steps together: every step that
 * talks to NCCL runs for all of them inside one ncclGroupStart/End, as NCCL
 * requires when one thread drives several ranks of a communicator. */
#include <stdlib.h>

#include "core/common.h"
#include "dist/dist_internal.h"

static _Thread_local int last_nccl_error = 0;

int gcol_dist_last_nccl_error(void) { return last_nccl_error; }

const char *gcol_dist_last_error_message(void) { return gcol_tls_message; }

gcol_status_t dist_from_nccl(ncclResult_t r) {
  if (r == ncclSuccess) return GCOL_SUCCESS;
  last_nccl_error = (int)r;
  gcol_status_t s = r == ncclInvalidArgument || r == ncclInvalidUsage ? GCOL_ERROR_INVALID_ARGUMENT : GCOL_ERROR_NCCL;
  return gcol_fail(s, "NCCL error %d: %s", (int)r, ncclGetErrorString(r));
}

typedef void (*step_fn)(dist_call_t *);
typedef void (*round_fn)(dist_call_t *, size_t);

static void each(dist_call_t *calls, int n, step_fn f) {
  for (int i = 0; i < n; ++i) f(&calls[i]);
}
static void each_round(dist_call_t *calls, int n, round_fn f, size_t k) {
  for (int i = 0; i < n; ++i) f(&calls[i], k);
}

/* A step that enqueues NCCL work, for every call inside one group. A failed
 * group end breaks every call's NCCL path (their state is unknown). */
static void grouped(dist_call_t *calls, int n, step_fn f, round_fn g, size_t k) {
  ncclResult_t r = ncclGroupStart();
  if (r == ncclSuccess) {
    if (f) each(calls, n, f);
    else each_round(calls, n, g, k);
    r = ncclGroupEnd();
  }
  if (r != ncclSuccess)
    for (int i = 0; i < n; ++i) {
      if (calls[i].local == GCOL_SUCCESS) calls[i].local = dist_from_nccl(r);
      calls[i].nccl_broken = 1;
    }
}

gcol_status_t dist_execute(dist_call_t *calls, int n) {
  int caller_device = -1;
  if (cudaGetDevice(&caller_device) != cudaSuccess) caller_device = -1;
  each(calls, n, dist_step_prepare);
  grouped(calls, n, dist_step_exchange, NULL, 0);
  each(calls, n, dist_step_plan);
  grouped(calls, n, dist_step_ready, NULL, 0);
  size_t rounds = 0;
  for (int i = 0; i < n; ++i)
    if (dist_step_check_ready(&calls[i]) && calls[i].rounds > rounds) rounds = calls[i].rounds;
  grouped(calls, n, NULL, dist_step_forward, 0);
  each_round(calls, n, dist_step_forwarded, 0);
  each(calls, n, dist_step_apply_self);
  for (size_t k = 0; k < rounds; ++k) {
    each_round(calls, n, dist_step_apply, k);
    grouped(calls, n, NULL, dist_step_forward, k + 1); /* travels while round k is applied */
    each_round(calls, n, dist_step_forwarded, k + 1);
    grouped(calls, n, NULL, dist_step_answer, k);
  }
  each(calls, n, dist_step_finish);
  grouped(calls, n, dist_step_vote, NULL, 0);
  each(calls, n, dist_step_release);
  if (caller_device >= 0) (void)cudaSetDevice(caller_device);
  gcol_status_t worst = GCOL_SUCCESS;
  for (int i = 0; i < n; ++i)
    if (worst == GCOL_SUCCESS) worst = calls[i].result;
  return worst;
}

/* ---- groups ---------------------------------------------------------------- */

static _Thread_local struct {
  int open;
  dist_call_t *calls;
  int n, cap;
} group;

int dist_group_open(void) { return group.open; }

gcol_status_t dist_group_add(const dist_call_t *c) {
  for (int i = 0; i < group.n; ++i)
    if (group.calls[i].m == c->m) /* one call per map */
      return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "the open group already holds a call on this map");
  if (group.n == group.cap) {
    int cap = group.cap ? 2 * group.cap : 8;
    dist_call_t *grown = realloc(group.calls, sizeof *grown * (size_t)cap);
    if (!grown) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory to queue the call");
    group.calls = grown, group.cap = cap;
  }
  group.calls[group.n++] = *c;
  return GCOL_SUCCESS;
}

static gcol_status_t group_start(void) {
  if (group.open) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "a group is already open on this thread (groups do not nest)");
  group.open = 1;
  group.n = 0;
  return GCOL_SUCCESS;
}

static gcol_status_t group_end(void) {
  if (!group.open) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "no group is open on this thread");
  group.open = 0;
  gcol_status_t st = group.n ? dist_execute(group.calls, group.n) : GCOL_SUCCESS;
  for (int i = 0; i < group.n; ++i) dist_call_done(&group.calls[i]);
  free(group.calls);
  group.calls = NULL;
  group.n = group.cap = 0;
  return st;
}

gcol_status_t gcol_dist_group_start(void) {
  gcol_api_begin("gcol_dist_group_start");
  gcol_status_t st = group_start();
  gcol_api_end();
  return st;
}

gcol_status_t gcol_dist_group_end(void) {
  gcol_api_begin("gcol_dist_group_end");
  gcol_status_t st = group_end();
  gcol_api_end();
  return st;
}
