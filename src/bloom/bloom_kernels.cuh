/* The Bloom filter's bulk kernels: grid-stride loops over the tile
 * operations of include/gcol/device/bloom.cuh, one key per tile of T lanes
 * (T from bloom.cu's policy). */
#ifndef GCOL_SRC_BLOOM_BLOOM_KERNELS_CUH
#define GCOL_SRC_BLOOM_BLOOM_KERNELS_CUH

#include "gcol/device/bloom.cuh"

namespace gcol {
namespace detail {

/* One key per tile of T threads (1, 2 or 4), grid-stride. */
template <class K, int T>
__global__ void bloom_add_kernel(gcol_bloom_view_t v, const K *__restrict__ keys, size_t n) {
  bloom_ref<K> f(v);
  auto tile = cooperative_groups::tiled_partition<T>(cooperative_groups::this_thread_block());
  size_t stride = (size_t)gridDim.x * blockDim.x / T;
  for (size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / T; i < n; i += stride) f.add(tile, keys[i]);
}

template <class K, int T>
__global__ void bloom_contains_kernel(gcol_bloom_view_t v, const K *__restrict__ keys, size_t n,
                                      uint8_t *__restrict__ out) {
  bloom_ref<K> f(v);
  auto tile = cooperative_groups::tiled_partition<T>(cooperative_groups::this_thread_block());
  size_t stride = (size_t)gridDim.x * blockDim.x / T;
  for (size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / T; i < n; i += stride) {
    bool hit = f.contains(tile, keys[i]);
    if (tile.thread_rank() == 0) out[i] = hit;
  }
}

/* dst = dst | src (IS_OR) or dst & src, 16 bytes per step. */
template <bool IS_OR>
__global__ void bloom_combine_kernel(ulonglong2 *__restrict__ dst, const ulonglong2 *__restrict__ src, size_t n) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    ulonglong2 a = dst[i], b = src[i];
    dst[i] = IS_OR ? make_ulonglong2(a.x | b.x, a.y | b.y) : make_ulonglong2(a.x & b.x, a.y & b.y);
  }
}

}  // namespace detail
}  // namespace gcol
#endif
