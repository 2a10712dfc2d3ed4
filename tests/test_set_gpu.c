/* GPU tests of the set against a CPU model: random batches over a key
 * universe (duplicates within batches, misses, erase / reinsert cycles, the
 * cuco #606 pattern) for every key type, fixed and growable, on several
 * streams, keys as they come and in region order; a fixed set that fills
 * up; out-of-memory during growth; region order by the policy's choice and
 * without scratch; sentinel keys; bad pointers. The model is a present-flag per key of the universe
 * (keys are tu_key(offset, i), inverted by tu_key_index). */
#include <string.h>
#include "harness.h"
#include "test_util.h"
#include "map/map_internal.h"

static const gcol_type_t key_types[4] = {GCOL_U32, GCOL_I32, GCOL_U64, GCOL_I64};

/* ---- an allocator that fails on demand ---------------------------------- */
typedef struct {
  unsigned calls, fail_from; /* fail every call from the fail_from-th on (0: never) */
  size_t in_use;
} fail_alloc_t;
static void *fail_alloc(void *ctx, size_t bytes, cudaStream_t s) {
  fail_alloc_t *a = ctx;
  void *p = NULL;
  if (a->fail_from && ++a->calls >= a->fail_from) return NULL;
  if (cudaMallocAsync(&p, bytes, s) != cudaSuccess) {
    (void)cudaGetLastError();
    return NULL;
  }
  a->in_use += bytes;
  return p;
}
static void fail_free(void *ctx, void *p, size_t bytes, cudaStream_t s) {
  fail_alloc_t *a = ctx;
  a->in_use -= bytes;
  cudaFreeAsync(p, s);
}

/* ---- the model ------------------------------------------------------------ */
typedef struct {
  size_t kb, universe;
  uint64_t offset;
  uint8_t *present; /* per universe index */
} model_t;

static uint64_t model_key(const model_t *md, size_t i) { return tu_key(md->offset, i, md->kb); }
static int is_sentinel(uint64_t k, size_t kb) {
  uint64_t ones = kb == 4 ? 0xffffffffULL : ~0ULL;
  return k == ones || k == ones - 1;
}
/* A universe index whose key is no sentinel. */
static size_t pick(const model_t *md, tu_rng_t *r) {
  for (;;) {
    size_t i = tu_next(r) % md->universe;
    if (!is_sentinel(model_key(md, i), md->kb)) return i;
  }
}
static size_t model_size(const model_t *md) {
  size_t n = 0;
  for (size_t i = 0; i < md->universe; ++i) n += md->present[i];
  return n;
}

/* retrieve_all equals the model: every key once, and only present ones. */
static test_result_t check_all(gcol_set_t *s, const model_t *md, cudaStream_t st) {
  size_t n = 0, got = 0;
  CHECK_OK(gcol_set_size(s, &n, st));
  CHECK(n == model_size(md));
  void *d = tu_poisoned((n + 1) * md->kb), *h = malloc((n + 1) * md->kb);
  uint8_t *seen = calloc(md->universe, 1);
  CHECK(d && h && seen);
  CHECK_OK(gcol_set_retrieve_all(s, d, &got, st));
  CHECK(got == n);
  CHECK(!tu_to_host(h, d, (n + 1) * md->kb));
  for (size_t j = 0; j < n; ++j) {
    uint64_t i = tu_key_index(md->offset, tu_get(h, j, md->kb), md->kb);
    CHECK(i < md->universe && md->present[i] && !seen[i]);
    seen[i] = 1;
  }
  free(seen), free(h), tu_free(d);
  return TEST_PASS;
}

/* One random run: rounds of insert, insert_and_contains, erase, contains on
 * rotating streams, checked against the model each step. mode 1: on the
 * tile kernels (buckets of 4 chunks) instead of the policy's thread per
 * key; mode 2: inserts and erases in region order (8 regions). */
