/* Tuning of the open-addressing core (map, set; the multiset's contains and
 * the multimap's fill and retrieve_all run its kernels too), in one place.
 * Model: CUB's tuning_*.cuh next to dispatch_*.cuh.
 *
 * Two kinds of knobs, kept apart:
 *   compile time (this file): block sizes and launch bounds, the tiles the
 *     kernels are compiled for, the lanes that probe one key, the grouped
 *     and rebuild kernels' shapes. Changing one changes the kernels that
 *     exist; the dispatch (dispatch_oa.cuh) reads them, and its instantiation
 *     matrix follows from them.
 *   run time (the policy rows, map_policy.c): which compiled tile a table
 *     takes, the thread-per-key masks, grouping and region thresholds, the
 *     claim scheme. A row may only choose what is compiled here:
 *     gcol_oa_tile_compiled says what is, and tests/test_tuning_host.c checks
 *     every row against it (no GPU needed).
 *
 * C11 and CUDA C++ alike: map_policy.c, map_config_check.c and mm_plan.c
 * read the tiles; the C++ part at the end is the kernels' view.
 * Measurements: H100 SXM unless said (docs/experiments.md; current figures:
 * bench/RESULTS.md). */
#ifndef GCOL_SRC_MAP_TUNING_OA_H
#define GCOL_SRC_MAP_TUNING_OA_H

#include <stddef.h>

/* ---- blocks and launch bounds --------------------------------------------- */

/* Threads per block of the bulk kernels (upsert, find, erase, their
 * thread-per-key forms, fill, count_used): their launch bounds and their
 * grids (grid_fill / grid_per_item). A compile-time constant, not a row
 * field: the upsert kernels are compiled for GCOL_UPSERT_MIN_BLOCKS blocks
 * of this size, and a larger block would fail at launch. */
#define GCOL_OA_BLOCK 256

/* Resident blocks of GCOL_OA_BLOCK threads per SM that the upsert kernels
 * (and the multimap's open insert) are compiled for (more blocks: fewer
 * registers per thread). Measured: +5% insert on H100 over no bound. */
#ifndef GCOL_UPSERT_MIN_BLOCKS
#define GCOL_UPSERT_MIN_BLOCKS 6
#endif
/* What the upsert kernels' launch bounds ask for: GCOL_UPSERT_MIN_BLOCKS,
 * capped on Turing (sm_75), whose SM holds 1,024 threads; ptxas refuses a
 * bound above what the SM holds, which broke the release wheel's sm_75 pass. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800 && GCOL_UPSERT_MIN_BLOCKS * GCOL_OA_BLOCK > 1024
#define GCOL_UPSERT_BOUND_BLOCKS (1024 / GCOL_OA_BLOCK)
#else
#define GCOL_UPSERT_BOUND_BLOCKS GCOL_UPSERT_MIN_BLOCKS
#endif

/* The tile upsert kernels launch this many GPU-filling grids' worth of
 * blocks (grid-stride over the rest). A kernel that shares the SMs with
 * another, NCCL's during a sharded map's rounds or a caller's other stream,
 * then has no tail of blocks that found no room until the other ended.
 * H200, every grid_fill kernel at 1 / 4 / 16 waves (GCOL_GRID_WAVES, an
 * experiment): bench_map i64 insert 13.14 / 13.14 / 13.09 G/s alone;
 * bench_dist insert on 2 GPUs 17.5 / 18.8-19.2 / 19.8, on 4 GPUs 29.7-30.3
 * / 33.3-34.3 / 34.5. The same waves slowed set inserts (14.30 -> 13.62: the half grid
 * of solo_insert_div is then full) and erases (16.2 -> 14.5), so only the
 * tile upserts take them. */
#define GCOL_UPSERT_WAVES 16

/* retrieve_all's block size and 16-byte chunks per thread and step. */
#ifndef GCOL_RETRIEVE_BLOCK
#define GCOL_RETRIEVE_BLOCK 256
#define GCOL_RETRIEVE_ITEMS 4
#endif

/* Growth (map_rebuild.cuh): threads of the stage and deferred kernels, and
 * the bytes of slots one stage block holds in shared memory (a segment). */
