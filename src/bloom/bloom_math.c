/* The Bloom filter's host-side rules: the exact FPR of the sector-blocked
 * layout, the size that meets a target FPR, config defaults and checks. */
#include <math.h>
#include <string.h>
#include "bloom_internal.h"
#include "core/common.h"
#include "core/config_abi.h"
#include "core/le_bytes.h"

#define BAD(...) gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, __VA_ARGS__)

/* Chance that both of a query's two bits in one 64-bit word are set when
 * j keys of its block have set 2j uniformly drawn bits of the word. */
static double word_hit(double j) {
  double a = pow(63.0 / 64.0, 2.0 * j), b = pow(62.0 / 64.0, 2.0 * j);
  return (1.0 - a) / 64.0 + 63.0 / 64.0 * (1.0 - 2.0 * a + b);
}

double gcol_bloom_fpr_blocks(uint64_t num_blocks, uint64_t n) {
  if (n == 0) return 0.0;
  if (num_blocks <= 1) return pow(word_hit((double)n), 4.0);
  double p = 1.0 / (double)num_blocks, mean = (double)n * p, sd = sqrt(mean * (1.0 - p));
  /* past ~1e5 keys per block every word is saturated: the window would only cost time */
  if (mean > 1e5) return pow(word_hit(mean), 4.0);
  double lo = floor(mean - 14.0 * sd - 20.0), hi = ceil(mean + 14.0 * sd + 40.0);
  if (lo < 0) lo = 0;
  if (hi > (double)n) hi = (double)n;
  double lgn = lgamma((double)n + 1.0), lp = log(p), lq = log1p(-p), sum = 0.0;
  for (double j = lo; j <= hi; j += 1.0) {
    double lpmf = lgn - lgamma(j + 1.0) - lgamma((double)n - j + 1.0) + j * lp + ((double)n - j) * lq;
    sum += exp(lpmf) * pow(word_hit(j), 4.0);
  }
  return sum;
}

static uint64_t blocks_of_bytes(size_t bytes) {
  return (uint64_t)((bytes + GCOL_BLOOM_BLOCK_BYTES - 1) / GCOL_BLOOM_BLOCK_BYTES);
}

gcol_status_t gcol_bloom_expected_fpr(size_t size_bytes, size_t n, double *out) {
  gcol_api_begin("gcol_bloom_expected_fpr");
  gcol_status_t st = GCOL_SUCCESS;
  if (!out) st = BAD("h_fpr_out is NULL");
  else if (size_bytes == 0 || size_bytes > GCOL_BLOOM_MAX_BYTES)
    st = BAD("size_bytes %zu is not in [1, 2^40]", size_bytes);
  else *out = gcol_bloom_fpr_blocks(blocks_of_bytes(size_bytes), n);
  gcol_api_end();
  return st;
}

