/* GPU tests of gcol_select_flagged against a CPU reference on fresh random
 * inputs: every item size, both orders, n = 0, 1, 31, 32, 33, 1M+7 (and 200M
 * for a few sizes), random / all / none / alternating flags. Outputs start
 * poisoned (0xA5); what lies past the count must still be poison.
 * STABLE is compared exactly. ANY is compared as a multiset: items of 4, 8
 * and 16 bytes encode their index (a bijection with a random salt), so each
 * output decodes to one input that must be flagged and seen once; 1- and
 * 2-byte items compare value histograms. */
#include <string.h>
#include "harness.h"
#include "test_util.h"

typedef enum { FL_RANDOM, FL_ALL, FL_NONE, FL_ALTERNATE } flags_kind_t;

/* Item i of a run: b bytes that encode i (b >= 4) or random bytes (b <= 2). */
static void make_item(uint8_t *dst, size_t i, size_t b, uint64_t salt, tu_rng_t *r) {
  uint64_t w[2];
  switch (b) {
    case 1: case 2: w[0] = tu_next(r); break;
    case 4: w[0] = tu_mix32((uint32_t)(i + salt)); break;
    case 8: w[0] = tu_mix64(i + salt); break;
    default: w[0] = tu_mix64(i + salt), w[1] = i ^ (salt * 0x9e3779b97f4a7c15ULL);
  }
  memcpy(dst, w, b);
}

/* The index an item of b >= 4 bytes encodes, or (size_t)-1 if it encodes none. */
static size_t item_index(const uint8_t *src, size_t b, uint64_t salt) {
  uint64_t w[2] = {0, 0};
  memcpy(w, src, b);
  uint64_t i;
  if (b == 4) i = (uint32_t)(tu_unmix32((uint32_t)w[0]) - (uint32_t)salt);
  else if (b == 8) i = tu_unmix64(w[0]) - salt;
  else {
    i = w[1] ^ (salt * 0x9e3779b97f4a7c15ULL);
    if (tu_mix64(i + salt) != w[0]) return (size_t)-1;
  }
  return (size_t)i;
}

static int all_poison(const uint8_t *p, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i)
    if (p[i] != 0xA5) return 0;
  return 1;
}

/* ANY order: the output is a permutation of the reference. */
static int same_multiset(const uint8_t *got, const uint8_t *flags, size_t n, size_t k, size_t b, uint64_t salt,
                         const uint8_t *ref) {
  if (b <= 2) {
    size_t bins = (size_t)1 << (8 * b);
    long long *h = calloc(bins, sizeof *h);
    for (size_t j = 0; j < k; ++j) {
      h[b == 1 ? ref[j] : ((const uint16_t *)ref)[j]]++;
      h[b == 1 ? got[j] : ((const uint16_t *)got)[j]]--;
    }
    int ok = 1;
    for (size_t v = 0; v < bins; ++v) ok &= h[v] == 0;
    free(h);
    return ok;
  }
  uint8_t *seen = calloc(n / 8 + 1, 1);
  int ok = 1;
  for (size_t j = 0; j < k && ok; ++j) {
    size_t i = item_index(got + j * b, b, salt);
    ok = i < n && flags[i] && !(seen[i / 8] >> (i % 8) & 1);
    if (ok) seen[i / 8] |= (uint8_t)(1u << (i % 8));
  }
  free(seen);
  return ok;
}

/* One full check: fresh inputs, size query, run, compare. 0: pass. */
static int check_select(size_t n, size_t b, gcol_order_t order, flags_kind_t kind, size_t in_off) {
  tu_rng_t r = {(test_seed() ^ (n * 0x9e37u + b * 131 + (size_t)order * 7 + (size_t)kind * 3 + in_off)) | 1};
  uint64_t salt = tu_next(&r);
  uint8_t *items = malloc(n * b + 1), *flags = malloc(n + 1), *ref = malloc(n * b + 1);
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    int sel = kind == FL_ALL || (kind == FL_ALTERNATE && i % 2 == 0) || (kind == FL_RANDOM && (tu_next(&r) & 1));
    flags[i] = sel ? (uint8_t)(1 + tu_next(&r) % 255) : 0; /* any non-zero byte selects */
    make_item(items + i * b, i, b, salt, &r);
    if (sel) memcpy(ref + (k++) * b, items + i * b, b);
  }
  /* inputs at an offset of in_off items (and bytes for the flags) */
  uint8_t *d_in = tu_poisoned((n + in_off) * b + 16), *d_flags = tu_poisoned(n + in_off + 1);
  uint8_t *d_out = tu_poisoned((n + in_off) * b + 16);
  size_t *d_count = tu_poisoned(sizeof(size_t));
  int fail = !d_in || !d_flags || !d_out || !d_count;
  if (!fail && n) {
    fail |= cudaMemcpy(d_in + in_off * b, items, n * b, cudaMemcpyHostToDevice) != cudaSuccess;
    fail |= cudaMemcpy(d_flags + in_off, flags, n, cudaMemcpyHostToDevice) != cudaSuccess;
  }
  size_t bytes = 0;
  void *d_temp = NULL;
  if (!fail && gcol_select_flagged(NULL, &bytes, d_in + in_off * b, d_flags + in_off, d_out + in_off * b, d_count,
                                   n, b, order, 0) != GCOL_SUCCESS) {
    fprintf(stderr, "    size query failed\n");
    fail = 1;
  }
  if (!fail && (bytes == 0 || cudaMalloc(&d_temp, bytes) != cudaSuccess)) fail = 1;
  if (!fail) {
    gcol_status_t st = gcol_select_flagged(d_temp, &bytes, d_in + in_off * b, d_flags + in_off,
                                           d_out + in_off * b, d_count, n, b, order, 0);
    if (st != GCOL_SUCCESS) fprintf(stderr, "    run: %s\n", gcol_status_string(st));
    fail = st != GCOL_SUCCESS || cudaDeviceSynchronize() != cudaSuccess;
  }
  size_t got_k = 0;
  uint8_t *got = malloc((n + in_off) * b + 16);
  if (!fail) fail = tu_to_host(&got_k, d_count, sizeof got_k) || tu_to_host(got, d_out, (n + in_off) * b + 16);
  if (!fail && got_k != k) {
    fprintf(stderr, "    count %zu, expected %zu\n", got_k, k);
    fail = 1;
  }
  if (!fail) {
    const uint8_t *out = got + in_off * b;
    int ok = all_poison(got, in_off * b) && all_poison(out + k * b, (n - k) * b + 16);
    if (!ok) fprintf(stderr, "    wrote outside the selected range\n");
    int same = order == GCOL_ORDER_STABLE ? memcmp(out, ref, k * b) == 0
                                          : same_multiset(out, flags, n, k, b, salt, ref);
    if (!same) fprintf(stderr, "    selected items differ from the reference\n");
    fail = !ok || !same;
  }
  if (fail)
    fprintf(stderr, "    failed: n=%zu item_bytes=%zu order=%s flags=%d offset=%zu\n", n, b,
            order == GCOL_ORDER_ANY ? "ANY" : "STABLE", (int)kind, in_off);
  cudaFree(d_temp);
  tu_free(d_in), tu_free(d_flags), tu_free(d_out), tu_free(d_count);
  free(items), free(flags), free(ref), free(got);
  return fail;
}

