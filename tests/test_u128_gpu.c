/* GPU tests of 16-byte keys (GCOL_U128, issue 25) against a CPU model: the
 * map (u32 and u64 values; both claim schemes: CAS128 and the pre-sm_90 tag
 * scheme forced by the test hook), the set, the multimap and the multiset,
 * fixed and growable, random batches with duplicates, erase / reinsert
 * cycles on several streams, keys that share a word or hold a sentinel in
 * one word, sentinel keys, bad pointers.
 *
 * Keys are pairs of 64-bit words (lo, hi). The universe is key_of(i): some
 * keys have the sentinel in one word, many share a word; the model finds a
 * key's index by binary search in the sorted universe. */
#include <string.h>
#include "harness.h"
#include "test_util.h"
#include "map/map_internal.h"
#include "u128_device_kernels.h"

typedef struct {
  uint64_t lo, hi;
} k128_t;

static const uint64_t EMPTY = ~0ULL, ERASED = ~0ULL - 1;

static k128_t key_of(uint64_t seed, size_t i) {
  k128_t k;
  uint64_t m = tu_mix64(seed * 1000003u + i);
  switch (i % 6) {
    case 0: k.lo = EMPTY, k.hi = m; break;          /* a sentinel in the low word */
    case 1: k.lo = m, k.hi = ERASED; break;         /* ... in the high word */
    case 2: k.lo = i / 6, k.hi = 42; break;         /* many share the high word */
    case 3: k.lo = 7, k.hi = i; break;              /* ... the low word */
    default: k.lo = m, k.hi = tu_mix64(m ^ 5); break;
  }
  if ((k.lo == EMPTY && k.hi == EMPTY) || (k.lo == ERASED && k.hi == ERASED)) k.hi ^= 1;
  return k;
}

static int cmp_k(const k128_t *a, const k128_t *b) {
  if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  return 0;
}
typedef struct {
  k128_t k;
  size_t i;
} entry_t;
static int cmp_entry(const void *a, const void *b) { return cmp_k(&((const entry_t *)a)->k, &((const entry_t *)b)->k); }

typedef struct {
  size_t universe;
  uint64_t seed;
  entry_t *sorted;
  uint64_t *count;  /* copies (map, set: 0 or 1) */
  uint64_t *value;  /* map: the value */
} model_t;

static int model_init(model_t *md, size_t universe, uint64_t seed) {
  md->universe = universe, md->seed = seed;
  md->sorted = malloc(universe * sizeof *md->sorted);
  md->count = calloc(universe, sizeof *md->count);
  md->value = calloc(universe, sizeof *md->value);
  if (!md->sorted || !md->count || !md->value) return 0;
  for (size_t i = 0; i < universe; ++i) md->sorted[i].k = key_of(seed, i), md->sorted[i].i = i;
  qsort(md->sorted, universe, sizeof *md->sorted, cmp_entry);
  for (size_t i = 1; i < universe; ++i)
    if (!cmp_k(&md->sorted[i - 1].k, &md->sorted[i].k)) return 0; /* keys are distinct */
  return 1;
}
static void model_free(model_t *md) { free(md->sorted), free(md->count), free(md->value); }
/* The universe index of k, or SIZE_MAX. */
static size_t model_index(const model_t *md, k128_t k) {
  size_t lo = 0, hi = md->universe;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = cmp_k(&md->sorted[mid].k, &k);
    if (!c) return md->sorted[mid].i;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return SIZE_MAX;
}
static size_t model_total(const model_t *md) {
  size_t n = 0;
  for (size_t i = 0; i < md->universe; ++i) n += md->count[i];
  return n;
}

/* A batch of n universe indices with duplicates (a narrow span at times). */
static void make_batch(const model_t *md, tu_rng_t *r, size_t n, int narrow, size_t *idx, k128_t *hk) {
  size_t span = narrow ? md->universe / 8 + 1 : md->universe;
  for (size_t j = 0; j < n; ++j) idx[j] = tu_next(r) % span, hk[j] = key_of(md->seed, idx[j]);
}
/* The value every copy of key i carries in a batch of round `round`: duplicates agree. */
static uint64_t val_of(size_t i, int round, size_t vb) {
  uint64_t v = tu_mix64(i * 31 + (uint64_t)round) >> 8;
  if (vb == 4) v &= 0xffffffULL;
  return v;
}

