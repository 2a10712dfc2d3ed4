/* Host-side tests of the Bloom filter and HyperLogLog (no GPU needed):
 * configs, the FPR formula and sizing, the estimator on CPU-reference
 * sketches, the byte format, argument checks and NO_DEVICE. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "test_util.h"
#include "bloom/bloom_internal.h"
#include "hll/hll_internal.h"
#include "sketch_ref.h"

TEST(bloom_config_defaults_and_refusals) {
  gcol_bloom_config_t c = gcol_bloom_config_default(GCOL_U32), good;
  CHECK(c.key_type == GCOL_U32 && c.size_bytes == 0 && c.expected_keys == 0 && c.target_fpr == 0.01);
  CHECK(gcol_bloom_config_default(GCOL_F32).key_type == GCOL_U64);
  gcol_bloom_config_t out;
  uint64_t nb = 0;
  c.size_bytes = 100;
  CHECK_OK(gcol_bloom_config_take(&c, &out, &nb));
  CHECK(nb == 4); /* rounded up to 32-byte blocks */
  good = c;
#define BAD(stmt)                                                                   \
  c = good;                                                                         \
  stmt;                                                                             \
  CHECK_STATUS(gcol_bloom_config_take(&c, &out, &nb), GCOL_ERROR_INVALID_ARGUMENT); \
  CHECK(strlen(gcol_last_error_message()) > 0)
  BAD(c.size_bytes = 0);                                  /* neither size nor keys */
  BAD(c.expected_keys = 10);                              /* both */
  BAD(c.size_bytes = ((size_t)1 << 40) + 1);              /* absurd size */
  BAD(c.size_bytes = 0; c.expected_keys = 10; c.target_fpr = 0);
  BAD(c.size_bytes = 0; c.expected_keys = 10; c.target_fpr = 1.5);
  BAD(c.size_bytes = 0; c.expected_keys = (size_t)1 << 41);
  BAD(c.size_bytes = 0; c.expected_keys = (size_t)1 << 40; c.target_fpr = 1e-11); /* needs > 1 TiB */
  BAD(c.key_type = GCOL_F64);
  BAD(c.allocator.alloc = (void *(*)(void *, size_t, cudaStream_t))1);
  BAD(c.magic = 0);
