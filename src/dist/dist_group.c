/* Running calls: alone (one rank per process), or several queued between
 * gcol_dist_group_start and gcol_dist_group_end (one process driving
 * several GPUs). The calls go through the steps together: every step that
 * talks to NCCL runs for all of them inside one ncclGroupStart/End, as NCCL
 * requires when one thread drives several ranks of a communicator. */
#include <stdio.h>
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

/* ---- GCOL_DIST_PROFILE=1: where the first rank's time goes -----------------
 * Events on the first call's compute stream at each stage's end, read once
 * the call is over (it synchronizes anyway): one line per call on stderr.
 * A diagnostic for tuning, like NCCL_DEBUG; off, it costs one getenv. */
enum { PROFILE_MARKS = 40 };
static _Thread_local struct {
  int on; /* -1: not asked yet */
  cudaEvent_t ev[PROFILE_MARKS];
  const char *what[PROFILE_MARKS];
  int n;
} profile = {-1, {0}, {0}, 0};

static void mark(dist_call_t *c, const char *what) {
  if (profile.on < 0) profile.on = getenv("GCOL_DIST_PROFILE") != NULL;
  if (!profile.on || profile.n == PROFILE_MARKS) return;
  (void)cudaSetDevice(c->m->device);
  if (cudaEventCreate(&profile.ev[profile.n]) != cudaSuccess) return;
  profile.what[profile.n] = what;
  (void)cudaEventRecord(profile.ev[profile.n++], c->s);
}

static void report(dist_call_t *c) {
  if (profile.on != 1 || profile.n == 0) return;
  (void)cudaSetDevice(c->m->device);
  (void)cudaEventSynchronize(profile.ev[profile.n - 1]);
  fprintf(stderr, "gcol_dist profile: rank %d kind %d n %zu rounds %zu:", c->m->rank, (int)c->kind, c->n, c->rounds);
  for (int i = 1; i < profile.n; ++i) {
    float ms = 0;
    (void)cudaEventElapsedTime(&ms, profile.ev[i - 1], profile.ev[i]);
    fprintf(stderr, " %s %.3f", profile.what[i], ms);
  }
  fprintf(stderr, " ms\n");
  for (int i = 0; i < profile.n; ++i) (void)cudaEventDestroy(profile.ev[i]);
  profile.n = 0;
  (void)cudaGetLastError();
}

gcol_status_t dist_execute(dist_call_t *calls, int n) {
  int caller_device = -1;
  if (cudaGetDevice(&caller_device) != cudaSuccess) caller_device = -1;
  mark(&calls[0], "start");
  each(calls, n, dist_step_prepare);
  mark(&calls[0], "group");
  grouped(calls, n, dist_step_exchange, NULL, 0);
  each(calls, n, dist_step_plan);
  grouped(calls, n, dist_step_ready, NULL, 0);
  size_t rounds = 0;
  for (int i = 0; i < n; ++i)
    if (dist_step_check_ready(&calls[i]) && calls[i].rounds > rounds) rounds = calls[i].rounds;
  /* transfers run DIST_SLOTS - 1 rounds ahead of the shard work: round k + 2
   * travels while round k is applied */
  const size_t ahead = DIST_SLOTS - 1;
  for (size_t k = 0; k < ahead; ++k) {
    grouped(calls, n, NULL, dist_step_forward, k);
    each_round(calls, n, dist_step_forwarded, k);
  }
  mark(&calls[0], "plan");
  each(calls, n, dist_step_apply_self);
  mark(&calls[0], "self");
  for (size_t k = 0; k < rounds; ++k) {
    each_round(calls, n, dist_step_apply, k);
    mark(&calls[0], "round");
    grouped(calls, n, NULL, dist_step_forward, k + ahead);
    each_round(calls, n, dist_step_forwarded, k + ahead);
    grouped(calls, n, NULL, dist_step_answer, k);
    each_round(calls, n, dist_step_answered, k);
  }
  each(calls, n, dist_step_finish);
  mark(&calls[0], "finish");
  grouped(calls, n, dist_step_vote, NULL, 0);
  each(calls, n, dist_step_release);
  mark(&calls[0], "release");
  report(&calls[0]);
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
