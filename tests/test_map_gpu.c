/* GPU tests of the hash map against CPU references on fresh random keys. */
#include <math.h>
#include <string.h>
#include "harness.h"
#include "test_util.h"
#include "map/map_internal.h"

/* Every buffer a lifecycle test needs, host and device. */
typedef struct {
  size_t n, kb, vb;
  uint64_t off, span, miss_off, salt1, salt2;
  void *keys, *misses, *v1, *v2, *out; /* host */
  uint8_t *flags;
  void *d_keys, *d_misses, *d_v1, *d_v2, *d_out, *d_kout, *d_vout;
  uint8_t *d_flags;
  size_t *d_count;
} fixture_t;

static void fixture_free(fixture_t *f) {
  free(f->keys), free(f->misses), free(f->v1), free(f->v2), free(f->out), free(f->flags);
  tu_free(f->d_keys), tu_free(f->d_misses), tu_free(f->d_v1), tu_free(f->d_v2), tu_free(f->d_out);
  tu_free(f->d_kout), tu_free(f->d_vout), tu_free(f->d_flags), tu_free(f->d_count);
}

static int fixture_init(fixture_t *f, size_t n, size_t kb, size_t vb) {
  memset(f, 0, sizeof *f);
  f->n = n, f->kb = kb, f->vb = vb;
  uint64_t seed = test_seed();
  f->off = tu_mix64(seed) & 0xffffffffffULL;
  f->salt1 = seed * 3 + 1, f->salt2 = seed * 5 + 2;
  size_t m = n ? n : 1;
  f->keys = malloc(m * kb), f->misses = malloc(m * kb), f->v1 = malloc(m * vb), f->v2 = malloc(m * vb);
  f->out = malloc(m * 8), f->flags = malloc(m);
  if (!f->keys || !f->misses || !f->v1 || !f->v2 || !f->out || !f->flags) return 1;
  tu_unique_keys(f->keys, kb, n, f->off, &f->span);
  f->miss_off = f->off + f->span; /* the next indices: never inserted */
  tu_unique_keys(f->misses, kb, n, f->miss_off, NULL);
  for (size_t i = 0; i < n; ++i) {
    uint64_t k = tu_get(f->keys, i, kb);
    tu_put(f->v1, i, vb, tu_value(k, f->salt1, vb));
    tu_put(f->v2, i, vb, tu_value(k, f->salt2, vb));
  }
  f->d_keys = tu_to_device(f->keys, n * kb), f->d_misses = tu_to_device(f->misses, n * kb);
  f->d_v1 = tu_to_device(f->v1, n * vb), f->d_v2 = tu_to_device(f->v2, n * vb);
  f->d_out = tu_poisoned(m * 8), f->d_kout = tu_poisoned(m * kb), f->d_vout = tu_poisoned(m * vb);
  f->d_flags = tu_poisoned(m), f->d_count = tu_poisoned(sizeof(size_t));
  return !f->d_keys || !f->d_misses || !f->d_v1 || !f->d_v2 || !f->d_out || !f->d_kout || !f->d_vout ||
         !f->d_flags || !f->d_count;
}

static size_t read_count(const fixture_t *f) { return tu_read_size(f->d_count); }

/* d_out (n values) equals want_i = expected(i); poisons it again. */
static int values_match(fixture_t *f, size_t first, size_t count, const void *want, uint64_t absent) {
  if (tu_to_host(f->out, f->d_out, count * f->vb)) return 0;
  for (size_t i = 0; i < count; ++i) {
    uint64_t w = want ? tu_get(want, first + i, f->vb) : absent, g = tu_get(f->out, i, f->vb);
    if (w != g) {
      fprintf(stderr, "    value %zu: got %llx want %llx\n", first + i, (unsigned long long)g, (unsigned long long)w);
      return 0;
    }
  }
  return cudaMemset(f->d_out, 0xA5, count * f->vb) == cudaSuccess;
}

static int flags_are(fixture_t *f, size_t count, uint8_t want) {
  if (tu_to_host(f->flags, f->d_flags, count)) return 0;
  for (size_t i = 0; i < count; ++i)
    if (f->flags[i] != want) {
      fprintf(stderr, "    flag %zu: got %d want %d\n", i, f->flags[i], want);
      return 0;
    }
  return cudaMemset(f->d_flags, 0xA5, count) == cudaSuccess;
}

/* Position in f->keys of a key of the family (accounts for skipped sentinels). */
static size_t position_of(const fixture_t *f, uint64_t idx) {
  /* tu_unique_keys skipped the indices whose keys are the two sentinels
   * (a 32-bit sequence of 100M meets one in about one run of twenty); the
   * key family is invertible, so their indices come without a scan (a scan
   * per key made retrieve_matches O(n^2)) */
  const uint64_t ones = f->kb == 4 ? 0xffffffffULL : ~0ULL, sentinels[2] = {ones, ones - 1};
  uint64_t before = 0;
  for (int j = 0; j < 2; ++j) before += tu_key_index(f->off, sentinels[j], f->kb) < idx;
  return (size_t)(idx - before);
}