/* retrieve_all of a map or set equals the model. */
static test_result_t check_all_map(gcol_map_t *m, gcol_set_t *s, const model_t *md, size_t vb, cudaStream_t st) {
  size_t n = 0, got = 0;
  if (m) CHECK_OK(gcol_map_size(m, &n, st));
  else CHECK_OK(gcol_set_size(s, &n, st));
  CHECK(n == model_total(md));
  k128_t *dk = tu_poisoned((n + 1) * 16), *hk = malloc((n + 1) * 16);
  void *dv = tu_poisoned((n + 1) * 8), *hv = malloc((n + 1) * 8);
  uint8_t *seen = calloc(md->universe, 1);
  CHECK(dk && hk && dv && hv && seen);
  if (m) CHECK_OK(gcol_map_retrieve_all(m, dk, dv, &got, st));
  else CHECK_OK(gcol_set_retrieve_all(s, dk, &got, st));
  CHECK(got == n);
  CHECK(!tu_to_host(hk, dk, (n + 1) * 16) && !tu_to_host(hv, dv, (n + 1) * 8));
  for (size_t j = 0; j < n; ++j) {
    size_t i = model_index(md, hk[j]);
    CHECK(i != SIZE_MAX && md->count[i] && !seen[i]);
    if (m) CHECK(tu_get(hv, j, vb) == md->value[i]);
    seen[i] = 1;
  }
  free(seen), free(hk), free(hv), tu_free(dk), tu_free(dv);
  return TEST_PASS;
}

/* Rounds of every map operation on rotating streams, checked each step. */
static test_result_t map_run(gcol_type_t vt, int growable, int key_cas, uint64_t seed) {
  const size_t vb = gcol_type_size(vt);
  size_t universe = test_max_n() < 24000 ? test_max_n() : 24000, batch = universe / 4;
  if (batch < 16) return TEST_SKIP;
  model_t md;
  CHECK(model_init(&md, universe, seed));
  tu_rng_t r = {seed | 1};
  gcol_map_config_t c = gcol_map_config_default(GCOL_U128, vt);
  c.capacity = growable ? 64 : universe + universe / 3;
  c.growable = growable;
  c.seed = seed;
  cudaStream_t st[3];
  for (int i = 0; i < 3; ++i) CHECK_CUDA(cudaStreamCreate(&st[i]));
  gcol_map_t *m = NULL;
  CHECK_OK(gcol_map_create(&m, &c, st[0]));
  if (key_cas) CHECK_OK(gcol_map_set_policy_for_testing(m, 2, 1)); /* the pre-sm_90 tag scheme */
  size_t *idx = malloc(batch * sizeof *idx);
  k128_t *hk = malloc(batch * 16), *dk = tu_poisoned(batch * 16);
  void *hv = malloc(batch * 8), *dv = tu_poisoned(batch * 8), *hout = malloc(batch * 8), *dout = tu_poisoned(batch * 8);
  uint8_t *hf = malloc(batch), *df = tu_poisoned(batch), *mark = calloc(universe, 1);
  size_t *dc = tu_poisoned(8);
  CHECK(idx && hk && dk && hv && dv && hout && dout && hf && df && mark && dc);
  for (int round = 0; round < 10; ++round) {
    for (int op = 0; op < 7; ++op) {
      cudaStream_t s0 = st[(round + op) % 3];
      make_batch(&md, &r, batch, (round + op) % 3 == 0, idx, hk);
      for (size_t j = 0; j < batch; ++j) tu_put(hv, j, vb, val_of(idx[j], round * 8 + op, vb));
      CHECK_CUDA(cudaMemcpy(dk, hk, batch * 16, cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dv, hv, batch * vb, cudaMemcpyHostToDevice));
      size_t want = 0;
      memset(mark, 0, universe);
      switch (op) {
        case 0: /* insert, counted: the first value stays */
          CHECK_OK(gcol_map_insert(m, dk, dv, batch, dc, s0));
          for (size_t j = 0; j < batch; ++j)
            if (!md.count[idx[j]]) md.count[idx[j]] = 1, md.value[idx[j]] = tu_get(hv, j, vb), ++want;
          CHECK(tu_read_size(dc) == want);
          break;
        case 1: /* insert_or_assign */
          CHECK_OK(gcol_map_insert_or_assign(m, dk, dv, batch, s0));
          for (size_t j = 0; j < batch; ++j) md.count[idx[j]] = 1, md.value[idx[j]] = tu_get(hv, j, vb);
          break;
        case 2: /* insert_or_apply ADD: every copy adds */
          CHECK_OK(gcol_map_insert_or_apply(m, dk, dv, batch, GCOL_OP_ADD, s0));
          for (size_t j = 0; j < batch; ++j) {
            size_t i = idx[j];
            uint64_t v = tu_get(hv, j, vb);
            md.value[i] = md.count[i] ? md.value[i] + v : v;
            if (vb == 4) md.value[i] &= 0xffffffffULL;
            md.count[i] = 1;
          }
          break;
        case 3: { /* insert_and_find: one copy of an absent key inserts, all see the stored value */
          CHECK_OK(gcol_map_insert_and_find(m, dk, dv, batch, dout, df, s0));
          CHECK(!tu_to_host(hout, dout, batch * vb) && !tu_to_host(hf, df, batch));
          for (size_t j = 0; j < batch; ++j) {
            size_t i = idx[j];
            if (!md.count[i]) md.count[i] = 1, md.value[i] = tu_get(hv, j, vb), mark[i] = 2;
            CHECK(tu_get(hout, j, vb) == md.value[i]);
            if (hf[j]) { /* once */
              CHECK(mark[i] == 2);
              mark[i] = 3;
            }
          }
          for (size_t j = 0; j < batch; ++j) CHECK(mark[idx[j]] != 2);
          break;
        }
        case 4: /* erase, counted */
        case 6:
          CHECK_OK(gcol_map_erase(m, dk, batch / 2, dc, s0));
          for (size_t j = 0; j < batch / 2; ++j)
            if (md.count[idx[j]]) md.count[idx[j]] = 0, ++want;
          CHECK(tu_read_size(dc) == want);
          break;
        case 5: /* find and contains */
          CHECK_OK(gcol_map_find(m, dk, batch, dout, s0));
          CHECK_OK(gcol_map_contains(m, dk, batch, df, s0));
          CHECK(!tu_to_host(hout, dout, batch * vb) && !tu_to_host(hf, df, batch));
          for (size_t j = 0; j < batch; ++j) {
            size_t i = idx[j];
            CHECK(hf[j] == (md.count[i] != 0));
            CHECK(tu_get(hout, j, vb) == (md.count[i] ? md.value[i] : c.empty_value));
          }
          break;
      }
      CHECK_OK(gcol_map_status(m, s0));
    }
    RUN(check_all_map(m, NULL, &md, vb, st[round % 3]));
  }
  size_t cap = 0;
  CHECK_OK(gcol_map_capacity(m, &cap));
  if (growable) CHECK(cap > 64); /* it grew */
  gcol_map_destroy(m);
  for (int i = 0; i < 3; ++i) cudaStreamDestroy(st[i]);
  free(idx), free(hk), free(hv), free(hout), free(hf), free(mark);
  tu_free(dk), tu_free(dv), tu_free(dout), tu_free(df), tu_free(dc);
  model_free(&md);
  return TEST_PASS;
}

