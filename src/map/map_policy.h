/* Per-architecture tuning of the map kernels, apart from the algorithm code:
 * tuning a new GPU is one row in map_policy.c. */
#ifndef GCOL_SRC_MAP_MAP_POLICY_H
#define GCOL_SRC_MAP_MAP_POLICY_H

#include <stddef.h>

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
/* Sets (4- or 8-byte key slots): buckets of 2 chunks, 32 bytes (8 u32 or 4
 * u64 keys), probed by a thread per key (see solo_* below). H100, 100M keys
 * in 200M slots (bench_set, insert / contains / misses G/s): u32 11.44 /
 * 29.83 / 28.57 against 11.37 / 23.31 / 26.47 with 4 chunks and tiles; u64
 * 10.86 / 27.52 / 24.43 against 11.18 / 22.72 / 25.71; 100M inserts of 1M
 * distinct u64 keys 1.09 ms against 4.69 (.exp sweep of the library). */
#define GCOL_SET_TILE 2
/* Sets of 16-byte keys (GCOL_U128) and multisets of every key width:
 * buckets of 4 chunks, 64 bytes. The multiset's open engine with 4 chunks:
 * insert 10.25 G keys/s, count 12.92 G probes/s (4 copies per key, load
 * 0.5); with 2: 9.10 and 11.51. */
#define GCOL_SET_TILE16 4
#define GCOL_MULTISET_TILE 4
/* Fixed maps with 16-byte slots whose table fits the L2 cache at creation:
 * buckets of 2 chunks, probed by a thread per key (H100, 100M inputs of 1M
 * distinct i64 keys: insert_or_apply 3.06 ms against 4.23 with 4 chunks and
 * 6.56 with tiles; find 1.49 / 2.04 / 3.97 ms). Larger and growable maps
 * keep GCOL_MAP_TILE16 and tiles, which lead in DRAM (100M i64 keys at load
 * 0.5, tiles of 4 / a thread per key over 2 chunks: contains 25.8 / 25.0,
 * misses 22.7 / 19.8 G/s). */
#define GCOL_MAP_TILE16_IN_L2 2
/* The tile of large tables of this slot size (keys_only: a set's); the one
 * rule of the capacity check (map_config_check.c). */
#define GCOL_OA_TILE(slot_bytes, keys_only)                                                         \
  ((keys_only) ? ((slot_bytes) == 16 ? GCOL_SET_TILE16 : GCOL_SET_TILE)                            \
               : (slot_bytes) == 32 ? GCOL_MAP_TILE32 : (slot_bytes) == 16 ? GCOL_MAP_TILE16 : GCOL_MAP_TILE8)
/* The other tile the shipped library compiles for a slot size: multisets'
 * buckets and the sets' contains on them, small 16-byte-slot maps. */
#define GCOL_OA_TILE_ALT(slot_bytes, keys_only) \
  ((keys_only) ? GCOL_MULTISET_TILE : (slot_bytes) == 16 ? GCOL_MAP_TILE16_IN_L2 : GCOL_OA_TILE(slot_bytes, keys_only))

/* Table classes of the kernel-shape masks below. A bulk operation runs a
 * thread per key (no tile, no shuffles: the one thread reads the whole
 * bucket) when its table's class is in the row's mask; GCOL_OA_IN_L2 names
 * every table of 4- or 8-byte keys whose slots fit the L2 cache. Tables of
 * 16-byte keys always take tiles (not measured otherwise). Why: tiles cost
 * shuffles and ballots per key, which bound lookups near 25 G/s wherever
 * the table is (H100, ncu: the memory pipes 90% busy, DRAM 20%); a thread
 * per key reaches 100 G/s on a table in L2. In DRAM, tiles keep the lead on
 * 16-byte slots (above), and on inserts of new keys into u64 sets. */
enum { GCOL_OA_KEYS = 1, GCOL_OA_PAIR8 = 2, GCOL_OA_PAIR16 = 4, GCOL_OA_IN_L2 = 8 };

typedef struct {
  int min_cc_major;  /* first compute capability major the row applies to */
  int block_threads; /* threads per block of the bulk kernels */
  int tile8;         /* probing tile (threads) of maps with 8-byte slots */
  int tile16;        /* probing tile (threads) of maps with 16-byte slots */
  int key_cas;       /* 16-byte slots: key CAS + value store instead of CAS128 */
  int solo_lookups;  /* classes whose find / contains run a thread per key */
  int solo_upserts;  /* classes whose insert family runs a thread per key */
  int grouped_smem;  /* shared-memory table of a grouped insert_or_apply (bytes; 0: never grouped) */
  int region_ops;    /* GCOL_OA_REGION_* ops whose large batches go in region order */
  int solo_insert_div; /* a thread-per-key insert into a table larger than the L2 runs on
                          1 / solo_insert_div of a full grid (below) */
} gcol_map_policy_t;