/* retrieve_all: every live key once, with the value its history gives it. */
static int retrieve_matches(fixture_t *f, gcol_map_t *m, size_t half, cudaStream_t s) {
  size_t count = 0;
  if (gcol_map_retrieve_all(m, f->d_kout, f->d_vout, &count, s) != GCOL_SUCCESS || count != f->n) {
    fprintf(stderr, "    retrieve_all count %zu, want %zu\n", count, f->n);
    return 0;
  }
  void *k = malloc(f->n * f->kb + 1), *v = malloc(f->n * f->vb + 1);
  uint8_t *seen = calloc(f->span + 1, 1);
  int ok = k && v && seen && !tu_to_host(k, f->d_kout, f->n * f->kb) && !tu_to_host(v, f->d_vout, f->n * f->vb);
  for (size_t i = 0; ok && i < f->n; ++i) {
    uint64_t key = tu_get(k, i, f->kb), idx = tu_key_index(f->off, key, f->kb);
    if (idx >= f->span || seen[idx]) { ok = 0; fprintf(stderr, "    retrieved a foreign or repeated key\n"); break; }
    seen[idx] = 1;
    uint64_t want = tu_value(key, position_of(f, idx) < half ? f->salt1 : f->salt2, f->vb);
    if (tu_get(v, i, f->vb) != want) { ok = 0; fprintf(stderr, "    retrieved value mismatch\n"); }
  }
  free(k), free(v), free(seen);
  return ok;
}

/* Keys in flight per lookup tile on the tile kernels (1, or 2: issue 38's
 * tile_find_two, a test-build hook) for the tables lifecycle forces a tile on. */
static int lookup_keys = 1;

/* Every operation on n unique keys, checked step by step against what the
 * sequence of operations must leave. */
static test_result_t lifecycle(gcol_type_t kt, gcol_type_t vt, size_t n, double load, int tile, int key_cas) {
  REQUIRE_GPU();
  if (n > test_max_n()) return TEST_SKIP;
  fixture_t f;
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  CHECK(fixture_init(&f, n, gcol_type_size(kt), gcol_type_size(vt)) == 0);
  gcol_map_config_t c = gcol_map_config_default(kt, vt);
  c.capacity = (size_t)(n / load) + 1;
  c.seed = test_seed();
  gcol_map_t *m = NULL;
  CHECK_OK(gcol_map_create(&m, &c, s));
  if (tile) CHECK_OK(gcol_map_set_policy_for_testing(m, tile, key_cas));
  if (tile && lookup_keys == 2) CHECK_OK(gcol_map_set_find_keys_for_testing(m, 2));
  size_t cap = 0, size = 1, half = n / 2;
  CHECK_OK(gcol_map_capacity(m, &cap));
  CHECK(cap >= c.capacity);

  /* insert: all new */
  CHECK_OK(gcol_map_insert(m, f.d_keys, f.d_v1, n, f.d_count, s));
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == n && read_count(&f) == n);
  /* find hits and misses, contains */
  CHECK_OK(gcol_map_find(m, f.d_keys, n, f.d_out, s));
  CHECK(values_match(&f, 0, n, f.v1, 0));
  CHECK_OK(gcol_map_find(m, f.d_misses, n, f.d_out, s));
  CHECK(values_match(&f, 0, n, NULL, c.empty_value));
  CHECK_OK(gcol_map_contains(m, f.d_keys, n, f.d_flags, s));
  CHECK(flags_are(&f, n, 1));
  CHECK_OK(gcol_map_contains(m, f.d_misses, n, f.d_flags, s));
  CHECK(flags_are(&f, n, 0));
  /* insert again: the first value wins */
  CHECK_OK(gcol_map_insert(m, f.d_keys, f.d_v2, n, f.d_count, s));
  CHECK_OK(gcol_map_status(m, s));
  CHECK(read_count(&f) == 0);
  CHECK_OK(gcol_map_insert_and_find(m, f.d_keys, f.d_v2, n, f.d_out, f.d_flags, s));
  CHECK(values_match(&f, 0, n, f.v1, 0) && flags_are(&f, n, 0));
  /* insert_or_assign overwrites */
  CHECK_OK(gcol_map_insert_or_assign(m, f.d_keys, f.d_v2, n, s));
  CHECK_OK(gcol_map_find(m, f.d_keys, n, f.d_out, s));
  CHECK(values_match(&f, 0, n, f.v2, 0));
  /* erase the first half, twice */
  CHECK_OK(gcol_map_erase(m, f.d_keys, half, f.d_count, s));
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == n - half && read_count(&f) == half);
  CHECK_OK(gcol_map_erase(m, f.d_keys, half, f.d_count, s));
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == n - half && read_count(&f) == 0);
  CHECK_OK(gcol_map_contains(m, f.d_keys, half, f.d_flags, s));
  CHECK(flags_are(&f, half, 0));
  CHECK_OK(gcol_map_contains(m, (char *)f.d_keys + half * f.kb, n - half, f.d_flags, s));
  CHECK(flags_are(&f, n - half, 1));
  CHECK_OK(gcol_map_find(m, f.d_keys, half, f.d_out, s));
  CHECK(values_match(&f, 0, half, NULL, c.empty_value));
  /* re-insert the erased half through insert_and_find: each input inserts */
  CHECK_OK(gcol_map_insert_and_find(m, f.d_keys, f.d_v1, half, f.d_out, f.d_flags, s));
  CHECK(values_match(&f, 0, half, f.v1, 0) && flags_are(&f, half, 1));
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == n);
  CHECK(retrieve_matches(&f, m, half, s));
  /* clear empties it and it can be reused */
  CHECK_OK(gcol_map_clear(m, s));
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == 0);
  CHECK_OK(gcol_map_contains(m, f.d_keys, n, f.d_flags, s));
  CHECK(flags_are(&f, n, 0));
  CHECK_OK(gcol_map_insert(m, f.d_keys, f.d_v1, n, NULL, s));
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == n);

  gcol_map_destroy(m);
  CHECK_CUDA(cudaStreamSynchronize(s));
  CHECK_CUDA(cudaStreamDestroy(s));
  fixture_free(&f);
  CHECK_CUDA(cudaGetLastError());
  return TEST_PASS;
}

