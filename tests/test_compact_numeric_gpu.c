/* GPU tests of gcol_reduce and gcol_exclusive_scan against a serial CPU
 * reference on fresh random inputs: every type x op, n = 0, 1, 31, 32, 33,
 * 1M+7. Outputs start poisoned; elements past the result must stay poison.
 *
 * Exactness: integers (full-range random bits; ADD wraps) and MIN/MAX of
 * every type are compared bit for bit. Float ADD is tested twice: on small
 * integers in [-8, 8], where every partial sum of up to 1M+7 terms is an
 * integer below 2^24 and thus exact in any order (bit-for-bit compare), and
 * on fractions in [-1, 1) against a long double reference with the bound
 *   reduce: |got - ref| <= tol * sum|x|,   scan: |got[i] - ref[i]| <= tol * sum_{j<i}|x[j]|
 * tol = 1e-4 (F32) and 1e-12 (F64): CUB sums a thread's items serially, then
 * a tree, then (scan) a chain of tile prefixes, which bounds the error by
 * about (items per thread + log2(block) + tiles) * eps; for 1M items that is
 * a few hundred eps (F32: ~3e-5), so the tolerance has about 3x margin. */
#include <math.h>
#include <string.h>
#include "harness.h"
#include "test_util.h"

static const gcol_type_t types[] = {GCOL_U32, GCOL_U64, GCOL_I32, GCOL_I64, GCOL_F32, GCOL_F64};
static const gcol_op_t ops[] = {GCOL_OP_ADD, GCOL_OP_MIN, GCOL_OP_MAX};
static const char *type_names[] = {"U32", "U64", "I32", "I64", "F32", "F64"};

typedef enum { DATA_BITS, DATA_SMALL_INTS, DATA_FRACTIONS } data_t;

/* a op b on element bits (4-byte types in the low 32 bits), serially exact. */
static uint64_t cpu_op(gcol_type_t t, gcol_op_t op, uint64_t a, uint64_t b) {
  switch (t) {
    case GCOL_U32: case GCOL_U64: {
      uint64_t m = t == GCOL_U32 ? 0xffffffffULL : ~0ULL;
      return op == GCOL_OP_ADD ? (a + b) & m : op == GCOL_OP_MIN ? (b < a ? b : a) : (a < b ? b : a);
    }
    case GCOL_I32: case GCOL_I64: {
      if (op == GCOL_OP_ADD) return t == GCOL_I32 ? (a + b) & 0xffffffffULL : a + b;
      int64_t x = t == GCOL_I32 ? (int64_t)(int32_t)(uint32_t)a : (int64_t)a;
      int64_t y = t == GCOL_I32 ? (int64_t)(int32_t)(uint32_t)b : (int64_t)b;
      int take_b = op == GCOL_OP_MIN ? y < x : x < y;
      return take_b ? b : a;
    }
    case GCOL_F32: case GCOL_F64: {
      double x = tu_bits_to_double(t, a), y = tu_bits_to_double(t, b);
      if (op == GCOL_OP_ADD) return t == GCOL_F32 ? tu_double_to_bits(t, (float)x + (float)y) : tu_double_to_bits(t, x + y);
      int take_b = op == GCOL_OP_MIN ? y < x : x < y;
      return take_b ? b : a;
    }
    case GCOL_U128: break; /* a key type only */
  }
  return 0;
}

static uint64_t identity(gcol_type_t t, gcol_op_t op) {
  if (op == GCOL_OP_ADD) return 0;
  int mn = op == GCOL_OP_MIN;
  switch (t) {
    case GCOL_U32: return mn ? 0xffffffffULL : 0;
    case GCOL_U64: return mn ? ~0ULL : 0;
    case GCOL_I32: return mn ? 0x7fffffffULL : 0x80000000ULL;
    case GCOL_I64: return mn ? 0x7fffffffffffffffULL : 0x8000000000000000ULL;
    case GCOL_F32: case GCOL_F64: return tu_double_to_bits(t, mn ? INFINITY : -INFINITY);
    case GCOL_U128: break;
  }
  return 0;
}