#ifndef GCOL_REBUILD_BLOCK
#define GCOL_REBUILD_BLOCK 256
#endif
#define GCOL_REBUILD_ITEMS 4
#define GCOL_REBUILD_STAGE_BYTES 32768

/* Grouped insert_or_apply and region order (map_grouped.cuh): threads of
 * the histogram, starts and scatter kernels, and of the reduce kernel; the
 * scatter's inputs per thread and tile (and resident blocks it is compiled
 * for); a shared slot's probes before its key goes to the map; the reduce's
 * inputs in flight per thread (H100, 100M inputs onto 10M i64 keys,
 * counting: 2.41 ms with a slot per probe, one input per thread and
 * whole-table sweeps, 1.56 so). */
#define GCOL_GROUPED_BLOCK 512
#define GCOL_GROUPED_REDUCE_BLOCK 512
#define GCOL_GROUPED_ITEMS 8
#define GCOL_GROUPED_SCATTER_MIN_BLOCKS 2
#define GCOL_GROUPED_PROBES 64
#define GCOL_GROUPED_LOADS 2

/* ---- tiles: the bucket widths (16-byte chunks) the kernels are compiled for */

/* From the sweep of `GCOL_BENCH_SWEEP=1 make bench` on an H100 SXM
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
 * rarely have, and large buckets cost more lanes and bytes per probe. */
#define GCOL_MAP_TILE8 2  /* maps with 8-byte slots (4-byte key and value) */
#define GCOL_MAP_TILE16 4 /* maps with 16-byte slots */
/* Maps with 16-byte keys (32-byte slots, a chunk each): buckets of 2 slots,
 * 64 bytes, the byte width the other pairs found best. */
#define GCOL_MAP_TILE32 2
/* Sets (4- or 8-byte key slots): buckets of 2 chunks, 32 bytes (8 u32 or 4
 * u64 keys), probed by a thread per key (the rows' solo masks). H100, 100M
 * keys in 200M slots (bench_set, insert / contains / misses G/s): u32 11.44
 * / 29.83 / 28.57 against 11.37 / 23.31 / 26.47 with 4 chunks and tiles; u64
 * 10.86 / 27.52 / 24.43 against 11.18 / 22.72 / 25.71; 100M inserts of 1M
 * distinct u64 keys 1.09 ms against 4.69 (.exp sweep of the library). */
#define GCOL_SET_TILE 2
/* Sets of 16-byte keys (GCOL_U128): buckets of 4 chunks, 64 bytes. */
#define GCOL_SET_TILE16 4
/* Multisets of every key width: buckets of 4 chunks, 64 bytes. The
 * multiset's open engine with 4 chunks: insert 10.25 G keys/s, count 12.92
 * G probes/s (4 copies per key, load 0.5); with 2: 9.10 and 11.51. The
 * multiset's contains is the set's find kernel compiled for this tile as
 * its own instance (oa_ops::multiset_contains): the set's tiles do not
 * follow it, nor it theirs. */
#define GCOL_MULTISET_TILE 4
/* Fixed maps with 16-byte slots whose table fits the L2 cache at creation:
 * buckets of 2 chunks, probed by a thread per key (H100, 100M inputs of 1M
 * distinct i64 keys: insert_or_apply 3.06 ms against 4.23 with 4 chunks and
 * 6.56 with tiles; find 1.49 / 2.04 / 3.97 ms). Larger and growable maps
 * keep GCOL_MAP_TILE16 and tiles, which lead in DRAM (100M i64 keys at load
 * 0.5, tiles of 4 / a thread per key over 2 chunks: contains 25.8 / 25.0,
 * misses 22.7 / 19.8 G/s). */
#define GCOL_MAP_TILE16_IN_L2 2

/* The instance table of the tiles: the shipped library compiles, per slot
 * class (slot bytes, keys only), the kernels of GCOL_OA_TILE and
 * GCOL_OA_TILE_ALT (equal ones compile once); test and bench builds
 * (GCOL_TESTING) compile 1, 2, 4 and 8 for the sweeps. A policy row's tile
 * for a class must be one of the two (gcol_oa_tile_compiled).
 * GCOL_OA_TILE is the tile of large tables of the class: the one rule of
 * the capacity check (map_config_check.c). */
