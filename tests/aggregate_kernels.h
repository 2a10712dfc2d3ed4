/* Launchers of the test kernels for include/gcol/device/{warp,block}_aggregate.cuh
 * (tests/aggregate_kernels.cu), callable from the C tests. */
#ifndef GCOL_TESTS_AGGREGATE_KERNELS_H
#define GCOL_TESTS_AGGREGATE_KERNELS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif
/* How many slots thread i asks for: want(i) in {0, 1} for the single-slot
 * forms, want_n(i) in {0, 1, 2, 3} for the _n forms. */
unsigned agg_test_want(size_t i);
unsigned agg_test_want_n(size_t i);

/* Threads 0..n-1 (the grid rounds up; the rest ask for nothing) reserve
 * slots from a counter of counter_bytes (4 or 8; 8 twice: 'L' = unsigned
 * long, 'Q' = unsigned long long) and write their first slot to
 * d_slot[i] (as 64 bits; all ones for none); *d_total (64 bits) gets the
 * counter's final value. level: 0 tile_reserve, 1 tile_reserve_n,
 * 2 block_reserve::reserve, 3 block_reserve::reserve_n. tile: 1..32 (levels
 * 0, 1). block_threads: a multiple of 32 up to 1024. */
cudaError_t agg_test_run(int level, int tile, char counter_kind, int block_threads, size_t n,
                         unsigned long long *d_slot, unsigned long long *d_total);
#ifdef __cplusplus
}
#endif
#endif
