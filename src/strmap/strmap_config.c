/* gcol_strmap_config_default, and acceptance of a caller's config with the
 * open-addressing core's rules (one home: gcol_oa_config_check). */
#include <string.h>
#include "strmap_internal.h"
#include "core/common.h"
#include "core/config_abi.h"
#include "map/map_internal.h"

gcol_strmap_config_t gcol_strmap_config_default(gcol_type_t value) {
  gcol_strmap_config_t c;
  memset(&c, 0, sizeof c);
  gcol_config_header_t h = gcol_config_header(sizeof c);
  memcpy(&c, &h, sizeof h);
  gcol_map_config_t m = gcol_map_config_default(GCOL_U64, value);
  c.value_type = value;
  c.capacity = m.capacity;
  c.max_load_factor = m.max_load_factor;
  c.growable = 1; /* strings rarely come with a known count of distinct ones */
  c.empty_value = m.empty_value;
  c.seed = m.seed;
  c.allocator = m.allocator;
  c.growth_factor = m.growth_factor;
  return c;
}

gcol_status_t gcol_strmap_config_take(const gcol_strmap_config_t *in, gcol_strmap_config_t *out) {
  gcol_strmap_config_t c = gcol_strmap_config_default(GCOL_U32);
  GCOL_TRY(gcol_config_take(in, &c, GCOL_STRMAP_CONFIG_SIZE_1_1, sizeof c, "cfg"));
  /* the map's rules for the fields the two share (64-bit key slots stand
     for the strmap's 8-byte slots) */
  gcol_map_config_t m = gcol_map_config_default(GCOL_U64, GCOL_U64);
  m.value_type = c.value_type;
  m.capacity = c.capacity;
  m.max_load_factor = c.max_load_factor;
  m.growable = c.growable;
  m.empty_value = c.empty_value;
  m.seed = c.seed;
  m.allocator = c.allocator;
  m.growth_factor = c.growth_factor;
  size_t vb = gcol_type_size(c.value_type);
  if (vb == 0) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "cfg->value_type %d is not a gcol_type_t", (int)c.value_type);
  GCOL_TRY(gcol_oa_config_check(&m, vb));
  *out = c;
  return GCOL_SUCCESS;
}
