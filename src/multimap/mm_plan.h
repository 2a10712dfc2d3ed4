/* Host-side multimap logic that needs no GPU: config defaults and checks,
 * and the sizes of every device array (the "plan"). */
#ifndef GCOL_SRC_MULTIMAP_MM_PLAN_H
#define GCOL_SRC_MULTIMAP_MM_PLAN_H

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Probing tiles of the open-addressing engine, fixed at compile time to the
 * map's measured choice (src/map/map_policy.c: 2 lanes for 8-byte slots, 4
 * for 16-byte slots) so that each key/value pair instantiates one kernel
 * per operation. Not yet swept for duplicates: a key's copies fill its
 * bucket, so a larger tile may pay off; try it by building with
 * -DGCOL_MM_TILE16=8 in both CFLAGS and NVFLAGS (1, 2, 4, 8 or 16). */
#ifndef GCOL_MM_TILE8
#define GCOL_MM_TILE8 2
#endif
#ifndef GCOL_MM_TILE32 /* 16-byte keys with values: 32-byte slots, as the map's */
#define GCOL_MM_TILE32 2
#endif
#ifndef GCOL_MM_TILE16
#define GCOL_MM_TILE16 4
#endif

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
