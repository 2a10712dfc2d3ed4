/* The floor of issues 23's, 24's and 38's DRAM-bound rows: for each row, a
 * kernel that does only the memory work no implementation can skip (read
 * the key, hash it, read its one home bucket or filter block, write the
 * output; for inserts and adds also the one atomic that changes the bucket)
 * on a table of the row's size, and nothing else: no probing past the first
 * bucket, no compare, no count. The best of its shapes (1, 2 or 4 lanes per
 * key, 1 or 2 keys in flight per tile, for atomics also half the grid) is
 * the floor: a container of that layout that does more work per key cannot
 * be faster on this GPU. Misses also pay for the buckets past a full home
 * bucket: their rows read a further random bucket with the probability that
 * a bucket of a real gcol map is full at load 0.5 (measured here). A row
 * whose target is above its floor cannot be met by probing differently,
 * only by touching fewer random sectors per key (every table here but the
 * Bloom filter's 128 MiB is far larger than the L2). Median of REPS runs of
 * 100M keys (GCOL_BENCH_N); targets are the issues' figures scaled by this
 * run's copy bandwidth. Erases do an insert's work (read the home bucket,
 * one CAS that succeeds); a multiset's or multimap's insert takes 4 copies
 * of each key, each copy CASing its own slot of the home bucket. The
 * kernels live in floor_kernels.cu, shared with the benches that print
 * their rows' share of the floor. */
#include <stdio.h>
#include <stdint.h>
#include "bench_common.h"
#include "floor_kernels.h"
#include "map/tuning_oa.h"    /* GCOL_MULTISET_TILE */
#include "multimap/tuning_mm.h" /* GCOL_MM_TILE16 */

static bench_gpu_t gpu;

/* The share of full buckets in a fixed gcol map of key and value type kt
 * after n unique inserts into 2n slots. */
static double full_share(gcol_type_t kt, size_t n) {
  size_t kb = gcol_type_size(kt);
  gcol_map_config_t c = gcol_map_config_default(kt, kt);
  c.capacity = 2 * n;
  gcol_map_t *m = NULL;
  bench_ok(gcol_map_create(&m, &c, 0), "create");
  void *keys = bench_unique_keys(n, kb, 1000);
  bench_ok(gcol_map_insert(m, keys, keys, n, NULL, 0), "insert");
  gcol_map_view_t v;
  bench_ok(gcol_map_device_view(m, &v), "view");
  double share = bench_floor_full_share(v.slots, v.num_buckets, 16 * v.bucket_chunks, 2 * (int)kb, (int)kb,
                                        v.empty_key);
  BENCH_CUDA(cudaFree(keys));
  gcol_map_destroy(m);
  return share;
}

/* One row: the floor of its spec over keys, printed beside the issue's
 * target (G/s at copy 3,000 GB/s, scaled by this run's; 0: none). */
static void row(const char *label, double target, int kb, int bb, int ob, bench_floor_op_t op, size_t table_bytes,
                const void *keys, size_t n, double p_full = 0) {
  bench_floor_spec_t s = {kb, bb, ob, op, table_bytes, p_full};
  bench_floor_t f = bench_floor_measure(&gpu, &s, keys, n);
  printf("| %-38s | %5.0f MB | %2d B | %6.2f (%d x %d%s) |", label, table_bytes / 1e6, bb, f.gops, f.lanes, f.keys,
         f.half_grid ? ", half grid" : "");
  if (target > 0) {
    target *= gpu.copy_gbs / 3000.0;
    printf(" %6.2f | %s |\n", target, target <= f.gops ? "below the floor" : "ABOVE the floor");
  } else {
    printf(" - | |\n");
  }
  fflush(stdout);
}

