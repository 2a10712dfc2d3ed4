#include "dist_scenario.h"

#include <stdlib.h>
#include <string.h>

#include "dist_data.h"
#include "dist_model.h"

/* A scenario's state: the config, the model, the current call's batches of
 * every global rank (host) and of the local ranks (device). */
typedef struct {
  dc_cluster_t *c;
  gcol_map_config_t cfg;
  size_t kb, vb;
  dm_model_t model;
  uint64_t *pool; /* the distinct keys a scenario draws from */
  uint64_t *keys[DS_MAX_RANKS], *vals[DS_MAX_RANKS];
  size_t n[DS_MAX_RANKS];
  void *d_keys[DC_MAX_LOCAL], *d_vals[DC_MAX_LOCAL];
} ctx_t;

typedef struct {
  uint64_t k, v;
} pair_t;

static test_result_t ctx_init(ctx_t *x, dc_cluster_t *c, gcol_type_t kt, gcol_type_t vt) {
  memset(x, 0, sizeof *x);
  x->c = c;
  x->cfg = gcol_map_config_default(kt, vt);
  x->cfg.seed = test_seed();
  x->kb = gcol_type_size(kt), x->vb = gcol_type_size(vt);
  CHECK(c->nranks >= 1 && c->nranks <= DS_MAX_RANKS);
  CHECK(dm_init(&x->model, kt, vt, x->cfg.empty_value) == 0);
  return TEST_PASS;
}

static void drop_batches(ctx_t *x) {
  for (int r = 0; r < DS_MAX_RANKS; ++r) {
    free(x->keys[r]), free(x->vals[r]);
    x->keys[r] = x->vals[r] = NULL, x->n[r] = 0;
  }
  for (int i = 0; i < x->c->nlocal; ++i) {
    if (!x->d_keys[i] && !x->d_vals[i]) continue;
    dc_use(x->c, i); /* free on the device that holds them */
    dd_free(x->d_keys[i]), dd_free(x->d_vals[i]);
    x->d_keys[i] = x->d_vals[i] = NULL;
  }
}

static void ctx_free(ctx_t *x) {
  drop_batches(x);
  dm_free(&x->model);
  free(x->pool);
  dc_destroy_maps(x->c);
}

/* Host batches of n[r] pairs for every global rank (contents by the caller). */
static test_result_t alloc_batches(ctx_t *x, const size_t *n) {
  drop_batches(x);
  for (int r = 0; r < x->c->nranks; ++r) {
    x->n[r] = n[r];
    x->keys[r] = malloc((n[r] + 1) * sizeof(uint64_t));
    x->vals[r] = malloc((n[r] + 1) * sizeof(uint64_t));
    CHECK(x->keys[r] && x->vals[r]);
  }
  return TEST_PASS;
}

/* The local ranks' batches to their devices (NULL for an empty one). */
static test_result_t upload(ctx_t *x) {
  for (int i = 0; i < x->c->nlocal; ++i) {
    int r = x->c->rank[i];
    RUN(dc_use(x->c, i));
    CHECK(dd_upload(&x->d_keys[i], x->keys[r], x->n[r], x->kb) == 0);
    CHECK(dd_upload(&x->d_vals[i], x->vals[r], x->n[r], x->vb) == 0);
  }
  return TEST_PASS;
}

static gcol_status_t call_batches(ctx_t *x, dc_op_t op, gcol_op_t apply) {
  dc_args_t a[DC_MAX_LOCAL];
  memset(a, 0, sizeof a);
  for (int i = 0; i < x->c->nlocal; ++i) {
    a[i].keys = x->d_keys[i], a[i].values = x->d_vals[i];
    a[i].n = x->n[x->c->rank[i]], a[i].op = apply;
  }
  return dc_call(x->c, op, a);
}

static test_result_t create(ctx_t *x) {
  dc_args_t a[DC_MAX_LOCAL];
  memset(a, 0, sizeof a);
  for (int i = 0; i < x->c->nlocal; ++i) a[i].cfg = &x->cfg;
  CHECK_OK(dc_call(x->c, DC_CREATE, a));
  for (int i = 0; i < x->c->nlocal; ++i) CHECK(x->c->m[i] != NULL);
  return TEST_PASS;
}

/* Collective find and contains of q[i][0..nq[i]) on every local rank i, the
 * answers back on the host in vals[i] and found[i] (the caller frees them).
 * Outputs start poisoned. */
