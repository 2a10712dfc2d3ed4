/* GPU tests of the distributed map on one rank (one GPU, a one-rank
 * communicator): every call against the CPU model, rounds, full and
 * reserved-key failures, empty batches, group mode and growth. */
#include <string.h>

#include "../harness.h"
#include "dist/dist_plan.h"
#include "dist_data.h"
#include "dist_specs.h"

/* A scenario on a fresh one-rank communicator. */
static test_result_t on_one_rank(const ds_spec_t *sp) {
  REQUIRE_GPU();
  if (dspec_too_large(sp)) return TEST_SKIP;
  dc_cluster_t c;
  RUN(dc_init_all(&c, 1));
  test_result_t r = ds_run(&c, sp);
  dc_destroy(&c);
  return r;
}

static test_result_t scenario(gcol_type_t kt, gcol_type_t vt, gcol_op_t op, size_t n) {
  ds_spec_t sp = dspec_one_rank(kt, vt, op, n);
  return on_one_rank(&sp);
}

TEST(dist_gpu1_u32_u32) { return scenario(GCOL_U32, GCOL_U32, GCOL_OP_ADD, 200000); }
TEST(dist_gpu1_u64_u64) { return scenario(GCOL_U64, GCOL_U64, GCOL_OP_ADD, 200000); }
TEST(dist_gpu1_i64_i64) { return scenario(GCOL_I64, GCOL_I64, GCOL_OP_ADD, 200000); }
TEST(dist_gpu1_i32_f32_min) { return scenario(GCOL_I32, GCOL_F32, GCOL_OP_MIN, 200000); }
TEST(dist_gpu1_u32_i64_max) { return scenario(GCOL_U32, GCOL_I64, GCOL_OP_MAX, 100000); }
TEST(dist_gpu1_small_batches) { return scenario(GCOL_U64, GCOL_U32, GCOL_OP_ADD, 7); }

/* The rank's own keys sent through NCCL like any peer's, 1000 pairs per
 * round: a 100k batch takes ~100 rounds, so the pipeline (transfer of round
 * k+1 during the shard work of round k, two receive buffers, answers sent
 * back) runs even on one GPU. */
static test_result_t in_rounds(gcol_type_t kt, gcol_type_t vt) {
  gcol_dist_set_round_pairs(1000);
  gcol_dist_set_send_own_keys(1);
  test_result_t r = scenario(kt, vt, GCOL_OP_ADD, 100000);
  gcol_dist_set_send_own_keys(0);
  gcol_dist_set_round_pairs(0);
  return r;
}
TEST(dist_gpu1_rounds_u32_u32) { return in_rounds(GCOL_U32, GCOL_U32); }
TEST(dist_gpu1_rounds_u64_u64) { return in_rounds(GCOL_U64, GCOL_U64); }

TEST(dist_gpu1_growable) {
  ds_spec_t sp = dspec_growable(1, 1 << 20);
  return on_one_rank(&sp);
}

/* A one-rank cluster around a test body. */
static test_result_t with_one_rank(test_result_t (*body)(dc_cluster_t *)) {
  REQUIRE_GPU();
  dc_cluster_t c;
  RUN(dc_init_all(&c, 1));
  test_result_t r = body(&c);
  dc_destroy(&c);
  return r;
}

static test_result_t fill(dc_cluster_t *c) { return ds_fill(c, 0); }
TEST(dist_gpu1_fixed_shard_fills) { return with_one_rank(fill); }

static test_result_t reserved(dc_cluster_t *c) {
  RUN(ds_reserved(c, GCOL_U32, 0));
  return ds_reserved(c, GCOL_I64, 0);
}
TEST(dist_gpu1_reserved_key) { return with_one_rank(reserved); }

/* ---- direct calls ------------------------------------------------------ */

enum { SMALL = 1000 };

/* A map of SMALL distinct u64 keys (value = key + 1) on rank 0 of c, the
 * keys on the host (keys, SMALL) and on the device (*d_keys). */