/* Fewer inserts in flight: the read-modify-writes of random DRAM sectors
 * run faster with half the threads of a full grid resident. H100, 100M
 * unique keys into 200M slots, bench_set insert G/s with a full grid / a
 * half / a third / a quarter: u64 set 10.82 / 11.84 / 11.34 / 11.64, u32 set
 * (region order) 12.74 / 13.71 / 14.53 / 14.15. The same division slowed
 * every other read-modify-write kernel, so it is the thread-per-key insert
 * alone: the maps' tile inserts 10.77 -> 9.16 (i64, half grid; 10.73 /
 * 10.35 on 5 / 4 of the 6 resident blocks per SM), multiset insert 10.25 ->
 * 7.36, set erase 18.52 -> 14.53, Bloom add unchanged (bench/RESULTS.md). */

/* Region order: a large batch of keys alone into a table larger than the
 * L2 (at least GCOL_REGION_MIN_BATCH keys and num_slots /
 * GCOL_REGION_BATCH_DIV) is first copied in the order of its keys' home
 * buckets, cut into 2^bits runs each covering about 1 / GCOL_REGION_L2_DIV
 * of the L2 (one scatter pass of map_grouped.cuh, bits <=
 * GCOL_GROUPED_ONE_PASS_BITS), so that the op sweeps the table a region at
 * a time and its read-modify-writes meet in the L2. Which ops: H100, 100M
 * unique keys into 200M slots, ms with the keys as they are / presorted
 * into regions of 12.5 MB (.exp): erase from a u64 set 8.51 / 4.27, u32
 * set 8.00 / 4.21, i64 map 9.85 / 6.25, i32 map 8.37 / 4.20; insert into a
 * u32 set 8.78 / 6.66, u64 set 9.19 / 8.22, i32 map 9.07 / 9.01, i64 map
 * 9.86 / 10.96. The reorder itself costs about 1.2 ms for 8-byte keys and
 * 0.7 for 4-byte ones, so erases and inserts into sets of 4-byte keys
 * take it, other inserts not. (Inserts with per-key outputs and
 * insert_or_assign / apply keep their order: they carry values or write
 * per input.) */
enum { GCOL_OA_REGION_ERASE = 1, GCOL_OA_REGION_INSERT4 = 2, GCOL_OA_REGION_INSERT8 = 4 };
#define GCOL_REGION_MIN_BATCH ((size_t)1 << 22)
#define GCOL_REGION_BATCH_DIV 8
#define GCOL_REGION_L2_DIV 4

/* An insert_or_apply batch of at least GCOL_GROUPED_MIN_BATCH inputs and at
 * least GCOL_GROUPED_RATIO times the map's slots is reduced per key in
 * shared memory first (src/map/map_grouped.cuh): such a batch repeats its
 * keys, at least GCOL_GROUPED_RATIO times each on average in a full map. */
#define GCOL_GROUPED_MIN_BATCH ((size_t)1 << 22)
#define GCOL_GROUPED_RATIO 2
/* Partitions of a grouped batch: enough blocks to fill the GPU, and at most
 * 2^13 (the histogram and scatter kernels hold counters for each in shared
 * memory: 136 KB for the scatter of 8-byte pairs, within sm_80's 163). */
#define GCOL_GROUPED_MIN_PBITS 9
#define GCOL_GROUPED_MAX_PBITS 13
/* Up to 2^GCOL_GROUPED_ONE_PASS_BITS partitions the batch is scattered once,
 * beyond in two passes (H100, 100M i64 keys to 512 partitions: 0.98 ms in
 * one pass, 0.86 + 0.87 in two). */
#define GCOL_GROUPED_ONE_PASS_BITS 9
/* A partition past max(4x the average, this many inputs) is folded by
 * several blocks, a piece each. */
#define GCOL_GROUPED_MIN_CHUNK ((size_t)1 << 16)

/* The row for a compute capability (the last row whose min_cc_major <= cc_major). */
gcol_map_policy_t gcol_map_policy_for(int cc_major);

/* Tile sizes the library is compiled for; a policy (or a test's override)
 * must pick one of these. */
int gcol_map_tile_supported(int tile);

/* The tile of a new map (vb > 0) or set (vb == 0) with kb-byte keys:
 * capacity slots, growable or not, on a GPU whose L2 holds l2_bytes. */
int gcol_oa_tile(const gcol_map_policy_t *p, int kb, int vb, size_t capacity, int growable, size_t l2_bytes);

#ifdef __cplusplus
}
#endif
#endif