TEST(u128_map_u64_fixed) { REQUIRE_GPU(); return map_run(GCOL_U64, 0, 0, test_seed()); }
TEST(u128_map_u64_growable) { REQUIRE_GPU(); return map_run(GCOL_U64, 1, 0, test_seed() + 1); }
TEST(u128_map_u32_fixed) { REQUIRE_GPU(); return map_run(GCOL_U32, 0, 0, test_seed() + 2); }
TEST(u128_map_i64_growable) { REQUIRE_GPU(); return map_run(GCOL_I64, 1, 0, test_seed() + 3); }
TEST(u128_map_u64_tag_scheme_fixed) { REQUIRE_GPU(); return map_run(GCOL_U64, 0, 1, test_seed() + 4); }
TEST(u128_map_u32_tag_scheme_growable) { REQUIRE_GPU(); return map_run(GCOL_U32, 1, 1, test_seed() + 5); }

/* The set: insert (counted), insert_and_contains, erase (counted), contains. */
static test_result_t set_run(int growable, int key_cas, uint64_t seed) {
  size_t universe = test_max_n() < 24000 ? test_max_n() : 24000, batch = universe / 4;
  if (batch < 16) return TEST_SKIP;
  model_t md;
  CHECK(model_init(&md, universe, seed));
  tu_rng_t r = {seed | 1};
  gcol_set_config_t c = gcol_set_config_default(GCOL_U128);
  c.capacity = growable ? 64 : universe + universe / 3;
  c.growable = growable;
  c.seed = seed;
  cudaStream_t st[3];
  for (int i = 0; i < 3; ++i) CHECK_CUDA(cudaStreamCreate(&st[i]));
  gcol_set_t *s = NULL;
  CHECK_OK(gcol_set_create(&s, &c, st[0]));
  if (key_cas) CHECK_OK(gcol_set_set_key_cas_for_testing(s, 1)); /* the locked 16-byte CAS */
  size_t *idx = malloc(batch * sizeof *idx);
  k128_t *hk = malloc(batch * 16), *dk = tu_poisoned(batch * 16);
  uint8_t *hf = malloc(batch), *df = tu_poisoned(batch), *mark = calloc(universe, 1);
  size_t *dc = tu_poisoned(8);
  CHECK(idx && hk && dk && hf && df && mark && dc);
  for (int round = 0; round < 10; ++round) {
    for (int op = 0; op < 4; ++op) {
      cudaStream_t s0 = st[(round + op) % 3];
      make_batch(&md, &r, batch, (round + op) % 3 == 0, idx, hk);
      CHECK_CUDA(cudaMemcpy(dk, hk, batch * 16, cudaMemcpyHostToDevice));
      size_t want = 0;
      memset(mark, 0, universe);
      if (op == 0) {
        CHECK_OK(gcol_set_insert(s, dk, batch, dc, s0));
        for (size_t j = 0; j < batch; ++j)
          if (!md.count[idx[j]]) md.count[idx[j]] = 1, ++want;
        CHECK(tu_read_size(dc) == want);
      } else if (op == 1) {
        CHECK_OK(gcol_set_insert_and_contains(s, dk, batch, df, s0));
        CHECK(!tu_to_host(hf, df, batch));
        for (size_t j = 0; j < batch; ++j) {
          size_t i = idx[j];
          if (!md.count[i]) md.count[i] = 1, mark[i] = 2;
          if (hf[j]) {
            CHECK(mark[i] == 2);
            mark[i] = 3;
          }
        }
        for (size_t j = 0; j < batch; ++j) CHECK(mark[idx[j]] != 2);
      } else if (op == 2) {
        CHECK_OK(gcol_set_erase(s, dk, batch / 2, dc, s0));
        for (size_t j = 0; j < batch / 2; ++j)
          if (md.count[idx[j]]) md.count[idx[j]] = 0, ++want;
        CHECK(tu_read_size(dc) == want);
      } else {
        CHECK_OK(gcol_set_contains(s, dk, batch, df, s0));
        CHECK(!tu_to_host(hf, df, batch));
        for (size_t j = 0; j < batch; ++j) CHECK(hf[j] == (md.count[idx[j]] != 0));
      }
      CHECK_OK(gcol_set_status(s, s0));
    }
    RUN(check_all_map(NULL, s, &md, 0, st[round % 3]));
  }
  gcol_set_destroy(s);
  for (int i = 0; i < 3; ++i) cudaStreamDestroy(st[i]);
  free(idx), free(hk), free(hf), free(mark), tu_free(dk), tu_free(df), tu_free(dc);
  model_free(&md);
  return TEST_PASS;
}
TEST(u128_set_fixed) { REQUIRE_GPU(); return set_run(0, 0, test_seed() + 6); }
TEST(u128_set_growable) { REQUIRE_GPU(); return set_run(1, 0, test_seed() + 7); }
TEST(u128_set_locked_cas_fixed) { REQUIRE_GPU(); return set_run(0, 1, test_seed() + 13); }
TEST(u128_set_locked_cas_growable) { REQUIRE_GPU(); return set_run(1, 1, test_seed() + 14); }

