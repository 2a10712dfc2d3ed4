/* Per-architecture tuning of the map kernels, apart from the algorithm code:
 * tuning a new GPU is one row in map_policy.c. */
#ifndef GCOL_SRC_MAP_MAP_POLICY_H
#define GCOL_SRC_MAP_MAP_POLICY_H

#ifdef __cplusplus
extern "C" {
#endif

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
