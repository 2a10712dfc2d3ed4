/* bench_dist's capacity run: keys made on the device, answers checked there. */
#ifndef GCOL_BENCH_DIST_DATA_H
#define GCOL_BENCH_DIST_DATA_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* keys[i] = key number first + i of one global sequence of distinct i64
 * keys (no sentinel); values[i] (if not NULL) = its known value. */
cudaError_t bench_dist_fill(uint64_t *d_keys, uint64_t *d_values, size_t n, uint64_t first, cudaStream_t s);

/* Adds to *d_wrong the number of found[i] that are not keys[i]'s known value. */
cudaError_t bench_dist_count_wrong(const uint64_t *d_keys, const uint64_t *d_found, size_t n,
                                   unsigned long long *d_wrong, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
