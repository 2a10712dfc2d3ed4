/* GPU tests of the key-first claim of 8-byte-key pairs (SLOT_PAIR16 without
 * the 128-bit CAS: GPUs before sm_90, forced here on any GPU through
 * gcol_map_set_policy_for_testing's key_cas). The claimer CASes the key
 * word, then publishes the value; a pair whose value is empty_value is
 * published by a bit per slot (map_tile.cuh, pair16_wait). Every check is
 * exact: values equal to empty_value, duplicates racing in one batch,
 * kernels of two streams on the same keys, and results read right after.
 * Filter: map_claim_ (each test runs the forced scheme; on a GPU before
 * sm_90 it is the policy's own). Sizes follow GCOL_TEST_MAX_N. */
#include <string.h>
#include "harness.h"
#include "test_util.h"
#include "map/map_internal.h"

/* The pair widths whose slots are SLOT_PAIR16: 8_8, 4_8, 8_4. */
typedef struct {
  gcol_type_t kt, vt;
} claim_pair_t;
static const claim_pair_t claim_pairs[] = {{GCOL_U64, GCOL_U64}, {GCOL_U32, GCOL_I64}, {GCOL_I64, GCOL_U32}};
enum { CLAIM_PAIRS = 3 };

/* want, or GCOL_TEST_MAX_N when smaller (the tests skip below 1000). */
static size_t claim_n(size_t want) {
  size_t cap = test_max_n();
  return want < cap ? want : cap;
}
#define CLAIM_SIZES_OR_SKIP()                  \
  do {                                         \
    REQUIRE_GPU();                             \
    if (test_max_n() < 1000) return TEST_SKIP; \
  } while (0)

/* A fixed map claimed key first with probing tile `tile`, the direct apply
 * path (no shared-memory grouping), or growable when asked. */
static gcol_map_t *claim_map(gcol_type_t kt, gcol_type_t vt, size_t capacity, int tile, int growable, cudaStream_t s) {
  gcol_map_config_t c = gcol_map_config_default(kt, vt);
  c.capacity = capacity;
  c.growable = growable;
  c.seed = test_seed() ^ 0xc1a1;
  gcol_map_t *m = NULL;
  if (gcol_map_create(&m, &c, s) != GCOL_SUCCESS) return NULL;
  if (gcol_map_set_policy_for_testing(m, tile, 1) != GCOL_SUCCESS ||
      gcol_map_set_grouped_for_testing(m, SIZE_MAX, 0) != GCOL_SUCCESS) {
    gcol_map_destroy(m);
    return NULL;
  }
  return m;
}

static uint64_t ones(size_t bytes) { return bytes == 4 ? 0xffffffffULL : ~0ULL; }

/* Host arrays and their device copies. */
typedef struct {
  size_t n, kb, vb;
  void *keys, *vals, *d_keys, *d_vals;
} claim_batch_t;

static int batch_alloc(claim_batch_t *b, size_t n, size_t kb, size_t vb) {
  memset(b, 0, sizeof *b);
  b->n = n, b->kb = kb, b->vb = vb;
  b->keys = malloc(n * kb + 8), b->vals = malloc(n * vb + 8);
  return !b->keys || !b->vals;
}
static int batch_upload(claim_batch_t *b) {
  tu_free(b->d_keys), tu_free(b->d_vals);
  b->d_keys = tu_to_device(b->keys, b->n * b->kb), b->d_vals = tu_to_device(b->vals, b->n * b->vb);
  return !b->d_keys || !b->d_vals;
}
static void batch_free(claim_batch_t *b) {
  free(b->keys), free(b->vals), tu_free(b->d_keys), tu_free(b->d_vals);
}