static uint64_t random_element(gcol_type_t t, data_t d, tu_rng_t *r) {
  uint64_t x = tu_next(r);
  if (d == DATA_SMALL_INTS) return tu_double_to_bits(t, (double)(int)(x % 17) - 8.0);
  if (t == GCOL_F32 || t == GCOL_F64) return tu_double_to_bits(t, (double)(x >> 11) / 9007199254740992.0 * 2.0 - 1.0);
  return gcol_type_size(t) == 4 ? x & 0xffffffffULL : x;
}

/* Reduce (scan = 0) or exclusive scan (scan = 1) of one type x op x size. */
static int check_numeric(int scan, size_t n, gcol_type_t t, gcol_op_t op, data_t data) {
  const size_t b = gcol_type_size(t), out_n = (scan ? n : 1) + 2; /* 2 guard elements */
  tu_rng_t r = {(test_seed() ^ (n * 7919 + (size_t)t * 31 + (size_t)op * 5 + (size_t)data * 3 + (size_t)scan)) | 1};
  void *in = malloc(n * b + 8), *got = malloc(out_n * b);
  uint64_t *ref = malloc(out_n * sizeof *ref);
  long double *lref = malloc(out_n * sizeof *lref), *labs = malloc(out_n * sizeof *labs);
  for (size_t i = 0; i < n; ++i) tu_put(in, i, b, random_element(t, data, &r));
  /* serial reference: ref[i] = exclusive prefix (ref[n] = the reduction) */
  uint64_t acc = identity(t, op);
  long double lacc = 0, lab = 0;
  for (size_t i = 0; i <= n; ++i) {
    if (scan ? i < out_n : i == n) ref[scan ? i : 0] = acc, lref[scan ? i : 0] = lacc, labs[scan ? i : 0] = lab;
    if (i == n) break;
    uint64_t x = tu_get(in, i, b);
    acc = cpu_op(t, op, acc, x);
    if (t == GCOL_F32 || t == GCOL_F64) lacc += tu_bits_to_double(t, x), lab += fabs(tu_bits_to_double(t, x));
  }
  void *d_in = tu_poisoned(n * b + 8), *d_out = tu_poisoned(out_n * b), *d_temp = NULL;
  int fail = !d_in || !d_out || (n && cudaMemcpy(d_in, in, n * b, cudaMemcpyHostToDevice) != cudaSuccess);
  size_t bytes = 0;
  gcol_status_t st = GCOL_SUCCESS;
  if (!fail) st = scan ? gcol_exclusive_scan(NULL, &bytes, d_in, d_out, n, t, op, 0)
                       : gcol_reduce(NULL, &bytes, d_in, d_out, n, t, op, 0);
  fail = fail || st != GCOL_SUCCESS || bytes == 0 || cudaMalloc(&d_temp, bytes) != cudaSuccess;
  if (!fail) st = scan ? gcol_exclusive_scan(d_temp, &bytes, d_in, d_out, n, t, op, 0)
                       : gcol_reduce(d_temp, &bytes, d_in, d_out, n, t, op, 0);
  fail = fail || st != GCOL_SUCCESS || cudaDeviceSynchronize() != cudaSuccess || tu_to_host(got, d_out, out_n * b);
  const size_t m = scan ? n : 1; /* elements written */
  int inexact = data == DATA_FRACTIONS && op == GCOL_OP_ADD;
  double tol = t == GCOL_F32 ? 1e-4 : 1e-12;
  for (size_t i = 0; !fail && i < m; ++i) {
    uint64_t g = tu_get(got, i, b);
    if (inexact ? fabsl((long double)tu_bits_to_double(t, g) - lref[i]) > tol * labs[i] + 1e-30 : g != ref[i]) {
      fprintf(stderr, "    element %zu: got %#llx (%g), want %#llx (%g)\n", i, (unsigned long long)g,
              inexact ? tu_bits_to_double(t, g) : 0.0, (unsigned long long)ref[i], inexact ? (double)lref[i] : 0.0);
      fail = 1;
    }
  }
  for (size_t i = m * b; !fail && i < out_n * b; ++i)
    if (((uint8_t *)got)[i] != 0xA5) fail = 1, fprintf(stderr, "    wrote past the output\n");
  if (fail)
    fprintf(stderr, "    failed: %s n=%zu type=%s op=%d data=%d (%s)\n", scan ? "scan" : "reduce", n,
            type_names[t], (int)op, (int)data, gcol_status_string(st));
  cudaFree(d_temp);
  tu_free(d_in), tu_free(d_out);
  free(in), free(got), free(ref), free(lref), free(labs);
  return fail;
}

