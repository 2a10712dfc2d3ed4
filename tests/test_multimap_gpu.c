/* GPU tests of the multimap against a CPU multiset, for every engine: keys
 * with 1, 2, 100 and 10,000 copies, missing keys, n = 0, retrieve into
 * outputs of exactly the right size and one too small, tables and pools
 * that fill up mid-batch, reserved keys, the user allocator. */
#include <string.h>
#include "harness.h"
#include "test_util.h"
#include "core/test_hooks.h"

typedef struct { uint64_t a, b; } pr_t;

static int cmp_pr(const void *x, const void *y) {
  const pr_t *p = x, *q = y;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  return p->b < q->b ? -1 : p->b > q->b;
}

/* 1 if sorted sub[0..ns) is a sub-multiset of sorted all[0..na). */
static int sub_multiset(const pr_t *sub, size_t ns, const pr_t *all, size_t na) {
  size_t j = 0;
  for (size_t i = 0; i < ns; ++i) {
    while (j < na && cmp_pr(&all[j], &sub[i]) < 0) ++j;
    if (j == na || cmp_pr(&all[j], &sub[i]) != 0) return 0;
    ++j;
  }
  return 1;
}

static const gcol_multimap_engine_t engines[3] = {GCOL_MULTIMAP_OPEN, GCOL_MULTIMAP_CHAINED,
                                                  GCOL_MULTIMAP_CHAINED_LOCKFREE};
static const char *engine_name[3] = {"open", "chained", "chained-lockfree"};

typedef struct {
  gcol_multimap_engine_t engine;
  gcol_type_t kt, vt;
  size_t capacity;
  int expect_full;
  int lanes; /* per key of the open engine's insert (the mm_insert_lanes
                hook; 0: the tuning's) */
} case_t;

/* Pairs (key, model) sorted, from the host key/value arrays. */
static pr_t *sorted_pairs(const void *k, const void *v, size_t n, size_t kb, size_t vb) {
  pr_t *p = malloc((n ? n : 1) * sizeof *p);
  for (size_t i = 0; i < n; ++i) p[i].a = tu_get(k, i, kb), p[i].b = tu_get(v, i, vb);
  qsort(p, n, sizeof *p, cmp_pr);
  return p;
}