static test_result_t query(ctx_t *x, uint64_t *const q[], const size_t nq[], uint64_t *vals[],
                           uint8_t *found[]) {
  dc_cluster_t *c = x->c;
  dc_args_t f[DC_MAX_LOCAL], h[DC_MAX_LOCAL];
  void *dq[DC_MAX_LOCAL], *dv[DC_MAX_LOCAL];
  uint8_t *df[DC_MAX_LOCAL];
  memset(f, 0, sizeof f), memset(h, 0, sizeof h);
  for (int i = 0; i < c->nlocal; ++i) {
    RUN(dc_use(c, i));
    CHECK(dd_upload(&dq[i], q[i], nq[i], x->kb) == 0);
    dv[i] = dd_poisoned(nq[i] * x->vb), df[i] = dd_poisoned(nq[i]);
    CHECK(dv[i] && df[i]);
    f[i].keys = h[i].keys = dq[i], f[i].n = h[i].n = nq[i];
    f[i].out = dv[i], h[i].found = df[i];
  }
  CHECK_OK(dc_call(c, DC_FIND, f));
  CHECK_OK(dc_call(c, DC_CONTAINS, h));
  for (int i = 0; i < c->nlocal; ++i) {
    vals[i] = malloc((nq[i] + 1) * sizeof(uint64_t)), found[i] = malloc(nq[i] + 1);
    CHECK(vals[i] && found[i]);
    RUN(dc_use(c, i));
    CHECK(dd_download(vals[i], dv[i], nq[i], x->vb) == 0);
    CHECK_CUDA(cudaMemcpy(found[i], df[i], nq[i], cudaMemcpyDeviceToHost));
    dd_free(dq[i]), dd_free(dv[i]), dd_free(df[i]);
  }
  return TEST_PASS;
}

static void free_answers(int nlocal, uint64_t *vals[], uint8_t *found[]) {
  for (int i = 0; i < nlocal; ++i) free(vals[i]), free(found[i]);
}

/* Local rank i asks for q[i]; every find and contains answer matches the model. */
static test_result_t check_lists(ctx_t *x, uint64_t *const q[], const size_t nq[]) {
  uint64_t *vals[DC_MAX_LOCAL];
  uint8_t *found[DC_MAX_LOCAL];
  RUN(query(x, q, nq, vals, found));
  for (int i = 0; i < x->c->nlocal; ++i) {
    for (size_t j = 0; j < nq[i]; ++j) {
      uint64_t want;
      int present = dm_find(&x->model, q[i][j], &want);
      if (vals[i][j] != want || found[i][j] != present) {
        fprintf(stderr, "    rank %d, key %llx: find %llx, contains %d; model %llx, %d\n", x->c->rank[i],
                (unsigned long long)q[i][j], (unsigned long long)vals[i][j], found[i][j],
                (unsigned long long)want, present);
        return TEST_FAIL;
      }
    }
  }
  free_answers(x->c->nlocal, vals, found);
  return TEST_PASS;
}

/* Each local rank asks for its own batch and for keys never inserted. */
static test_result_t check_batches(ctx_t *x, const uint64_t *absent, size_t na) {
  uint64_t *q[DC_MAX_LOCAL];
  size_t nq[DC_MAX_LOCAL];
  for (int i = 0; i < x->c->nlocal; ++i) {
    int r = x->c->rank[i];
    nq[i] = x->n[r] + na;
    q[i] = malloc((nq[i] + 1) * sizeof(uint64_t));
    CHECK(q[i]);
    memcpy(q[i], x->keys[r], x->n[r] * sizeof(uint64_t));
    memcpy(q[i] + x->n[r], absent, na * sizeof(uint64_t));
  }
  RUN(check_lists(x, q, nq));
  for (int i = 0; i < x->c->nlocal; ++i) free(q[i]);
  return TEST_PASS;
}

static test_result_t check_size(ctx_t *x) { return dc_size_is(x->c, dm_size(&x->model)); }

/* Every rank's retrieve_all: exactly the model's keys that rank owns, each
 * once, with the model's value. */