/* find(keys[0..n)) == want[0..n) exactly. */
static test_result_t check_find(gcol_map_t *m, const claim_batch_t *b, size_t n, const void *want, cudaStream_t s) {
  void *d_out = tu_poisoned(n * b->vb + 8), *out = malloc(n * b->vb + 8);
  CHECK(d_out && out);
  CHECK_OK(gcol_map_find(m, b->d_keys, n, d_out, s));
  CHECK(!tu_to_host(out, d_out, n * b->vb));
  for (size_t i = 0; i < n; ++i)
    if (tu_get(out, i, b->vb) != tu_get(want, i, b->vb)) {
      fprintf(stderr, "    find %zu of %zu: got %llx want %llx\n", i, n, (unsigned long long)tu_get(out, i, b->vb),
              (unsigned long long)tu_get(want, i, b->vb));
      return TEST_FAIL;
    }
  tu_free(d_out), free(out);
  return TEST_PASS;
}

/* Values equal to empty_value (every third key), next to 0 and others:
 * insert, find, insert_and_find on present keys, assign to and from
 * empty_value, erase and insert again (the bits of erased slots cleared),
 * apply onto empty_value and into it, and retrieve_all. */
static test_result_t empty_values(gcol_type_t kt, gcol_type_t vt, int tile) {
  CLAIM_SIZES_OR_SKIP();
  const size_t n = claim_n(60000), kb = gcol_type_size(kt), vb = gcol_type_size(vt);
  const uint64_t ev = ones(vb);
  claim_batch_t b;
  CHECK(batch_alloc(&b, n, kb, vb) == 0);
  void *want = malloc(n * vb + 8), *out = malloc(n * vb + 8);
  uint8_t *ins = malloc(n + 1);
  CHECK(want && out && ins);
  tu_unique_keys(b.keys, kb, n, test_seed() & 0xfffff, NULL);
  for (size_t i = 0; i < n; ++i) tu_put(b.vals, i, vb, i % 3 == 0 ? ev : i % 3 == 1 ? 0 : tu_value(i, 5, vb));
  CHECK(batch_upload(&b) == 0);
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  gcol_map_t *m = claim_map(kt, vt, 2 * n + 64, tile, 0, s);
  CHECK(m);
  void *d_out = tu_poisoned(n * vb + 8);
  uint8_t *d_ins = tu_poisoned(n + 1);
  CHECK(d_out && d_ins);

  CHECK_OK(gcol_map_insert(m, b.d_keys, b.d_vals, n, NULL, s));
  RUN(check_find(m, &b, n, b.vals, s));
  /* present keys: insert_and_find returns the stored value, inserts nothing */
  void *d_other = tu_poisoned(n * vb + 8);
  CHECK(d_other);
  CHECK_CUDA(cudaMemsetAsync(d_other, 0x5a, n * vb, s));
  CHECK_OK(gcol_map_insert_and_find(m, b.d_keys, d_other, n, d_out, d_ins, s));
  CHECK(!tu_to_host(out, d_out, n * vb) && !tu_to_host(ins, d_ins, n));
  for (size_t i = 0; i < n; ++i) CHECK(tu_get(out, i, vb) == tu_get(b.vals, i, vb) && ins[i] == 0);

  /* assign: every key to empty_value, then back to its value */
  memcpy(want, b.vals, n * vb);
  for (size_t i = 0; i < n; ++i) tu_put(want, i, vb, ev);
  void *d_ev = tu_to_device(want, n * vb);
  CHECK(d_ev);
  CHECK_OK(gcol_map_insert_or_assign(m, b.d_keys, d_ev, n, s));
  RUN(check_find(m, &b, n, want, s));
  CHECK_OK(gcol_map_insert_or_assign(m, b.d_keys, b.d_vals, n, s));
  RUN(check_find(m, &b, n, b.vals, s));

  /* apply ADD: value + (ev - value + ...) lands exactly on empty_value and leaves it again */
  if (vt == GCOL_U64 || vt == GCOL_U32 || vt == GCOL_I64) {
    void *delta = malloc(n * vb + 8);
    CHECK(delta);
    for (size_t i = 0; i < n; ++i) tu_put(delta, i, vb, (ev - tu_get(b.vals, i, vb)) & ev); /* stored + delta = ev */
    void *d_delta = tu_to_device(delta, n * vb);
    CHECK(d_delta);
    CHECK_OK(gcol_map_insert_or_apply(m, b.d_keys, d_delta, n, GCOL_OP_ADD, s));
    RUN(check_find(m, &b, n, want, s)); /* all empty_value now, published by the applies */
    CHECK_OK(gcol_map_insert_or_apply(m, b.d_keys, b.d_vals, n, GCOL_OP_ADD, s)); /* ev + v = v - 1 */
    for (size_t i = 0; i < n; ++i) tu_put(delta, i, vb, (tu_get(b.vals, i, vb) - 1) & ev);
    RUN(check_find(m, &b, n, delta, s));
    CHECK_OK(gcol_map_insert_or_assign(m, b.d_keys, b.d_vals, n, s));
    tu_free(d_delta), free(delta);
  }

  /* erase the even inputs, insert them again with swapped values: a slot
   * whose bit was set must not read as published before its new value */
  claim_batch_t e;
  CHECK(batch_alloc(&e, n / 2, kb, vb) == 0);
  for (size_t i = 0; i < e.n; ++i) {
    tu_put(e.keys, i, kb, tu_get(b.keys, 2 * i, kb));
    uint64_t v = tu_get(b.vals, 2 * i, vb);
    tu_put(e.vals, i, vb, v == ev ? tu_value(i, 9, vb) & (ev >> 1) : ev); /* ev <-> not ev */
  }
  CHECK(batch_upload(&e) == 0);
  size_t size = 0;
  CHECK_OK(gcol_map_erase(m, e.d_keys, e.n, NULL, s));
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == n - e.n);
  CHECK_OK(gcol_map_insert_and_find(m, e.d_keys, e.d_vals, e.n, d_out, d_ins, s));
  CHECK(!tu_to_host(out, d_out, e.n * vb) && !tu_to_host(ins, d_ins, e.n));
  for (size_t i = 0; i < e.n; ++i) CHECK(tu_get(out, i, vb) == tu_get(e.vals, i, vb) && ins[i] == 1);
  RUN(check_find(m, &e, e.n, e.vals, s));
  memcpy(want, b.vals, n * vb);
  for (size_t i = 0; i < e.n; ++i) tu_put(want, 2 * i, vb, tu_get(e.vals, i, vb));
  RUN(check_find(m, &b, n, want, s));

  /* retrieve_all: every pair once, with its value */
  void *d_rk = tu_poisoned(n * kb + 8), *d_rv = tu_poisoned(n * vb + 8), *rk = malloc(n * kb + 8);
  CHECK(d_rk && d_rv && rk);
  size_t got = 0;
  CHECK_OK(gcol_map_retrieve_all(m, d_rk, d_rv, &got, s));
  CHECK(got == n);
  claim_batch_t r = {n, kb, vb, rk, out, d_rk, NULL};
  CHECK(!tu_to_host(rk, d_rk, n * kb) && !tu_to_host(out, d_rv, n * vb));
  /* each retrieved pair's value is what find says for its key */
  void *d_rf = tu_poisoned(n * vb + 8), *rf = malloc(n * vb + 8);
  CHECK(d_rf && rf);
  CHECK_OK(gcol_map_find(m, r.d_keys, n, d_rf, s));
  CHECK(!tu_to_host(rf, d_rf, n * vb));
  size_t evs = 0, evs_want = 0;
  for (size_t i = 0; i < n; ++i) {
    CHECK(tu_get(rf, i, vb) == tu_get(out, i, vb));
    evs += tu_get(out, i, vb) == ev, evs_want += tu_get(want, i, vb) == ev;
  }
  CHECK(evs == evs_want);

  gcol_map_destroy(m);
  CHECK_CUDA(cudaStreamDestroy(s));
  tu_free(d_out), tu_free(d_ins), tu_free(d_other), tu_free(d_ev), tu_free(d_rk), tu_free(d_rv), tu_free(d_rf);
  free(want), free(out), free(ins), free(rk), free(rf);
  batch_free(&b), batch_free(&e);
  return TEST_PASS;
}