static const size_t item_sizes[] = {1, 2, 4, 8, 16};

TEST(select_flagged_matches_cpu_reference) {
  REQUIRE_GPU();
  const size_t ns[] = {0, 1, 31, 32, 33, 1000007};
  for (int o = 0; o < 2; ++o)
    for (int s = 0; s < 5; ++s)
      for (int j = 0; j < 6; ++j)
        for (int kind = 0; kind < 4; ++kind) {
          if (ns[j] > test_max_n()) continue;
          CHECK(check_select(ns[j], item_sizes[s], o ? GCOL_ORDER_STABLE : GCOL_ORDER_ANY, (flags_kind_t)kind, 0) ==
                0);
        }
  return TEST_PASS;
}

/* Sub-arrays: inputs and output one item in, flags one byte in (aligned to
 * the item, not to any vector width). */
TEST(select_flagged_offset_pointers) {
  REQUIRE_GPU();
  for (int o = 0; o < 2; ++o)
    for (int s = 0; s < 5; ++s) {
      size_t n = 100003 > test_max_n() ? 1000 : 100003;
      CHECK(check_select(n, item_sizes[s], o ? GCOL_ORDER_STABLE : GCOL_ORDER_ANY, FL_RANDOM, 1) == 0);
      CHECK(check_select(n, item_sizes[s], o ? GCOL_ORDER_STABLE : GCOL_ORDER_ANY, FL_RANDOM, 3) == 0);
    }
  return TEST_PASS;
}

TEST(select_flagged_200m) {
  REQUIRE_GPU();
  const size_t n = 200000000;
  if (n > test_max_n()) return TEST_SKIP;
  CHECK(check_select(n, 16, GCOL_ORDER_ANY, FL_RANDOM, 0) == 0);
  CHECK(check_select(n, 16, GCOL_ORDER_STABLE, FL_RANDOM, 0) == 0);
  CHECK(check_select(n, 4, GCOL_ORDER_ANY, FL_ALTERNATE, 0) == 0);
  return TEST_PASS;
}

/* On a GPU: too little temp storage and misaligned real pointers are refused
 * without touching the outputs. */
TEST(select_flagged_refuses_small_temp_and_misalignment) {
  REQUIRE_GPU();
  const size_t n = 4096;
  uint8_t *d_in = tu_poisoned(n * 16 + 16), *d_flags = tu_poisoned(n), *d_out = tu_poisoned(n * 16 + 16);
  size_t *d_count = tu_poisoned(16);
  CHECK(d_in && d_flags && d_out && d_count);
  size_t need = 0;
  CHECK_OK(gcol_select_flagged(NULL, &need, d_in, d_flags, d_out, d_count, n, 16, GCOL_ORDER_STABLE, 0));
  CHECK(need > 0);
  void *d_temp = NULL;
  CHECK_CUDA(cudaMalloc(&d_temp, need));
  size_t small = need - 1;
  CHECK_STATUS(gcol_select_flagged(d_temp, &small, d_in, d_flags, d_out, d_count, n, 16, GCOL_ORDER_STABLE, 0),
               GCOL_ERROR_INVALID_ARGUMENT);
  for (int o = 0; o < 2; ++o) {
    gcol_order_t ord = o ? GCOL_ORDER_STABLE : GCOL_ORDER_ANY;
    CHECK_STATUS(gcol_select_flagged(d_temp, &need, d_in + 8, d_flags, d_out, d_count, n, 16, ord, 0),
                 GCOL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(gcol_select_flagged(d_temp, &need, d_in, d_flags, d_out + 4, d_count, n, 8, ord, 0),
                 GCOL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(gcol_select_flagged(d_temp, &need, d_in, d_flags, d_out, (size_t *)((uint8_t *)d_count + 4), n, 8,
                                     ord, 0),
                 GCOL_ERROR_INVALID_ARGUMENT);
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  uint8_t h[16];
  CHECK(tu_to_host(h, d_count, 16) == 0);
  CHECK(all_poison(h, 16));
  cudaFree(d_temp);
  tu_free(d_in), tu_free(d_flags), tu_free(d_out), tu_free(d_count);
  return TEST_PASS;
}