#define GCOL_OA_TILE(slot_bytes, keys_only)                                                         \
  ((keys_only) ? ((slot_bytes) == 16 ? GCOL_SET_TILE16 : GCOL_SET_TILE)                            \
               : (slot_bytes) == 32 ? GCOL_MAP_TILE32 : (slot_bytes) == 16 ? GCOL_MAP_TILE16 : GCOL_MAP_TILE8)
/* The other tile compiled for a class: small 16-byte-slot maps'. */
#define GCOL_OA_TILE_ALT(slot_bytes, keys_only) \
  (!(keys_only) && (slot_bytes) == 16 ? GCOL_MAP_TILE16_IN_L2 : GCOL_OA_TILE(slot_bytes, keys_only))

/* ---- lanes: the threads that probe one key (library kernels) -------------- */

/* The library's kernels take these; the device API's defaults
 * (worker_lanes, include/gcol/device/detail/map_bulk.cuh) hold the same
 * numbers, measured once for both.
 * Maps: lookups in buckets of 4 or more chunks take half as many lanes as
 * chunks, each reading two, so a warp has twice the keys in flight (H100,
 * 100M i64 pairs, load 0.5: find 23.0 -> 24.9 G/s, contains 22.3 -> 26.1;
 * load 0.8: find 19.3 -> 21.3); erase keeps a lane per chunk. Inserts take
 * a key per tile of GCOL_OA_MAP_UPSERT_LANES lanes (a 64-byte bucket of
 * 16-byte pairs read as two 32-byte halves). H100, 100M unique pairs,
 * insert G/s at load 0.5 / 0.8 (bench_map): i64 pairs, the rank walk over 4
 * lanes 10.01 / 8.21, a key per tile of 4 lanes 10.24 / 8.33, of 2 lanes
 * 10.78 / 9.31; i32 pairs (32-byte buckets) 11.08 / 9.78, 11.43 / 10.15
 * with 2 lanes, 10.60 / 9.90 with 1. */
#define GCOL_OA_MAP_UPSERT_LANES 2
/* Keys-only tables (at most the tile): lookups, and inserts and erases.
 * H100 sweep, 4-chunk buckets, 100M keys at load 0.5 (insert / contains /
 * misses / erase G/s): u64 with 2 and 4 lanes 11.18/22.77/25.79/12.02, one
 * lane for everything 9.52/22.68/22.08/7.99; u32 11.38/23.39/26.59/12.55
 * against 10.07/24.11/25.78/10.93. */
#define GCOL_OA_SET_LOOKUP_LANES 2
#define GCOL_OA_SET_INSERT_LANES 4

/* ---- keys in flight per lookup tile --------------------------------------- */

/* Maps with 16-byte slots in DRAM may look up two keys per tile at once
 * (tile_find_two: each step reads the buckets of both before matching
 * either), for the rows whose lookup_keys is 2. The shipped library
 * compiles that find kernel for their large-table tile GCOL_MAP_TILE16
 * only (its lookup lanes are even); test builds for every even lane count.
 * H200, 100M i64 pairs, G/s with one key / two (bench_map's keys sweep,
 * 2026-11-27, the walks past full buckets in lockstep): load 0.5 find
 * 25.70 / 31.53, contains 25.61 / 32.31, misses 23.21 / 22.93; load 0.8
 * find 21.68 / 24.01, contains 21.64 / 24.78, misses 13.31 / 11.41 (the one
 * loss: long walks, fewer warps in flight). The H100 keeps one key (its
 * rows sit at their floor with one; not swept with two). */
#define GCOL_OA_TWO_KEYS(slot_bytes, keys_only, tile) (!(keys_only) && (slot_bytes) == 16 && (tile) == GCOL_MAP_TILE16)

/* ---- run-time thresholds the rows do not vary ----------------------------- */

