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
 * 16-byte loads); the tile forms (tiles of 1 to 32 threads from
 * cooperative_groups::tiled_partition<N>) split the words over the tile's
 * lanes. The library's bulk add uses tiles of 4 (measured: docs/experiments.md). Key is a 4- or 8-byte integer
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

/* The words and bits one key touches (gcol.h documents the rule): the
 * block, and the second hash whose bits 12w..12w+11 pick word w's two bits. */
struct bloom_pattern {
  uint64_t block; /* index of the 32-byte block */
  uint64_t h2;
  __host__ __device__ __forceinline__ uint64_t mask(int w) const {
    return (1ULL << ((h2 >> (12 * w)) & 63)) | (1ULL << ((h2 >> (12 * w + 6)) & 63));
  }
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
  uint64_t h1 = hash64(key, seed);
  /* multiply-shift: any block count, from h1's high bits */
  return bloom_pattern{bloom_mulhi(h1, num_blocks), hash64(h1, bloom_salt)};
}

/* The size of a cooperative_groups::thread_block_tile type. */
template <class Tile>
struct tile_size;
template <unsigned N, class Parent>
struct tile_size<cooperative_groups::thread_block_tile<N, Parent>> {
  static constexpr unsigned value = N;
};

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
    for (int i = 0; i < 4; ++i) atomicOr(w + i, (unsigned long long)p.mask(i));
  }

  /* Per thread: the block in two 16-byte loads. */
  __device__ __forceinline__ bool contains(Key key) const {
    bloom_pattern p = pattern(key);
    const ulonglong2 *b = reinterpret_cast<const ulonglong2 *>(v_.words + 4 * p.block);
    ulonglong2 lo = b[0], hi = b[1];
    return covers(lo.x, p.mask(0)) & covers(lo.y, p.mask(1)) & covers(hi.x, p.mask(2)) & covers(hi.y, p.mask(3));
  }

  /* Per tile of T threads, one key per tile (every lane passes the same
   * key): lane r of a tile of 1, 2 or 4 handles words [r * 4/T, (r+1) * 4/T)
   * (one 16-byte load or two ORs per lane at T = 2, one word at T = 4);
   * lanes 4 and up of wider tiles only take part in the vote. Lanes of one
   * warp that touch one 32-byte block are one memory request, so tiles of 4
   * send a quarter of the per-thread form's atomic requests. */
  template <class Tile>
  __device__ __forceinline__ void add(const Tile &tile, Key key) const {
    constexpr int W = tile_words<Tile>(); /* words per lane */
    bloom_pattern p = pattern(key);
    unsigned r = tile.thread_rank();
    if (r * W >= 4) return;
    unsigned long long *w = reinterpret_cast<unsigned long long *>(v_.words + 4 * p.block) + r * W;
#pragma unroll
    for (int i = 0; i < W; ++i) atomicOr(w + i, (unsigned long long)p.mask((int)(r * W) + i));
  }

  template <class Tile>
  __device__ __forceinline__ bool contains(const Tile &tile, Key key) const {
    /* a tile of one: no vote (a warp-synchronous vote per key cost 27% of
     * the bulk contains on an L2-resident filter; H100, 1 MiB: 85 -> 117) */
    if constexpr (tile_size<Tile>::value == 1) return contains(key);
    constexpr int W = tile_words<Tile>(); /* words per lane */
    bloom_pattern p = pattern(key);
    unsigned r = tile.thread_rank();
    bool ok = true;
    if (r * W < 4) {
      const uint64_t *w = v_.words + 4 * p.block + r * W;
      if (W == 4) {
        ok = contains(key);
      } else if (W == 2) {
        ulonglong2 x = *reinterpret_cast<const ulonglong2 *>(w);
        ok = covers(x.x, p.mask((int)r * 2)) & covers(x.y, p.mask((int)r * 2 + 1));
      } else {
        ok = covers(*w, p.mask((int)r));
      }
    }
    return tile.all(ok);
  }

  __host__ __device__ const gcol_bloom_view_t &view() const { return v_; }

 private:
  /* Words per lane for a tile: 4 for 1 thread, 2 for 2, 1 for 4 and wider. */
  template <class Tile>
  __host__ __device__ static constexpr int tile_words() {
    return tile_size<Tile>::value >= 4 ? 1 : 4 / (int)tile_size<Tile>::value;
  }
  __device__ __forceinline__ static bool covers(uint64_t word, uint64_t mask) { return (word & mask) == mask; }
  __host__ __device__ static uint64_t as_bits(Key k) {
    return sizeof(Key) == 4 ? (uint64_t)(uint32_t)k : (uint64_t)k;
  }
  gcol_bloom_view_t v_;
};

}  // namespace gcol
#endif
