/* Multimap config defaults, checks and array sizes (no GPU needed). */
#include <stddef.h>
#include <string.h>
#include "mm_plan.h"
#include "core/common.h"
#include "core/config_abi.h"
#include "map/map_internal.h"
#include "map/map_policy.h"

#define BAD(...) gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, __VA_ARGS__)

gcol_multimap_config_t gcol_multimap_config_default(gcol_type_t key, gcol_type_t value,
                                                    gcol_multimap_engine_t engine) {
  gcol_multimap_config_t c;
  memset(&c, 0, sizeof c);
  gcol_config_header_t h = gcol_config_header(sizeof c);
  memcpy(&c, &h, sizeof h);
  c.map = gcol_map_config_default(key, value);
  c.engine = engine;
  c.num_buckets = 0;
  return c;
}

static int chained(gcol_multimap_engine_t e) {
  return e == GCOL_MULTIMAP_CHAINED || e == GCOL_MULTIMAP_CHAINED_LOCKFREE;
}

static gcol_status_t plan_open(const gcol_multimap_config_t *cfg, gcol_mm_plan_t *p) {
  if (cfg->num_buckets) return BAD("cfg->num_buckets is %zu; GCOL_MULTIMAP_OPEN takes 0", cfg->num_buckets);
  p->tile = p->vb == 0 ? GCOL_MULTISET_TILE : p->slot_bytes == 32 ? GCOL_MM_TILE32 : p->slot_bytes == 16 ? GCOL_MM_TILE16 : GCOL_MM_TILE8; 
  size_t per_bucket = gcol_map_bucket_slots(p->tile, (size_t)p->kb, (size_t)p->vb);
  size_t want = cfg->map.capacity / per_bucket + (cfg->map.capacity % per_bucket != 0);
  if (want < 2) want = 2;
  p->num_buckets = want < 0x7fffffffULL ? gcol_next_prime((uint32_t)want) : 0;
  if (!p->num_buckets) return BAD("cfg->map.capacity %zu needs more than 2^31 buckets", cfg->map.capacity);
  p->capacity = (size_t)p->num_buckets * per_bucket;
  p->table_bytes = (size_t)p->num_buckets * (size_t)p->tile * gcol_chunk_bytes((size_t)p->kb, (size_t)p->vb);
  return GCOL_SUCCESS;
}

static gcol_status_t plan_chained(const gcol_multimap_config_t *cfg, gcol_mm_plan_t *p) {
  size_t cap = cfg->map.capacity, nb = cfg->num_buckets;
  if (cap >= GCOL_MM_NIL) /* links are 32-bit */
    return BAD("cfg->map.capacity %zu: chained engines hold fewer than 2^32 - 1 pairs", cap);
  if (!nb) nb = cap < GCOL_MM_NIL / 2 ? 2 * cap : GCOL_MM_NIL - 1;
  if (nb >= GCOL_MM_NIL) return BAD("cfg->num_buckets %zu is not below 2^32 - 1", nb);
  const size_t chunk = gcol_chunk_bytes((size_t)p->kb, (size_t)p->vb), per_chunk = chunk / (size_t)p->slot_bytes;
  p->tile = 1;
  p->num_buckets = (uint32_t)nb;
  p->capacity = cap;
  p->table_bytes = (cap + per_chunk - 1) / per_chunk * chunk; /* whole chunks: the map's retrieve_all reads them */
  p->next_bytes = cap * 4;
  p->head_bytes = nb * 4;
  p->lock_bytes = cfg->engine == GCOL_MULTIMAP_CHAINED ? nb * 4 : 0;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_mm_plan(const gcol_multimap_config_t *cfg, int keys_only, gcol_mm_plan_t *p) {
  if (!cfg || !p) return BAD("cfg is NULL");
  if (keys_only) GCOL_TRY(gcol_oa_config_check(&cfg->map, 0));
  else GCOL_TRY(gcol_map_config_check(&cfg->map));
  if (cfg->map.growable) return BAD("cfg->map.growable: growable multimaps are not built");
  gcol_mm_plan_t z = {GCOL_MULTIMAP_OPEN, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  *p = z;
  p->engine = cfg->engine;
  p->kb = (int)gcol_type_size(cfg->map.key_type);
  p->vb = keys_only ? 0 : (int)gcol_type_size(cfg->map.value_type);
  p->slot_bytes = (int)gcol_slot_bytes((size_t)p->kb, (size_t)p->vb);
  if (cfg->engine == GCOL_MULTIMAP_OPEN) return plan_open(cfg, p);
  if (!chained(cfg->engine)) return BAD("cfg->engine %d is not a gcol_multimap_engine_t", (int)cfg->engine);
  return plan_chained(cfg, p);
}

gcol_status_t gcol_multimap_config_take(const gcol_multimap_config_t *in, gcol_multimap_config_t *out) {
  *out = gcol_multimap_config_default(GCOL_U64, GCOL_U64, GCOL_MULTIMAP_OPEN);
  /* the multimap's own fields, then the map's config with its own size */
  const size_t own = offsetof(gcol_multimap_config_t, map);
  GCOL_TRY(gcol_config_take(in, out, own + GCOL_MAP_CONFIG_SIZE_1_0, sizeof *out, "cfg"));
  gcol_map_config_t map = out->map;
  GCOL_TRY(gcol_map_config_take(&in->map, &map));
  if (in->size != own + in->map.size)
    return BAD("cfg->size %zu is not its own fields (%zu bytes) plus cfg->map.size %zu", in->size, own, in->map.size);
  out->map = map;
  return GCOL_SUCCESS;
}
