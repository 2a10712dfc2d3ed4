/* Run-time tuning of the open-addressing core: the policy rows (map_policy.c)
 * and how a GPU finds its row. What the kernels are compiled for (blocks,
 * tiles, lanes, the grouped kernels' shapes) is in tuning_oa.h; a row only
 * chooses among what is compiled there. */
#ifndef GCOL_SRC_MAP_MAP_POLICY_H
#define GCOL_SRC_MAP_MAP_POLICY_H

#include <stddef.h>
#include "gcol/gcol.h"
#include "tuning_oa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Table classes of the kernel-shape masks below. A bulk operation runs a
 * thread per key (no tile, no shuffles: the one thread reads the whole
 * bucket) when its table's class is in the row's mask; GCOL_OA_IN_L2 names
 * every table of 4- or 8-byte keys whose slots fit the L2 cache. Tables of
 * 16-byte keys always take tiles (not measured otherwise; their
 * thread-per-key kernels are not compiled). Why: tiles cost shuffles and
 * ballots per key, which bound lookups near 25 G/s wherever the table is
 * (H100, ncu: the memory pipes 90% busy, DRAM 20%); a thread per key
 * reaches 100 G/s on a table in L2. In DRAM, tiles keep the lead on 16-byte
 * slots (tuning_oa.h), and on inserts of new keys into u64 sets. */
enum { GCOL_OA_KEYS = 1, GCOL_OA_PAIR8 = 2, GCOL_OA_PAIR16 = 4, GCOL_OA_IN_L2 = 8 };

/* Ops whose large batches go in region order (tuning_oa.h says when). */
enum { GCOL_OA_REGION_ERASE = 1, GCOL_OA_REGION_INSERT4 = 2, GCOL_OA_REGION_INSERT8 = 4 };

/* What a row is matched against (gcol_gpu_props_of reads it from a device;
 * tests make their own). Two GPUs of one compute capability (H100 and H200,
 * both sm_90) differ in name, memory size or L2. */
typedef struct {
  int cc_major, cc_minor;
  char name[256];     /* cudaDeviceProp::name, "NVIDIA H100 80GB HBM3" */
  size_t l2_bytes;
  size_t mem_bytes;   /* global memory */
  int num_sms;
} gcol_gpu_props_t;

/* One row: which GPUs it is for, then what it chooses at run time. Every
 * choice must be compiled (tuning_oa.h: gcol_oa_tile_compiled for the
 * tiles; tests/test_tuning_host.c checks each row). */
typedef struct {
  /* -- match (gcol_map_policy_pick): all that are set must hold -- */
  int min_cc_major;          /* first compute capability major the row applies to */
  const char *name_contains; /* NULL: any GPU; else a part of the device's name ("H200") */
  size_t min_mem_bytes;      /* 0: any; else at least this much global memory */
  /* -- choices -- */
  int tile8;           /* probing tile (chunks) of maps with 8-byte slots */
  int tile16;          /* maps with 16-byte slots: large or growable tables */
  int tile16_in_l2;    /* maps with 16-byte slots: fixed tables that fit the L2 */
  int tile32;          /* maps with 16-byte keys (32-byte slots) */
  int tile_keys;       /* sets of 4- and 8-byte keys */
  int tile_keys16;     /* sets of 16-byte keys */
  int key_cas;         /* 16-byte slots: key CAS + value store instead of CAS128 */
  int solo_lookups;    /* classes whose find / contains run a thread per key */
  int solo_upserts;    /* classes whose insert family runs a thread per key */
  int grouped_smem;    /* shared-memory table of a grouped insert_or_apply (bytes; 0: never grouped;
                          at most GCOL_GROUPED_MAX_SMEM) */
  int region_ops;      /* GCOL_OA_REGION_* ops whose large batches go in region order */
  int solo_insert_div; /* a thread-per-key insert into a table larger than the L2 runs on
                          1 / solo_insert_div of a full grid (map_policy.c) */
  int lookup_keys;     /* keys a lookup tile of a map with 16-byte slots has in flight: 1, or 2
                          where tuning_oa.h compiles it (GCOL_OA_TWO_KEYS; 1 elsewhere) */
  const char *sweep;   /* the measurement that chose the row (a docs/experiments.md section) */
} gcol_map_policy_t;

/* The library's rows (map_policy.c) and their count. */
const gcol_map_policy_t *gcol_map_policy_rows(size_t *count);

/* The row of rows[0..n) for GPU g: the last row that matches it (rows go
 * from general to particular; rows[0] matches every GPU). */
gcol_map_policy_t gcol_map_policy_pick(const gcol_map_policy_t *rows, size_t n, const gcol_gpu_props_t *g);

/* The library's row for a GPU, and for a compute capability alone (a GPU
 * of unknown name: the default row of its architecture). */
gcol_map_policy_t gcol_map_policy_select(const gcol_gpu_props_t *g);
gcol_map_policy_t gcol_map_policy_for(int cc_major);

/* The properties of a device (read once per device, then cached). */
gcol_status_t gcol_gpu_props_of(int device, gcol_gpu_props_t *g);
/* The library's row for a device (by its properties). */
gcol_status_t gcol_map_policy_of_device(int device, gcol_map_policy_t *p);

/* Tile sizes test builds compile for every class (the sweeps'); a test's
 * override must pick one of these. */
int gcol_map_tile_supported(int tile);

/* Whether the shipped library compiles tile `tile` for tables of kb-byte
 * keys and vb-byte values (vb 0: a set): the instance table of tuning_oa.h. */
int gcol_oa_tile_compiled(int kb, int vb, int tile);

/* The tile of a new map (vb > 0) or set (vb == 0) with kb-byte keys:
 * capacity slots, growable or not, on a GPU whose L2 holds l2_bytes. */
int gcol_oa_tile(const gcol_map_policy_t *p, int kb, int vb, size_t capacity, int growable, size_t l2_bytes);

#ifdef __cplusplus
}
#endif
#endif
