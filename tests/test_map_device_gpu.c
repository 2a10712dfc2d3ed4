/* Tests of the map's device API (include/gcol/device/map.cuh) through
 * user-style kernels (tests/map_device_kernels.cu): every operation, every
 * tile size, one key per tile and bulk ranges, against the host bulk API and
 * a CPU model. Keys come from a pool of distinct keys; batches draw from it
 * with duplicates, and a key's value is a function of the key (so duplicates
 * agree and "the first value wins" is checkable). */
#include <string.h>
#include "harness.h"
#include "test_util.h"
#include "map/map_internal.h"
#include "map_device_kernels.h"

typedef struct {
  int wide;
  size_t kb, p, n;           /* key bytes, pool size, batch size */
  uint64_t off, salt;
  void *pool, *d_pool, *d_pool_vals, *d_batch, *d_batch_vals, *d_out;
  uint8_t *d_flags, *flags;
  uint32_t *idx, *mult;      /* batch -> pool index; multiplicity per pool key */
  unsigned long long *d_count;
  void *out, *want;          /* host buffers of p values */
} scen_t;

static void scen_free(scen_t *s) {
  free(s->pool), free(s->flags), free(s->idx), free(s->mult), free(s->out), free(s->want);
  tu_free(s->d_pool), tu_free(s->d_pool_vals), tu_free(s->d_batch), tu_free(s->d_batch_vals), tu_free(s->d_out);
  tu_free(s->d_flags), tu_free(s->d_count);
}

static int scen_init(scen_t *s, int wide, size_t p, size_t n, uint64_t salt) {
  memset(s, 0, sizeof *s);
  s->wide = wide, s->kb = wide ? 8 : 4, s->p = p, s->n = n, s->salt = salt;
  s->off = tu_mix64(test_seed() + salt) & 0xffffffffULL;
  size_t m = (p > n ? p : n) + 1;
  s->pool = malloc(p * s->kb), s->flags = malloc(m), s->idx = malloc(n * 4 + 4), s->mult = calloc(p, 4);
  s->out = malloc(m * 8), s->want = malloc(m * 8);
  void *batch = malloc(m * s->kb), *pv = malloc(m * s->kb), *bv = malloc(m * s->kb);
  if (!s->pool || !s->flags || !s->idx || !s->mult || !s->out || !s->want || !batch || !pv || !bv) return 1;
  tu_unique_keys(s->pool, s->kb, p, s->off, NULL);
  tu_rng_t r = {test_seed() ^ (salt * 7919)};
  for (size_t i = 0; i < p; ++i) tu_put(pv, i, s->kb, tu_value(tu_get(s->pool, i, s->kb), salt, s->kb));
  for (size_t i = 0; i < n; ++i) {
    s->idx[i] = (uint32_t)(tu_next(&r) % p);
    s->mult[s->idx[i]]++;
    tu_put(batch, i, s->kb, tu_get(s->pool, s->idx[i], s->kb));
    tu_put(bv, i, s->kb, tu_get(pv, s->idx[i], s->kb));
  }
  s->d_pool = tu_to_device(s->pool, p * s->kb), s->d_pool_vals = tu_to_device(pv, p * s->kb);
  s->d_batch = tu_to_device(batch, m * s->kb), s->d_batch_vals = tu_to_device(bv, m * s->kb);
  s->d_out = tu_poisoned(m * 8), s->d_flags = tu_poisoned(m), s->d_count = tu_poisoned(8);
  free(batch), free(pv), free(bv);
  return !s->d_pool || !s->d_pool_vals || !s->d_batch || !s->d_batch_vals || !s->d_out || !s->d_flags || !s->d_count;
}

static gcol_map_t *make_map(const scen_t *s, size_t capacity, int bucket_chunks, int key_cas) {
  gcol_type_t t = s->wide ? GCOL_U64 : GCOL_U32;
  gcol_map_config_t c = gcol_map_config_default(t, t);
  c.capacity = capacity, c.seed = test_seed() * 13;
  gcol_map_t *m = NULL;
  if (gcol_map_create(&m, &c, 0) != GCOL_SUCCESS) return NULL;
  if (bucket_chunks && gcol_map_set_policy_for_testing(m, bucket_chunks, key_cas) != GCOL_SUCCESS) {
    gcol_map_destroy(m);
    return NULL;
  }
  return m;
}