static test_result_t random_run(gcol_type_t kt, int growable, uint64_t seed, int mode) {
  const size_t kb = gcol_type_size(kt);
  size_t universe = test_max_n() < 20000 ? test_max_n() : 20000, batch = universe / 4;
  if (batch < 8) return TEST_SKIP;
  model_t md = {kb, universe, seed * 7919, calloc(universe, 1)};
  tu_rng_t r = {seed | 1};
  gcol_set_config_t c = gcol_set_config_default(kt);
  c.capacity = growable ? 64 : universe + universe / 4; /* fixed: never full */
  c.growable = growable;
  c.seed = seed;
  cudaStream_t st[3];
  for (int i = 0; i < 3; ++i) CHECK_CUDA(cudaStreamCreate(&st[i]));
  gcol_set_t *s = NULL;
  CHECK_OK(gcol_set_create(&s, &c, st[0]));
  if (mode == 1) CHECK_OK(gcol_set_set_policy_for_testing(s, 4, 0));
  if (mode == 2) CHECK_OK(gcol_set_set_region_for_testing(s, 3));
  size_t *idx = malloc(batch * sizeof *idx);
  void *hk = malloc(batch * kb), *dk = tu_poisoned(batch * kb);
  uint8_t *hf = malloc(batch), *df = tu_poisoned(batch), *mark = calloc(universe, 1);
  size_t *dc = tu_poisoned(8);
  CHECK(idx && hk && dk && hf && df && mark && dc && md.present);
  for (int round = 0; round < 12; ++round) {
    cudaStream_t s0 = st[round % 3];
    for (int op = 0; op < 4; ++op) {
      /* a batch with duplicates: indices from a quarter of the universe at times */
      size_t span = (round + op) % 3 == 0 ? universe / 4 : universe;
      for (size_t j = 0; j < batch; ++j) {
        idx[j] = pick(&md, &r) % span;
        if (is_sentinel(model_key(&md, idx[j]), kb)) idx[j] = pick(&md, &r);
        tu_put(hk, j, kb, model_key(&md, idx[j]));
      }
      CHECK_CUDA(cudaMemcpy(dk, hk, batch * kb, cudaMemcpyHostToDevice));
      size_t want = 0;
      if (op == 0) { /* insert with a count */
        for (size_t j = 0; j < batch; ++j)
          if (!md.present[idx[j]]) md.present[idx[j]] = 1, ++want;
        CHECK_OK(gcol_set_insert(s, dk, batch, dc, s0));
        CHECK(tu_read_size(dc) == want);
      } else if (op == 1) { /* insert_and_contains: one flag per new key */
        CHECK_OK(gcol_set_insert_and_contains(s, dk, batch, df, s0));
        CHECK(!tu_to_host(hf, df, batch));
        memset(mark, 0, universe);
        for (size_t j = 0; j < batch; ++j) {
          CHECK(hf[j] <= 1);
          if (hf[j]) {
            CHECK(!md.present[idx[j]] && !mark[idx[j]]);
            mark[idx[j]] = 1;
          }
        }
        for (size_t j = 0; j < batch; ++j) {
          CHECK(md.present[idx[j]] || mark[idx[j]]); /* every new key got its flag */
          md.present[idx[j]] = 1;
        }
      } else if (op == 2) { /* erase a batch (half of it absent at times) */
        for (size_t j = 0; j < batch; ++j)
          if (md.present[idx[j]]) md.present[idx[j]] = 0, ++want;
        CHECK_OK(gcol_set_erase(s, dk, batch, dc, s0));
        CHECK(tu_read_size(dc) == want);
      } else { /* contains */
        CHECK_OK(gcol_set_contains(s, dk, batch, df, s0));
        CHECK(!tu_to_host(hf, df, batch));
        for (size_t j = 0; j < batch; ++j) CHECK(hf[j] == md.present[idx[j]]);
      }
    }
    if (round % 4 == 3) RUN(check_all(s, &md, s0));
  }
  RUN(check_all(s, &md, st[1]));
  CHECK_OK(gcol_set_status(s, st[2]));
  /* 12 inserts with a count and 12 erases went in region order, the rest not */
  CHECK(gcol_set_region_calls_for_testing(s) == (mode == 2 ? 24u : 0u));
  if (!growable) { /* a fixed set never grows */
    size_t cap = 0;
    CHECK_OK(gcol_set_capacity(s, &cap));
    CHECK(cap >= c.capacity && cap < c.capacity + c.capacity / 16 + 64); /* a prime bucket count */
  }
  CHECK_OK(gcol_set_clear(s, st[0]));
  memset(md.present, 0, universe);
  RUN(check_all(s, &md, st[0]));
  gcol_set_destroy(s);
  for (int i = 0; i < 3; ++i) cudaStreamDestroy(st[i]);
  free(idx), free(hk), free(hf), free(mark), free(md.present);
  tu_free(dk), tu_free(df), tu_free(dc);
  return TEST_PASS;
}

