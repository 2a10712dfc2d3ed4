#include <cooperative_groups.h>
#include "sketch_device_kernels.h"
#include "gcol/device/bloom.cuh"
#include "gcol/device/hll.cuh"

namespace cg = cooperative_groups;

namespace {

template <class K>
__global__ void bloom_thread(gcol_bloom_view_t v, const K *keys, size_t n, uint8_t *found) {
  gcol::bloom_ref<K> f(v);
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (found) found[i] = f.contains(keys[i]);
  else f.add(keys[i]);
}

template <class K, int T>
__global__ void bloom_tile(gcol_bloom_view_t v, const K *keys, size_t n, uint8_t *found) {
  gcol::bloom_ref<K> f(v);
  auto tile = cg::tiled_partition<T>(cg::this_thread_block());
  size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / T;
  if (i >= n) return; /* whole tiles leave together: i is the tile's */
  if (found) {
    bool hit = f.contains(tile, keys[i]);
    if (tile.thread_rank() == 0) found[i] = hit;
  } else {
    f.add(tile, keys[i]);
  }
}

template <class K>
cudaError_t run_bloom(const gcol_bloom_view_t &v, int tile, const K *keys, size_t n, uint8_t *found) {
  if (n == 0) return cudaSuccess;
  size_t threads = n * (tile ? tile : 1);
  unsigned grid = (unsigned)((threads + 255) / 256);
  switch (tile) {
    case 0: bloom_thread<K><<<grid, 256>>>(v, keys, n, found); break;
    case 1: bloom_tile<K, 1><<<grid, 256>>>(v, keys, n, found); break;
    case 2: bloom_tile<K, 2><<<grid, 256>>>(v, keys, n, found); break;
    case 4: bloom_tile<K, 4><<<grid, 256>>>(v, keys, n, found); break;
    case 8: bloom_tile<K, 8><<<grid, 256>>>(v, keys, n, found); break;
    default: return cudaErrorInvalidValue;
  }
  cudaError_t e = cudaGetLastError();
  return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

template <class T>
__global__ void hll_thread(gcol_hll_view_t v, const T *items, size_t n) {
  gcol::hll_ref h(v);
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) h.add(items[i]);
}

}  // namespace

extern "C" cudaError_t dev_bloom_run(const gcol_bloom_view_t *v, int wide, int tile, const void *d_keys, size_t n,
                                     uint8_t *d_found) {
  if (wide) return run_bloom(*v, tile, (const uint64_t *)d_keys, n, d_found);
  return run_bloom(*v, tile, (const uint32_t *)d_keys, n, d_found);
}

extern "C" cudaError_t dev_hll_add(const gcol_hll_view_t *v, int wide, const void *d_items, size_t n) {
  if (n == 0) return cudaSuccess;
  unsigned grid = (unsigned)((n + 255) / 256 < 1024 ? (n + 255) / 256 : 1024);
  if (wide) hll_thread<uint64_t><<<grid, 256>>>(*v, (const uint64_t *)d_items, n);
  else hll_thread<uint32_t><<<grid, 256>>>(*v, (const uint32_t *)d_items, n);
  cudaError_t e = cudaGetLastError();
  return e != cudaSuccess ? e : cudaDeviceSynchronize();
}
