#include <string.h>
#include "sketch_ref.h"

static uint64_t fmix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

static uint64_t key_at(const void *keys, size_t i, size_t kb) {
  if (kb == 4) return ((const uint32_t *)keys)[i];
  return ((const uint64_t *)keys)[i];
}

/* block = high 64 bits of h1 * num_blocks; two bits per word from h2 */
static uint64_t bloom_block(uint64_t h1, uint64_t nb) {
  uint64_t a0 = h1 & 0xffffffffu, a1 = h1 >> 32, b0 = nb & 0xffffffffu, b1 = nb >> 32;
  uint64_t lo = a0 * b0, m1 = a1 * b0, m2 = a0 * b1, hi = a1 * b1;
  uint64_t mid = (lo >> 32) + (m1 & 0xffffffffu) + (m2 & 0xffffffffu);
  return hi + (m1 >> 32) + (m2 >> 32) + (mid >> 32);
}

static void bloom_masks(uint64_t key, uint64_t seed, uint64_t nb, uint64_t *block, uint64_t m[4]) {
  uint64_t h1 = fmix64(key ^ seed), h2 = fmix64(h1 ^ 0x9e3779b97f4a7c15ULL);
  *block = bloom_block(h1, nb);
  for (int w = 0; w < 4; ++w) {
    unsigned b0 = (unsigned)(h2 >> (12 * w)) & 63, b1 = (unsigned)(h2 >> (12 * w + 6)) & 63;
    m[w] = (1ULL << b0) | (1ULL << b1);
  }
}

void ref_bloom_add(uint64_t *words, uint64_t nb, uint64_t seed, const void *keys, size_t n, size_t kb) {
  for (size_t i = 0; i < n; ++i) {
    uint64_t b, m[4];
    bloom_masks(key_at(keys, i, kb), seed, nb, &b, m);
    for (int w = 0; w < 4; ++w) words[4 * b + w] |= m[w];
  }
}

void ref_bloom_contains(const uint64_t *words, uint64_t nb, uint64_t seed, const void *keys, size_t n, size_t kb,
                        uint8_t *out) {
  for (size_t i = 0; i < n; ++i) {
    uint64_t b, m[4];
    bloom_masks(key_at(keys, i, kb), seed, nb, &b, m);
    int hit = 1;
    for (int w = 0; w < 4; ++w) hit &= (words[4 * b + w] & m[w]) == m[w];
    out[i] = (uint8_t)hit;
  }
}

static uint64_t canonical(uint64_t x, int canon) {
  if (canon == 1) {
    uint32_t b = (uint32_t)x;
    if (b == 0x80000000u) return 0;
    if ((b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffffu)) return 0x7fc00000u;
    return b;
  }
  if (canon == 2) {
    if (x == 0x8000000000000000ULL) return 0;
    if ((x & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL && (x & 0xfffffffffffffULL)) return 0x7ff8000000000000ULL;
  }
  return x;
}

void ref_hll_add(uint32_t *reg, int p, uint64_t seed, const void *items, size_t n, size_t ib, int canon) {
  int q = 64 - p;
  for (size_t i = 0; i < n; ++i) {
    uint64_t h = fmix64(canonical(key_at(items, i, ib), canon) ^ seed);
    uint32_t idx = (uint32_t)(h >> q);
    uint64_t rest = h << p;
    uint32_t rank = 1;
    while (rank <= (uint32_t)q && !(rest & (1ULL << 63))) { /* count leading zeros of the q bits */
      rest <<= 1;
      ++rank;
    }
    if (rank > reg[idx]) reg[idx] = rank;
  }
}
