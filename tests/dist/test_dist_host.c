/* Host-side tests of libgcol_nccl (no GPU, no NCCL communicator needed):
 * key ownership, round planning, config fingerprints, status agreement and
 * the public API's argument checks. */
#include <limits.h>
#include <string.h>

#include "../harness.h"
#include "dist/dist_plan.h"
#include "dist_data.h"
#include "gcol/gcol_nccl.h"

/* ---- owner ---------------------------------------------------------------- */

TEST(dist_host_owner_in_range_and_deterministic) {
  const int ns[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 64, 1000};
  dd_rng_t g = dd_rng(test_seed(), 10);
  for (size_t a = 0; a < sizeof ns / sizeof ns[0]; ++a) {
    for (int i = 0; i < 20000; ++i) {
      uint64_t k = i < 100 ? (uint64_t)i : dd_next(&g);
      int o = gcol_dist_owner(k, ns[a]);
      CHECK(o >= 0 && o < ns[a]);
      CHECK(gcol_dist_owner(k, ns[a]) == o);
      /* the inline function the kernels use must agree */
      CHECK((int)gcol_dist_owner_of(k, (uint32_t)ns[a]) == o);
    }
  }
  CHECK(gcol_dist_owner(~0ULL, 1) == 0 && gcol_dist_owner(0, 1) == 0);
  return TEST_PASS;
}

TEST(dist_host_owner_refuses_no_ranks) {
  CHECK(gcol_dist_owner(0, 0) == -1);
  CHECK(gcol_dist_owner(12345, -1) == -1);
  CHECK(gcol_dist_owner(~0ULL, INT_MIN) == -1);
  return TEST_PASS;
}

/* keys = first + i * stride for i < 1M: each of n ranks owns 1/n within 1%. */
static test_result_t balanced(uint64_t first, uint64_t stride, int n) {
  enum { N = 1 << 20 };
  size_t count[8] = {0};
  for (uint64_t i = 0; i < N; ++i) ++count[gcol_dist_owner(first + i * stride, n)];
  double share = (double)N / n;
  for (int r = 0; r < n; ++r) {
    if (count[r] < share * 0.99 || count[r] > share * 1.01) {
      fprintf(stderr, "    stride %llu, %d ranks: rank %d owns %zu of %d\n", (unsigned long long)stride, n, r,
              count[r], N);
      return TEST_FAIL;
    }
  }
  return TEST_PASS;
}

TEST(dist_host_owner_balanced_on_sequential_keys) {
  for (int n = 2; n <= 8; ++n) RUN(balanced(0, 1, n));
  return TEST_PASS;
}

/* Owners must not follow the low bits: keys that differ only above bit 10,
 * or only in the high word, still spread evenly. */
TEST(dist_host_owner_balanced_on_strided_keys) {
  const int ns[] = {2, 3, 8};
  for (int a = 0; a < 3; ++a) {
    RUN(balanced(0, 1024, ns[a]));
    RUN(balanced(7, 1ULL << 32, ns[a]));
    RUN(balanced(1ULL << 40, 4096 + 1024, ns[a]));
  }
  return TEST_PASS;
}

/* A 32-bit key's owner is that of its bits zero-extended (what the API says),
 * which differs from sign extension: a library that sign-extended i32 keys
 * somewhere would send them to the wrong rank. */
TEST(dist_host_owner_of_32_bit_keys_zero_extends) {
  int differs = 0, total = 0;
  dd_rng_t g = dd_rng(test_seed(), 11);
  for (int i = 0; i < 10000; ++i) {
    int32_t k = (int32_t)(uint32_t)dd_next(&g) | INT32_MIN; /* negative */
    uint64_t zero = (uint64_t)(uint32_t)k, sign = (uint64_t)(int64_t)k;
    CHECK(zero == (sign & 0xffffffffULL) && zero != sign);
    CHECK(gcol_dist_owner((uint32_t)k, 8) == gcol_dist_owner(zero, 8));
    differs += gcol_dist_owner(zero, 8) != gcol_dist_owner(sign, 8);
    ++total;
  }
  CHECK(differs > total / 2); /* ~7/8 expected: extension matters */
  return TEST_PASS;
}

