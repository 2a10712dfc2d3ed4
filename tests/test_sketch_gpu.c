/* GPU tests of the Bloom filter and HyperLogLog against the CPU references
 * of tests/support/sketch_ref.c: bit-for-bit filters and registers on random
 * input, no false negatives, FPR and estimate error within statistical
 * bounds (fixed seeds), merge = add of the union, the device API, and bad
 * input that is refused without changing anything. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "test_util.h"
#include "sketch_ref.h"
#include "sketch_device_kernels.h"
#include "hll/hll_internal.h"
#include "core/test_hooks.h"

static size_t cap(size_t n) { return n < test_max_n() ? n : test_max_n(); }

/* Random keys of kb bytes (duplicates possible: the filter must not care). */
static void *random_keys(size_t n, size_t kb, uint64_t seed) {
  tu_rng_t r = {seed | 1};
  void *h = malloc(n * kb + 8);
  for (size_t i = 0; i < n; ++i) tu_put(h, i, kb, tu_next(&r));
  return h;
}

static gcol_bloom_t *make_bloom(gcol_type_t kt, size_t bytes, uint64_t seed) {
  gcol_bloom_config_t c = gcol_bloom_config_default(kt);
  c.size_bytes = bytes;
  c.seed = seed;
  gcol_bloom_t *b = NULL;
  return gcol_bloom_create(&b, &c, 0) == GCOL_SUCCESS ? b : NULL;
}

/* The filter's words on the host (malloc'd). */
static uint64_t *bloom_words(const gcol_bloom_t *b, uint64_t *num_blocks) {
  gcol_bloom_view_t v;
  if (gcol_bloom_device_view(b, &v) != GCOL_SUCCESS) return NULL;
  uint64_t *w = (uint64_t *)malloc(v.num_blocks * 32);
  if (tu_to_host(w, v.words, v.num_blocks * 32)) return NULL;
  *num_blocks = v.num_blocks;
  return w;
}

/* add then contains on random keys, for both key widths and a power-of-two
 * and an odd size: words equal the reference's bit for bit, every added key
 * is found, and the answers for other keys equal the reference's. */
TEST(bloom_matches_cpu_reference) {
  REQUIRE_GPU();
  size_t sizes[] = {(size_t)1 << 16, 1000 * 32 + 7};
  for (int w = 0; w < 2; ++w)
    for (int si = 0; si < 2; ++si) {
      gcol_type_t kt = w ? GCOL_U64 : GCOL_U32;
      size_t kb = w ? 8 : 4, n = cap(50000), q = cap(100000);
      uint64_t seed = test_seed() + 17 * si + w;
      gcol_bloom_t *b = make_bloom(kt, sizes[si], seed);
      CHECK(b);
      size_t bits = 0, bytes = 0;
      CHECK_OK(gcol_bloom_bits(b, &bits));
      CHECK_OK(gcol_bloom_size(b, &bytes));
      CHECK(bytes == (sizes[si] + 31) / 32 * 32 && bits == 8 * bytes);
      void *hk = random_keys(n, kb, seed ^ 1), *hq = random_keys(q, kb, seed ^ 2);
      void *dk = tu_to_device(hk, n * kb), *dq = tu_to_device(hq, q * kb);
      uint8_t *df = (uint8_t *)tu_poisoned(q + n), *found = (uint8_t *)malloc(q + n), *want = (uint8_t *)malloc(q);
      CHECK_OK(gcol_bloom_add(b, dk, n, 0));
      uint64_t nb = 0;
      uint64_t *got = bloom_words(b, &nb);
      uint64_t *ref = (uint64_t *)calloc(nb * 4, 8);
      CHECK(got && ref);
      ref_bloom_add(ref, nb, seed, hk, n, kb);
      CHECK(memcmp(got, ref, nb * 32) == 0);
      CHECK_OK(gcol_bloom_contains(b, dk, n, df, 0));
      CHECK_OK(gcol_bloom_contains(b, dq, q, df + n, 0));
      CHECK(tu_to_host(found, df, q + n) == 0);
      for (size_t i = 0; i < n; ++i) CHECK(found[i] == 1); /* no false negatives */
      ref_bloom_contains(ref, nb, seed, hq, q, kb, want);
      CHECK(memcmp(found + n, want, q) == 0);
      CHECK_OK(gcol_bloom_clear(b, 0));
      free(got);
      got = bloom_words(b, &nb);
      for (uint64_t i = 0; i < nb * 4; ++i) CHECK(got[i] == 0);
      free(got), free(ref), free(hk), free(hq), free(found), free(want);
      tu_free(dk), tu_free(dq), tu_free(df);
      gcol_bloom_destroy(b);
    }
  return TEST_PASS;
}

