/* Host-side tests of the open-addressing core's tuning (no GPU needed): every
 * policy row chooses only what tuning_oa.h compiles, and GPUs find their
 * rows by their properties. */
#include <string.h>
#include "harness.h"
#include "map/map_internal.h"
#include "map/map_policy.h"
#include "multimap/mm_plan.h"

static const int pairs[9][2] = {{4, 4}, {4, 8}, {8, 4}, {8, 8}, {4, 0}, {8, 0}, {16, 0}, {16, 4}, {16, 8}};

/* Every tile a row can give a table (each pair, small and large, fixed and
 * growable, on a GPU with and without a large L2) is in the instance table. */
static test_result_t row_tiles_compiled(const gcol_map_policy_t *r) {
  const size_t caps[] = {1, 1000, (size_t)1 << 20, (size_t)1 << 32};
  const size_t l2s[] = {0, (size_t)40 << 20, (size_t)50 << 20, (size_t)1 << 40};
  for (int i = 0; i < 9; ++i)
    for (int c = 0; c < 4; ++c)
      for (int g = 0; g < 2; ++g)
        for (int l = 0; l < 4; ++l) {
          const int kb = pairs[i][0], vb = pairs[i][1];
          const int tile = gcol_oa_tile(r, kb, vb, caps[c], g, l2s[l]);
          if (!gcol_oa_tile_compiled(kb, vb, tile)) {
            fprintf(stderr, "    row \"%s\": tile %d of pair %d_%d (capacity %zu, growable %d) is not compiled\n",
                    r->sweep, tile, kb, vb, caps[c], g);
            return TEST_FAIL;
          }
          CHECK(gcol_map_tile_supported(tile)); /* and a test build's too */
        }
  return TEST_PASS;
}

TEST(tuning_rows_choose_compiled_instances) {
  size_t n = 0;
  const gcol_map_policy_t *rows = gcol_map_policy_rows(&n);
  CHECK(rows && n >= 1);
  for (size_t i = 0; i < n; ++i) {
    const gcol_map_policy_t *r = &rows[i];
    RUN(row_tiles_compiled(r));
    const int classes = GCOL_OA_KEYS | GCOL_OA_PAIR8 | GCOL_OA_PAIR16 | GCOL_OA_IN_L2;
    CHECK((r->solo_lookups & ~classes) == 0 && (r->solo_upserts & ~classes) == 0);
    CHECK((r->region_ops & ~(GCOL_OA_REGION_ERASE | GCOL_OA_REGION_INSERT4 | GCOL_OA_REGION_INSERT8)) == 0);
    CHECK(r->key_cas == 0 || r->key_cas == 1);
    CHECK(r->solo_insert_div >= 1);
    CHECK(r->lookup_keys == 1 || r->lookup_keys == 2); /* 2: compiled for GCOL_OA_TWO_KEYS's tile */
    CHECK(r->grouped_smem >= 0 && r->grouped_smem <= GCOL_GROUPED_MAX_SMEM);
    CHECK(r->sweep && r->sweep[0]); /* every row cites what chose it */
  }
  return TEST_PASS;
}

TEST(tuning_rows_go_from_general_to_particular) {
  size_t n = 0;
  const gcol_map_policy_t *rows = gcol_map_policy_rows(&n);
  /* rows[0] matches every GPU; compute capabilities never go down */
  CHECK(rows[0].min_cc_major == 0 && rows[0].name_contains == NULL && rows[0].min_mem_bytes == 0);
  for (size_t i = 1; i < n; ++i) CHECK(rows[i].min_cc_major >= rows[i - 1].min_cc_major);
  return TEST_PASS;
}

TEST(tuning_instance_table) {
  /* the shipped tiles per class: the large-table tile, and small 16-byte-slot maps' */
  for (int i = 0; i < 9; ++i) {
    const int kb = pairs[i][0], vb = pairs[i][1];
    const int sb = (int)gcol_slot_bytes((size_t)kb, (size_t)vb);
    CHECK(gcol_oa_tile_compiled(kb, vb, GCOL_OA_TILE(sb, vb == 0)));
    int count = 0;
    for (int t = 1; t <= 8; t *= 2) count += gcol_oa_tile_compiled(kb, vb, t);
    CHECK(count == (vb != 0 && sb == 16 ? 2 : 1));
  }
  /* the multiset's contains has its own instance: its tile is the plan's,
     whatever the sets' tiles */
  gcol_multimap_config_t c = gcol_multimap_config_default(GCOL_U64, GCOL_U64, GCOL_MULTIMAP_OPEN);
  const gcol_type_t keys[] = {GCOL_U32, GCOL_U64, GCOL_U128};
  for (int i = 0; i < 3; ++i) {
    gcol_mm_plan_t p;
    c.map = gcol_map_config_default(keys[i], GCOL_U64);
    CHECK_OK(gcol_mm_plan(&c, 1, &p));
    CHECK(p.tile == GCOL_MULTISET_TILE);
  }
  return TEST_PASS;
}

static gcol_gpu_props_t gpu(int major, const char *name, size_t mem_gb) {
  gcol_gpu_props_t g;
  memset(&g, 0, sizeof g);
  g.cc_major = major;
  strncpy(g.name, name, sizeof g.name - 1);
  g.l2_bytes = (size_t)50 << 20;
  g.mem_bytes = mem_gb << 30;
  g.num_sms = 132;
  return g;
}

TEST(tuning_rows_by_device) {
  /* today's rows: by architecture; GPUs no row names take the default of theirs */
  gcol_gpu_props_t h100 = gpu(9, "NVIDIA H100 80GB HBM3", 80), h200 = gpu(9, "NVIDIA H200", 141);
  gcol_gpu_props_t a100 = gpu(8, "NVIDIA A100-SXM4-80GB", 80), v100 = gpu(7, "Tesla V100-SXM2-32GB", 32);
  gcol_gpu_props_t next = gpu(12, "NVIDIA B200", 180);
  CHECK(gcol_map_policy_select(&h100).min_cc_major == 9 && gcol_map_policy_select(&h200).min_cc_major == 9);
  CHECK(gcol_map_policy_select(&a100).min_cc_major == 8 && gcol_map_policy_select(&v100).min_cc_major == 0);
  CHECK(gcol_map_policy_select(&next).min_cc_major == 9);
  CHECK(gcol_map_policy_for(9).key_cas == gcol_map_policy_select(&h100).key_cas);
  /* the mechanism per-GPU rows will use: by name, or by memory */
  gcol_map_policy_t t[4];
  size_t n = 0;
  const gcol_map_policy_t *rows = gcol_map_policy_rows(&n);
  t[0] = rows[0];
  t[1] = gcol_map_policy_for(9);
  t[2] = t[1], t[2].name_contains = "H100", t[2].solo_insert_div = 3;
  t[3] = t[1], t[3].min_mem_bytes = (size_t)120 << 30, t[3].solo_insert_div = 4;
  CHECK(gcol_map_policy_pick(t, 4, &h100).solo_insert_div == 3);
  CHECK(gcol_map_policy_pick(t, 4, &h200).solo_insert_div == 4);
  gcol_gpu_props_t other = gpu(9, "NVIDIA GH200 96GB", 96); /* unmeasured sm_90: the default sm_90 row */
  CHECK(gcol_map_policy_pick(t, 4, &other).solo_insert_div == t[1].solo_insert_div);
  CHECK(gcol_map_policy_pick(t, 4, &a100).min_cc_major == 0);
  return TEST_PASS;
}