static cudaError_t run(const scen_t *s, gcol_map_t *m, dev_op_t op, int tile, size_t range, const void *keys,
                       const void *vals, size_t n) {
  gcol_map_mutable_view_t v;
  if (gcol_map_device_mutable_view(m, &v) != GCOL_SUCCESS) return cudaErrorUnknown;
  if (cudaMemset(s->d_count, 0, 8) != cudaSuccess) return cudaErrorUnknown;
  return dev_map_run(&v, s->wide, op, tile, range, keys, vals, n, s->d_out, s->d_flags, s->d_count);
}

/* insert_or_apply(ADD) of 1 for every input of the batch (op: DEV_INSERT_OR_ADD
 * or DEV_INSERT_OR_ADD_EACH): the map then counts each pool key's multiplicity. */
static cudaError_t add_ones(const scen_t *s, gcol_map_t *m, dev_op_t op, int tile, size_t range) {
  for (size_t i = 0; i < s->n; ++i) tu_put(s->want, i, s->kb, 1);
  void *d_ones = tu_to_device(s->want, s->n * s->kb);
  if (!d_ones) return cudaErrorMemoryAllocation;
  cudaError_t e = run(s, m, op, tile, range, s->d_batch, d_ones, s->n);
  tu_free(d_ones);
  return e;
}

static unsigned long long count_of(const scen_t *s) {
  unsigned long long c = ~0ULL;
  cudaMemcpy(&c, s->d_count, 8, cudaMemcpyDeviceToHost);
  return c;
}

static size_t distinct(const scen_t *s) {
  size_t d = 0;
  for (size_t i = 0; i < s->p; ++i) d += s->mult[i] != 0;
  return d;
}

/* The map holds pool key i with value want(i) exactly when present(i): host
 * find over the whole pool, and the exact size. */
static test_result_t check_map(const scen_t *s, gcol_map_t *m, const uint8_t *present, uint64_t add_salt,
                               const uint32_t *counts) {
  CHECK_OK(gcol_map_find(m, s->d_pool, s->p, s->d_out, 0));
  CHECK(!tu_to_host(s->out, s->d_out, s->p * s->kb));
  size_t live = 0;
  uint64_t empty = s->wide ? ~0ULL : 0xffffffffULL;
  for (size_t i = 0; i < s->p; ++i) {
    uint64_t k = tu_get(s->pool, i, s->kb), g = tu_get(s->out, i, s->kb);
    uint64_t w = !present[i] ? empty : counts ? counts[i] : tu_value(k, add_salt, s->kb);
    if (g != w) fprintf(stderr, "    pool key %zu: got %llx want %llx\n", i, (unsigned long long)g, (unsigned long long)w);
    CHECK(g == w);
    live += present[i] != 0;
  }
  size_t size = 0;
  CHECK_OK(gcol_map_size(m, &size, 0));
  CHECK(size == live);
  CHECK_OK(gcol_map_status(m, 0));
  return TEST_PASS;
}

/* Device find / contains over the pool (one key per tile or bulk) equal the
 * host's; find_op: DEV_FIND or DEV_FIND_EACH (then no contains). */
