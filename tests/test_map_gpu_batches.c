/* GPU tests of the map's batch semantics: duplicates inside a batch,
 * insert_or_apply, a full map, and sentinel keys in the input. */
#include <math.h>
#include <string.h>
#include "harness.h"
#include "test_util.h"
#include "map/map_internal.h"

static gcol_map_t *make_map(gcol_type_t kt, gcol_type_t vt, size_t capacity, cudaStream_t s) {
  gcol_map_config_t c = gcol_map_config_default(kt, vt);
  c.capacity = capacity;
  c.seed = test_seed() ^ 0x1234;
  gcol_map_t *m = NULL;
  return gcol_map_create(&m, &c, s) == GCOL_SUCCESS ? m : NULL;
}

/* n inputs over d distinct keys (pool[r[i]]), random values. */
typedef struct {
  size_t n, d, kb, vb;
  uint32_t *r;
  void *keys, *vals;
  void *d_keys, *d_vals;
} dup_batch_t;

static int dup_batch(dup_batch_t *b, size_t n, size_t d, size_t kb, size_t vb, uint64_t salt) {
  tu_rng_t rng = {test_seed() ^ salt};
  b->n = n, b->d = d, b->kb = kb, b->vb = vb;
  b->r = malloc(n * 4 + 4), b->keys = malloc(n * kb + 8), b->vals = malloc(n * vb + 8);
  void *pool = malloc(d * kb + 8);
  if (!b->r || !b->keys || !b->vals || !pool) return 1;
  tu_unique_keys(pool, kb, d, tu_mix64(test_seed() + salt) & 0xfffffffULL, NULL);
  for (size_t i = 0; i < n; ++i) {
    b->r[i] = (uint32_t)(i < d ? i : tu_next(&rng) % d); /* every pool key appears */
    tu_put(b->keys, i, kb, tu_get(pool, b->r[i], kb));
    tu_put(b->vals, i, vb, tu_next(&rng));
  }
  free(pool);
  b->d_keys = tu_to_device(b->keys, n * kb), b->d_vals = tu_to_device(b->vals, n * vb);
  return !b->d_keys || !b->d_vals;
}
static void dup_free(dup_batch_t *b) {
  free(b->r), free(b->keys), free(b->vals), tu_free(b->d_keys), tu_free(b->d_vals);
}

/* Duplicates in one batch: one copy stored, size counts it once, and
 * insert_and_find agrees across copies with exactly one inserter. */
static test_result_t duplicates(gcol_type_t kt, gcol_type_t vt, size_t n, size_t d) {
  REQUIRE_GPU();
  if (n > test_max_n()) return TEST_SKIP;
  size_t kb = gcol_type_size(kt), vb = gcol_type_size(vt), size = 0, count = 0;
  dup_batch_t b;
  CHECK(dup_batch(&b, n, d, kb, vb, 7) == 0);
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  gcol_map_t *m = make_map(kt, vt, 2 * d, s);
  CHECK(m);
  void *d_out = tu_poisoned(n * vb), *out = malloc(n * vb);
  uint8_t *d_ins = tu_poisoned(n), *ins = malloc(n);
  size_t *d_count = tu_poisoned(sizeof(size_t));
  uint64_t *stored = malloc(d * 8);
  uint32_t *inserters = calloc(d, 4);
  CHECK(d_out && out && d_ins && ins && d_count && stored && inserters);

  CHECK_OK(gcol_map_insert_and_find(m, b.d_keys, b.d_vals, n, d_out, d_ins, s));
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == d);
  CHECK(!tu_to_host(out, d_out, n * vb) && !tu_to_host(ins, d_ins, n));
  for (size_t i = 0; i < n; ++i) { /* the inserter's own value is what everyone sees */
    CHECK(ins[i] == 0 || ins[i] == 1);
    if (ins[i]) {
      inserters[b.r[i]]++;
      stored[b.r[i]] = tu_get(b.vals, i, vb);
    }
  }
  for (size_t j = 0; j < d; ++j) CHECK(inserters[j] == 1);
  for (size_t i = 0; i < n; ++i) CHECK(tu_get(out, i, vb) == stored[b.r[i]]);
  /* find agrees with insert_and_find */
  CHECK_OK(gcol_map_find(m, b.d_keys, n, d_out, s));
  CHECK(!tu_to_host(out, d_out, n * vb));
  for (size_t i = 0; i < n; ++i) CHECK(tu_get(out, i, vb) == stored[b.r[i]]);
  /* plain insert of the same batch into a fresh map: size d, count d */
  CHECK_OK(gcol_map_clear(m, s));
  CHECK_OK(gcol_map_insert(m, b.d_keys, b.d_vals, n, d_count, s));
  CHECK_CUDA(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == d && count == d);
  /* insert_or_assign with duplicates stores one of the batch's values */
  CHECK_OK(gcol_map_insert_or_assign(m, b.d_keys, b.d_vals, n, s));
  CHECK_OK(gcol_map_find(m, b.d_keys, n, d_out, s));
  CHECK(!tu_to_host(out, d_out, n * vb));
  memset(inserters, 0, d * 4);
  for (size_t i = 0; i < n; ++i) inserters[b.r[i]] += tu_get(out, i, vb) == tu_get(b.vals, i, vb);
  for (size_t j = 0; j < d; ++j) CHECK(inserters[j] >= 1);
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == d);

  gcol_map_destroy(m);
  CHECK_CUDA(cudaStreamDestroy(s));
  tu_free(d_out), tu_free(d_ins), tu_free(d_count), free(out), free(ins), free(stored), free(inserters);
  dup_free(&b);
  return TEST_PASS;
}