static test_result_t small_map(dc_cluster_t *c, uint64_t *keys, void **d_keys) {
  gcol_map_config_t cfg = gcol_map_config_default(GCOL_U64, GCOL_U64);
  uint64_t vals[SMALL];
  void *d_vals;
  dd_rng_t g = dd_rng(test_seed(), 20);
  cfg.capacity = 4 * SMALL;
  CHECK(dd_distinct_keys(keys, SMALL, &g, &cfg) == 0);
  for (int i = 0; i < SMALL; ++i) vals[i] = keys[i] + 1;
  CHECK(dd_upload(d_keys, keys, SMALL, 8) == 0 && dd_upload(&d_vals, vals, SMALL, 8) == 0);
  CHECK_OK(gcol_dist_map_create(&c->m[0], &cfg, c->comm[0], c->s[0]));
  CHECK_OK(gcol_dist_map_insert(c->m[0], *d_keys, d_vals, SMALL, c->s[0]));
  dd_free(d_vals);
  return TEST_PASS;
}

/* size == SMALL and every key found with key + 1. */
static test_result_t small_map_intact(dc_cluster_t *c, const void *d_keys) {
  size_t size = 0;
  uint64_t got[SMALL];
  void *d_out = dd_poisoned(SMALL * 8);
  CHECK(d_out);
  CHECK_OK(gcol_dist_map_size(c->m[0], &size, c->s[0]));
  CHECK(size == SMALL);
  CHECK_OK(gcol_dist_map_find(c->m[0], d_keys, SMALL, d_out, c->s[0]));
  CHECK(dd_download(got, d_out, SMALL, 8) == 0);
  uint64_t keys[SMALL];
  CHECK(dd_download(keys, d_keys, SMALL, 8) == 0);
  for (int i = 0; i < SMALL; ++i) CHECK(got[i] == keys[i] + 1);
  dd_free(d_out);
  return TEST_PASS;
}

/* n == 0 with NULL pointers: every call succeeds and changes nothing. */
static test_result_t empty_batches(dc_cluster_t *c) {
  uint64_t keys[SMALL];
  void *d_keys;
  gcol_dist_map_t *m;
  cudaStream_t s = c->s[0];
  RUN(small_map(c, keys, &d_keys));
  m = c->m[0];
  CHECK_OK(gcol_dist_map_insert(m, NULL, NULL, 0, s));
  CHECK_OK(gcol_dist_map_insert_or_assign(m, NULL, NULL, 0, s));
  CHECK_OK(gcol_dist_map_insert_or_apply(m, NULL, NULL, 0, GCOL_OP_ADD, s));
  CHECK_OK(gcol_dist_map_find(m, NULL, 0, NULL, s));
  CHECK_OK(gcol_dist_map_contains(m, NULL, 0, NULL, s));
  CHECK_OK(gcol_dist_map_erase(m, NULL, 0, s));
  /* and with real pointers but n == 0 */
  CHECK_OK(gcol_dist_map_erase(m, d_keys, 0, s));
  RUN(small_map_intact(c, d_keys));
  dd_free(d_keys);
  return TEST_PASS;
}
TEST(dist_gpu1_empty_batches) { return with_one_rank(empty_batches); }

/* Argument errors on a real map are refused at once and change nothing. */
static test_result_t argument_errors(dc_cluster_t *c) {
  uint64_t keys[SMALL];
  void *d_keys, *d_out = dd_poisoned(SMALL * 8);
  size_t count;
  cudaStream_t s = c->s[0];
  const gcol_status_t E = GCOL_ERROR_INVALID_ARGUMENT;
  CHECK(d_out);
  RUN(small_map(c, keys, &d_keys));
  gcol_dist_map_t *m = c->m[0];
  CHECK_STATUS(gcol_dist_map_insert(m, NULL, d_out, 5, s), E);
  CHECK_STATUS(gcol_dist_map_insert(m, d_keys, NULL, 5, s), E);
  CHECK_STATUS(gcol_dist_map_insert_or_assign(m, NULL, d_out, 5, s), E);
  CHECK_STATUS(gcol_dist_map_insert_or_apply(m, d_keys, d_out, 5, (gcol_op_t)7, s), E);
  CHECK_STATUS(gcol_dist_map_find(m, d_keys, 5, NULL, s), E);
  CHECK_STATUS(gcol_dist_map_contains(m, d_keys, 5, NULL, s), E);
  CHECK_STATUS(gcol_dist_map_erase(m, NULL, 5, s), E);
  CHECK_STATUS(gcol_dist_map_size(m, NULL, s), E);
  CHECK_STATUS(gcol_dist_map_retrieve_all(m, d_out, d_out, NULL, s), E);
  CHECK_STATUS(gcol_dist_map_retrieve_all(m, NULL, NULL, &count, s), E);
  RUN(small_map_intact(c, d_keys));
  dd_free(d_keys), dd_free(d_out);
  return TEST_PASS;
}
TEST(dist_gpu1_argument_errors) { return with_one_rank(argument_errors); }