static test_result_t check_lookups_by(const scen_t *s, gcol_map_t *m, int tile, size_t range, dev_op_t find_op) {
  CHECK_OK(gcol_map_find(m, s->d_pool, s->p, s->d_out, 0));
  CHECK(!tu_to_host(s->want, s->d_out, s->p * s->kb));
  CHECK(cudaMemset(s->d_out, 0xA5, s->p * s->kb) == cudaSuccess);
  CHECK_CUDA(run(s, m, find_op, tile, range, s->d_pool, NULL, s->p));
  CHECK(!tu_to_host(s->out, s->d_out, s->p * s->kb));
  CHECK(!memcmp(s->out, s->want, s->p * s->kb));
  if (find_op == DEV_FIND_EACH) return TEST_PASS;
  uint8_t *host_has = malloc(s->p);
  CHECK(host_has);
  CHECK_OK(gcol_map_contains(m, s->d_pool, s->p, s->d_flags, 0));
  CHECK(!tu_to_host(host_has, s->d_flags, s->p));
  CHECK(cudaMemset(s->d_flags, 0xA5, s->p) == cudaSuccess);
  cudaError_t e = run(s, m, DEV_CONTAINS, tile, range, s->d_pool, NULL, s->p);
  int same = e == cudaSuccess && !tu_to_host(s->flags, s->d_flags, s->p) && !memcmp(s->flags, host_has, s->p);
  free(host_has);
  CHECK_CUDA(e);
  CHECK(same);
  return TEST_PASS;
}

static test_result_t check_lookups(const scen_t *s, gcol_map_t *m, int tile, size_t range) {
  return check_lookups_by(s, m, tile, range, DEV_FIND);
}

/* One key per tile: every operation of the mutable view and the read-only view. */
static test_result_t per_key_ops(int wide, int tile, int bucket_chunks, int key_cas) {
  scen_t s;
  CHECK(scen_init(&s, wide, 6000, 9000, 11) == 0);
  uint8_t *present = calloc(s.p, 1);
  gcol_map_t *m = make_map(&s, 2 * s.p, bucket_chunks, key_cas);
  CHECK(present && m);

  /* insert: each distinct key inserted exactly once, by one of its copies */
  CHECK_CUDA(run(&s, m, DEV_INSERT, tile, 0, s.d_batch, s.d_batch_vals, s.n));
  CHECK(!tu_to_host(s.flags, s.d_flags, s.n));
  uint32_t *won = calloc(s.p, 4);
  CHECK(won);
  for (size_t i = 0; i < s.n; ++i) won[s.idx[i]] += s.flags[i];
  for (size_t i = 0; i < s.p; ++i) present[i] = s.mult[i] != 0;
  int ok = 1;
  for (size_t i = 0; i < s.p; ++i) ok &= won[i] == (s.mult[i] ? 1u : 0u);
  free(won);
  CHECK(ok);
  RUN(check_map(&s, m, present, s.salt, NULL));
  RUN(check_lookups(&s, m, tile, 0));

  /* insert_and_find over the whole pool: stored = the key's value; inserted iff absent before */
  CHECK_CUDA(run(&s, m, DEV_INSERT_AND_FIND, tile, 0, s.d_pool, s.d_pool_vals, s.p));
  CHECK(!tu_to_host(s.flags, s.d_flags, s.p) && !tu_to_host(s.out, s.d_out, s.p * s.kb));
  for (size_t i = 0; i < s.p; ++i) {
    CHECK(s.flags[i] == !present[i]);
    CHECK(tu_get(s.out, i, s.kb) == tu_value(tu_get(s.pool, i, s.kb), s.salt, s.kb));
    present[i] = 1;
  }
  RUN(check_map(&s, m, present, s.salt, NULL));

  /* erase every third pool key */
  void *third = malloc(s.p * s.kb);
  CHECK(third);
  size_t nt = 0;
  for (size_t i = 0; i < s.p; i += 3) tu_put(third, nt++, s.kb, tu_get(s.pool, i, s.kb));
  void *d_third = tu_to_device(third, nt * s.kb);
  free(third);
  CHECK(d_third);
  cudaError_t e = run(&s, m, DEV_ERASE, tile, 0, d_third, NULL, nt);
  for (size_t i = 0; i < s.p; i += 3) present[i] = 0;
  int erased_all = e == cudaSuccess && !tu_to_host(s.flags, s.d_flags, nt);
  for (size_t i = 0; erased_all && i < nt; ++i) erased_all = s.flags[i] == 1;
  CHECK_CUDA(e);
  CHECK(erased_all);
  /* erasing them again erases nothing */
  e = run(&s, m, DEV_ERASE, tile, 0, d_third, NULL, nt);
  tu_free(d_third);
  CHECK_CUDA(e);
  CHECK(!tu_to_host(s.flags, s.d_flags, nt));
  for (size_t i = 0; i < nt; ++i) CHECK(s.flags[i] == 0);
  RUN(check_map(&s, m, present, s.salt, NULL));
  RUN(check_lookups(&s, m, tile, 0));

  /* insert_or_assign the pool with other values: inserted iff erased before */
  for (size_t i = 0; i < s.p; ++i) tu_put(s.want, i, s.kb, tu_value(tu_get(s.pool, i, s.kb), 29, s.kb));
  void *d_vals2 = tu_to_device(s.want, s.p * s.kb);
  CHECK(d_vals2);
  e = run(&s, m, DEV_INSERT_OR_ASSIGN, tile, 0, s.d_pool, d_vals2, s.p);
  tu_free(d_vals2);
  CHECK_CUDA(e);
  CHECK(!tu_to_host(s.flags, s.d_flags, s.p));
  for (size_t i = 0; i < s.p; ++i) {
    CHECK(s.flags[i] == !present[i]);
    present[i] = 1;
  }
  RUN(check_map(&s, m, present, 29, NULL));
  gcol_map_destroy(m);

  /* insert_or_apply(ADD) of 1 per copy: counts = multiplicities */
  m = make_map(&s, 2 * s.p, bucket_chunks, key_cas);
  CHECK(m);
  CHECK_CUDA(add_ones(&s, m, DEV_INSERT_OR_ADD, tile, 0));
  for (size_t i = 0; i < s.p; ++i) present[i] = s.mult[i] != 0;
  RUN(check_map(&s, m, present, 0, s.mult));
  gcol_map_destroy(m);
  free(present);
  scen_free(&s);
  return TEST_PASS;
}