TEST(map_claim_empty_values) {
  for (int p = 0; p < CLAIM_PAIRS; ++p) {
    RUN(empty_values(claim_pairs[p].kt, claim_pairs[p].vt, 2));
    RUN(empty_values(claim_pairs[p].kt, claim_pairs[p].vt, 4));
  }
  RUN(empty_values(GCOL_U64, GCOL_U64, 1));
  RUN(empty_values(GCOL_U64, GCOL_U64, 8));
  return TEST_PASS;
}

/* A growable map moves pairs of value empty_value through its rebuilds
 * (the rebuild sets their bits): find and apply after each growth. */
TEST(map_claim_growth_keeps_empty_values) {
  CLAIM_SIZES_OR_SKIP();
  const size_t n = claim_n(80000), kb = 8, vb = 8;
  claim_batch_t b;
  CHECK(batch_alloc(&b, n, kb, vb) == 0);
  tu_unique_keys(b.keys, kb, n, test_seed() & 0xffff, NULL);
  for (size_t i = 0; i < n; ++i) tu_put(b.vals, i, vb, i & 1 ? ~0ULL : i);
  CHECK(batch_upload(&b) == 0);
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  gcol_map_t *m = claim_map(GCOL_U64, GCOL_U64, 64, 4, 1, s);
  CHECK(m);
  for (size_t done = 0; done < n;) { /* batches of a tenth: several growths */
    size_t k = n / 10 + 1 < n - done ? n / 10 + 1 : n - done;
    CHECK_OK(gcol_map_insert(m, (uint64_t *)b.d_keys + done, (uint64_t *)b.d_vals + done, k, NULL, s));
    done += k;
  }
  RUN(check_find(m, &b, n, b.vals, s));
  /* apply 1 to every key: ~0 + 1 = 0, i + 1 */
  uint64_t *one = malloc(n * 8), *want = malloc(n * 8);
  CHECK(one && want);
  for (size_t i = 0; i < n; ++i) one[i] = 1, want[i] = (i & 1 ? ~0ULL : i) + 1;
  void *d_one = tu_to_device(one, n * 8);
  CHECK(d_one);
  CHECK_OK(gcol_map_insert_or_apply(m, b.d_keys, d_one, n, GCOL_OP_ADD, s));
  RUN(check_find(m, &b, n, want, s));
  gcol_map_destroy(m);
  CHECK_CUDA(cudaStreamDestroy(s));
  tu_free(d_one), free(one), free(want);
  batch_free(&b);
  return TEST_PASS;
}

