/* GPU tests of the multiset against a CPU model (copies per key of a
 * universe): random batches with duplicates for every key type, count per
 * query and total, contains, retrieve into exact and too small outputs,
 * retrieve_all, a set that fills up, sentinels, bad pointers. */
#include <string.h>
#include "harness.h"
#include "test_util.h"
#include "core/test_hooks.h"

static const gcol_type_t key_types[4] = {GCOL_U32, GCOL_I32, GCOL_U64, GCOL_I64};

static int is_sentinel(uint64_t k, size_t kb) {
  uint64_t ones = kb == 4 ? 0xffffffffULL : ~0ULL;
  return k == ones || k == ones - 1;
}

typedef struct {
  size_t kb, universe;
  uint64_t offset;
  size_t *copies;
} ms_model_t;

static size_t universe_index(const ms_model_t *md, uint64_t key) {
  return (size_t)tu_key_index(md->offset, key, md->kb);
}

/* retrieve for the queries: total, outputs (key == its query's), and the
 * per-query match counts equal the model's; with room for cap matches. */
static test_result_t check_retrieve(gcol_multiset_t *m, const ms_model_t *md, const void *dq, const void *hq,
                                    size_t nq, size_t total, size_t cap) {
  size_t tb = 0, kb = md->kb;
  CHECK_OK(gcol_multiset_retrieve(NULL, &tb, m, dq, nq, NULL, NULL, cap, NULL, 0));
  void *tmp = tu_poisoned(tb), *dk = tu_poisoned((cap + 1) * kb), *hk = malloc((cap + 1) * kb);
  size_t *dqo = tu_poisoned((cap + 1) * 8), *hqo = malloc((cap + 1) * 8), *dt = tu_poisoned(8);
  size_t *per = calloc(nq, sizeof *per);
  CHECK(tmp && dk && hk && dqo && hqo && dt && per);
  CHECK_OK(gcol_multiset_retrieve(tmp, &tb, m, dq, nq, dk, dqo, cap, dt, 0));
  CHECK(tu_read_size(dt) == total);
  CHECK(!tu_to_host(hk, dk, (cap + 1) * kb) && !tu_to_host(hqo, dqo, (cap + 1) * 8));
  size_t got = cap < total ? cap : total;
  CHECK(hqo[cap] == 0xa5a5a5a5a5a5a5a5ULL); /* nothing past the room */
  for (size_t j = 0; j < got; ++j) {
    CHECK(hqo[j] < nq);
    CHECK(tu_get(hk, j, kb) == tu_get(hq, hqo[j], kb));
    ++per[hqo[j]];
  }
  if (got == total)
    for (size_t q = 0; q < nq; ++q) {
      uint64_t k = tu_get(hq, q, kb);
      size_t i = universe_index(md, k);
      CHECK(per[q] == (i < md->universe ? md->copies[i] : 0));
    }
  free(hk), free(hqo), free(per), tu_free(tmp), tu_free(dk), tu_free(dqo), tu_free(dt);
  return TEST_PASS;
}

/* lanes: per key of the inserts (the mm_insert_lanes hook; 0: the tuning's). */
static test_result_t random_run(gcol_type_t kt, uint64_t seed, int lanes) {
  const size_t kb = gcol_type_size(kt);
  size_t universe = test_max_n() < 4000 ? test_max_n() : 4000, batch = 2 * universe;
  if (universe < 16) return TEST_SKIP;
  ms_model_t md = {kb, universe, seed * 31, calloc(universe, sizeof(size_t))};
  tu_rng_t r = {seed | 1};
  gcol_set_config_t c = gcol_set_config_default(kt);
  c.capacity = 8 * batch; /* four batches at load <= 0.5 */
  c.seed = seed;
  gcol_multiset_t *m = NULL;
  CHECK_OK(gcol_multiset_create(&m, &c, 0));
  gcol_test_hooks.mm_insert_lanes = lanes;
  void *hk = malloc(batch * kb), *dk = tu_poisoned(batch * kb);
  size_t *dc = tu_poisoned(batch * 8), *hc = malloc(batch * 8), *dt = tu_poisoned(8);
  uint8_t *df = tu_poisoned(batch), *hf = malloc(batch);
  CHECK(hk && dk && dc && hc && dt && df && hf && md.copies);
  for (int round = 0; round < 4; ++round) {
    /* skewed copies: low indices far more often */
    for (size_t j = 0; j < batch; ++j) {
      size_t i;
      do {
        uint64_t x = tu_next(&r);
        i = (size_t)(round % 2 ? x % universe : (x % universe) * (x >> 40 & 7) / 8 % universe);
      } while (is_sentinel(tu_key(md.offset, i, kb), kb));
      tu_put(hk, j, kb, tu_key(md.offset, i, kb));
      ++md.copies[i];
    }
    CHECK_CUDA(cudaMemcpy(dk, hk, batch * kb, cudaMemcpyHostToDevice));
    CHECK_OK(gcol_multiset_insert(m, dk, batch, dt, 0));
    CHECK(tu_read_size(dt) == batch);
    /* queries: half from the universe, half misses (another family) */
    size_t total = 0;
    for (size_t j = 0; j < batch; ++j) {
      uint64_t k;
      do {
        size_t i = tu_next(&r) % universe;
        k = j % 2 ? tu_key(md.offset, i, kb) : tu_key(md.offset + universe, i, kb);
      } while (is_sentinel(k, kb));
      tu_put(hk, j, kb, k);
      size_t i = universe_index(&md, k);
      total += i < universe ? md.copies[i] : 0;
    }
    CHECK_CUDA(cudaMemcpy(dk, hk, batch * kb, cudaMemcpyHostToDevice));
    CHECK_OK(gcol_multiset_count(m, dk, batch, dc, dt, 0));
    CHECK(tu_read_size(dt) == total);
    CHECK(!tu_to_host(hc, dc, batch * 8));
    CHECK_OK(gcol_multiset_contains(m, dk, batch, df, 0));
    CHECK(!tu_to_host(hf, df, batch));
    for (size_t j = 0; j < batch; ++j) {
      size_t i = universe_index(&md, tu_get(hk, j, kb));
      size_t want = i < universe ? md.copies[i] : 0;
      CHECK(hc[j] == want);
      CHECK(hf[j] == (want != 0));
    }
    RUN(check_retrieve(m, &md, dk, hk, batch, total, total));
    if (total > 1) RUN(check_retrieve(m, &md, dk, hk, batch, total, total / 2));
  }
  /* retrieve_all: every copy */
  size_t size = 0, got = 0, stored = 0;
  for (size_t i = 0; i < universe; ++i) stored += md.copies[i];
  CHECK_OK(gcol_multiset_size(m, &size, 0));
  CHECK(size == stored);
  void *da = tu_poisoned(stored * kb), *ha = malloc(stored * kb);
  CHECK(da && ha);
  CHECK_OK(gcol_multiset_retrieve_all(m, da, &got, 0));
  CHECK(got == stored);
  CHECK(!tu_to_host(ha, da, stored * kb));
  for (size_t j = 0; j < stored; ++j) {
    size_t i = universe_index(&md, tu_get(ha, j, kb));
    CHECK(i < universe && md.copies[i] > 0);
    --md.copies[i];
  }
  CHECK_OK(gcol_multiset_status(m, 0));
  CHECK_OK(gcol_multiset_clear(m, 0));
  CHECK_OK(gcol_multiset_size(m, &size, 0));
  CHECK(size == 0);
  gcol_multiset_destroy(m);
  free(hk), free(hc), free(hf), free(ha), free(md.copies);
  tu_free(dk), tu_free(dc), tu_free(dt), tu_free(df), tu_free(da);
  return TEST_PASS;
}

