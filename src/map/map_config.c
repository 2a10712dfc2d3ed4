/* Host-side map logic that needs no GPU: defaults, validation, sizing. */
#include "map_internal.h"

static uint64_t all_ones(size_t bytes) { return bytes == 4 ? 0xffffffffULL : ~0ULL; }

static int is_key_type(gcol_type_t t) {
  return t == GCOL_U32 || t == GCOL_I32 || t == GCOL_U64 || t == GCOL_I64;
}

gcol_map_config_t gcol_map_config_default(gcol_type_t key, gcol_type_t value) {
  gcol_map_config_t c;
  size_t kb = gcol_type_size(key), vb = gcol_type_size(value);
  c.key_type = key;
  c.value_type = value;
  c.capacity = 1024;
  c.max_load_factor = 0.8;
  c.growable = 0;
  c.empty_key = all_ones(kb);
  c.erased_key = all_ones(kb) - 1;
  c.empty_value = all_ones(vb);
  c.seed = 0x9e3779b97f4a7c15ULL;
  c.allocator.alloc = NULL;
  c.allocator.free = NULL;
  c.allocator.ctx = NULL;
  c.growth_factor = 2;
  return c;
}

gcol_status_t gcol_map_config_check(const gcol_map_config_t *cfg) {
  if (!cfg || !is_key_type(cfg->key_type) || gcol_type_size(cfg->value_type) == 0)
    return GCOL_ERROR_INVALID_ARGUMENT;
  size_t kb = gcol_type_size(cfg->key_type), vb = gcol_type_size(cfg->value_type);
  if (cfg->capacity == 0 || !(cfg->max_load_factor > 0.0 && cfg->max_load_factor <= 1.0))
    return GCOL_ERROR_INVALID_ARGUMENT;
  if (cfg->growable != 0 && cfg->growable != 1) return GCOL_ERROR_INVALID_ARGUMENT;
  /* a growable map probes at most this full: past 0.95 misses get long, below
     0.1 the table is mostly air */
  if (cfg->growable && !(cfg->max_load_factor >= GCOL_MAP_MIN_GROW_LOAD && cfg->max_load_factor <= GCOL_MAP_MAX_GROW_LOAD))
    return GCOL_ERROR_INVALID_ARGUMENT;
  if ((cfg->allocator.alloc == NULL) != (cfg->allocator.free == NULL)) return GCOL_ERROR_INVALID_ARGUMENT;
  if (cfg->growth_factor != 0 && cfg->growth_factor != 2 && cfg->growth_factor != 4 && cfg->growth_factor != 8)
    return GCOL_ERROR_INVALID_ARGUMENT;
  if (cfg->empty_key > all_ones(kb) || cfg->erased_key > all_ones(kb) || cfg->empty_value > all_ones(vb))
    return GCOL_ERROR_INVALID_ARGUMENT;
  if (cfg->empty_key == cfg->erased_key) return GCOL_ERROR_INVALID_ARGUMENT;
  return GCOL_SUCCESS;
}

size_t gcol_map_bucket_slots(int tile, size_t key_bytes, size_t value_bytes) {
  return (size_t)tile * (key_bytes == 4 && value_bytes == 4 ? 2 : 1);
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
