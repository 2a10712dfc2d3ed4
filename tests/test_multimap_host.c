/* Host-side tests of the multimap (run in CI, no GPU needed): config
 * defaults and checks, array sizing, argument checks, NO_DEVICE. */
#include <string.h>
#include "harness.h"
#include "map/map_internal.h"
#include "multimap/mm_plan.h"

static const gcol_multimap_engine_t engines[3] = {GCOL_MULTIMAP_OPEN, GCOL_MULTIMAP_CHAINED,
                                                  GCOL_MULTIMAP_CHAINED_LOCKFREE};

TEST(multimap_config_defaults) {
  gcol_multimap_config_t c = gcol_multimap_config_default(GCOL_U32, GCOL_F64, GCOL_MULTIMAP_CHAINED);
  gcol_map_config_t m = gcol_map_config_default(GCOL_U32, GCOL_F64);
  CHECK(c.engine == GCOL_MULTIMAP_CHAINED && c.num_buckets == 0);
  CHECK(c.map.key_type == m.key_type && c.map.value_type == m.value_type && c.map.capacity == m.capacity);
  CHECK(c.map.empty_key == m.empty_key && c.map.erased_key == m.erased_key && c.map.empty_value == m.empty_value);
  CHECK(c.map.seed == m.seed && !c.map.allocator.alloc && !c.map.allocator.free);
  return TEST_PASS;
}

TEST(multimap_plan_sizes_open) {
  gcol_mm_plan_t p;
  gcol_multimap_config_t c = gcol_multimap_config_default(GCOL_I64, GCOL_I64, GCOL_MULTIMAP_OPEN);
  c.map.capacity = 1000;
  CHECK_OK(gcol_mm_plan(&c, 0, &p));
  /* 16-byte slots: one per lane of the tile; buckets rounded up to a prime
   * (with the default tile 4: 250 -> 251 buckets, 1004 slots) */
  uint32_t nb = gcol_next_prime((1000 + GCOL_MM_TILE16 - 1) / GCOL_MM_TILE16);
  CHECK(p.slot_bytes == 16 && p.tile == GCOL_MM_TILE16 && p.num_buckets == nb);
  CHECK(p.capacity == (size_t)nb * GCOL_MM_TILE16 && p.capacity >= 1000);
  CHECK(p.table_bytes == (size_t)nb * GCOL_MM_TILE16 * 16);
  CHECK(p.next_bytes == 0 && p.head_bytes == 0 && p.lock_bytes == 0);
  c = gcol_multimap_config_default(GCOL_U32, GCOL_U32, GCOL_MULTIMAP_OPEN);
  c.map.capacity = 1000;
  CHECK_OK(gcol_mm_plan(&c, 0, &p));
  /* 8-byte slots: two per lane */
  nb = gcol_next_prime((1000 + 2 * GCOL_MM_TILE8 - 1) / (2 * GCOL_MM_TILE8));
  CHECK(p.slot_bytes == 8 && p.tile == GCOL_MM_TILE8 && p.num_buckets == nb);
  CHECK(p.capacity == (size_t)nb * 2 * GCOL_MM_TILE8 && p.table_bytes == (size_t)nb * GCOL_MM_TILE8 * 16);
  c.map.capacity = 1;
  CHECK_OK(gcol_mm_plan(&c, 0, &p));
  CHECK(p.num_buckets == 2 && p.capacity == 4 * GCOL_MM_TILE8); /* at least two buckets */
  return TEST_PASS;
}

TEST(multimap_plan_sizes_chained) {
  gcol_mm_plan_t p;
  gcol_multimap_config_t c = gcol_multimap_config_default(GCOL_I64, GCOL_I32, GCOL_MULTIMAP_CHAINED);
  c.map.capacity = 1001;
  CHECK_OK(gcol_mm_plan(&c, 0, &p));
  CHECK(p.capacity == 1001 && p.num_buckets == 2002 && p.tile == 1);
  CHECK(p.table_bytes == 1001 * 16 && p.next_bytes == 1001 * 4 && p.head_bytes == 2002 * 4 &&
        p.lock_bytes == 2002 * 4);
  c.engine = GCOL_MULTIMAP_CHAINED_LOCKFREE;
  c.num_buckets = 7;
  c.map.key_type = GCOL_U32;
  c.map.empty_key = 0xffffffffULL, c.map.erased_key = 0xfffffffeULL;
  c.map.value_type = GCOL_U32;
  CHECK_OK(gcol_mm_plan(&c, 0, &p));
  /* 8-byte pairs, two to a 16-byte chunk; no locks without the lock engine */
  CHECK(p.num_buckets == 7 && p.table_bytes == 501 * 16 && p.lock_bytes == 0 && p.head_bytes == 28);
  return TEST_PASS;
}

