/* Map internals shared by the host files, libgcol_nccl and the tests. */
#ifndef GCOL_SRC_MAP_MAP_INTERNAL_H
#define GCOL_SRC_MAP_MAP_INTERNAL_H

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* (libgcol_testing.a only: tests/support/map_policy_override.cu.) Run the map's kernels with another probing tile (1, 2, 4 or 8) and, for
 * 16-byte slots, the pre-sm_90 claim scheme (key_cas = 1). Only for tests and
 * the benchmark's tile sweep; the map must be empty. */
gcol_status_t gcol_map_set_policy_for_testing(gcol_map_t *m, int tile, int key_cas);
/* The same for a set (one-word slots: no claim scheme to pick), and the
 * lanes that probe one key: 0 (worker_lanes), 1 or 2 (<= tile). */
gcol_status_t gcol_set_set_policy_for_testing(gcol_set_t *s, int tile, int lanes);
/* A set of GCOL_U128 keys with the claim of GPUs before sm_90 (key_cas 1:
 * the 16-byte CAS under a striped spin lock) on any GPU. */
gcol_status_t gcol_set_set_key_cas_for_testing(gcol_set_t *s, int key_cas);
/* Group insert_or_apply batches of at least min_batch inputs (and at least
 * GCOL_GROUPED_RATIO times the slots) with a shared table of smem_bytes
 * (0: never group), whatever the table's place and the scratch's cost, so
 * small tests reach the grouped kernels and their overflow into the map. */
gcol_status_t gcol_map_set_grouped_for_testing(gcol_map_t *m, size_t min_batch, size_t smem_bytes);
/* How many insert_or_apply calls on m ran grouped, and the scatter passes
 * (1 or 2) of the last one. */
size_t gcol_map_grouped_calls_for_testing(const gcol_map_t *m);
int gcol_map_grouped_passes_for_testing(const gcol_map_t *m);

/* Region order (map_policy.h) for every erase and every insert without
 * per-key outputs into a set, into 2^bits regions, whatever the batch,
 * the table and the scratch (bits 1..9; 0: never), so small tests reach
 * the reordering; and how many calls on the object went in region order. */
gcol_status_t gcol_map_set_region_for_testing(gcol_map_t *m, int bits);
gcol_status_t gcol_set_set_region_for_testing(gcol_set_t *s, int bits);
size_t gcol_map_region_calls_for_testing(const gcol_map_t *m);
size_t gcol_set_region_calls_for_testing(const gcol_set_t *s);
/* Lookups of m on its tile kernels with 1 or 2 keys in flight per tile (2:
 * tiles of an even width only; others keep 1); the bench_map sweep and its
 * test. */
gcol_status_t gcol_map_set_find_keys_for_testing(gcol_map_t *m, int keys);
/* The hooks act on one table at a time (core/test_hooks.h): the counters
 * above count for the table last given to a *_for_testing call, 0 for any
 * other. Watching a table hooks it without changing what it does. */
gcol_status_t gcol_map_watch_for_testing(gcol_map_t *m);
gcol_status_t gcol_set_watch_for_testing(gcol_set_t *s);

/* All ones in the low `bytes` bytes (4 or 8): the default empty sentinel.
 * Inline, so that the config defaults (map_config.c, libgcol only) and the
 * config checks (map_config_check.c, also in libgcol_nccl) need no file of
 * the other's for it. */
static inline uint64_t gcol_all_ones(size_t bytes) { return bytes == 4 ? 0xffffffffULL : ~0ULL; }

/* The slot-size rule of every open-addressing table, host side (the device
 * side: slot_of in gcol/device/detail/map_layout.cuh): value_bytes 0 (sets)
 * keeps keys only, 4 + 4 packs in 8 bytes, a 16-byte key with a value takes
 * 32, any other pair 16. */
size_t gcol_slot_bytes(size_t key_bytes, size_t value_bytes);
/* Bytes one lane reads: max(16, slot bytes); a bucket is tile chunks. */
size_t gcol_chunk_bytes(size_t key_bytes, size_t value_bytes);

/* Slots in one bucket of a table with this probing tile and pair
 * (value_bytes 0: keys only). */
size_t gcol_map_bucket_slots(int tile, size_t key_bytes, size_t value_bytes);

/* The smallest prime >= x (x < 2^31); 0 if none fits. */
uint32_t gcol_next_prime(uint32_t x);

/* Validate a config's values (host-side); GCOL_SUCCESS or
 * GCOL_ERROR_INVALID_ARGUMENT with a message naming the field. */
gcol_status_t gcol_map_config_check(const gcol_map_config_t *cfg);

/* gcol_map_config_check's rules for a table of value_bytes values (0: a
 * set: no value type or empty_value to check). cfg is not NULL. */
gcol_status_t gcol_oa_config_check(const gcol_map_config_t *cfg, size_t value_bytes);

/* A caller's config, of any size a 1.x header made (see GCOL_CONFIG_HEADER),
 * as this library's struct, checked. */
gcol_status_t gcol_map_config_take(const gcol_map_config_t *in, gcol_map_config_t *out);

/* sizeof(gcol_map_config_t) in gcol 1.0: the shortest struct accepted. */
#define GCOL_MAP_CONFIG_SIZE_1_0 ((size_t)112)

/* The max_load_factor range of growable maps. */
#define GCOL_MAP_MIN_GROW_LOAD 0.1
#define GCOL_MAP_MAX_GROW_LOAD 0.95

/* Keys a growable map of num_slots slots holds before it grows:
 * floor(max_load_factor * num_slots). */
size_t gcol_map_load_limit(size_t num_slots, double max_load_factor);

/* Growth sizing of a growable map (pure host arithmetic). used: non-empty
 * slots (live keys + tombstones); live: live keys; n: keys about to be
 * inserted. Returns 0 when used + n fits under the load limit, else the slot
 * count to rebuild the table with: num_slots itself when tombstones are
 * most of the excess (live + n <= limit / 2), else at least growth_factor
 * (0 means 2) times num_slots and enough for live + n at max_load_factor.
 * SIZE_MAX when no size_t fits. */
size_t gcol_map_growth_target(size_t num_slots, double max_load_factor, int growth_factor, size_t used, size_t live,
                              size_t n);

#ifdef __cplusplus
}
#endif
#endif
