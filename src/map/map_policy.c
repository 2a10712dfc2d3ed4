#include "map_policy.h"

/* Rows in ascending min_cc_major. The figures behind each choice are in
 * bench/RESULTS.md (tile sweep of `make bench`). */
static const gcol_map_policy_t rows[] = {
    /* default (sm_70 and older run the sm_80 row's code through PTX) */
    {0, 256, 2, 4, 1},
    /* sm_80: no 128-bit CAS */
    {8, 256, 2, 4, 1},
    /* sm_90: CAS128 claims 16-byte pairs */
    {9, 256, 2, 4, 0},
};

gcol_map_policy_t gcol_map_policy_for(int cc_major) {
  gcol_map_policy_t p = rows[0];
  for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; ++i)
    if (rows[i].min_cc_major <= cc_major) p = rows[i];
  return p;
}

int gcol_map_tile_supported(int tile) { return tile == 1 || tile == 2 || tile == 4 || tile == 8; }