/* Region order (policy row's region_ops): a large batch of keys alone into
 * a table larger than the L2 (at least GCOL_REGION_MIN_BATCH keys and
 * num_slots / GCOL_REGION_BATCH_DIV) is first copied in the order of its
 * keys' home buckets, cut into 2^bits runs each covering about 1 /
 * GCOL_REGION_L2_DIV of the L2 (one scatter pass of map_grouped.cuh, bits
 * <= GCOL_GROUPED_ONE_PASS_BITS), so that the op sweeps the table a region
 * at a time and its read-modify-writes meet in the L2. Which ops: H100,
 * 100M unique keys into 200M slots, ms with the keys as they are /
 * presorted into regions of 12.5 MB (.exp): erase from a u64 set 8.51 /
 * 4.27, u32 set 8.00 / 4.21, i64 map 9.85 / 6.25, i32 map 8.37 / 4.20;
 * insert into a u32 set 8.78 / 6.66, u64 set 9.19 / 8.22, i32 map 9.07 /
 * 9.01, i64 map 9.86 / 10.96. The reorder itself costs about 1.2 ms for
 * 8-byte keys and 0.7 for 4-byte ones, so erases and inserts into sets of
 * 4-byte keys take it, other inserts not. (Inserts with per-key outputs and
 * insert_or_assign / apply keep their order: they carry values or write
 * per input.) */
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
/* The most shared memory a row's grouped_smem may ask of the reduce kernel
 * (an opt-in size every sm_80 and later GPU gives a block). */
#define GCOL_GROUPED_MAX_SMEM (96 << 10)

/* ---- the kernels' view (CUDA C++) ----------------------------------------- */
#ifdef __cplusplus
namespace gcol {
namespace detail {

/* A list of compiled tiles (the dispatch walks it). */
template <int... Ts>
struct tile_list {};

/* The tuning of one slot class, as the dispatch reads it (CUB's policy
 * struct): SLOT_BYTES 4, 8, 16 or 32; KEYS_ONLY for sets and multisets. */
template <int SLOT_BYTES, bool KEYS_ONLY>
struct oa_tuning {
  static constexpr int block = GCOL_OA_BLOCK;
  static constexpr bool wide_keys = KEYS_ONLY ? SLOT_BYTES == 16 : SLOT_BYTES == 32; /* 16-byte keys */
#ifdef GCOL_TESTING
  using tiles = tile_list<1, 2, 4, 8>; /* the sweeps' tiles */
#else
  using tiles = tile_list<GCOL_OA_TILE(SLOT_BYTES, KEYS_ONLY), GCOL_OA_TILE_ALT(SLOT_BYTES, KEYS_ONLY)>;
#endif
  /* the multiset's contains: keys-only classes only */
  using multiset_tiles = tile_list<GCOL_MULTISET_TILE>;
  /* Thread-per-key kernels exist for keys of 4 and 8 bytes: tables of
   * 16-byte keys always take tiles (solo_for), so theirs are not compiled. */
  static constexpr bool solo = !wide_keys;

  /* lanes of the tile kernels, for buckets of T chunks (at most T) */
  template <int T>
  static constexpr int lookup_lanes() {
    if constexpr (KEYS_ONLY) return GCOL_OA_SET_LOOKUP_LANES < T ? GCOL_OA_SET_LOOKUP_LANES : T;
    else return T >= 4 ? T / 2 : T;
  }
  /* whether a row's lookup_keys applies to tile T of this class, and
     whether find kernels with two keys in flight per tile exist for it
     (their lanes must be even; test builds: wherever they are, for the
     sweep's hook) */
  template <int T>
  static constexpr bool row_two_keys() {
    return lookup_lanes<T>() % 2 == 0 && GCOL_OA_TWO_KEYS(SLOT_BYTES, KEYS_ONLY, T);
  }
  template <int T>
  static constexpr bool two_keys() {
#ifdef GCOL_TESTING
    return lookup_lanes<T>() % 2 == 0;
#else
    return row_two_keys<T>();
#endif
  }
  template <int T>
  static constexpr int erase_lanes() {
    if constexpr (KEYS_ONLY) return GCOL_OA_SET_INSERT_LANES < T ? GCOL_OA_SET_INSERT_LANES : T;
    else return T;
  }
  template <int T>
  static constexpr int upsert_lanes() {
    if constexpr (KEYS_ONLY) return erase_lanes<T>();
    else return GCOL_OA_MAP_UPSERT_LANES < T ? GCOL_OA_MAP_UPSERT_LANES : T;
  }
};

}  // namespace detail
}  // namespace gcol
#endif

#endif
