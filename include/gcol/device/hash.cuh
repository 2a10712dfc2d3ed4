/* Thread layer: the hash function of gcol's maps. */
#ifndef GCOL_DEVICE_HASH_CUH
#define GCOL_DEVICE_HASH_CUH

#include <stdint.h>

namespace gcol {

/* The murmur3 64-bit finalizer over key ^ seed: every bit of the key moves
 * every bit of the result, and it is a bijection, so distinct keys never
 * collide in the full 64 bits. Maps use the low 32 bits to pick the first
 * bucket and the high 32 bits to pick the probe step. */
__host__ __device__ __forceinline__ uint64_t hash64(uint64_t key, uint64_t seed) {
  uint64_t x = key ^ seed;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

/* A 16-byte key (GCOL_U128, words lo and hi): the high word's hash is mixed
 * into the low word before the finalizer, so each word moves every bit and
 * keys that share either word still spread. 4- and 8-byte keys keep hash64. */
__host__ __device__ __forceinline__ uint64_t hash128(uint64_t lo, uint64_t hi, uint64_t seed) {
  return hash64(lo ^ hash64(hi, seed ^ 0x9e3779b97f4a7c15ULL), seed);
}

}  // namespace gcol
#endif
