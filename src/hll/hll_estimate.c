/* The HyperLogLog estimate: O. Ertl's improved estimator over the register
 * histogram ("New cardinality estimation algorithms for HyperLogLog
 * sketches", 2017, algorithms 4-6). Its sigma term is linear counting's
 * limit for nearly empty sketches and its tau term the correction for
 * saturated registers, so it needs neither HLL++'s empirical bias tables
 * nor a switch-over threshold. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hll_internal.h"
#include "core/common.h"
#include "core/config_abi.h"
#include "core/le_bytes.h"

static double sigma(double x) {
  if (x >= 1.0) return INFINITY;
  double y = 1.0, z = x, zp;
  do {
    x *= x;
    zp = z;
    z += x * y;
    y += y;
  } while (z != zp);
  return z;
}

static double tau(double x) {
  if (x <= 0.0 || x >= 1.0) return 0.0;
  double y = 1.0, z = 1.0 - x, zp;
  do {
    x = sqrt(x);
    zp = z;
    y *= 0.5;
    z -= (1.0 - x) * (1.0 - x) * y;
  } while (z != zp);
  return z / 3.0;
}

double gcol_hll_estimate_registers(const uint32_t *reg, int p) {
  int q = 64 - p;
  double m = (double)(1u << p), c[66];
  memset(c, 0, sizeof c);
  for (uint32_t i = 0; i < (1u << p); ++i) c[reg[i] <= (uint32_t)q + 1 ? reg[i] : (uint32_t)q + 1] += 1.0;
  if (c[0] == m) return 0.0;
  double z = m * tau(1.0 - c[q + 1] / m);
  for (int k = q; k >= 1; --k) z = 0.5 * (z + c[k]);
  z += m * sigma(c[0] / m);
  return 0.5 / log(2.0) * m * m / z;
}


void gcol_hll_encode(const uint32_t *reg, int p, uint64_t seed, uint8_t *out) {
  memcpy(out, "GHLL", 4);
  out[4] = GCOL_HLL_FORMAT;
  out[5] = (uint8_t)p;
  out[6] = out[7] = 0;
  gcol_put_le64(out + 8, seed);
  for (uint32_t i = 0; i < (1u << p); ++i) out[GCOL_HLL_HEADER_BYTES + i] = (uint8_t)reg[i];
}

#define BAD(...) gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, __VA_ARGS__)

gcol_status_t gcol_hll_decode(const void *bytes, size_t len, int p, uint64_t seed, uint32_t *reg) {
  const uint8_t *b = (const uint8_t *)bytes;
  size_t want = GCOL_HLL_HEADER_BYTES + ((size_t)1 << p);
  if (!b) return BAD("h_bytes is NULL");
  if (len < GCOL_HLL_HEADER_BYTES) return BAD("%zu bytes are shorter than the 16-byte header", len);
  if (memcmp(b, "GHLL", 4) != 0) return BAD("the bytes do not start with \"GHLL\" (not an exported sketch)");
  if (b[4] != GCOL_HLL_FORMAT) return BAD("format version %u; this library reads %u", b[4], GCOL_HLL_FORMAT);
  if (b[6] || b[7]) return BAD("reserved header bytes 6-7 are not zero");
  if (b[5] != p) return BAD("the bytes hold a precision-%u sketch; this one has precision %d", b[5], p);
  if (gcol_get_le64(b + 8) != seed)
    return BAD("the bytes' seed 0x%llx is not this sketch's 0x%llx", (unsigned long long)gcol_get_le64(b + 8),
               (unsigned long long)seed);
  if (len != want) return BAD("%zu bytes; a precision-%d sketch exports %zu", len, p, want);
  for (size_t i = 0; i < ((size_t)1 << p); ++i)
    if (b[GCOL_HLL_HEADER_BYTES + i] > 65 - p)
      return BAD("register %zu holds %u, above the largest rank %d", i, b[GCOL_HLL_HEADER_BYTES + i], 65 - p);
  for (size_t i = 0; i < ((size_t)1 << p); ++i) reg[i] = b[GCOL_HLL_HEADER_BYTES + i];
  return GCOL_SUCCESS;
}

gcol_hll_config_t gcol_hll_config_default(void) {
  gcol_hll_config_t c;
  memset(&c, 0, sizeof c);
  gcol_config_header_t h = gcol_config_header(sizeof c);
  memcpy(&c, &h, sizeof h);
  c.precision = 13;
  c.seed = 0x9e3779b97f4a7c15ULL;
  return c;
}

gcol_status_t gcol_hll_config_take(const gcol_hll_config_t *in, gcol_hll_config_t *c) {
  *c = gcol_hll_config_default();
  GCOL_TRY(gcol_config_take(in, c, GCOL_HLL_CONFIG_SIZE_1_0, sizeof *c, "cfg"));
  if (c->precision < GCOL_HLL_MIN_PRECISION || c->precision > GCOL_HLL_MAX_PRECISION)
    return BAD("cfg->precision %d is not in [%d, %d]", c->precision, GCOL_HLL_MIN_PRECISION, GCOL_HLL_MAX_PRECISION);
  if ((c->allocator.alloc == NULL) != (c->allocator.free == NULL))
    return BAD("cfg->allocator sets only one of alloc and free");
  return GCOL_SUCCESS;
}
