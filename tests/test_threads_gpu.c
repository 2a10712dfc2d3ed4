/* Stress test of gcol under host threads (issue 39 item 3): 8 pthreads, each
 * with its own non-blocking stream and its own map, set, multimap, Bloom
 * filter, HyperLogLog and string map, run random mixed operations for a
 * time budget, every answer checked against the thread's own CPU model.
 * Meanwhile all of them look up one shared map (const calls only: built
 * and checked before the threads start, written by none of them), and
 * error messages are checked to stay per thread: a thread's argument error
 * names its call and pointer in that thread only, and calls that succeed
 * (in this thread or others) leave it as it was.
 *
 * Budget: GCOL_STRESS_SECONDS (default 60 s; 5 s when GCOL_TEST_MAX_N is
 * set, as in the sanitizer runs). Keep it under GCOL_TEST_TIMEOUT (300 s).
 * The seed is the harness's (GCOL_TEST_SEED repeats the draws of each
 * thread; the interleaving of threads is the scheduler's). */
#define _POSIX_C_SOURCE 200809L /* pthread barriers, clock_gettime */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "harness.h"
#include "test_util.h"
#include "sketch_ref.h"

#define THREADS 8
#define UNIVERSE 4096          /* keys a thread's containers draw from */
#define BATCH 1024             /* most inputs of one random call */
#define SHARED_N 65536         /* pairs of the shared map */
#define MM_LIMIT 8192          /* multimap pairs before it is cleared (half its capacity) */
#define BLOOM_BYTES (16 << 10) /* 512 blocks */
#define HLL_P 12
#define STRINGS 512            /* the string map's pool per thread */
#define STR_MAX 48             /* longest pool string */
#define SHARED_OFF (1ULL << 50) /* key families: the shared map's, ... */
#define ABSENT_OFF (1ULL << 51) /* ... keys it does not hold, ... */
#define OWN_OFF(t) ((uint64_t)((t) + 1) << 40) /* ... and each thread's */

/* ---- the shared map: built on the main thread, then only looked up ---- */
static struct {
  gcol_map_t *map;
  uint64_t keys[SHARED_N];
  uint32_t values[SHARED_N];
} shared;

static atomic_int stop_all; /* set by the first thread that fails */
static pthread_barrier_t barrier;

/* ---- one thread: its containers, buffers and CPU models ---- */
typedef struct {
  int id;
  tu_rng_t r;
  cudaStream_t s;
  const char *op; /* the operation under way, for messages */
  size_t iter, calls;
  char own_msg[512]; /* this thread's last provoked error ("" before it) */
  /* containers */
  gcol_map_t *map;
  gcol_set_t *set;
  gcol_multimap_t *mm;
  gcol_bloom_t *bloom;
  gcol_hll_t *hll;
  gcol_strmap_t *str;
  /* host staging (pinned) and device buffers, UNIVERSE elements each */
  uint64_t *h_keys, *h_vals, *h_out;
  uint8_t *h_flags;
  size_t *h_counts;
  unsigned char *h_chars;
  int32_t *h_off;
  void *d_keys, *d_vals, *d_out, *d_flags, *d_counts, *d_one, *d_chars, *d_off;
  void *d_mm_keys, *d_mm_vals;
  uint64_t *h_mm_keys, *h_mm_vals;
  /* the universe and the models */
  uint64_t keys[UNIVERSE];
  uint32_t perm[UNIVERSE];
  uint32_t idx[UNIVERSE];        /* the current batch, as universe indices */
  uint8_t map_has[UNIVERSE], set_has[UNIVERSE];
  uint64_t map_val[UNIVERSE];
  uint32_t mm_count[UNIVERSE];
  size_t mm_total;
  uint64_t mm_pair_key[MM_LIMIT], mm_pair_val[MM_LIMIT];
  uint64_t bloom_seed, bloom_blocks, *bloom_words;
  uint64_t hll_seed;
  uint32_t hll_reg[1 << HLL_P];
  unsigned char pool[STRINGS][STR_MAX];
  uint32_t pool_len[STRINGS];
  int64_t str_id[STRINGS];
  uint32_t str_next;
  int mark[UNIVERSE];
  test_result_t result;
} worker_t;