/* At 10.5 bits per key the measured FPR on 2M never-added keys is within 5
 * binomial standard deviations of the formula (fixed seed). */
TEST(bloom_fpr_matches_formula) {
  REQUIRE_GPU();
  size_t q = 2000000, bytes = (size_t)1 << 20, n = (size_t)(bytes * 8 / 10.5);
  if (q + n > test_max_n()) return TEST_SKIP;
  gcol_bloom_t *b = make_bloom(GCOL_U64, bytes, 7);
  CHECK(b);
  void *dk = NULL, *dq = NULL;
  CHECK_CUDA(cudaMalloc(&dk, n * 8));
  CHECK_CUDA(cudaMalloc(&dq, q * 8));
  CHECK_CUDA(sketch_fill_keys(dk, n, 8, 0, 0));
  CHECK_CUDA(sketch_fill_keys(dq, q, 8, 1ULL << 40, 0)); /* disjoint indices: never added */
  uint8_t *df = NULL, *h = (uint8_t *)malloc(q);
  CHECK_CUDA(cudaMalloc((void **)&df, q));
  CHECK_OK(gcol_bloom_add(b, dk, n, 0));
  CHECK_OK(gcol_bloom_contains(b, dq, q, df, 0));
  CHECK(tu_to_host(h, df, q) == 0);
  size_t pos = 0;
  for (size_t i = 0; i < q; ++i) pos += h[i];
  double f = 0, measured = (double)pos / (double)q;
  CHECK_OK(gcol_bloom_expected_fpr(bytes, n, &f));
  double sd = sqrt(f * (1 - f) / (double)q);
  fprintf(stderr, "    10.5 bits/key: formula %.5f measured %.5f\n", f, measured);
  CHECK(fabs(measured - f) <= 5 * sd + 0.03 * f); /* + the spread between filters */
  free(h);
  cudaFree(dk), cudaFree(dq), cudaFree(df);
  gcol_bloom_destroy(b);
  return TEST_PASS;
}

/* merge(A, B) equals a filter given both key sets; intersect is the AND of
 * the words; different shapes and seeds are refused and change nothing. */