/* n inputs over d new keys (every key at least once, a hot key on every
 * fourth input), values drawn so that partial sums cross empty_value:
 * insert_or_apply sums (and MIN, MAX) exact, with the claim racing the
 * applies of the key's twins in one batch. */
static test_result_t apply_duplicates(gcol_type_t kt, gcol_type_t vt, gcol_op_t op, int tile, size_t n, size_t d) {
  CLAIM_SIZES_OR_SKIP();
  n = claim_n(n);
  if (d > n / 2) d = n / 2 ? n / 2 : 1;
  const size_t kb = gcol_type_size(kt), vb = gcol_type_size(vt);
  const uint64_t ev = ones(vb);
  const int sgn = vt == GCOL_I64 || vt == GCOL_I32;
  claim_batch_t b, u;
  CHECK(batch_alloc(&b, n, kb, vb) == 0 && batch_alloc(&u, d, kb, vb) == 0);
  tu_unique_keys(u.keys, kb, d, (test_seed() >> 8) & 0xfffff, NULL);
  uint64_t *want = malloc(d * 8);
  uint8_t *has = calloc(d, 1);
  CHECK(want && has);
  tu_rng_t rng = {test_seed() ^ 0x77};
  for (size_t i = 0; i < n; ++i) {
    size_t j = i < d ? i : (i & 3) == 0 ? 0 : tu_next(&rng) % d;
    uint64_t x = tu_next(&rng), v;
    switch (x % 4) { /* empty_value itself, small signed steps around it, any */
      case 0: v = ev; break;
      case 1: v = 1; break;
      case 2: v = ev - (x >> 60); break;
      default: v = x; break;
    }
    v &= ev;
    tu_put(b.keys, i, kb, tu_get(u.keys, j, kb));
    tu_put(b.vals, i, vb, v);
    if (!has[j]) {
      has[j] = 1, want[j] = v;
    } else if (op == GCOL_OP_ADD) {
      want[j] = (want[j] + v) & ev;
    } else {
      int less;
      if (sgn) less = vb == 4 ? (int32_t)(uint32_t)v < (int32_t)(uint32_t)want[j] : (int64_t)v < (int64_t)want[j];
      else less = v < want[j];
      if (op == GCOL_OP_MIN ? less : (!less && v != want[j])) want[j] = v;
    }
  }
  for (size_t j = 0; j < d; ++j) tu_put(u.vals, j, vb, want[j]);
  CHECK(batch_upload(&b) == 0 && batch_upload(&u) == 0);
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  gcol_map_t *m = claim_map(kt, vt, 2 * d + 64, tile, 0, s);
  CHECK(m);
  CHECK_OK(gcol_map_insert_or_apply(m, b.d_keys, b.d_vals, n, op, s));
  CHECK_OK(gcol_map_status(m, s));
  size_t size = 0;
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == d);
  RUN(check_find(m, &u, d, u.vals, s));
  gcol_map_destroy(m);
  CHECK_CUDA(cudaStreamDestroy(s));
  free(want), free(has);
  batch_free(&b), batch_free(&u);
  return TEST_PASS;
}

