/* GPU tests of growable maps: random batch sequences that make the map grow
 * many times, checked against a CPU model after every step; out-of-memory
 * injected at every growth through the allocator hook; reserve; clear. */
#include <string.h>
#include "harness.h"
#include "test_util.h"
#include "map/map_internal.h"

/* ---- an allocator that fails on demand ---------------------------------- */
typedef struct {
  unsigned calls, fail_at; /* fail the fail_at-th call (0: never) */
  size_t budget;           /* fail past this many bytes in use (0: no limit) */
  size_t in_use, peak;
} limit_alloc_t;

static void *limit_alloc(void *ctx, size_t bytes, cudaStream_t s) {
  limit_alloc_t *a = ctx;
  void *p = NULL;
  if (++a->calls == a->fail_at || (a->budget && a->in_use + bytes > a->budget)) return NULL;
  if (cudaMallocAsync(&p, bytes, s) != cudaSuccess) {
    (void)cudaGetLastError(); /* not sticky: leave no error for the next launch check */
    return NULL;
  }
  a->in_use += bytes;
  if (a->in_use > a->peak) a->peak = a->in_use;
  return p;
}
static void limit_free(void *ctx, void *p, size_t bytes, cudaStream_t s) {
  limit_alloc_t *a = ctx;
  a->in_use -= bytes;
  cudaFreeAsync(p, s);
}

/* Nonzero: growable maps use this tile size and claim scheme (key_cas 1: the
 * pre-sm_90 scheme, key CAS then value) instead of the tuned default. */
static int use_tile, use_key_cas;
/* Nonzero: growable maps use this growth factor. */
static int use_growth_factor;
static int use_region_bits; /* erases in region order into 2^bits regions */

static gcol_map_t *make_growable(gcol_type_t kt, gcol_type_t vt, size_t capacity, double mlf, limit_alloc_t *a,
                                 cudaStream_t s) {
  gcol_map_config_t c = gcol_map_config_default(kt, vt);
  c.capacity = capacity, c.max_load_factor = mlf, c.growable = 1, c.seed = test_seed() ^ 0x6789;
  if (use_growth_factor) c.growth_factor = use_growth_factor;
  c.allocator.alloc = limit_alloc, c.allocator.free = limit_free, c.allocator.ctx = a;
  gcol_map_t *m = NULL;
  if (gcol_map_create(&m, &c, s) != GCOL_SUCCESS) return NULL;
  if ((use_tile && gcol_map_set_policy_for_testing(m, use_tile, use_key_cas) != GCOL_SUCCESS) ||
      (use_region_bits && gcol_map_set_region_for_testing(m, use_region_bits) != GCOL_SUCCESS)) {
    gcol_map_destroy(m);
    return NULL;
  }
  return m;
}

/* ---- the CPU model: a pool of distinct keys, each present or not --------- */
typedef struct {
  size_t p, kb, vb, size;
  uint64_t off, empty_value, mask;
  void *pool, *d_pool;      /* the keys, host and device */
  uint8_t *present;
  uint64_t *val;
  /* a batch and the outputs, sized for max_batch inputs or the pool */
  size_t max_batch;
  uint32_t *idx;
  void *keys, *vals, *out, *kout, *vout;
  uint8_t *flags;
  void *d_keys, *d_vals, *d_out, *d_kout, *d_vout;
  uint8_t *d_flags;
  size_t *d_count;
} model_t;

static void model_free(model_t *md) {
  free(md->pool), free(md->present), free(md->val), free(md->idx), free(md->keys), free(md->vals);
  free(md->out), free(md->kout), free(md->vout), free(md->flags);
  tu_free(md->d_pool), tu_free(md->d_keys), tu_free(md->d_vals), tu_free(md->d_out), tu_free(md->d_kout);
  tu_free(md->d_vout), tu_free(md->d_flags), tu_free(md->d_count);
}

