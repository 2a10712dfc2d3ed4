#include "map_policy.h"

/* Rows in ascending min_cc_major.
 *
 * Tiles, from the sweep of `GCOL_BENCH_SWEEP=1 make bench` on an H100 SXM
 * (2026-11-23; 100M keys, G ops/s, insert / find hits / find misses):
 *   i64 pairs (16-byte slots)  load 0.5       load 0.8
 *     tile 1                   9.3/19.4/13.8  7.2/13.6/ 5.8
 *     tile 2                   9.1/22.8/18.3  6.7/17.6/ 8.6
 *     tile 4                   8.7/23.7/20.4  6.5/19.4/10.8   <- chosen
 *     tile 8                   6.7/18.7/17.6  5.7/16.8/10.7
 *   i32 pairs (8-byte slots)
 *     tile 1                  10.2/21.3/19.1  8.9/17.2/ 9.1
 *     tile 2                  10.7/21.4/23.2  8.9/19.0/12.5   <- chosen
 *     tile 4                  10.3/19.1/23.7  8.7/17.6/14.4
 *     tile 8                   7.8/17.7/19.0  7.1/16.7/13.4
 * A bucket of 32 to 64 bytes (one or two DRAM sectors) is the sweet spot:
 * misses at load 0.8 need a bucket with an empty slot, which small buckets
 * rarely have, and large buckets cost more lanes and bytes per probe.
 * The tile here is the bucket width in chunks; lookups in 4-chunk buckets
 * have since probed with 2 lanes of 2 chunks each (worker_lanes in
 * gcol/device/detail/map_bulk.cuh). */
/* Kernel shapes (H100 measurements in map_policy.h and bench/RESULTS.md):
 * a thread per key for lookups and inserts in sets and in tables that fit
 * the L2, and for lookups in maps of 8-byte slots (100M i32 pairs at load
 * 0.5, against tiles: find hits 27.33 / 21.32 G/s, misses 24.17 / 23.01,
 * contains 28.15 / 21.29); their inserts stay on tiles (11.13 against 10.83
 * by a thread per key). Sets in DRAM trade 3% on inserts of new keys (u64:
 * 10.82 against 11.18) for inserts of keys mostly present (100M inputs of
 * 10M distinct u64: 3.77 ms against 5.09). Older GPUs take the same
 * shapes, unmeasured. */
#define SOLO_LOOKUPS (GCOL_OA_KEYS | GCOL_OA_PAIR8 | GCOL_OA_IN_L2)
#define SOLO_UPSERTS (GCOL_OA_KEYS | GCOL_OA_IN_L2)
/* Grouped insert_or_apply: a shared table of 96 KB, two blocks per SM on
 * sm_80 and sm_90 (older GPUs: 48 KB, what every block may have). */
#define GROUPED_SMEM (96 << 10)
/* Region order (map_policy.h): erases, and inserts into sets of 4-byte keys. */
#define REGION_OPS (GCOL_OA_REGION_ERASE | GCOL_OA_REGION_INSERT4)
/* Thread-per-key inserts into DRAM tables on half the grid: measured on
 * sm_90 only (map_policy.h), so older GPUs keep the full grid. */
static const gcol_map_policy_t rows[] = {
    /* default (sm_70 and older run the sm_80 row's code through PTX) */
    {0, 256, GCOL_MAP_TILE8, GCOL_MAP_TILE16, 1, SOLO_LOOKUPS, SOLO_UPSERTS, 48 << 10, REGION_OPS, 1},
    /* sm_80: no 128-bit CAS */
    {8, 256, GCOL_MAP_TILE8, GCOL_MAP_TILE16, 1, SOLO_LOOKUPS, SOLO_UPSERTS, GROUPED_SMEM, REGION_OPS, 1},
    /* sm_90: CAS128 claims 16-byte pairs */
    {9, 256, GCOL_MAP_TILE8, GCOL_MAP_TILE16, 0, SOLO_LOOKUPS, SOLO_UPSERTS, GROUPED_SMEM, REGION_OPS, 2},
};

gcol_map_policy_t gcol_map_policy_for(int cc_major) {
  gcol_map_policy_t p = rows[0];
  for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; ++i)
    if (rows[i].min_cc_major <= cc_major) p = rows[i];
  return p;
}

int gcol_map_tile_supported(int tile) { return tile == 1 || tile == 2 || tile == 4 || tile == 8; }

int gcol_oa_tile(const gcol_map_policy_t *p, int kb, int vb, size_t capacity, int growable, size_t l2_bytes) {
  if (vb == 0) return kb == 16 ? GCOL_SET_TILE16 : GCOL_SET_TILE;
  if (kb == 16) return GCOL_MAP_TILE32;
  if (kb == 4 && vb == 4) return p->tile8;
  /* 16-byte slots: a fixed table that fits the L2 takes the small buckets */
  return !growable && capacity <= l2_bytes / 16 ? GCOL_MAP_TILE16_IN_L2 : p->tile16;
}