static const int tiles[] = {0, 1, 2, 4, 8, 16, 32};

TEST(map_device_gpu_per_key_ops_every_tile) {
  REQUIRE_GPU();
  for (int w = 0; w < 2; ++w)
    for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; ++t) {
      test_result_t r = per_key_ops(w, tiles[t], 0, 0);
      if (r != TEST_PASS) fprintf(stderr, "    wide %d tile %d\n", w, tiles[t]);
      RUN(r);
    }
  return TEST_PASS;
}

/* Buckets of 1 and 8 chunks (narrower and wider than the default), and the
 * pre-sm_90 claim scheme, under per-thread, bucket-wide and warp-wide tiles. */
TEST(map_device_gpu_per_key_ops_other_bucket_widths) {
  REQUIRE_GPU();
  const int widths[] = {1, 8}, some_tiles[] = {0, 4, 32};
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 3; ++t) RUN(per_key_ops(1, some_tiles[t], widths[b], 0));
  for (int t = 0; t < 3; ++t) RUN(per_key_ops(1, some_tiles[t], 4, 1));
  return TEST_PASS;
}

/* The key-first claim (key_cas forced) through the device API, with every
 * other key's value equal to empty_value: insert_and_find of a batch with
 * duplicates returns each key's one stored value on every copy, find
 * returns it, and insert_or_apply(ADD) of ones adds exactly (from
 * empty_value too). Per thread and per tile. Filter: map_claim_. */