/* ---- rounds ---------------------------------------------------------------- */

TEST(dist_host_round_pairs_heuristic) {
  CHECK(gcol_dist_round_pairs(1) == (size_t)1 << 24);
  CHECK(gcol_dist_round_pairs(2) == (size_t)1 << 23);
  CHECK(gcol_dist_round_pairs(64) == (size_t)1 << 18);
  CHECK(gcol_dist_round_pairs(1000) == (size_t)1 << 18);
  for (int n = 1; n <= 4096; ++n) {
    size_t want = ((size_t)1 << 24) / (size_t)n;
    if (want < (size_t)1 << 18) want = (size_t)1 << 18;
    CHECK(gcol_dist_round_pairs(n) == want);
  }
  return TEST_PASS;
}

TEST(dist_host_round_pairs_override) {
  gcol_dist_set_round_pairs(1000);
  int ok = gcol_dist_round_pairs_in_use(1) == 1000 && gcol_dist_round_pairs_in_use(64) == 1000;
  gcol_dist_set_round_pairs(0);
  CHECK(ok);
  CHECK(gcol_dist_round_pairs_in_use(1) == gcol_dist_round_pairs(1));
  CHECK(gcol_dist_round_pairs_in_use(3) == gcol_dist_round_pairs(3));
  return TEST_PASS;
}

TEST(dist_host_pieces) {
  CHECK(gcol_dist_pieces(0, 4) == 0);
  CHECK(gcol_dist_pieces(1, 4) == 1);
  CHECK(gcol_dist_pieces(4, 4) == 1);
  CHECK(gcol_dist_pieces(5, 4) == 2);
  CHECK(gcol_dist_pieces(1ULL << 40, 1 << 18) == (size_t)1 << 22);
  CHECK(gcol_dist_pieces((1ULL << 40) + 1, 1 << 18) == ((size_t)1 << 22) + 1);
  return TEST_PASS;
}

TEST(dist_host_num_rounds) {
  const uint64_t zeros[4] = {0, 0, 0, 0}, send[4] = {0, 5, 0, 8}, recv[4] = {9, 0, 0, 1};
  CHECK(gcol_dist_num_rounds(zeros, zeros, 4, 4) == 0);
  CHECK(gcol_dist_num_rounds(send, zeros, 4, 4) == 2); /* 8 to rank 3 */
  CHECK(gcol_dist_num_rounds(zeros, recv, 4, 4) == 3); /* 9 from rank 0 */
  CHECK(gcol_dist_num_rounds(send, recv, 4, 4) == 3);
  CHECK(gcol_dist_num_rounds(send, recv, 4, 100) == 1);
  /* a rank with nothing to send still takes part in its receive rounds */
  CHECK(gcol_dist_num_rounds(zeros, recv, 4, 1) == 9);
  return TEST_PASS;
}

TEST(dist_host_round_layout_example) {
  const uint64_t counts[4] = {5, 0, 12, 3};
  size_t piece[4], off[4];
  const size_t want_piece[4][4] = {{4, 0, 4, 3}, {1, 0, 4, 0}, {0, 0, 4, 0}, {0, 0, 0, 0}};
  const size_t want_total[4] = {11, 5, 4, 0};
  for (size_t k = 0; k < 4; ++k) {
    CHECK(gcol_dist_round_layout(counts, 4, 4, k, piece, off) == want_total[k]);
    size_t at = 0;
    for (int p = 0; p < 4; ++p) {
      CHECK(piece[p] == want_piece[k][p]);
      CHECK(off[p] == at);
      at += piece[p];
    }
  }
  CHECK(gcol_dist_round_layout(counts, 4, 4, 1000, piece, off) == 0);
  CHECK(piece[0] == 0 && piece[2] == 0 && off[3] == 0);
  return TEST_PASS;
}

