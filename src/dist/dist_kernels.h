/* Kernels of a distributed call (C-callable): group a batch by owner rank,
 * and put answers that came back in grouped order into batch order. */
#ifndef GCOL_SRC_DIST_DIST_KERNELS_H
#define GCOL_SRC_DIST_DIST_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernels take communicators of up to GCOL_DIST_MAX_RANKS (gcol_nccl.h). */

/* d_counts[p] (device, nranks uint64, zeroed here) = keys of the batch that
 * rank p owns; key_bytes is 4 or 8. */
cudaError_t gcol_dist_count_owners(const void *d_keys, size_t n, int key_bytes, int nranks,
                                   uint64_t *d_counts, cudaStream_t s);

/* d_count[0] = n on s (one rank: its batch is its own, nothing to count). */
cudaError_t gcol_dist_put_count(uint64_t *d_count, size_t n, cudaStream_t s);

/* Scatter the batch grouped by owner: the keys (and values, if d_values)
 * owned by rank p go to [starts[p], starts[p] + counts[p]) of d_keys_out
 * (d_values_out), in no particular order inside a group; rank `skip`'s keys
 * (-1: none) are left out and take no room (starts as if its count were 0);
 * d_origin_out
 * (may be NULL) gets, for each grouped position, the batch position of its
 * key (so that answers go back piece by piece, as they arrive).
 * d_cursor: nranks uint64 of scratch. d_counts is what
 * gcol_dist_count_owners wrote. */
cudaError_t gcol_dist_group_by_owner(const void *d_keys, const void *d_values, size_t n,
                                     int key_bytes, int value_bytes, int nranks, int skip,
                                     const uint64_t *d_counts, uint64_t *d_cursor,
                                     void *d_keys_out, void *d_values_out, uint32_t *d_origin_out,
                                     cudaStream_t s);

/* d_out[d_origin[j]] = d_grouped[j] for j < n: answers of one piece of the
 * grouped order into batch order; elements of elem_bytes (1, 4, 8). */
cudaError_t gcol_dist_scatter(const void *d_grouped, const uint32_t *d_origin, size_t n, int elem_bytes,
                              void *d_out, cudaStream_t s);

/* find (d_out: values, empty_value for a miss) or contains (d_out: 0/1
 * bytes) of d_keys[0..n) on the shard behind view, a key per thread in short
 * blocks that leave SMs to NCCL as they end. nranks 0: every key; else only
 * the keys rank `me` owns, whose answers land at their own positions (the
 * others' positions are not written). */
cudaError_t gcol_dist_lookup(const gcol_map_view_t *view, const void *d_keys, size_t n, int me, int nranks,
                             void *d_out, int contains, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
