/* Host-side multimap logic that needs no GPU: config defaults and checks,
 * and the sizes of every device array (the "plan"). */
#ifndef GCOL_SRC_MULTIMAP_MM_PLAN_H
#define GCOL_SRC_MULTIMAP_MM_PLAN_H

#include "gcol/gcol.h"
#include "tuning_mm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The open engine's tiles (GCOL_MM_TILE*) and block size: tuning_mm.h. */

/* The "no node" link of the chained engines. */
#define GCOL_MM_NIL 0xffffffffu

typedef struct {
  gcol_multimap_engine_t engine;
  int kb, vb;              /* key and value widths in bytes (vb 0: keys only) */
  int slot_bytes;          /* gcol_slot_bytes(kb, vb): 4, 8, 16 or 32 */
  int tile;                /* open addressing: probing tile */
  uint32_t num_buckets;    /* open addressing: prime bucket count; chained: heads */
  size_t capacity;         /* pairs the multimap holds at most */
  size_t table_bytes;      /* slots (open) or the node pool's pairs (chained), whole 16-byte chunks */
  size_t next_bytes;       /* chained: 4-byte links, one per node */
  size_t head_bytes;       /* chained: 4-byte heads, one per bucket */
  size_t lock_bytes;       /* GCOL_MULTIMAP_CHAINED: 4-byte locks, one per bucket */
} gcol_mm_plan_t;

/* A caller's config, of any size a 1.x header made, as this library's
 * struct (header and map config checked; see GCOL_CONFIG_HEADER). */
gcol_status_t gcol_multimap_config_take(const gcol_multimap_config_t *in, gcol_multimap_config_t *out);

/* Check a config and size its arrays; GCOL_SUCCESS or
 * GCOL_ERROR_INVALID_ARGUMENT with a message (also when an array would not
 * fit in size_t). keys_only: a multiset (vb 0; value_type and empty_value
 * are ignored). */
gcol_status_t gcol_mm_plan(const gcol_multimap_config_t *cfg, int keys_only, gcol_mm_plan_t *p);

#ifdef __cplusplus
}
#endif
#endif
