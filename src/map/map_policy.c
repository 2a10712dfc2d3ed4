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
static const gcol_map_policy_t rows[] = {
    /* default (sm_70 and older run the sm_80 row's code through PTX) */
    {0, 256, GCOL_MAP_TILE8, GCOL_MAP_TILE16, 1},
    /* sm_80: no 128-bit CAS */
    {8, 256, GCOL_MAP_TILE8, GCOL_MAP_TILE16, 1},
    /* sm_90: CAS128 claims 16-byte pairs */
    {9, 256, GCOL_MAP_TILE8, GCOL_MAP_TILE16, 0},
};

gcol_map_policy_t gcol_map_policy_for(int cc_major) {
  gcol_map_policy_t p = rows[0];
  for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; ++i)
    if (rows[i].min_cc_major <= cc_major) p = rows[i];
  return p;
}

int gcol_map_tile_supported(int tile) { return tile == 1 || tile == 2 || tile == 4 || tile == 8; }
