/* 64-bit integers as little-endian bytes: the exported formats of the
 * sketches (Bloom filter and HyperLogLog headers) are the same on every host. */
#ifndef GCOL_SRC_CORE_LE_BYTES_H
#define GCOL_SRC_CORE_LE_BYTES_H

#include <stdint.h>

static inline void gcol_put_le64(uint8_t *b, uint64_t x) {
  for (int i = 0; i < 8; ++i) b[i] = (uint8_t)(x >> (8 * i));
}

static inline uint64_t gcol_get_le64(const uint8_t *b) {
  uint64_t x = 0;
  for (int i = 7; i >= 0; --i) x = x << 8 | b[i];
  return x;
}

#endif