TEST(map_gpu_duplicates_in_batch) {
  RUN(duplicates(GCOL_U64, GCOL_U64, 1000, 10));
  RUN(duplicates(GCOL_U32, GCOL_U32, 1000000, 1000));
  RUN(duplicates(GCOL_U64, GCOL_U64, 1000000, 100000));
  RUN(duplicates(GCOL_U32, GCOL_U64, 100000, 3));
  RUN(duplicates(GCOL_U64, GCOL_U32, 100000, 50000));
  return TEST_PASS;
}

/* ---- insert_or_apply vs a CPU fold ------------------------------------- */
static double as_double(uint64_t bits, gcol_type_t t) {
  switch (t) {
    case GCOL_U32: return (double)(uint32_t)bits;
    case GCOL_I32: return (double)(int32_t)(uint32_t)bits;
    case GCOL_U64: return (double)bits;
    case GCOL_I64: return (double)(int64_t)bits;
    case GCOL_F32: { float f; uint32_t u = (uint32_t)bits; memcpy(&f, &u, 4); return f; }
    default: { double x; memcpy(&x, &bits, 8); return x; }
  }
}
static uint64_t from_double(double x, gcol_type_t t) {
  if (t == GCOL_F32) { float f = (float)x; uint32_t u; memcpy(&u, &f, 4); return u; }
  uint64_t u;
  memcpy(&u, &x, 8);
  return u;
}
/* CPU fold in the value type's own arithmetic (floats in double). */
static uint64_t cpu_apply(uint64_t a, uint64_t b, gcol_op_t op, gcol_type_t t, double *acc) {
  if (t == GCOL_F32 || t == GCOL_F64) {
    double y = as_double(b, t);
    *acc = op == GCOL_OP_ADD ? *acc + y : op == GCOL_OP_MIN ? fmin(*acc, y) : fmax(*acc, y);
    return from_double(*acc, t);
  }
  int wide = gcol_type_size(t) == 8, sgn = t == GCOL_I32 || t == GCOL_I64;
  uint64_t mask = wide ? ~0ULL : 0xffffffffULL, r;
  if (op == GCOL_OP_ADD) r = (a + b) & mask;
  else {
    int less = sgn ? (wide ? (int64_t)b < (int64_t)a : (int32_t)b < (int32_t)a) : b < a;
    r = (op == GCOL_OP_MIN) == less ? b : a;
  }
  return r;
}

/* grouped: 0, or the shared table (bytes) of a grouped apply forced at any
 * batch size (map_grouped.cuh); extras: APPLY_SENTINELS, a few inputs past
 * the first d hold the sentinel keys (skipped, latched as RESERVED_KEY);
 * APPLY_HOT_KEY, every other input past the first d is pool key 0 (half the
 * batch on one key). */