/* ---- failing with a message that says which thread, call and draw ---- */
static test_result_t wfail(worker_t *w, int line, const char *what, const char *fmt, ...) {
  char detail[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  fprintf(stderr, "    %s:%d: thread %d, iteration %zu, %s: %s: %s\n", __FILE__, line, w->id, w->iter,
          w->op ? w->op : "setup", what, detail);
  atomic_store(&stop_all, 1);
  return TEST_FAIL;
}
#define WCHECK(w, cond, ...)                                         \
  do {                                                               \
    if (!(cond)) return wfail(w, __LINE__, #cond, __VA_ARGS__);      \
  } while (0)
#define WSTATUS(w, expr, want)                                                                            \
  do {                                                                                                    \
    gcol_status_t st_ = (expr);                                                                           \
    ++(w)->calls;                                                                                         \
    if (st_ != (want))                                                                                    \
      return wfail(w, __LINE__, #expr, "returned %s, wanted %s (%s)", gcol_status_string(st_),            \
                   gcol_status_string(want), gcol_last_error_message());                                 \
  } while (0)
#define WOK(w, expr) WSTATUS(w, expr, GCOL_SUCCESS)
#define WCUDA(w, expr)                                                                 \
  do {                                                                                 \
    cudaError_t e_ = (expr);                                                           \
    if (e_ != cudaSuccess) return wfail(w, __LINE__, #expr, "%s", cudaGetErrorString(e_)); \
  } while (0)

static test_result_t up(worker_t *w, void *d, const void *h, size_t bytes) {
  if (bytes) WCUDA(w, cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, w->s));
  return TEST_PASS;
}
static test_result_t down(worker_t *w, void *h, const void *d, size_t bytes) {
  if (bytes) WCUDA(w, cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, w->s));
  WCUDA(w, cudaStreamSynchronize(w->s));
  return TEST_PASS;
}

static size_t below(worker_t *w, size_t n) { return (size_t)(tu_next(&w->r) % n); }

/* A batch of n universe indices: distinct (a partial shuffle) or drawn
 * with repeats; their keys in h_keys, uploaded. */
static test_result_t draw(worker_t *w, size_t n, int distinct) {
  for (size_t i = 0; i < n; ++i) {
    if (distinct) {
      size_t j = i + below(w, UNIVERSE - i);
      uint32_t t = w->perm[i];
      w->perm[i] = w->perm[j], w->perm[j] = t;
      w->idx[i] = w->perm[i];
    } else {
      w->idx[i] = (uint32_t)below(w, UNIVERSE);
    }
    w->h_keys[i] = w->keys[w->idx[i]];
  }
  return up(w, w->d_keys, w->h_keys, n * 8);
}
static size_t batch_size(worker_t *w) {
  size_t pick = below(w, 4);
  return pick == 0 ? 1 + below(w, 8) : 1 + below(w, BATCH); /* some tiny batches */
}

/* ---- map (growable, u64 -> u64) ---- */
static test_result_t map_step(worker_t *w) {
  size_t n = batch_size(w);
  int kind = (int)below(w, 7);
  size_t want = 0;
  switch (kind) {
    case 0: /* insert: the first value stays */
      w->op = "gcol_map_insert";
      RUN(draw(w, n, 1));
      for (size_t i = 0; i < n; ++i) w->h_vals[i] = tu_next(&w->r);
      RUN(up(w, w->d_vals, w->h_vals, n * 8));
      WOK(w, gcol_map_insert(w->map, w->d_keys, w->d_vals, n, (size_t *)w->d_one, w->s));
      for (size_t i = 0; i < n; ++i)
        if (!w->map_has[w->idx[i]]) w->map_has[w->idx[i]] = 1, w->map_val[w->idx[i]] = w->h_vals[i], ++want;
      RUN(down(w, w->h_counts, w->d_one, 8));
      WCHECK(w, w->h_counts[0] == want, "inserted %zu of %zu keys, the model %zu", w->h_counts[0], n, want);
      return TEST_PASS;
    case 1: /* insert_or_assign */
      w->op = "gcol_map_insert_or_assign";
      RUN(draw(w, n, 1));
      for (size_t i = 0; i < n; ++i) w->h_vals[i] = tu_next(&w->r);
      RUN(up(w, w->d_vals, w->h_vals, n * 8));
      WOK(w, gcol_map_insert_or_assign(w->map, w->d_keys, w->d_vals, n, w->s));
      for (size_t i = 0; i < n; ++i) w->map_has[w->idx[i]] = 1, w->map_val[w->idx[i]] = w->h_vals[i];
      return TEST_PASS;
    case 2: { /* insert_and_find */
      w->op = "gcol_map_insert_and_find";
      RUN(draw(w, n, 1));
      for (size_t i = 0; i < n; ++i) w->h_vals[i] = tu_next(&w->r);
      RUN(up(w, w->d_vals, w->h_vals, n * 8));
      WOK(w, gcol_map_insert_and_find(w->map, w->d_keys, w->d_vals, n, w->d_out, (uint8_t *)w->d_flags, w->s));
      RUN(down(w, w->h_out, w->d_out, n * 8));
      RUN(down(w, w->h_flags, w->d_flags, n));
      for (size_t i = 0; i < n; ++i) {
        uint32_t k = w->idx[i];
        int fresh = !w->map_has[k];
        if (fresh) w->map_has[k] = 1, w->map_val[k] = w->h_vals[i];
        WCHECK(w, w->h_out[i] == w->map_val[k] && w->h_flags[i] == fresh,
               "input %zu (key %#llx): value %#llx inserted %d, the model %#llx %d", i,
               (unsigned long long)w->h_keys[i], (unsigned long long)w->h_out[i], w->h_flags[i],
               (unsigned long long)w->map_val[k], fresh);
      }
      return TEST_PASS;
    }
    case 3: /* insert_or_apply ADD, repeats in the batch */
      w->op = "gcol_map_insert_or_apply";
      RUN(draw(w, n, 0));
      for (size_t i = 0; i < n; ++i) w->h_vals[i] = tu_next(&w->r) & 0xffff;
      RUN(up(w, w->d_vals, w->h_vals, n * 8));
      WOK(w, gcol_map_insert_or_apply(w->map, w->d_keys, w->d_vals, n, GCOL_OP_ADD, w->s));
      for (size_t i = 0; i < n; ++i) {
        uint32_t k = w->idx[i];
        if (!w->map_has[k]) w->map_has[k] = 1, w->map_val[k] = w->h_vals[i];
        else w->map_val[k] += w->h_vals[i];
      }
      return TEST_PASS;
    case 4: /* erase, repeats in the batch */
      w->op = "gcol_map_erase";
      RUN(draw(w, n, 0));
      WOK(w, gcol_map_erase(w->map, w->d_keys, n, (size_t *)w->d_one, w->s));
      for (size_t i = 0; i < n; ++i)
        if (w->map_has[w->idx[i]]) w->map_has[w->idx[i]] = 0, ++want;
      RUN(down(w, w->h_counts, w->d_one, 8));
      WCHECK(w, w->h_counts[0] == want, "erased %zu, the model %zu", w->h_counts[0], want);
      return TEST_PASS;
    case 5: /* find */
      w->op = "gcol_map_find";
      RUN(draw(w, n, 0));
      WOK(w, gcol_map_find(w->map, w->d_keys, n, w->d_out, w->s));
      RUN(down(w, w->h_out, w->d_out, n * 8));
      for (size_t i = 0; i < n; ++i) {
        uint32_t k = w->idx[i];
        uint64_t m = w->map_has[k] ? w->map_val[k] : ~0ULL;
        WCHECK(w, w->h_out[i] == m, "key %#llx: %#llx, the model %#llx", (unsigned long long)w->h_keys[i],
               (unsigned long long)w->h_out[i], (unsigned long long)m);
      }
      return TEST_PASS;
    default: { /* contains and size */
      w->op = "gcol_map_contains";
      RUN(draw(w, n, 0));
      WOK(w, gcol_map_contains(w->map, w->d_keys, n, (uint8_t *)w->d_flags, w->s));
      RUN(down(w, w->h_flags, w->d_flags, n));
      for (size_t i = 0; i < n; ++i)
        WCHECK(w, w->h_flags[i] == w->map_has[w->idx[i]], "key %#llx: %d, the model %d",
               (unsigned long long)w->h_keys[i], w->h_flags[i], w->map_has[w->idx[i]]);
      w->op = "gcol_map_size";
      size_t size = 0;
      WOK(w, gcol_map_size(w->map, &size, w->s));
      for (size_t k = 0; k < UNIVERSE; ++k) want += w->map_has[k];
      WCHECK(w, size == want, "size %zu, the model %zu", size, want);
      return TEST_PASS;
    }
  }
}

/* ---- set (fixed, u64) ---- */
static test_result_t set_step(worker_t *w) {
  size_t n = batch_size(w), want = 0;
  int kind = (int)below(w, 25);
  if (kind == 24) { /* clear now and then: a fixed set's tombstones only go so */
    w->op = "gcol_set_clear";
    WOK(w, gcol_set_clear(w->set, w->s));
    memset(w->set_has, 0, sizeof w->set_has);
    return TEST_PASS;
  }
  kind %= 4;
  RUN(draw(w, n, 0));
  if (kind == 0) { /* insert */
    w->op = "gcol_set_insert";
    WOK(w, gcol_set_insert(w->set, w->d_keys, n, (size_t *)w->d_one, w->s));
    for (size_t i = 0; i < n; ++i)
      if (!w->set_has[w->idx[i]]) w->set_has[w->idx[i]] = 1, ++want;
    RUN(down(w, w->h_counts, w->d_one, 8));
    WCHECK(w, w->h_counts[0] == want, "inserted %zu, the model %zu", w->h_counts[0], want);
  } else if (kind == 1) { /* insert_and_contains: one input per new key gets 1 */
    w->op = "gcol_set_insert_and_contains";
    WOK(w, gcol_set_insert_and_contains(w->set, w->d_keys, n, (uint8_t *)w->d_flags, w->s));
    RUN(down(w, w->h_flags, w->d_flags, n));
    for (size_t i = 0; i < n; ++i) w->mark[w->idx[i]] = w->set_has[w->idx[i]] ? -1 : 0;
    for (size_t i = 0; i < n; ++i) {
      WCHECK(w, w->h_flags[i] <= 1 && !(w->h_flags[i] && w->mark[w->idx[i]] < 0),
             "input %zu (key %#llx, present before) got %d", i, (unsigned long long)w->h_keys[i], w->h_flags[i]);
      if (w->mark[w->idx[i]] >= 0) w->mark[w->idx[i]] += w->h_flags[i];
    }
    for (size_t i = 0; i < n; ++i) {
      WCHECK(w, w->mark[w->idx[i]] < 0 || w->mark[w->idx[i]] == 1, "new key %#llx got %d inputs flagged, not 1",
             (unsigned long long)w->h_keys[i], w->mark[w->idx[i]]);
      w->set_has[w->idx[i]] = 1;
    }
  } else if (kind == 2) { /* erase */
    w->op = "gcol_set_erase";
    WOK(w, gcol_set_erase(w->set, w->d_keys, n, (size_t *)w->d_one, w->s));
    for (size_t i = 0; i < n; ++i)
      if (w->set_has[w->idx[i]]) w->set_has[w->idx[i]] = 0, ++want;
    RUN(down(w, w->h_counts, w->d_one, 8));
    WCHECK(w, w->h_counts[0] == want, "erased %zu, the model %zu", w->h_counts[0], want);
  } else { /* contains */
    w->op = "gcol_set_contains";
    WOK(w, gcol_set_contains(w->set, w->d_keys, n, (uint8_t *)w->d_flags, w->s));
    RUN(down(w, w->h_flags, w->d_flags, n));
    for (size_t i = 0; i < n; ++i)
      WCHECK(w, w->h_flags[i] == w->set_has[w->idx[i]], "key %#llx: %d, the model %d",
             (unsigned long long)w->h_keys[i], w->h_flags[i], w->set_has[w->idx[i]]);
  }
  return TEST_PASS;
}

/* ---- multimap (fixed; the thread's engine) ---- */
static int by_pair(const void *a, const void *b) {
  const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Every stored pair equals the model's, as multisets. */
static test_result_t mm_check_all(worker_t *w) {
  w->op = "gcol_multimap_retrieve_all";
  size_t count = 0;
  WOK(w, gcol_multimap_retrieve_all(w->mm, w->d_mm_keys, w->d_mm_vals, &count, w->s));
  WCHECK(w, count == w->mm_total, "%zu pairs, the model %zu", count, w->mm_total);
  RUN(down(w, w->h_mm_keys, w->d_mm_keys, count * 8));
  RUN(down(w, w->h_mm_vals, w->d_mm_vals, count * 8));
  uint64_t *got = (uint64_t *)malloc(2 * 8 * (count + 1)), *ref = (uint64_t *)malloc(2 * 8 * (count + 1));
  WCHECK(w, got && ref, "%s", "out of host memory");
  for (size_t i = 0; i < count; ++i) {
    got[2 * i] = w->h_mm_keys[i], got[2 * i + 1] = w->h_mm_vals[i];
    ref[2 * i] = w->mm_pair_key[i], ref[2 * i + 1] = w->mm_pair_val[i];
  }
  qsort(got, count, 16, by_pair);
  qsort(ref, count, 16, by_pair);
  size_t bad = count;
  for (size_t i = 0; i < count && bad == count; ++i)
    if (got[2 * i] != ref[2 * i] || got[2 * i + 1] != ref[2 * i + 1]) bad = i;
  uint64_t gk = bad < count ? got[2 * bad] : 0, rk = bad < count ? ref[2 * bad] : 0;
  free(got), free(ref);
  WCHECK(w, bad == count, "sorted pair %zu: key %#llx, the model's %#llx", bad, (unsigned long long)gk,
         (unsigned long long)rk);
  return TEST_PASS;
}

static test_result_t mm_step(worker_t *w) {
  size_t n = batch_size(w);
  int kind = (int)below(w, 8);
  if (kind == 0 || w->mm_total + n > MM_LIMIT) { /* clear (also before it fills) */
    w->op = "gcol_multimap_clear";
    if (kind == 0) RUN(mm_check_all(w));
    w->op = "gcol_multimap_clear";
    WOK(w, gcol_multimap_clear(w->mm, w->s));
    memset(w->mm_count, 0, sizeof w->mm_count);
    w->mm_total = 0;
    return TEST_PASS;
  }
  RUN(draw(w, n, 0));
  if (kind < 4) { /* insert: every pair kept */
    w->op = "gcol_multimap_insert";
    for (size_t i = 0; i < n; ++i) w->h_vals[i] = tu_next(&w->r);
    RUN(up(w, w->d_vals, w->h_vals, n * 8));
    WOK(w, gcol_multimap_insert(w->mm, w->d_keys, w->d_vals, n, (size_t *)w->d_one, w->s));
    for (size_t i = 0; i < n; ++i) {
      ++w->mm_count[w->idx[i]];
      w->mm_pair_key[w->mm_total] = w->h_keys[i], w->mm_pair_val[w->mm_total++] = w->h_vals[i];
    }
    RUN(down(w, w->h_counts, w->d_one, 8));
    WCHECK(w, w->h_counts[0] == n, "stored %zu of %zu pairs", w->h_counts[0], n);
  } else { /* count */
    w->op = "gcol_multimap_count";
    WOK(w, gcol_multimap_count(w->mm, w->d_keys, n, (size_t *)w->d_counts, (size_t *)w->d_one, w->s));
    RUN(down(w, w->h_counts + 1, w->d_counts, n * 8));
    RUN(down(w, w->h_counts, w->d_one, 8));
    size_t total = 0;
    for (size_t i = 0; i < n; ++i) {
      total += w->mm_count[w->idx[i]];
      WCHECK(w, w->h_counts[1 + i] == w->mm_count[w->idx[i]], "key %#llx: %zu pairs, the model %u",
             (unsigned long long)w->h_keys[i], w->h_counts[1 + i], w->mm_count[w->idx[i]]);
    }
    WCHECK(w, w->h_counts[0] == total, "total %zu, the model %zu", w->h_counts[0], total);
  }
  return TEST_PASS;
}

/* ---- Bloom filter and HyperLogLog, against tests/support/sketch_ref.c ---- */
static test_result_t bloom_check_words(worker_t *w) {
  w->op = "gcol_bloom_device_view";
  gcol_bloom_view_t v;
  WOK(w, gcol_bloom_device_view(w->bloom, &v));
  WCHECK(w, v.num_blocks == w->bloom_blocks, "%llu blocks, wanted %llu", (unsigned long long)v.num_blocks,
         (unsigned long long)w->bloom_blocks);
  uint64_t *got = (uint64_t *)malloc(v.num_blocks * 32);
  WCHECK(w, got, "%s", "out of host memory");
  test_result_t r = down(w, got, v.words, v.num_blocks * 32);
  int same = r == TEST_PASS && memcmp(got, w->bloom_words, v.num_blocks * 32) == 0;
  free(got);
  RUN(r);
  WCHECK(w, same, "%s", "the filter's words differ from the reference's");
  return TEST_PASS;
}

static test_result_t bloom_step(worker_t *w) {
  size_t n = batch_size(w);
  int kind = (int)below(w, 16);
  if (kind == 0) {
    RUN(bloom_check_words(w));
    w->op = "gcol_bloom_clear";
    WOK(w, gcol_bloom_clear(w->bloom, w->s));
    memset(w->bloom_words, 0, w->bloom_blocks * 32);
    return TEST_PASS;
  }
  /* half universe keys, half any u64 */
  for (size_t i = 0; i < n; ++i) w->h_keys[i] = i & 1 ? tu_next(&w->r) : w->keys[below(w, UNIVERSE)];
  RUN(up(w, w->d_keys, w->h_keys, n * 8));
  if (kind < 8) {
    w->op = "gcol_bloom_add";
    WOK(w, gcol_bloom_add(w->bloom, w->d_keys, n, w->s));
    ref_bloom_add(w->bloom_words, w->bloom_blocks, w->bloom_seed, w->h_keys, n, 8);
    return TEST_PASS;
  }
  w->op = "gcol_bloom_contains";
  WOK(w, gcol_bloom_contains(w->bloom, w->d_keys, n, (uint8_t *)w->d_flags, w->s));
  RUN(down(w, w->h_flags, w->d_flags, n));
  uint8_t want[BATCH];
  ref_bloom_contains(w->bloom_words, w->bloom_blocks, w->bloom_seed, w->h_keys, n, 8, want);
  for (size_t i = 0; i < n; ++i)
    WCHECK(w, w->h_flags[i] == want[i], "key %#llx: %d, the reference %d", (unsigned long long)w->h_keys[i],
           w->h_flags[i], want[i]);
  return TEST_PASS;
}

static test_result_t hll_check_registers(worker_t *w) {
  w->op = "gcol_hll_export";
  static const size_t bytes = 16 + (1u << HLL_P);
  unsigned char *h = (unsigned char *)malloc(bytes);
  WCHECK(w, h, "%s", "out of host memory");
  size_t len = 0;
  gcol_status_t st = gcol_hll_export(w->hll, h, bytes, &len, w->s);
  size_t bad = 1u << HLL_P;
  for (size_t i = 0; st == GCOL_SUCCESS && i < (1u << HLL_P) && bad == (1u << HLL_P); ++i)
    if (h[16 + i] != w->hll_reg[i]) bad = i;
  unsigned got = bad < (1u << HLL_P) ? h[16 + bad] : 0;
  free(h);
  WOK(w, st);
  WCHECK(w, len == bytes, "exported %zu bytes, wanted %zu", len, bytes);
  WCHECK(w, bad == (1u << HLL_P), "register %zu: %u, the reference %u", bad, got,
         bad < (1u << HLL_P) ? w->hll_reg[bad] : 0);
  w->op = "gcol_hll_estimate";
  double est = -1;
  WOK(w, gcol_hll_estimate(w->hll, &est, w->s));
  WCHECK(w, isfinite(est) && est >= 0, "estimate %g", est);
  return TEST_PASS;
}

static test_result_t hll_step(worker_t *w) {
  size_t n = batch_size(w);
  int kind = (int)below(w, 16);
  if (kind == 0) {
    RUN(hll_check_registers(w));
    w->op = "gcol_hll_clear";
    WOK(w, gcol_hll_clear(w->hll, w->s));
    memset(w->hll_reg, 0, sizeof w->hll_reg);
    return TEST_PASS;
  }
  if (kind < 3) return hll_check_registers(w);
  for (size_t i = 0; i < n; ++i) w->h_keys[i] = i & 1 ? tu_next(&w->r) : w->keys[below(w, UNIVERSE)];
  RUN(up(w, w->d_keys, w->h_keys, n * 8));
  w->op = "gcol_hll_add";
  WOK(w, gcol_hll_add(w->hll, w->d_keys, n, GCOL_U64, w->s));
  ref_hll_add(w->hll_reg, HLL_P, w->hll_seed, w->h_keys, n, 8, 0);
  return TEST_PASS;
}

/* ---- string map (growable, dense u32 ids in first-seen order) ---- */
static void pool_make(worker_t *w) {
  for (uint32_t k = 0; k < STRINGS; ++k) { /* "" first, then "t<thread>.<k>" and a filler of k's length */
    if (k == 0) {
      w->pool_len[k] = 0;
      continue;
    }
    int len = snprintf((char *)w->pool[k], STR_MAX, "t%d.%u.", w->id, k);
    uint32_t extra = (uint32_t)(tu_mix64(k * 31 + (uint64_t)w->id) % (STR_MAX - 16));
    for (uint32_t i = 0; i < extra; ++i) w->pool[k][len + i] = (unsigned char)('a' + (k + i) % 26);
    w->pool_len[k] = (uint32_t)len + extra;
  }
}

/* n rows drawn from the pool (repeats), as an int32-offsets column; idx[] holds the strings. */
static test_result_t str_column(worker_t *w, size_t n, gcol_strings_t *col) {
  size_t bytes = 0;
  w->h_off[0] = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t k = (uint32_t)below(w, STRINGS);
    w->idx[i] = k;
    memcpy(w->h_chars + bytes, w->pool[k], w->pool_len[k]);
    bytes += w->pool_len[k];
    w->h_off[i + 1] = (int32_t)bytes;
  }
  RUN(up(w, w->d_off, w->h_off, (n + 1) * 4));
  RUN(up(w, w->d_chars, w->h_chars, bytes));
  col->d_offsets = w->d_off;
  col->offset_type = GCOL_I32;
  col->d_chars = w->d_chars;
  col->chars_bytes = bytes;
  col->n = n;
  return TEST_PASS;
}

static test_result_t str_step(worker_t *w) {
  size_t n = batch_size(w);
  int kind = (int)below(w, 12);
  gcol_strings_t col;
  if (kind == 0) {
    w->op = "gcol_strmap_clear";
    WOK(w, gcol_strmap_clear(w->str, w->s));
    for (int k = 0; k < STRINGS; ++k) w->str_id[k] = -1;
    w->str_next = 0;
    return TEST_PASS;
  }
  RUN(str_column(w, n, &col));
  if (kind < 4) { /* insert: ids in first-seen order */
    w->op = "gcol_strmap_insert";
    size_t want = 0;
    WOK(w, gcol_strmap_insert(w->str, &col, NULL, (size_t *)w->d_one, w->s));
    for (size_t i = 0; i < n; ++i)
      if (w->str_id[w->idx[i]] < 0) w->str_id[w->idx[i]] = w->str_next++, ++want;
    RUN(down(w, w->h_counts, w->d_one, 8));
    WCHECK(w, w->h_counts[0] == want, "inserted %zu strings, the model %zu", w->h_counts[0], want);
  } else if (kind < 7) { /* insert_and_find: dictionary encoding */
    w->op = "gcol_strmap_insert_and_find";
    WOK(w, gcol_strmap_insert_and_find(w->str, &col, NULL, w->d_out, (uint8_t *)w->d_flags, w->s));
    RUN(down(w, w->h_out, w->d_out, n * 4));
    RUN(down(w, w->h_flags, w->d_flags, n));
    const uint32_t *ids = (const uint32_t *)w->h_out;
    for (size_t i = 0; i < n; ++i) {
      uint32_t k = w->idx[i];
      int fresh = w->str_id[k] < 0;
      if (fresh) w->str_id[k] = w->str_next++;
      WCHECK(w, ids[i] == (uint32_t)w->str_id[k] && w->h_flags[i] == fresh,
             "row %zu (string %u): id %u inserted %d, the model %lld %d", i, k, ids[i], w->h_flags[i],
             (long long)w->str_id[k], fresh);
    }
  } else if (kind < 10) { /* find */
    w->op = "gcol_strmap_find";
    WOK(w, gcol_strmap_find(w->str, &col, w->d_out, w->s));
    RUN(down(w, w->h_out, w->d_out, n * 4));
    const uint32_t *ids = (const uint32_t *)w->h_out;
    for (size_t i = 0; i < n; ++i) {
      uint32_t want = w->str_id[w->idx[i]] < 0 ? 0xffffffffu : (uint32_t)w->str_id[w->idx[i]];
      WCHECK(w, ids[i] == want, "row %zu (string %u): %u, the model %u", i, w->idx[i], ids[i], want);
    }
  } else { /* contains and size */
    w->op = "gcol_strmap_contains";
    WOK(w, gcol_strmap_contains(w->str, &col, (uint8_t *)w->d_flags, w->s));
    RUN(down(w, w->h_flags, w->d_flags, n));
    for (size_t i = 0; i < n; ++i)
      WCHECK(w, w->h_flags[i] == (w->str_id[w->idx[i]] >= 0), "row %zu (string %u): %d, the model %d", i,
             w->idx[i], w->h_flags[i], w->str_id[w->idx[i]] >= 0);
    w->op = "gcol_strmap_size";
    size_t size = 0;
    WOK(w, gcol_strmap_size(w->str, &size, w->s));
    WCHECK(w, size == w->str_next, "size %zu, the model %u", size, w->str_next);
  }
  return TEST_PASS;
}

/* ---- the shared map: const lookups from every thread ---- */
static test_result_t shared_step(worker_t *w) {
  size_t n = batch_size(w);
  uint32_t want[BATCH];
  for (size_t i = 0; i < n; ++i) {
    if (below(w, 4)) { /* mostly hits */
      size_t j = below(w, SHARED_N);
      w->h_keys[i] = shared.keys[j];
      want[i] = shared.values[j];
    } else {
      uint64_t k;
      do k = tu_key(ABSENT_OFF, tu_next(&w->r) >> 20, 8);
      while (k >= ~1ULL);
      w->h_keys[i] = k;
      want[i] = 0xffffffffu;
    }
  }
  RUN(up(w, w->d_keys, w->h_keys, n * 8));
  if (below(w, 2)) {
    w->op = "gcol_map_find (shared)";
    WOK(w, gcol_map_find(shared.map, w->d_keys, n, w->d_out, w->s));
    RUN(down(w, w->h_out, w->d_out, n * 4));
    const uint32_t *got = (const uint32_t *)w->h_out;
    for (size_t i = 0; i < n; ++i)
      WCHECK(w, got[i] == want[i], "key %#llx: %#x, wanted %#x", (unsigned long long)w->h_keys[i], got[i], want[i]);
  } else {
    w->op = "gcol_map_contains (shared)";
    WOK(w, gcol_map_contains(shared.map, w->d_keys, n, (uint8_t *)w->d_flags, w->s));
    RUN(down(w, w->h_flags, w->d_flags, n));
    for (size_t i = 0; i < n; ++i)
      WCHECK(w, w->h_flags[i] == (want[i] != 0xffffffffu), "key %#llx: %d", (unsigned long long)w->h_keys[i],
             w->h_flags[i]);
  }
  return TEST_PASS;
}

/* ---- error messages: this thread's own, whatever the others do ---- */
/* A refused call with a misaligned pointer that names this thread and
 * draw: the message names the call and the pointer, and becomes the text
 * every later check expects (calls that succeed leave it). */
static test_result_t error_step(worker_t *w) {
  const void *bad = (const void *)(uintptr_t)(((uint64_t)(w->id + 1) << 24) | ((w->iter & 0xffff) << 4) | 1);
  char ptr[32];
  snprintf(ptr, sizeof ptr, "%p", bad);
  const char *call;
  gcol_status_t st;
  switch (below(w, 5)) {
    case 0: call = "gcol_map_find", st = gcol_map_find(shared.map, bad, 3, w->d_out, w->s); break;
    case 1: call = "gcol_set_insert", st = gcol_set_insert(w->set, bad, 3, NULL, w->s); break;
    case 2: /* a total to write, so the keys are read and checked */
      call = "gcol_multimap_count", st = gcol_multimap_count(w->mm, bad, 3, NULL, (size_t *)w->d_one, w->s);
      break;
    case 3: call = "gcol_bloom_add", st = gcol_bloom_add(w->bloom, bad, 3, w->s); break;
    default: call = "gcol_hll_add", st = gcol_hll_add(w->hll, bad, 3, GCOL_U64, w->s); break;
  }
  w->op = call;
  const char *m = gcol_last_error_message();
  WCHECK(w, st == GCOL_ERROR_INVALID_ARGUMENT, "returned %s for a misaligned pointer", gcol_status_string(st));
  WCHECK(w, strncmp(m, call, strlen(call)) == 0 && m[strlen(call)] == ':' && strstr(m, ptr),
         "the message \"%s\" does not name %s and %s", m, call, ptr);
  snprintf(w->own_msg, sizeof w->own_msg, "%s", m);
  return TEST_PASS;
}

static test_result_t message_unchanged(worker_t *w) {
  WCHECK(w, strcmp(gcol_last_error_message(), w->own_msg) == 0,
         "this thread's message is \"%s\", not its own last one \"%s\"", gcol_last_error_message(), w->own_msg);
  return TEST_PASS;
}

/* The start, in step with the others: thread 0 provokes an error while the
 * rest wait; its message names the call, the others' stay empty. Every
 * thread takes every barrier, whatever happens. */
static test_result_t message_handshake(worker_t *w, int ready) {
  test_result_t r = ready ? message_unchanged(w) : TEST_FAIL; /* "" */
  pthread_barrier_wait(&barrier);
  if (w->id == 0 && r == TEST_PASS) {
    w->op = "gcol_map_contains (NULL keys)";
    gcol_status_t st = gcol_map_contains(shared.map, NULL, 5, (uint8_t *)w->d_flags, w->s);
    const char *m = gcol_last_error_message();
    if (st != GCOL_ERROR_INVALID_ARGUMENT || !strstr(m, "gcol_map_contains") || !strstr(m, "d_keys"))
      r = wfail(w, __LINE__, "gcol_map_contains(shared, NULL, 5, ...)", "returned %s with message \"%s\"",
                gcol_status_string(st), m);
    snprintf(w->own_msg, sizeof w->own_msg, "%s", m);
  }
  pthread_barrier_wait(&barrier);
  if (r == TEST_PASS) {
    w->op = "message after thread 0's error";
    r = message_unchanged(w);
  }
  pthread_barrier_wait(&barrier);
  return r;
}

/* ---- set-up, the loop, the final check ---- */
static test_result_t worker_setup(worker_t *w) {
  WCUDA(w, cudaStreamCreateWithFlags(&w->s, cudaStreamNonBlocking));
  const size_t n = UNIVERSE;
  WCUDA(w, cudaMallocHost((void **)&w->h_keys, n * 8));
  WCUDA(w, cudaMallocHost((void **)&w->h_vals, n * 8));
  WCUDA(w, cudaMallocHost((void **)&w->h_out, n * 8));
  WCUDA(w, cudaMallocHost((void **)&w->h_flags, n));
  WCUDA(w, cudaMallocHost((void **)&w->h_counts, (n + 1) * 8));
  WCUDA(w, cudaMallocHost((void **)&w->h_chars, (size_t)BATCH * STR_MAX));
  WCUDA(w, cudaMallocHost((void **)&w->h_off, (BATCH + 1) * 4));
  WCUDA(w, cudaMallocHost((void **)&w->h_mm_keys, MM_LIMIT * 8));
  WCUDA(w, cudaMallocHost((void **)&w->h_mm_vals, MM_LIMIT * 8));
  void **d[] = {&w->d_keys, &w->d_vals, &w->d_out, &w->d_flags, &w->d_counts};
  for (size_t i = 0; i < sizeof d / sizeof d[0]; ++i) WCUDA(w, cudaMalloc(d[i], n * 8));
  WCUDA(w, cudaMalloc(&w->d_one, 8));
  WCUDA(w, cudaMalloc(&w->d_chars, (size_t)BATCH * STR_MAX));
  WCUDA(w, cudaMalloc(&w->d_off, (BATCH + 1) * 4));
  WCUDA(w, cudaMalloc(&w->d_mm_keys, MM_LIMIT * 8));
  WCUDA(w, cudaMalloc(&w->d_mm_vals, MM_LIMIT * 8));

  tu_unique_keys(w->keys, 8, UNIVERSE, OWN_OFF(w->id), NULL);
  for (uint32_t i = 0; i < UNIVERSE; ++i) w->perm[i] = i;
  for (int k = 0; k < STRINGS; ++k) w->str_id[k] = -1;
  pool_make(w);

  w->op = "create";
  gcol_map_config_t mc = gcol_map_config_default(GCOL_U64, GCOL_U64);
  mc.growable = 1, mc.capacity = 64; /* grows under the threads */
  WOK(w, gcol_map_create(&w->map, &mc, w->s));
  gcol_set_config_t sc = gcol_set_config_default(GCOL_U64);
  sc.capacity = 2 * UNIVERSE;
  WOK(w, gcol_set_create(&w->set, &sc, w->s));
  static const gcol_multimap_engine_t engines[3] = {GCOL_MULTIMAP_OPEN, GCOL_MULTIMAP_CHAINED,
                                                    GCOL_MULTIMAP_CHAINED_LOCKFREE};
  gcol_multimap_config_t mmc = gcol_multimap_config_default(GCOL_U64, GCOL_U64, engines[w->id % 3]);
  mmc.map.capacity = 2 * MM_LIMIT;
  WOK(w, gcol_multimap_create(&w->mm, &mmc, w->s));
  gcol_bloom_config_t bc = gcol_bloom_config_default(GCOL_U64);
  bc.size_bytes = BLOOM_BYTES;
  bc.seed = w->bloom_seed = tu_next(&w->r);
  WOK(w, gcol_bloom_create(&w->bloom, &bc, w->s));
  w->bloom_blocks = BLOOM_BYTES / 32;
  w->bloom_words = (uint64_t *)calloc(w->bloom_blocks * 4, 8);
  WCHECK(w, w->bloom_words, "%s", "out of host memory");
  gcol_hll_config_t hc = gcol_hll_config_default();
  hc.precision = HLL_P;
  hc.seed = w->hll_seed = tu_next(&w->r);
  WOK(w, gcol_hll_create(&w->hll, &hc, w->s));
  gcol_strmap_config_t tc = gcol_strmap_config_default(GCOL_U32);
  tc.capacity = 16; /* grows */
  WOK(w, gcol_strmap_create(&w->str, &tc, w->s));
  WCUDA(w, cudaStreamSynchronize(w->s));
  return TEST_PASS;
}

/* Everything at once: each container's whole content against its model. */
static test_result_t worker_check_all(worker_t *w) {
  w->op = "final gcol_map_find";
  for (size_t k = 0; k < UNIVERSE; ++k) w->idx[k] = (uint32_t)k, w->h_keys[k] = w->keys[k];
  RUN(up(w, w->d_keys, w->h_keys, UNIVERSE * 8));
  WOK(w, gcol_map_find(w->map, w->d_keys, UNIVERSE, w->d_out, w->s));
  RUN(down(w, w->h_out, w->d_out, UNIVERSE * 8));
  for (size_t k = 0; k < UNIVERSE; ++k)
    WCHECK(w, w->h_out[k] == (w->map_has[k] ? w->map_val[k] : ~0ULL), "key %#llx: %#llx",
           (unsigned long long)w->keys[k], (unsigned long long)w->h_out[k]);
  w->op = "final gcol_set_contains";
  WOK(w, gcol_set_contains(w->set, w->d_keys, UNIVERSE, (uint8_t *)w->d_flags, w->s));
  RUN(down(w, w->h_flags, w->d_flags, UNIVERSE));
  for (size_t k = 0; k < UNIVERSE; ++k)
    WCHECK(w, w->h_flags[k] == w->set_has[k], "key %#llx: %d", (unsigned long long)w->keys[k], w->h_flags[k]);
  w->op = "final gcol_set_status";
  WOK(w, gcol_set_status(w->set, w->s));
  WOK(w, gcol_map_status(w->map, w->s));
  RUN(mm_check_all(w));
  WOK(w, gcol_multimap_status(w->mm, w->s));
  RUN(bloom_check_words(w));
  RUN(hll_check_registers(w));
  w->op = "final gcol_strmap_status";
  WOK(w, gcol_strmap_status(w->str, w->s));
  return TEST_PASS;
}

static struct timespec deadline;
static int past_deadline(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec > deadline.tv_sec || (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec);
}

static test_result_t worker_loop(worker_t *w) {
  typedef test_result_t (*step_fn)(worker_t *);
  static const step_fn steps[] = {map_step, map_step, set_step, mm_step, bloom_step, hll_step, str_step, shared_step,
                                  shared_step};
  const size_t kinds = sizeof steps / sizeof steps[0];
  for (w->iter = 0; !atomic_load(&stop_all) && !past_deadline(); ++w->iter) {
    if (below(w, 32) == 0) RUN(error_step(w));
    else RUN(steps[below(w, kinds)](w));
    /* the next step refills the pinned staging buffers: this one's copies must be done */
    WCUDA(w, cudaStreamSynchronize(w->s));
    RUN(message_unchanged(w));
  }
  if (atomic_load(&stop_all)) return TEST_FAIL; /* another thread failed; it said why */
  w->op = NULL;
  RUN(worker_check_all(w));
  return message_unchanged(w);
}

static void worker_free(worker_t *w) {
  gcol_map_destroy(w->map);
  gcol_set_destroy(w->set);
  gcol_multimap_destroy(w->mm);
  gcol_bloom_destroy(w->bloom);
  gcol_hll_destroy(w->hll);
  gcol_strmap_destroy(w->str);
  if (w->s) cudaStreamSynchronize(w->s);
  void *d[] = {w->d_keys, w->d_vals, w->d_out, w->d_flags, w->d_counts, w->d_one, w->d_chars, w->d_off,
               w->d_mm_keys, w->d_mm_vals};
  for (size_t i = 0; i < sizeof d / sizeof d[0]; ++i) tu_free(d[i]);
  void *h[] = {w->h_keys, w->h_vals, w->h_out, w->h_flags, w->h_counts, w->h_chars, w->h_off, w->h_mm_keys,
               w->h_mm_vals};
  for (size_t i = 0; i < sizeof h / sizeof h[0]; ++i)
    if (h[i]) cudaFreeHost(h[i]);
  free(w->bloom_words);
  if (w->s) cudaStreamDestroy(w->s);
}

static void *worker_main(void *arg) {
  worker_t *w = (worker_t *)arg;
  int ready = worker_setup(w) == TEST_PASS;
  test_result_t r = message_handshake(w, ready);
  if (r == TEST_PASS) r = worker_loop(w);
  worker_free(w);
  w->result = r;
  return NULL;
}

/* ---- the test ---- */
static double stress_seconds(void) {
  const char *s = getenv("GCOL_STRESS_SECONDS");
  if (s && *s) return strtod(s, NULL);
  return getenv("GCOL_TEST_MAX_N") ? 5.0 : 60.0;
}

static test_result_t shared_build(cudaStream_t s) {
  tu_unique_keys(shared.keys, 8, SHARED_N, SHARED_OFF, NULL);
  for (size_t i = 0; i < SHARED_N; ++i) shared.values[i] = (uint32_t)tu_value(shared.keys[i], 5, 4);
  gcol_map_config_t c = gcol_map_config_default(GCOL_I64, GCOL_U32);
  c.capacity = 2 * SHARED_N;
  CHECK_OK(gcol_map_create(&shared.map, &c, s));
  void *dk = tu_to_device(shared.keys, sizeof shared.keys), *dv = tu_to_device(shared.values, sizeof shared.values);
  uint32_t *got = (uint32_t *)malloc(sizeof shared.values);
  void *dout = tu_poisoned(sizeof shared.values);
  CHECK(dk && dv && got && dout);
  CHECK_CUDA(cudaDeviceSynchronize()); /* those copies ran on the legacy stream, which s does not wait for */
  CHECK_OK(gcol_map_insert(shared.map, dk, dv, SHARED_N, NULL, s));
  CHECK_OK(gcol_map_find(shared.map, dk, SHARED_N, dout, s));
  size_t size = 0;
  CHECK_OK(gcol_map_size(shared.map, &size, s));
  CHECK(size == SHARED_N);
  CHECK(tu_to_host(got, dout, sizeof shared.values) == 0);
  CHECK(memcmp(got, shared.values, sizeof shared.values) == 0);
  free(got), tu_free(dk), tu_free(dv), tu_free(dout);
  return TEST_PASS;
}

TEST(threads_stress_own_and_shared_containers) {
  REQUIRE_GPU();
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  RUN(shared_build(s));
  CHECK_CUDA(cudaStreamSynchronize(s));

  static worker_t workers[THREADS]; /* about 300 KB each */
  pthread_t th[THREADS];
  memset(workers, 0, sizeof workers);
  atomic_store(&stop_all, 0);
  CHECK(pthread_barrier_init(&barrier, NULL, THREADS) == 0);
  double secs = stress_seconds();
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_sec += (time_t)secs;
  deadline.tv_nsec += (long)((secs - floor(secs)) * 1e9);
  if (deadline.tv_nsec >= 1000000000L) deadline.tv_sec += 1, deadline.tv_nsec -= 1000000000L;
  int started = 0;
  for (int t = 0; t < THREADS; ++t) {
    workers[t].id = t;
    workers[t].r.s = tu_mix64(test_seed() + 0x9e3779b97f4a7c15ULL * (uint64_t)(t + 1)) | 1;
    if (pthread_create(&th[t], NULL, worker_main, &workers[t]) != 0) break;
    ++started;
  }
  /* a thread that did not start would leave the others at the barrier */
  if (started < THREADS) {
    fprintf(stderr, "    could start only %d of %d threads\n", started, THREADS);
    abort();
  }
  size_t calls = 0, iters = 0;
  int failed = 0;
  for (int t = 0; t < THREADS; ++t) {
    pthread_join(th[t], NULL);
    failed |= workers[t].result != TEST_PASS;
    calls += workers[t].calls, iters += workers[t].iter;
  }
  pthread_barrier_destroy(&barrier);
  printf("    %d threads, %.0f s: %zu random steps, %zu gcol calls checked\n", THREADS, secs, iters, calls);
  CHECK(!failed);

  /* the shared map is as it was built: the lookups changed nothing */
  size_t size = 0;
  CHECK_OK(gcol_map_size(shared.map, &size, s));
  CHECK(size == SHARED_N);
  CHECK_OK(gcol_map_status(shared.map, s));
  gcol_map_destroy(shared.map);
  shared.map = NULL;
  CHECK_CUDA(cudaStreamSynchronize(s));
  CHECK_CUDA(cudaStreamDestroy(s));
  return TEST_PASS;
}