TEST(bloom_merge_is_add_of_union_and_bad_shapes_are_refused) {
  REQUIRE_GPU();
  size_t n = cap(20000), bytes = 1 << 14;
  uint64_t seed = test_seed();
  gcol_bloom_t *a = make_bloom(GCOL_U64, bytes, seed), *b = make_bloom(GCOL_U64, bytes, seed),
               *u = make_bloom(GCOL_U64, bytes, seed), *i = make_bloom(GCOL_U64, bytes, seed);
  gcol_bloom_t *other_size = make_bloom(GCOL_U64, bytes + 32, seed), *other_seed = make_bloom(GCOL_U64, bytes, seed + 1),
               *other_width = make_bloom(GCOL_U32, bytes, seed);
  CHECK(a && b && u && i && other_size && other_seed && other_width);
  void *h1 = random_keys(n, 8, seed ^ 3), *h2 = random_keys(n, 8, seed ^ 4);
  void *d1 = tu_to_device(h1, n * 8), *d2 = tu_to_device(h2, n * 8);
  CHECK_OK(gcol_bloom_add(a, d1, n, 0));
  CHECK_OK(gcol_bloom_add(i, d1, n, 0));
  CHECK_OK(gcol_bloom_add(b, d2, n, 0));
  CHECK_OK(gcol_bloom_add(u, d1, n, 0));
  CHECK_OK(gcol_bloom_add(u, d2, n, 0));
  CHECK_OK(gcol_bloom_intersect(i, b, 0));
  uint64_t nb = 0;
  uint64_t *wa = bloom_words(a, &nb), *wb = bloom_words(b, &nb), *wi = bloom_words(i, &nb);
  for (uint64_t k = 0; k < nb * 4; ++k) CHECK(wi[k] == (wa[k] & wb[k]));
  CHECK_OK(gcol_bloom_merge(a, b, 0));
  uint64_t *wm = bloom_words(a, &nb), *wu = bloom_words(u, &nb);
  CHECK(memcmp(wm, wu, nb * 32) == 0);
  CHECK_OK(gcol_bloom_merge(a, a, 0)); /* itself: unchanged */
  gcol_bloom_t *bad[3] = {other_size, other_seed, other_width};
  for (int k = 0; k < 3; ++k) {
    CHECK_STATUS(gcol_bloom_merge(a, bad[k], 0), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(gcol_last_error_message(), "gcol_bloom_merge") != NULL);
    CHECK_STATUS(gcol_bloom_intersect(a, bad[k], 0), GCOL_ERROR_INVALID_ARGUMENT);
  }
  uint64_t *after = bloom_words(a, &nb);
  CHECK(memcmp(after, wu, nb * 32) == 0);
  free(wa), free(wb), free(wi), free(wm), free(wu), free(after), free(h1), free(h2);
  tu_free(d1), tu_free(d2);
  gcol_bloom_destroy(a), gcol_bloom_destroy(b), gcol_bloom_destroy(u), gcol_bloom_destroy(i);
  gcol_bloom_destroy(other_size), gcol_bloom_destroy(other_seed), gcol_bloom_destroy(other_width);
  return TEST_PASS;
}

/* export then import into a fresh filter of the same shape gives the same
 * words (and answers); the bytes are the header and the words; a filter of
 * another size, seed or key width, a short buffer and a wrong length are
 * refused and change nothing; import replaces the bits (no merge). */
