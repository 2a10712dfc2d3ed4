/* Device-side API of gcol's HyperLogLog sketch, for users' CUDA kernels (C++17).
 *
 *   gcol_hll_view_t v;                                   // host
 *   gcol_hll_device_view(hll, &v);
 *   my_kernel<<<g, b, 0, s>>>(gcol::hll_ref(v), ...);
 *
 *   __global__ void my_kernel(gcol::hll_ref h, ...) {
 *     h.add(item);                                       // uint32_t or uint64_t, per thread
 *   }
 *
 * add reads the item's register first and only then raises it with an
 * atomicMax: once a sketch has filled, most items change nothing and cost a
 * read of an L2-resident register. Adding many items from one kernel is
 * faster through the library's bulk gcol_hll_add, which keeps a block's
 * registers in shared memory. hll_slot_of is the hash rule of gcol.h, also
 * usable to build per-block sketches of one's own. */
#ifndef GCOL_DEVICE_HLL_CUH
#define GCOL_DEVICE_HLL_CUH

#include <stdint.h>
#include "gcol/gcol.h"
#include "gcol/device/hash.cuh"

namespace gcol {

struct hll_slot {
  uint32_t index; /* register: the hash's top p bits */
  uint32_t rank;  /* 1 + leading zeros of the other 64 - p bits, at most 65 - p */
};

__host__ __device__ __forceinline__ hll_slot hll_slot_of(uint64_t item, uint64_t seed, int p) {
  uint64_t h = hash64(item, seed);
  /* the guard bit below the rank bits caps the count at 64 - p and keeps w != 0 */
  uint64_t w = (h << p) | (1ULL << (p - 1));
#ifdef __CUDA_ARCH__
  uint32_t lz = (uint32_t)__clzll((long long)w);
#else
  uint32_t lz = (uint32_t)__builtin_clzll(w);
#endif
  return hll_slot{(uint32_t)(h >> (64 - p)), lz + 1};
}

/* -0.0 as 0.0 and every NaN as the canonical one (equal values, equal bits). */
__host__ __device__ __forceinline__ uint64_t hll_canonical_f32(uint32_t b) {
  if (b == 0x80000000u) return 0;
  if ((b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu)) return 0x7fc00000u;
  return b;
}
__host__ __device__ __forceinline__ uint64_t hll_canonical_f64(uint64_t b) {
  if (b == 0x8000000000000000ULL) return 0;
  if ((b & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL && (b & 0x000fffffffffffffULL))
    return 0x7ff8000000000000ULL;
  return b;
}

class hll_ref {
 public:
  __host__ __device__ explicit hll_ref(const gcol_hll_view_t &v) : v_(v) {}

  /* Per thread; 4-byte items are zero-extended, as in the bulk call. */
  __device__ __forceinline__ void add(uint64_t item) const {
    hll_slot s = hll_slot_of(item, v_.seed, v_.precision);
    uint32_t *r = v_.registers + s.index;
    if (*(volatile uint32_t *)r < s.rank) atomicMax(r, s.rank);
  }
  __device__ __forceinline__ void add(uint32_t item) const { add((uint64_t)item); }

  __host__ __device__ int precision() const { return v_.precision; }
  __host__ __device__ const gcol_hll_view_t &view() const { return v_; }

 private:
  gcol_hll_view_t v_;
};

}  // namespace gcol
#endif
