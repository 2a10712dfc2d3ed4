/* The policy rows of the open-addressing core: what each GPU chooses at run
 * time among the kernels tuning_oa.h compiles, and how a GPU finds its row.
 *
 * Adding a row (a GPU measured apart, e.g. H200 next to H100, both sm_90):
 * put it after the rows it refines, with a match that tells it apart (a
 * part of the device's name, or the least memory: H100 80 GB, H200 141 GB),
 * and cite in `sweep` the measurement that chose it (its docs/experiments.md
 * section: the command, the GPU, the date). A GPU no row names takes the
 * default row of its architecture (the last one that matches by compute
 * capability alone). Every choice of a row must be compiled:
 * tests/test_tuning_host.c checks each row against tuning_oa.h's instance
 * table, so a row that wants another tile adds it there first. */
#include <pthread.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "map_policy.h"
#include "map_internal.h"
#include "core/common.h"

/* Kernel shapes (H100 measurements in map_policy.h, tuning_oa.h and
 * docs/experiments.md): a thread per key for lookups and inserts in sets and in
 * tables that fit the L2, and for lookups in maps of 8-byte slots (100M i32
 * pairs at load 0.5, against tiles: find hits 27.33 / 21.32 G/s, misses
 * 24.17 / 23.01, contains 28.15 / 21.29); their inserts stay on tiles (11.13
 * against 10.83 by a thread per key). Sets in DRAM trade 3% on inserts of
 * new keys (u64: 10.82 against 11.18) for inserts of keys mostly present
 * (100M inputs of 10M distinct u64: 3.77 ms against 5.09). Older GPUs take
 * the same shapes, unmeasured. */
#define SOLO_LOOKUPS (GCOL_OA_KEYS | GCOL_OA_PAIR8 | GCOL_OA_IN_L2)
#define SOLO_UPSERTS (GCOL_OA_KEYS | GCOL_OA_IN_L2)
/* Grouped insert_or_apply: a shared table of 96 KB, two blocks per SM on
 * sm_80 and sm_90 (older GPUs: 48 KB, what every block may have). */
#define GROUPED_SMEM (96 << 10)
/* Region order (tuning_oa.h): erases, and inserts into sets of 4-byte keys. */
#define REGION_OPS (GCOL_OA_REGION_ERASE | GCOL_OA_REGION_INSERT4)
/* solo_insert_div: fewer inserts in flight. The read-modify-writes of random
 * DRAM sectors run faster with half the threads of a full grid resident.
 * H100, 100M unique keys into 200M slots, bench_set insert G/s with a full
 * grid / a half / a third / a quarter: u64 set 10.82 / 11.84 / 11.34 /
 * 11.64, u32 set (region order) 12.74 / 13.71 / 14.53 / 14.15. The same
 * division slowed every other read-modify-write kernel, so it is the
 * thread-per-key insert alone: the maps' tile inserts 10.77 -> 9.16 (i64,
 * half grid; 10.73 / 10.35 on 5 / 4 of the 6 resident blocks per SM),
 * multiset insert 10.25 -> 7.36, set erase 18.52 -> 14.53, Bloom add
 * unchanged (docs/experiments.md). Measured on sm_90 only, so older GPUs keep
 * the full grid. */
/* The tiles every row takes today (tuning_oa.h: the sweep of 2026-11-23). */
#define TILES GCOL_MAP_TILE8, GCOL_MAP_TILE16, GCOL_MAP_TILE16_IN_L2, GCOL_MAP_TILE32, GCOL_SET_TILE, GCOL_SET_TILE16

/* From general to particular: rows[0] matches every GPU; the last row that
 * matches a GPU is its row. */
static const gcol_map_policy_t rows[] = {
    /* default (sm_70 and older run the sm_80 row's code through PTX) */
    {0, NULL, 0, TILES, 1, SOLO_LOOKUPS, SOLO_UPSERTS, 48 << 10, REGION_OPS, 1, 1,
     "unmeasured: sm_80's shapes with the 48 KB every block may have"},
    /* sm_80: no 128-bit CAS */
    {8, NULL, 0, TILES, 1, SOLO_LOOKUPS, SOLO_UPSERTS, GROUPED_SMEM, REGION_OPS, 1, 1,
     "unmeasured: sm_90's shapes (H100 SXM sweeps) without CAS128 or solo_insert_div"},
    /* sm_90: CAS128 claims 16-byte pairs (the H100's row, and every sm_90
       GPU not measured apart) */
    {9, NULL, 0, TILES, 0, SOLO_LOOKUPS, SOLO_UPSERTS, GROUPED_SMEM, REGION_OPS, 2, 1,
     "H100 SXM: GCOL_BENCH_SWEEP=1 make bench (2026-11-23, tuning_oa.h) and docs/experiments.md"},
    /* H200 (sm_90, 4.8 TB/s): 40% more bandwidth than the H100 at the same
       latency needs more reads in flight: two keys per lookup tile */
    {9, "H200", 0, TILES, 0, SOLO_LOOKUPS, SOLO_UPSERTS, GROUPED_SMEM, REGION_OPS, 2, 2,
     "H200: GCOL_BENCH_SWEEP_KEYS=1 build/bench/bench_map (2026-11-27, docs/experiments.md, "
     "'Keys in flight per lookup tile')"},
};