static int model_init(model_t *md, size_t p, size_t max_batch, gcol_type_t kt, gcol_type_t vt) {
  memset(md, 0, sizeof *md);
  md->p = p, md->max_batch = max_batch, md->kb = gcol_type_size(kt), md->vb = gcol_type_size(vt);
  md->mask = md->vb == 4 ? 0xffffffffULL : ~0ULL;
  md->empty_value = md->mask;
  size_t big = p > max_batch ? p : max_batch;
  md->pool = malloc(p * md->kb), md->present = calloc(p, 1), md->val = malloc(p * 8), md->idx = malloc(max_batch * 4);
  md->keys = malloc(max_batch * md->kb), md->vals = malloc(max_batch * md->vb), md->out = malloc(big * md->vb);
  md->kout = malloc(p * md->kb), md->vout = malloc(p * md->vb), md->flags = malloc(big);
  if (!md->pool || !md->present || !md->val || !md->idx || !md->keys || !md->vals || !md->out || !md->kout ||
      !md->vout || !md->flags)
    return 1;
  /* a family without skipped sentinels, so a key's family index is its pool index */
  uint64_t span = 0;
  for (md->off = tu_mix64(test_seed()) & 0xffffffffffULL;; md->off += p + 2) {
    tu_unique_keys(md->pool, md->kb, p, md->off, &span);
    if (span == p) break;
  }
  md->d_pool = tu_to_device(md->pool, p * md->kb);
  md->d_keys = tu_poisoned(max_batch * md->kb), md->d_vals = tu_poisoned(max_batch * md->vb);
  md->d_out = tu_poisoned(big * md->vb), md->d_flags = tu_poisoned(big);
  md->d_kout = tu_poisoned(p * md->kb), md->d_vout = tu_poisoned(p * md->vb);
  md->d_count = tu_poisoned(sizeof(size_t));
  return !md->d_pool || !md->d_keys || !md->d_vals || !md->d_out || !md->d_flags || !md->d_kout || !md->d_vout ||
         !md->d_count;
}

/* The map holds exactly the model's pairs: size, find over the pool, and
 * retrieve_all (every pair once, right value, nothing else). */
static test_result_t check_model(model_t *md, gcol_map_t *m, cudaStream_t s) {
  size_t size = 0, count = 0;
  CHECK_OK(gcol_map_size(m, &size, s));
  if (size != md->size) {
    fprintf(stderr, "    size %zu, model %zu\n", size, md->size);
    return TEST_FAIL;
  }
  CHECK_OK(gcol_map_find(m, md->d_pool, md->p, md->d_out, s));
  CHECK(!tu_to_host(md->out, md->d_out, md->p * md->vb));
  for (size_t i = 0; i < md->p; ++i) {
    uint64_t want = md->present[i] ? md->val[i] : md->empty_value, got = tu_get(md->out, i, md->vb);
    if (got != want) {
      fprintf(stderr, "    key %zu: got %llx want %llx (present %d)\n", i, (unsigned long long)got,
              (unsigned long long)want, md->present[i]);
      return TEST_FAIL;
    }
  }
  CHECK_OK(gcol_map_retrieve_all(m, md->d_kout, md->d_vout, &count, s));
  CHECK(count == md->size);
  CHECK(!tu_to_host(md->kout, md->d_kout, count * md->kb) && !tu_to_host(md->vout, md->d_vout, count * md->vb));
  uint8_t *seen = calloc(md->p, 1);
  CHECK(seen);
  for (size_t i = 0; i < count; ++i) {
    uint64_t j = tu_key_index(md->off, tu_get(md->kout, i, md->kb), md->kb);
    int ok = j < md->p && md->present[j] && !seen[j] && tu_get(md->vout, i, md->vb) == md->val[j];
    if (!ok) {
      free(seen);
      fprintf(stderr, "    retrieve_all pair %zu is foreign, repeated or wrong\n", i);
      return TEST_FAIL;
    }
    seen[j] = 1;
  }
  free(seen);
  return TEST_PASS;
}

typedef enum { OP_INSERT, OP_ASSIGN, OP_APPLY, OP_INSERT_FIND, OP_ERASE, OP_COUNT } op_t;

