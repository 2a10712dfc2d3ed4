/* User-style kernels over gcol::map_view / set_view with gcol::u128 keys. */
#include <cooperative_groups.h>
#include "gcol/device/set.cuh"
#include "u128_device_kernels.h"

namespace cg = cooperative_groups;
using gcol::u128;

__global__ void map_kernel(gcol_map_mutable_view_t mv, u128_dev_op_t op, const u128 *keys, const uint64_t *vals,
                           size_t n, uint64_t *out, uint8_t *flags) {
  gcol::map_mutable_view<u128, uint64_t> m(mv);
  gcol::map_view<u128, uint64_t> v(mv.view);
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  auto t8 = cg::tiled_partition<8>(cg::this_thread_block());
  auto t4 = cg::tiled_partition<4>(cg::this_thread_block());
  auto t2 = cg::tiled_partition<2>(cg::this_thread_block());
  const bool active = tid < n;
  const u128 k = active ? keys[tid] : u128{};
  switch (op) {
    case U128_DEV_INSERT:
      if (active) flags[tid] = m.insert(k, vals[tid]);
      break;
    case U128_DEV_INSERT_TILE: {
      size_t i = tid / 4;
      if (i < n) {
        bool r = m.insert(t4, keys[i], vals[i]);
        if (t4.thread_rank() == 0) flags[i] = r;
      }
      break;
    }
    case U128_DEV_INSERT_EACH: {
      bool r = m.insert_each(t8, active, k, active ? vals[tid] : 0);
      if (active) flags[tid] = r;
      break;
    }
    case U128_DEV_APPLY_EACH: {
      bool r = m.insert_or_apply_each(t8, active, k, active ? vals[tid] : 0, GCOL_OP_ADD);
      if (active) flags[tid] = r;
      break;
    }
    case U128_DEV_FIND:
      if (active) {
        uint64_t x = 0;
        flags[tid] = v.find(k, &x);
        out[tid] = flags[tid] ? x : v.empty_value();
      }
      break;
    case U128_DEV_FIND_EACH: {
      uint64_t x = 0;
      bool r = v.find_each(t8, active, k, &x);
      if (active) flags[tid] = r, out[tid] = r ? x : v.empty_value();
      break;
    }
    case U128_DEV_FIND_RANGE: {
      size_t first = tid / 4 * 256;
      if (first < n) {
        size_t last = first + 256 < n ? first + 256 : n;
        v.find(t4, keys + first, keys + last, out + first);
      }
      break;
    }
    case U128_DEV_ERASE_TILE: {
      size_t i = tid / 2;
      if (i < n) {
        bool r = m.erase(t2, keys[i]);
        if (t2.thread_rank() == 0) flags[i] = r;
      }
      break;
    }
  }
}

__global__ void set_kernel(gcol_set_mutable_view_t mv, u128_dev_op_t op, const u128 *keys, size_t n, uint8_t *flags) {
  gcol::set_mutable_view<u128> m(mv);
  gcol::set_view<u128> v(mv.view);
  const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  auto t8 = cg::tiled_partition<8>(cg::this_thread_block());
  auto t4 = cg::tiled_partition<4>(cg::this_thread_block());
  auto t2 = cg::tiled_partition<2>(cg::this_thread_block());
  const bool active = tid < n;
  const u128 k = active ? keys[tid] : u128{};
  switch (op) {
    case U128_DEV_INSERT:
      if (active) flags[tid] = m.insert(k);
      break;
    case U128_DEV_INSERT_TILE: {
      size_t i = tid / 4;
      if (i < n) {
        bool r = m.insert(t4, keys[i]);
        if (t4.thread_rank() == 0) flags[i] = r;
      }
      break;
    }
    case U128_DEV_INSERT_EACH: {
      bool r = m.insert_each(t8, active, k);
      if (active) flags[tid] = r;
      break;
    }
    case U128_DEV_FIND:
      if (active) flags[tid] = v.contains(k);
      break;
    case U128_DEV_FIND_EACH: {
      bool r = v.contains_each(t8, active, k);
      if (active) flags[tid] = r;
      break;
    }
    case U128_DEV_ERASE_TILE: {
      size_t i = tid / 2;
      if (i < n) {
        bool r = m.erase(t2, keys[i]);
        if (t2.thread_rank() == 0) flags[i] = r;
      }
      break;
    }
    default: break;
  }
}

static unsigned blocks_for(u128_dev_op_t op, size_t n) {
  size_t per = op == U128_DEV_INSERT_TILE ? 4 : op == U128_DEV_ERASE_TILE ? 2 : 1;
  size_t threads = op == U128_DEV_FIND_RANGE ? (n + 255) / 256 * 4 : n * per;
  return (unsigned)((threads + 255) / 256);
}

extern "C" cudaError_t u128_dev_map_run(const gcol_map_mutable_view_t *view, u128_dev_op_t op, const void *d_keys,
                                        const uint64_t *d_vals, size_t n, uint64_t *d_out, uint8_t *d_flags) {
  if (!n) return cudaSuccess;
  map_kernel<<<blocks_for(op, n), 256>>>(*view, op, static_cast<const u128 *>(d_keys), d_vals, n, d_out, d_flags);
  cudaError_t e = cudaGetLastError();
  return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

extern "C" cudaError_t u128_dev_set_run(const gcol_set_mutable_view_t *view, u128_dev_op_t op, const void *d_keys,
                                        size_t n, uint8_t *d_flags) {
  if (!n) return cudaSuccess;
  set_kernel<<<blocks_for(op, n), 256>>>(*view, op, static_cast<const u128 *>(d_keys), n, d_flags);
  cudaError_t e = cudaGetLastError();
  return e != cudaSuccess ? e : cudaDeviceSynchronize();
}