/* First index of key in sorted pairs (lower bound). */
static size_t lower(const pr_t *p, size_t n, uint64_t key) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (p[mid].a < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static size_t read_size_t(const size_t *d) {
  size_t x = (size_t)-1;
  cudaMemcpy(&x, d, sizeof x, cudaMemcpyDeviceToHost);
  return x;
}

/* retrieve into room for cap matches (one poisoned guard element after it);
 * checks the total, the guard, keys == their queries, and that the (query,
 * value) pairs are the expected ones (all of them when cap >= total). */
static int check_retrieve(gcol_multimap_t *m, const case_t *c, const void *d_q, const void *h_q, size_t nq,
                          const pr_t *want, size_t total, size_t cap) {
  size_t kb = gcol_type_size(c->kt), vb = gcol_type_size(c->vt), tb = 0;
  CHECK_OK(gcol_multimap_retrieve(NULL, &tb, m, d_q, nq, NULL, NULL, NULL, cap, NULL, 0));
  CHECK(tb >= 1);
  void *tmp = tu_poisoned(tb), *dk = tu_poisoned((cap + 1) * kb), *dv = tu_poisoned((cap + 1) * vb);
  size_t *dq = tu_poisoned((cap + 1) * 8), *dt = tu_poisoned(8);
  CHECK(tmp && dk && dv && dq && dt);
  CHECK_OK(gcol_multimap_retrieve(tmp, &tb, m, d_q, nq, dk, dv, dq, cap, dt, 0));
  CHECK(read_size_t(dt) == total);
  size_t got = cap < total ? cap : total;
  void *hk = malloc((cap + 1) * kb), *hv = malloc((cap + 1) * vb);
  size_t *hq = malloc((cap + 1) * 8);
  CHECK(!tu_to_host(hk, dk, (cap + 1) * kb) && !tu_to_host(hv, dv, (cap + 1) * vb) &&
        !tu_to_host(hq, dq, (cap + 1) * 8));
  uint64_t poison = kb == 4 ? 0xA5A5A5A5ULL : 0xA5A5A5A5A5A5A5A5ULL;
  CHECK(tu_get(hk, cap, kb) == poison && hq[cap] == 0xA5A5A5A5A5A5A5A5ULL); /* nothing past the room */
  pr_t *p = malloc((got ? got : 1) * sizeof *p);
  int ok = 1;
  for (size_t j = 0; j < got && ok; ++j) {
    ok = hq[j] < nq && tu_get(hk, j, kb) == tu_get(h_q, hq[j], kb);
    p[j].a = hq[j], p[j].b = tu_get(hv, j, vb);
  }
  if (ok) {
    qsort(p, got, sizeof *p, cmp_pr);
    ok = got == total ? memcmp(p, want, total * sizeof *p) == 0 : sub_multiset(p, got, want, total);
  }
  free(p), free(hk), free(hv), free(hq);
  tu_free(tmp), tu_free(dk), tu_free(dv), tu_free(dq), tu_free(dt);
  CHECK(ok);
  return TEST_PASS;
}

/* The whole life of one multimap: insert n pairs (values distinct: their
 * input index), check size, retrieve_all, count and retrieve of nq queries
 * against the CPU multiset, then clear. */
static test_result_t run_case(const case_t *c, const uint64_t *keys, size_t n, const uint64_t *queries, size_t nq) {
  size_t kb = gcol_type_size(c->kt), vb = gcol_type_size(c->vt);
  gcol_multimap_config_t cfg = gcol_multimap_config_default(c->kt, c->vt, c->engine);
  cfg.map.capacity = c->capacity;
  cfg.map.seed = test_seed();
  gcol_multimap_t *m = NULL;
  CHECK_OK(gcol_multimap_create(&m, &cfg, 0));
  gcol_test_hooks.mm_insert_lanes = c->lanes;
  size_t cap = 0;
  CHECK_OK(gcol_multimap_capacity(m, &cap));
  void *hk = malloc((n ? n : 1) * kb), *hv = malloc((n ? n : 1) * vb), *hq = malloc((nq ? nq : 1) * kb);
  for (size_t i = 0; i < n; ++i) tu_put(hk, i, kb, keys[i]), tu_put(hv, i, vb, i);
  for (size_t i = 0; i < nq; ++i) tu_put(hq, i, kb, queries[i]);
  void *dk = tu_to_device(hk, n * kb), *dv = tu_to_device(hv, n * vb), *dq = tu_to_device(hq, nq * kb);
  size_t *dc = tu_poisoned(8), *dcounts = tu_poisoned((nq ? nq : 1) * 8);
  CHECK(dk && dv && dq && dc && dcounts);

  CHECK_OK(gcol_multimap_insert(m, dk, dv, n, dc, 0));
  size_t inserted = read_size_t(dc), size = 0;
  CHECK_STATUS(gcol_multimap_status(m, 0), c->expect_full ? GCOL_ERROR_FULL : GCOL_SUCCESS);
  CHECK(inserted == (c->expect_full ? cap : n));
  CHECK_OK(gcol_multimap_size(m, &size, 0));
  CHECK(size == inserted);

  /* retrieve_all: the stored pairs are the model from here on */
  void *ak = tu_poisoned((size ? size : 1) * kb), *av = tu_poisoned((size ? size : 1) * vb);
  size_t got = 0;
  CHECK_OK(gcol_multimap_retrieve_all(m, ak, av, &got, 0));
  CHECK(got == size);
  void *hak = malloc((size ? size : 1) * kb), *hav = malloc((size ? size : 1) * vb);
  CHECK(!tu_to_host(hak, ak, size * kb) && !tu_to_host(hav, av, size * vb));
  pr_t *model = sorted_pairs(hak, hav, size, kb, vb), *input = sorted_pairs(hk, hv, n, kb, vb);
  CHECK(c->expect_full ? sub_multiset(model, size, input, n) : memcmp(model, input, n * sizeof *model) == 0);

  /* count: per query and in total */
  size_t total = 0, *want_counts = malloc((nq ? nq : 1) * 8);
  for (size_t i = 0; i < nq; ++i) {
    size_t lo = lower(model, size, queries[i]), hi = lo;
    while (hi < size && model[hi].a == queries[i]) ++hi;
    want_counts[i] = hi - lo;
    total += hi - lo;
  }
  CHECK_OK(gcol_multimap_count(m, dq, nq, dcounts, dc, 0));
  CHECK(read_size_t(dc) == total);
  size_t *got_counts = malloc((nq ? nq : 1) * 8);
  CHECK(!tu_to_host(got_counts, dcounts, nq * 8));
  CHECK(memcmp(got_counts, want_counts, nq * 8) == 0);
  CHECK_OK(gcol_multimap_count(m, dq, nq, NULL, dc, 0)); /* total only */
  CHECK(read_size_t(dc) == total);

  /* retrieve: exactly the right room, then one too little */
  pr_t *want = malloc((total ? total : 1) * sizeof *want);
  size_t w = 0;
  for (size_t i = 0; i < nq; ++i)
    for (size_t j = lower(model, size, queries[i]); j < size && model[j].a == queries[i]; ++j)
      want[w].a = i, want[w++].b = model[j].b;
  qsort(want, total, sizeof *want, cmp_pr);
  if (check_retrieve(m, c, dq, hq, nq, want, total, total) != TEST_PASS) return TEST_FAIL;
  if (total && check_retrieve(m, c, dq, hq, nq, want, total, total - 1) != TEST_PASS) return TEST_FAIL;
  CHECK_STATUS(gcol_multimap_status(m, 0), GCOL_SUCCESS);

  CHECK_OK(gcol_multimap_clear(m, 0));
  CHECK_OK(gcol_multimap_size(m, &size, 0));
  CHECK(size == 0);
  CHECK_OK(gcol_multimap_count(m, dq, nq, NULL, dc, 0));
  CHECK(read_size_t(dc) == 0);
  gcol_multimap_destroy(m);
  free(hk), free(hv), free(hq), free(hak), free(hav), free(model), free(input), free(want_counts);
  free(got_counts), free(want);
  tu_free(dk), tu_free(dv), tu_free(dq), tu_free(dc), tu_free(dcounts), tu_free(ak), tu_free(av);
  return TEST_PASS;
}

/* Keys with 1, 2, 100 and 10,000 copies, shuffled; queries: each distinct
 * key once, some twice, and as many missing keys. */
static size_t dup_keys(uint64_t **keys, uint64_t **queries, size_t *nq, size_t kb, int big) {
  const size_t groups[4][2] = {{1000, 1}, {300, 2}, {20, 100}, {1, 10000}}; /* keys x copies */
  size_t distinct = 0, n = 0;
  for (int g = 0; g < 4; ++g) distinct += groups[g][0], n += groups[g][0] * groups[g][1];
  if (!big) n -= 10000, distinct -= 1;
  uint64_t off = tu_mix64(test_seed()) & 0xffffffffffULL, span = 0;
  void *d = malloc(distinct * kb), *miss = malloc(distinct * kb);
  tu_unique_keys(d, kb, distinct, off, &span);
  tu_unique_keys(miss, kb, distinct, off + span, NULL);
  *keys = malloc(n * 8);
  size_t at = 0, di = 0;
  for (int g = 0; g < 4; ++g)
    for (size_t k = 0; k < groups[g][0] && (big || g < 3); ++k, ++di)
      for (size_t c = 0; c < groups[g][1]; ++c) (*keys)[at++] = tu_get(d, di, kb);
  tu_rng_t r = {test_seed() + 7};
  for (size_t i = n; i > 1; --i) { /* shuffle */
    size_t j = tu_next(&r) % i;
    uint64_t t = (*keys)[i - 1];
    (*keys)[i - 1] = (*keys)[j], (*keys)[j] = t;
  }
  *nq = 2 * distinct + 50;
  *queries = malloc(*nq * 8);
  for (size_t i = 0; i < distinct; ++i) (*queries)[i] = tu_get(d, i, kb), (*queries)[distinct + i] = tu_get(miss, i, kb);
  for (size_t i = 0; i < 50; ++i) (*queries)[2 * distinct + i] = tu_get(d, (i * 7) % distinct, kb); /* repeats */
  free(d), free(miss);
  return n;
}

static test_result_t dup_test(int e) {
  REQUIRE_GPU();
  const gcol_type_t pairs[4][2] = {{GCOL_I64, GCOL_I64}, {GCOL_U32, GCOL_U32}, {GCOL_I32, GCOL_U64}, {GCOL_U64, GCOL_I32}};
  for (int p = 0; p < 4; ++p) {
    size_t kb = gcol_type_size(pairs[p][0]), nq = 0;
    uint64_t *keys, *queries;
    size_t n = dup_keys(&keys, &queries, &nq, kb, p < 2);
    if (n > test_max_n()) return TEST_SKIP;
    test_result_t r = TEST_PASS;
    for (int lanes = 0; lanes < (e == 0 ? 3 : 1) && r == TEST_PASS; ++lanes) { /* open: also 1 and 2 lanes */
      case_t c = {engines[e], pairs[p][0], pairs[p][1], 2 * n, 0, lanes};
      r = run_case(&c, keys, n, queries, nq);
      gcol_test_hooks.mm_insert_lanes = 0;
      if (r != TEST_PASS) fprintf(stderr, "    engine %s, pair %d, insert lanes %d\n", engine_name[e], p, lanes);
    }
    free(keys), free(queries);
    if (r != TEST_PASS) return r;
  }
  return TEST_PASS;
}
TEST(multimap_gpu_duplicates_open) { return dup_test(0); }
TEST(multimap_gpu_duplicates_chained) { return dup_test(1); }
TEST(multimap_gpu_duplicates_chained_lockfree) { return dup_test(2); }

/* 1M pairs with 1..8 copies a key, random order; half the queries miss. */
TEST(multimap_gpu_random_1m) {
  REQUIRE_GPU();
  size_t n = 1000000;
  if (n > test_max_n()) return TEST_SKIP;
  uint64_t *keys = malloc(n * 8), *queries = malloc(n * 8), span = 0;
  uint64_t *d = malloc(n * 8), off = tu_mix64(test_seed() + 3) & 0xffffffffffULL;
  tu_unique_keys(d, 8, n, off, &span);
  tu_rng_t r = {test_seed()};
  size_t distinct = n / 4;
  for (size_t i = 0; i < n; ++i) keys[i] = d[tu_next(&r) % distinct];
  for (size_t i = 0; i < n; ++i) queries[i] = d[i % 2 ? distinct + i / 2 : tu_next(&r) % distinct];
  for (int e = 0; e < 3; ++e) {
    case_t c = {engines[e], GCOL_I64, GCOL_I64, 2 * n, 0, 0};
    if (run_case(&c, keys, n, queries, n) != TEST_PASS) {
      fprintf(stderr, "    engine %s\n", engine_name[e]);
      return TEST_FAIL;
    }
  }
  free(keys), free(queries), free(d);
  return TEST_PASS;
}

/* The table (open) or the node pool (chained) fills up mid-batch: every
 * slot is used, FULL is latched, and what was stored is a sub-multiset of
 * the input that count and retrieve agree with. */
TEST(multimap_gpu_fills_up) {
  REQUIRE_GPU();
  size_t n = 20000;
  if (n > test_max_n()) return TEST_SKIP;
  uint64_t *keys = malloc(n * 8), *queries = malloc(n * 8), *d = malloc(n * 8);
  tu_unique_keys(d, 8, n, tu_mix64(test_seed() + 5) & 0xffffffffffULL, NULL);
  for (size_t i = 0; i < n; ++i) keys[i] = d[i % 3000], queries[i] = d[i];
  for (int e = 0; e < 4; ++e) { /* 3: the open engine with one lane per insert */
    case_t c = {engines[e % 3], GCOL_U64, GCOL_U64, 5000, 1, e == 3};
    test_result_t r = run_case(&c, keys, n, queries, 4000);
    gcol_test_hooks.mm_insert_lanes = 0;
    if (r != TEST_PASS) {
      fprintf(stderr, "    engine %s%s\n", engine_name[e % 3], e == 3 ? ", one lane per insert" : "");
      return TEST_FAIL;
    }
  }
  free(keys), free(queries), free(d);
  return TEST_PASS;
}

TEST(multimap_gpu_empty_batches) {
  REQUIRE_GPU();
  for (int e = 0; e < 3; ++e) {
    case_t c = {engines[e], GCOL_I64, GCOL_I64, 100, 0, 0};
    uint64_t q[3] = {1, 2, 3};
    if (run_case(&c, NULL, 0, q, 3) != TEST_PASS) return TEST_FAIL; /* n = 0 inserts, queries miss */
    if (run_case(&c, q, 3, NULL, 0) != TEST_PASS) return TEST_FAIL; /* no queries */
  }
  return TEST_PASS;
}

/* Sentinel keys are skipped (insert) or count 0 (queries) and latch
 * GCOL_ERROR_RESERVED_KEY; the other keys are processed. */
TEST(multimap_gpu_reserved_keys) {
  REQUIRE_GPU();
  for (int e = 0; e < 3; ++e) {
    gcol_multimap_config_t cfg = gcol_multimap_config_default(GCOL_U32, GCOL_U32, engines[e]);
    gcol_multimap_t *m = NULL;
    CHECK_OK(gcol_multimap_create(&m, &cfg, 0));
    uint32_t k[6] = {5, 0xffffffffu, 5, 0xfffffffeu, 9, 5}, v[6] = {1, 2, 3, 4, 5, 6};
    uint32_t *dk = tu_to_device(k, sizeof k), *dv = tu_to_device(v, sizeof v);
    size_t *dc = tu_poisoned(6 * 8), *dt = tu_poisoned(8), counts[6], size = 0;
    CHECK(dk && dv && dc && dt);
    CHECK_OK(gcol_multimap_insert(m, dk, dv, 6, dt, 0));
    CHECK(read_size_t(dt) == 4);
    CHECK_STATUS(gcol_multimap_size(m, &size, 0), GCOL_ERROR_RESERVED_KEY);
    CHECK(size == 4);
    CHECK_STATUS(gcol_multimap_status(m, 0), GCOL_SUCCESS); /* cleared by size */
    CHECK_OK(gcol_multimap_count(m, dk, 6, dc, dt, 0));
    CHECK(read_size_t(dt) == 3 * 3 + 1);
    CHECK(!tu_to_host(counts, dc, sizeof counts));
    CHECK(counts[0] == 3 && counts[1] == 0 && counts[3] == 0 && counts[4] == 1);
    CHECK_STATUS(gcol_multimap_status(m, 0), GCOL_ERROR_RESERVED_KEY);
    gcol_multimap_destroy(m);
    tu_free(dk), tu_free(dv), tu_free(dc), tu_free(dt);
  }
  return TEST_PASS;
}

/* Every device allocation goes through the config's allocator; one that
 * gives nothing (at any of the create's allocations) makes create report
 * GCOL_ERROR_OUT_OF_MEMORY with everything it had taken given back. */
typedef struct { int allocs, frees, fail_at; size_t live; } acct_t;
static void *acct_alloc(void *ctx, size_t bytes, cudaStream_t s) {
  acct_t *a = ctx;
  void *p = NULL;
  if (a->allocs + 1 == a->fail_at || cudaMallocAsync(&p, bytes, s) != cudaSuccess) return NULL;
  a->allocs++, a->live += bytes;
  return p;
}
static void acct_free(void *ctx, void *p, size_t bytes, cudaStream_t s) {
  acct_t *a = ctx;
  a->frees++, a->live -= bytes;
  cudaFreeAsync(p, s);
}

TEST(multimap_gpu_user_allocator) {
  REQUIRE_GPU();
  const int want_allocs[3] = {2, 5, 4}; /* state + table; + links, heads (+ locks) */
  for (int e = 0; e < 3; ++e) {
    acct_t a = {0, 0, 0, 0};
    gcol_multimap_config_t cfg = gcol_multimap_config_default(GCOL_I64, GCOL_I64, engines[e]);
    cfg.map.allocator.alloc = acct_alloc, cfg.map.allocator.free = acct_free, cfg.map.allocator.ctx = &a;
    gcol_multimap_t *m = NULL;
    CHECK_OK(gcol_multimap_create(&m, &cfg, 0));
    CHECK(a.allocs == want_allocs[e] && a.live > 0);
    uint64_t k[4] = {1, 1, 2, 1};
    uint64_t *dk = tu_to_device(k, sizeof k);
    CHECK_OK(gcol_multimap_insert(m, dk, dk, 4, NULL, 0));
    size_t size = 0;
    CHECK_OK(gcol_multimap_size(m, &size, 0));
    CHECK(size == 4);
    gcol_multimap_destroy(m);
    CHECK(a.frees == a.allocs && a.live == 0);
    tu_free(dk);
    for (int f = 1; f <= want_allocs[e]; ++f) {
      acct_t b = {0, 0, f, 0};
      cfg.map.allocator.ctx = &b;
      m = (gcol_multimap_t *)&b;
      CHECK_STATUS(gcol_multimap_create(&m, &cfg, 0), GCOL_ERROR_OUT_OF_MEMORY);
      CHECK(m == NULL && b.allocs == f - 1 && b.frees == b.allocs && b.live == 0);
    }
  }
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  return TEST_PASS;
}

/* Argument checks that need a live multimap. */
TEST(multimap_gpu_retrieve_arguments) {
  REQUIRE_GPU();
  gcol_multimap_config_t cfg = gcol_multimap_config_default(GCOL_I64, GCOL_I64, GCOL_MULTIMAP_OPEN);
  gcol_multimap_t *m = NULL;
  CHECK_OK(gcol_multimap_create(&m, &cfg, 0));
  size_t tb = 0, *tmp = tu_poisoned(4096), *dt = tu_poisoned(8);
  CHECK_OK(gcol_multimap_retrieve(NULL, &tb, m, NULL, 0, NULL, NULL, NULL, 0, NULL, 0)); /* size only */
  CHECK(tb >= 1 && tb <= 4096);
  size_t small = tb - 1;
  CHECK_STATUS(gcol_multimap_retrieve(tmp, &small, m, dt, 1, NULL, dt, dt, 1, dt, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_retrieve(tmp, &tb, m, NULL, 1, NULL, dt, dt, 1, dt, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_retrieve(tmp, &tb, m, dt, 1, NULL, NULL, dt, 1, dt, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_retrieve(tmp, &tb, m, dt, 1, NULL, dt, NULL, 1, dt, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_retrieve(tmp, &tb, m, dt, 1, NULL, dt, dt, 1, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_retrieve((char *)tmp + 4, &tb, m, dt, 1, NULL, dt, dt, 1, dt, 0),
               GCOL_ERROR_INVALID_ARGUMENT); /* misaligned temp */
  CHECK_STATUS(gcol_multimap_insert(m, NULL, dt, 1, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_count(m, NULL, 1, NULL, dt, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_OK(gcol_multimap_retrieve(tmp, &tb, m, NULL, 0, NULL, NULL, NULL, 0, dt, 0)); /* n = 0: total 0 */
  CHECK(read_size_t(dt) == 0);
  gcol_multimap_destroy(m);
  tu_free(tmp), tu_free(dt);
  return TEST_PASS;
}