TEST(set_random_against_model) {
  REQUIRE_GPU();
  for (int t = 0; t < 4; ++t)
    for (int g = 0; g < 2; ++g)
      for (int mode = 0; mode < 3; ++mode) {
        test_result_t res = random_run(key_types[t], g, test_seed() + 16 * t + g, mode);
        if (res != TEST_PASS) {
          fprintf(stderr, "    key type %d growable %d mode %d\n", (int)key_types[t], g, mode);
          return res;
        }
      }
  return TEST_PASS;
}

/* cuco #606: insert, erase, insert again, with every key twice per batch,
 * many times over one table full of tombstones: never a key twice. Keys as
 * they come, then in region order (16 regions). */
TEST(set_erase_reinsert_cycles) {
  REQUIRE_GPU();
  for (int t = 0; t < 8; ++t) {
    size_t kb = gcol_type_size(key_types[t % 4]), n = 3000;
    if (2 * n > test_max_n()) return TEST_SKIP;
    gcol_set_config_t c = gcol_set_config_default(key_types[t % 4]);
    c.capacity = 2 * n; /* fixed: tombstones are all reused, never purged */
    gcol_set_t *s = NULL;
    CHECK_OK(gcol_set_create(&s, &c, 0));
    if (t >= 4) CHECK_OK(gcol_set_set_region_for_testing(s, 4));
    void *h = malloc(2 * n * kb), *d = tu_poisoned(2 * n * kb);
    size_t *dc = tu_poisoned(8), span = 0;
    CHECK(h && d && dc);
    tu_unique_keys(h, kb, n, 99 + t, &span);
    memcpy((char *)h + n * kb, h, n * kb); /* each key twice */
    CHECK_CUDA(cudaMemcpy(d, h, 2 * n * kb, cudaMemcpyHostToDevice));
    for (int cycle = 0; cycle < 20; ++cycle) {
      CHECK_OK(gcol_set_insert(s, d, 2 * n, dc, 0));
      CHECK(tu_read_size(dc) == n);
      if (cycle % 5 == 4) {
        model_t md = {kb, span, 99 + t, calloc(span, 1)};
        for (size_t j = 0; j < n; ++j) md.present[tu_key_index(md.offset, tu_get(h, j, kb), kb)] = 1;
        RUN(check_all(s, &md, 0));
        free(md.present);
      }
      CHECK_OK(gcol_set_erase(s, d, 2 * n, dc, 0));
      CHECK(tu_read_size(dc) == n);
    }
    size_t size = 1;
    CHECK_OK(gcol_set_size(s, &size, 0));
    CHECK(size == 0);
    gcol_set_destroy(s);
    free(h), tu_free(d), tu_free(dc);
  }
  return TEST_PASS;
}

/* A fixed set fed more keys than slots: returns, latches FULL, keeps every
 * key it took (each once), and answers contains for them. */