static test_result_t check_retrieve(ctx_t *x) {
  dc_cluster_t *c = x->c;
  size_t room[DC_MAX_LOCAL], count[DC_MAX_LOCAL];
  void *dk[DC_MAX_LOCAL], *dv[DC_MAX_LOCAL];
  dc_args_t a[DC_MAX_LOCAL];
  memset(a, 0, sizeof a);
  for (int i = 0; i < c->nlocal; ++i) {
    RUN(dc_use(c, i));
    CHECK_OK(gcol_map_size(gcol_dist_map_shard(c->m[i]), &room[i], c->s[i]));
    dk[i] = dd_poisoned(room[i] * x->kb), dv[i] = dd_poisoned(room[i] * x->vb);
    CHECK(dk[i] && dv[i]);
    count[i] = (size_t)-1;
    a[i].out = dk[i], a[i].out_values = dv[i], a[i].h_out = &count[i];
  }
  CHECK_OK(dc_call(c, DC_RETRIEVE, a));
  for (int i = 0; i < c->nlocal; ++i) {
    int rank = c->rank[i];
    size_t owned = 0;
    uint64_t k, v;
    for (size_t j = 0; j < x->model.cap; ++j)
      owned += dm_slot(&x->model, j, &k, &v) && gcol_dist_owner(k, c->nranks) == rank;
    if (count[i] != room[i] || count[i] != owned) {
      fprintf(stderr, "    rank %d: retrieved %zu, shard size %zu, model keys it owns %zu\n", rank, count[i],
              room[i], owned);
      return TEST_FAIL;
    }
    uint64_t *keys = malloc((count[i] + 1) * 8), *vals = malloc((count[i] + 1) * 8);
    dm_model_t seen;
    CHECK(keys && vals && dm_init(&seen, x->cfg.key_type, GCOL_U32, 0) == 0);
    RUN(dc_use(c, i));
    CHECK(dd_download(keys, dk[i], count[i], x->kb) == 0 && dd_download(vals, dv[i], count[i], x->vb) == 0);
    for (size_t j = 0; j < count[i]; ++j) {
      CHECK(gcol_dist_owner(keys[j], c->nranks) == rank);
      CHECK(dm_insert(&seen, keys[j], 0) == 1); /* each key once */
      CHECK(dm_find(&x->model, keys[j], &v) && v == vals[j]);
    }
    dm_free(&seen), free(keys), free(vals), dd_free(dk[i]), dd_free(dv[i]);
  }
  return TEST_PASS;
}

static int by_pair(const void *pa, const void *pb) {
  const pair_t *a = pa, *b = pb;
  if (a->k != b->k) return a->k < b->k ? -1 : 1;
  return (a->v > b->v) - (a->v < b->v);
}

/* After a call that may store any of several candidate values for a key:
 * every local rank finds each such key; the value must be a candidate; the
 * first rank's answer goes into the model and the others must agree. */
static test_result_t resolve(ctx_t *x, pair_t *cand, size_t n) {
  qsort(cand, n, sizeof *cand, by_pair);
  uint64_t *keys = malloc((n + 1) * sizeof *keys), *q[DC_MAX_LOCAL], *vals[DC_MAX_LOCAL];
  uint8_t *found[DC_MAX_LOCAL];
  size_t nk = 0, nq[DC_MAX_LOCAL];
  CHECK(keys);
  for (size_t j = 0; j < n; ++j)
    if (j == 0 || cand[j].k != cand[j - 1].k) keys[nk++] = cand[j].k;
  for (int i = 0; i < x->c->nlocal; ++i) q[i] = keys, nq[i] = nk;
  RUN(query(x, q, nq, vals, found));
  for (int i = 0; i < x->c->nlocal; ++i) {
    for (size_t j = 0; j < nk; ++j) {
      pair_t p = {keys[j], vals[i][j]};
      uint64_t agreed = p.v;
      if (!found[i][j] || !bsearch(&p, cand, n, sizeof *cand, by_pair)) {
        fprintf(stderr, "    rank %d, key %llx: contains %d, value %llx is no candidate\n", x->c->rank[i],
                (unsigned long long)p.k, found[i][j], (unsigned long long)p.v);
        return TEST_FAIL;
      }
      if (i == 0) CHECK(dm_assign(&x->model, p.k, p.v) == 0);
      else dm_find(&x->model, p.k, &agreed);
      if (agreed != p.v) {
        fprintf(stderr, "    key %llx: rank %d finds %llx, rank %d %llx\n", (unsigned long long)p.k,
                x->c->rank[0], (unsigned long long)agreed, x->c->rank[i], (unsigned long long)p.v);
        return TEST_FAIL;
      }
    }
  }
  free_answers(x->c->nlocal, vals, found);
  free(keys);
  return TEST_PASS;
}

/* Step t's batches: keys drawn (with repeats) from the pool, or its next
 * keys in turn (slices); erase batches also from keys never inserted;
 * random values, so that repeats of a key differ. */
