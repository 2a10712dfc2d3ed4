/* Per-architecture tuning of the map kernels, apart from the algorithm code:
 * tuning a new GPU is one row in map_policy.c. */
#ifndef GCOL_SRC_MAP_MAP_POLICY_H
#define GCOL_SRC_MAP_MAP_POLICY_H

#ifdef __cplusplus
extern "C" {
#endif

/* The probing tiles the library's kernels are compiled for (every policy
 * row picks these; a row that wants another adds it here, and the shipped
 * kernels follow). Test and bench builds (GCOL_TESTING) compile 1, 2, 4 and
 * 8 for sweeps. */
#define GCOL_MAP_TILE8 2  /* maps with 8-byte slots (4-byte key and value) */
#define GCOL_MAP_TILE16 4 /* maps with 16-byte slots */

typedef struct {
  int min_cc_major;  /* first compute capability major the row applies to */
  int block_threads; /* threads per block of the bulk kernels */
  int tile8;         /* probing tile (threads) of maps with 8-byte slots */
  int tile16;        /* probing tile (threads) of maps with 16-byte slots */
  int key_cas;       /* 16-byte slots: key CAS + value store instead of CAS128 */
} gcol_map_policy_t;

/* The row for a compute capability (the last row whose min_cc_major <= cc_major). */
gcol_map_policy_t gcol_map_policy_for(int cc_major);

/* Tile sizes the library is compiled for; a policy (or a test's override)
 * must pick one of these. */
int gcol_map_tile_supported(int tile);

#ifdef __cplusplus
}
#endif
#endif