TEST(set_full_fixed) {
  REQUIRE_GPU();
  for (int t = 0; t < 4; ++t) {
    size_t kb = gcol_type_size(key_types[t]), n = 5000, cap = 0, span = 0, size = 0, got = 0;
    gcol_set_config_t c = gcol_set_config_default(key_types[t]);
    c.capacity = 1000;
    gcol_set_t *s = NULL;
    CHECK_OK(gcol_set_create(&s, &c, 0));
    CHECK_OK(gcol_set_capacity(s, &cap));
    void *h = malloc(n * kb), *d = tu_poisoned(n * kb), *out = tu_poisoned(cap * kb), *ho = malloc(cap * kb);
    size_t *dc = tu_poisoned(8);
    uint8_t *hf = malloc(n), *df = tu_poisoned(n);
    CHECK(h && d && out && ho && dc && hf && df);
    tu_unique_keys(h, kb, n, 5 + t, &span);
    CHECK_CUDA(cudaMemcpy(d, h, n * kb, cudaMemcpyHostToDevice));
    CHECK_OK(gcol_set_insert(s, d, n, dc, 0));
    CHECK(tu_read_size(dc) == cap); /* every slot taken */
    CHECK_STATUS(gcol_set_status(s, 0), GCOL_ERROR_FULL);
    CHECK_OK(gcol_set_status(s, 0)); /* cleared once returned */
    CHECK_OK(gcol_set_size(s, &size, 0));
    CHECK(size == cap);
    CHECK_OK(gcol_set_retrieve_all(s, out, &got, 0));
    CHECK(got == cap);
    CHECK_OK(gcol_set_contains(s, d, n, df, 0));
    CHECK(!tu_to_host(hf, df, n));
    size_t found = 0;
    for (size_t j = 0; j < n; ++j) found += hf[j];
    CHECK(found == cap);
    /* erase one, insert it again: fits */
    CHECK_OK(gcol_set_erase(s, out, 1, dc, 0));
    CHECK(tu_read_size(dc) == 1);
    CHECK_OK(gcol_set_insert(s, out, 1, dc, 0));
    CHECK(tu_read_size(dc) == 1);
    CHECK_OK(gcol_set_status(s, 0));
    CHECK_STATUS(gcol_set_reserve(s, cap + 1, 0), GCOL_ERROR_FULL);
    CHECK_OK(gcol_set_reserve(s, cap, 0));
    gcol_set_destroy(s);
    free(h), free(ho), free(hf), tu_free(d), tu_free(out), tu_free(dc), tu_free(df);
  }
  return TEST_PASS;
}

/* Out of memory during growth leaves the set as it was; the next call with
 * memory grows it. Every allocation of create failing leaks nothing. */
TEST(set_growth_out_of_memory) {
  REQUIRE_GPU();
  for (int t = 0; t < 4; ++t) {
    size_t kb = gcol_type_size(key_types[t]), n = 4000, span = 0, size = 0;
    fail_alloc_t a = {0, 0, 0};
    gcol_set_config_t c = gcol_set_config_default(key_types[t]);
    c.capacity = 100;
    c.growable = 1;
    c.allocator.alloc = fail_alloc, c.allocator.free = fail_free, c.allocator.ctx = &a;
    gcol_set_t *s = NULL;
    CHECK_OK(gcol_set_create(&s, &c, 0));
    void *h = malloc(n * kb), *d = tu_poisoned(n * kb);
    size_t *dc = tu_poisoned(8);
    CHECK(h && d && dc);
    tu_unique_keys(h, kb, n, 1234 + t, &span);
    CHECK_CUDA(cudaMemcpy(d, h, n * kb, cudaMemcpyHostToDevice));
    CHECK_OK(gcol_set_insert(s, d, 50, dc, 0));
    CHECK(tu_read_size(dc) == 50);
    size_t cap0 = 0, cap1 = 0;
    CHECK_OK(gcol_set_capacity(s, &cap0));
    a.calls = 0, a.fail_from = 1; /* the growth's allocation fails */
    CHECK_STATUS(gcol_set_insert(s, (char *)d + 50 * kb, n - 50, dc, 0), GCOL_ERROR_OUT_OF_MEMORY);
    CHECK(gcol_last_error_message()[0] != 0);
    CHECK_OK(gcol_set_capacity(s, &cap1));
    CHECK(cap1 == cap0);
    model_t md = {kb, span, 1234 + t, calloc(span, 1)};
    for (size_t j = 0; j < 50; ++j) md.present[tu_key_index(md.offset, tu_get(h, j, kb), kb)] = 1;
    RUN(check_all(s, &md, 0));
    a.fail_from = 0;
    CHECK_OK(gcol_set_insert(s, (char *)d + 50 * kb, n - 50, dc, 0));
    CHECK(tu_read_size(dc) == n - 50);
    CHECK_OK(gcol_set_size(s, &size, 0));
    CHECK(size == n);
    gcol_set_destroy(s);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(a.in_use == 0);
    /* create: every allocation failing in turn */
    for (unsigned f = 1; f <= 2; ++f) {
      fail_alloc_t b = {0, f, 0};
      c.allocator.ctx = &b;
      gcol_set_t *z = (gcol_set_t *)&b;
      CHECK_STATUS(gcol_set_create(&z, &c, 0), GCOL_ERROR_OUT_OF_MEMORY);
      CHECK(z == NULL);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK(b.in_use == 0);
    }
    free(md.present), free(h), tu_free(d), tu_free(dc);
  }
  return TEST_PASS;
}

