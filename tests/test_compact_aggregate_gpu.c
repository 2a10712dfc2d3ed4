/* GPU tests of the device building blocks (warp_aggregate.cuh,
 * block_aggregate.cuh): every tile size 1..32 and counter type, single and
 * multi-slot forms, block level at several block sizes. Checked: the final
 * counter equals the sum of requests; the reserved ranges tile [0, total)
 * exactly once; a tile's (block's) ranges are contiguous in rank (thread)
 * order. */
#include <string.h>
#include "aggregate_kernels.h"
#include "harness.h"
#include "test_util.h"

static int check_level(int level, int tile, char kind, int block, size_t n) {
  unsigned long long *d_slot = tu_poisoned(n * 8 + 8), *d_total = tu_poisoned(8);
  unsigned long long *slot = malloc(n * 8 + 8), total = 0;
  int fail = !d_slot || !d_total;
  cudaError_t e = fail ? cudaErrorMemoryAllocation : agg_test_run(level, tile, kind, block, n, d_slot, d_total);
  if (e != cudaSuccess) fprintf(stderr, "    %s\n", cudaGetErrorString(e)), fail = 1;
  if (!fail) fail = tu_to_host(slot, d_slot, n * 8) || tu_to_host(&total, d_total, 8);
  size_t sum = 0;
  for (size_t i = 0; i < n; ++i) sum += (level & 1) ? agg_test_want_n(i) : agg_test_want(i);
  if (!fail && total != sum) fprintf(stderr, "    total %llu, want %zu\n", total, sum), fail = 1;
  uint8_t *used = calloc(sum + 1, 1);
  /* group = the threads whose ranges must be contiguous in order */
  const size_t group = level >= 2 ? (size_t)block : (size_t)tile;
  for (size_t g = 0; !fail && g < n; g += group) {
    unsigned long long next = ~0ull;
    for (size_t i = g; !fail && i < g + group && i < n; ++i) {
      unsigned w = (level & 1) ? agg_test_want_n(i) : agg_test_want(i);
      if (!w) continue;
      if (slot[i] == ~0ull || slot[i] + w > sum || (next != ~0ull && slot[i] != next)) {
        fprintf(stderr, "    thread %zu: slot %llu (next expected %llu)\n", i, slot[i], next);
        fail = 1;
        break;
      }
      for (unsigned k = 0; k < w; ++k) {
        if (used[slot[i] + k]) fail = 1, fprintf(stderr, "    slot %llu twice\n", slot[i] + k);
        used[slot[i] + k] = 1;
      }
      next = slot[i] + w;
    }
  }
  if (fail) fprintf(stderr, "    failed: level %d tile %d counter %c block %d n %zu\n", level, tile, kind, block, n);
  free(used), free(slot);
  tu_free(d_slot), tu_free(d_total);
  return fail;
}

TEST(compact_tile_reserve_every_tile_size) {
  REQUIRE_GPU();
  const int tiles[] = {1, 2, 4, 8, 16, 32};
  const char kinds[] = {'4', 'L', 'Q'};
  const size_t ns[] = {0, 1, 33, 100003};
  for (int level = 0; level < 2; ++level)
    for (int t = 0; t < 6; ++t)
      for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 4; ++j) CHECK(check_level(level, tiles[t], kinds[k], 128, ns[j]) == 0);
  return TEST_PASS;
}

TEST(compact_block_reserve_block_sizes) {
  REQUIRE_GPU();
  const int blocks[] = {32, 96, 256, 1024};
  const char kinds[] = {'4', 'L', 'Q'};
  const size_t ns[] = {0, 1, 33, 100003};
  for (int level = 2; level < 4; ++level)
    for (int b = 0; b < 4; ++b)
      for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 4; ++j) CHECK(check_level(level, 0, kinds[k], blocks[b], ns[j]) == 0);
  return TEST_PASS;
}