/* n random pool keys (some batches full of duplicates); duplicates in one
 * batch share their value, so every operation has one right answer. */
static int make_batch(model_t *md, tu_rng_t *r, size_t n, uint64_t salt) {
  size_t range = tu_next(r) % 4 == 0 ? n / 8 + 1 : md->p;
  if (range > md->p) range = md->p;
  for (size_t i = 0; i < n; ++i) {
    md->idx[i] = (uint32_t)(tu_next(r) % range);
    uint64_t k = tu_get(md->pool, md->idx[i], md->kb);
    tu_put(md->keys, i, md->kb, k);
    tu_put(md->vals, i, md->vb, tu_value(k, salt, md->vb));
  }
  return cudaMemcpy(md->d_keys, md->keys, n * md->kb, cudaMemcpyHostToDevice) != cudaSuccess ||
         cudaMemcpy(md->d_vals, md->vals, n * md->vb, cudaMemcpyHostToDevice) != cudaSuccess;
}

static gcol_status_t run_op(model_t *md, gcol_map_t *m, op_t op, size_t n, cudaStream_t s) {
  switch (op) {
    case OP_INSERT: return gcol_map_insert(m, md->d_keys, md->d_vals, n, md->d_count, s);
    case OP_ASSIGN: return gcol_map_insert_or_assign(m, md->d_keys, md->d_vals, n, s);
    case OP_APPLY: return gcol_map_insert_or_apply(m, md->d_keys, md->d_vals, n, GCOL_OP_ADD, s);
    case OP_INSERT_FIND: return gcol_map_insert_and_find(m, md->d_keys, md->d_vals, n, md->d_out, md->d_flags, s);
    default: return gcol_map_erase(m, md->d_keys, n, md->d_count, s);
  }
}

/* Apply the batch to the model; check the call's own outputs against it. */
static test_result_t model_apply(model_t *md, op_t op, size_t n) {
  size_t changed = 0;
  uint8_t *before = NULL;
  if (op == OP_INSERT_FIND) {
    before = malloc(n + 1);
    CHECK(before);
    for (size_t i = 0; i < n; ++i) before[i] = md->present[md->idx[i]];
  }
  for (size_t i = 0; i < n; ++i) {
    uint32_t j = md->idx[i];
    uint64_t v = tu_get(md->vals, i, md->vb);
    if (op == OP_ERASE) {
      changed += md->present[j];
      md->size -= md->present[j];
      md->present[j] = 0;
      continue;
    }
    if (!md->present[j]) {
      md->present[j] = 1, md->val[j] = v, ++md->size, ++changed;
      continue;
    }
    if (op == OP_ASSIGN) md->val[j] = v;
    if (op == OP_APPLY) md->val[j] = (md->val[j] + v) & md->mask;
  }
  if (op == OP_INSERT || op == OP_ERASE) {
    size_t c = (size_t)-1;
    CHECK_CUDA(cudaMemcpy(&c, md->d_count, sizeof c, cudaMemcpyDeviceToHost));
    CHECK(c == changed);
  }
  if (op == OP_INSERT_FIND) {
    CHECK(!tu_to_host(md->out, md->d_out, n * md->vb) && !tu_to_host(md->flags, md->d_flags, n));
    uint32_t *inserters = calloc(md->p, 4);
    CHECK(inserters);
    for (size_t i = 0; i < n; ++i) {
      CHECK(tu_get(md->out, i, md->vb) == md->val[md->idx[i]] && md->flags[i] <= 1);
      inserters[md->idx[i]] += md->flags[i];
    }
    for (size_t i = 0; i < n; ++i) CHECK(inserters[md->idx[i]] == (before[i] ? 0u : 1u));
    free(inserters), free(before);
  }
  return TEST_PASS;
}

/* A random sequence of `steps` batches of up to max_batch inputs, checked
 * after every step. With inject, the first try of every insert-type call
 * gets no device memory: a call that had to grow returns
 * OUT_OF_MEMORY and the map must still equal the model, then the retry
 * succeeds. Returns how often the capacity changed in *growths. */