/* Sentinel keys are skipped and latch RESERVED_KEY; the rest is inserted.
 * Keys as they come, then in region order. */
TEST(set_sentinel_keys) {
  REQUIRE_GPU();
  for (int t = 0; t < 8; ++t) {
    size_t kb = gcol_type_size(key_types[t % 4]), size = 0;
    gcol_set_config_t c = gcol_set_config_default(key_types[t % 4]);
    uint64_t h[4] = {1, c.empty_key, 2, c.erased_key};
    void *hk = malloc(4 * kb), *d = NULL;
    for (int i = 0; i < 4; ++i) tu_put(hk, i, kb, h[i]);
    d = tu_to_device(hk, 4 * kb);
    uint8_t *df = tu_poisoned(4), hf[4];
    gcol_set_t *s = NULL;
    CHECK_OK(gcol_set_create(&s, &c, 0));
    if (t >= 4) CHECK_OK(gcol_set_set_region_for_testing(s, 2));
    CHECK_OK(gcol_set_insert(s, d, 4, NULL, 0));
    CHECK(gcol_set_region_calls_for_testing(s) == (t >= 4 ? 1u : 0u));
    CHECK_STATUS(gcol_set_size(s, &size, 0), GCOL_ERROR_RESERVED_KEY);
    CHECK(size == 2);
    CHECK_OK(gcol_set_contains(s, d, 4, df, 0));
    CHECK(!tu_to_host(hf, df, 4));
    CHECK(hf[0] == 1 && hf[1] == 0 && hf[2] == 1 && hf[3] == 0);
    CHECK_STATUS(gcol_set_status(s, 0), GCOL_ERROR_RESERVED_KEY); /* contains latched it again */
    CHECK_OK(gcol_set_status(s, 0));
    gcol_set_destroy(s);
    free(hk), tu_free(d), tu_free(df);
  }
  return TEST_PASS;
}

/* NULL, misaligned and host pointers: INVALID_ARGUMENT with a message, and
 * the next good call works. */
/* The policy's own choice of region order (map_policy.h), on tables larger
 * than the L2: inserts into sets of 4-byte keys and erases of large
 * batches go in region order (the results checked), inserts of 8-byte keys
 * and small batches as they are; a failing scratch allocation falls back. */
TEST(set_region_order_by_itself) {
  REQUIRE_GPU();
  /* u32: 256 MB of slots; n at least 2^22 and an eighth of the slots */
  const size_t n = ((size_t)3 << 22), slots = (size_t)1 << 26;
  if (slots > test_max_n()) return TEST_SKIP;
  for (int t = 0; t < 2; ++t) {
    gcol_type_t kt = t ? GCOL_U64 : GCOL_U32;
    size_t kb = gcol_type_size(kt), span = 0, size = 0;
    gcol_set_config_t c = gcol_set_config_default(kt);
    c.capacity = slots;
    gcol_set_t *s = NULL;
    CHECK_OK(gcol_set_create(&s, &c, 0));
    CHECK_OK(gcol_set_watch_for_testing(s)); /* count its region-order calls; it decides alone */
    void *h = malloc(n * kb), *d = tu_poisoned(n * kb);
    uint8_t *df = tu_poisoned(n), *hf = malloc(n);
    size_t *dc = tu_poisoned(8);
    CHECK(h && d && df && hf && dc);
    tu_unique_keys(h, kb, n, 4242 + t, &span);
    CHECK_CUDA(cudaMemcpy(d, h, n * kb, cudaMemcpyHostToDevice));
    CHECK_OK(gcol_set_insert(s, d, n, dc, 0));
    CHECK(tu_read_size(dc) == n);
    CHECK(gcol_set_region_calls_for_testing(s) == (t ? 0u : 1u)); /* 4-byte keys only */
    CHECK_OK(gcol_set_contains(s, d, n, df, 0));
    CHECK(!tu_to_host(hf, df, n));
    for (size_t i = 0; i < n; ++i) CHECK(hf[i] == 1);
    CHECK_OK(gcol_set_erase(s, d, n / 16, dc, 0)); /* too small a batch: as it is */
    CHECK(tu_read_size(dc) == n / 16);
    CHECK(gcol_set_region_calls_for_testing(s) == (t ? 0u : 1u));
    CHECK_OK(gcol_set_erase(s, d, n, dc, 0)); /* the rest, in region order */
    CHECK(tu_read_size(dc) == n - n / 16);
    CHECK(gcol_set_region_calls_for_testing(s) == (t ? 1u : 2u));
    CHECK_OK(gcol_set_size(s, &size, 0));
    CHECK(size == 0);
    gcol_set_destroy(s);
    free(h), free(hf), tu_free(d), tu_free(df), tu_free(dc);
  }
  return TEST_PASS;
}

