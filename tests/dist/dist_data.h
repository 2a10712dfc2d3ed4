/* Test data for the distributed map tests: a seeded PRNG, keys and values
 * held on the host as 64-bit words (zero-extended, as the library compares
 * them) and packed to their width on the way to a device. */
#ifndef GCOL_TESTS_DIST_DIST_DATA_H
#define GCOL_TESTS_DIST_DIST_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "gcol/gcol.h"

/* splitmix64: every process derives the same stream from (seed, stream). */
typedef struct {
  uint64_t s;
} dd_rng_t;
dd_rng_t dd_rng(uint64_t seed, uint64_t stream);
uint64_t dd_next(dd_rng_t *r);
/* Uniform in [0, n), n >= 1. */
uint64_t dd_below(dd_rng_t *r, uint64_t n);

/* All ones of a width in bytes (4 or 8). */
uint64_t dd_mask(size_t bytes);

/* A random value of type t as bits. Floats are small whole numbers (exact
 * under MIN/MAX, never NaN or -0). */
uint64_t dd_value(dd_rng_t *r, gcol_type_t t);

/* n distinct random keys of cfg's key width, none equal to a sentinel.
 * Returns 0, or -1 when memory ran out. */
int dd_distinct_keys(uint64_t *out, size_t n, dd_rng_t *r, const gcol_map_config_t *cfg);

/* Device copies of n words packed to `bytes` each; *d = NULL for n == 0
 * (the API allows NULL with an empty batch). Return 0 on success. */
int dd_upload(void **d, const uint64_t *h, size_t n, size_t bytes);
/* n elements of `bytes` each from the device, zero-extended into h. */
int dd_download(uint64_t *h, const void *d, size_t n, size_t bytes);
/* A device buffer of `bytes` (at least 1) with every byte 0xAB, so that an
 * output the library forgot to write never looks right. */
void *dd_poisoned(size_t bytes);
void dd_free(void *d);

#endif