/* Random counts: every round's pieces are contiguous in rank order, at most
 * q, full until a peer's last (partial) piece, and add up to each count. */
TEST(dist_host_round_layout_random) {
  enum { P = 9 };
  dd_rng_t g = dd_rng(test_seed(), 12);
  for (int trial = 0; trial < 200; ++trial) {
    uint64_t counts[P], sum[P] = {0};
    size_t q = 1 + (size_t)dd_below(&g, 50), piece[P], off[P];
    for (int p = 0; p < P; ++p) counts[p] = dd_below(&g, 4) == 0 ? 0 : dd_below(&g, 400);
    size_t rounds = gcol_dist_num_rounds(counts, counts, P, q);
    for (size_t k = 0; k < rounds + 2; ++k) {
      size_t total = gcol_dist_round_layout(counts, P, q, k, piece, off), at = 0;
      for (int p = 0; p < P; ++p) {
        size_t full = (size_t)(counts[p] / q), last = (size_t)(counts[p] % q);
        size_t want = k < full ? q : k == full ? last : 0;
        CHECK(piece[p] == want);
        CHECK(off[p] == at);
        at += piece[p];
        sum[p] += piece[p];
      }
      CHECK(total == at);
      CHECK(k < rounds || total == 0);
    }
    for (int p = 0; p < P; ++p) CHECK(sum[p] == counts[p]);
  }
  return TEST_PASS;
}

TEST(dist_host_exclusive_sum) {
  const uint64_t counts[5] = {3, 0, 5, 1ULL << 40, 2};
  uint64_t starts[6];
  gcol_dist_exclusive_sum(counts, 5, starts);
  CHECK(starts[0] == 0 && starts[1] == 3 && starts[2] == 3 && starts[3] == 8);
  CHECK(starts[4] == 8 + (1ULL << 40) && starts[5] == 10 + (1ULL << 40));
  starts[0] = 99;
  gcol_dist_exclusive_sum(counts, 0, starts);
  CHECK(starts[0] == 0);
  return TEST_PASS;
}

/* ---- fingerprints ---------------------------------------------------------- */

static gcol_map_config_t base_config(void) {
  gcol_map_config_t c = gcol_map_config_default(GCOL_U64, GCOL_U32);
  c.capacity = 1000;
  c.seed = 7;
  return c;
}

/* nranks fingerprints of `same`, except rank `odd` (if >= 0) of `other`. */
static gcol_status_t compare(const gcol_map_config_t *same, const gcol_map_config_t *other, int odd,
                             int nranks) {
  gcol_dist_fingerprint_t all[4];
  for (int r = 0; r < nranks; ++r) all[r] = gcol_dist_fingerprint(r == odd ? other : same, 1);
  return gcol_dist_check_fingerprints(all, nranks);
}

TEST(dist_host_fingerprint_equal_configs_agree) {
  gcol_map_config_t a = base_config(), b;
  CHECK_OK(compare(&a, &a, -1, 1));
  CHECK_OK(compare(&a, &a, -1, 4));
  /* equal fields, different padding bytes: still equal */
  memset(&b, 0xFF, sizeof b);
  b.key_type = a.key_type, b.value_type = a.value_type, b.capacity = a.capacity;
  b.max_load_factor = a.max_load_factor, b.growable = a.growable, b.empty_key = a.empty_key;
  b.erased_key = a.erased_key, b.empty_value = a.empty_value, b.seed = a.seed;
  b.allocator = a.allocator;
  CHECK_OK(compare(&a, &b, 2, 4));
  return TEST_PASS;
}

static void *fake_alloc(void *ctx, size_t bytes, cudaStream_t s) {
  (void)ctx, (void)bytes, (void)s;
  return NULL;
}
static void fake_free(void *ctx, void *p, size_t bytes, cudaStream_t s) { (void)ctx, (void)p, (void)bytes, (void)s; }

