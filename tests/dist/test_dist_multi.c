/* GPU tests of the distributed map on several GPUs driven by one process
 * (ncclCommInitAll, every call in a gcol_dist_group_start/end group): all
 * visible GPUs, or GCOL_TEST_GPUS of them. Skipped below two GPUs. */
#include <string.h>

#include "../harness.h"
#include "dist/dist_plan.h"
#include "dist_faults.h"
#include "dist_specs.h"

/* A test body on a fresh communicator of devices 0 .. G-1. */
static test_result_t on_gpus(test_result_t (*body)(dc_cluster_t *, const void *), const void *arg) {
  REQUIRE_GPU();
  int g = dc_test_gpus();
  if (g < 2) return TEST_SKIP;
  dc_cluster_t c;
  RUN(dc_init_all(&c, g));
  test_result_t r = body(&c, arg);
  dc_destroy(&c);
  return r;
}

static test_result_t run_spec(dc_cluster_t *c, const void *arg) {
  const ds_spec_t *given = arg;
  ds_spec_t sp = dspec_ranks(c->nranks, given->key_type, given->value_type, given->apply_op, given->pool);
  if (dspec_too_large(&sp)) return TEST_SKIP;
  return ds_run(c, &sp);
}

/* The scenario of dspec_ranks for this cluster's size; n in .pool. */
static test_result_t scenario(gcol_type_t kt, gcol_type_t vt, gcol_op_t op, size_t n) {
  ds_spec_t want;
  memset(&want, 0, sizeof want);
  want.key_type = kt, want.value_type = vt, want.apply_op = op, want.pool = n;
  return on_gpus(run_spec, &want);
}

TEST(dist_multi_one_process_u64_u64) { return scenario(GCOL_U64, GCOL_U64, GCOL_OP_ADD, 300000); }
TEST(dist_multi_one_process_i32_f32_min) { return scenario(GCOL_I32, GCOL_F32, GCOL_OP_MIN, 100000); }

/* Small rounds: every rank sends and receives in many rounds, of unequal
 * counts (the smaller batches run out of pieces first). */
TEST(dist_multi_one_process_rounds) {
  gcol_dist_set_round_pairs(2000);
  test_result_t r = scenario(GCOL_U32, GCOL_U32, GCOL_OP_ADD, 60000);
  gcol_dist_set_round_pairs(0);
  return r;
}

static test_result_t growable(dc_cluster_t *c, const void *unused) {
  (void)unused;
  ds_spec_t sp = dspec_growable(c->nranks, 1 << 19);
  return ds_run(c, &sp);
}
TEST(dist_multi_one_process_growable) { return on_gpus(growable, NULL); }

/* One rank's batch a thousand times the others', in rounds of 4096 pairs:
 * rank 0 takes part in ~80 rounds, the others in one. */
static test_result_t skewed(dc_cluster_t *c, const void *unused) {
  (void)unused;
  ds_spec_t sp = dspec_skewed(c->nranks, 400000);
  if (dspec_too_large(&sp)) return TEST_SKIP;
  gcol_dist_set_round_pairs(4096);
  test_result_t r = ds_run(c, &sp);
  gcol_dist_set_round_pairs(0);
  return r;
}
TEST(dist_multi_one_process_skewed_batches) { return on_gpus(skewed, NULL); }

/* ---- a fault on the last rank: every rank gets its status ------------------ */

static test_result_t fill(dc_cluster_t *c, const void *unused) {
  (void)unused;
  return ds_fill(c, c->nranks - 1); /* rank 0 sends the last rank more than it holds */
}
TEST(dist_multi_one_process_full_shard) { return on_gpus(fill, NULL); }

static test_result_t reserved(dc_cluster_t *c, const void *unused) {
  (void)unused;
  return ds_reserved(c, GCOL_I64, c->nranks - 1);
}
TEST(dist_multi_one_process_reserved_key) { return on_gpus(reserved, NULL); }

static test_result_t allocator(dc_cluster_t *c, const void *unused) {
  (void)unused;
  return df_allocator_refuses(c, c->nranks - 1);
}
TEST(dist_multi_one_process_allocator_refuses) { return on_gpus(allocator, NULL); }

static test_result_t pointers(dc_cluster_t *c, const void *unused) {
  (void)unused;
  return df_bad_pointers(c, c->nranks - 1);
}
TEST(dist_multi_one_process_bad_pointers) { return on_gpus(pointers, NULL); }

/* Create with config a on rank 0 and b on the others: every rank gets
 * `want`; a failure sets every map to NULL. */
static test_result_t create_pair(dc_cluster_t *c, const gcol_map_config_t *a, const gcol_map_config_t *b,
                                 gcol_status_t want) {
  gcol_dist_map_t *const garbage = (gcol_dist_map_t *)(uintptr_t)0x10;
  dc_args_t args[DC_MAX_LOCAL];
  memset(args, 0, sizeof args);
  for (int i = 0; i < c->nlocal; ++i) args[i].cfg = i == 0 ? a : b, c->m[i] = garbage;
  gcol_status_t st = dc_call(c, DC_CREATE, args);
  int nulls = 1;
  for (int i = 0; i < c->nlocal; ++i) {
    nulls &= c->m[i] == NULL;
    if (c->m[i] == garbage) c->m[i] = NULL; /* never destroy it */
  }
  CHECK_STATUS(st, want);
  if (want != GCOL_SUCCESS) CHECK(nulls);
  return TEST_PASS;
}

static test_result_t mismatched_configs(dc_cluster_t *c, const void *unused) {
  (void)unused;
  gcol_map_config_t a = gcol_map_config_default(GCOL_U64, GCOL_U64), b = a;
  a.capacity = 1000, b.capacity = 2000;
  RUN(create_pair(c, &a, &b, GCOL_ERROR_INVALID_ARGUMENT));
  b = a, b.seed = a.seed + 1;
  RUN(create_pair(c, &a, &b, GCOL_ERROR_INVALID_ARGUMENT));
  b = a, b.capacity = 0; /* invalid on the other ranks only */
  RUN(create_pair(c, &a, &b, GCOL_ERROR_INVALID_ARGUMENT));
  /* the communicators are still good for a matching create */
  RUN(create_pair(c, &a, &a, GCOL_SUCCESS));
  size_t size[DC_MAX_LOCAL];
  dc_args_t args[DC_MAX_LOCAL];
  memset(args, 0, sizeof args);
  for (int i = 0; i < c->nlocal; ++i) size[i] = 1, args[i].h_out = &size[i];
  CHECK_OK(dc_call(c, DC_SIZE, args));
  for (int i = 0; i < c->nlocal; ++i) CHECK(size[i] == 0);
  CHECK(!c->device_moved);
  return TEST_PASS;
}
TEST(dist_multi_one_process_config_mismatch) { return on_gpus(mismatched_configs, NULL); }