static test_result_t make_step(ctx_t *x, const ds_spec_t *sp, int t, const uint64_t *absent) {
  const ds_step_t *st = &sp->steps[t];
  size_t next = 0; /* pool keys the earlier batches took in turn */
  for (int u = 0; u < t; ++u)
    for (int r = 0; r < x->c->nranks; ++r) next += sp->steps[u].n[r];
  RUN(alloc_batches(x, st->n));
  for (int r = 0; r < x->c->nranks; ++r) {
    dd_rng_t g = dd_rng(test_seed(), 100 + (uint64_t)t * DS_MAX_RANKS + (uint64_t)r);
    for (size_t j = 0; j < st->n[r]; ++j) {
      int miss = st->kind == DS_ERASE && sp->absent && dd_below(&g, 4) == 0;
      size_t at = sp->slices ? next++ % sp->pool : (size_t)dd_below(&g, sp->pool);
      x->keys[r][j] = miss ? absent[dd_below(&g, sp->absent)] : x->pool[at];
      x->vals[r][j] = dd_value(&g, x->cfg.value_type);
    }
  }
  return upload(x);
}

static test_result_t run_step(ctx_t *x, const ds_spec_t *sp, int t, const uint64_t *absent) {
  static const dc_op_t ops[] = {DC_INSERT, DC_ASSIGN, DC_APPLY, DC_ERASE};
  const ds_step_t *st = &sp->steps[t];
  RUN(make_step(x, sp, t, absent));
  size_t total = 0, nc = 0;
  for (int r = 0; r < x->c->nranks; ++r) total += x->n[r];
  pair_t *cand = malloc((total + 1) * sizeof *cand);
  CHECK(cand);
  /* insert: a key absent before the call gets one of its values in the
   * call; insert_or_assign: every key does. */
  for (int r = 0; r < x->c->nranks && (st->kind == DS_INSERT || st->kind == DS_ASSIGN); ++r) {
    for (size_t j = 0; j < x->n[r]; ++j) {
      uint64_t v;
      if (st->kind == DS_ASSIGN || !dm_find(&x->model, x->keys[r][j], &v))
        cand[nc++] = (pair_t){x->keys[r][j], x->vals[r][j]};
    }
  }
  gcol_status_t s = call_batches(x, ops[st->kind], sp->apply_op);
  if (s != GCOL_SUCCESS) {
    fprintf(stderr, "    step %d: %s\n", t, gcol_status_string(s));
    return TEST_FAIL;
  }
  if (st->kind == DS_INSERT || st->kind == DS_ASSIGN) RUN(resolve(x, cand, nc));
  for (int r = 0; r < x->c->nranks && st->kind == DS_APPLY; ++r)
    for (size_t j = 0; j < x->n[r]; ++j)
      CHECK(dm_apply(&x->model, x->keys[r][j], x->vals[r][j], sp->apply_op) == 0);
  for (int r = 0; r < x->c->nranks && st->kind == DS_ERASE; ++r)
    for (size_t j = 0; j < x->n[r]; ++j) dm_erase(&x->model, x->keys[r][j]);
  free(cand);
  RUN(check_size(x));
  return check_batches(x, absent, sp->absent);
}

static test_result_t run(ctx_t *x, const ds_spec_t *sp) {
  x->cfg.capacity = sp->capacity, x->cfg.growable = sp->growable;
  x->pool = malloc((sp->pool + sp->absent + 1) * sizeof(uint64_t));
  CHECK(x->pool && sp->pool > 0);
  dd_rng_t g = dd_rng(test_seed(), 1);
  CHECK(dd_distinct_keys(x->pool, sp->pool + sp->absent, &g, &x->cfg) == 0);
  RUN(create(x));
  for (int t = 0; t < sp->nsteps; ++t) RUN(run_step(x, sp, t, x->pool + sp->pool));
  RUN(check_retrieve(x));
  CHECK(!x->c->device_moved);
  return TEST_PASS;
}

test_result_t ds_run(dc_cluster_t *c, const ds_spec_t *spec) {
  ctx_t x;
  test_result_t r = ctx_init(&x, c, spec->key_type, spec->value_type);
  if (r == TEST_PASS) r = run(&x, spec);
  ctx_free(&x);
  return r;
}