int main(void) {
  if (bench_init(&gpu)) return 0;
  const size_t n = bench_size("GCOL_BENCH_N", 100000000);
  const size_t slots = 2 * n; /* load 0.5 */
  const double p32 = full_share(GCOL_I32, n), p64 = full_share(GCOL_I64, n);
  const void *k8 = bench_unique_keys(n, 8, 0), *k4 = bench_unique_keys(n, 4, 0);
  const void *rep8 = bench_floor_repeated_keys(n, 8, 4, 7000); /* 4 copies of n / 4 keys */

  printf("\nFloors: the home bucket and nothing else, %zu keys (G keys/s; targets scaled by copy/3000). Full "
         "buckets at load 0.5 in a gcol map: i32 pairs %.1f%%, i64 pairs %.1f%%\n",
         n, 100 * p32, 100 * p64);
  printf("| row | table | bucket | floor (lanes x keys in flight) | target | target vs floor |\n"
         "|---|---|---|---|---|---|\n");
  /* issue 23: the map (i32 pairs: 8-byte slots, 32-byte buckets; i64: 16-byte slots, 64-byte buckets) */
  row("i32 map contains, load 0.5", 28.26 * 1.1, 4, 32, 1, BENCH_FLOOR_READ, 8 * slots, k4, n);
  row("i32 map find miss, home bucket only", 25.62 * 1.1, 4, 32, 4, BENCH_FLOOR_READ, 8 * slots, k4, n);
  row("i32 map find miss, with full buckets", 25.62 * 1.1, 4, 32, 4, BENCH_FLOOR_READ, 8 * slots, k4, n, p32);
  row("i32 map insert, load 0.5", 11.00 * 1.1, 4, 32, 4, BENCH_FLOOR_CAS8, 8 * slots, k4, n);
  row("i32 map erase, load 0.5", 0, 4, 32, 0, BENCH_FLOOR_CAS8, 8 * slots, k4, n);
  row("i64 map contains, load 0.5", 26.09 * 1.1, 8, 64, 1, BENCH_FLOOR_READ, 16 * slots, k8, n);
  row("i64 map contains, 32 B of the bucket", 26.09 * 1.1, 8, 32, 1, BENCH_FLOOR_READ, 16 * slots, k8, n);
  row("i64 map find miss, home bucket only", 21.80 * 1.1, 8, 64, 8, BENCH_FLOOR_READ, 16 * slots, k8, n);
  row("i64 map find miss, with full buckets", 21.80 * 1.1, 8, 64, 8, BENCH_FLOOR_READ, 16 * slots, k8, n, p64);
  row("i64 map insert, load 0.5 (CAS128)", 10.56 * 1.1, 8, 64, 0, BENCH_FLOOR_CAS16, 16 * slots, k8, n);
  row("i64 map insert, load 0.5 (CAS64)", 10.56 * 1.1, 8, 64, 0, BENCH_FLOOR_CAS8, 16 * slots, k8, n);
  row("i64 map erase, load 0.5 (CAS128)", 0, 8, 64, 0, BENCH_FLOOR_CAS16, 16 * slots, k8, n);
  /* issue 23: the u64 set (8-byte slots, 32-byte buckets; 64-byte ones for comparison) */
  row("u64 set insert, load 0.5", 10.44 * 1.1, 8, 32, 0, BENCH_FLOOR_CAS8, 8 * slots, k8, n);
  row("u64 set insert, 64 B buckets", 10.44 * 1.1, 8, 64, 0, BENCH_FLOOR_CAS8, 8 * slots, k8, n);
  row("u64 set contains, load 0.5", 22.58 * 1.1, 8, 32, 1, BENCH_FLOOR_READ, 8 * slots, k8, n);
  row("u64 set erase, load 0.5", 10.94 * 1.1, 8, 32, 0, BENCH_FLOOR_CAS8, 8 * slots, k8, n);
  /* issue 38: the multiset (i64 keys, 4 copies each, a slot per copy) and the multimap's open addressing */
  const int ms_bb = 16 * GCOL_MULTISET_TILE, mm_bb = 16 * GCOL_MM_TILE16;
  row("i64 multiset insert, 4 copies", 9.30 * 1.1, 8, ms_bb, 0, BENCH_FLOOR_CAS8_SLOT, 8 * slots, rep8, n);
  row("i64 multiset count (total only)", 12.98 * 1.1, 8, ms_bb, 0, BENCH_FLOOR_READ, 8 * slots, k8, n);
  row("i64 multimap insert, 4 copies", 8.3 * 3000 / 3026, 8, mm_bb, 0, BENCH_FLOOR_CAS16_SLOT, 16 * slots, rep8, n);
  row("i64 multimap count (total only)", 9.4 * 3000 / 3026, 8, mm_bb, 0, BENCH_FLOOR_READ, 16 * slots, k8, n);
  /* issue 24: the Bloom filter (32-byte blocks, 8-byte keys) */
  row("Bloom contains, 128 MiB", 34.3 * 1.1, 8, 32, 1, BENCH_FLOOR_READ, (size_t)128 << 20, k8, n);
  row("Bloom contains, 2 GiB", 28.5 * 1.1, 8, 32, 1, BENCH_FLOOR_READ, (size_t)2 << 30, k8, n);
  row("Bloom add, 2 GiB", 11.5 * 1.2, 8, 32, 0, BENCH_FLOOR_OR4, (size_t)2 << 30, k8, n);
  bench_floor_release();
  BENCH_CUDA(cudaFree((void *)k8));
  BENCH_CUDA(cudaFree((void *)k4));
  BENCH_CUDA(cudaFree((void *)rep8));
  return 0;
}
