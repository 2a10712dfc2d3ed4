/* Helpers for tests: reproducible unique keys with an inverse (so a CPU
 * reference needs no hash table), and device buffers. */
#ifndef GCOL_TESTS_TEST_UTIL_H
#define GCOL_TESTS_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "gcol/gcol.h"

/* Bijections on 64 and 32 bits and their inverses. */
uint64_t tu_mix64(uint64_t x);
uint64_t tu_unmix64(uint64_t x);
uint32_t tu_mix32(uint32_t x);
uint32_t tu_unmix32(uint32_t x);

/* Key number i of a key family: mix(offset + i) in the key width. */
uint64_t tu_key(uint64_t offset, uint64_t i, size_t key_bytes);
/* The i of a key of the family (wraps; compare with the family's span). */
uint64_t tu_key_index(uint64_t offset, uint64_t key, size_t key_bytes);

/* Fill keys[0..n) with distinct keys of the family, skipping the two default
 * sentinels (all ones, all ones - 1). *span receives how many indices were
 * used (n plus the skipped ones). */
void tu_unique_keys(void *keys, size_t key_bytes, size_t n, uint64_t offset, uint64_t *span);

/* A value derived from a key and a salt, in the value width. */
uint64_t tu_value(uint64_t key, uint64_t salt, size_t value_bytes);

/* Element i of an array of 4- or 8-byte elements, zero-extended / stored. */
/* A value's bits (4 bytes for GCOL_F32, else 8) read as, or written from, a double. */
double tu_bits_to_double(gcol_type_t t, uint64_t bits);
uint64_t tu_double_to_bits(gcol_type_t t, double x);

uint64_t tu_get(const void *a, size_t i, size_t bytes);
void tu_put(void *a, size_t i, size_t bytes, uint64_t v);

/* Device copies (NULL on failure) and poisoned device buffers (every byte 0xA5). */
void *tu_to_device(const void *h, size_t bytes);
void *tu_poisoned(size_t bytes);
int tu_to_host(void *h, const void *d, size_t bytes); /* 0 on success */
/* A device-side size_t (a count a call wrote), or SIZE_MAX when it cannot be read. */
size_t tu_read_size(const size_t *d);
void tu_free(void *d);

/* A fast xorshift PRNG for test data. */
typedef struct { uint64_t s; } tu_rng_t;
uint64_t tu_next(tu_rng_t *r);

#endif