/* An invalid config fails on every rank (here: the only one), *map NULL. */
static test_result_t invalid_configs(dc_cluster_t *c) {
  gcol_map_config_t bad[3];
  for (int i = 0; i < 3; ++i) bad[i] = gcol_map_config_default(GCOL_U64, GCOL_U64);
  bad[0].capacity = 0;
  bad[1].key_type = GCOL_F32;
  bad[2].max_load_factor = 1.5;
  for (int i = 0; i < 3; ++i) {
    gcol_dist_map_t *m = (gcol_dist_map_t *)(uintptr_t)0x10;
    CHECK_STATUS(gcol_dist_map_create(&m, &bad[i], c->comm[0], c->s[0]), GCOL_ERROR_INVALID_ARGUMENT);
    CHECK(m == NULL);
  }
  /* the communicator still works */
  uint64_t keys[SMALL];
  void *d_keys;
  RUN(small_map(c, keys, &d_keys));
  RUN(small_map_intact(c, d_keys));
  dd_free(d_keys);
  return TEST_PASS;
}
TEST(dist_gpu1_invalid_config) { return with_one_rank(invalid_configs); }

/* Group mode with one communicator: create, insert, size and find each in
 * a group; outputs appear at group_end. */
static test_result_t one_rank_group(dc_cluster_t *c) {
  gcol_map_config_t cfg = gcol_map_config_default(GCOL_U64, GCOL_U64);
  uint64_t keys[SMALL], vals[SMALL], got[SMALL];
  void *d_keys, *d_vals, *d_out = dd_poisoned(SMALL * 8);
  dd_rng_t g = dd_rng(test_seed(), 21);
  cudaStream_t s = c->s[0];
  size_t size = 0;
  cfg.capacity = 4 * SMALL;
  CHECK(d_out && dd_distinct_keys(keys, SMALL, &g, &cfg) == 0);
  for (int i = 0; i < SMALL; ++i) vals[i] = dd_next(&g);
  CHECK(dd_upload(&d_keys, keys, SMALL, 8) == 0 && dd_upload(&d_vals, vals, SMALL, 8) == 0);

  CHECK_OK(gcol_dist_group_start());
  CHECK_OK(gcol_dist_map_create(&c->m[0], &cfg, c->comm[0], s));
  CHECK_OK(gcol_dist_group_end());
  CHECK(c->m[0] != NULL);
  gcol_dist_map_t *m = c->m[0];

  CHECK_OK(gcol_dist_group_start());
  CHECK_OK(gcol_dist_map_insert(m, d_keys, d_vals, SMALL, s));
  CHECK_OK(gcol_dist_group_end());
  CHECK_OK(gcol_dist_group_start());
  CHECK_OK(gcol_dist_map_size(m, &size, s));
  CHECK_OK(gcol_dist_group_end());
  CHECK(size == SMALL);
  CHECK_OK(gcol_dist_group_start());
  CHECK_OK(gcol_dist_map_find(m, d_keys, SMALL, d_out, s));
  CHECK_OK(gcol_dist_group_end());
  CHECK(dd_download(got, d_out, SMALL, 8) == 0);
  for (int i = 0; i < SMALL; ++i) CHECK(got[i] == vals[i]);

  /* a group holds at most one call per map: a second one is refused */
  CHECK_OK(gcol_dist_group_start());
  gcol_status_t first = gcol_dist_map_erase(m, d_keys, SMALL / 2, s);
  gcol_status_t second = gcol_dist_map_size(m, &size, s);
  gcol_status_t end = gcol_dist_group_end();
  CHECK_OK(first);
  CHECK(second == GCOL_ERROR_INVALID_ARGUMENT || end == GCOL_ERROR_INVALID_ARGUMENT);
  dd_free(d_keys), dd_free(d_vals), dd_free(d_out);
  return TEST_PASS;
}
TEST(dist_gpu1_group_mode) { return with_one_rank(one_rank_group); }