TEST(multimap_plan_rejects_bad_configs) {
  gcol_mm_plan_t p;
  gcol_multimap_config_t good = gcol_multimap_config_default(GCOL_U64, GCOL_U64, GCOL_MULTIMAP_CHAINED), c;
  CHECK_STATUS(gcol_mm_plan(NULL, 0, &p), GCOL_ERROR_INVALID_ARGUMENT);
#define BAD(stmt) c = good; stmt; CHECK_STATUS(gcol_mm_plan(&c, 0, &p), GCOL_ERROR_INVALID_ARGUMENT)
  BAD(c.engine = (gcol_multimap_engine_t)7);
  BAD(c.map.capacity = 0);
  BAD(c.map.capacity = 0xffffffffULL); /* 32-bit links */
  BAD(c.num_buckets = 0xffffffffULL);
  BAD(c.map.growable = 1);
  BAD(c.map.key_type = GCOL_F32);
  BAD(c.map.erased_key = c.map.empty_key);
  BAD(c.map.allocator.free = NULL; c.map.allocator.alloc = (void *(*)(void *, size_t, cudaStream_t))1);
  BAD(c.engine = GCOL_MULTIMAP_OPEN; c.num_buckets = 10);
  BAD(c.engine = GCOL_MULTIMAP_OPEN; c.map.capacity = (size_t)1 << 40); /* past 2^31 buckets */
#undef BAD
  /* a bad config is refused before any device is touched */
  gcol_multimap_t *m = (gcol_multimap_t *)&c;
  c = good;
  c.map.capacity = 0;
  CHECK_STATUS(gcol_multimap_create(&m, &c, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(m == NULL);
  return TEST_PASS;
}

TEST(multimap_calls_reject_null_arguments) {
  gcol_multimap_config_t c = gcol_multimap_config_default(GCOL_U64, GCOL_U64, GCOL_MULTIMAP_OPEN);
  size_t x = 0, tb = 0;
  int k = 0;
  CHECK_STATUS(gcol_multimap_create(NULL, &c, 0), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_multimap_t *m = (gcol_multimap_t *)&c;
  CHECK_STATUS(gcol_multimap_create(&m, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(m == NULL);
  CHECK_STATUS(gcol_multimap_insert(NULL, &k, &k, 1, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_count(NULL, &k, 1, &x, &x, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_retrieve(NULL, &tb, NULL, &k, 1, &k, &k, &x, 1, &x, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_retrieve(NULL, NULL, NULL, &k, 1, &k, &k, &x, 1, &x, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_retrieve_all(NULL, &k, &k, &x, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_size(NULL, &x, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_capacity(NULL, &x), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_clear(NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multimap_status(NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_multimap_destroy(NULL); /* a no-op */
  return TEST_PASS;
}

TEST(multimap_create_without_gpu_reports_no_device) {
  if (test_have_gpu()) return TEST_SKIP; /* this test is for machines without one */
  for (int e = 0; e < 3; ++e)
    for (gcol_type_t k = GCOL_U32; k <= GCOL_I64; ++k) {
      if (k == GCOL_F32) continue;
      gcol_multimap_config_t c = gcol_multimap_config_default(k, GCOL_U64, engines[e]);
      gcol_multimap_t *m = (gcol_multimap_t *)&c;
      CHECK_STATUS(gcol_multimap_create(&m, &c, 0), GCOL_ERROR_NO_DEVICE);
      CHECK(m == NULL);
      CHECK(gcol_last_cuda_error() != 0);
    }
  return TEST_PASS;
}