enum { APPLY_SENTINELS = 1, APPLY_HOT_KEY = 2 };
static test_result_t apply(gcol_type_t kt, gcol_type_t vt, gcol_op_t op, size_t n, size_t d, int key_cas,
                           size_t grouped, int extras) {
  const int sentinels = extras & APPLY_SENTINELS;
  REQUIRE_GPU();
  if (n > test_max_n()) return TEST_SKIP;
  size_t kb = gcol_type_size(kt), vb = gcol_type_size(vt);
  dup_batch_t b;
  CHECK(dup_batch(&b, n, d, kb, vb, 11 + op) == 0);
  tu_rng_t rng = {test_seed() + 99};
  for (size_t i = 0; i < n; ++i) { /* modest values so float sums stay exact-ish */
    uint64_t x = tu_next(&rng);
    if (vt == GCOL_F32 || vt == GCOL_F64) tu_put(b.vals, i, vb, from_double((double)(x % 1000) / 8.0 - 60, vt));
    else tu_put(b.vals, i, vb, vt == GCOL_I32 || vt == GCOL_I64 ? (uint64_t)((int64_t)(x % 2001) - 1000) : x);
  }
  CHECK_CUDA(cudaMemcpy(b.d_vals, b.vals, n * vb, cudaMemcpyHostToDevice));
  for (size_t i = d + 1; (extras & APPLY_HOT_KEY) && i < n; i += 2) { /* input 0 is pool key 0; sentinels go over */
    tu_put(b.keys, i, kb, tu_get(b.keys, 0, kb));
    b.r[i] = 0;
  }
  const size_t reserved_at[] = {d + 1, d + (n - d) / 2, n - 1};
  uint64_t ones = kb == 4 ? 0xffffffffULL : ~0ULL; /* -1 and -2: the default sentinels */
  for (int i = 0; sentinels && i < 3; ++i) {
    CHECK(reserved_at[i] >= d && reserved_at[i] < n);
    tu_put(b.keys, reserved_at[i], kb, ones - (i & 1));
    b.r[reserved_at[i]] = UINT32_MAX;
  }
  if (extras) CHECK_CUDA(cudaMemcpy(b.d_keys, b.keys, n * kb, cudaMemcpyHostToDevice));
  /* inputs 0..d/2-1 (distinct pool keys) go in first with insert: apply must fold onto them */
  size_t pre = d / 2;
  uint64_t *want = malloc(d * 8);
  double *acc = malloc(d * sizeof(double));
  uint8_t *has = calloc(d, 1);
  void *out = malloc(n * vb + 8);
  CHECK(want && acc && has && out);
  for (size_t i = 0; i < pre; ++i)
    if (!has[b.r[i]]) has[b.r[i]] = 1, want[b.r[i]] = tu_get(b.vals, i, vb), acc[b.r[i]] = as_double(want[b.r[i]], vt);
  for (size_t i = 0; i < n; ++i) {
    uint32_t j = b.r[i];
    uint64_t v = tu_get(b.vals, i, vb);
    if (j == UINT32_MAX) continue; /* a sentinel key */
    if (!has[j]) has[j] = 1, want[j] = v, acc[j] = as_double(v, vt);
    else want[j] = cpu_apply(want[j], v, op, vt, &acc[j]);
  }
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  gcol_map_t *m = make_map(kt, vt, 2 * d, s);
  CHECK(m);
  if (key_cas) CHECK_OK(gcol_map_set_policy_for_testing(m, 4, 1));
  CHECK_OK(gcol_map_set_grouped_for_testing(m, grouped ? 0 : SIZE_MAX, grouped));
  void *d_out = tu_poisoned(n * vb);
  CHECK(d_out);
  CHECK_OK(gcol_map_insert(m, b.d_keys, b.d_vals, pre, NULL, s));
  CHECK_OK(gcol_map_insert_or_apply(m, b.d_keys, b.d_vals, n, op, s));
  CHECK(gcol_map_grouped_calls_for_testing(m) == (grouped ? 1u : 0u));
  /* scattered once when 2^9 shared tables hold 0.8 of the map's slots
     (2^9 partitions at most), else twice: the grouped tests take both */
  const size_t shared_slots = grouped / (kb + vb + 2) & ~(size_t)3;
  if (grouped) CHECK(gcol_map_grouped_passes_for_testing(m) == (shared_slots * 512 * 5 / 4 >= 2 * d ? 1 : 2));
  CHECK_STATUS(gcol_map_status(m, s), sentinels ? GCOL_ERROR_RESERVED_KEY : GCOL_SUCCESS);
  CHECK_OK(gcol_map_find(m, b.d_keys, d, d_out, s)); /* inputs 0..d-1 are pool keys 0..d-1 */
  size_t size = 0;
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == d);
  CHECK(!tu_to_host(out, d_out, d * vb));
  for (size_t j = 0; j < d; ++j) {
    uint64_t got = tu_get(out, j, vb);
    if (vt == GCOL_F32 || vt == GCOL_F64) {
      double g = as_double(got, vt), w = acc[j];
      if (!(fabs(g - w) <= 1e-5 * fabs(w) + 1e-3)) {
        fprintf(stderr, "    key %zu: got %g want %g (type %d op %d)\n", j, g, w, vt, op);
        return TEST_FAIL;
      }
    } else if (got != want[j]) {
      fprintf(stderr, "    key %zu: got %llx want %llx (type %d op %d)\n", j, (unsigned long long)got,
              (unsigned long long)want[j], vt, op);
      return TEST_FAIL;
    }
  }
  gcol_map_destroy(m);
  CHECK_CUDA(cudaStreamDestroy(s));
  tu_free(d_out), free(want), free(acc), free(has), free(out);
  dup_free(&b);
  return TEST_PASS;
}

