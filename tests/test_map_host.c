/* Host-side tests of the map and the core (run in CI, no GPU needed). */
#include <string.h>
#include "harness.h"
#include "test_util.h"
#include "map/map_internal.h"
#include "map/map_policy.h"

TEST(status_strings_are_distinct_and_named) {
  const gcol_status_t all[] = {GCOL_SUCCESS, GCOL_ERROR_INVALID_ARGUMENT, GCOL_ERROR_OUT_OF_MEMORY,
                               GCOL_ERROR_NO_DEVICE, GCOL_ERROR_CUDA, GCOL_ERROR_FULL, GCOL_ERROR_RESERVED_KEY};
  const char *names[] = {"GCOL_SUCCESS", "GCOL_ERROR_INVALID_ARGUMENT", "GCOL_ERROR_OUT_OF_MEMORY",
                         "GCOL_ERROR_NO_DEVICE", "GCOL_ERROR_CUDA", "GCOL_ERROR_FULL", "GCOL_ERROR_RESERVED_KEY"};
  for (int i = 0; i < 7; ++i) {
    const char *s = gcol_status_string(all[i]);
    CHECK(s && strncmp(s, names[i], strlen(names[i])) == 0);
    for (int j = 0; j < i; ++j) CHECK(strcmp(s, gcol_status_string(all[j])) != 0);
  }
  CHECK(gcol_status_string((gcol_status_t)99) != NULL);
  return TEST_PASS;
}

TEST(type_sizes) {
  CHECK(gcol_type_size(GCOL_U32) == 4 && gcol_type_size(GCOL_I32) == 4 && gcol_type_size(GCOL_F32) == 4);
  CHECK(gcol_type_size(GCOL_U64) == 8 && gcol_type_size(GCOL_I64) == 8 && gcol_type_size(GCOL_F64) == 8);
  CHECK(gcol_type_size((gcol_type_t)42) == 0);
  return TEST_PASS;
}

TEST(map_config_defaults_follow_widths) {
  gcol_map_config_t c = gcol_map_config_default(GCOL_U32, GCOL_F64);
  CHECK(c.empty_key == 0xffffffffULL && c.erased_key == 0xfffffffeULL && c.empty_value == ~0ULL);
  CHECK(c.growable == 0 && c.capacity > 0 && c.max_load_factor > 0 && c.max_load_factor <= 1);
  CHECK_OK(gcol_map_config_check(&c));
  c = gcol_map_config_default(GCOL_I64, GCOL_I32);
  CHECK(c.empty_key == ~0ULL && c.erased_key == ~0ULL - 1 && c.empty_value == 0xffffffffULL);
  CHECK_OK(gcol_map_config_check(&c));
  return TEST_PASS;
}

