/* Set and multiset config rules shared by their host files (no GPU needed). */
#ifndef GCOL_SRC_SET_SET_INTERNAL_H
#define GCOL_SRC_SET_SET_INTERNAL_H

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* sizeof(gcol_set_config_t) in gcol 1.0: the shortest struct accepted. */
#define GCOL_SET_CONFIG_SIZE_1_0 ((size_t)104)

/* A caller's set config (any size a 1.x header made), checked by the map's
 * rules for a keys-only table, as the map config the open-addressing core
 * runs on (value_type = key_type, unused; empty_value 0). */
gcol_status_t gcol_set_config_take(const gcol_set_config_t *in, gcol_map_config_t *out);

#ifdef __cplusplus
}
#endif
#endif