TEST(map_gpu_insert_or_apply_every_type_and_op) {
  const gcol_type_t vs[] = {GCOL_U32, GCOL_I32, GCOL_F32, GCOL_U64, GCOL_I64, GCOL_F64};
  for (int v = 0; v < 6; ++v)
    for (int op = GCOL_OP_ADD; op <= GCOL_OP_MAX; ++op) {
      RUN(apply(GCOL_U64, vs[v], (gcol_op_t)op, 200000, 2000, 0, 0, 0));
      RUN(apply(GCOL_U32, vs[v], (gcol_op_t)op, 100000, 50000, 0, 0, 0));
    }
  return TEST_PASS;
}
/* The same through the grouped path (a batch many times its map's size):
 * a shared table that holds each partition's keys, and one of 32 slots, so
 * most keys overflow into the map and keys land there in partials. */
TEST(map_gpu_insert_or_apply_grouped_every_type_and_op) {
  const gcol_type_t vs[] = {GCOL_U32, GCOL_I32, GCOL_F32, GCOL_U64, GCOL_I64, GCOL_F64};
  for (int v = 0; v < 6; ++v)
    for (int op = GCOL_OP_ADD; op <= GCOL_OP_MAX; ++op) {
      /* a shared slot: key, value and a 2-byte list place */
      const size_t slot = 8 + gcol_type_size(vs[v]) + 2;
      RUN(apply(GCOL_U64, vs[v], (gcol_op_t)op, 200000, 2000, 0, 96 << 10, 0));
      RUN(apply(GCOL_I32, vs[v], (gcol_op_t)op, 400000, 20000, 0, 96 << 10, 0));
      RUN(apply(GCOL_U64, vs[v], (gcol_op_t)op, 200000, 2000, 0, 32 * slot, 0));
      /* 64 shared slots against 50K map slots: 2^10 partitions, two passes */
      RUN(apply(GCOL_U64, vs[v], (gcol_op_t)op, 200000, 25000, 0, 64 * slot, 0));
    }
  return TEST_PASS;
}
TEST(map_gpu_insert_or_apply_grouped_sentinels_and_claims) {
  for (int op = GCOL_OP_ADD; op <= GCOL_OP_MAX; ++op) {
    RUN(apply(GCOL_I64, GCOL_I64, (gcol_op_t)op, 200000, 2000, 0, 96 << 10, 1));
    RUN(apply(GCOL_I32, GCOL_F32, (gcol_op_t)op, 200000, 2000, 0, 96 << 10, 1));
    RUN(apply(GCOL_U64, GCOL_F64, (gcol_op_t)op, 200000, 2000, 1, 96 << 10, 0));
    RUN(apply(GCOL_I32, GCOL_I32, (gcol_op_t)op, 200000, 25000, 0, 64 * (4 + 4 + 2), 1)); /* two passes */
    /* half the batch on one key: warps fold their lanes of one slot first */
    RUN(apply(GCOL_I64, GCOL_I64, (gcol_op_t)op, 400000, 2000, 0, 96 << 10, APPLY_HOT_KEY));
    RUN(apply(GCOL_U64, GCOL_F64, (gcol_op_t)op, 400000, 2000, 0, 96 << 10, APPLY_HOT_KEY | APPLY_SENTINELS));
    RUN(apply(GCOL_I32, GCOL_F32, (gcol_op_t)op, 400000, 25000, 0, 64 * (4 + 4 + 2), APPLY_HOT_KEY));
  }
  RUN(apply(GCOL_I64, GCOL_I64, GCOL_OP_ADD, 200000, 2000, 0, 0, 1)); /* the direct path, alike */
  return TEST_PASS;
}
TEST(map_gpu_insert_or_apply_pre_sm90_claim) {
  const gcol_type_t vs[] = {GCOL_I32, GCOL_F64, GCOL_I64};
  for (int v = 0; v < 3; ++v)
    for (int op = GCOL_OP_ADD; op <= GCOL_OP_MAX; ++op) RUN(apply(GCOL_U64, vs[v], (gcol_op_t)op, 200000, 2000, 1, 0, 0));
  return TEST_PASS;
}
TEST(map_gpu_insert_or_apply_counts_1M_keys) {
  RUN(apply(GCOL_I64, GCOL_I64, GCOL_OP_ADD, 8000000, 1000000, 0, 0, 0));
  RUN(apply(GCOL_I64, GCOL_I64, GCOL_OP_ADD, 8000000, 1000000, 0, 96 << 10, 0));
  return TEST_PASS;
}

