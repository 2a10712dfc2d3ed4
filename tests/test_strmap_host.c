/* Host-side tests of the string dictionary (no GPU needed): the config,
 * and argument refusals that come before any device work. */
#include <string.h>
#include "harness.h"
#include "strmap/strmap_internal.h"

TEST(strmap_config_defaults_and_refusals) {
  gcol_strmap_config_t c = gcol_strmap_config_default(GCOL_U32), good, out;
  CHECK(c.value_type == GCOL_U32 && c.growable == 1 && c.capacity == 1024 && c.max_load_factor == 0.8);
  CHECK(c.empty_value == 0xffffffffULL && gcol_strmap_config_default(GCOL_F64).empty_value == ~0ULL);
  CHECK_OK(gcol_strmap_config_take(&c, &out));
  good = c;
#define BAD(stmt)                                                                 \
  c = good;                                                                       \
  stmt;                                                                           \
  CHECK_STATUS(gcol_strmap_config_take(&c, &out), GCOL_ERROR_INVALID_ARGUMENT);   \
  CHECK(strlen(gcol_last_error_message()) > 0)
  BAD(c.capacity = 0);
  BAD(c.max_load_factor = 0.99);
  BAD(c.max_load_factor = 0);
  BAD(c.growable = 2);
  BAD(c.value_type = (gcol_type_t)42);
  BAD(c.empty_value = 1ULL << 40); /* past 32 bits */
  BAD(c.growth_factor = 3);
  BAD(c.magic = 0);
#undef BAD
  gcol_strmap_t *m = (gcol_strmap_t *)&c;
  CHECK_STATUS(gcol_strmap_create(&m, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(m == NULL);
  CHECK_STATUS(gcol_strmap_create(NULL, &good, 0), GCOL_ERROR_INVALID_ARGUMENT);
  return TEST_PASS;
}

/* A NULL handle, a NULL column, bad offset types: refused with a message
 * naming the call, before the device is looked at. */
TEST(strmap_refusals_before_device) {
  gcol_strings_t k = {NULL, GCOL_I32, NULL, 0, 0};
  size_t a = 0, b = 0;
  CHECK_STATUS(gcol_strmap_insert(NULL, &k, NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "gcol_strmap_insert") != NULL);
  CHECK_STATUS(gcol_strmap_find(NULL, &k, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_strmap_retrieve_all(NULL, NULL, GCOL_I32, NULL, NULL, &a, &b, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_strmap_size(NULL, &a, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_strmap_capacity(NULL, &a), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_strmap_clear(NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_strmap_status(NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_strmap_destroy(NULL); /* a no-op */
  return TEST_PASS;
}