/* Multimap (values) or multiset (vb 0): every copy kept; count per query and
 * retrieve_all against the model. */
static test_result_t multi_run(gcol_type_t vt, gcol_multimap_engine_t engine, uint64_t seed) {
  const int keys_only = vt == GCOL_U128;
  size_t universe = test_max_n() < 8000 ? test_max_n() : 8000, batch = universe / 2;
  if (batch < 16) return TEST_SKIP;
  model_t md;
  CHECK(model_init(&md, universe, seed));
  tu_rng_t r = {seed | 1};
  const size_t vb = keys_only ? 0 : gcol_type_size(vt), rounds = 3;
  gcol_multimap_t *mm = NULL;
  gcol_multiset_t *ms = NULL;
  if (keys_only) {
    gcol_set_config_t c = gcol_set_config_default(GCOL_U128);
    c.capacity = 2 * batch * rounds;
    c.seed = seed;
    CHECK_OK(gcol_multiset_create(&ms, &c, 0));
  } else {
    gcol_multimap_config_t c = gcol_multimap_config_default(GCOL_U128, vt, engine);
    c.map.capacity = 2 * batch * rounds;
    c.map.seed = seed;
    CHECK_OK(gcol_multimap_create(&mm, &c, 0));
  }
  size_t *idx = malloc(batch * sizeof *idx), *hc = malloc(batch * sizeof *hc);
  k128_t *hk = malloc(batch * 16), *dk = tu_poisoned(batch * 16);
  void *hv = malloc(batch * 8), *dv = tu_poisoned(batch * 8);
  size_t *dcounts = tu_poisoned(batch * sizeof(size_t)), *dc = tu_poisoned(8);
  CHECK(idx && hc && hk && dk && hv && dv && dcounts && dc);
  for (size_t round = 0; round < rounds; ++round) {
    make_batch(&md, &r, batch, round == 1, idx, hk);
    for (size_t j = 0; j < batch; ++j) tu_put(hv, j, vb ? vb : 8, j), ++md.count[idx[j]];
    CHECK_CUDA(cudaMemcpy(dk, hk, batch * 16, cudaMemcpyHostToDevice));
    if (vb) CHECK_CUDA(cudaMemcpy(dv, hv, batch * vb, cudaMemcpyHostToDevice));
    if (ms) CHECK_OK(gcol_multiset_insert(ms, dk, batch, dc, 0));
    else CHECK_OK(gcol_multimap_insert(mm, dk, dv, batch, dc, 0));
    CHECK(tu_read_size(dc) == batch);
    /* count a fresh batch of queries */
    make_batch(&md, &r, batch, 0, idx, hk);
    CHECK_CUDA(cudaMemcpy(dk, hk, batch * 16, cudaMemcpyHostToDevice));
    if (ms) CHECK_OK(gcol_multiset_count(ms, dk, batch, dcounts, dc, 0));
    else CHECK_OK(gcol_multimap_count(mm, dk, batch, dcounts, dc, 0));
    CHECK(!tu_to_host(hc, dcounts, batch * sizeof *hc));
    size_t total = 0;
    for (size_t j = 0; j < batch; ++j) {
      CHECK(hc[j] == md.count[idx[j]]);
      total += hc[j];
    }
    CHECK(tu_read_size(dc) == total);
  }
  size_t n = 0, got = 0;
  if (ms) CHECK_OK(gcol_multiset_size(ms, &n, 0));
  else CHECK_OK(gcol_multimap_size(mm, &n, 0));
  CHECK(n == model_total(&md));
  k128_t *dall = tu_poisoned(n * 16), *hall = malloc(n * 16);
  void *dvall = tu_poisoned(n * 8);
  uint64_t *left = malloc(universe * sizeof *left);
  CHECK(dall && hall && dvall && left);
  if (ms) CHECK_OK(gcol_multiset_retrieve_all(ms, dall, &got, 0));
  else CHECK_OK(gcol_multimap_retrieve_all(mm, dall, dvall, &got, 0));
  CHECK(got == n && !tu_to_host(hall, dall, n * 16));
  memcpy(left, md.count, universe * sizeof *left);
  for (size_t j = 0; j < n; ++j) {
    size_t i = model_index(&md, hall[j]);
    CHECK(i != SIZE_MAX && left[i] > 0);
    --left[i];
  }
  if (ms) gcol_multiset_destroy(ms);
  else gcol_multimap_destroy(mm);
  free(idx), free(hc), free(hk), free(hv), free(hall), free(left);
  tu_free(dk), tu_free(dv), tu_free(dcounts), tu_free(dc), tu_free(dall), tu_free(dvall);
  model_free(&md);
  return TEST_PASS;
}
TEST(u128_multimap_open_u64) { REQUIRE_GPU(); return multi_run(GCOL_U64, GCOL_MULTIMAP_OPEN, test_seed() + 8); }
TEST(u128_multimap_open_u32) { REQUIRE_GPU(); return multi_run(GCOL_U32, GCOL_MULTIMAP_OPEN, test_seed() + 9); }
TEST(u128_multimap_chained_u64) { REQUIRE_GPU(); return multi_run(GCOL_U64, GCOL_MULTIMAP_CHAINED, test_seed() + 10); }
TEST(u128_multimap_lockfree_u32) {
  REQUIRE_GPU();
  return multi_run(GCOL_U32, GCOL_MULTIMAP_CHAINED_LOCKFREE, test_seed() + 11);
}
TEST(u128_multiset) { REQUIRE_GPU(); return multi_run(GCOL_U128, GCOL_MULTIMAP_OPEN, test_seed() + 12); }