/* insert_or_apply ADD with no values counts every key's occurrences (1, or
 * 1.0 for floats), twice over, on the thread-per-key kernels (a small map)
 * and on tiles; MIN with no values is refused and changes nothing. */
static test_result_t count_without_values(gcol_type_t vt, int tile, int grouped) {
  REQUIRE_GPU();
  const size_t n = 100000, d = 1000, kb = 8, vb = gcol_type_size(vt);
  if (n > test_max_n()) return TEST_SKIP;
  void *pool = malloc(d * kb), *keys = malloc(n * kb), *out = malloc(d * vb);
  unsigned *copies = calloc(d, sizeof *copies);
  CHECK(pool && keys && out && copies);
  tu_unique_keys(pool, kb, d, test_seed() & 0xffff, NULL);
  tu_rng_t r = {test_seed() | 1};
  for (size_t i = 0; i < n; ++i) {
    size_t j = i < d ? i : (size_t)(tu_next(&r) % d);
    tu_put(keys, i, kb, tu_get(pool, j, kb));
    ++copies[j];
  }
  void *d_keys = tu_to_device(keys, n * kb), *d_out = tu_poisoned(d * vb);
  CHECK(d_keys && d_out);
  gcol_map_t *m = make_map(GCOL_U64, vt, 4 * d, 0);
  CHECK(m);
  if (tile) CHECK_OK(gcol_map_set_policy_for_testing(m, tile, 0));
  if (grouped) CHECK_OK(gcol_map_set_grouped_for_testing(m, 0, 96 << 10));
  CHECK_OK(gcol_map_insert_or_apply(m, d_keys, NULL, n, GCOL_OP_ADD, 0));
  CHECK_OK(gcol_map_insert_or_apply(m, d_keys, NULL, n, GCOL_OP_ADD, 0));
  CHECK(gcol_map_grouped_calls_for_testing(m) == (grouped ? 2u : 0u));
  CHECK_STATUS(gcol_map_insert_or_apply(m, d_keys, NULL, n, GCOL_OP_MIN, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "d_values") != NULL);
  size_t size = 0;
  CHECK_OK(gcol_map_size(m, &size, 0));
  CHECK(size == d);
  CHECK_OK(gcol_map_find(m, d_keys, d, d_out, 0)); /* the first d inputs are the d keys */
  CHECK(!tu_to_host(out, d_out, d * vb));
  for (size_t j = 0; j < d; ++j) {
    double got = tu_bits_to_double(vt, tu_get(out, j, vb));
    if (vt == GCOL_U32 || vt == GCOL_I32 || vt == GCOL_U64 || vt == GCOL_I64) got = (double)tu_get(out, j, vb);
    CHECK(got == 2.0 * copies[j]);
  }
  CHECK_OK(gcol_map_status(m, 0));
  gcol_map_destroy(m);
  tu_free(d_keys), tu_free(d_out);
  free(pool), free(keys), free(out), free(copies);
  return TEST_PASS;
}

TEST(map_gpu_insert_or_apply_counts_without_values) {
  const gcol_type_t vts[] = {GCOL_U32, GCOL_I64, GCOL_F32, GCOL_F64};
  for (int i = 0; i < 4; ++i)
    for (int tile = 0; tile <= 4; tile += 4) RUN(count_without_values(vts[i], tile, 0));
  for (int i = 0; i < 4; ++i) RUN(count_without_values(vts[i], 0, 1));
  return TEST_PASS;
}

/* Where the library itself groups (no test hook): counts (no values) into
 * a table in the L2 are grouped when the scratch is cheap (a user
 * allocator), sums into it are not, and without a caching allocator (the
 * default pool keeps nothing) counts are not either; an allocator that
 * refuses the scratch gets the direct path, and no message. The results
 * agree. (ctx: NULL, or an int that refuses every allocation when set.) */
