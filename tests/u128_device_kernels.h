/* Launchers of user-style kernels over the device API with 16-byte keys
 * (gcol::u128 views of GCOL_U128 maps and sets; tests/u128_device_kernels.cu). */
#ifndef GCOL_TESTS_U128_DEVICE_KERNELS_H
#define GCOL_TESTS_U128_DEVICE_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  U128_DEV_INSERT,      /* per thread: flags[i] = inserted */
  U128_DEV_INSERT_TILE, /* a tile of 4 per key */
  U128_DEV_INSERT_EACH, /* bulk, one key per thread, tiles of 8 */
  U128_DEV_APPLY_EACH,  /* map: insert_or_apply_each(ADD) */
  U128_DEV_FIND,        /* per thread: flags[i] = found, out[i] = value (map) */
  U128_DEV_FIND_EACH,   /* bulk, one key per thread, tiles of 8 */
  U128_DEV_FIND_RANGE,  /* map: find(tile, first, last, out) per 256 keys, tiles of 4 */
  U128_DEV_ERASE_TILE   /* a tile of 2 per key: flags[i] = erased */
} u128_dev_op_t;

/* Run op over keys[0, n) (16-byte keys) through gcol::u128 views. vals: the
 * map's u64 values; out: found values (NULL for sets). Synchronizes. */
cudaError_t u128_dev_map_run(const gcol_map_mutable_view_t *view, u128_dev_op_t op, const void *d_keys,
                             const uint64_t *d_vals, size_t n, uint64_t *d_out, uint8_t *d_flags);
cudaError_t u128_dev_set_run(const gcol_set_mutable_view_t *view, u128_dev_op_t op, const void *d_keys, size_t n,
                             uint8_t *d_flags);

#ifdef __cplusplus
}
#endif
#endif