TEST(dist_host_fingerprint_ignores_allocator) {
  gcol_map_config_t a = base_config(), b = a;
  static int ctx;
  b.allocator.alloc = fake_alloc, b.allocator.free = fake_free, b.allocator.ctx = &ctx;
  CHECK_OK(compare(&a, &b, 1, 2));
  CHECK_OK(compare(&b, &a, 0, 3));
  return TEST_PASS;
}

TEST(dist_host_fingerprint_each_field_matters) {
  const gcol_map_config_t a = base_config();
  gcol_map_config_t b[9];
  for (int i = 0; i < 9; ++i) b[i] = a;
  b[0].key_type = GCOL_I64;
  b[1].value_type = GCOL_F32;
  b[2].capacity = 1001;
  b[3].max_load_factor = 0.8000001;
  b[4].growable = 1;
  b[5].empty_key = 0;
  b[6].erased_key = 1;
  b[7].empty_value = 0;
  b[8].seed = 8;
  for (int i = 0; i < 9; ++i) {
    for (int odd = 0; odd < 3; ++odd) {
      if (compare(&a, &b[i], odd, 3) != GCOL_ERROR_INVALID_ARGUMENT) {
        fprintf(stderr, "    field %d differing on rank %d went unnoticed\n", i, odd);
        return TEST_FAIL;
      }
    }
  }
  return TEST_PASS;
}

TEST(dist_host_fingerprint_invalid_rank_fails_all) {
  gcol_map_config_t a = base_config();
  gcol_dist_fingerprint_t all[3];
  for (int bad = 0; bad < 3; ++bad) {
    for (int r = 0; r < 3; ++r) all[r] = gcol_dist_fingerprint(&a, r != bad);
    CHECK_STATUS(gcol_dist_check_fingerprints(all, 3), GCOL_ERROR_INVALID_ARGUMENT);
  }
  all[0] = gcol_dist_fingerprint(&a, 0);
  CHECK_STATUS(gcol_dist_check_fingerprints(all, 1), GCOL_ERROR_INVALID_ARGUMENT);
  all[0] = gcol_dist_fingerprint(NULL, 0); /* a rank with no config at all */
  all[1] = gcol_dist_fingerprint(&a, 1);
  CHECK_STATUS(gcol_dist_check_fingerprints(all, 2), GCOL_ERROR_INVALID_ARGUMENT);
  return TEST_PASS;
}

/* ---- severity --------------------------------------------------------------- */

/* The documented order, least severe first. */
static const gcol_status_t by_severity[] = {
    GCOL_SUCCESS,    GCOL_ERROR_FULL,      GCOL_ERROR_RESERVED_KEY,    GCOL_ERROR_OUT_OF_MEMORY,
    GCOL_ERROR_CUDA, GCOL_ERROR_NO_DEVICE, GCOL_ERROR_INVALID_ARGUMENT,
};
enum { NUM_STATUSES = sizeof by_severity / sizeof by_severity[0] };

TEST(dist_host_severity_round_trips) {
  for (int i = 0; i < NUM_STATUSES; ++i) {
    CHECK(gcol_dist_status_of_severity(gcol_dist_severity(by_severity[i])) == by_severity[i]);
    if (i) CHECK(gcol_dist_severity(by_severity[i]) > gcol_dist_severity(by_severity[i - 1]));
  }
  CHECK(gcol_dist_severity(GCOL_SUCCESS) == 0); /* a max-reduction may start from 0 */
  return TEST_PASS;
}

TEST(dist_host_severity_picks_documented_order) {
  for (int i = 0; i < NUM_STATUSES; ++i) {
    for (int j = 0; j < NUM_STATUSES; ++j) {
      int a = gcol_dist_severity(by_severity[i]), b = gcol_dist_severity(by_severity[j]);
      CHECK(gcol_dist_status_of_severity(a > b ? a : b) == by_severity[i > j ? i : j]);
    }
  }
  return TEST_PASS;
}

/* ---- public API argument checks ------------------------------------------ */

/* Stands for a communicator; never used by a call that checks its arguments. */
#define FAKE_COMM ((ncclComm_t)(uintptr_t)0x1000)
#define GARBAGE_MAP ((gcol_dist_map_t *)(uintptr_t)0x10)

