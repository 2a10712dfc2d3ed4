/* Launchers of user-style kernels over the map's device API
 * (include/gcol/device/map.cuh; tests/map_device_kernels.cu), callable from
 * the C tests. */
#ifndef GCOL_TESTS_MAP_DEVICE_KERNELS_H
#define GCOL_TESTS_MAP_DEVICE_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  DEV_INSERT,          /* flags[i] = inserted (per key); bulk: *d_count += inserted */
  DEV_INSERT_AND_FIND, /* per key only: out[i] = stored value, flags[i] = inserted */
  DEV_INSERT_OR_ASSIGN,/* per key only: flags[i] = inserted */
  DEV_INSERT_OR_ADD,   /* insert_or_apply(ADD); per key: flags[i]; bulk: *d_count += inserted */
  DEV_ERASE,           /* per key only: flags[i] = erased */
  DEV_FIND,            /* out[i] = value or empty_value */
  DEV_CONTAINS,        /* flags[i] = present */
  DEV_INSERT_EACH,     /* bulk only, one key per thread: *d_count += inserted */
  DEV_FIND_EACH,       /* bulk only, one key per thread: out[i] = value or empty_value */
  DEV_INSERT_OR_ADD_EACH /* bulk only, one key per thread: insert_or_apply(ADD); *d_count += inserted */
} dev_op_t;

/* Run op over keys[0, n) (values alongside) in a kernel through a typed view
 * of the map: <uint64_t, uint64_t> when wide, else <uint32_t, uint32_t>.
 * tile 0: per-thread calls; tile 1..32: a cooperative_groups tile of that
 * size. range 0: one key per tile (every thread of the tile passes it);
 * range > 0: bulk calls, tile g taking keys [g*range, (g+1)*range). Find
 * and contains use the read-only view (view->view), the others the mutable
 * one. Outputs it does not write are left alone. Synchronizes; returns the
 * first CUDA error, cudaErrorInvalidValue for a combination it lacks. */
cudaError_t dev_map_run(const gcol_map_mutable_view_t *view, int wide, dev_op_t op, int tile, size_t range,
                        const void *d_keys, const void *d_values, size_t n, void *d_out, uint8_t *d_flags,
                        unsigned long long *d_count);

/* dev_map_run's bulk DEV_INSERT or DEV_FIND with tiles of 4, through views
 * typed with the map's bucket width (gcol::with_bucket_chunks). */
cudaError_t dev_map_run_typed(const gcol_map_mutable_view_t *view, int wide, dev_op_t op, size_t range,
                              const void *d_keys, const void *d_values, size_t n, void *d_out,
                              unsigned long long *d_count);

/* Host-side: bits 0-3 = compatible() of gcol::map_view<int64_t, int64_t, C>
 * for C = 1, 2, 4, 8 (a typed width must be the map's). */
int dev_map_typed_compatibility(const gcol_map_view_t *v);

/* Host-side: whether gcol::map_view<Key, Value>(*v).compatible() for
 * (int64_t, double) and (int64_t, int64_t): bit 0 and bit 1. */
int dev_map_view_compatibility(const gcol_map_view_t *v);

#ifdef __cplusplus
}
#endif
#endif