static test_result_t sequence(gcol_type_t kt, gcol_type_t vt, size_t capacity, double mlf, size_t p,
                              size_t max_batch, int steps, int inject, int *growths) {
  REQUIRE_GPU();
  if (p > test_max_n() || max_batch > test_max_n()) return TEST_SKIP;
  model_t md;
  limit_alloc_t a = {0, 0, 0, 0, 0};
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  CHECK(model_init(&md, p, max_batch, kt, vt) == 0);
  gcol_map_t *m = make_growable(kt, vt, capacity, mlf, &a, s);
  CHECK(m);
  tu_rng_t r = {test_seed() * 31 + p};
  size_t cap = 0, cap_now = 0;
  int ooms = 0;
  *growths = 0;
  CHECK_OK(gcol_map_capacity(m, &cap));
  for (int step = 0; step < steps; ++step) {
    op_t op = (op_t)(tu_next(&r) % OP_COUNT);
    size_t n = step == 0 ? max_batch : tu_next(&r) % (max_batch + 1);
    CHECK(make_batch(&md, &r, n, (uint64_t)step * 7919 + 1) == 0);
    gcol_status_t st = GCOL_ERROR_OUT_OF_MEMORY; /* not run yet */
    if (inject && op != OP_ERASE) {
      a.budget = a.in_use + 1; /* nothing more fits: the growth's early and exact allocations both fail */
      st = run_op(&md, m, op, n, s);
      a.budget = 0;
      if (st == GCOL_ERROR_OUT_OF_MEMORY) {
        ++ooms;
        CHECK_OK(gcol_map_capacity(m, &cap_now));
        CHECK(cap_now == cap);
        RUN(check_model(&md, m, s));
      }
    }
    if (st == GCOL_ERROR_OUT_OF_MEMORY) st = run_op(&md, m, op, n, s);
    CHECK_OK(st);
    RUN(model_apply(&md, op, n));
    RUN(check_model(&md, m, s));
    CHECK_OK(gcol_map_capacity(m, &cap_now));
    CHECK(cap_now >= cap);
    /* a growth multiplies the slots by the factor at least; a purge keeps them */
    CHECK(cap_now == cap || cap_now >= (size_t)(use_growth_factor ? use_growth_factor : 2) * cap);
    CHECK(md.size <= gcol_map_load_limit(cap_now, mlf)); /* the load limit holds after every call */
    *growths += cap_now != cap;
    cap = cap_now;
  }
  CHECK(!inject || ooms >= *growths); /* every growth went through the allocator */
  /* clear keeps the capacity and the map is reusable */
  CHECK_OK(gcol_map_clear(m, s));
  memset(md.present, 0, md.p), md.size = 0;
  RUN(check_model(&md, m, s));
  CHECK_OK(gcol_map_capacity(m, &cap_now));
  CHECK(cap_now == cap);
  CHECK(make_batch(&md, &r, max_batch, 424242) == 0);
  CHECK_OK(run_op(&md, m, OP_INSERT, max_batch, s));
  RUN(model_apply(&md, OP_INSERT, max_batch));
  RUN(check_model(&md, m, s));
  CHECK_OK(run_op(&md, m, OP_ERASE, max_batch, s)); /* and out again: at least one erase */
  RUN(model_apply(&md, OP_ERASE, max_batch));
  RUN(check_model(&md, m, s));
  CHECK((gcol_map_region_calls_for_testing(m) > 0) == (use_region_bits > 0)); /* maps order only erases */
  gcol_map_destroy(m);
  CHECK_CUDA(cudaStreamSynchronize(s));
  CHECK(a.in_use == 0); /* everything allocated went back */
  CHECK_CUDA(cudaStreamDestroy(s));
  model_free(&md);
  return TEST_PASS;
}

TEST(map_growable_gpu_from_capacity_1_every_width_pair) {
  const gcol_type_t ks[] = {GCOL_U64, GCOL_U32, GCOL_U32, GCOL_I64}, vs[] = {GCOL_U64, GCOL_U32, GCOL_U64, GCOL_I32};
  for (int i = 0; i < 4; ++i) {
    int growths = 0;
    RUN(sequence(ks[i], vs[i], 1, 0.8, 20000, 3000, 60, 1, &growths));
    CHECK(growths >= 3);
  }
  return TEST_PASS;
}