/* Smallest block count whose FPR for n keys is <= target; 0 if none fits 2^40 bytes. */
static uint64_t blocks_for(uint64_t n, double target) {
  uint64_t lo = 1, hi = GCOL_BLOOM_MAX_BYTES / GCOL_BLOOM_BLOCK_BYTES;
  if (gcol_bloom_fpr_blocks(hi, n) > target) return 0;
  while (lo < hi) { /* the FPR falls as blocks are added */
    uint64_t mid = lo + (hi - lo) / 2;
    if (gcol_bloom_fpr_blocks(mid, n) <= target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

static gcol_status_t check_target(size_t n, double target) {
  if (n == 0 || n > GCOL_BLOOM_MAX_KEYS) return BAD("expected_keys %zu is not in [1, 2^40]", n);
  if (!(target > 1e-12 && target < 1.0)) return BAD("target_fpr %g is not in (1e-12, 1)", target);
  return GCOL_SUCCESS;
}

gcol_status_t gcol_bloom_size_for(size_t n, double target, size_t *out) {
  gcol_api_begin("gcol_bloom_size_for");
  gcol_status_t st = out ? check_target(n, target) : BAD("h_bytes_out is NULL");
  if (st == GCOL_SUCCESS) {
    uint64_t b = blocks_for(n, target);
    if (b == 0) st = BAD("%zu keys at FPR %g need more than 2^40 bytes", n, target);
    else *out = (size_t)b * GCOL_BLOOM_BLOCK_BYTES;
  }
  gcol_api_end();
  return st;
}

gcol_bloom_config_t gcol_bloom_config_default(gcol_type_t key) {
  gcol_bloom_config_t c;
  memset(&c, 0, sizeof c);
  gcol_config_header_t h = gcol_config_header(sizeof c);
  memcpy(&c, &h, sizeof h);
  c.key_type = (key == GCOL_U32 || key == GCOL_I32 || key == GCOL_I64) ? key : GCOL_U64;
  c.target_fpr = 0.01;
  c.seed = 0x9e3779b97f4a7c15ULL;
  return c;
}

gcol_status_t gcol_bloom_config_take(const gcol_bloom_config_t *in, gcol_bloom_config_t *c, uint64_t *num_blocks) {
  *c = gcol_bloom_config_default(GCOL_U64);
  GCOL_TRY(gcol_config_take(in, c, GCOL_BLOOM_CONFIG_SIZE_1_0, sizeof *c, "cfg"));
  if (!(c->key_type == GCOL_U32 || c->key_type == GCOL_I32 || c->key_type == GCOL_U64 || c->key_type == GCOL_I64))
    return BAD("cfg->key_type %d is not an integer gcol_type_t", (int)c->key_type);
  if ((c->allocator.alloc == NULL) != (c->allocator.free == NULL))
    return BAD("cfg->allocator sets only one of alloc and free");
  if (c->size_bytes && c->expected_keys)
    return BAD("cfg sets both size_bytes (%zu) and expected_keys (%zu): set one", c->size_bytes, c->expected_keys);
  if (c->size_bytes) {
    if (c->size_bytes > GCOL_BLOOM_MAX_BYTES) return BAD("cfg->size_bytes %zu is over 2^40", c->size_bytes);
    *num_blocks = blocks_of_bytes(c->size_bytes);
    return GCOL_SUCCESS;
  }
  if (!c->expected_keys) return BAD("cfg sets neither size_bytes nor expected_keys (with target_fpr)");
  GCOL_TRY(check_target(c->expected_keys, c->target_fpr));
  *num_blocks = blocks_for(c->expected_keys, c->target_fpr);
  if (*num_blocks == 0)
    return BAD("cfg asks for %zu keys at FPR %g, which needs more than 2^40 bytes", c->expected_keys, c->target_fpr);
  return GCOL_SUCCESS;
}


void gcol_bloom_encode_header(uint64_t num_blocks, uint64_t seed, int key_bytes, uint8_t *out) {
  memset(out, 0, GCOL_BLOOM_HEADER_BYTES);
  memcpy(out, "GBLM", 4);
  out[4] = GCOL_BLOOM_FORMAT;
  out[5] = (uint8_t)key_bytes;
  gcol_put_le64(out + 8, seed);
  gcol_put_le64(out + 16, num_blocks);
}

gcol_status_t gcol_bloom_check_bytes(const void *bytes, size_t len, uint64_t num_blocks, uint64_t seed,
                                     int key_bytes) {
  const uint8_t *b = (const uint8_t *)bytes;
  if (!b) return BAD("h_bytes is NULL");
  if (len < GCOL_BLOOM_HEADER_BYTES) return BAD("%zu bytes are shorter than the 32-byte header", len);
  if (memcmp(b, "GBLM", 4) != 0) return BAD("the bytes do not start with \"GBLM\" (not an exported filter)");
  if (b[4] != GCOL_BLOOM_FORMAT) return BAD("format version %u; this library reads %u", b[4], GCOL_BLOOM_FORMAT);
  if (b[6] || b[7] || gcol_get_le64(b + 24)) return BAD("reserved header bytes (6-7, 24-31) are not zero");
  if (b[5] != key_bytes)
    return BAD("the bytes hold a filter of %u-byte keys; this one takes %d-byte keys", b[5], key_bytes);
  if (gcol_get_le64(b + 8) != seed)
    return BAD("the bytes' seed 0x%llx is not this filter's 0x%llx", (unsigned long long)gcol_get_le64(b + 8),
               (unsigned long long)seed);
  if (gcol_get_le64(b + 16) != num_blocks)
    return BAD("the bytes hold %llu blocks; this filter has %llu", (unsigned long long)gcol_get_le64(b + 16),
               (unsigned long long)num_blocks);
  size_t want = GCOL_BLOOM_HEADER_BYTES + (size_t)num_blocks * GCOL_BLOOM_BLOCK_BYTES;
  if (len != want)
    return BAD("%zu bytes; a filter of %llu blocks exports %zu", len, (unsigned long long)num_blocks, want);
  return GCOL_SUCCESS;
}
