/* The Bloom filter's bulk kernels: grid-stride loops over the per-thread
 * operations of include/gcol/device/bloom.cuh (one key per thread: its
 * block's four words are one 32-byte sector, so a thread already issues
 * whole-sector traffic; tiles would only add shuffles). */
#ifndef GCOL_SRC_BLOOM_BLOOM_KERNELS_CUH
#define GCOL_SRC_BLOOM_BLOOM_KERNELS_CUH

#include "gcol/device/bloom.cuh"

namespace gcol {
namespace detail {

template <class K>
__global__ void bloom_add_kernel(gcol_bloom_view_t v, const K *__restrict__ keys, size_t n) {
  bloom_ref<K> f(v);
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) f.add(keys[i]);
}

template <class K>
__global__ void bloom_contains_kernel(gcol_bloom_view_t v, const K *__restrict__ keys, size_t n,
                                      uint8_t *__restrict__ out) {
  bloom_ref<K> f(v);
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = f.contains(keys[i]);
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