/* 40-step sequences of the width pairs ks x vs (count of them) from
 * capacity 1 with *knob = value (a use_* setting above), then back to 0. */
static test_result_t sequences_with(int *knob, int value, int count, const gcol_type_t *ks, const gcol_type_t *vs) {
  for (int i = 0; i < count; ++i) {
    int growths = 0;
    *knob = value;
    test_result_t r = sequence(ks[i], vs[i], 1, 0.8, 20000, 3000, 40, 1, &growths);
    *knob = 0;
    RUN(r);
    CHECK(growths >= 2);
  }
  return TEST_PASS;
}

TEST(map_growable_gpu_growth_factor_4) {
  const gcol_type_t ks[] = {GCOL_U64, GCOL_U32}, vs[] = {GCOL_U64, GCOL_U32};
  return sequences_with(&use_growth_factor, 4, 2, ks, vs);
}

/* Erases in region order (the scatter of map_grouped.cuh over 8 runs of
 * buckets first), with growth, tombstones and injected allocation failures. */
TEST(map_growable_gpu_erase_in_region_order) {
  const gcol_type_t ks[] = {GCOL_U64, GCOL_U32, GCOL_I64}, vs[] = {GCOL_U64, GCOL_U32, GCOL_I32};
  return sequences_with(&use_region_bits, 3, 3, ks, vs);
}

TEST(map_growable_gpu_pre_sm90_claim) {
  int growths = 0;
  use_tile = 4, use_key_cas = 1;
  test_result_t r = sequence(GCOL_U64, GCOL_U64, 1, 0.8, 20000, 3000, 40, 1, &growths);
  use_tile = 0, use_key_cas = 0;
  RUN(r);
  CHECK(growths >= 3);
  return TEST_PASS;
}

/* Every tile size, at load 0.95 where many pairs sit past their first bucket
 * and a rebuild defers them to its second pass (map_rebuild.cuh). */
TEST(map_growable_gpu_every_tile_at_high_load) {
  const int tiles[] = {1, 2, 4, 8};
  for (int i = 0; i < 4; ++i) {
    int g64 = 0, g32 = 0;
    use_tile = tiles[i];
    test_result_t r = sequence(GCOL_U64, GCOL_U64, 1, 0.95, 20000, 3000, 30, 0, &g64);
    if (r == TEST_PASS) r = sequence(GCOL_U32, GCOL_U32, 1, 0.95, 20000, 3000, 30, 0, &g32);
    use_tile = 0;
    RUN(r);
    CHECK(g64 >= 3 && g32 >= 3);
  }
  return TEST_PASS;
}

TEST(map_growable_gpu_load_factor_extremes) {
  int growths = 0;
  RUN(sequence(GCOL_U64, GCOL_U64, 1, 0.1, 10000, 2000, 40, 1, &growths));
  CHECK(growths >= 3);
  RUN(sequence(GCOL_U32, GCOL_U32, 1, 0.95, 10000, 2000, 40, 1, &growths));
  CHECK(growths >= 3);
  return TEST_PASS;
}

TEST(map_growable_gpu_from_1M_slots) {
  int growths = 0;
  RUN(sequence(GCOL_I64, GCOL_I64, 1000000, 0.8, 6000000, 2000000, 14, 1, &growths));
  CHECK(growths >= 1);
  RUN(sequence(GCOL_I32, GCOL_I32, 1000000, 0.8, 6000000, 2000000, 14, 0, &growths));
  return TEST_PASS;
}

