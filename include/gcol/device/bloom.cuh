/* Device-side API of gcol's Bloom filter, for users' CUDA kernels (C++17).
 *
 *   gcol_bloom_view_t v;                                // host
 *   gcol_bloom_device_view(bloom, &v);
 *   my_kernel<<<g, b, 0, s>>>(gcol::bloom_ref<uint64_t>(v), ...);
 *
 *   __global__ void my_kernel(gcol::bloom_ref<uint64_t> f, ...) {
 *     f.add(key);                                      // per thread
 *     bool maybe = f.contains(key);
 *     auto tile = cooperative_groups::tiled_partition<4>(cooperative_groups::this_thread_block());
 *     f.add(tile, key);                                // one key per tile of 1, 2 or 4 threads
 *     bool m2 = f.contains(tile, key);                 // same answer on every lane
 *   }
 *
 * The layout and hashing are gcol.h's (gcol_bloom_t): one 32-byte block of
 * four 64-bit words per key, two bits in each word. The per-thread forms
 * touch the four words of one thread (one OR reduction per word, or two
 * 16-byte loads); the tile forms split the words over the tile's lanes, for
 * kernels whose tiles already share one key. Key is a 4- or 8-byte integer
 * type of the filter's key width (compatible() tells, host or device).
 * Adds from many threads and kernels are safe together (atomic OR); a
 * contains that runs concurrently with adds of the same key may miss it. */
#ifndef GCOL_DEVICE_BLOOM_CUH
#define GCOL_DEVICE_BLOOM_CUH

#include <stdint.h>
#include <cooperative_groups.h>
#include "gcol/gcol.h"
#include "gcol/device/hash.cuh"

namespace gcol {

/* The words and bits one key touches (gcol.h documents the rule). */
struct bloom_pattern {
  uint64_t block;    /* index of the 32-byte block */
  uint64_t mask[4];  /* the bits of word 0..3 of the block */
};

/* Salt of the second hash: its 48 in-block bits must not be the block's. */
constexpr uint64_t bloom_salt = 0x9e3779b97f4a7c15ULL;

__host__ __device__ __forceinline__ uint64_t bloom_mulhi(uint64_t a, uint64_t b) {
#ifdef __CUDA_ARCH__
  return __umul64hi(a, b);
#else
  return (uint64_t)(((unsigned __int128)a * b) >> 64);
#endif
}

__host__ __device__ __forceinline__ bloom_pattern bloom_pattern_of(uint64_t key, uint64_t seed,
                                                                  uint64_t num_blocks) {
  bloom_pattern p;
  uint64_t h1 = hash64(key, seed);
  uint64_t h2 = hash64(h1, bloom_salt);
  p.block = bloom_mulhi(h1, num_blocks); /* multiply-shift: any block count */
  for (int w = 0; w < 4; ++w)
    p.mask[w] = (1ULL << ((h2 >> (12 * w)) & 63)) | (1ULL << ((h2 >> (12 * w + 6)) & 63));
  return p;
}

template <class Key>
class bloom_ref {
  static_assert(sizeof(Key) == 4 || sizeof(Key) == 8, "Bloom keys are 4 or 8 bytes");

 public:
  __host__ __device__ explicit bloom_ref(const gcol_bloom_view_t &v) : v_(v) {}

  /* The view's key width is Key's. */
  __host__ __device__ bool compatible() const { return v_.key_bytes == (int32_t)sizeof(Key); }

  __device__ __forceinline__ bloom_pattern pattern(Key key) const {
    return bloom_pattern_of(as_bits(key), v_.seed, v_.num_blocks);
  }

  /* Per thread: four atomic ORs (reductions: no value comes back). */
  __device__ __forceinline__ void add(Key key) const {
    bloom_pattern p = pattern(key);
    unsigned long long *w = reinterpret_cast<unsigned long long *>(v_.words + 4 * p.block);
#pragma unroll
    for (int i = 0; i < 4; ++i) atomicOr(w + i, (unsigned long long)p.mask[i]);
  }

  /* Per thread: the block in two 16-byte loads. */
  __device__ __forceinline__ bool contains(Key key) const {
    bloom_pattern p = pattern(key);
    const ulonglong2 *b = reinterpret_cast<const ulonglong2 *>(v_.words + 4 * p.block);
    ulonglong2 lo = b[0], hi = b[1];
    return ((lo.x & p.mask[0]) == p.mask[0]) & ((lo.y & p.mask[1]) == p.mask[1]) &
           ((hi.x & p.mask[2]) == p.mask[2]) & ((hi.y & p.mask[3]) == p.mask[3]);
  }

  /* Per tile of 1, 2 or 4 threads (wider tiles: the first 4 lanes work):
   * lane r handles words r, r + T, ... of the key's block. Every lane must
   * call with the same key. */
  template <class Tile>
  __device__ __forceinline__ void add(const Tile &tile, Key key) const {
    bloom_pattern p = pattern(key);
    unsigned long long *w = reinterpret_cast<unsigned long long *>(v_.words + 4 * p.block);
    for (unsigned i = tile.thread_rank(); i < 4; i += tile.size()) atomicOr(w + i, (unsigned long long)p.mask[i]);
  }

  template <class Tile>
  __device__ __forceinline__ bool contains(const Tile &tile, Key key) const {
    bloom_pattern p = pattern(key);
    const uint64_t *w = v_.words + 4 * p.block;
    bool ok = true;
    for (unsigned i = tile.thread_rank(); i < 4; i += tile.size()) ok &= (w[i] & p.mask[i]) == p.mask[i];
    return tile.all(ok);
  }

  __host__ __device__ const gcol_bloom_view_t &view() const { return v_; }

 private:
  __host__ __device__ static uint64_t as_bits(Key k) {
    return sizeof(Key) == 4 ? (uint64_t)(uint32_t)k : (uint64_t)k;
  }
  gcol_bloom_view_t v_;
};

}  // namespace gcol
#endif