/* Sentinel keys (the 64-bit sentinel in both words) are skipped and latched;
 * a sentinel in one word is an ordinary key. */
TEST(u128_sentinels_skipped_and_latched) {
  REQUIRE_GPU();
  gcol_map_config_t c = gcol_map_config_default(GCOL_U128, GCOL_U64);
  c.capacity = 1000;
  gcol_map_t *m = NULL;
  CHECK_OK(gcol_map_create(&m, &c, 0));
  k128_t hk[6] = {{EMPTY, EMPTY}, {EMPTY, 1}, {ERASED, ERASED}, {1, EMPTY}, {EMPTY, ERASED}, {ERASED, EMPTY}};
  uint64_t hv[6] = {10, 11, 12, 13, 14, 15}, out[6];
  uint8_t found[6];
  k128_t *dk = tu_to_device(hk, sizeof hk);
  uint64_t *dv = tu_to_device(hv, sizeof hv), *dout = tu_poisoned(sizeof out);
  uint8_t *df = tu_poisoned(sizeof found);
  size_t *dc = tu_poisoned(8), n = 0;
  CHECK(dk && dv && dout && df && dc);
  CHECK_OK(gcol_map_insert(m, dk, dv, 6, dc, 0));
  CHECK(tu_read_size(dc) == 4);
  CHECK_STATUS(gcol_map_status(m, 0), GCOL_ERROR_RESERVED_KEY);
  CHECK_OK(gcol_map_status(m, 0)); /* cleared once returned */
  CHECK_OK(gcol_map_find(m, dk, 6, dout, 0));
  CHECK_OK(gcol_map_contains(m, dk, 6, df, 0));
  CHECK(!tu_to_host(out, dout, sizeof out) && !tu_to_host(found, df, sizeof found));
  for (int i = 0; i < 6; ++i) {
    int sentinel = i == 0 || i == 2;
    CHECK(found[i] == !sentinel);
    CHECK(out[i] == (sentinel ? c.empty_value : hv[i]));
  }
  CHECK_STATUS(gcol_map_size(m, &n, 0), GCOL_ERROR_RESERVED_KEY); /* the lookups latched it again */
  CHECK(n == 4);
  gcol_map_destroy(m);
  { /* the set too */
    gcol_set_config_t sc = gcol_set_config_default(GCOL_U128);
    gcol_set_t *s = NULL;
    CHECK_OK(gcol_set_create(&s, &sc, 0));
    CHECK_OK(gcol_set_insert(s, dk, 6, dc, 0));
    CHECK(tu_read_size(dc) == 4);
    CHECK_STATUS(gcol_set_status(s, 0), GCOL_ERROR_RESERVED_KEY);
    gcol_set_destroy(s);
  }
  tu_free(dk), tu_free(dv), tu_free(dout), tu_free(df), tu_free(dc);
  return TEST_PASS;
}