/* ---- out of memory by byte budget, in create and in a growth ---------------- */
TEST(map_growable_gpu_out_of_memory_keeps_every_pair) {
  REQUIRE_GPU();
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  /* create: each of its allocations failing gives OUT_OF_MEMORY and no leak */
  for (unsigned k = 1; k <= 2; ++k) {
    limit_alloc_t a = {0, k, 0, 0, 0};
    gcol_map_config_t c = gcol_map_config_default(GCOL_U64, GCOL_U64);
    c.growable = 1, c.allocator.alloc = limit_alloc, c.allocator.free = limit_free, c.allocator.ctx = &a;
    gcol_map_t *m = (gcol_map_t *)&c;
    CHECK_STATUS(gcol_map_create(&m, &c, s), GCOL_ERROR_OUT_OF_MEMORY);
    CHECK(m == NULL && a.in_use == 0);
  }
  model_t md;
  limit_alloc_t a = {0, 0, 0, 0, 0};
  CHECK(model_init(&md, 50000, 20000, GCOL_U64, GCOL_U32) == 0);
  gcol_map_t *m = make_growable(GCOL_U64, GCOL_U32, 1000, 0.8, &a, s);
  CHECK(m);
  tu_rng_t r = {test_seed() + 5};
  size_t cap = 0, cap2 = 0;
  for (int round = 0; round < 6; ++round) {
    CHECK_OK(gcol_map_capacity(m, &cap));
    CHECK(make_batch(&md, &r, md.max_batch, (uint64_t)round + 100) == 0);
    a.budget = a.in_use + 1; /* nothing more fits */
    gcol_status_t st = gcol_map_insert(m, md.d_keys, md.d_vals, md.max_batch, md.d_count, s);
    CHECK(st == GCOL_ERROR_OUT_OF_MEMORY || st == GCOL_SUCCESS);
    if (st == GCOL_ERROR_OUT_OF_MEMORY) {
      CHECK_OK(gcol_map_capacity(m, &cap2));
      CHECK(cap2 == cap);
      RUN(check_model(&md, m, s));
      /* the map still answers every operation, erase and small inserts included */
      CHECK_OK(gcol_map_erase(m, md.d_keys, 10, md.d_count, s));
      RUN(model_apply(&md, OP_ERASE, 10));
      RUN(check_model(&md, m, s));
      a.budget = 0;
      CHECK_OK(gcol_map_insert(m, md.d_keys, md.d_vals, md.max_batch, md.d_count, s));
    }
    a.budget = 0;
    RUN(model_apply(&md, OP_INSERT, md.max_batch));
    RUN(check_model(&md, m, s));
  }
  /* reserve fails the same way */
  CHECK_OK(gcol_map_capacity(m, &cap));
  a.budget = a.in_use + 1;
  CHECK_STATUS(gcol_map_reserve(m, 4 * cap, s), GCOL_ERROR_OUT_OF_MEMORY);
  CHECK_OK(gcol_map_capacity(m, &cap2));
  CHECK(cap2 == cap);
  RUN(check_model(&md, m, s));
  a.budget = 0;
  /* an impossible batch size is refused before the table is touched */
  CHECK_STATUS(gcol_map_reserve(m, (size_t)1 << 60, s), GCOL_ERROR_OUT_OF_MEMORY);
  RUN(check_model(&md, m, s));
  gcol_map_destroy(m);
  CHECK_CUDA(cudaStreamSynchronize(s));
  CHECK(a.in_use == 0);
  CHECK_CUDA(cudaStreamDestroy(s));
  model_free(&md);
  return TEST_PASS;
}

