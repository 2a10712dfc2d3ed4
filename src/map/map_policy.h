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
/* Maps with 16-byte keys (32-byte slots, a chunk each): buckets of 2 slots,
 * 64 bytes, the byte width the other pairs found best. */
#define GCOL_MAP_TILE32 2
/* Sets and multisets (4- or 8-byte key slots): buckets of 4 chunks, 64
 * bytes (16 u32 or 8 u64 keys). H100, 100M keys in 200M slots (bench_set
 * sweep, insert / contains / misses G/s): u64 tile 2 11.05/21.70/23.14,
 * tile 4 11.17/22.69/25.67; u32 tile 2 11.37/22.73/26.41, tile 4
 * 11.37/23.35/26.50; tiles 1 and 8 slower on every column. The multiset's
 * open engine took the same tile: insert 9.10 -> 10.25 G keys/s, count
 * 11.51 -> 12.92 G probes/s (4 copies per key, load 0.5). */
#define GCOL_SET_TILE 4
/* The tile of a table of this slot size; keys_only: a set's or multiset's. */
#define GCOL_OA_TILE(slot_bytes, keys_only) \
  ((keys_only) ? GCOL_SET_TILE : (slot_bytes) == 32 ? GCOL_MAP_TILE32 : (slot_bytes) == 16 ? GCOL_MAP_TILE16 : GCOL_MAP_TILE8)

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
