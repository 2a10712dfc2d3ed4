/* The ABI rules on the host (CI, no GPU needed): every refusal says why,
 * argument errors come before NO_DEVICE, config structs carry their size and
 * version and a mismatched one is refused. */
#include <string.h>
#include "harness.h"
#include "sssp/graph_internal.h"

/* The last message names the call and contains every fragment given. */
static int said(const char *call, const char *a, const char *b) {
  const char *m = gcol_last_error_message();
  int ok = m && strncmp(m, call, strlen(call)) == 0 && m[strlen(call)] == ':' && (!a || strstr(m, a)) &&
           (!b || strstr(m, b));
  if (!ok) fprintf(stderr, "    message was \"%s\"\n", m ? m : "(NULL)");
  return ok;
}

TEST(abi_message_names_call_argument_and_rule) {
  gcol_map_config_t cfg = gcol_map_config_default(GCOL_U64, GCOL_U64);
  CHECK_STATUS(gcol_map_create(NULL, &cfg, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_map_create", "map", "NULL"));
  gcol_map_t *m = (gcol_map_t *)1;
  CHECK_STATUS(gcol_map_create(&m, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(m == NULL && said("gcol_map_create", "cfg", "NULL"));
  cfg.max_load_factor = 1.5;
  CHECK_STATUS(gcol_map_create(&m, &cfg, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_map_create", "max_load_factor", "1.5"));
  CHECK_STATUS(gcol_map_insert(NULL, NULL, NULL, 0, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_map_insert", "gcol_map_t handle is NULL", NULL));
  CHECK_STATUS(gcol_multimap_count(NULL, NULL, 0, NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_multimap_count", "NULL", NULL));
  /* errno-like: a later successful call leaves the message alone */
  CHECK(gcol_version() > 0 && said("gcol_multimap_count", NULL, NULL));
  return TEST_PASS;
}

TEST(abi_argument_errors_come_before_no_device) {
  /* a table no prime bucket count can address: refused on the host */
  gcol_map_config_t cfg = gcol_map_config_default(GCOL_I64, GCOL_I64);
  cfg.capacity = (size_t)1 << 60;
  gcol_map_t *m = NULL;
  CHECK_STATUS(gcol_map_create(&m, &cfg, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_map_create", "cfg->capacity", "address"));
  gcol_multimap_config_t mc = gcol_multimap_config_default(GCOL_U32, GCOL_U32, GCOL_MULTIMAP_OPEN);
  mc.num_buckets = 10;
  gcol_multimap_t *mm = NULL;
  CHECK_STATUS(gcol_multimap_create(&mm, &mc, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_multimap_create", "num_buckets", NULL));
  /* misaligned and NULL device pointers are refused before the device is asked */
  size_t bytes = 1 << 20;
  char *p = (char *)(uintptr_t)0x10000;
  CHECK_STATUS(gcol_select_flagged(p, &bytes, p + 4, (uint8_t *)p, p, (size_t *)p, 10, 8, GCOL_ORDER_ANY, 0),
               GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_select_flagged", "d_in", "8-byte aligned"));
  CHECK_STATUS(gcol_reduce(p, &bytes, p + 2, p, 10, GCOL_F32, GCOL_OP_ADD, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_reduce", "d_in", "4-byte aligned"));
  CHECK_STATUS(gcol_exclusive_scan(p, &bytes, p, NULL, 10, GCOL_I64, GCOL_OP_MAX, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_exclusive_scan", "d_out", "NULL"));
  struct gcol_graph fake;
  memset(&fake, 0, sizeof fake);
  fake.magic = GCOL_GRAPH_MAGIC, fake.kind = GCOL_GRAPH_CSR, fake.n = 10;
  CHECK_STATUS(gcol_sssp_many_to_many(&fake, (uint32_t *)(p + 1), 1, NULL, 10, (float *)p, 0),
               GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_sssp_many_to_many", "d_sources", "4-byte aligned"));
  CHECK_STATUS(gcol_graph_create_csr(NULL, 4, 3, NULL, NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_graph_create_csr", "NULL", NULL));
  gcol_graph_t *g = NULL;
  CHECK_STATUS(gcol_graph_create_grid3d(&g, 2, 2, 2, (float *)(p + 2), 26, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_graph_create_grid3d", "d_voxel_cost", "aligned"));
  return TEST_PASS;
}

TEST(abi_config_header_is_set_and_checked) {
  gcol_map_config_t c = gcol_map_config_default(GCOL_U32, GCOL_U64);
  CHECK(c.size == sizeof c && c.magic == GCOL_CONFIG_MAGIC);
  CHECK(c.version == GCOL_VERSION_MAJOR * 10000u + GCOL_VERSION_MINOR * 100u + GCOL_VERSION_PATCH);
  gcol_multimap_config_t mc = gcol_multimap_config_default(GCOL_U32, GCOL_U64, GCOL_MULTIMAP_CHAINED);
  CHECK(mc.size == sizeof mc && mc.magic == GCOL_CONFIG_MAGIC && mc.map.size == sizeof mc.map);
  gcol_map_t *m = NULL;
  gcol_map_config_t bad = c;
  bad.magic = 0; /* a struct filled by hand, or from before 1.0 */
  CHECK_STATUS(gcol_map_create(&m, &bad, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_map_create", "magic", NULL));
  bad = c;
  bad.size = sizeof bad + 8; /* built against a newer header than this library */
  CHECK_STATUS(gcol_map_create(&m, &bad, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_map_create", "newer", NULL));
  bad = c;
  bad.size = sizeof bad - 8; /* shorter than any 1.x struct */
  CHECK_STATUS(gcol_map_create(&m, &bad, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_map_create", "size", NULL));
  bad = c;
  bad.version = (GCOL_VERSION_MAJOR + 1) * 10000u;
  CHECK_STATUS(gcol_map_create(&m, &bad, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_map_create", "major version", NULL));
  gcol_multimap_config_t mbad = mc;
  mbad.map.magic = 0;
  gcol_multimap_t *mm = NULL;
  CHECK_STATUS(gcol_multimap_create(&mm, &mbad, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(said("gcol_multimap_create", "magic", NULL));
  mbad = mc;
  mbad.size += 8;
  CHECK_STATUS(gcol_multimap_create(&mm, &mbad, 0), GCOL_ERROR_INVALID_ARGUMENT);
  /* a good config gets past the checks to the device question */
  if (!test_have_gpu()) {
    CHECK_STATUS(gcol_map_create(&m, &c, 0), GCOL_ERROR_NO_DEVICE);
    CHECK(said("gcol_map_create", "CUDA device", NULL));
    CHECK_STATUS(gcol_multimap_create(&mm, &mc, 0), GCOL_ERROR_NO_DEVICE);
  }
  return TEST_PASS;
}

TEST(abi_status_strings_cover_nccl) {
  const char *s = gcol_status_string(GCOL_ERROR_NCCL);
  CHECK(s && strncmp(s, "GCOL_ERROR_NCCL", 15) == 0);
  CHECK(strcmp(s, gcol_status_string(GCOL_ERROR_CUDA)) != 0);
  return TEST_PASS;
}