/* NULL, 8-byte-aligned (not 16) and host key arrays are refused with a
 * message; a good call after them succeeds. */
TEST(u128_bad_pointers_refused) {
  REQUIRE_GPU();
  gcol_map_config_t c = gcol_map_config_default(GCOL_U128, GCOL_U64);
  c.capacity = 100;
  gcol_map_t *m = NULL;
  CHECK_OK(gcol_map_create(&m, &c, 0));
  k128_t hk[5] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}};
  uint64_t hv[4] = {1, 2, 3, 4};
  char *dk = tu_to_device(hk, sizeof hk);
  uint64_t *dv = tu_to_device(hv, sizeof hv);
  CHECK(dk && dv);
  CHECK_STATUS(gcol_map_insert(m, NULL, dv, 2, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "d_keys"));
  CHECK_STATUS(gcol_map_insert(m, dk + 8, dv, 2, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "16-byte aligned"));
  CHECK_STATUS(gcol_map_find(m, hk, 2, dv, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "GCOL_U128"));
  CHECK_OK(gcol_map_insert(m, dk, dv, 4, NULL, 0));
  size_t n = 0;
  CHECK_OK(gcol_map_size(m, &n, 0));
  CHECK(n == 4);
  gcol_map_destroy(m);
  tu_free(dk), tu_free(dv);
  return TEST_PASS;
}

/* The device API (gcol::u128 views): inserts by thread, tile and bulk,
 * lookups by thread, bulk and range, apply and erase, checked through the
 * host API and back; the map under both claim schemes. */