TEST(dist_host_create_argument_errors) {
  gcol_map_config_t c = base_config();
  gcol_dist_map_t *m = GARBAGE_MAP;
  CHECK_STATUS(gcol_dist_map_create(NULL, &c, FAKE_COMM, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_dist_map_create(&m, NULL, FAKE_COMM, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(m == NULL);
  m = GARBAGE_MAP;
  CHECK_STATUS(gcol_dist_map_create(&m, &c, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(m == NULL);
  return TEST_PASS;
}

/* Every call of a NULL map, outside and inside a group. */
static test_result_t null_map_calls(void) {
  uint64_t dummy[4] = {0};
  size_t count = 0;
  uint8_t found[4];
  const gcol_status_t E = GCOL_ERROR_INVALID_ARGUMENT;
  CHECK_STATUS(gcol_dist_map_insert(NULL, dummy, dummy, 4, 0), E);
  CHECK_STATUS(gcol_dist_map_insert(NULL, NULL, NULL, 0, 0), E);
  CHECK_STATUS(gcol_dist_map_insert_or_assign(NULL, dummy, dummy, 4, 0), E);
  CHECK_STATUS(gcol_dist_map_insert_or_apply(NULL, dummy, dummy, 4, GCOL_OP_ADD, 0), E);
  CHECK_STATUS(gcol_dist_map_find(NULL, dummy, 4, dummy, 0), E);
  CHECK_STATUS(gcol_dist_map_contains(NULL, dummy, 4, found, 0), E);
  CHECK_STATUS(gcol_dist_map_erase(NULL, dummy, 4, 0), E);
  CHECK_STATUS(gcol_dist_map_size(NULL, &count, 0), E);
  CHECK_STATUS(gcol_dist_map_retrieve_all(NULL, dummy, dummy, &count, 0), E);
  return TEST_PASS;
}

TEST(dist_host_null_map_calls_fail) {
  RUN(null_map_calls());
  gcol_dist_map_destroy(NULL);
  CHECK(gcol_dist_map_shard(NULL) == NULL);
  return TEST_PASS;
}

TEST(dist_host_group_rules) {
  CHECK_STATUS(gcol_dist_group_end(), GCOL_ERROR_INVALID_ARGUMENT); /* no group */
  CHECK_OK(gcol_dist_group_start());
  CHECK_OK(gcol_dist_group_end()); /* nothing queued */
  CHECK_STATUS(gcol_dist_group_end(), GCOL_ERROR_INVALID_ARGUMENT);
  /* groups don't nest; the refused start leaves the open group as it was */
  CHECK_OK(gcol_dist_group_start());
  CHECK_STATUS(gcol_dist_group_start(), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_OK(gcol_dist_group_end());
  CHECK_STATUS(gcol_dist_group_end(), GCOL_ERROR_INVALID_ARGUMENT);
  return TEST_PASS;
}

TEST(dist_host_group_checks_arguments_when_queueing) {
  CHECK_OK(gcol_dist_group_start());
  test_result_t r = null_map_calls(); /* refused at once, nothing queued */
  gcol_map_config_t c = base_config();
  gcol_status_t bad_create = gcol_dist_map_create(NULL, &c, FAKE_COMM, 0);
  CHECK_OK(gcol_dist_group_end());
  CHECK(r == TEST_PASS);
  CHECK_STATUS(bad_create, GCOL_ERROR_INVALID_ARGUMENT);
  return TEST_PASS;
}

/* Without a GPU a valid create says so (after its argument checks) without
 * touching the communicator. */
TEST(dist_host_create_without_gpu_is_no_device) {
  if (test_have_gpu()) return TEST_SKIP;
  gcol_map_config_t c = base_config();
  gcol_dist_map_t *m = GARBAGE_MAP;
  CHECK_STATUS(gcol_dist_map_create(&m, &c, FAKE_COMM, 0), GCOL_ERROR_NO_DEVICE);
  CHECK(m == NULL);
  return TEST_PASS;
}
