/* GPU tests of the warp heap (include/gcol/device/warp_heap.cuh), replayed
 * through gcol_detail_heap_replay against a CPU priority queue. Payloads are
 * unique push numbers, so each pop is checked exactly: its key is the CPU
 * minimum and its payload is a live pair with that key (among equal keys the
 * heap may pop any). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sssp/sssp_internal.h"
#include "test_util.h"

/* A CPU binary min-heap of keys. */
typedef struct {
  float *k;
  size_t n;
} kheap_t;
static void kpush(kheap_t *h, float x) {
  size_t i = h->n++;
  while (i && h->k[(i - 1) / 2] > x) h->k[i] = h->k[(i - 1) / 2], i = (i - 1) / 2;
  h->k[i] = x;
}
static void kpop(kheap_t *h) {
  float x = h->k[--h->n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && h->k[c + 1] < h->k[c]) ++c;
    if (x <= h->k[c]) break;
    h->k[i] = h->k[c], i = c;
  }
  if (h->n) h->k[i] = x;
}

/* Check warp 0's results against the CPU (and every other warp against
 * warp 0); 1 when all agree. */
static int verify(const gcol_heap_op_t *ops, size_t n, uint32_t cap, const gcol_heap_result_t *res, int warps) {
  uint64_t room = (uint64_t)cap * 32;
  size_t pushes = 0;
  for (size_t i = 0; i < n; ++i) pushes += ops[i].op != GCOL_HEAP_OP_POP;
  kheap_t h = {malloc((pushes + 1) * sizeof(float)), 0};
  float *keyof = malloc((n + 1) * sizeof *keyof);
  uint8_t *live = calloc(n + 1, 1);
  int ok = h.k && keyof && live;
  for (size_t i = 0; i < n && ok;) {
    const gcol_heap_op_t *o = &ops[i];
    const gcol_heap_result_t *r = &res[i];
    size_t k = o->op == GCOL_HEAP_OP_BULK ? o->count : 1;
    if (o->op == GCOL_HEAP_OP_POP) {
      if (h.n == 0) {
        ok = r->ok == 0 && r->size == 0;
      } else {
        ok = r->ok == 1 && r->key == h.k[0] && r->val < n && live[r->val] && keyof[r->val] == r->key;
        if (ok) live[r->val] = 0, kpop(&h);
      }
    } else {
      int fits = h.n + k <= room;
      for (size_t j = i; j < i + k && h.n < room; ++j) {
        kpush(&h, ops[j].key);
        keyof[ops[j].val] = ops[j].key, live[ops[j].val] = 1;
      }
      ok = r->ok == (uint32_t)fits && h.n > 0 && r->key == h.k[0] && live[r->val] && keyof[r->val] == r->key;
    }
    ok = ok && r->size == h.n;
    if (!ok) fprintf(stderr, "    op %zu (type %u): got ok %u key %g size %u; cpu size %zu min %g\n", i, o->op,
                     r->ok, r->key, r->size, h.n, h.n ? h.k[0] : 0.0);
    i += k;
  }
  for (int w = 1; w < warps && ok; ++w)
    for (size_t i = 0; i < n && ok; ++i) ok = memcmp(&res[i], &res[w * n + i], sizeof *res) == 0 || ops[i].op == GCOL_HEAP_OP_BULK;
  free(h.k), free(keyof), free(live);
  return ok;
}

/* Random ops: phases that grow, churn and drain; keys from a tiny set (many
 * duplicates) or any float, with some -0, +0 and INFINITY. */
static gcol_heap_op_t *random_ops(size_t n, int tiny_keys, tu_rng_t *r) {
  gcol_heap_op_t *ops = malloc(n * sizeof *ops);
  for (size_t i = 0; i < n;) {
    int phase = (int)(i * 3 / n); /* 0 grow, 1 churn, 2 drain */
    uint64_t x = tu_next(r) % 100;
    int push_pct = phase == 0 ? 75 : phase == 1 ? 50 : 20;
    if ((int)x >= push_pct) {
      ops[i].op = GCOL_HEAP_OP_POP, ops[i].count = 0, ops[i].key = 0, ops[i].val = 0;
      ++i;
      continue;
    }
    size_t k = tu_next(r) % 3 == 0 ? 1 + tu_next(r) % 32 : 1;
    if (k > n - i) k = n - i;
    uint32_t op = k > 1 || tu_next(r) % 2 ? GCOL_HEAP_OP_BULK : GCOL_HEAP_OP_PUSH;
    for (size_t j = i; j < i + k; ++j) {
      uint64_t y = tu_next(r);
      float key = tiny_keys ? (float)(y % 7) : (float)((double)(y >> 11) * 0x1p-53 * 2000.0 - 1000.0);
      if (y % 97 == 0) key = -0.0f;
      if (y % 89 == 0) key = INFINITY;
      ops[j].op = op, ops[j].count = (uint32_t)k, ops[j].key = key, ops[j].val = (uint32_t)j;
    }
    i += k;
  }
  return ops;
}