static test_result_t claim_empty_values(int tile) {
  scen_t s;
  CHECK(scen_init(&s, 1, 6000, 9000, 17) == 0);
  const uint64_t ev = ~0ULL;
  uint64_t *vals = malloc(s.n * 8), *want = malloc(s.p * 8);
  uint32_t *won = calloc(s.p, 4);
  CHECK(vals && want && won);
  for (size_t i = 0; i < s.p; ++i) want[i] = i & 1 ? ev : i;
  for (size_t i = 0; i < s.n; ++i) vals[i] = want[s.idx[i]];
  void *d_vals = tu_to_device(vals, s.n * 8);
  CHECK(d_vals);
  gcol_map_t *m = make_map(&s, 2 * s.p, 4, 1);
  CHECK(m);
  CHECK_CUDA(run(&s, m, DEV_INSERT_AND_FIND, tile, 0, s.d_batch, d_vals, s.n));
  CHECK(!tu_to_host(s.flags, s.d_flags, s.n) && !tu_to_host(s.out, s.d_out, s.n * 8));
  for (size_t i = 0; i < s.n; ++i) {
    CHECK(tu_get(s.out, i, 8) == want[s.idx[i]]);
    won[s.idx[i]] += s.flags[i];
  }
  for (size_t i = 0; i < s.p; ++i) CHECK(won[i] == (s.mult[i] ? 1u : 0u));
  /* find through the device API: the value, or empty_value where absent (ev either way for odd keys) */
  CHECK_CUDA(run(&s, m, DEV_FIND, tile, 0, s.d_pool, NULL, s.p));
  CHECK(!tu_to_host(s.out, s.d_out, s.p * 8));
  for (size_t i = 0; i < s.p; ++i) CHECK(tu_get(s.out, i, 8) == (s.mult[i] ? want[i] : ev));
  /* ones per copy: value + multiplicity (ev + k = k - 1) */
  CHECK_CUDA(add_ones(&s, m, DEV_INSERT_OR_ADD, tile, 0));
  CHECK_OK(gcol_map_find(m, s.d_pool, s.p, s.d_out, 0));
  CHECK(!tu_to_host(s.out, s.d_out, s.p * 8));
  for (size_t i = 0; i < s.p; ++i) CHECK(tu_get(s.out, i, 8) == (s.mult[i] ? want[i] + s.mult[i] : ev));
  gcol_map_destroy(m);
  tu_free(d_vals), free(vals), free(want), free(won);
  scen_free(&s);
  return TEST_PASS;
}

TEST(map_claim_device_api_empty_values) {
  REQUIRE_GPU();
  if (9000 > test_max_n()) return TEST_SKIP;
  const int some_tiles[] = {0, 2, 4, 32};
  for (int t = 0; t < 4; ++t) RUN(claim_empty_values(some_tiles[t]));
  return TEST_PASS;
}

/* Bulk tile operations: insert and insert_or_apply report how many they
 * inserted; find and contains equal the host's; ranges of every length. */
static test_result_t bulk_ops(int wide, int tile, size_t range, size_t p, size_t n) {
  scen_t s;
  CHECK(scen_init(&s, wide, p, n, 5) == 0);
  uint8_t *present = calloc(s.p, 1);
  gcol_map_t *m = make_map(&s, 2 * s.p, 0, 0);
  CHECK(present && m);
  CHECK_CUDA(run(&s, m, DEV_INSERT, tile, range, s.d_batch, s.d_batch_vals, s.n));
  CHECK(count_of(&s) == distinct(&s));
  for (size_t i = 0; i < s.p; ++i) present[i] = s.mult[i] != 0;
  RUN(check_map(&s, m, present, s.salt, NULL));
  RUN(check_lookups(&s, m, tile, range));
  gcol_map_destroy(m);

  /* the one-key-per-thread forms */
  m = make_map(&s, 2 * s.p, 0, 0);
  CHECK(m);
  CHECK_CUDA(run(&s, m, DEV_INSERT_EACH, tile, range, s.d_batch, s.d_batch_vals, s.n));
  CHECK(count_of(&s) == distinct(&s));
  RUN(check_map(&s, m, present, s.salt, NULL));
  RUN(check_lookups_by(&s, m, tile, range, DEV_FIND_EACH));
  gcol_map_destroy(m);

  /* insert_or_apply(ADD): a range per tile, then one key per thread */
  const dev_op_t adds[2] = {DEV_INSERT_OR_ADD, DEV_INSERT_OR_ADD_EACH};
  for (int a = 0; a < 2; ++a) {
    m = make_map(&s, 2 * s.p, 0, 0);
    CHECK(m);
    CHECK_CUDA(add_ones(&s, m, adds[a], tile, range));
    CHECK(count_of(&s) == distinct(&s));
    RUN(check_map(&s, m, present, 0, s.mult));
    gcol_map_destroy(m);
  }
  free(present);
  scen_free(&s);
  return TEST_PASS;
}