TEST(bloom_export_import_round_trip_and_wrong_shapes_refused) {
  REQUIRE_GPU();
  size_t n = cap(20000), bytes = 1000 * 32 + 7;
  for (int w = 0; w < 2; ++w) {
    gcol_type_t kt = w ? GCOL_U64 : GCOL_U32;
    size_t kb = w ? 8 : 4, size = 0, len = 0, got = 0;
    uint64_t seed = test_seed() + w;
    gcol_bloom_t *a = make_bloom(kt, bytes, seed), *back = make_bloom(kt, bytes, seed);
    gcol_bloom_t *other_size = make_bloom(kt, bytes + 32, seed), *other_seed = make_bloom(kt, bytes, seed + 1),
                 *other_width = make_bloom(w ? GCOL_U32 : GCOL_U64, bytes, seed);
    CHECK(a && back && other_size && other_seed && other_width);
    void *hk = random_keys(n, kb, seed ^ 5), *hj = random_keys(n, kb, seed ^ 6);
    void *dk = tu_to_device(hk, n * kb), *dj = tu_to_device(hj, n * kb);
    CHECK_OK(gcol_bloom_add(a, dk, n, 0));
    CHECK_OK(gcol_bloom_add(back, dj, n, 0)); /* bits that import must replace */
    CHECK_OK(gcol_bloom_size(a, &size));
    CHECK_OK(gcol_bloom_export_size(a, &len));
    CHECK(len == 32 + size);
    uint8_t *e = (uint8_t *)malloc(len + 1);
    CHECK_STATUS(gcol_bloom_export(a, e, len - 1, &got, 0), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(gcol_last_error_message(), "capacity") != NULL);
    CHECK_STATUS(gcol_bloom_export(a, NULL, len, &got, 0), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK_OK(gcol_bloom_export(a, e, len + 1, &got, 0));
    CHECK(got == len && memcmp(e, "GBLM", 4) == 0 && (size_t)e[5] == kb);
    uint64_t nb = 0;
    uint64_t *wa = bloom_words(a, &nb);
    CHECK(nb == size / 32 && memcmp(e + 32, wa, size) == 0);
    gcol_bloom_t *bad[3] = {other_size, other_seed, other_width};
    for (int k = 0; k < 3; ++k) {
      CHECK_STATUS(gcol_bloom_import(bad[k], e, len, 0), GCOL_ERROR_INVALID_ARGUMENT);
      CHECK(strstr(gcol_last_error_message(), "gcol_bloom_import") != NULL);
      uint64_t bn = 0;
      uint64_t *wb = bloom_words(bad[k], &bn);
      for (uint64_t i = 0; i < bn * 4; ++i) CHECK(wb[i] == 0);
      free(wb);
    }
    uint64_t *before = bloom_words(back, &nb);
    CHECK_STATUS(gcol_bloom_import(back, e, len - 1, 0), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(gcol_bloom_import(back, e, len + 1, 0), GCOL_ERROR_INVALID_ARGUMENT);
    uint64_t *unchanged = bloom_words(back, &nb);
    CHECK(memcmp(before, unchanged, size) == 0);
    CHECK_OK(gcol_bloom_import(back, e, len, 0));
    memset(e, 0, len); /* import synchronized: the bytes are free */
    uint64_t *wr = bloom_words(back, &nb);
    CHECK(memcmp(wa, wr, size) == 0);
    uint8_t *df = (uint8_t *)tu_poisoned(n), *found = (uint8_t *)malloc(n);
    CHECK_OK(gcol_bloom_contains(back, dk, n, df, 0));
    CHECK(tu_to_host(found, df, n) == 0);
    for (size_t i = 0; i < n; ++i) CHECK(found[i] == 1);
    free(e), free(wa), free(before), free(unchanged), free(wr), free(found), free(hk), free(hj);
    tu_free(dk), tu_free(dj), tu_free(df);
    gcol_bloom_destroy(a), gcol_bloom_destroy(back);
    gcol_bloom_destroy(other_size), gcol_bloom_destroy(other_seed), gcol_bloom_destroy(other_width);
  }
  return TEST_PASS;
}

/* Sized from (expected keys, target FPR): the size gcol_bloom_size_for gives. */
TEST(bloom_create_from_expected_keys) {
  REQUIRE_GPU();
  gcol_bloom_config_t c = gcol_bloom_config_default(GCOL_U32);
  c.expected_keys = 123456;
  c.target_fpr = 0.001;
  gcol_bloom_t *b = NULL;
  CHECK_OK(gcol_bloom_create(&b, &c, 0));
  size_t bytes = 0, want = 0;
  CHECK_OK(gcol_bloom_size(b, &bytes));
  CHECK_OK(gcol_bloom_size_for(123456, 0.001, &want));
  CHECK(bytes == want);
  gcol_bloom_destroy(b);
  return TEST_PASS;
}

/* NULL, misaligned and host pointers are refused with a message and change
 * nothing; the next good call works. */
TEST(bloom_bad_pointers_are_refused) {
  REQUIRE_GPU();
  gcol_bloom_t *b = make_bloom(GCOL_U64, 4096, 1);
  CHECK(b);
  uint64_t hk[4] = {1, 2, 3, 4};
  uint64_t *dk = (uint64_t *)tu_to_device(hk, sizeof hk);
  uint8_t *df = (uint8_t *)tu_poisoned(8), hf[4];
  CHECK_STATUS(gcol_bloom_add(b, NULL, 4, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "d_keys") != NULL);
  CHECK_STATUS(gcol_bloom_add(b, (const char *)dk + 4, 2, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "aligned") != NULL);
  CHECK_STATUS(gcol_bloom_add(b, hk, 4, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_contains(b, dk, 4, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_contains(b, dk, 4, hf, 0), GCOL_ERROR_INVALID_ARGUMENT);
  uint64_t nb = 0;
  uint64_t *w = bloom_words(b, &nb);
  for (uint64_t i = 0; i < nb * 4; ++i) CHECK(w[i] == 0); /* nothing was added */
  CHECK_OK(gcol_bloom_add(b, NULL, 0, 0));                /* n == 0: NULL allowed */
  CHECK_OK(gcol_bloom_add(b, dk, 4, 0));
  CHECK_OK(gcol_bloom_contains(b, dk, 4, df, 0));
  CHECK(tu_to_host(hf, df, 4) == 0);
  CHECK(hf[0] == 1 && hf[1] == 1 && hf[2] == 1 && hf[3] == 1);
  free(w);
  tu_free(dk), tu_free(df);
  gcol_bloom_destroy(b);
  return TEST_PASS;
}

/* The device API (per thread and per tile) gives the host API's filter and answers. */
TEST(bloom_device_api_matches_host_api) {
  REQUIRE_GPU();
  size_t n = cap(30000);
  int tiles[] = {0, 1, 2, 4, 8};
  for (int w = 0; w < 2; ++w)
    for (int t = 0; t < 5; ++t) {
      size_t kb = w ? 8 : 4;
      gcol_bloom_t *host = make_bloom(w ? GCOL_U64 : GCOL_U32, 8192, 5), *dev = make_bloom(w ? GCOL_U64 : GCOL_U32, 8192, 5);
      CHECK(host && dev);
      void *hk = random_keys(n, kb, 99 + t), *dk = tu_to_device(hk, n * kb);
      uint8_t *f1 = (uint8_t *)tu_poisoned(n), *f2 = (uint8_t *)tu_poisoned(n);
      uint8_t *h1 = (uint8_t *)malloc(n), *h2 = (uint8_t *)malloc(n);
      gcol_bloom_view_t v;
      CHECK_OK(gcol_bloom_device_view(dev, &v));
      CHECK(v.key_bytes == (int)kb);
      CHECK_OK(gcol_bloom_add(host, dk, n / 2, 0));
      CHECK_CUDA(dev_bloom_run(&v, w, tiles[t], dk, n / 2, NULL));
      uint64_t nb = 0;
      uint64_t *a = bloom_words(host, &nb), *b = bloom_words(dev, &nb);
      CHECK(memcmp(a, b, nb * 32) == 0);
      CHECK_OK(gcol_bloom_contains(host, dk, n, f1, 0));
      CHECK_CUDA(dev_bloom_run(&v, w, tiles[t], dk, n, f2));
      CHECK(tu_to_host(h1, f1, n) == 0 && tu_to_host(h2, f2, n) == 0);
      CHECK(memcmp(h1, h2, n) == 0);
      free(a), free(b), free(hk), free(h1), free(h2);
      tu_free(dk), tu_free(f1), tu_free(f2);
      gcol_bloom_destroy(host), gcol_bloom_destroy(dev);
    }
  return TEST_PASS;
}

/* ---- HyperLogLog ---------------------------------------------------------- */

static gcol_hll_t *make_hll(int p, uint64_t seed) {
  gcol_hll_config_t c = gcol_hll_config_default();
  c.precision = p;
  c.seed = seed;
  gcol_hll_t *h = NULL;
  return gcol_hll_create(&h, &c, 0) == GCOL_SUCCESS ? h : NULL;
}

static int export_registers(const gcol_hll_t *h, int p, uint32_t *reg) {
  size_t len = 0, got = 0;
  if (gcol_hll_export_size(h, &len) != GCOL_SUCCESS || len != 16 + ((size_t)1 << p)) return 1;
  uint8_t *b = (uint8_t *)malloc(len);
  int bad = gcol_hll_export(h, b, len, &got, 0) != GCOL_SUCCESS || got != len;
  for (size_t i = 0; !bad && i < ((size_t)1 << p); ++i) reg[i] = b[16 + i];
  free(b);
  return bad;
}

/* Registers equal the reference's bit for bit, for every shared layout
 * (32-bit words up to 14, 6-bit thermometer fields from 15, whose ranks
 * above 6 go to the global registers, read first or by atomicMax at once:
 * the hll_overflow hook's two forms), 4- and 8-byte items, with duplicates,
 * and a size that leaves a partial chunk; the estimate is the estimator's
 * over those registers. */
TEST(hll_matches_cpu_reference) {
  REQUIRE_GPU();
  int ps[] = {4, 9, 13, 14, 15, 16, 17, 18, 15, 18, 15, 18};
  for (int pi = 0; pi < 12; ++pi)
    for (int w = 0; w < 2; ++w) {
      int p = ps[pi];
      gcol_test_hooks.hll_overflow = pi < 8 ? 0 : pi < 10 ? 1 : 2;
      size_t ib = w ? 8 : 4, n = cap(200000 + 12345);
      uint64_t seed = test_seed() + (uint64_t)p;
      gcol_hll_t *h = make_hll(p, seed);
      CHECK(h);
      void *hi = random_keys(n, ib, seed ^ 5);
      memcpy((char *)hi + ib * (n / 2), hi, ib * (n / 4)); /* duplicates */
      void *di = tu_to_device(hi, n * ib);
      CHECK_OK(gcol_hll_add_raw(h, di, n / 3, ib, 0));
      CHECK_OK(gcol_hll_add(h, (char *)di + ib * (n / 3), n - n / 3, w ? GCOL_I64 : GCOL_U32, 0));
      size_t m = (size_t)1 << p;
      uint32_t *got = (uint32_t *)malloc(m * 4), *ref = (uint32_t *)calloc(m, 4);
      CHECK(export_registers(h, p, got) == 0);
      ref_hll_add(ref, p, seed, hi, n, ib, 0);
      CHECK(memcmp(got, ref, m * 4) == 0);
      double e = -1;
      CHECK_OK(gcol_hll_estimate(h, &e, 0));
      CHECK(e == gcol_hll_estimate_registers(ref, p));
      int gp = 0;
      CHECK_OK(gcol_hll_precision(h, &gp));
      CHECK(gp == p);
      CHECK_OK(gcol_hll_clear(h, 0));
      CHECK_OK(gcol_hll_estimate(h, &e, 0));
      CHECK(e == 0.0);
      free(got), free(ref), free(hi);
      tu_free(di);
      gcol_hll_destroy(h);
    }
  gcol_test_hooks.hll_overflow = 0;
  return TEST_PASS;
}

/* Floats: -0.0 counts as 0.0 and every NaN as one value. */
TEST(hll_float_items_are_canonical) {
  REQUIRE_GPU();
  double hd[6] = {0.0, -0.0, NAN, -NAN, 1.5, 1.5};
  float hf[6] = {0.0f, -0.0f, NAN, -NAN, 1.5f, 1.5f};
  uint64_t nan2 = 0x7ff0000000000001ULL; /* a signalling NaN with another payload */
  memcpy(&hd[3], &nan2, 8);
  void *dd = tu_to_device(hd, sizeof hd), *df = tu_to_device(hf, sizeof hf);
  gcol_hll_t *a = make_hll(10, 3), *b = make_hll(10, 3);
  CHECK(a && b);
  CHECK_OK(gcol_hll_add(a, dd, 6, GCOL_F64, 0));
  CHECK_OK(gcol_hll_add(b, df, 6, GCOL_F32, 0));
  uint32_t ra[1024], rb[1024], ref[1024] = {0}, reff[1024] = {0};
  CHECK(export_registers(a, 10, ra) == 0 && export_registers(b, 10, rb) == 0);
  ref_hll_add(ref, 10, 3, hd, 6, 8, 2);
  ref_hll_add(reff, 10, 3, hf, 6, 4, 1);
  CHECK(memcmp(ra, ref, sizeof ra) == 0 && memcmp(rb, reff, sizeof rb) == 0);
  int set = 0;
  for (int i = 0; i < 1024; ++i) set += ra[i] != 0;
  CHECK(set <= 3); /* three distinct values */
  double e = 0;
  CHECK_OK(gcol_hll_estimate(a, &e, 0));
  CHECK(fabs(e - 3.0) < 0.1);
  tu_free(dd), tu_free(df);
  gcol_hll_destroy(a), gcol_hll_destroy(b);
  return TEST_PASS;
}

/* merge = add of the union; export / import / import_merge round trips;
 * mismatched and malformed inputs are refused and change nothing. */
TEST(hll_merge_import_export) {
  REQUIRE_GPU();
  int p = 12;
  size_t n = cap(100000), m = (size_t)1 << p;
  uint64_t seed = test_seed();
  gcol_hll_t *a = make_hll(p, seed), *b = make_hll(p, seed), *u = make_hll(p, seed), *c = make_hll(p, seed);
  gcol_hll_t *other_p = make_hll(p + 1, seed), *other_seed = make_hll(p, seed + 1);
  CHECK(a && b && u && c && other_p && other_seed);
  void *h1 = random_keys(n, 8, seed ^ 7), *h2 = random_keys(n, 8, seed ^ 8);
  void *d1 = tu_to_device(h1, n * 8), *d2 = tu_to_device(h2, n * 8);
  CHECK_OK(gcol_hll_add_raw(a, d1, n, 8, 0));
  CHECK_OK(gcol_hll_add_raw(b, d2, n, 8, 0));
  CHECK_OK(gcol_hll_add_raw(u, d1, n, 8, 0));
  CHECK_OK(gcol_hll_add_raw(u, d2, n, 8, 0));
  size_t len = 16 + m, got = 0;
  uint8_t *eb = (uint8_t *)malloc(len), *ea = (uint8_t *)malloc(len), *eu = (uint8_t *)malloc(len);
  CHECK_OK(gcol_hll_export(b, eb, len, &got, 0));
  CHECK_OK(gcol_hll_export(a, ea, len, &got, 0));
  CHECK_OK(gcol_hll_export(u, eu, len, &got, 0));
  CHECK_STATUS(gcol_hll_export(b, eb, len - 1, &got, 0), GCOL_ERROR_INVALID_ARGUMENT);
  /* import_merge of b's bytes into a copy of a equals the union */
  CHECK_OK(gcol_hll_import(c, ea, len, 0));
  CHECK_OK(gcol_hll_import_merge(c, eb, len, 0));
  uint8_t *ec = (uint8_t *)malloc(len);
  CHECK_OK(gcol_hll_export(c, ec, len, &got, 0));
  CHECK(memcmp(ec, eu, len) == 0);
  CHECK_OK(gcol_hll_merge(a, b, 0));
  CHECK_OK(gcol_hll_export(a, ec, len, &got, 0));
  CHECK(memcmp(ec, eu, len) == 0);
  /* refusals leave a as it is */
  CHECK_STATUS(gcol_hll_merge(a, other_p, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_merge(a, other_seed, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "seed") != NULL);
  CHECK_STATUS(gcol_hll_import(a, eb, len - 1, 0), GCOL_ERROR_INVALID_ARGUMENT);
  eb[0] = 'x';
  CHECK_STATUS(gcol_hll_import(a, eb, len, 0), GCOL_ERROR_INVALID_ARGUMENT);
  eb[0] = 'G';
  eb[16] = 200;
  CHECK_STATUS(gcol_hll_import_merge(a, eb, len, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_import(other_p, eu, len, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_add_raw(a, d1, n, 3, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_add(a, d1, n, (gcol_type_t)9, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_add_raw(a, (char *)d1 + 4, n - 1, 8, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_add_raw(a, h1, n, 8, 0), GCOL_ERROR_INVALID_ARGUMENT); /* host memory */
  CHECK_STATUS(gcol_hll_add_raw(a, NULL, n, 8, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_OK(gcol_hll_export(a, ec, len, &got, 0));
  CHECK(memcmp(ec, eu, len) == 0);
  free(eb), free(ea), free(eu), free(ec), free(h1), free(h2);
  tu_free(d1), tu_free(d2);
  gcol_hll_destroy(a), gcol_hll_destroy(b), gcol_hll_destroy(u), gcol_hll_destroy(c);
  gcol_hll_destroy(other_p), gcol_hll_destroy(other_seed);
  return TEST_PASS;
}

/* The device API's per-thread add gives the bulk call's registers. */
TEST(hll_device_api_matches_host_api) {
  REQUIRE_GPU();
  int ps[] = {5, 14, 18};
  for (int pi = 0; pi < 3; ++pi)
    for (int w = 0; w < 2; ++w) {
      int p = ps[pi];
      size_t ib = w ? 8 : 4, n = cap(100000), m = (size_t)1 << p;
      gcol_hll_t *a = make_hll(p, 11), *b = make_hll(p, 11);
      CHECK(a && b);
      void *hi = random_keys(n, ib, 77 + p), *di = tu_to_device(hi, n * ib);
      gcol_hll_view_t v;
      CHECK_OK(gcol_hll_device_view(b, &v));
      CHECK(v.precision == p);
      CHECK_OK(gcol_hll_add_raw(a, di, n, ib, 0));
      CHECK_CUDA(dev_hll_add(&v, w, di, n));
      uint32_t *ra = (uint32_t *)malloc(m * 4), *rb = (uint32_t *)malloc(m * 4);
      CHECK(export_registers(a, p, ra) == 0 && export_registers(b, p, rb) == 0);
      CHECK(memcmp(ra, rb, m * 4) == 0);
      free(ra), free(rb), free(hi);
      tu_free(di);
      gcol_hll_destroy(a), gcol_hll_destroy(b);
    }
  return TEST_PASS;
}

/* 1e7 distinct values (1e6 under a cap): the estimate is within 3 standard
 * errors at precisions 4..18. */
TEST(hll_estimate_within_three_standard_errors) {
  REQUIRE_GPU();
  size_t n = cap(10000000);
  void *d = NULL;
  CHECK_CUDA(cudaMalloc(&d, n * 8));
  CHECK_CUDA(sketch_fill_keys(d, n, 8, 1000, 0));
  for (int p = 4; p <= 18; ++p) {
    gcol_hll_t *h = make_hll(p, 0x1234);
    CHECK(h);
    CHECK_OK(gcol_hll_add(h, d, n, GCOL_U64, 0));
    double e = 0, se = 1.04 / sqrt((double)(1u << p));
    CHECK_OK(gcol_hll_estimate(h, &e, 0));
    double rel = (e - (double)n) / (double)n;
    if (fabs(rel) > 3 * se) fprintf(stderr, "    p %d: relative error %.4f, 3 se %.4f\n", p, rel, 3 * se);
    CHECK(fabs(rel) <= 3 * se);
    gcol_hll_destroy(h);
  }
  cudaFree(d);
  return TEST_PASS;
}