TEST(map_claim_apply_duplicates_in_batch) {
  for (int p = 0; p < CLAIM_PAIRS; ++p)
    for (int op = GCOL_OP_ADD; op <= GCOL_OP_MAX; ++op) {
      RUN(apply_duplicates(claim_pairs[p].kt, claim_pairs[p].vt, (gcol_op_t)op, 2, 200000, 3000));
      RUN(apply_duplicates(claim_pairs[p].kt, claim_pairs[p].vt, (gcol_op_t)op, 4, 100000, 50000));
    }
  RUN(apply_duplicates(GCOL_U64, GCOL_U64, GCOL_OP_ADD, 1, 100000, 500));
  RUN(apply_duplicates(GCOL_I64, GCOL_I64, GCOL_OP_ADD, 8, 100000, 500));
  return TEST_PASS;
}

/* insert_and_find with duplicates in one batch, a third of the values
 * empty_value: every copy of a key returns the one stored value, exactly
 * one copy inserted it, and find agrees right after. */
TEST(map_claim_insert_and_find_duplicates) {
  CLAIM_SIZES_OR_SKIP();
  for (int p = 0; p < CLAIM_PAIRS; ++p)
    for (int tile = 2; tile <= 4; tile += 2) {
      const size_t n = claim_n(150000), d = n / 8 + 1;
      const size_t kb = gcol_type_size(claim_pairs[p].kt), vb = gcol_type_size(claim_pairs[p].vt);
      const uint64_t ev = ones(vb);
      claim_batch_t b, u;
      CHECK(batch_alloc(&b, n, kb, vb) == 0 && batch_alloc(&u, d, kb, vb) == 0);
      tu_unique_keys(u.keys, kb, d, (test_seed() >> 4) & 0xfffff, NULL);
      size_t *key_of = malloc(n * sizeof(size_t));
      CHECK(key_of);
      tu_rng_t rng = {test_seed() ^ 0x99};
      for (size_t i = 0; i < n; ++i) {
        key_of[i] = i < d ? i : tu_next(&rng) % d;
        tu_put(b.keys, i, kb, tu_get(u.keys, key_of[i], kb));
        tu_put(b.vals, i, vb, i % 3 == 0 ? ev : (i * 2654435761ULL) & ev);
      }
      CHECK(batch_upload(&b) == 0);
      cudaStream_t s;
      CHECK_CUDA(cudaStreamCreate(&s));
      gcol_map_t *m = claim_map(claim_pairs[p].kt, claim_pairs[p].vt, 2 * d + 64, tile, 0, s);
      CHECK(m);
      void *d_out = tu_poisoned(n * vb + 8), *out = malloc(n * vb + 8);
      uint8_t *d_ins = tu_poisoned(n + 1), *ins = malloc(n + 1);
      CHECK(d_out && out && d_ins && ins);
      CHECK_OK(gcol_map_insert_and_find(m, b.d_keys, b.d_vals, n, d_out, d_ins, s));
      CHECK(!tu_to_host(out, d_out, n * vb) && !tu_to_host(ins, d_ins, n));
      uint64_t *stored = malloc(d * 8);
      size_t *winner = malloc(d * sizeof(size_t));
      CHECK(stored && winner);
      for (size_t j = 0; j < d; ++j) winner[j] = SIZE_MAX;
      for (size_t i = 0; i < n; ++i)
        if (ins[i]) {
          CHECK(winner[key_of[i]] == SIZE_MAX);
          winner[key_of[i]] = i;
        }
      for (size_t j = 0; j < d; ++j) {
        CHECK(winner[j] != SIZE_MAX);
        stored[j] = tu_get(b.vals, winner[j], vb);
        tu_put(u.vals, j, vb, stored[j]);
      }
      for (size_t i = 0; i < n; ++i)
        if (tu_get(out, i, vb) != stored[key_of[i]]) {
          fprintf(stderr, "    input %zu (key %zu): got %llx, stored %llx\n", i, key_of[i],
                  (unsigned long long)tu_get(out, i, vb), (unsigned long long)stored[key_of[i]]);
          return TEST_FAIL;
        }
      CHECK(batch_upload(&u) == 0);
      RUN(check_find(m, &u, d, u.vals, s));
      gcol_map_destroy(m);
      CHECK_CUDA(cudaStreamDestroy(s));
      tu_free(d_out), tu_free(d_ins), free(out), free(ins), free(stored), free(winner), free(key_of);
      batch_free(&b), batch_free(&u);
    }
  return TEST_PASS;
}

