/* gcol_set_config_default, and a set config as the core's map config. */
#include <string.h>
#include "set_internal.h"
#include "core/common.h"
#include "core/config_abi.h"
#include "map/map_internal.h"

gcol_set_config_t gcol_set_config_default(gcol_type_t key) {
  gcol_set_config_t c;
  memset(&c, 0, sizeof c);
  gcol_config_header_t h = gcol_config_header(sizeof c);
  memcpy(&c, &h, sizeof h);
  /* the map's defaults for the fields the two share: one home */
  gcol_map_config_t m = gcol_map_config_default(key, key);
  c.key_type = key;
  c.capacity = m.capacity;
  c.max_load_factor = m.max_load_factor;
  c.growable = m.growable;
  c.empty_key = m.empty_key;
  c.erased_key = m.erased_key;
  c.seed = m.seed;
  c.allocator = m.allocator;
  c.growth_factor = m.growth_factor;
  return c;
}

gcol_status_t gcol_set_config_take(const gcol_set_config_t *in, gcol_map_config_t *out) {
  gcol_set_config_t c = gcol_set_config_default(GCOL_U64);
  GCOL_TRY(gcol_config_take(in, &c, GCOL_SET_CONFIG_SIZE_1_0, sizeof c, "cfg"));
  *out = gcol_map_config_default(GCOL_U64, GCOL_U64);
  out->key_type = c.key_type;
  out->value_type = c.key_type;
  out->capacity = c.capacity;
  out->max_load_factor = c.max_load_factor;
  out->growable = c.growable;
  out->empty_key = c.empty_key;
  out->erased_key = c.erased_key;
  out->empty_value = 0;
  out->seed = c.seed;
  out->allocator = c.allocator;
  out->growth_factor = c.growth_factor;
  return gcol_oa_config_check(out, 0);
}

_Static_assert(GCOL_SET_CONFIG_SIZE_1_0 == sizeof(gcol_set_config_t), "the 1.0 set config is 104 bytes");
