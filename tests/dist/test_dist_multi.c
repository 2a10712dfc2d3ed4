/* GPU tests of the distributed map on two GPUs driven by one process
 * (ncclCommInitAll, every call in a gcol_dist_group_start/end group).
 * Skipped below two GPUs. */
#include <string.h>

#include "../harness.h"
#include "dist/dist_plan.h"
#include "dist_specs.h"

#define REQUIRE_TWO_GPUS()                      \
  do {                                          \
    REQUIRE_GPU();                              \
    if (dc_device_count() < 2) return TEST_SKIP; \
  } while (0)

/* A test body on a fresh two-rank communicator of devices 0 and 1. */
static test_result_t on_two_gpus(test_result_t (*body)(dc_cluster_t *, const void *), const void *arg) {
  REQUIRE_TWO_GPUS();
  dc_cluster_t c;
  RUN(dc_init_all(&c, 2));
  test_result_t r = body(&c, arg);
  dc_destroy(&c);
  return r;
}

static test_result_t run_spec(dc_cluster_t *c, const void *spec) {
  if (dspec_too_large(spec)) return TEST_SKIP;
  return ds_run(c, spec);
}

TEST(dist_gpu2_one_process_u64_u64) {
  ds_spec_t sp = dspec_two_ranks(GCOL_U64, GCOL_U64, GCOL_OP_ADD, 300000);
  return on_two_gpus(run_spec, &sp);
}

TEST(dist_gpu2_one_process_i32_f32_min) {
  ds_spec_t sp = dspec_two_ranks(GCOL_I32, GCOL_F32, GCOL_OP_MIN, 100000);
  return on_two_gpus(run_spec, &sp);
}

/* Small rounds: both ranks send and receive in many rounds, of unequal
 * counts (rank 1 runs out of pieces to send before rank 0). */
TEST(dist_gpu2_one_process_rounds) {
  ds_spec_t sp = dspec_two_ranks(GCOL_U32, GCOL_U32, GCOL_OP_ADD, 60000);
  gcol_dist_set_round_pairs(2000);
  test_result_t r = on_two_gpus(run_spec, &sp);
  gcol_dist_set_round_pairs(0);
  return r;
}

TEST(dist_gpu2_one_process_growable) {
  ds_spec_t sp = dspec_growable(2, 1 << 19);
  return on_two_gpus(run_spec, &sp);
}

static test_result_t fill(dc_cluster_t *c, const void *victim) { return ds_fill(c, *(const int *)victim); }
TEST(dist_gpu2_one_process_full_shard) {
  static const int victim = 1; /* rank 0 sends rank 1 more than it holds */
  return on_two_gpus(fill, &victim);
}

static test_result_t reserved(dc_cluster_t *c, const void *bad) {
  return ds_reserved(c, GCOL_I64, *(const int *)bad);
}
TEST(dist_gpu2_one_process_reserved_key) {
  static const int bad = 1;
  return on_two_gpus(reserved, &bad);
}

/* Create with configs a (rank 0) and b (rank 1): both ranks get `want`;
 * a failure sets both maps to NULL. */
static test_result_t create_pair(dc_cluster_t *c, const gcol_map_config_t *a, const gcol_map_config_t *b,
                                 gcol_status_t want) {
  gcol_dist_map_t *const garbage = (gcol_dist_map_t *)(uintptr_t)0x10;
  dc_args_t args[2];
  memset(args, 0, sizeof args);
  args[0].cfg = a, args[1].cfg = b;
  c->m[0] = c->m[1] = garbage;
  gcol_status_t st = dc_call(c, DC_CREATE, args);
  int nulls = c->m[0] == NULL && c->m[1] == NULL;
  for (int i = 0; i < 2; ++i)
    if (c->m[i] == garbage) c->m[i] = NULL; /* never destroy it */
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
  b = a, b.capacity = 0; /* invalid on rank 1 only */
  RUN(create_pair(c, &a, &b, GCOL_ERROR_INVALID_ARGUMENT));
  /* the communicators are still good for a matching create */
  RUN(create_pair(c, &a, &a, GCOL_SUCCESS));
  size_t size[2] = {1, 1};
  dc_args_t args[2];
  memset(args, 0, sizeof args);
  args[0].h_out = &size[0], args[1].h_out = &size[1];
  CHECK_OK(dc_call(c, DC_SIZE, args));
  CHECK(size[0] == 0 && size[1] == 0);
  CHECK(!c->device_moved);
  return TEST_PASS;
}
TEST(dist_gpu2_one_process_config_mismatch) { return on_two_gpus(mismatched_configs, NULL); }
