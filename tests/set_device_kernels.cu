/* User-style kernels over gcol::set_view / set_mutable_view (see the header). */
#include <cooperative_groups.h>
#include "gcol/device/set.cuh"
#include "set_device_kernels.h"

namespace cg = cooperative_groups;

template <class K, int TILE>
__global__ void set_kernel(gcol_set_mutable_view_t mv, set_dev_op_t op, const K *keys, size_t n, uint8_t *flags,
                           unsigned long long *count) {
  gcol::set_mutable_view<K> m(mv);
  gcol::set_view<K> v(mv.view);
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (op == SET_DEV_INSERT_EACH || op == SET_DEV_CONTAINS_EACH) { /* whole tiles run: one key per thread */
    auto tile = cg::tiled_partition<TILE ? TILE : 1>(cg::this_thread_block());
    bool active = tid < n;
    K k = active ? keys[tid] : K();
    bool r = op == SET_DEV_INSERT_EACH ? m.insert_each(tile, active, k) : v.contains_each(tile, active, k);
    if (active) flags[tid] = r;
    return;
  }
  if (op == SET_DEV_INSERT_RANGE) {
    auto tile = cg::tiled_partition<TILE ? TILE : 1>(cg::this_thread_block());
    size_t first = tid / (TILE ? TILE : 1) * 256;
    if (first >= n) return;
    size_t last = first + 256 < n ? first + 256 : n;
    size_t c = m.insert(tile, keys + first, keys + last);
    if (tile.thread_rank() == 0) atomicAdd(count, (unsigned long long)c);
    return;
  }
  if (TILE == 0) {
    if (tid >= n) return;
    bool r = op == SET_DEV_INSERT ? m.insert(keys[tid]) : op == SET_DEV_ERASE ? m.erase(keys[tid]) : v.contains(keys[tid]);
    flags[tid] = r;
  } else {
    auto tile = cg::tiled_partition<TILE ? TILE : 1>(cg::this_thread_block());
    size_t i = tid / (TILE ? TILE : 1);
    if (i >= n) return;
    bool r = op == SET_DEV_INSERT  ? m.insert(tile, keys[i])
             : op == SET_DEV_ERASE ? m.erase(tile, keys[i])
                                   : v.contains(tile, keys[i]);
    if (tile.thread_rank() == 0) flags[i] = r;
  }
}

template <class K>
static cudaError_t launch(const gcol_set_mutable_view_t *view, set_dev_op_t op, int tile, const K *keys, size_t n,
                          uint8_t *flags, unsigned long long *count) {
  size_t per = op == SET_DEV_INSERT_EACH || op == SET_DEV_CONTAINS_EACH || tile == 0 ? 1 : tile;
  size_t threads = op == SET_DEV_INSERT_RANGE ? (n + 255) / 256 * (tile ? tile : 1) : n * per;
  unsigned blocks = (unsigned)((threads + 255) / 256);
  if (!blocks) return cudaSuccess;
  switch (tile) {
    case 0: set_kernel<K, 0><<<blocks, 256>>>(*view, op, keys, n, flags, count); break;
    case 1: set_kernel<K, 1><<<blocks, 256>>>(*view, op, keys, n, flags, count); break;
    case 2: set_kernel<K, 2><<<blocks, 256>>>(*view, op, keys, n, flags, count); break;
    case 4: set_kernel<K, 4><<<blocks, 256>>>(*view, op, keys, n, flags, count); break;
    case 8: set_kernel<K, 8><<<blocks, 256>>>(*view, op, keys, n, flags, count); break;
    case 32: set_kernel<K, 32><<<blocks, 256>>>(*view, op, keys, n, flags, count); break;
    default: return cudaErrorInvalidValue;
  }
  cudaError_t e = cudaGetLastError();
  return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

extern "C" cudaError_t dev_set_run(const gcol_set_mutable_view_t *view, int wide, set_dev_op_t op, int tile,
                                   const void *d_keys, size_t n, uint8_t *d_flags, unsigned long long *d_count) {
  if (wide) return launch(view, op, tile, static_cast<const uint64_t *>(d_keys), n, d_flags, d_count);
  return launch(view, op, tile, static_cast<const uint32_t *>(d_keys), n, d_flags, d_count);
}
