/* Multimap config defaults, checks and array sizes (no GPU needed). */
#include "mm_plan.h"
#include "map/map_internal.h"

gcol_multimap_config_t gcol_multimap_config_default(gcol_type_t key, gcol_type_t value,
                                                    gcol_multimap_engine_t engine) {
  gcol_multimap_config_t c;
  c.map = gcol_map_config_default(key, value);
  c.engine = engine;
  c.num_buckets = 0;
  return c;
}

static int chained(gcol_multimap_engine_t e) {
  return e == GCOL_MULTIMAP_CHAINED || e == GCOL_MULTIMAP_CHAINED_LOCKFREE;
}

static gcol_status_t plan_open(const gcol_multimap_config_t *cfg, gcol_mm_plan_t *p) {
  if (cfg->num_buckets) return GCOL_ERROR_INVALID_ARGUMENT;
  p->tile = p->slot_bytes == 8 ? GCOL_MM_TILE8 : GCOL_MM_TILE16;
  size_t per_bucket = gcol_map_bucket_slots(p->tile, (size_t)p->kb, (size_t)p->vb);
  size_t want = cfg->map.capacity / per_bucket + (cfg->map.capacity % per_bucket != 0);
  if (want < 2) want = 2;
  p->num_buckets = want < 0x7fffffffULL ? gcol_next_prime((uint32_t)want) : 0;
  if (!p->num_buckets) return GCOL_ERROR_INVALID_ARGUMENT;
  p->capacity = (size_t)p->num_buckets * per_bucket;
  p->table_bytes = (size_t)p->num_buckets * (size_t)p->tile * 16;
  return GCOL_SUCCESS;
}

static gcol_status_t plan_chained(const gcol_multimap_config_t *cfg, gcol_mm_plan_t *p) {
  size_t cap = cfg->map.capacity, nb = cfg->num_buckets;
  if (cap >= GCOL_MM_NIL) return GCOL_ERROR_INVALID_ARGUMENT; /* links are 32-bit */
  if (!nb) nb = cap < GCOL_MM_NIL / 2 ? 2 * cap : GCOL_MM_NIL - 1;
  if (nb >= GCOL_MM_NIL) return GCOL_ERROR_INVALID_ARGUMENT;
  size_t per_chunk = p->slot_bytes == 8 ? 2 : 1;
  p->tile = 1;
  p->num_buckets = (uint32_t)nb;
  p->capacity = cap;
  p->table_bytes = (cap + per_chunk - 1) / per_chunk * 16; /* whole chunks: the map's retrieve_all reads them */
  p->next_bytes = cap * 4;
  p->head_bytes = nb * 4;
  p->lock_bytes = cfg->engine == GCOL_MULTIMAP_CHAINED ? nb * 4 : 0;
  return GCOL_SUCCESS;
}

gcol_status_t gcol_mm_plan(const gcol_multimap_config_t *cfg, gcol_mm_plan_t *p) {
  if (!cfg || !p) return GCOL_ERROR_INVALID_ARGUMENT;
  if (gcol_map_config_check(&cfg->map) != GCOL_SUCCESS) return GCOL_ERROR_INVALID_ARGUMENT;
  if (cfg->map.growable) return GCOL_ERROR_INVALID_ARGUMENT; /* growable multimaps: not built */
  const gcol_allocator_t *a = &cfg->map.allocator;
  if ((a->alloc == NULL) != (a->free == NULL)) return GCOL_ERROR_INVALID_ARGUMENT; /* both or neither */
  gcol_mm_plan_t z = {GCOL_MULTIMAP_OPEN, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  *p = z;
  p->engine = cfg->engine;
  p->kb = (int)gcol_type_size(cfg->map.key_type);
  p->vb = (int)gcol_type_size(cfg->map.value_type);
  p->slot_bytes = p->kb == 4 && p->vb == 4 ? 8 : 16;
  if (cfg->engine == GCOL_MULTIMAP_OPEN) return plan_open(cfg, p);
  if (!chained(cfg->engine)) return GCOL_ERROR_INVALID_ARGUMENT;
  return plan_chained(cfg, p);
}
