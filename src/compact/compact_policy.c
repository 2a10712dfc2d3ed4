#include "compact_policy.h"

/* Rows in ascending min_cc_major. Starting points, not yet measured: the
 * sweep in `make bench` (bench_compact, "policy sweep") is what to tune
 * them from, and its figures belong in bench/RESULTS.md. 8 items of 16 bytes
 * keep 128 bytes of loads in flight per thread; one atomic per block of
 * 2,048 items keeps the counter off the critical path. */
static const gcol_select_policy_t rows[] = {
    /* default (pre-Ampere GPUs run the sm_80 code through PTX) */
    {0, 256, GCOL_SELECT_ITEMS, GCOL_AGG_BLOCK},
    /* sm_80 (A100) */
    {8, 256, GCOL_SELECT_ITEMS, GCOL_AGG_BLOCK},
    /* sm_90 (H100) */
    {9, 256, GCOL_SELECT_ITEMS, GCOL_AGG_BLOCK},
};

gcol_select_policy_t gcol_select_policy_for(int cc_major) {
  gcol_select_policy_t p = rows[0];
  for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; ++i)
    if (rows[i].min_cc_major <= cc_major) p = rows[i];
  return p;
}
