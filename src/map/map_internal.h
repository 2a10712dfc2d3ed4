/* The map object. Internal; tests may use gcol_map_set_policy_for_testing. */
#ifndef GCOL_SRC_MAP_MAP_INTERNAL_H
#define GCOL_SRC_MAP_MAP_INTERNAL_H

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run the map's kernels with another probing tile (1, 2, 4 or 8) and, for
 * 16-byte slots, the pre-sm_90 claim scheme (key_cas = 1). Only for tests and
 * the benchmark's tile sweep; the map must be empty. */
gcol_status_t gcol_map_set_policy_for_testing(gcol_map_t *m, int tile, int key_cas);

/* Slots in one bucket of a map with this probing tile and pair. */
size_t gcol_map_bucket_slots(int tile, size_t key_bytes, size_t value_bytes);

/* The smallest prime >= x (x < 2^31); 0 if none fits. */
uint32_t gcol_next_prime(uint32_t x);

/* Validate a config (host-side); GCOL_SUCCESS or GCOL_ERROR_INVALID_ARGUMENT. */
gcol_status_t gcol_map_config_check(const gcol_map_config_t *cfg);

#ifdef __cplusplus
}
#endif
#endif
