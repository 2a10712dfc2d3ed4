/* Tuning of the multimap and multiset (open and chained engines), in one
 * place: what their kernels are compiled for. C11 and CUDA C++ alike
 * (mm_plan.c sizes tables by the tiles). The multiset's contains and the
 * multimap's fill and retrieve_all run the open-addressing core's kernels:
 * their tuning is src/map/tuning_oa.h (GCOL_MULTISET_TILE is there too, as
 * the core compiles the multiset's contains for it). */
#ifndef GCOL_SRC_MULTIMAP_TUNING_MM_H
#define GCOL_SRC_MULTIMAP_TUNING_MM_H

#include "map/tuning_oa.h"

/* Threads per block of every multimap kernel (insert, count, retrieve): their
 * launch bounds and grids. The open engine's insert is compiled for
 * GCOL_UPSERT_MIN_BLOCKS resident blocks (tuning_oa.h), as the map's upsert;
 * the query kernel has no bound (with (256) alone ptxas capped the count
 * instance at 32 registers and spilled, CUDA 13.0, sm_90; unbounded it takes
 * 38). */
#define GCOL_MM_BLOCK 256

/* Probing tiles of the open-addressing engine, fixed at compile time to the
 * map's measured choice (tuning_oa.h: 2 lanes for 8-byte slots, 4 for
 * 16-byte slots) so that each key/value pair instantiates one kernel per
 * operation. Not yet swept for duplicates: a key's copies fill its bucket,
 * so a larger tile may pay off; try it by building with -DGCOL_MM_TILE16=8
 * in both CFLAGS and NVFLAGS (1, 2, 4, 8 or 16). Multisets take
 * GCOL_MULTISET_TILE. */
#ifndef GCOL_MM_TILE8
#define GCOL_MM_TILE8 2
#endif
#ifndef GCOL_MM_TILE32 /* 16-byte keys with values: 32-byte slots, as the map's */
#define GCOL_MM_TILE32 2
#endif
#ifndef GCOL_MM_TILE16
#define GCOL_MM_TILE16 4
#endif

#ifdef __cplusplus
namespace gcol {
namespace detail {
/* Lanes per key of the open engine's insert, over a bucket of T chunks
 * (T / lanes each). Multisets: two lanes of two chunks over their 64-byte
 * buckets (H200, 100M i64 keys, 4 copies each, load 0.5, bench_set
 * 2026-11-27: 11.74 G keys/s against 10.79 with a lane per chunk and 8.20
 * with a thread per key reading the whole bucket, on half a grid as the
 * sets' inserts). Multimaps keep a lane per chunk (not measured apart).
 * Test builds compile 1, 2 and 4 lanes (up to T) too: the mm_insert_lanes
 * hook, bench_set's sweep. */
template <int T, bool KEYS_ONLY>
constexpr int mm_insert_lanes() {
  return KEYS_ONLY && T >= 2 ? T / 2 : T;
}
}  // namespace detail
}  // namespace gcol
#endif

#endif
