/* Launchers of user-style kernels over the set's device API
 * (include/gcol/device/set.cuh; tests/set_device_kernels.cu). */
#ifndef GCOL_TESTS_SET_DEVICE_KERNELS_H
#define GCOL_TESTS_SET_DEVICE_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  SET_DEV_INSERT,        /* flags[i] = this call inserted keys[i] */
  SET_DEV_ERASE,         /* flags[i] = this call erased keys[i] */
  SET_DEV_CONTAINS,      /* flags[i] = keys[i] present (read-only view) */
  SET_DEV_INSERT_EACH,   /* bulk, one key per thread: flags[i] = inserted */
  SET_DEV_CONTAINS_EACH, /* bulk, one key per thread (read-only view) */
  SET_DEV_INSERT_RANGE   /* bulk, the whole range per tile: *d_count += inserted */
} set_dev_op_t;

/* Run op over keys[0, n) through a typed view (<uint64_t> when wide, else
 * <uint32_t>); tile 0: per-thread calls, else a tile of that many threads
 * (1..32) per key (range ops: per 256 keys). Synchronizes. */
cudaError_t dev_set_run(const gcol_set_mutable_view_t *view, int wide, set_dev_op_t op, int tile, const void *d_keys,
                        size_t n, uint8_t *d_flags, unsigned long long *d_count);

#ifdef __cplusplus
}
#endif
#endif