static int run_case(size_t n, uint32_t cap, int shared_meta, int warps, int tiny, tu_rng_t *r) {
  gcol_heap_op_t *ops = random_ops(n, tiny, r);
  gcol_heap_result_t *res = malloc((size_t)warps * n * sizeof *res);
  gcol_status_t st = gcol_detail_heap_replay(ops, n, cap, shared_meta, warps, res);
  if (st != GCOL_SUCCESS) fprintf(stderr, "    replay: %s\n", gcol_status_string(st));
  int ok = st == GCOL_SUCCESS && verify(ops, n, cap, res, warps);
  if (!ok) fprintf(stderr, "    case n=%zu cap=%u shared=%d warps=%d tiny=%d\n", n, cap, shared_meta, warps, tiny);
  free(ops), free(res);
  return ok;
}

TEST(heap_gpu_random_ops_match_cpu) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0xbeef};
  size_t n = test_max_n() < 20000 ? 2000 : 20000;
  /* tiny capacities overflow often; 1,057 nodes is the solver's shape */
  const uint32_t caps[] = {1, 2, 3, 34, 40, 1057};
  for (size_t c = 0; c < sizeof caps / sizeof *caps; ++c)
    for (int tiny = 0; tiny < 2; ++tiny) {
      CHECK(run_case(n, caps[c], 1, c == 5 ? 8 : 2, tiny, &r));
      CHECK(run_case(n, caps[c], 0, 1, tiny, &r));
    }
  return TEST_PASS;
}

/* Up to a million pairs in, then all out, in bulk and single pushes. */
TEST(heap_gpu_one_million_pairs) {
  REQUIRE_GPU();
  size_t pairs = test_max_n() < 1000000 ? test_max_n() : 1000000;
  if (pairs < 64) pairs = 64;
  tu_rng_t r = {test_seed() ^ 0x1e6};
  size_t n = 2 * pairs;
  gcol_heap_op_t *ops = malloc(n * sizeof *ops);
  for (size_t i = 0; i < pairs;) { /* pushes: runs of 32-wide bulks and singles */
    size_t k = (i / 4096) % 2 ? 1 : 32;
    if (k > pairs - i) k = pairs - i;
    for (size_t j = i; j < i + k; ++j) {
      ops[j].op = k == 1 ? GCOL_HEAP_OP_PUSH : GCOL_HEAP_OP_BULK, ops[j].count = (uint32_t)k;
      ops[j].key = (float)(tu_next(&r) % 100000), ops[j].val = (uint32_t)j;
    }
    i += k;
  }
  for (size_t i = pairs; i < n; ++i) ops[i].op = GCOL_HEAP_OP_POP, ops[i].count = 0, ops[i].key = 0, ops[i].val = 0;
  uint32_t cap = (uint32_t)((pairs + 31) / 32) + 1;
  gcol_heap_result_t *res = malloc(n * sizeof *res);
  CHECK_OK(gcol_detail_heap_replay(ops, n, cap, 0, 1, res));
  int ok = verify(ops, n, cap, res, 1);
  free(ops), free(res);
  CHECK(ok);
  return TEST_PASS;
}

TEST(heap_gpu_overflow_is_reported_and_contained) {
  REQUIRE_GPU();
  gcol_heap_op_t ops[80];
  size_t n = 0;
  for (int i = 0; i < 30; ++i) ops[n] = (gcol_heap_op_t){GCOL_HEAP_OP_PUSH, 1, (float)(i % 5), (uint32_t)n}, ++n;
  for (int i = 0; i < 5; ++i) ops[n] = (gcol_heap_op_t){GCOL_HEAP_OP_BULK, 5, (float)i, (uint32_t)n}, ++n;
  ops[n] = (gcol_heap_op_t){GCOL_HEAP_OP_PUSH, 1, 0.5f, (uint32_t)n}, ++n;   /* full: refused */
  ops[n] = (gcol_heap_op_t){GCOL_HEAP_OP_POP, 0, 0, 0}, ++n;
  ops[n] = (gcol_heap_op_t){GCOL_HEAP_OP_PUSH, 1, -1.0f, (uint32_t)n}, ++n;  /* fits again */
  for (int i = 0; i < 34; ++i) ops[n] = (gcol_heap_op_t){GCOL_HEAP_OP_POP, 0, 0, 0}, ++n;
  gcol_heap_result_t res[80];
  CHECK_OK(gcol_detail_heap_replay(ops, n, 1, 1, 1, res));
  CHECK(res[29].size == 30 && res[30].ok == 0 && res[30].size == 32); /* 2 of the bulk of 5 fit */
  CHECK(res[35].ok == 0 && res[35].size == 32);
  CHECK(res[37].ok == 1 && res[37].key == -1.0f && res[37].size == 32);
  CHECK(res[n - 1].ok == 0 && res[n - 2].ok == 0 && res[n - 3].ok == 1);
  CHECK(verify(ops, n, 1, res, 1));
  return TEST_PASS;
}
