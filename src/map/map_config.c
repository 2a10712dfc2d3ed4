/* gcol_map_config_default: the public defaults of a map config. */
#include <string.h>
#include "map_internal.h"
#include "core/config_abi.h"

gcol_map_config_t gcol_map_config_default(gcol_type_t key, gcol_type_t value) {
  gcol_map_config_t c;
  memset(&c, 0, sizeof c);
  gcol_config_header_t h = gcol_config_header(sizeof c);
  memcpy(&c, &h, sizeof h);
  size_t kb = gcol_type_size(key), vb = gcol_type_size(value);
  c.key_type = key;
  c.value_type = value;
  c.capacity = 1024;
  c.max_load_factor = 0.8;
  c.growable = 0;
  c.empty_key = gcol_all_ones(kb);
  c.erased_key = gcol_all_ones(kb) - 1;
  c.empty_value = gcol_all_ones(vb);
  c.seed = 0x9e3779b97f4a7c15ULL;
  c.allocator.alloc = NULL;
  c.allocator.free = NULL;
  c.allocator.ctx = NULL;
  c.growth_factor = 2;
  return c;
}