/* ---- reserve, erase-heavy use, one huge batch, fixed maps' allocations ---- */
TEST(map_growable_gpu_reserve_then_insert_without_growth) {
  REQUIRE_GPU();
  size_t n = 1000000 < test_max_n() ? 1000000 : test_max_n(), cap = 0, cap2 = 0, size = 0;
  limit_alloc_t a = {0, 0, 0, 0, 0};
  model_t md;
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  CHECK(model_init(&md, n, n, GCOL_U32, GCOL_U64) == 0);
  gcol_map_t *m = make_growable(GCOL_U32, GCOL_U64, 1, 0.8, &a, s);
  CHECK(m);
  /* reserve with pairs present keeps them */
  CHECK(make_batch(&md, &(tu_rng_t){test_seed() + 1}, 100, 1) == 0);
  CHECK_OK(gcol_map_insert(m, md.d_keys, md.d_vals, 100, md.d_count, s));
  RUN(model_apply(&md, OP_INSERT, 100));
  CHECK_OK(gcol_map_reserve(m, n + 100, s)); /* the 100 may all be outside the pool's last quarter */
  CHECK_OK(gcol_map_capacity(m, &cap));
  CHECK(gcol_map_load_limit(cap, 0.8) >= n + 100);
  RUN(check_model(&md, m, s));
  unsigned calls = a.calls;
  /* the whole pool in four batches: no allocation, no growth */
  CHECK_OK(gcol_map_reserve(m, n + 100, s));
  for (int b = 0; b < 4; ++b) {
    size_t lo = n * b / 4, hi = n * (b + 1) / 4;
    CHECK_OK(gcol_map_insert(m, (char *)md.d_pool + lo * md.kb, md.d_vals, hi - lo, NULL, s));
  }
  CHECK_OK(gcol_map_capacity(m, &cap2));
  CHECK(cap2 == cap && a.calls == calls);
  CHECK_OK(gcol_map_size(m, &size, s));
  CHECK(size == n);
  gcol_map_destroy(m);
  CHECK_CUDA(cudaStreamDestroy(s));
  model_free(&md);
  return TEST_PASS;
}

/* The table a growth most likely needs is allocated before the exact count
 * (map_grow.cu, early_table). A guess the count refutes (the bound counted
 * repeated keys) is given back and the next growth waits for the count; a
 * right guess is the growth's only allocation; a guess of the wrong size is
 * given back before the right size is allocated. */
TEST(map_growable_gpu_allocates_growth_early) {
  REQUIRE_GPU();
  limit_alloc_t a = {0, 0, 0, 0, 0};
  model_t md;
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  CHECK(model_init(&md, 40000, 40000, GCOL_U64, GCOL_U64) == 0);
  const char *pool = md.d_pool;
  for (int form = 0; form < 2; ++form) {
    gcol_map_t *m = make_growable(GCOL_U64, GCOL_U64, 4000, 0.8, &a, s);
    CHECK(m);
    size_t cap = 0, cap2 = 0, size = 0;
    CHECK_OK(gcol_map_capacity(m, &cap));
    size_t limit = gcol_map_load_limit(cap, 0.8), half = limit / 2, held = half;
    /* half the limit twice: the bound reaches the limit, the map holds half */
    CHECK_OK(gcol_map_insert(m, pool, md.d_vals, half, NULL, s));
    CHECK_OK(gcol_map_insert(m, pool, md.d_vals, half, NULL, s));
    unsigned calls = a.calls;
    size_t in_use = a.in_use;
    if (form == 0) {
      /* 10 new keys: the bound guesses a growth, the count finds room */
      CHECK_OK(gcol_map_insert(m, pool + held * 8, md.d_vals, 10, NULL, s));
      held += 10;
      CHECK_OK(gcol_map_capacity(m, &cap2));
      CHECK(cap2 == cap && a.calls == calls + 1 && a.in_use == in_use);
      /* one key past the limit: no guess after that count, one allocation */
      CHECK_OK(gcol_map_insert(m, pool + held * 8, md.d_vals, limit + 1 - held, NULL, s));
      held = limit + 1;
      CHECK_OK(gcol_map_capacity(m, &cap2));
      CHECK(cap2 >= 2 * cap && a.calls == calls + 2);
      /* the next growth is guessed right: still one allocation */
      size_t limit2 = gcol_map_load_limit(cap2, 0.8);
      CHECK_OK(gcol_map_insert(m, pool + held * 8, md.d_vals, limit2 + 1 - held, NULL, s));
      held = limit2 + 1;
      CHECK_OK(gcol_map_capacity(m, &cap));
      CHECK(cap >= 2 * cap2 && a.calls == calls + 3);
    } else {
      /* twice the limit in new keys: the bound asks for more slots than the count */
      CHECK_OK(gcol_map_insert(m, pool + held * 8, md.d_vals, 2 * limit, NULL, s));
      held += 2 * limit;
      size_t guess = gcol_map_growth_target(cap, 0.8, 2, 2 * half, 2 * half, 2 * limit);
      CHECK_OK(gcol_map_capacity(m, &cap2));
      CHECK(gcol_map_load_limit(cap2, 0.8) >= held && cap2 < guess && a.calls == calls + 2);
    }
    CHECK_OK(gcol_map_size(m, &size, s));
    CHECK(size == held);
    gcol_map_destroy(m);
    CHECK(a.in_use == 0);
  }
  CHECK_CUDA(cudaStreamDestroy(s));
  model_free(&md);
  return TEST_PASS;
}