/* Sets larger than the L2 take the thread-per-key insert on a share of the
 * grid (solo_insert_div, map_policy.h): u32 and u64 sets of 2^25 slots
 * (128 and 256 MB), every key four times in a shuffled batch; the counts,
 * the contents, a second insert of the batch, and erase / insert again (no
 * key held twice). */
TEST(set_insert_into_dram_with_repeats) {
  REQUIRE_GPU();
  const size_t d = (size_t)1 << 23, n = 4 * d, slots = (size_t)1 << 25;
  if (slots > test_max_n()) return TEST_SKIP;
  for (int t = 0; t < 2; ++t) {
    gcol_type_t kt = t ? GCOL_U64 : GCOL_U32;
    size_t kb = gcol_type_size(kt), span = 0, size = 0;
    char *h = malloc(n * kb);
    uint8_t *hf = malloc(d);
    CHECK(h && hf);
    tu_unique_keys(h, kb, d, 777 + t, &span);
    for (size_t i = d; i < n; ++i) memcpy(h + i * kb, h + (i % d) * kb, kb);
    tu_rng_t r = {test_seed() + t};
    for (size_t i = n - 1; i > 0; --i) { /* shuffle the whole batch */
      size_t j = tu_next(&r) % (i + 1);
      char tmp[8];
      memcpy(tmp, h + i * kb, kb), memcpy(h + i * kb, h + j * kb, kb), memcpy(h + j * kb, tmp, kb);
    }
    void *dk = tu_poisoned(n * kb), *dq = tu_poisoned(d * kb);
    uint8_t *df = tu_poisoned(d);
    size_t *dc = tu_poisoned(8);
    CHECK(dk && dq && df && dc);
    CHECK_CUDA(cudaMemcpy(dk, h, n * kb, cudaMemcpyHostToDevice));
    tu_unique_keys(h, kb, d, 777 + t, &span); /* the distinct keys, for the queries */
    CHECK_CUDA(cudaMemcpy(dq, h, d * kb, cudaMemcpyHostToDevice));
    gcol_set_config_t c = gcol_set_config_default(kt);
    c.capacity = slots;
    gcol_set_t *s = NULL;
    CHECK_OK(gcol_set_create(&s, &c, 0));
    CHECK_OK(gcol_set_insert(s, dk, n, dc, 0));
    CHECK(tu_read_size(dc) == d);
    CHECK_OK(gcol_set_size(s, &size, 0));
    CHECK(size == d);
    CHECK_OK(gcol_set_contains(s, dq, d, df, 0));
    CHECK(!tu_to_host(hf, df, d));
    for (size_t i = 0; i < d; ++i) CHECK(hf[i] == 1);
    CHECK_OK(gcol_set_insert(s, dk, n, dc, 0)); /* all present */
    CHECK(tu_read_size(dc) == 0);
    CHECK_OK(gcol_set_erase(s, dq, d / 2, dc, 0));
    CHECK(tu_read_size(dc) == d / 2);
    CHECK_OK(gcol_set_insert(s, dk, n, dc, 0)); /* the erased half comes back once */
    CHECK(tu_read_size(dc) == d / 2);
    CHECK_OK(gcol_set_size(s, &size, 0));
    CHECK(size == d);
    CHECK_OK(gcol_set_status(s, 0));
    gcol_set_destroy(s);
    free(h), free(hf), tu_free(dk), tu_free(dq), tu_free(df), tu_free(dc);
  }
  return TEST_PASS;
}

