/* Launchers of the test kernels for include/gcol/device/lock.cuh
 * (tests/lock_kernels.cu), callable from the C tests. Each allocates its own
 * mutex word, synchronizes, and returns the first CUDA error. */
#ifndef GCOL_TESTS_LOCK_KERNELS_H
#define GCOL_TESTS_LOCK_KERNELS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif
/* blocks thread blocks of 256 threads each sum a[i]*b[i] in double over a
 * grid-stride share of n, reduce per block, then thread 0 adds the block's
 * sum to a plain double and 1 to a plain counter under one spin_mutex.
 * *h_sum and *h_blocks receive the two. */
cudaError_t lock_test_dot(const float *d_a, const float *d_b, size_t n, int blocks, double *h_sum,
                          unsigned long long *h_blocks);

/* Every thread of blocks x threads takes the same mutex iters times (lanes
 * of a warp contending) and adds 1 to a plain counter; guard: 0 lock/unlock,
 * 1 lock_guard, 2 try_lock in a loop. *h_count receives the counter. */
cudaError_t lock_test_contend(int blocks, int threads, int iters, int guard, unsigned long long *h_count);

/* Tiles of `tile` lanes (1..32) hold the mutex with tile_lock_guard iters
 * times; in it every lane adds 1 to its own plain counter h_counts[lane]
 * (32 entries written). */
cudaError_t lock_test_tile(int tile, int blocks, int iters, unsigned long long *h_counts);

/* Every thread calls try_lock once and never unlocks: *h_winners receives
 * how many succeeded (must be 1). */
cudaError_t lock_test_try_once(int blocks, unsigned long long *h_winners);
#ifdef __cplusplus
}
#endif
#endif