static int check_all(int scan) {
  const size_t ns[] = {0, 1, 31, 32, 33, 1000007};
  for (int ti = 0; ti < 6; ++ti)
    for (int oi = 0; oi < 3; ++oi)
      for (int j = 0; j < 6; ++j) {
        if (ns[j] > test_max_n()) continue;
        int is_float = types[ti] == GCOL_F32 || types[ti] == GCOL_F64;
        if (check_numeric(scan, ns[j], types[ti], ops[oi], is_float ? DATA_FRACTIONS : DATA_BITS)) return 1;
        if (is_float && ops[oi] == GCOL_OP_ADD && check_numeric(scan, ns[j], types[ti], ops[oi], DATA_SMALL_INTS))
          return 1;
      }
  return 0;
}

TEST(reduce_matches_cpu_reference) {
  REQUIRE_GPU();
  CHECK(check_all(0) == 0);
  return TEST_PASS;
}

TEST(scan_matches_cpu_reference) {
  REQUIRE_GPU();
  CHECK(check_all(1) == 0);
  return TEST_PASS;
}

/* d_out == d_in: the documented in-place scan. */
TEST(scan_in_place) {
  REQUIRE_GPU();
  const size_t n = 100003;
  uint32_t *h = malloc(n * 4), *want = malloc(n * 4);
  tu_rng_t r = {test_seed() | 1};
  uint32_t acc = 0;
  for (size_t i = 0; i < n; ++i) h[i] = (uint32_t)tu_next(&r), want[i] = acc, acc += h[i];
  uint32_t *d = tu_to_device(h, n * 4);
  CHECK(d);
  size_t bytes = 0;
  void *tmp = NULL;
  CHECK_OK(gcol_exclusive_scan(NULL, &bytes, d, d, n, GCOL_U32, GCOL_OP_ADD, 0));
  CHECK_CUDA(cudaMalloc(&tmp, bytes));
  CHECK_OK(gcol_exclusive_scan(tmp, &bytes, d, d, n, GCOL_U32, GCOL_OP_ADD, 0));
  CHECK(tu_to_host(h, d, n * 4) == 0);
  CHECK(memcmp(h, want, n * 4) == 0);
  cudaFree(tmp);
  tu_free(d);
  free(h), free(want);
  return TEST_PASS;
}

/* Too little temp storage is refused on a GPU (the size is the device's). */
TEST(reduce_scan_refuse_small_temp) {
  REQUIRE_GPU();
  const size_t n = 1 << 20;
  void *d_in = tu_poisoned(n * 8), *d_out = tu_poisoned(n * 8), *tmp = NULL;
  CHECK(d_in && d_out);
  size_t rb = 0, sb = 0;
  CHECK_OK(gcol_reduce(NULL, &rb, d_in, d_out, n, GCOL_F64, GCOL_OP_ADD, 0));
  CHECK_OK(gcol_exclusive_scan(NULL, &sb, d_in, d_out, n, GCOL_F64, GCOL_OP_ADD, 0));
  CHECK(rb > 1 && sb > 1);
  CHECK_CUDA(cudaMalloc(&tmp, rb > sb ? rb : sb));
  rb -= 1, sb -= 1;
  CHECK_STATUS(gcol_reduce(tmp, &rb, d_in, d_out, n, GCOL_F64, GCOL_OP_ADD, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_exclusive_scan(tmp, &sb, d_in, d_out, n, GCOL_F64, GCOL_OP_ADD, 0), GCOL_ERROR_INVALID_ARGUMENT);
  cudaFree(tmp);
  tu_free(d_in), tu_free(d_out);
  return TEST_PASS;
}