const gcol_map_policy_t *gcol_map_policy_rows(size_t *count) {
  if (count) *count = sizeof rows / sizeof rows[0];
  return rows;
}

static int row_matches(const gcol_map_policy_t *r, const gcol_gpu_props_t *g) {
  if (r->min_cc_major > g->cc_major) return 0;
  if (r->name_contains && !strstr(g->name, r->name_contains)) return 0;
  return r->min_mem_bytes <= g->mem_bytes;
}

gcol_map_policy_t gcol_map_policy_pick(const gcol_map_policy_t *table, size_t n, const gcol_gpu_props_t *g) {
  gcol_map_policy_t p = table[0];
  for (size_t i = 0; i < n; ++i)
    if (row_matches(&table[i], g)) p = table[i];
  return p;
}

gcol_map_policy_t gcol_map_policy_select(const gcol_gpu_props_t *g) {
  return gcol_map_policy_pick(rows, sizeof rows / sizeof rows[0], g);
}

gcol_map_policy_t gcol_map_policy_for(int cc_major) {
  gcol_gpu_props_t g;
  memset(&g, 0, sizeof g);
  g.cc_major = cc_major;
  return gcol_map_policy_select(&g);
}

/* Read once per device: cudaGetDeviceProperties is slower than the
 * attribute calls, and every create asks. */
#define PROPS_CACHED 64
static gcol_gpu_props_t props_cache[PROPS_CACHED];
static int props_known[PROPS_CACHED];
static pthread_mutex_t props_lock = PTHREAD_MUTEX_INITIALIZER;

gcol_status_t gcol_gpu_props_of(int device, gcol_gpu_props_t *g) {
  if (device >= 0 && device < PROPS_CACHED) {
    pthread_mutex_lock(&props_lock);
    int known = props_known[device];
    if (known) *g = props_cache[device];
    pthread_mutex_unlock(&props_lock);
    if (known) return GCOL_SUCCESS;
  }
  struct cudaDeviceProp d;
  GCOL_CUDA_TRY(cudaGetDeviceProperties(&d, device));
  memset(g, 0, sizeof *g);
  g->cc_major = d.major;
  g->cc_minor = d.minor;
  memcpy(g->name, d.name, sizeof g->name < sizeof d.name ? sizeof g->name : sizeof d.name);
  g->name[sizeof g->name - 1] = 0;
  g->l2_bytes = (size_t)d.l2CacheSize;
  g->mem_bytes = d.totalGlobalMem;
  g->num_sms = d.multiProcessorCount;
  if (device >= 0 && device < PROPS_CACHED) {
    pthread_mutex_lock(&props_lock);
    props_cache[device] = *g;
    props_known[device] = 1;
    pthread_mutex_unlock(&props_lock);
  }
  return GCOL_SUCCESS;
}

gcol_status_t gcol_map_policy_of_device(int device, gcol_map_policy_t *p) {
  gcol_gpu_props_t g;
  GCOL_TRY(gcol_gpu_props_of(device, &g));
  *p = gcol_map_policy_select(&g);
  return GCOL_SUCCESS;
}

int gcol_map_tile_supported(int tile) { return tile == 1 || tile == 2 || tile == 4 || tile == 8; }

int gcol_oa_tile_compiled(int kb, int vb, int tile) {
  const int sb = (int)gcol_slot_bytes((size_t)kb, (size_t)vb), keys_only = vb == 0;
  return tile == GCOL_OA_TILE(sb, keys_only) || tile == GCOL_OA_TILE_ALT(sb, keys_only);
}

int gcol_oa_tile(const gcol_map_policy_t *p, int kb, int vb, size_t capacity, int growable, size_t l2_bytes) {
  if (vb == 0) return kb == 16 ? p->tile_keys16 : p->tile_keys;
  if (kb == 16) return p->tile32;
  if (kb == 4 && vb == 4) return p->tile8;
  /* 16-byte slots: a fixed table that fits the L2 takes the small buckets */
  return !growable && capacity <= l2_bytes / 16 ? p->tile16_in_l2 : p->tile16;
}
