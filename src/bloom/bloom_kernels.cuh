/* The Bloom filter's bulk kernels: grid-stride loops over the operations of
 * include/gcol/device/bloom.cuh with T lanes per key (T from bloom.cu's
 * policy). */
#ifndef GCOL_SRC_BLOOM_BLOOM_KERNELS_CUH
#define GCOL_SRC_BLOOM_BLOOM_KERNELS_CUH

#include "gcol/device/bloom.cuh"

namespace gcol {
namespace detail {

/* Add, one key per tile of T threads (1, 2 or 4): each lane loads and
 * hashes its own key (coalesced), then the tile walks its T keys, each
 * broadcast by shuffle, and lane r ORs words [r * 4/T, (r+1) * 4/T) of it:
 * with T = 4 a warp sends one request per key's 32-byte block. */
template <class K, int T>
__global__ void bloom_add_kernel(gcol_bloom_view_t v, const K *__restrict__ keys, size_t n) {
  constexpr int W = 4 / T;
  bloom_ref<K> f(v);
  auto tile = cooperative_groups::tiled_partition<T>(cooperative_groups::this_thread_block());
  const unsigned r = tile.thread_rank();
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t base = (size_t)blockIdx.x * blockDim.x + threadIdx.x - r; base < n; base += stride) {
    bloom_pattern p{0, 0};
    if (base + r < n) p = f.pattern(__ldcs(keys + base + r)); /* read once: evict first, the filter stays */
#pragma unroll
    for (int j = 0; j < T; ++j) {
      bloom_pattern q{tile.shfl(p.block, j), tile.shfl(p.h2, j)};
      if (base + j >= n) break;
      unsigned long long *w = reinterpret_cast<unsigned long long *>(v.words + 4 * q.block) + r * W;
#pragma unroll
      for (int k = 0; k < W; ++k) atomicOr(w + k, (unsigned long long)q.mask((int)(r * W) + k));
    }
  }
}

/* Contains, one key per tile of T threads through the device API's tile
 * form (T = 1: the per-thread form, two 16-byte loads). Four keys per thread
 * and step, answers held until all four blocks were read, measured slower
 * (H100: 86 -> 74, 33 -> 25, 27 -> 18 G keys/s at 1 MiB, 128 MiB, 2 GiB). */
template <class K, int T>
__global__ void bloom_contains_kernel(gcol_bloom_view_t v, const K *__restrict__ keys, size_t n,
                                      uint8_t *__restrict__ out) {
  bloom_ref<K> f(v);
  auto tile = cooperative_groups::tiled_partition<T>(cooperative_groups::this_thread_block());
  size_t stride = (size_t)gridDim.x * blockDim.x / T;
  for (size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / T; i < n; i += stride) {
    bool hit = f.contains(tile, __ldcs(keys + i)); /* streamed: keep the L2 for the filter */
    if (tile.thread_rank() == 0) __stcs(out + i, (uint8_t)hit);
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