static test_result_t device_run(int key_cas, uint64_t seed) {
  size_t n = test_max_n() < 30000 ? test_max_n() : 30000;
  if (n < 30) return TEST_SKIP;
  k128_t *hk = malloc(2 * n * 16);
  uint64_t *hv = malloc(n * 8), *hout = malloc(2 * n * 8);
  uint8_t *hf = malloc(2 * n);
  CHECK(hk && hv && hout && hf);
  for (size_t i = 0; i < 2 * n; ++i) hk[i] = key_of(seed, i);
  for (size_t i = 0; i < n; ++i) hv[i] = i * 3 + 1;
  k128_t *dk = tu_to_device(hk, 2 * n * 16);
  uint64_t *dv = tu_to_device(hv, n * 8), *dout = tu_poisoned(2 * n * 8);
  uint8_t *df = tu_poisoned(2 * n);
  CHECK(dk && dv && dout && df);
  gcol_map_config_t c = gcol_map_config_default(GCOL_U128, GCOL_U64);
  c.capacity = 2 * n;
  gcol_map_t *m = NULL;
  CHECK_OK(gcol_map_create(&m, &c, 0));
  if (key_cas) CHECK_OK(gcol_map_set_policy_for_testing(m, 2, 1));
  gcol_map_mutable_view_t mv;
  CHECK_OK(gcol_map_device_mutable_view(m, &mv));
  size_t third = n / 3, size = 0;
  const u128_dev_op_t ins[3] = {U128_DEV_INSERT, U128_DEV_INSERT_TILE, U128_DEV_INSERT_EACH};
  for (int p = 0; p < 3; ++p) {
    size_t lo = p * third, cnt = p == 2 ? n - lo : third;
    CHECK_CUDA(u128_dev_map_run(&mv, ins[p], dk + lo, dv + lo, cnt, dout, df + lo));
  }
  CHECK(!tu_to_host(hf, df, n));
  for (size_t i = 0; i < n; ++i) CHECK(hf[i] == 1);
  CHECK_CUDA(u128_dev_map_run(&mv, U128_DEV_INSERT_EACH, dk, dv, n, dout, df)); /* all present now */
  CHECK(!tu_to_host(hf, df, n));
  for (size_t i = 0; i < n; ++i) CHECK(hf[i] == 0);
  CHECK_OK(gcol_map_size(m, &size, 0));
  CHECK(size == n);
  CHECK_OK(gcol_map_find(m, dk, 2 * n, dout, 0)); /* the host sees the device's inserts */
  CHECK(!tu_to_host(hout, dout, 2 * n * 8));
  for (size_t i = 0; i < 2 * n; ++i) CHECK(hout[i] == (i < n ? hv[i] : c.empty_value));
  const u128_dev_op_t finds[3] = {U128_DEV_FIND, U128_DEV_FIND_EACH, U128_DEV_FIND_RANGE};
  for (int p = 0; p < 3; ++p) {
    CHECK_CUDA(cudaMemset(dout, 0xA5, 2 * n * 8));
    CHECK_CUDA(u128_dev_map_run(&mv, finds[p], dk, dv, 2 * n, dout, df));
    CHECK(!tu_to_host(hout, dout, 2 * n * 8) && !tu_to_host(hf, df, 2 * n));
    for (size_t i = 0; i < 2 * n; ++i) {
      CHECK(hout[i] == (i < n ? hv[i] : c.empty_value));
      if (finds[p] != U128_DEV_FIND_RANGE) CHECK(hf[i] == (i < n));
    }
  }
  CHECK_CUDA(u128_dev_map_run(&mv, U128_DEV_APPLY_EACH, dk, dv, n, dout, df)); /* value += value */
  CHECK_CUDA(u128_dev_map_run(&mv, U128_DEV_ERASE_TILE, dk, dv, n / 2, dout, df));
  CHECK(!tu_to_host(hf, df, n / 2));
  for (size_t i = 0; i < n / 2; ++i) CHECK(hf[i] == 1);
  CHECK_OK(gcol_map_find(m, dk, n, dout, 0));
  CHECK(!tu_to_host(hout, dout, n * 8));
  for (size_t i = 0; i < n; ++i) CHECK(hout[i] == (i < n / 2 ? c.empty_value : 2 * hv[i]));
  CHECK_OK(gcol_map_size(m, &size, 0));
  CHECK(size == n - n / 2);
  gcol_map_destroy(m);

  /* the set */
  gcol_set_config_t sc = gcol_set_config_default(GCOL_U128);
  sc.capacity = 2 * n;
  gcol_set_t *s = NULL;
  CHECK_OK(gcol_set_create(&s, &sc, 0));
  if (key_cas) CHECK_OK(gcol_set_set_key_cas_for_testing(s, 1));
  gcol_set_mutable_view_t sv;
  CHECK_OK(gcol_set_device_mutable_view(s, &sv));
  for (int p = 0; p < 3; ++p) {
    size_t lo = p * third, cnt = p == 2 ? n - lo : third;
    CHECK_CUDA(u128_dev_set_run(&sv, ins[p], dk + lo, cnt, df + lo));
  }
  CHECK(!tu_to_host(hf, df, n));
  for (size_t i = 0; i < n; ++i) CHECK(hf[i] == 1);
  for (int p = 0; p < 2; ++p) {
    CHECK_CUDA(u128_dev_set_run(&sv, finds[p], dk, 2 * n, df));
    CHECK(!tu_to_host(hf, df, 2 * n));
    for (size_t i = 0; i < 2 * n; ++i) CHECK(hf[i] == (i < n));
  }
  CHECK_CUDA(u128_dev_set_run(&sv, U128_DEV_ERASE_TILE, dk, n / 2, df));
  CHECK_OK(gcol_set_contains(s, dk, n, df, 0));
  CHECK(!tu_to_host(hf, df, n));
  for (size_t i = 0; i < n; ++i) CHECK(hf[i] == (i >= n / 2));
  CHECK_OK(gcol_set_size(s, &size, 0));
  CHECK(size == n - n / 2);
  gcol_set_destroy(s);
  free(hk), free(hv), free(hout), free(hf), tu_free(dk), tu_free(dv), tu_free(dout), tu_free(df);
  return TEST_PASS;
}
TEST(u128_device_api) { REQUIRE_GPU(); return device_run(0, test_seed() + 20); }
TEST(u128_device_api_tag_and_locked_cas) { REQUIRE_GPU(); return device_run(1, test_seed() + 21); }