static test_result_t fill(ctx_t *x, int victim) {
  enum { WANT = 5000 };
  int nranks = x->c->nranks, src = (victim + 1) % nranks;
  size_t n[DS_MAX_RANKS] = {0}, draw = (size_t)WANT * (size_t)nranks * 2, got = 0;
  CHECK(victim >= 0 && victim < nranks);
  x->cfg.capacity = 1000, x->cfg.growable = 0;
  /* distinct keys that `victim` owns, all in the batch of rank src */
  x->pool = malloc(draw * sizeof(uint64_t));
  dd_rng_t g = dd_rng(test_seed(), 2);
  CHECK(x->pool && dd_distinct_keys(x->pool, draw, &g, &x->cfg) == 0);
  n[src] = WANT;
  RUN(alloc_batches(x, n));
  for (size_t j = 0; j < draw && got < WANT; ++j)
    if (gcol_dist_owner(x->pool[j], nranks) == victim) {
      x->keys[src][got] = x->pool[j];
      x->vals[src][got++] = dd_value(&g, x->cfg.value_type);
    }
  CHECK(got == WANT);
  RUN(upload(x));
  RUN(create(x));
  CHECK_STATUS(call_batches(x, DC_INSERT, GCOL_OP_ADD), GCOL_ERROR_FULL);

  /* each key stored whole with its own value or not at all; ranks agree */
  uint64_t *q[DC_MAX_LOCAL], *vals[DC_MAX_LOCAL];
  uint8_t *found[DC_MAX_LOCAL];
  size_t nq[DC_MAX_LOCAL];
  for (int i = 0; i < x->c->nlocal; ++i) q[i] = x->keys[src], nq[i] = WANT;
  RUN(query(x, q, nq, vals, found));
  size_t stored = 0;
  for (size_t j = 0; j < WANT; ++j) {
    for (int i = 0; i < x->c->nlocal; ++i) {
      CHECK(found[i][j] == found[0][j]);
      CHECK(vals[i][j] == (found[i][j] ? x->vals[src][j] : x->cfg.empty_value));
    }
    if (found[0][j]) {
      CHECK(dm_insert(&x->model, x->keys[src][j], x->vals[src][j]) == 1);
      ++stored;
    }
  }
  free_answers(x->c->nlocal, vals, found);
  CHECK(stored > 0 && stored < WANT);
  for (int i = 0; i < x->c->nlocal; ++i) {
    size_t cap = 0;
    CHECK_OK(gcol_map_capacity(gcol_dist_map_shard(x->c->m[i]), &cap));
    CHECK(x->c->rank[i] != victim || stored <= cap);
  }
  /* the call's failure was reported by that call; size = keys found */
  RUN(check_size(x));
  return check_retrieve(x);
}

test_result_t ds_fill(dc_cluster_t *c, int victim) {
  ctx_t x;
  test_result_t r = ctx_init(&x, c, GCOL_U64, GCOL_U64);
  if (r == TEST_PASS) r = fill(&x, victim);
  ctx_free(&x);
  return r;
}

static test_result_t reserved(ctx_t *x, int bad) {
  enum { PER_RANK = 1000 };
  int nranks = x->c->nranks;
  size_t n[DS_MAX_RANKS] = {0}, total = (size_t)PER_RANK * (size_t)nranks;
  CHECK(bad >= 0 && bad < nranks);
  x->cfg.capacity = 4 * total;
  x->pool = malloc(total * sizeof(uint64_t));
  dd_rng_t g = dd_rng(test_seed(), 3);
  CHECK(x->pool && dd_distinct_keys(x->pool, total, &g, &x->cfg) == 0);
  for (int r = 0; r < nranks; ++r) n[r] = PER_RANK + (r == bad ? 2 : 0);
  RUN(alloc_batches(x, n));
  for (int r = 0; r < nranks; ++r) {
    for (size_t j = 0; j < PER_RANK; ++j) {
      x->keys[r][j] = x->pool[(size_t)r * PER_RANK + j];
      x->vals[r][j] = dd_value(&g, x->cfg.value_type);
      CHECK(dm_insert(&x->model, x->keys[r][j], x->vals[r][j]) == 1);
    }
  }
  /* the sentinels go in the middle of the bad batch (swapped with 2 keys) */
  uint64_t *kb = x->keys[bad], *vb = x->vals[bad];
  kb[PER_RANK] = kb[17], vb[PER_RANK] = vb[17], kb[17] = x->cfg.empty_key;
  kb[PER_RANK + 1] = kb[500], vb[PER_RANK + 1] = vb[500], kb[500] = x->cfg.erased_key;
  RUN(upload(x));
  RUN(create(x));
  CHECK_STATUS(call_batches(x, DC_INSERT, GCOL_OP_ADD), GCOL_ERROR_RESERVED_KEY);
  RUN(check_size(x));
  uint64_t *q[DC_MAX_LOCAL];
  size_t nq[DC_MAX_LOCAL];
  for (int i = 0; i < x->c->nlocal; ++i) q[i] = x->pool, nq[i] = total;
  RUN(check_lists(x, q, nq));
  return check_retrieve(x);
}

test_result_t ds_reserved(dc_cluster_t *c, gcol_type_t key_type, int bad) {
  ctx_t x;
  test_result_t r = ctx_init(&x, c, key_type, GCOL_U64);
  if (r == TEST_PASS) r = reserved(&x, bad);
  ctx_free(&x);
  return r;
}