#define TILE_DEFAULT 0
TEST(map_gpu_n0_every_op_is_a_noop) { return lifecycle(GCOL_U64, GCOL_U64, 0, 0.5, TILE_DEFAULT, 0); }
TEST(map_gpu_n1_u64_u64) { return lifecycle(GCOL_U64, GCOL_U64, 1, 0.5, TILE_DEFAULT, 0); }
TEST(map_gpu_n1_u32_u32) { return lifecycle(GCOL_U32, GCOL_U32, 1, 0.5, TILE_DEFAULT, 0); }
TEST(map_gpu_n1000_every_pair) {
  const gcol_type_t ks[] = {GCOL_U32, GCOL_I32, GCOL_U64, GCOL_I64};
  const gcol_type_t vs[] = {GCOL_U32, GCOL_I32, GCOL_F32, GCOL_U64, GCOL_I64, GCOL_F64};
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 6; ++b)
      RUN(lifecycle(ks[a], vs[b], 1000, 0.5, TILE_DEFAULT, 0));
  return TEST_PASS;
}
TEST(map_gpu_1M_every_width_pair) {
  const gcol_type_t ks[] = {GCOL_U32, GCOL_U64}, vs[] = {GCOL_U32, GCOL_U64};
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) RUN(lifecycle(ks[a], vs[b], 1000000, 0.8, TILE_DEFAULT, 0));
  return TEST_PASS;
}
TEST(map_gpu_100M_i64_i64) { return lifecycle(GCOL_I64, GCOL_I64, 100000000, 0.5, TILE_DEFAULT, 0); }
TEST(map_gpu_100M_i32_i32) { return lifecycle(GCOL_I32, GCOL_I32, 100000000, 0.8, TILE_DEFAULT, 0); }
TEST(map_gpu_every_tile_and_claim_scheme) {
  const int tiles[] = {1, 2, 4, 8};
  for (int t = 0; t < 4; ++t)
    for (int kc = 0; kc < 2; ++kc) {
      RUN(lifecycle(GCOL_U64, GCOL_U64, 100000, 0.9, tiles[t], kc));
      RUN(lifecycle(GCOL_U32, GCOL_U64, 20000, 0.9, tiles[t], kc));
      RUN(lifecycle(GCOL_U32, GCOL_U32, 100000, 0.9, tiles[t], kc));
    }
  return TEST_PASS;
}
/* Lookups with two keys in flight per tile (tiles of 2 and more lanes; a
 * tile of one lane keeps one): hits, misses, erased keys and the claim
 * schemes at load 0.9, where many keys lie past their home bucket. */
TEST(map_gpu_two_lookup_keys_in_flight) {
  const int tiles[] = {1, 2, 4, 8};
  lookup_keys = 2;
  test_result_t r = TEST_PASS;
  for (int t = 0; t < 4 && r == TEST_PASS; ++t)
    for (int kc = 0; kc < 2 && r == TEST_PASS; ++kc) {
      r = lifecycle(GCOL_U64, GCOL_U64, 100000, 0.9, tiles[t], kc);
      if (r == TEST_PASS) r = lifecycle(GCOL_U32, GCOL_U64, 20000, 0.9, tiles[t], kc);
      if (r == TEST_PASS) r = lifecycle(GCOL_U32, GCOL_U32, 100000, 0.9, tiles[t], kc);
    }
  lookup_keys = 1;
  return r;
}