#undef BAD
  /* refused before any device is touched */
  gcol_bloom_t *b = (gcol_bloom_t *)&c;
  c = good;
  c.size_bytes = 0;
  CHECK_STATUS(gcol_bloom_create(&b, &c, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(b == NULL);
  CHECK(strstr(gcol_last_error_message(), "gcol_bloom_create") != NULL);
  return TEST_PASS;
}

TEST(bloom_fpr_formula_and_sizing) {
  double f = 0;
  /* 10.5 bits per key in a 1 MiB filter */
  size_t bytes = (size_t)1 << 20, n = (size_t)(bytes * 8 / 10.5);
  CHECK_OK(gcol_bloom_expected_fpr(bytes, n, &f));
  CHECK(f > 0.0095 && f < 0.0105);
  double f8 = 0, f16 = 0;
  CHECK_OK(gcol_bloom_expected_fpr(bytes, bytes, &f8)); /* 8 bits per key */
  CHECK_OK(gcol_bloom_expected_fpr(bytes, bytes / 2, &f16));
  CHECK(f8 > 0.03 && f8 < 0.035 && f16 > 0.0012 && f16 < 0.0014);
  CHECK_OK(gcol_bloom_expected_fpr(bytes, 0, &f));
  CHECK(f == 0.0);
  CHECK_OK(gcol_bloom_expected_fpr(32, 1000000, &f)); /* one saturated block */
  CHECK(f > 0.999);
  CHECK_STATUS(gcol_bloom_expected_fpr(0, 1, &f), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_expected_fpr(64, 1, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  /* size_for: the smallest block count meeting the target */
  size_t got = 0;
  CHECK_OK(gcol_bloom_size_for(1000000, 0.01, &got));
  CHECK(got % 32 == 0);
  CHECK_OK(gcol_bloom_expected_fpr(got, 1000000, &f));
  CHECK(f <= 0.01);
  CHECK_OK(gcol_bloom_expected_fpr(got - 32, 1000000, &f));
  CHECK(f > 0.01);
  CHECK(got * 8.0 / 1e6 > 10.0 && got * 8.0 / 1e6 < 11.0);
  CHECK_STATUS(gcol_bloom_size_for(0, 0.01, &got), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_size_for(10, 0.0, &got), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_size_for(10, 0.01, NULL), GCOL_ERROR_INVALID_ARGUMENT);
  return TEST_PASS;
}

TEST(bloom_calls_reject_null_arguments) {
  size_t x = 0;
  uint64_t k = 0;
  uint8_t o = 0;
  gcol_bloom_view_t v;
  CHECK_STATUS(gcol_bloom_create(NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_bloom_t *b = (gcol_bloom_t *)&x;
  CHECK_STATUS(gcol_bloom_create(&b, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(b == NULL);
  CHECK_STATUS(gcol_bloom_add(NULL, &k, 1, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_contains(NULL, &k, 1, &o, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_clear(NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_merge(NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_intersect(NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_bits(NULL, &x), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_size(NULL, &x), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_device_view(NULL, &v), GCOL_ERROR_INVALID_ARGUMENT);
  /* another object's address is not a filter */
  CHECK_STATUS(gcol_bloom_add((gcol_bloom_t *)&v, &k, 1, 0), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_bloom_destroy(NULL);
  return TEST_PASS;
}

/* The export header: what gcol_bloom_check_bytes accepts and refuses. */
TEST(bloom_bytes_header_and_malformed_bytes_refused) {
  uint64_t nb = 3, seed = 0x1234;
  uint8_t b[32 + 3 * 32], bad[sizeof b];
  memset(b, 0x5a, sizeof b);
  gcol_bloom_encode_header(nb, seed, 8, b);
  CHECK(memcmp(b, "GBLM", 4) == 0 && b[4] == 1 && b[5] == 8 && b[6] == 0 && b[7] == 0);
  CHECK(b[8] == 0x34 && b[9] == 0x12 && b[16] == 3 && b[17] == 0);
  for (int i = 24; i < 32; ++i) CHECK(b[i] == 0);
  CHECK(b[32] == 0x5a); /* the words are not the header's */
  CHECK_OK(gcol_bloom_check_bytes(b, sizeof b, nb, seed, 8));
#define REFUSED(stmt, len, blocks, sd, kb, what)                                                  \
  memcpy(bad, b, sizeof b);                                                                      \
  stmt;                                                                                          \
  CHECK_STATUS(gcol_bloom_check_bytes(bad, len, blocks, sd, kb), GCOL_ERROR_INVALID_ARGUMENT); \
  CHECK(strstr(gcol_last_error_message(), what) != NULL)
  REFUSED((void)0, sizeof b - 1, nb, seed, 8, "exports");     /* short */
  REFUSED((void)0, sizeof b + 1, nb, seed, 8, "exports");     /* long */
  REFUSED((void)0, 31, nb, seed, 8, "header");                /* shorter than the header */
  REFUSED(bad[0] = 'X', sizeof b, nb, seed, 8, "GBLM");       /* magic */
  REFUSED(bad[4] = 2, sizeof b, nb, seed, 8, "format");       /* format version */
  REFUSED(bad[7] = 1, sizeof b, nb, seed, 8, "reserved");     /* reserved */
  REFUSED(bad[31] = 1, sizeof b, nb, seed, 8, "reserved");    /* reserved */
  REFUSED((void)0, sizeof b, nb, seed, 4, "4-byte keys");     /* key width */
  REFUSED((void)0, sizeof b, nb, seed + 1, 8, "seed");        /* seed */
  REFUSED((void)0, sizeof b, nb + 1, seed, 8, "blocks");      /* block count */
#undef REFUSED
  CHECK_STATUS(gcol_bloom_check_bytes(NULL, sizeof b, nb, seed, 8), GCOL_ERROR_INVALID_ARGUMENT);
  return TEST_PASS;
}

/* Export and import: argument errors come first, with or without a GPU. */
TEST(bloom_export_import_reject_bad_arguments) {
  size_t x = 0;
  uint8_t bytes[64] = {0};
  CHECK_STATUS(gcol_bloom_export_size(NULL, &x), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "gcol_bloom_export_size") != NULL);
  CHECK_STATUS(gcol_bloom_export(NULL, bytes, sizeof bytes, &x, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "gcol_bloom_export") != NULL);
  CHECK_STATUS(gcol_bloom_import(NULL, bytes, sizeof bytes, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "gcol_bloom_import") != NULL);
  /* another object's address is not a filter */
  CHECK_STATUS(gcol_bloom_export_size((gcol_bloom_t *)bytes, &x), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_export((gcol_bloom_t *)bytes, bytes, sizeof bytes, &x, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_bloom_import((gcol_bloom_t *)bytes, bytes, sizeof bytes, 0), GCOL_ERROR_INVALID_ARGUMENT);
  return TEST_PASS;
}

TEST(sketch_create_without_gpu_reports_no_device) {
  if (test_have_gpu()) return TEST_SKIP;
  gcol_bloom_config_t c = gcol_bloom_config_default(GCOL_U64);
  c.size_bytes = 1024;
  gcol_bloom_t *b = (gcol_bloom_t *)&c;
  CHECK_STATUS(gcol_bloom_create(&b, &c, 0), GCOL_ERROR_NO_DEVICE);
  CHECK(b == NULL);
  gcol_hll_config_t hc = gcol_hll_config_default();
  gcol_hll_t *h = (gcol_hll_t *)&hc;
  CHECK_STATUS(gcol_hll_create(&h, &hc, 0), GCOL_ERROR_NO_DEVICE);
  CHECK(h == NULL);
  return TEST_PASS;
}

TEST(hll_config_defaults_and_refusals) {
  gcol_hll_config_t c = gcol_hll_config_default(), out;
  CHECK(c.precision == 13);
  for (int p = 4; p <= 18; ++p) {
    c.precision = p;
    CHECK_OK(gcol_hll_config_take(&c, &out));
  }
  int bad[] = {-1, 0, 3, 19, 64};
  for (int i = 0; i < 5; ++i) {
    c.precision = bad[i];
    CHECK_STATUS(gcol_hll_config_take(&c, &out), GCOL_ERROR_INVALID_ARGUMENT);
    gcol_hll_t *h = (gcol_hll_t *)&c;
    CHECK_STATUS(gcol_hll_create(&h, &c, 0), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK(h == NULL && strstr(gcol_last_error_message(), "precision") != NULL);
  }
  c = gcol_hll_config_default();
  c.allocator.free = (void (*)(void *, void *, size_t, cudaStream_t))1;
  CHECK_STATUS(gcol_hll_config_take(&c, &out), GCOL_ERROR_INVALID_ARGUMENT);
  return TEST_PASS;
}

TEST(hll_calls_reject_null_arguments) {
  double e;
  size_t x;
  int p;
  uint64_t k = 0;
  uint8_t bytes[32] = {0};
  gcol_hll_view_t v;
  CHECK_STATUS(gcol_hll_create(NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_add(NULL, &k, 1, GCOL_U64, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_add_raw(NULL, &k, 1, 8, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_merge(NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_estimate(NULL, &e, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_clear(NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_export_size(NULL, &x), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_export(NULL, bytes, 32, &x, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_import(NULL, bytes, 32, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_import_merge(NULL, bytes, 32, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_precision(NULL, &p), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_hll_device_view(NULL, &v), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_hll_destroy(NULL);
  return TEST_PASS;
}

/* The estimator over CPU-reference registers of n distinct items: within
 * 3 standard errors (1.04 / sqrt(m)) from 0 to 4M items, precisions 4..14. */
TEST(hll_estimator_within_three_standard_errors) {
  size_t ns[] = {0, 1, 10, 100, 1000, 10000, 100000, 1000000, 4000000};
  size_t max_n = 4000000;
  uint64_t *items = (uint64_t *)malloc(max_n * sizeof *items);
  CHECK(items);
  for (size_t i = 0; i < max_n; ++i) items[i] = tu_mix64(i + 12345);
  int ps[] = {4, 8, 12, 14};
  for (int pi = 0; pi < 4; ++pi) {
    int p = ps[pi];
    uint32_t *reg = (uint32_t *)calloc((size_t)1 << p, sizeof *reg);
    size_t done = 0;
    for (int ni = 0; ni < 9; ++ni) {
      ref_hll_add(reg, p, 0x9e3779b97f4a7c15ULL, items + done, ns[ni] - done, 8, 0);
      done = ns[ni];
      double est = gcol_hll_estimate_registers(reg, p), n = (double)ns[ni];
      double se = 1.04 / sqrt((double)(1u << p));
      int ok = n == 0 ? est == 0.0 : fabs(est - n) <= 3 * se * n + 0.5;
      if (!ok) fprintf(stderr, "    p %d n %zu estimate %.1f (3 se = %.1f%%)\n", p, ns[ni], est, 300 * se);
      CHECK(ok);
    }
    free(reg);
  }
  free(items);
  return TEST_PASS;
}

TEST(hll_bytes_round_trip_and_malformed_bytes_refused) {
  int p = 6;
  uint64_t seed = 42;
  uint32_t reg[64], back[64];
  for (int i = 0; i < 64; ++i) reg[i] = (uint32_t)(i % 60);
  uint8_t b[16 + 64], bad[16 + 64];
  gcol_hll_encode(reg, p, seed, b);
  CHECK(memcmp(b, "GHLL", 4) == 0 && b[4] == 1 && b[5] == 6 && b[8] == 42);
  CHECK_OK(gcol_hll_decode(b, sizeof b, p, seed, back));
  CHECK(memcmp(reg, back, sizeof reg) == 0);
  memset(back, 0xee, sizeof back);
#define REFUSED(stmt, len, pp, sd)                                                  \
  memcpy(bad, b, sizeof b);                                                         \
  stmt;                                                                             \
  CHECK_STATUS(gcol_hll_decode(bad, len, pp, sd, back), GCOL_ERROR_INVALID_ARGUMENT); \
  CHECK(back[0] == 0xeeeeeeeeu)
  REFUSED((void)0, sizeof b - 1, p, seed);  /* short */
  REFUSED((void)0, sizeof b + 1, p, seed);  /* long */
  REFUSED((void)0, 10, p, seed);            /* shorter than the header */
  REFUSED(bad[0] = 'X', sizeof b, p, seed); /* magic */
  REFUSED(bad[4] = 2, sizeof b, p, seed);   /* format version */
  REFUSED(bad[6] = 1, sizeof b, p, seed);   /* reserved */
  REFUSED((void)0, sizeof b, 7, seed);      /* precision */
  REFUSED((void)0, sizeof b, p, 43);        /* seed */
  REFUSED(bad[16 + 5] = 60, sizeof b, p, seed); /* rank above 65 - p = 59 */
#undef REFUSED
  CHECK_STATUS(gcol_hll_decode(NULL, 80, p, seed, back), GCOL_ERROR_INVALID_ARGUMENT);
  return TEST_PASS;
}