/* Host-only rules: the type's size and name, and GCOL_U128 refused as a value type. */
TEST(u128_type_rules) {
  CHECK(gcol_type_size(GCOL_U128) == 16);
  CHECK(GCOL_U128 == 6); /* appended: the older values keep their numbers */
  gcol_map_config_t c = gcol_map_config_default(GCOL_U64, GCOL_U128);
  gcol_map_t *m = NULL;
  CHECK_STATUS(gcol_map_create(&m, &c, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "key type only"));
  gcol_multimap_config_t mc = gcol_multimap_config_default(GCOL_U128, GCOL_U128, GCOL_MULTIMAP_OPEN);
  gcol_multimap_t *mm = NULL;
  CHECK_STATUS(gcol_multimap_create(&mm, &mc, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "key type only"));
  size_t tb = 0;
  CHECK_STATUS(gcol_reduce(NULL, &tb, NULL, NULL, 1, GCOL_U128, GCOL_OP_ADD, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "key type only"));
  CHECK(gcol_slot_bytes(16, 8) == 32 && gcol_slot_bytes(16, 0) == 16 && gcol_chunk_bytes(16, 4) == 32);
  CHECK(gcol_map_bucket_slots(2, 16, 8) == 2 && gcol_map_bucket_slots(4, 16, 0) == 4);
  return TEST_PASS;
}

/* Values equal to empty_value are ordinary values: duplicates in a batch
 * (insert, insert_and_find, insert_or_apply) read them once published, under
 * both claim schemes. */
static test_result_t empty_values_run(int key_cas) {
  size_t n = test_max_n() < 20000 ? test_max_n() : 20000, distinct = n / 20 + 1;
  k128_t *hk = malloc(n * 16);
  uint64_t *hv = calloc(n, 8), *hout = malloc(n * 8);
  uint8_t *hf = malloc(n);
  CHECK(hk && hv && hout && hf);
  for (size_t i = 0; i < n; ++i) hk[i] = key_of(99, i % distinct);
  k128_t *dk = tu_to_device(hk, n * 16);
  uint64_t *dv = tu_to_device(hv, n * 8), *dout = tu_poisoned(n * 8);
  uint8_t *df = tu_poisoned(n);
  CHECK(dk && dv && dout && df);
  gcol_map_config_t c = gcol_map_config_default(GCOL_U128, GCOL_U64);
  c.capacity = 4 * distinct;
  c.empty_value = 0; /* every value below is empty_value */
  gcol_map_t *m = NULL;
  CHECK_OK(gcol_map_create(&m, &c, 0));
  if (key_cas) CHECK_OK(gcol_map_set_policy_for_testing(m, 2, 1));
  CHECK_OK(gcol_map_insert_and_find(m, dk, dv, n, dout, df, 0));
  CHECK(!tu_to_host(hout, dout, n * 8) && !tu_to_host(hf, df, n));
  size_t inserted = 0;
  for (size_t i = 0; i < n; ++i) {
    CHECK(hout[i] == 0);
    inserted += hf[i];
  }
  CHECK(inserted == distinct);
  CHECK_OK(gcol_map_insert_or_apply(m, dk, dv, n, GCOL_OP_ADD, 0));
  CHECK_OK(gcol_map_contains(m, dk, n, df, 0));
  CHECK_OK(gcol_map_find(m, dk, n, dout, 0));
  CHECK(!tu_to_host(hout, dout, n * 8) && !tu_to_host(hf, df, n));
  for (size_t i = 0; i < n; ++i) CHECK(hf[i] == 1 && hout[i] == 0);
  size_t size = 0;
  CHECK_OK(gcol_map_size(m, &size, 0));
  CHECK(size == distinct);
  gcol_map_destroy(m);
  free(hk), free(hv), free(hout), free(hf), tu_free(dk), tu_free(dv), tu_free(dout), tu_free(df);
  return TEST_PASS;
}
TEST(u128_values_equal_to_empty_value) { REQUIRE_GPU(); return empty_values_run(0); }
TEST(u128_values_equal_to_empty_value_tag_scheme) { REQUIRE_GPU(); return empty_values_run(1); }
