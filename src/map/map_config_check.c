/* Host-side map logic that needs no GPU: config checks, sizing, growth.
 * Internal (also linked into libgcol_nccl, which checks configs itself). */
#include <string.h>
#include "map_internal.h"
#include "map_policy.h"
#include "core/config_abi.h"
#include "core/common.h"

static int is_key_type(gcol_type_t t) {
  return t == GCOL_U32 || t == GCOL_I32 || t == GCOL_U64 || t == GCOL_I64 || t == GCOL_U128;
}

#define BAD(...) gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, __VA_ARGS__)

gcol_status_t gcol_map_config_check(const gcol_map_config_t *cfg) {
  if (!cfg) return BAD("cfg is NULL");
  if (gcol_type_size(cfg->value_type) == 0) return BAD("cfg->value_type %d is not a gcol_type_t", (int)cfg->value_type);
  if (cfg->value_type == GCOL_U128) return BAD("cfg->value_type is GCOL_U128, a key type only (values are 4 or 8 bytes)");
  return gcol_oa_config_check(cfg, gcol_type_size(cfg->value_type));
}

gcol_status_t gcol_oa_config_check(const gcol_map_config_t *cfg, size_t vb) {
  if (!is_key_type(cfg->key_type)) return BAD("cfg->key_type %d is not an integer gcol_type_t", (int)cfg->key_type);
  size_t kb = gcol_type_size(cfg->key_type);
  if (cfg->capacity == 0) return BAD("cfg->capacity is 0 (at least 1 slot)");
  /* the probe sequence addresses < 2^31 buckets of the policy's tile */
  size_t max_slots = gcol_map_bucket_slots(GCOL_OA_TILE(gcol_slot_bytes(kb, vb), vb == 0), kb, vb) * (size_t)0x7fffffe0;
  if (cfg->capacity > max_slots)
    return BAD("cfg->capacity %zu is more than a table can address (%zu slots for %s keys%s%s)", cfg->capacity,
               max_slots, gcol_type_name(cfg->key_type), vb ? ", values " : "", vb ? gcol_type_name(cfg->value_type) : "");
  if (!(cfg->max_load_factor > 0.0 && cfg->max_load_factor <= 1.0))
    return BAD("cfg->max_load_factor %g is not in (0, 1]", cfg->max_load_factor);
  if (cfg->growable != 0 && cfg->growable != 1) return BAD("cfg->growable is %d (0 or 1)", cfg->growable);
  /* a growable map probes at most this full: past 0.95 misses get long, below
     0.1 the table is mostly air */
  if (cfg->growable && !(cfg->max_load_factor >= GCOL_MAP_MIN_GROW_LOAD && cfg->max_load_factor <= GCOL_MAP_MAX_GROW_LOAD))
    return BAD("cfg->max_load_factor %g of a growable map is not in [%g, %g]", cfg->max_load_factor,
               GCOL_MAP_MIN_GROW_LOAD, GCOL_MAP_MAX_GROW_LOAD);
  if ((cfg->allocator.alloc == NULL) != (cfg->allocator.free == NULL))
    return BAD("cfg->allocator sets only one of alloc and free");
  if (cfg->growth_factor != 0 && cfg->growth_factor != 2 && cfg->growth_factor != 4 && cfg->growth_factor != 8)
    return BAD("cfg->growth_factor %d is not 0, 2, 4 or 8", cfg->growth_factor);
  if (cfg->empty_key > gcol_all_ones(kb)) return BAD("cfg->empty_key 0x%llx does not fit %zu-byte keys", (unsigned long long)cfg->empty_key, kb);
  if (cfg->erased_key > gcol_all_ones(kb)) return BAD("cfg->erased_key 0x%llx does not fit %zu-byte keys", (unsigned long long)cfg->erased_key, kb);
  if (vb && cfg->empty_value > gcol_all_ones(vb))
    return BAD("cfg->empty_value 0x%llx does not fit %zu-byte values", (unsigned long long)cfg->empty_value, vb);
  if (cfg->empty_key == cfg->erased_key) return BAD("cfg->empty_key equals cfg->erased_key");
  return GCOL_SUCCESS;
}

gcol_status_t gcol_map_config_take(const gcol_map_config_t *in, gcol_map_config_t *out) {
  *out = gcol_map_config_default(GCOL_U64, GCOL_U64);
  GCOL_TRY(gcol_config_take(in, out, GCOL_MAP_CONFIG_SIZE_1_0, sizeof *out, "cfg"));
  return gcol_map_config_check(out);
}

size_t gcol_slot_bytes(size_t key_bytes, size_t value_bytes) {
  if (value_bytes == 0) return key_bytes;
  if (key_bytes == 16) return 32;
  return key_bytes == 4 && value_bytes == 4 ? 8 : 16;
}

size_t gcol_chunk_bytes(size_t key_bytes, size_t value_bytes) {
  size_t sb = gcol_slot_bytes(key_bytes, value_bytes);
  return sb > 16 ? sb : 16;
}

size_t gcol_map_bucket_slots(int tile, size_t key_bytes, size_t value_bytes) {
  return (size_t)tile * gcol_chunk_bytes(key_bytes, value_bytes) / gcol_slot_bytes(key_bytes, value_bytes);
}

static int is_prime(uint32_t x) {
  if (x < 2) return 0;
  if (x % 2 == 0) return x == 2;
  for (uint32_t d = 3; (uint64_t)d * d <= x; d += 2)
    if (x % d == 0) return 0;
  return 1;
}

uint32_t gcol_next_prime(uint32_t x) {
  for (uint64_t p = x < 2 ? 2 : x; p < 0x7fffffffULL + 1; ++p)
    if (is_prime((uint32_t)p)) return (uint32_t)p;
  return 0;
}

size_t gcol_map_load_limit(size_t num_slots, double max_load_factor) {
  return (size_t)(max_load_factor * (double)num_slots);
}

size_t gcol_map_growth_target(size_t num_slots, double max_load_factor, int growth_factor, size_t used, size_t live,
                              size_t n) {
  size_t limit = gcol_map_load_limit(num_slots, max_load_factor);
  if (used <= limit && n <= limit - used) return 0;
  if (live > SIZE_MAX - n) return SIZE_MAX;
  size_t need = live + n;
  /* Mostly tombstones: purge them at the same size. Half the limit leaves
     room for as many keys again, so purges stay rare (amortized O(1)). */
  if (need <= limit / 2) return num_slots;
  double want = (double)need / max_load_factor + 1.0;
  double grown = (growth_factor > 2 ? growth_factor : 2) * (double)num_slots;
  if (want < grown) want = grown;
  if (want >= 0x1p62) return SIZE_MAX;
  size_t slots = (size_t)want;
  while (gcol_map_load_limit(slots, max_load_factor) < need) ++slots; /* rounding of the product */
  return slots;
}

_Static_assert(GCOL_MAP_CONFIG_SIZE_1_0 == sizeof(gcol_map_config_t), "the 1.0 map config is 112 bytes");