TEST(map_device_gpu_bulk_ops_every_tile_and_range) {
  REQUIRE_GPU();
  for (int w = 0; w < 2; ++w)
    for (size_t t = 1; t < sizeof tiles / sizeof tiles[0]; ++t) {
      size_t tl = (size_t)tiles[t], ranges[] = {1, tl - 1, tl, tl + 1, 1000};
      for (int r = 0; r < 5; ++r) {
        if (ranges[r] == 0) continue; /* tile 1: tile - 1 is the empty range, run inside every call below */
        test_result_t res = bulk_ops(w, tiles[t], ranges[r], 5000, 8000);
        if (res != TEST_PASS) fprintf(stderr, "    wide %d tile %d range %zu\n", w, tiles[t], ranges[r]);
        RUN(res);
      }
    }
  return TEST_PASS;
}

/* Views typed with the map's bucket width (every width the map takes):
 * bulk insert counts and stores what the run-time-width views do, and bulk
 * find answers as the host find. */
TEST(map_device_gpu_bulk_typed_bucket_width) {
  REQUIRE_GPU();
  const int widths[] = {1, 2, 4, 8};
  for (int w = 0; w < 2; ++w)
    for (int b = 0; b < 4; ++b) {
      scen_t s;
      CHECK(scen_init(&s, w, 5000, 8000, 13) == 0);
      uint8_t *present = calloc(s.p, 1);
      gcol_map_t *m = make_map(&s, 2 * s.p, widths[b], 0);
      CHECK(present && m);
      gcol_map_mutable_view_t v;
      CHECK_OK(gcol_map_device_mutable_view(m, &v));
      CHECK(v.view.bucket_chunks == widths[b]);
      CHECK(cudaMemset(s.d_count, 0, 8) == cudaSuccess);
      CHECK_CUDA(dev_map_run_typed(&v, w, DEV_INSERT, 37, s.d_batch, s.d_batch_vals, s.n, s.d_out, s.d_count));
      CHECK(count_of(&s) == distinct(&s));
      for (size_t i = 0; i < s.p; ++i) present[i] = s.mult[i] != 0;
      RUN(check_map(&s, m, present, s.salt, NULL));
      CHECK_OK(gcol_map_find(m, s.d_pool, s.p, s.d_out, 0));
      CHECK(!tu_to_host(s.want, s.d_out, s.p * s.kb));
      CHECK(cudaMemset(s.d_out, 0xA5, s.p * s.kb) == cudaSuccess);
      CHECK_CUDA(dev_map_run_typed(&v, w, DEV_FIND, 37, s.d_pool, NULL, s.p, s.d_out, s.d_count));
      CHECK(!tu_to_host(s.out, s.d_out, s.p * s.kb));
      CHECK(!memcmp(s.out, s.want, s.p * s.kb));
      gcol_map_destroy(m);
      free(present);
      scen_free(&s);
    }
  return TEST_PASS;
}

/* One tile takes a range of a million keys (and one more tile the rest). */
TEST(map_device_gpu_bulk_range_of_1m) {
  REQUIRE_GPU();
  if (1100000 > test_max_n()) return TEST_SKIP;
  for (size_t t = 1; t < sizeof tiles / sizeof tiles[0]; ++t) RUN(bulk_ops(1, tiles[t], 1000000, 700000, 1100000));
  return TEST_PASS;
}

/* Device inserts into a growable map count: the next host insert that must
 * grow sees them (no pair lost, exact size). A full fixed map and reserved
 * keys are latched. */