/* A set whose allocator refuses the region order's scratch still inserts
 * and erases (keys as they are), and the refusal leaves no message. */
TEST(set_region_order_without_scratch) {
  REQUIRE_GPU();
  const size_t n = 4000;
  if (n > test_max_n()) return TEST_SKIP;
  for (int t = 0; t < 4; ++t) {
    size_t kb = gcol_type_size(key_types[t]), span = 0, size = 0;
    gcol_set_config_t c = gcol_set_config_default(key_types[t]);
    c.capacity = 2 * n;
    fail_alloc_t ctx = {0, 0, 0};
    c.allocator.alloc = fail_alloc, c.allocator.free = fail_free, c.allocator.ctx = &ctx;
    gcol_set_t *s = NULL;
    CHECK_OK(gcol_set_create(&s, &c, 0));
    CHECK_OK(gcol_set_set_region_for_testing(s, 3));
    void *h = malloc(n * kb), *d = tu_poisoned(n * kb);
    size_t *dc = tu_poisoned(8);
    CHECK(h && d && dc);
    tu_unique_keys(h, kb, n, 77 + t, &span);
    CHECK_CUDA(cudaMemcpy(d, h, n * kb, cudaMemcpyHostToDevice));
    /* a message from an earlier failure, which calls that succeed leave alone */
    CHECK_STATUS(gcol_set_insert(NULL, d, n, dc, 0), GCOL_ERROR_INVALID_ARGUMENT);
    char before[512];
    snprintf(before, sizeof before, "%s", gcol_last_error_message());
    CHECK(before[0] != 0);
    ctx.fail_from = ctx.calls + 1; /* every allocation from here on fails */
    CHECK_OK(gcol_set_insert(s, d, n, dc, 0));
    CHECK(strcmp(gcol_last_error_message(), before) == 0); /* the scratch's failure left no trace */
    CHECK(tu_read_size(dc) == n);
    CHECK_OK(gcol_set_erase(s, d, n / 2, dc, 0));
    CHECK(tu_read_size(dc) == n / 2);
    CHECK(gcol_set_region_calls_for_testing(s) == 0);
    CHECK_OK(gcol_set_size(s, &size, 0));
    CHECK(size == n - n / 2);
    ctx.fail_from = 0;
    CHECK_OK(gcol_set_erase(s, d, n, dc, 0)); /* with scratch: in region order */
    CHECK(tu_read_size(dc) == n - n / 2);
    CHECK(gcol_set_region_calls_for_testing(s) == 1);
    gcol_set_destroy(s);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(ctx.in_use == 0);
    free(h), tu_free(d), tu_free(dc);
  }
  return TEST_PASS;
}

