/* GPU tests of the device spin mutex (include/gcol/device/lock.cuh). */
#include <math.h>
#include "harness.h"
#include "test_util.h"
#include "lock_kernels.h"

/* Thousands of blocks add their double partial sums of a 100M-float dot
 * product to one plain double under one lock. Every product of two floats is
 * exact in double, so the GPU and CPU sums differ only by double rounding of
 * the additions (about 1e-16 relative per addition, 1e-8 of sum|a*b| in the
 * worst case over 1e8 terms); the tolerance is 1e-6 relative (float
 * tolerance). The inputs are positive, so one lost update (a block's share,
 * about 1/blocks of the sum) is caught far above it; so is a lost increment
 * of the plain block counter, which must be exact. */
TEST(lock_dot_product_under_one_lock) {
  REQUIRE_GPU();
  size_t n = 100000000;
  if (n > test_max_n()) n = test_max_n();
  const int blocks = 4096;
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  CHECK(a && b);
  tu_rng_t r = {test_seed()};
  double want = 0;
  for (size_t i = 0; i < n; ++i) {
    a[i] = (float)(tu_next(&r) >> 40) / (float)(1 << 24);
    b[i] = (float)(tu_next(&r) >> 40) / (float)(1 << 24);
    want += (double)a[i] * (double)b[i];
  }
  float *da = tu_to_device(a, n * sizeof *a), *db = tu_to_device(b, n * sizeof *b);
  free(a), free(b);
  CHECK(da && db);
  double got = 0;
  unsigned long long done = 0;
  CHECK_CUDA(lock_test_dot(da, db, n, blocks, &got, &done));
  tu_free(da), tu_free(db);
  if (fabs(got - want) > 1e-6 * want) fprintf(stderr, "    dot: gpu %.17g cpu %.17g\n", got, want);
  CHECK(fabs(got - want) <= 1e-6 * want);
  CHECK(done == (unsigned long long)blocks);
  return TEST_PASS;
}

/* Every lane of every warp takes the same lock (sm_70+ independent thread
 * scheduling lets the winner reach unlock while its warp-mates spin); the
 * plain counter must count every increment. */
TEST(lock_all_lanes_of_a_warp_contend) {
  REQUIRE_GPU();
  const int blocks = 64, threads = 256, iters = 8;
  for (int guard = 0; guard < 3; ++guard) {
    unsigned long long count = 0;
    CHECK_CUDA(lock_test_contend(blocks, threads, iters, guard, &count));
    if (count != (unsigned long long)blocks * threads * iters)
      fprintf(stderr, "    guard %d: %llu of %d\n", guard, count, blocks * threads * iters);
    CHECK(count == (unsigned long long)blocks * threads * iters);
  }
  /* one warp alone: only intra-warp contention */
  unsigned long long count = 0;
  CHECK_CUDA(lock_test_contend(1, 32, 100, 0, &count));
  CHECK(count == 3200);
  return TEST_PASS;
}

/* A tile holds the lock and every lane writes its own plain counter in the
 * critical section: the tile-scoped form must order all lanes' accesses. */
TEST(lock_tile_scoped_guard) {
  REQUIRE_GPU();
  const int blocks = 80, iters = 4, tiles[] = {1, 2, 4, 8, 16, 32};
  for (int t = 0; t < 6; ++t) {
    unsigned long long c[32];
    CHECK_CUDA(lock_test_tile(tiles[t], blocks, iters, c));
    unsigned long long want = (unsigned long long)blocks * (256 / tiles[t]) * iters;
    for (int l = 0; l < 32; ++l) CHECK(c[l] == (l < tiles[t] ? want : 0));
  }
  return TEST_PASS;
}

TEST(lock_try_lock_admits_one) {
  REQUIRE_GPU();
  unsigned long long w = 0;
  CHECK_CUDA(lock_test_try_once(200, &w));
  CHECK(w == 1);
  return TEST_PASS;
}