TEST(map_device_gpu_growable_and_latched_errors) {
  REQUIRE_GPU();
  scen_t s;
  CHECK(scen_init(&s, 1, 30000, 1, 3) == 0);
  gcol_map_config_t c = gcol_map_config_default(GCOL_U64, GCOL_U64);
  c.capacity = 1000, c.growable = 1;
  gcol_map_t *m = NULL;
  CHECK_OK(gcol_map_create(&m, &c, 0));
  CHECK_OK(gcol_map_reserve(m, 20000, 0));
  CHECK_CUDA(run(&s, m, DEV_INSERT, 4, 0, s.d_pool, s.d_pool_vals, 20000)); /* the first 20000 pool keys */
  size_t cap0 = 0, cap1 = 0;
  CHECK_OK(gcol_map_capacity(m, &cap0));
  char *d_rest_keys = (char *)s.d_pool + 20000 * 8, *d_rest_vals = (char *)s.d_pool_vals + 20000 * 8;
  CHECK_OK(gcol_map_insert(m, d_rest_keys, d_rest_vals, 10000, NULL, 0)); /* must grow past 25000 */
  CHECK_OK(gcol_map_capacity(m, &cap1));
  CHECK(cap1 > cap0);
  uint8_t *present = malloc(s.p);
  CHECK(present);
  memset(present, 1, s.p);
  test_result_t r = check_map(&s, m, present, s.salt, NULL);
  free(present);
  RUN(r);
  gcol_map_destroy(m);

  /* a fixed map of about 1000 slots takes 3000 distinct keys: FULL, nothing lost */
  c.growable = 0, c.capacity = 1000;
  CHECK_OK(gcol_map_create(&m, &c, 0));
  CHECK_OK(gcol_map_capacity(m, &cap0));
  CHECK_CUDA(run(&s, m, DEV_INSERT, 0, 0, s.d_pool, s.d_pool_vals, 3000));
  CHECK_STATUS(gcol_map_status(m, 0), GCOL_ERROR_FULL);
  size_t size = 0;
  CHECK_OK(gcol_map_size(m, &size, 0));
  CHECK(size == cap0);
  CHECK(!tu_to_host(s.flags, s.d_flags, 3000));
  size_t inserted = 0;
  for (size_t i = 0; i < 3000; ++i) inserted += s.flags[i];
  CHECK(inserted == cap0);
  /* a reserved key from a kernel */
  uint64_t reserved = ~0ULL, one = 1;
  void *d_k = tu_to_device(&reserved, 8), *d_v = tu_to_device(&one, 8);
  CHECK(d_k && d_v);
  CHECK_OK(gcol_map_clear(m, 0));
  cudaError_t e = run(&s, m, DEV_INSERT, 8, 0, d_k, d_v, 1);
  tu_free(d_k), tu_free(d_v);
  CHECK_CUDA(e);
  CHECK_STATUS(gcol_map_status(m, 0), GCOL_ERROR_RESERVED_KEY);
  gcol_map_destroy(m);
  scen_free(&s);
  return TEST_PASS;
}

/* Host side, no GPU needed: argument checks and the views' type check. */
TEST(map_device_view_arguments_and_types) {
  gcol_map_view_t v;
  gcol_map_mutable_view_t mv;
  CHECK_STATUS(gcol_map_device_view(NULL, &v), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_device_mutable_view(NULL, &mv), GCOL_ERROR_INVALID_ARGUMENT);
  memset(&v, 0, sizeof v);
  v.key_type = GCOL_I64, v.value_type = GCOL_F64;
  CHECK(dev_map_view_compatibility(&v) == 1);
  v.value_type = GCOL_I64;
  CHECK(dev_map_view_compatibility(&v) == 2);
  /* a typed bucket width must be the map's */
  for (int b = 0; b < 4; ++b) {
    v.bucket_chunks = 1 << b;
    CHECK(dev_map_typed_compatibility(&v) == 1 << b);
  }
  v.key_type = GCOL_U32;
  CHECK(dev_map_view_compatibility(&v) == 0);
  CHECK(dev_map_typed_compatibility(&v) == 0);
  return TEST_PASS;
}