TEST(multiset_random_against_model) {
  REQUIRE_GPU();
  const int lanes[3] = {0, 4, 1}; /* the tuning's (2), and the others */
  for (int l = 0; l < 3; ++l)
    for (int t = 0; t < 4; ++t) {
      test_result_t res = random_run(key_types[t], test_seed() + t, lanes[l]);
      gcol_test_hooks.mm_insert_lanes = 0;
      if (res != TEST_PASS) {
        fprintf(stderr, "    key type %d, insert lanes %d\n", (int)key_types[t], lanes[l]);
        return res;
      }
    }
  return TEST_PASS;
}

/* Full, sentinels, growable refused, bad pointers. */
TEST(multiset_full_sentinels_and_bad_input) {
  REQUIRE_GPU();
  for (int t = 0; t < 4; ++t) {
    size_t kb = gcol_type_size(key_types[t]), cap = 0, size = 0, n = 3000;
    gcol_set_config_t c = gcol_set_config_default(key_types[t]);
    c.capacity = 1000;
    gcol_multiset_t *m = NULL;
    c.growable = 1;
    CHECK_STATUS(gcol_multiset_create(&m, &c, 0), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK(m == NULL && strstr(gcol_last_error_message(), "growable"));
    c.growable = 0;
    CHECK_OK(gcol_multiset_create(&m, &c, 0));
    CHECK_OK(gcol_multiset_capacity(m, &cap));
    void *h = malloc(n * kb), *d = NULL;
    for (size_t j = 0; j < n; ++j) tu_put(h, j, kb, j % 7 == 3 ? c.empty_key : 5 + j % 10);
    d = tu_to_device(h, n * kb);
    size_t *dc = tu_poisoned(8);
    CHECK(d && dc);
    CHECK_OK(gcol_multiset_insert(m, d, n, dc, 0));
    CHECK(tu_read_size(dc) == cap); /* every slot taken, the rest skipped */
    CHECK_STATUS(gcol_multiset_status(m, 0), GCOL_ERROR_FULL); /* FULL before RESERVED_KEY */
    CHECK_OK(gcol_multiset_size(m, &size, 0));
    CHECK(size == cap);
    CHECK_STATUS(gcol_multiset_insert(m, NULL, 1, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(gcol_multiset_insert(m, h, n, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT); /* host memory */
    CHECK_STATUS(gcol_multiset_count(m, (char *)d + 1, 2, NULL, dc, 0), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(gcol_multiset_contains(m, d, 2, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
    size_t tb = 1;
    CHECK_STATUS(gcol_multiset_retrieve(dc, &tb, m, d, 2, NULL, NULL, 4, dc, 0), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(gcol_multiset_retrieve_all(m, d, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK_OK(gcol_multiset_clear(m, 0));
    CHECK_OK(gcol_multiset_insert(m, d, 10, dc, 0));
    CHECK(tu_read_size(dc) == 9); /* input 3 is the empty key */
    CHECK_STATUS(gcol_multiset_size(m, &size, 0), GCOL_ERROR_RESERVED_KEY);
    CHECK(size == 9);
    gcol_multiset_destroy(m);
    free(h), tu_free(d), tu_free(dc);
  }
  return TEST_PASS;
}