TEST(map_config_rejects_bad_configs) {
  gcol_map_config_t good = gcol_map_config_default(GCOL_U64, GCOL_U64), c;
  CHECK_STATUS(gcol_map_config_check(NULL), GCOL_ERROR_INVALID_ARGUMENT);
#define BAD(field, v) c = good; c.field = v; CHECK_STATUS(gcol_map_config_check(&c), GCOL_ERROR_INVALID_ARGUMENT)
  BAD(key_type, GCOL_F32);
  BAD(key_type, GCOL_F64);
  BAD(key_type, (gcol_type_t)17);
  BAD(value_type, (gcol_type_t)17);
  BAD(capacity, 0);
  BAD(max_load_factor, 0.0);
  BAD(max_load_factor, 1.01);
  BAD(max_load_factor, -0.5);
  BAD(growable, 2);
  BAD(erased_key, good.empty_key);
#undef BAD
  c = gcol_map_config_default(GCOL_U32, GCOL_U32);
  c.empty_key = 0x100000000ULL; /* does not fit in 32 bits */
  CHECK_STATUS(gcol_map_config_check(&c), GCOL_ERROR_INVALID_ARGUMENT);
  c = gcol_map_config_default(GCOL_U32, GCOL_U32);
  c.empty_value = ~0ULL;
  CHECK_STATUS(gcol_map_config_check(&c), GCOL_ERROR_INVALID_ARGUMENT);
  /* a bad config is refused before any device is touched */
  gcol_map_t *m = (gcol_map_t *)&c;
  c.capacity = 0;
  CHECK_STATUS(gcol_map_create(&m, &c, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(m == NULL);
  return TEST_PASS;
}

TEST(map_calls_reject_null_arguments) {
  gcol_map_config_t c = gcol_map_config_default(GCOL_U64, GCOL_U64);
  size_t x;
  uint8_t f;
  int k = 0;
  CHECK_STATUS(gcol_map_create(NULL, &c, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_insert(NULL, &k, &k, 1, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_insert_or_assign(NULL, &k, &k, 1, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_insert_and_find(NULL, &k, &k, 1, &k, &f, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_insert_or_apply(NULL, &k, &k, 1, GCOL_OP_ADD, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_find(NULL, &k, 1, &k, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_contains(NULL, &k, 1, &f, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_erase(NULL, &k, 1, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_retrieve_all(NULL, &k, &k, &x, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_size(NULL, &x, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_capacity(NULL, &x), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_clear(NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_reserve(NULL, 1, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_map_status(NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_map_destroy(NULL); /* a no-op */
  return TEST_PASS;
}

TEST(map_create_without_gpu_reports_no_device) {
  if (test_have_gpu()) return TEST_SKIP; /* this test is for machines without one */
  gcol_map_config_t c = gcol_map_config_default(GCOL_U64, GCOL_U64);
  gcol_map_t *m = (gcol_map_t *)&c;
  CHECK_STATUS(gcol_map_create(&m, &c, 0), GCOL_ERROR_NO_DEVICE);
  CHECK(m == NULL);
  CHECK(gcol_last_cuda_error() != 0);
  for (gcol_type_t k = GCOL_U32; k <= GCOL_I64; ++k) {
    if (k == GCOL_F32) continue;
    c = gcol_map_config_default(k, GCOL_F32);
    CHECK_STATUS(gcol_map_create(&m, &c, 0), GCOL_ERROR_NO_DEVICE);
  }
  return TEST_PASS;
}

TEST(next_prime_matches_trial_division) {
  uint32_t expect_after[] = {2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13, 17};
  for (uint32_t x = 0; x < 15; ++x) CHECK(gcol_next_prime(x) == expect_after[x]);
  CHECK(gcol_next_prime(1000000) == 1000003);
  CHECK(gcol_next_prime(2147483647u) == 2147483647u); /* 2^31 - 1 is prime */
  CHECK(gcol_next_prime(2147483648u) == 0);
  return TEST_PASS;
}

TEST(map_policy_table_rows) {
  gcol_map_policy_t h = gcol_map_policy_for(9), a = gcol_map_policy_for(8), old = gcol_map_policy_for(7);
  CHECK(h.key_cas == 0); /* sm_90 claims 16-byte pairs with one 128-bit CAS */
  CHECK(a.key_cas == 1 && old.key_cas == 1);
  /* thread-per-key inserts into DRAM tables on half the grid: measured on sm_90 alone */
  CHECK(h.solo_insert_div == 2 && a.solo_insert_div == 1 && old.solo_insert_div == 1);
  CHECK(gcol_map_policy_for(12).min_cc_major == 9);
  /* an sm_90 GPU of unknown name takes the H100's row; an H200 its own, with
   * two keys per lookup tile (tuning_oa.h) */
  gcol_gpu_props_t g200;
  memset(&g200, 0, sizeof g200);
  g200.cc_major = 9;
  strcpy(g200.name, "NVIDIA H200");
  CHECK(h.lookup_keys == 1 && a.lookup_keys == 1 && gcol_map_policy_select(&g200).lookup_keys == 2);
  strcpy(g200.name, "NVIDIA H100 80GB HBM3");
  CHECK(gcol_map_policy_select(&g200).lookup_keys == 1);
  gcol_map_policy_t rows[] = {h, a, old};
  for (int i = 0; i < 3; ++i) {
    CHECK(gcol_map_tile_supported(rows[i].tile8) && gcol_map_tile_supported(rows[i].tile16));
    /* erases and sets' 4-byte inserts go in region order, 8-byte inserts not (map_policy.h) */
    CHECK(rows[i].region_ops == (GCOL_OA_REGION_ERASE | GCOL_OA_REGION_INSERT4));
  }
  CHECK(!gcol_map_tile_supported(3) && !gcol_map_tile_supported(16));
  CHECK(gcol_map_bucket_slots(4, 4, 4) == 8 && gcol_map_bucket_slots(4, 8, 4) == 4);
  return TEST_PASS;
}

TEST(test_key_families_invert) {
  tu_rng_t r = {test_seed()};
  for (int i = 0; i < 100000; ++i) {
    uint64_t x = tu_next(&r);
    CHECK(tu_unmix64(tu_mix64(x)) == x);
    CHECK(tu_unmix32(tu_mix32((uint32_t)x)) == (uint32_t)x);
    CHECK(tu_key_index(77, tu_key(77, x & 0xffff, 8), 8) == (x & 0xffff));
    CHECK(tu_key_index(77, tu_key(77, x & 0xffff, 4), 4) == (x & 0xffff));
  }
  return TEST_PASS;
}