static void *plain_alloc(void *ctx, size_t bytes, cudaStream_t s) {
  void *p = NULL;
  if (ctx && *(const int *)ctx) return NULL;
  return cudaMallocAsync(&p, bytes, s) == cudaSuccess ? p : NULL;
}
static void plain_free(void *ctx, void *p, size_t bytes, cudaStream_t s) {
  (void)ctx, (void)bytes;
  (void)cudaFreeAsync(p, s);
}
TEST(map_gpu_insert_or_apply_groups_counts_by_itself) {
  REQUIRE_GPU();
  const size_t n = (size_t)1 << 22, d = 50000;
  if (n > test_max_n()) return TEST_SKIP;
  uint64_t *keys = malloc(n * 8);
  uint32_t *ones = malloc(n * 4);
  uint32_t *want = calloc(d, 4), *got = malloc(d * 4);
  CHECK(keys && ones && want && got);
  tu_rng_t r = {test_seed() | 1};
  for (size_t i = 0; i < n; ++i) {
    size_t j = i < d ? i : (size_t)(tu_next(&r) % d);
    keys[i] = j * 0x9e3779b97f4a7c15ULL + 1, ++want[j];
    ones[i] = 1;
  }
  void *d_keys = tu_to_device(keys, n * 8), *d_ones = tu_to_device(ones, n * 4), *d_out = tu_poisoned(d * 4);
  CHECK(d_keys && d_ones && d_out);
  /* counts with an allocator; sums with it; counts without; counts with one that refuses */
  for (int form = 0; form < 4; ++form) {
    gcol_map_config_t c = gcol_map_config_default(GCOL_U64, GCOL_U32);
    int refuse = 0;
    c.capacity = 2 * d; /* 1.6 MB: in the L2 of any GPU that runs this */
    if (form != 2) c.allocator.alloc = plain_alloc, c.allocator.free = plain_free, c.allocator.ctx = &refuse;
    gcol_map_t *m = NULL;
    CHECK_OK(gcol_map_create(&m, &c, 0));
    CHECK_OK(gcol_map_watch_for_testing(m)); /* count its grouped calls; it decides alone */
    refuse = form == 3;
    CHECK_STATUS(gcol_map_insert_or_apply(NULL, d_keys, NULL, n, GCOL_OP_ADD, 0), GCOL_ERROR_INVALID_ARGUMENT);
    char before[512];
    snprintf(before, sizeof before, "%s", gcol_last_error_message());
    CHECK_OK(gcol_map_insert_or_apply(m, d_keys, form == 1 ? d_ones : NULL, n, GCOL_OP_ADD, 0));
    CHECK(strcmp(gcol_last_error_message(), before) == 0);
    CHECK(gcol_map_grouped_calls_for_testing(m) == (form == 0 ? 1u : 0u));
    CHECK_OK(gcol_map_find(m, d_keys, d, d_out, 0)); /* inputs 0..d-1: key j is input j */
    CHECK(!tu_to_host(got, d_out, d * 4));
    for (size_t j = 0; j < d; ++j) CHECK(got[j] == want[j]);
    gcol_map_destroy(m);
  }
  tu_free(d_keys), tu_free(d_ones), tu_free(d_out);
  free(keys), free(ones), free(want), free(got);
  return TEST_PASS;
}