/* Kernels of two streams on the same new keys at once, several rounds:
 * insert_or_apply ADD from both (exact sums), then insert (empty_value on
 * every other key) on one stream racing insert_and_find on the other, whose
 * outputs must be the value finally stored. */
static test_result_t two_streams(gcol_type_t kt, gcol_type_t vt, int tile) {
  CLAIM_SIZES_OR_SKIP();
  const size_t n = claim_n(400000), kb = gcol_type_size(kt), vb = gcol_type_size(vt);
  const uint64_t ev = ones(vb);
  claim_batch_t a, c;
  CHECK(batch_alloc(&a, n, kb, vb) == 0 && batch_alloc(&c, n, kb, vb) == 0);
  tu_unique_keys(a.keys, kb, n, (test_seed() >> 12) & 0xfffff, NULL);
  /* stream 2 walks the keys backwards, so the streams meet on every key */
  for (size_t i = 0; i < n; ++i) tu_put(c.keys, i, kb, tu_get(a.keys, n - 1 - i, kb));
  void *want = malloc(n * vb + 8), *out = malloc(n * vb + 8);
  uint8_t *ins = malloc(n + 1);
  CHECK(want && out && ins);
  cudaStream_t s1, s2;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  gcol_map_t *m = claim_map(kt, vt, 2 * n + 64, tile, 0, s1);
  CHECK(m);
  void *d_out = tu_poisoned(n * vb + 8);
  uint8_t *d_ins = tu_poisoned(n + 1);
  CHECK(d_out && d_ins);
  for (int round = 0; round < 3; ++round) {
    for (size_t i = 0; i < n; ++i) {
      uint64_t x = tu_value(i, 31 + round, vb), y = (round == 1 ? ev : x * 3 + 1) & ev;
      tu_put(a.vals, i, vb, x & ev);
      tu_put(c.vals, n - 1 - i, vb, y);
      tu_put(want, i, vb, (x + y) & ev);
    }
    CHECK(batch_upload(&a) == 0 && batch_upload(&c) == 0);
    CHECK_OK(gcol_map_clear(m, s1));
    CHECK_CUDA(cudaStreamSynchronize(s1));
    CHECK_OK(gcol_map_insert_or_apply(m, a.d_keys, a.d_vals, n, GCOL_OP_ADD, s1));
    CHECK_OK(gcol_map_insert_or_apply(m, c.d_keys, c.d_vals, n, GCOL_OP_ADD, s2));
    CHECK_CUDA(cudaStreamSynchronize(s1));
    CHECK_CUDA(cudaStreamSynchronize(s2));
    RUN(check_find(m, &a, n, want, s1));

    /* insert vs insert_and_find */
    for (size_t i = 0; i < n; ++i) tu_put(a.vals, i, vb, i & 1 ? ev : tu_value(i, 77 + round, vb));
    CHECK(batch_upload(&a) == 0);
    CHECK_OK(gcol_map_clear(m, s1));
    CHECK_CUDA(cudaStreamSynchronize(s1));
    CHECK_OK(gcol_map_insert(m, a.d_keys, a.d_vals, n, NULL, s1));
    CHECK_OK(gcol_map_insert_and_find(m, c.d_keys, c.d_vals, n, d_out, d_ins, s2));
    CHECK_CUDA(cudaStreamSynchronize(s1));
    CHECK_CUDA(cudaStreamSynchronize(s2));
    void *d_fin = tu_poisoned(n * vb + 8), *fin = malloc(n * vb + 8);
    CHECK(d_fin && fin);
    CHECK_OK(gcol_map_find(m, c.d_keys, n, d_fin, s1));
    CHECK(!tu_to_host(fin, d_fin, n * vb) && !tu_to_host(out, d_out, n * vb) && !tu_to_host(ins, d_ins, n));
    for (size_t i = 0; i < n; ++i) {
      uint64_t f = tu_get(fin, i, vb), mine = tu_get(c.vals, i, vb), theirs = tu_get(a.vals, n - 1 - i, vb);
      CHECK(f == (ins[i] ? mine : theirs));
      if (tu_get(out, i, vb) != f) {
        fprintf(stderr, "    round %d input %zu: insert_and_find gave %llx, stored %llx (inserted %d)\n", round, i,
                (unsigned long long)tu_get(out, i, vb), (unsigned long long)f, ins[i]);
        return TEST_FAIL;
      }
    }
    size_t size = 0;
    CHECK_OK(gcol_map_size(m, &size, s1));
    CHECK(size == n);
    tu_free(d_fin), free(fin);
  }
  gcol_map_destroy(m);
  CHECK_CUDA(cudaStreamDestroy(s1));
  CHECK_CUDA(cudaStreamDestroy(s2));
  tu_free(d_out), tu_free(d_ins), free(want), free(out), free(ins);
  batch_free(&a), batch_free(&c);
  return TEST_PASS;
}

TEST(map_claim_two_streams_same_keys) {
  for (int p = 0; p < CLAIM_PAIRS; ++p) RUN(two_streams(claim_pairs[p].kt, claim_pairs[p].vt, 2));
  RUN(two_streams(GCOL_U64, GCOL_U64, 4));
  return TEST_PASS;
}