TEST(set_bad_pointers) {
  REQUIRE_GPU();
  gcol_set_config_t c = gcol_set_config_default(GCOL_U64);
  gcol_set_t *s = NULL;
  CHECK_OK(gcol_set_create(&s, &c, 0));
  uint64_t host[4] = {1, 2, 3, 4};
  uint64_t *d = tu_to_device(host, sizeof host);
  uint8_t *df = tu_poisoned(4);
  size_t n = 0;
  CHECK(d && df);
  CHECK_STATUS(gcol_set_insert(s, NULL, 4, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "gcol_set_insert") && strstr(gcol_last_error_message(), "d_keys"));
  CHECK_STATUS(gcol_set_insert(s, (char *)d + 4, 2, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "aligned") != NULL);
  CHECK_STATUS(gcol_set_insert(s, host, 4, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_set_contains(s, d, 4, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_set_contains(s, d, 4, (uint8_t *)host, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_set_erase(s, d, 4, (size_t *)((char *)df + 1), 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_set_retrieve_all(s, NULL, &n, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_set_retrieve_all(s, d, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_set_insert_and_contains(s, d, 4, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_set_size(NULL, &n, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_OK(gcol_set_insert_and_contains(s, d, 4, df, 0));
  CHECK_OK(gcol_set_size(s, &n, 0));
  CHECK(n == 4);
  /* n == 0 with NULL pointers is a no-op */
  CHECK_OK(gcol_set_insert(s, NULL, 0, NULL, 0));
  CHECK_OK(gcol_set_contains(s, NULL, 0, NULL, 0));
  gcol_set_destroy(s);
  tu_free(d), tu_free(df);
  return TEST_PASS;
}

/* The device API (gcol/device/set.cuh): per thread, per tile and bulk forms
 * against the model, gcol_set_size exact afterwards. */
#include "set_device_kernels.h"
TEST(set_device_views_against_model) {
  REQUIRE_GPU();
  const int tiles[6] = {0, 1, 2, 4, 8, 32};
  for (int wide = 0; wide < 2; ++wide)
    for (int ti = 0; ti < 6; ++ti) {
      size_t kb = wide ? 8 : 4, n = 4000, span = 0, size = 0;
      gcol_set_config_t c = gcol_set_config_default(wide ? GCOL_U64 : GCOL_U32);
      c.capacity = 4 * n;
      gcol_set_t *s = NULL;
      CHECK_OK(gcol_set_create(&s, &c, 0));
      gcol_set_mutable_view_t mv;
      CHECK_OK(gcol_set_device_mutable_view(s, &mv));
      void *h = malloc(2 * n * kb), *d = NULL;
      tu_unique_keys(h, kb, 2 * n, 500 + ti, &span); /* first n inserted, last n absent */
      d = tu_to_device(h, 2 * n * kb);
      uint8_t *df = tu_poisoned(2 * n), *hf = malloc(2 * n);
      unsigned long long *dc = tu_poisoned(8), hc = 0;
      CHECK(d && df && hf && dc);
      CHECK_CUDA(cudaMemset(dc, 0, 8));
      int t = tiles[ti];
      /* insert half per key, the other half (and the first again) in bulk */
      CHECK_CUDA(dev_set_run(&mv, wide, SET_DEV_INSERT, t, d, n / 2, df, dc));
      CHECK(!tu_to_host(hf, df, n / 2));
      for (size_t j = 0; j < n / 2; ++j) CHECK(hf[j] == 1);
      CHECK_CUDA(dev_set_run(&mv, wide, t % 2 ? SET_DEV_INSERT_EACH : SET_DEV_INSERT_RANGE, t ? t : 1, d, n, df, dc));
      if (t % 2) {
        CHECK(!tu_to_host(hf, df, n));
        for (size_t j = 0; j < n; ++j) CHECK(hf[j] == (j >= n / 2));
      } else {
        CHECK_CUDA(cudaMemcpy(&hc, dc, 8, cudaMemcpyDeviceToHost));
        CHECK(hc == n - n / 2);
      }
      CHECK_OK(gcol_set_size(s, &size, 0));
      CHECK(size == n);
      CHECK_CUDA(dev_set_run(&mv, wide, t % 2 ? SET_DEV_CONTAINS : SET_DEV_CONTAINS_EACH, t, d, 2 * n, df, dc));
      CHECK(!tu_to_host(hf, df, 2 * n));
      for (size_t j = 0; j < 2 * n; ++j) CHECK(hf[j] == (j < n));
      CHECK_CUDA(dev_set_run(&mv, wide, SET_DEV_ERASE, t, d, n / 4, df, dc));
      CHECK(!tu_to_host(hf, df, n / 4));
      for (size_t j = 0; j < n / 4; ++j) CHECK(hf[j] == 1);
      CHECK_OK(gcol_set_size(s, &size, 0));
      CHECK(size == n - n / 4);
      CHECK_OK(gcol_set_status(s, 0));
      gcol_set_destroy(s);
      free(h), free(hf), tu_free(d), tu_free(df), tu_free(dc);
    }
  return TEST_PASS;
}
