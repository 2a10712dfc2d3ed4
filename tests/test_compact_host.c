/* Host-side tests of the device-scope primitives (run in CI, no GPU needed):
 * argument errors are found before the device is touched, the alignment
 * rule, NO_DEVICE without a GPU, and the policy table. Fake device pointers
 * are never dereferenced: every call here fails its checks first. */
#include "harness.h"
#include "compact/compact_policy.h"

#define P(a) ((void *)(uintptr_t)(a)) /* a fake, never-dereferenced device pointer */

TEST(select_rejects_bad_arguments) {
  size_t bytes = 1 << 20, *cnt = P(0x1000);
  const uint8_t *fl = P(0x3000);
  void *in = P(0x10000), *out = P(0x20000), *tmp = P(0x40000);
  const gcol_order_t any = GCOL_ORDER_ANY, st = GCOL_ORDER_STABLE;
  CHECK_STATUS(gcol_select_flagged(NULL, NULL, in, fl, out, cnt, 10, 4, any, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_select_flagged(tmp, NULL, in, fl, out, cnt, 10, 4, any, 0), GCOL_ERROR_INVALID_ARGUMENT);
  const size_t bad_sizes[] = {0, 3, 5, 12, 32, 64};
  for (int i = 0; i < 6; ++i) {
    CHECK_STATUS(gcol_select_flagged(NULL, &bytes, in, fl, out, cnt, 10, bad_sizes[i], any, 0),
                 GCOL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(gcol_select_flagged(tmp, &bytes, in, fl, out, cnt, 10, bad_sizes[i], st, 0),
                 GCOL_ERROR_INVALID_ARGUMENT);
  }
  CHECK_STATUS(gcol_select_flagged(NULL, &bytes, in, fl, out, cnt, 10, 4, (gcol_order_t)2, 0),
               GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_select_flagged(NULL, &bytes, in, fl, out, cnt, (size_t)-1, 4, any, 0),
               GCOL_ERROR_INVALID_ARGUMENT);
  for (int o = 0; o < 2; ++o) {
    gcol_order_t ord = o ? st : any;
    CHECK_STATUS(gcol_select_flagged(tmp, &bytes, NULL, fl, out, cnt, 10, 4, ord, 0), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(gcol_select_flagged(tmp, &bytes, in, NULL, out, cnt, 10, 4, ord, 0), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(gcol_select_flagged(tmp, &bytes, in, fl, NULL, cnt, 10, 4, ord, 0), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(gcol_select_flagged(tmp, &bytes, in, fl, out, NULL, 10, 4, ord, 0), GCOL_ERROR_INVALID_ARGUMENT);
    /* the count is needed even when n == 0 */
    CHECK_STATUS(gcol_select_flagged(tmp, &bytes, NULL, NULL, NULL, NULL, 0, 4, ord, 0),
                 GCOL_ERROR_INVALID_ARGUMENT);
  }
  /* ANY's nominal temp storage is known on the host: too little is refused */
  size_t small = 0;
  CHECK_STATUS(gcol_select_flagged(tmp, &small, in, fl, out, cnt, 10, 4, any, 0), GCOL_ERROR_INVALID_ARGUMENT);
  return TEST_PASS;
}

/* Misaligned pointers are rejected (not handled): d_in and d_out to the item
 * size, d_num_selected to 8; d_flags and d_temp may be anywhere. */
TEST(select_alignment_rule) {
  size_t bytes = 1 << 20, *cnt = P(0x1000);
  const uint8_t *fl = P(0x3000);
  void *tmp = P(0x40000);
  const size_t sizes[] = {2, 4, 8, 16};
  for (int o = 0; o < 2; ++o) {
    gcol_order_t ord = o ? GCOL_ORDER_STABLE : GCOL_ORDER_ANY;
    for (int k = 0; k < 4; ++k) {
      size_t b = sizes[k];
      for (size_t off = 1; off < b; ++off) {
        CHECK_STATUS(gcol_select_flagged(tmp, &bytes, P(0x10000 + off), fl, P(0x20000), cnt, 10, b, ord, 0),
                     GCOL_ERROR_INVALID_ARGUMENT);
        CHECK_STATUS(gcol_select_flagged(tmp, &bytes, P(0x10000), fl, P(0x20000 + off), cnt, 10, b, ord, 0),
                     GCOL_ERROR_INVALID_ARGUMENT);
      }
    }
    for (size_t off = 1; off < 8; ++off)
      CHECK_STATUS(gcol_select_flagged(tmp, &bytes, P(0x10000), fl, P(0x20000), P(0x1000 + off), 10, 8, ord, 0),
                   GCOL_ERROR_INVALID_ARGUMENT);
  }
  /* a size query checks no pointer */
  if (!test_have_gpu()) {
    CHECK_STATUS(gcol_select_flagged(NULL, &bytes, P(1), P(1), P(1), P(1), 10, 16, GCOL_ORDER_ANY, 0),
                 GCOL_ERROR_NO_DEVICE);
    /* aligned pointers, odd flags and temp pass the checks and reach the device check */
    CHECK_STATUS(gcol_select_flagged(P(0x40001), &bytes, P(0x10000), P(0x3001), P(0x20000), cnt, 10, 16,
                                     GCOL_ORDER_ANY, 0),
                 GCOL_ERROR_NO_DEVICE);
  }
  return TEST_PASS;
}

TEST(reduce_scan_reject_bad_arguments) {
  size_t bytes = 1 << 20;
  void *in = P(0x10000), *out = P(0x20000), *tmp = P(0x40000);
  CHECK_STATUS(gcol_reduce(NULL, NULL, in, out, 10, GCOL_U32, GCOL_OP_ADD, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_exclusive_scan(NULL, NULL, in, out, 10, GCOL_U32, GCOL_OP_ADD, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_reduce(NULL, &bytes, in, out, 10, (gcol_type_t)6, GCOL_OP_ADD, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_exclusive_scan(NULL, &bytes, in, out, 10, (gcol_type_t)-1, GCOL_OP_ADD, 0),
               GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_reduce(NULL, &bytes, in, out, 10, GCOL_F32, (gcol_op_t)3, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_exclusive_scan(NULL, &bytes, in, out, 10, GCOL_F32, (gcol_op_t)3, 0),
               GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_reduce(tmp, &bytes, NULL, out, 10, GCOL_I64, GCOL_OP_MIN, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_reduce(tmp, &bytes, in, NULL, 10, GCOL_I64, GCOL_OP_MIN, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_reduce(tmp, &bytes, NULL, NULL, 0, GCOL_I64, GCOL_OP_MIN, 0), /* n == 0 still writes */
               GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_exclusive_scan(tmp, &bytes, NULL, out, 10, GCOL_I64, GCOL_OP_MAX, 0),
               GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_exclusive_scan(tmp, &bytes, in, NULL, 10, GCOL_I64, GCOL_OP_MAX, 0),
               GCOL_ERROR_INVALID_ARGUMENT);
  /* alignment to the type size */
  const gcol_type_t types[] = {GCOL_U32, GCOL_U64, GCOL_I32, GCOL_I64, GCOL_F32, GCOL_F64};
  for (int t = 0; t < 6; ++t)
    for (size_t off = 1; off < gcol_type_size(types[t]); ++off) {
      CHECK_STATUS(gcol_reduce(tmp, &bytes, P(0x10000 + off), out, 10, types[t], GCOL_OP_ADD, 0),
                   GCOL_ERROR_INVALID_ARGUMENT);
      CHECK_STATUS(gcol_reduce(tmp, &bytes, in, P(0x20000 + off), 10, types[t], GCOL_OP_ADD, 0),
                   GCOL_ERROR_INVALID_ARGUMENT);
      CHECK_STATUS(gcol_exclusive_scan(tmp, &bytes, P(0x10000 + off), out, 10, types[t], GCOL_OP_ADD, 0),
                   GCOL_ERROR_INVALID_ARGUMENT);
      CHECK_STATUS(gcol_exclusive_scan(tmp, &bytes, in, P(0x20000 + off), 10, types[t], GCOL_OP_ADD, 0),
                   GCOL_ERROR_INVALID_ARGUMENT);
    }
  return TEST_PASS;
}

TEST(compact_reports_no_device_without_gpu) {
  if (test_have_gpu()) return TEST_SKIP;
  size_t bytes = 0;
  CHECK_STATUS(gcol_select_flagged(NULL, &bytes, NULL, NULL, NULL, NULL, 100, 8, GCOL_ORDER_ANY, 0),
               GCOL_ERROR_NO_DEVICE);
  CHECK_STATUS(gcol_select_flagged(NULL, &bytes, NULL, NULL, NULL, NULL, 100, 8, GCOL_ORDER_STABLE, 0),
               GCOL_ERROR_NO_DEVICE);
  CHECK_STATUS(gcol_reduce(NULL, &bytes, NULL, NULL, 100, GCOL_F64, GCOL_OP_ADD, 0), GCOL_ERROR_NO_DEVICE);
  CHECK_STATUS(gcol_exclusive_scan(NULL, &bytes, NULL, NULL, 100, GCOL_F64, GCOL_OP_ADD, 0), GCOL_ERROR_NO_DEVICE);
  CHECK(bytes == 0); /* a failed query writes nothing */
  size_t big = 1 << 20, *cnt = P(0x1000);
  CHECK_STATUS(gcol_select_flagged(P(0x40000), &big, P(0x10000), P(0x3000), P(0x20000), cnt, 100, 8,
                                   GCOL_ORDER_STABLE, 0),
               GCOL_ERROR_NO_DEVICE);
  CHECK_STATUS(gcol_reduce(P(0x40000), &big, P(0x10000), P(0x20000), 100, GCOL_U64, GCOL_OP_MAX, 0),
               GCOL_ERROR_NO_DEVICE);
  CHECK_STATUS(gcol_exclusive_scan(P(0x40000), &big, P(0x10000), P(0x20000), 100, GCOL_U64, GCOL_OP_MAX, 0),
               GCOL_ERROR_NO_DEVICE);
  CHECK(big == 1 << 20);
  return TEST_PASS;
}

TEST(compact_policy_table) {
  for (int cc = 0; cc <= 12; ++cc) {
    gcol_select_policy_t p = gcol_select_policy_for(cc);
    CHECK(gcol_select_policy_supported(&p));
    CHECK(p.min_cc_major <= cc);
  }
  CHECK(gcol_select_policy_for(9).min_cc_major == 9);
  CHECK(gcol_select_policy_for(10).min_cc_major == 9); /* newer GPUs take the newest row */
  CHECK(gcol_select_policy_for(8).min_cc_major == 8);
  CHECK(gcol_select_policy_for(7).min_cc_major == 0);
  gcol_select_policy_t bad = gcol_select_policy_for(9);
  bad.block_threads = 100;
  CHECK(!gcol_select_policy_supported(&bad));
  bad = gcol_select_policy_for(9);
  bad.items_per_thread = 5;
  CHECK(!gcol_select_policy_supported(&bad));
  bad = gcol_select_policy_for(9);
  bad.aggregate = (gcol_aggregation_t)3;
  CHECK(!gcol_select_policy_supported(&bad));
  CHECK(!gcol_select_policy_supported(NULL));
  return TEST_PASS;
}