/* ---- a full fixed map ------------------------------------------------------ */
static test_result_t fill_past_full(gcol_type_t kt, gcol_type_t vt, size_t request, int tile) {
  REQUIRE_GPU();
  size_t kb = gcol_type_size(kt), vb = gcol_type_size(vt), cap = 0, size = 0, count = 0;
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  gcol_map_t *m = make_map(kt, vt, request, s);
  CHECK(m);
  if (tile) CHECK_OK(gcol_map_set_policy_for_testing(m, tile, 0));
  CHECK_OK(gcol_map_capacity(m, &cap));
  size_t first = (size_t)(0.95 * (double)cap), extra = 2 * cap, n = first + extra;
  void *keys = malloc(n * kb), *vals = malloc(n * vb);
  CHECK(keys && vals);
  tu_unique_keys(keys, kb, n, test_seed() & 0xffffff, NULL);
  for (size_t i = 0; i < n; ++i) tu_put(vals, i, vb, tu_value(tu_get(keys, i, kb), 5, vb));
  void *d_keys = tu_to_device(keys, n * kb), *d_vals = tu_to_device(vals, n * vb), *d_out = tu_poisoned(n * vb);
  void *d_kout = tu_poisoned(n * kb);
  size_t *d_count = tu_poisoned(sizeof(size_t));
  uint8_t *d_found = tu_poisoned(n), *found = malloc(n);
  CHECK(d_keys && d_vals && d_out && d_kout && d_count && d_found && found);
  /* load 0.95: everything fits */
  CHECK_OK(gcol_map_insert(m, d_keys, d_vals, first, d_count, s));
  CHECK_OK(gcol_map_status(m, s));
  CHECK_CUDA(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
  CHECK(count == first);
  /* past full: every key that fits is stored, the call reports FULL, no hang */
  CHECK_OK(gcol_map_insert(m, (char *)d_keys + first * kb, (char *)d_vals + first * vb, extra, d_count, s));
  CHECK_STATUS(gcol_map_status(m, s), GCOL_ERROR_FULL);
  CHECK_OK(gcol_map_status(m, s)); /* the latch was cleared */
  CHECK_CUDA(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
  CHECK(count == cap - first);
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == cap);
  CHECK_OK(gcol_map_contains(m, d_keys, first, d_found, s));
  CHECK(!tu_to_host(found, d_found, first));
  for (size_t i = 0; i < first; ++i) CHECK(found[i] == 1);
  CHECK_OK(gcol_map_retrieve_all(m, d_kout, d_out, &count, s));
  CHECK(count == cap);
  /* erase some, then new keys reuse their tombstones in a map with no empty slot */
  CHECK_OK(gcol_map_erase(m, d_keys, 100, d_count, s));
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == cap - 100);
  CHECK_OK(gcol_map_insert(m, (char *)d_keys + (n - 100) * kb, d_vals, 100, d_count, s));
  CHECK_CUDA(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
  CHECK_OK(gcol_map_size(m, &size, s));
  /* keys n-100..n-1 may already be in (they were in the overflowing batch) */
  CHECK(size == cap - 100 + count && count <= 100);
  CHECK_OK(gcol_map_contains(m, (char *)d_keys + (n - 100) * kb, 100, d_found, s));
  CHECK(!tu_to_host(found, d_found, 100));
  size_t present = 0;
  for (size_t i = 0; i < 100; ++i) present += found[i];
  CHECK(present == 100); /* 100 free slots took every new key */
  gcol_map_destroy(m);
  CHECK_CUDA(cudaStreamDestroy(s));
  tu_free(d_keys), tu_free(d_vals), tu_free(d_out), tu_free(d_kout), tu_free(d_count), tu_free(d_found);
  free(keys), free(vals), free(found);
  return TEST_PASS;
}

TEST(map_gpu_fill_to_095_then_past_full) {
  RUN(fill_past_full(GCOL_U64, GCOL_U64, 10000, 0));
  RUN(fill_past_full(GCOL_U32, GCOL_U32, 10000, 0));
  RUN(fill_past_full(GCOL_U32, GCOL_U64, 3000, 8));
  RUN(fill_past_full(GCOL_U64, GCOL_U32, 20000, 1));
  return TEST_PASS;
}

/* A grouped insert_or_apply past a full map: FULL, the map full, no hang;
 * the keys it holds hold their inputs' sum (every partial of a key applies
 * once the key is in). */
TEST(map_gpu_insert_or_apply_grouped_past_full) {
  REQUIRE_GPU();
  const size_t n = 400000, d = 20000;
  dup_batch_t b;
  CHECK(dup_batch(&b, n, d, 8, 8, 31) == 0);
  for (size_t i = 0; i < n; ++i) tu_put(b.vals, i, 8, 1 + (i & 7));
  CHECK_CUDA(cudaMemcpy(b.d_vals, b.vals, n * 8, cudaMemcpyHostToDevice));
  uint64_t *sum = calloc(d, 8), *got = malloc(d * 8);
  uint8_t *found = malloc(d);
  CHECK(sum && got && found);
  for (size_t i = 0; i < n; ++i) sum[b.r[i]] += 1 + (i & 7);
  gcol_map_t *m = make_map(GCOL_U64, GCOL_U64, d / 4, 0);
  CHECK(m);
  CHECK_OK(gcol_map_set_grouped_for_testing(m, 0, 96 << 10));
  size_t cap = 0, size = 0, present = 0;
  CHECK_OK(gcol_map_capacity(m, &cap));
  CHECK_OK(gcol_map_insert_or_apply(m, b.d_keys, b.d_vals, n, GCOL_OP_ADD, 0));
  CHECK(gcol_map_grouped_calls_for_testing(m) == 1);
  CHECK_STATUS(gcol_map_status(m, 0), GCOL_ERROR_FULL);
  CHECK_OK(gcol_map_size(m, &size, 0));
  CHECK(size == cap);
  void *d_out = tu_poisoned(d * 8);
  uint8_t *d_found = tu_poisoned(d);
  CHECK(d_out && d_found);
  CHECK_OK(gcol_map_find(m, b.d_keys, d, d_out, 0)); /* inputs 0..d-1 are the d keys */
  CHECK_OK(gcol_map_contains(m, b.d_keys, d, d_found, 0));
  CHECK(!tu_to_host(got, d_out, d * 8) && !tu_to_host(found, d_found, d));
  for (size_t j = 0; j < d; ++j)
    if (found[j]) {
      ++present;
      CHECK(got[j] <= sum[j]);
    }
  CHECK(present == cap);
  gcol_map_destroy(m);
  tu_free(d_out), tu_free(d_found), free(sum), free(got), free(found);
  dup_free(&b);
  return TEST_PASS;
}

/* ---- sentinel keys in the input ------------------------------------------- */
TEST(map_gpu_reserved_keys_are_skipped_and_reported) {
  REQUIRE_GPU();
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  for (int w = 0; w < 2; ++w) {
    gcol_type_t kt = w ? GCOL_I64 : GCOL_I32;
    size_t kb = gcol_type_size(kt), n = 1000, size = 0, count = 0;
    gcol_map_t *m = make_map(kt, GCOL_U64, 4 * n, s);
    CHECK(m);
    void *keys = malloc(n * kb);
    uint64_t *vals = malloc(n * 8);
    CHECK(keys && vals);
    tu_unique_keys(keys, kb, n, 12345, NULL);
    uint64_t ones = kb == 4 ? 0xffffffffULL : ~0ULL; /* -1 and -2: the default sentinels */
    tu_put(keys, 10, kb, ones), tu_put(keys, 500, kb, ones - 1), tu_put(keys, 999, kb, ones);
    for (size_t i = 0; i < n; ++i) vals[i] = i;
    void *d_keys = tu_to_device(keys, n * kb), *d_vals = tu_to_device(vals, n * 8), *d_out = tu_poisoned(n * 8);
    size_t *d_count = tu_poisoned(sizeof(size_t));
    CHECK(d_keys && d_vals && d_out && d_count);
    CHECK_OK(gcol_map_insert(m, d_keys, d_vals, n, d_count, s)); /* asynchronous: latched */
    CHECK_CUDA(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
    CHECK(count == n - 3);
    CHECK_STATUS(gcol_map_size(m, &size, s), GCOL_ERROR_RESERVED_KEY);
    CHECK(size == n - 3);
    CHECK_OK(gcol_map_status(m, s));
    CHECK_OK(gcol_map_find(m, d_keys, n, d_out, s));
    CHECK_STATUS(gcol_map_status(m, s), GCOL_ERROR_RESERVED_KEY);
    CHECK(!tu_to_host(vals, d_out, n * 8));
    for (size_t i = 0; i < n; ++i) CHECK(vals[i] == (i == 10 || i == 500 || i == 999 ? ~0ULL : i));
    gcol_map_destroy(m);
    /* with other sentinels, all ones is an ordinary key */
    gcol_map_config_t c = gcol_map_config_default(kt, GCOL_U64);
    c.empty_key = 7, c.erased_key = 8;
    tu_put(keys, 500, kb, 9);
    CHECK_CUDA(cudaMemcpy(d_keys, keys, n * kb, cudaMemcpyHostToDevice));
    CHECK_OK(gcol_map_create(&m, &c, s));
    CHECK_OK(gcol_map_insert(m, d_keys, d_vals, n, d_count, s));
    CHECK_OK(gcol_map_size(m, &size, s));
    CHECK(size == n - 1); /* all-ones key appears twice */
    gcol_map_destroy(m);
    tu_free(d_keys), tu_free(d_vals), tu_free(d_out), tu_free(d_count), free(keys), free(vals);
  }
  CHECK_CUDA(cudaStreamDestroy(s));
  return TEST_PASS;
}

TEST(map_gpu_reserve_and_bad_ops) {
  REQUIRE_GPU();
  gcol_map_t *m = make_map(GCOL_U64, GCOL_U64, 1000, 0);
  CHECK(m);
  size_t cap = 0;
  CHECK_OK(gcol_map_capacity(m, &cap));
  CHECK_OK(gcol_map_reserve(m, cap, 0));
  CHECK_STATUS(gcol_map_reserve(m, cap + 1, 0), GCOL_ERROR_FULL);
  CHECK_STATUS(gcol_map_insert_or_apply(m, &cap, &cap, 1, (gcol_op_t)7, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_insert(m, NULL, &cap, 1, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_set_policy_for_testing(m, 3, 0), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_map_config_t c = gcol_map_config_default(GCOL_U64, GCOL_U64);
  c.capacity = (size_t)1 << 50; /* far more than any GPU holds */
  gcol_map_t *big = NULL;
  gcol_status_t st = gcol_map_create(&big, &c, 0);
  CHECK((st == GCOL_ERROR_OUT_OF_MEMORY || st == GCOL_ERROR_INVALID_ARGUMENT) && big == NULL);
  gcol_map_destroy(m);
  CHECK_CUDA(cudaDeviceSynchronize());
  return TEST_PASS;
}
