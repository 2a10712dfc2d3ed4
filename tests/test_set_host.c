/* Host-side tests of the set and multiset (no GPU needed): config defaults
 * and checks, the slot-size rule, argument errors before NO_DEVICE. */
#include <string.h>
#include "harness.h"
#include "map/map_internal.h"
#include "set/set_internal.h"

TEST(set_config_defaults_follow_the_map) {
  for (gcol_type_t k = GCOL_U32; k <= GCOL_I64; ++k) {
    gcol_set_config_t c = gcol_set_config_default(k);
    gcol_map_config_t m = gcol_map_config_default(k, k);
    CHECK(c.size == sizeof c && c.magic == GCOL_CONFIG_MAGIC);
    CHECK(c.key_type == k && c.capacity == m.capacity && c.max_load_factor == m.max_load_factor);
    CHECK(c.growable == 0 && c.empty_key == m.empty_key && c.erased_key == m.erased_key && c.seed == m.seed);
    CHECK(c.growth_factor == m.growth_factor && !c.allocator.alloc && !c.allocator.free);
  }
  return TEST_PASS;
}

TEST(set_config_take_checks_fields) {
  gcol_map_config_t out;
  gcol_set_config_t c = gcol_set_config_default(GCOL_U32);
  CHECK_OK(gcol_set_config_take(&c, &out));
  CHECK(out.key_type == GCOL_U32 && out.empty_value == 0 && out.empty_key == 0xffffffffULL);
#define BAD(stmt, word)                                                           \
  c = gcol_set_config_default(GCOL_U32);                                          \
  stmt;                                                                           \
  CHECK_STATUS(gcol_set_config_take(&c, &out), GCOL_ERROR_INVALID_ARGUMENT);      \
  CHECK(strstr(gcol_last_error_message(), word) != NULL)
  BAD(c.key_type = GCOL_F32, "key_type");
  BAD(c.capacity = 0, "capacity");
  BAD(c.empty_key = 0x100000000ULL, "empty_key");
  BAD(c.erased_key = c.empty_key, "erased_key");
  BAD(c.growable = 1; c.max_load_factor = 0.99, "max_load_factor");
  BAD(c.growth_factor = 3, "growth_factor");
  BAD(c.magic = 0, "magic");
  BAD(c.size = 8, "size");
#undef BAD
  CHECK_STATUS(gcol_set_config_take(NULL, &out), GCOL_ERROR_INVALID_ARGUMENT);
  return TEST_PASS;
}

TEST(slot_bytes_rule) {
  CHECK(gcol_slot_bytes(4, 0) == 4 && gcol_slot_bytes(8, 0) == 8);
  CHECK(gcol_slot_bytes(4, 4) == 8 && gcol_slot_bytes(4, 8) == 16 && gcol_slot_bytes(8, 4) == 16 &&
        gcol_slot_bytes(8, 8) == 16);
  CHECK(gcol_map_bucket_slots(2, 4, 0) == 8 && gcol_map_bucket_slots(2, 8, 0) == 4 &&
        gcol_map_bucket_slots(2, 4, 4) == 4 && gcol_map_bucket_slots(4, 8, 8) == 4);
  return TEST_PASS;
}

TEST(set_calls_refuse_null_handles) {
  size_t n = 0;
  uint8_t f = 0;
  CHECK_STATUS(gcol_set_create(NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_set_insert(NULL, NULL, 0, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "gcol_set_insert: the gcol_set_t handle is NULL") != NULL);
  CHECK_STATUS(gcol_set_contains(NULL, NULL, 0, &f, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_set_size(NULL, &n, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_set_capacity(NULL, &n), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_set_clear(NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_set_status(NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multiset_insert(NULL, NULL, 0, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "gcol_multiset_insert: the gcol_multiset_t handle is NULL") != NULL);
  CHECK_STATUS(gcol_multiset_count(NULL, NULL, 0, NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_multiset_size(NULL, &n, 0), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_set_destroy(NULL);
  gcol_multiset_destroy(NULL);
  return TEST_PASS;
}

TEST(set_create_without_gpu_reports_no_device) {
  if (test_have_gpu()) return TEST_SKIP; /* for machines without one */
  gcol_set_config_t c = gcol_set_config_default(GCOL_U64);
  gcol_set_t *s = (gcol_set_t *)&c;
  gcol_multiset_t *m = (gcol_multiset_t *)&c;
  c.capacity = 0; /* argument errors come first */
  CHECK_STATUS(gcol_set_create(&s, &c, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(s == NULL);
  c.capacity = 10;
  CHECK_STATUS(gcol_set_create(&s, &c, 0), GCOL_ERROR_NO_DEVICE);
  CHECK(s == NULL);
  c.growable = 1;
  CHECK_STATUS(gcol_multiset_create(&m, &c, 0), GCOL_ERROR_INVALID_ARGUMENT);
  c.growable = 0;
  CHECK_STATUS(gcol_multiset_create(&m, &c, 0), GCOL_ERROR_NO_DEVICE);
  CHECK(m == NULL);
  return TEST_PASS;
}
