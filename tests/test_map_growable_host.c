/* Host-side tests of growable maps and the allocator hook (no GPU needed). */
#include "harness.h"
#include "test_util.h"
#include "map/map_internal.h"

static void *never_alloc(void *ctx, size_t bytes, cudaStream_t s) {
  (void)ctx, (void)bytes, (void)s;
  return NULL;
}
static void never_free(void *ctx, void *p, size_t bytes, cudaStream_t s) { (void)ctx, (void)p, (void)bytes, (void)s; }

TEST(map_growable_config_load_range) {
  gcol_map_config_t c = gcol_map_config_default(GCOL_I64, GCOL_I64);
  c.growable = 1;
  CHECK_OK(gcol_map_config_check(&c));
  const double good[] = {0.1, 0.5, 0.95}, bad[] = {0.0, 0.05, 0.0999, 0.951, 1.0, -1.0};
  for (int i = 0; i < 3; ++i) {
    c.max_load_factor = good[i];
    CHECK_OK(gcol_map_config_check(&c));
  }
  for (int i = 0; i < 6; ++i) {
    c.max_load_factor = bad[i];
    CHECK_STATUS(gcol_map_config_check(&c), GCOL_ERROR_INVALID_ARGUMENT);
  }
  /* fixed maps keep (0, 1] */
  c.growable = 0;
  c.max_load_factor = 0.05;
  CHECK_OK(gcol_map_config_check(&c));
  c.max_load_factor = 1.0;
  CHECK_OK(gcol_map_config_check(&c));
  c.growable = 2, c.max_load_factor = 0.5;
  CHECK_STATUS(gcol_map_config_check(&c), GCOL_ERROR_INVALID_ARGUMENT);
  return TEST_PASS;
}

TEST(map_growth_factor_values) {
  gcol_map_config_t c = gcol_map_config_default(GCOL_I64, GCOL_I64);
  CHECK(c.growth_factor == 2);
  c.growable = 1;
  const int good[] = {0, 2, 4, 8}, bad[] = {1, 3, 5, 16, -2};
  for (int i = 0; i < 4; ++i) {
    c.growth_factor = good[i];
    CHECK_OK(gcol_map_config_check(&c));
  }
  for (int i = 0; i < 5; ++i) {
    c.growth_factor = bad[i];
    CHECK_STATUS(gcol_map_config_check(&c), GCOL_ERROR_INVALID_ARGUMENT);
    gcol_map_t *m = (gcol_map_t *)&c;
    CHECK_STATUS(gcol_map_create(&m, &c, 0), GCOL_ERROR_INVALID_ARGUMENT); /* before the device check */
    CHECK(m == NULL);
  }
  return TEST_PASS;
}

TEST(map_allocator_needs_both_functions) {
  gcol_map_config_t c = gcol_map_config_default(GCOL_U32, GCOL_U32);
  c.allocator.alloc = never_alloc;
  CHECK_STATUS(gcol_map_config_check(&c), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_map_t *m = (gcol_map_t *)&c;
  CHECK_STATUS(gcol_map_create(&m, &c, 0), GCOL_ERROR_INVALID_ARGUMENT); /* before the device check */
  CHECK(m == NULL);
  c.allocator.alloc = NULL, c.allocator.free = never_free;
  CHECK_STATUS(gcol_map_config_check(&c), GCOL_ERROR_INVALID_ARGUMENT);
  c.allocator.alloc = never_alloc;
  CHECK_OK(gcol_map_config_check(&c));
  c.growable = 1;
  CHECK_OK(gcol_map_config_check(&c));
  return TEST_PASS;
}

TEST(map_growable_create_without_gpu_reports_no_device) {
  if (test_have_gpu()) return TEST_SKIP;
  gcol_map_config_t c = gcol_map_config_default(GCOL_I64, GCOL_I64);
  c.growable = 1, c.capacity = 1;
  c.allocator.alloc = never_alloc, c.allocator.free = never_free;
  gcol_map_t *m = (gcol_map_t *)&c;
  CHECK_STATUS(gcol_map_create(&m, &c, 0), GCOL_ERROR_NO_DEVICE);
  CHECK(m == NULL);
  return TEST_PASS;
}

TEST(map_growth_sizing) {
  CHECK(gcol_map_load_limit(100, 0.8) == 80 && gcol_map_load_limit(8, 0.95) == 7 && gcol_map_load_limit(0, 0.5) == 0);
  /* fits: no rebuild, also exactly at the limit */
  CHECK(gcol_map_growth_target(100, 0.8, 2, 70, 70, 10) == 0);
  CHECK(gcol_map_growth_target(100, 0.8, 2, 0, 0, 80) == 0);
  /* one past: at least twice the slots */
  CHECK(gcol_map_growth_target(100, 0.8, 2, 70, 70, 11) == 200);
  /* a batch larger than twice the table: enough for live + n at max load */
  size_t t = gcol_map_growth_target(8, 0.8, 2, 0, 0, 1000000);
  CHECK(t >= 1250000 && t <= 1250002 && gcol_map_load_limit(t, 0.8) >= 1000000);
  /* tombstones push it over but live keys are few: purge at the same size */
  CHECK(gcol_map_growth_target(1000, 0.5, 2, 500, 100, 100) == 1000);
  CHECK(gcol_map_growth_target(1000, 0.5, 2, 500, 200, 100) == 2000); /* 300 > 250: grow */
  /* nothing fits in a size_t */
  CHECK(gcol_map_growth_target(100, 0.8, 2, 80, 80, SIZE_MAX - 10) == SIZE_MAX);
  size_t huge = (size_t)1 << 62;
  CHECK(gcol_map_growth_target(huge, 0.8, 2, gcol_map_load_limit(huge, 0.8), huge / 2, 1) == SIZE_MAX);
  /* a factor of 4 (0 means 2) */
  CHECK(gcol_map_growth_target(100, 0.8, 4, 70, 70, 11) == 400);
  CHECK(gcol_map_growth_target(100, 0.8, 0, 70, 70, 11) == 200);
  CHECK(gcol_map_growth_target(1000, 0.5, 4, 500, 100, 100) == 1000); /* purges stay at the same size */
  /* property: the target always holds live + n under the limit, and never shrinks */
  tu_rng_t r = {test_seed()};
  for (int i = 0; i < 200000; ++i) {
    int factor = 2 << (i % 3);
    double mlf = 0.1 + (double)(tu_next(&r) % 851) / 1000.0;
    size_t slots = 1 + tu_next(&r) % 100000000, limit = gcol_map_load_limit(slots, mlf);
    size_t used = tu_next(&r) % (limit + 1), live = used ? tu_next(&r) % (used + 1) : 0;
    size_t n = tu_next(&r) % (i % 2 ? 1000 : 1000000000);
    size_t g = gcol_map_growth_target(slots, mlf, factor, used, live, n);
    if (used + n <= limit) {
      CHECK(g == 0);
    } else {
      CHECK(g >= slots && gcol_map_load_limit(g, mlf) >= live + n);
      CHECK(g == slots || g >= (size_t)factor * slots);
    }
  }
  return TEST_PASS;
}
