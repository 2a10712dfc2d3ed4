/* Internal interface between the host side of the open-addressing core
 * (map, set; the multiset's contains, the multimap's fill and
 * retrieve_all) and its kernels, instantiated once per key width x value
 * width (map_instance.cu; VB = 0: keys only). Each op is one dispatch
 * (dispatch_oa.cuh) that returns the launch's cudaError_t. */
#ifndef GCOL_SRC_MAP_MAP_OPS_H
#define GCOL_SRC_MAP_MAP_OPS_H

#include <cuda_runtime_api.h>
#include <type_traits>
#include "gcol/gcol.h"
#include "gcol/device/detail/map_tile.cuh"
#include "map_policy.h"

namespace gcol {
namespace detail {

/* The run-time choices of one table (from its policy row, map_policy.c);
 * block sizes and lanes are compile-time (tuning_oa.h). Test-only knobs are
 * hooks (core/test_hooks.h), not fields. */
struct launch_cfg {
  int tile;          /* one of the tiles compiled for the table's class */
  int num_sms;
  int solo_lookups;  /* table classes (GCOL_OA_*, map_policy.h) whose */
  int solo_upserts;  /* lookups / inserts run a thread per key; tests set 0 */
  size_t l2_bytes;   /* for GCOL_OA_IN_L2 */
  size_t grouped_smem;      /* insert_or_apply grouped in shared memory */
  size_t grouped_min_batch; /* (map_grouped.cuh): table bytes, least batch, */
  int region_ops;           /* GCOL_OA_REGION_* whose batches are ordered by region */
  int solo_insert_div;      /* policy: thread-per-key inserts into DRAM tables on 1/div of the grid */
  int lookup_keys;          /* policy: keys a lookup tile has in flight where two are compiled */
};

/* A grouped insert_or_apply's shape and scratch (map_grouped.cuh; planned
 * by oa_host.cu). Region order uses one pass of it, without work items. */
struct grouped_plan {
  int passes;        /* scatter passes: 1 or 2 */
  int bits[2];       /* partitions by the top bits[0] bits of the hash, then
                        (two passes) by the top bits[1]; 2^bits[passes - 1]
                        in the end */
  uint32_t counters; /* 2^bits[0] (+ 2^bits[1]): every pass's partitions */
  uint32_t slots;    /* keys of the reduce kernel's shared table */
  size_t smem_bytes; /* its shared memory */
  uint32_t chunk;     /* the most inputs of one work item of the reduce */
  uint32_t max_items; /* partitions + n / chunk: work items at most */
  void *part_keys[2], *part_values[2]; /* each pass's output (values: NULL when counting) */
  uint32_t *hist, *cursor;             /* counters each */
  uint32_t *items, *num_items;         /* 2 x max_items (begin, end), and 1 */
};

/* Whether the policy's mask (launch_cfg::solo_*) gives table t a thread per
 * key: by its class, or for fitting the L2. 16-byte keys: tiles (their
 * thread-per-key kernels are not compiled: oa_tuning::solo, tuning_oa.h). */
template <int SB>
inline bool solo_for(int mask, const launch_cfg &l, const table_ref &t) {
  if (sizeof(key_of<SB>) == 16) return false;
  int cls = layout<SB>::keys_only ? GCOL_OA_KEYS : SB == SLOT_PAIR8 ? GCOL_OA_PAIR8 : GCOL_OA_PAIR16;
  return (mask & cls) || ((mask & GCOL_OA_IN_L2) && t.capacity * layout<SB>::bytes <= l.l2_bytes);
}

/* The one dispatch from run-time widths to compiled ones: f(KB, VB) with
 * both as std::integral_constant<int, ..>; kb 4, 8 or 16 (GCOL_U128), vb 0
 * (keys only), 4 or 8. */
template <class F>
auto with_widths(int kb, int vb, F f) {
  using std::integral_constant;
  if (kb == 16) {
    if (vb == 0) return f(integral_constant<int, 16>(), integral_constant<int, 0>());
    if (vb == 4) return f(integral_constant<int, 16>(), integral_constant<int, 4>());
    return f(integral_constant<int, 16>(), integral_constant<int, 8>());
  }
  if (kb == 4) {
    if (vb == 0) return f(integral_constant<int, 4>(), integral_constant<int, 0>());
    if (vb == 4) return f(integral_constant<int, 4>(), integral_constant<int, 4>());
    return f(integral_constant<int, 4>(), integral_constant<int, 8>());
  }
  if (vb == 0) return f(integral_constant<int, 8>(), integral_constant<int, 0>());
  if (vb == 4) return f(integral_constant<int, 8>(), integral_constant<int, 4>());
  return f(integral_constant<int, 8>(), integral_constant<int, 8>());
}

template <int KB, int VB>
struct oa_ops {
  static cudaError_t upsert(const launch_cfg &l, const table_ref &t, const void *keys, const void *values,
                            size_t n, upsert_args a, void *values_out, uint8_t *inserted_out,
                            unsigned long long *d_count, cudaStream_t s);
  /* insert_or_apply through a shared-memory reduction (maps of 4- and
   * 8-byte keys; cudaErrorNotSupported for others). */
  static cudaError_t apply_grouped(const launch_cfg &l, const table_ref &t, const void *keys, const void *values,
                                   size_t n, upsert_args a, const grouped_plan &g, cudaStream_t s);
  /* Region order: keys (4 or 8 bytes) copied to g.part_keys[0], sorted by
   * the top g.bits[0] bits of their home bucket (one pass; g without work
   * items). cudaErrorNotSupported for 16-byte keys. */
  static cudaError_t order_regions(const launch_cfg &l, const table_ref &t, const void *keys, size_t n,
                                   const grouped_plan &g, cudaStream_t s);
  static cudaError_t find(const launch_cfg &l, const table_ref &t, const void *keys, size_t n, void *out,
                          bool contains, cudaStream_t s);
  /* contains on a multiset's open table (keys only, l.tile ==
   * GCOL_MULTISET_TILE): its own instance of the find kernels, whatever the
   * sets' tiles. cudaErrorNotSupported for VB > 0. */
  static cudaError_t multiset_contains(const launch_cfg &l, const table_ref &t, const void *keys, size_t n,
                                       uint8_t *found, cudaStream_t s);
  static cudaError_t erase(const launch_cfg &l, const table_ref &t, const void *keys, size_t n,
                           unsigned long long *d_count, cudaStream_t s);
  static cudaError_t fill(const launch_cfg &l, const table_ref &t, size_t num_slots, cudaStream_t s);
  /* Growth: every live pair of `from` into `to` (same tile, to.num_buckets >= 2),
   * adding them to to.state->size. `to` needs no fill; `from` is consumed. */
  static cudaError_t rehash(const launch_cfg &l, const table_ref &from, const table_ref &to, cudaStream_t s);
  /* Non-empty slots of t, added to t.state->scratch. */
  static cudaError_t count_used(const launch_cfg &l, const table_ref &t, cudaStream_t s);
  static cudaError_t retrieve(const launch_cfg &l, const table_ref &t, size_t num_chunks, void *keys_out,
                              void *values_out, cudaStream_t s);
  /* The virtual architecture (80, 90, ...) this pair's kernels run as on
   * the current device, 0 when it cannot be read: below 90 they have no
   * 128-bit CAS, whatever the GPU (a build without sm_90 code JIT-compiled
   * from older PTX). */
  static int code_arch();
};

/* What kernels need of a config (sentinels, seed) and of the claim scheme,
 * for the map and the multimap; the caller adds the table itself. */
inline table_ref table_ref_for(const gcol_map_config_t &c, int key_cas) {
  table_ref t = {};
  t.empty_key = c.empty_key;
  t.erased_key = c.erased_key;
  t.empty_value = c.empty_value;
  t.seed = c.seed;
  t.key_cas = key_cas;
  return t;
}

/* Host side of a table's state, for the map and the multimap (map.cu). */
/* Copy the device state d to *h (synchronizes s). */
gcol_status_t map_state_read(const map_state *d, map_state *h, cudaStream_t s);
/* Return and clear (on s) the error latched in h->flags, FULL before
 * RESERVED_KEY; GCOL_SUCCESS when none. */
gcol_status_t map_state_take_latched(map_state *d, const map_state *h, cudaStream_t s);

}  // namespace detail
}  // namespace gcol
#endif