TEST(map_growable_gpu_erase_heavy_stays_bounded) {
  REQUIRE_GPU();
  size_t n = 20000, cap = 0;
  limit_alloc_t a = {0, 0, 0, 0, 0};
  model_t md;
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  CHECK(model_init(&md, 50 * n, n, GCOL_I64, GCOL_I64) == 0);
  gcol_map_t *m = make_growable(GCOL_I64, GCOL_I64, 2 * n, 0.5, &a, s);
  CHECK(m);
  /* each round inserts n fresh keys and erases them: live keys stay <= n,
     tombstones pile up and must be purged, not grown around */
  for (int round = 0; round < 50; ++round) {
    void *k = (char *)md.d_pool + (size_t)round * n * md.kb;
    CHECK_OK(gcol_map_insert(m, k, md.d_vals, n, NULL, s));
    CHECK_OK(gcol_map_erase(m, k, n, md.d_count, s));
    size_t erased = 0;
    CHECK_CUDA(cudaMemcpy(&erased, md.d_count, sizeof erased, cudaMemcpyDeviceToHost));
    CHECK(erased == n);
  }
  CHECK_OK(gcol_map_capacity(m, &cap));
  CHECK(cap <= 8 * n);
  RUN(check_model(&md, m, s)); /* empty */
  gcol_map_destroy(m);
  CHECK_CUDA(cudaStreamDestroy(s));
  model_free(&md);
  return TEST_PASS;
}

TEST(map_growable_gpu_one_batch_far_past_capacity) {
  REQUIRE_GPU();
  size_t n = 4000000;
  if (n > test_max_n()) return TEST_SKIP;
  limit_alloc_t a = {0, 0, 0, 0, 0};
  model_t md;
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  CHECK(model_init(&md, n, n, GCOL_U64, GCOL_U64) == 0);
  gcol_map_t *m = make_growable(GCOL_U64, GCOL_U64, 1, 0.8, &a, s);
  CHECK(m);
  CHECK(make_batch(&md, &(tu_rng_t){test_seed() + 9}, n, 3) == 0);
  CHECK_OK(gcol_map_insert_or_apply(m, md.d_keys, md.d_vals, n, GCOL_OP_ADD, s));
  RUN(model_apply(&md, OP_APPLY, n));
  RUN(check_model(&md, m, s));
  CHECK_OK(gcol_map_status(m, s)); /* no FULL latched */
  gcol_map_destroy(m);
  CHECK_CUDA(cudaStreamDestroy(s));
  model_free(&md);
  return TEST_PASS;
}

TEST(map_fixed_gpu_allocates_through_the_hook) {
  REQUIRE_GPU();
  limit_alloc_t a = {0, 0, 0, 0, 0};
  gcol_map_config_t c = gcol_map_config_default(GCOL_U32, GCOL_U32);
  c.allocator.alloc = limit_alloc, c.allocator.free = limit_free, c.allocator.ctx = &a;
  gcol_map_t *m = NULL;
  CHECK_OK(gcol_map_create(&m, &c, 0));
  CHECK(a.calls >= 2 && a.in_use > c.capacity * 8);
  CHECK_STATUS(gcol_map_reserve(m, c.capacity * 100, 0), GCOL_ERROR_FULL); /* fixed: only checks */
  gcol_map_destroy(m);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(a.in_use == 0);
  return TEST_PASS;
}
