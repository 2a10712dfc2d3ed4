/* Host side of the open-addressing core: what the map and the set both do
 * once their public call has checked its arguments (map.cu, set.cu). The
 * kernels come from oa_ops (map_ops.h), dispatched on the object's widths. */
#include <stdlib.h>
#include "core/api_scope.h"
#include "core/common.h"
#include "core/device_alloc.h"
#include "core/test_hooks.h"
#include "map_object.h"
#include "map_policy.h"

static_assert(sizeof(size_t) == sizeof(unsigned long long), "device counters are written as size_t");

namespace gcol {
namespace detail {

gcol_status_t oa_init(oa_object *o, uint32_t magic, const gcol_map_config_t &c, int vb, cudaStream_t s) {
  o->magic = magic; /* first: a failure below is cleaned up by destroy */
  o->cfg = c;
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  GCOL_TRY(gcol_device_l2_bytes(dev.device, &o->l.l2_bytes));
  gcol_map_policy_t p;
  GCOL_TRY(gcol_map_policy_of_device(dev.device, &p));
  o->kb = (int)gcol_type_size(c.key_type);
  o->vb = vb;
  o->t = table_ref_for(c, p.key_cas);
  /* Code without the 128-bit CAS (below sm_90, or older PTX JIT-compiled
   * for this GPU) claims 16-byte slots the pre-sm_90 way whatever the row
   * says; key_cas then gives its tables what that scheme needs (the
   * published bits of 8-byte-key pairs, map_tile.cuh) and tells views. */
  const int arch = with_widths(o->kb, vb, [](auto kb, auto vbc) {
    return oa_ops<decltype(kb)::value, decltype(vbc)::value>::code_arch();
  });
  o->needs_key_cas = p.key_cas || (arch != 0 && arch < 90); /* 0: unknown, the row decides */
  o->t.key_cas = o->needs_key_cas;
  o->l.tile = gcol_oa_tile(&p, o->kb, vb, c.capacity, c.growable, o->l.l2_bytes);
  o->l.num_sms = dev.num_sms;
  o->l.solo_lookups = p.solo_lookups;
  o->l.solo_upserts = p.solo_upserts;
  o->l.grouped_smem = (size_t)p.grouped_smem;
  o->l.grouped_min_batch = GCOL_GROUPED_MIN_BATCH;
  o->l.region_ops = p.region_ops;
  o->l.solo_insert_div = p.solo_insert_div;
  o->l.lookup_keys = p.lookup_keys;
  o->last = s;
  void *state = NULL;
  GCOL_TRY(map_alloc(o, &state, sizeof(map_state), s));
  o->t.state = (map_state *)state;
  return map_reset_table(o, s);
}

void oa_release(oa_object *o) {
  o->magic = 0;
#ifdef GCOL_TESTING /* a later table may get this state's memory: not hooked */
  if (gcol_oa_hooked(o->t.state)) gcol_test_hooks.oa = gcol_detail_oa_hooks_t{};
#endif
  /* nothing to report to: a failed free leaks */
  (void)map_free(o, o->t.slots, o->table_bytes, o->last);
  (void)map_free(o, o->t.state, sizeof(map_state), o->last);
}

gcol_status_t map_reset_table(oa_object *m, cudaStream_t s) {
  uint32_t nb = table_buckets(m, m->cfg.capacity);
  if (nb == 0) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "capacity %zu needs more than 2^31 buckets", m->cfg.capacity);
  table_t nt;
  GCOL_TRY(table_create(m, nb, true, NULL, s, &nt));
  GCOL_TRY(table_install(m, nt, s));
  m->used_bound = 0;
  m->may_have_tombstones = 0;
  m->device_writes = 0; /* views of the old table are void */
  GCOL_CUDA_TRY(cudaMemsetAsync(m->t.state, 0, sizeof(map_state), s));
  return GCOL_SUCCESS;
}

/* Whether `bytes` of scratch come without mapping new memory: from the
 * user's allocator (a caching pool, as PyTorch's or CuPy's), or from a
 * cudaMallocAsync pool that keeps at least that much between calls
 * (cudaMemPoolAttrReleaseThreshold). The default pool keeps nothing, and
 * mapping the scratch anew each call costs more than grouping saves (H100,
 * 100M i64 pairs onto 12.5M keys: 9.97 ms grouped so, 8.68 direct, 5.9
 * grouped with the memory kept). */
static bool scratch_is_cheap(const oa_object *o, size_t bytes) {
  if (o->cfg.allocator.alloc) return true;
  int dev = 0;
  cudaMemPool_t pool;
  unsigned long long keep = 0; /* cuuint64_t */
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetMemPool(&pool, dev) != cudaSuccess ||
      cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return keep >= bytes;
}

/* The scratch of plan g for n inputs: each pass's keys and values, then the
 * counters, 256-byte aligned. Carved from base, or only measured when base
 * is NULL; returns its bytes. */
static size_t grouped_layout(grouped_plan *g, size_t n, const oa_object *o, bool with_values, char *base) {
  size_t at = 0;
  auto carve = [&](size_t b) {
    void *r = base && b ? base + at : NULL;
    at += (b + 255) & ~(size_t)255;
    return r;
  };
  for (int i = 0; i < g->passes; ++i) {
    g->part_keys[i] = carve(n * o->kb);
    g->part_values[i] = carve(with_values ? n * o->vb : 0);
  }
  g->hist = (uint32_t *)carve(g->counters * sizeof(uint32_t));
  g->cursor = (uint32_t *)carve(g->counters * sizeof(uint32_t));
  g->items = (uint32_t *)carve(2 * (size_t)g->max_items * sizeof(uint32_t));
  g->num_items = (uint32_t *)carve(sizeof(uint32_t));
  return at;
}

/* The test hooks of the hooked table (core/test_hooks.h: oa), zeros for
 * every other; the shipped build (no GCOL_TESTING) folds them away. */
static gcol_detail_oa_hooks_t hooks_of(const oa_object *o) {
  return gcol_oa_hooked(o->t.state) ? GCOL_HOOKS.oa : gcol_detail_oa_hooks_t{};
}
/* Count a grouped (passes > 0) or region-ordered (passes 0) call of the
 * hooked table, in test builds. */
static void count_for_tests(const oa_object *o, int passes) {
#ifdef GCOL_TESTING
  if (!gcol_oa_hooked(o->t.state)) return;
  if (passes) ++gcol_test_hooks.oa.grouped_calls, gcol_test_hooks.oa.grouped_passes = passes;
  else ++gcol_test_hooks.oa.region_calls;
#else
  (void)o, (void)passes;
#endif
}

/* The shape of a grouped insert_or_apply of n inputs (map_grouped.cuh);
 * false when the batch is not grouped: too small for its table, a table
 * too large for 2^GCOL_GROUPED_MAX_PBITS partitions, 16-byte keys, 2^32
 * inputs (32-bit offsets), or scratch that is not cheap. */
static bool grouped_shape(const oa_object *o, size_t n, bool with_values, grouped_plan *g) {
  /* a shared slot: key, value, and its place in the list of claimed slots */
  const size_t slot_bytes = (size_t)o->kb + (size_t)o->vb + sizeof(uint16_t);
  if (o->kb == 16 || o->vb == 0 || n < o->l.grouped_min_batch || n / GCOL_GROUPED_RATIO < o->num_slots ||
      n >= ((size_t)1 << 32) || o->l.grouped_smem < 32 * slot_bytes)
    return false;
  /* a table in the L2 takes pairs faster as they are, but counts (no values
     to move) faster grouped (H100, 100M inputs onto 1M i64 keys: sums 3.28
     ms direct, 3.9 grouped; counts 2.93 direct, 2.0 grouped) */
  const bool always = hooks_of(o).grouped_always != 0;
  if (with_values && o->table_bytes <= o->l.l2_bytes && !always) return false;
  *g = grouped_plan{};
  /* whole 16-byte buckets of keys, and list places in 16 bits */
  const size_t fit = o->l.grouped_smem / slot_bytes;
  g->slots = (uint32_t)(fit < 65536 ? fit : 65536) & ~3u;
  g->smem_bytes = (size_t)g->slots * slot_bytes;
  /* a partition's share of the map's slots fits 1.25 shared tables, so its
     distinct keys fill about half of one in a map at load 0.4 (Python's
     sizing), and reach the map past 7/8 only in maps loaded past 0.7
     (H100, 10M keys, 25M map slots, 7K shared: 1.69 ms with 4096
     partitions, 2.20 with 2048) */
  int pbits = GCOL_GROUPED_MIN_PBITS;
  while (((size_t)g->slots << pbits) * 5 / 4 < o->num_slots) ++pbits;
  if (pbits > GCOL_GROUPED_MAX_PBITS) return false;
  if (pbits <= GCOL_GROUPED_ONE_PASS_BITS) {
    g->passes = 1, g->bits[0] = pbits;
    g->counters = 1u << pbits;
  } else {
    g->passes = 2, g->bits[0] = (pbits + 1) / 2, g->bits[1] = pbits;
    g->counters = (1u << g->bits[0]) + (1u << g->bits[1]);
  }
  /* the reduce's work items: a partition, or pieces of one past 4x the
     average, so that a key holding much of the batch is shared out (H100,
     100M i64 pairs, half on one key: 164 ms in one block; the direct path
     61) */
  const size_t parts = (size_t)1 << pbits, avg = (n + parts - 1) / parts;
  g->chunk = (uint32_t)(4 * avg > GCOL_GROUPED_MIN_CHUNK ? 4 * avg : GCOL_GROUPED_MIN_CHUNK);
  g->max_items = (uint32_t)(parts + n / g->chunk + 1);
  return always || scratch_is_cheap(o, grouped_layout(g, n, o, with_values, NULL));
}

/* f() with plan g's scratch for n inputs: one allocation carved by
 * grouped_layout, freed after; *st is the outcome. False when the scratch
 * cannot be had: nothing ran, *st untouched, and the caller goes without. */
template <class F>
static bool with_scratch(oa_object *o, grouped_plan &g, size_t n, bool with_values, cudaStream_t s, gcol_status_t *st,
                         F f) {
  const size_t bytes = grouped_layout(&g, n, o, with_values, NULL);
  void *temp = NULL;
  if (!gcol_device_try_alloc(&o->cfg.allocator, &temp, bytes, s)) return false;
  grouped_layout(&g, n, o, with_values, (char *)temp);
  cudaError_t e = f(), fr = map_free(o, temp, bytes, s);
  *st = gcol_from_cuda(e != cudaSuccess ? e : fr);
  return true;
}

/* insert_or_apply by grouped_shape's plan. *done is false when its scratch
 * could not be had (nothing ran: the caller takes the direct path). */
static gcol_status_t apply_grouped(oa_object *o, const void *keys, const void *values, size_t n, upsert_args a,
                                   bool *done, cudaStream_t s) {
  grouped_plan g;
  gcol_status_t st = GCOL_SUCCESS;
  *done = grouped_shape(o, n, values != NULL, &g) && with_scratch(o, g, n, values != NULL, s, &st, [&] {
    count_for_tests(o, g.passes);
    return with_ops(o, [&](auto ops) { return ops.apply_grouped(o->l, o->t, keys, values, n, a, g, s); });
  });
  return st;
}

/* Region order (tuning_oa.h) for a batch of n keys alone and the op class
 * (GCOL_OA_REGION_*): the plan; false when the batch goes as it is. */
static bool region_shape(const oa_object *o, size_t n, int op, grouped_plan *g) {
  if (o->kb == 16 || !(o->l.region_ops & op) || n >= ((size_t)1 << 32)) return false;
  int bits = hooks_of(o).region_bits;
  if (bits == 0) {
    if (n < GCOL_REGION_MIN_BATCH || n < o->num_slots / GCOL_REGION_BATCH_DIV || o->table_bytes <= o->l.l2_bytes)
      return false;
    const size_t region = o->l.l2_bytes / GCOL_REGION_L2_DIV;
    for (bits = 1; bits < GCOL_GROUPED_ONE_PASS_BITS && (region << bits) < o->table_bytes;) ++bits;
  }
  *g = grouped_plan{};
  g->passes = 1, g->bits[0] = bits, g->counters = 1u << bits;
  return true;
}

/* run(keys) for a batch of n keys alone: on a copy in region order when
 * region_shape says so and its scratch can be had, else on keys as they
 * are. The ops it serves give the same results in any order. */
template <class F>
static gcol_status_t with_region_order(oa_object *o, const void *keys, size_t n, int op, cudaStream_t s, F run) {
  grouped_plan g;
  gcol_status_t st = GCOL_SUCCESS;
  if (region_shape(o, n, op, &g) && with_scratch(o, g, n, false, s, &st, [&] {
        count_for_tests(o, 0);
        cudaError_t e = with_ops(o, [&](auto ops) { return ops.order_regions(o->l, o->t, keys, n, g, s); });
        return e == cudaSuccess ? run(g.part_keys[0]) : e;
      }))
    return st;
  return gcol_from_cuda(run(keys));
}

gcol_status_t oa_upsert(oa_object *o, const void *keys, const void *values, size_t n, upsert_args a,
                        void *values_out, uint8_t *inserted_out, size_t *d_count, cudaStream_t s) {
  o->last = s;
  if (d_count) GCOL_CUDA_TRY(cudaMemsetAsync(d_count, 0, sizeof *d_count, s));
  if (n == 0) return GCOL_SUCCESS;
  GCOL_TRY(map_make_room(o, n, s));
  if (a.mode == UPSERT_APPLY && !values_out && !inserted_out && !d_count) {
    bool done = false;
    gcol_status_t st = apply_grouped(o, keys, values, n, a, &done, s);
    if (done) return st;
  }
  auto run = [&](const void *k) {
    return with_ops(o, [&](auto ops) {
      return ops.upsert(o->l, o->t, k, values, n, a, values_out, inserted_out,
                        reinterpret_cast<unsigned long long *>(d_count), s);
    });
  };
  if (o->vb == 0 && a.mode == UPSERT_INSERT && !values_out && !inserted_out)
    return with_region_order(o, keys, n, o->kb == 4 ? GCOL_OA_REGION_INSERT4 : GCOL_OA_REGION_INSERT8, s, run);
  return gcol_from_cuda(run(keys));
}

/* Lookups record nothing in the object (const): see gcol_map_destroy. */
gcol_status_t oa_lookup(const oa_object *o, const void *keys, size_t n, void *out, bool contains, cudaStream_t s) {
  if (n == 0) return GCOL_SUCCESS;
  return gcol_from_cuda(with_ops(o, [&](auto ops) { return ops.find(o->l, o->t, keys, n, out, contains, s); }));
}

gcol_status_t oa_erase(oa_object *o, const void *keys, size_t n, size_t *d_count, cudaStream_t s) {
  o->last = s;
  if (d_count) GCOL_CUDA_TRY(cudaMemsetAsync(d_count, 0, sizeof *d_count, s));
  if (n == 0) return GCOL_SUCCESS;
  o->may_have_tombstones = 1;
  return with_region_order(o, keys, n, GCOL_OA_REGION_ERASE, s, [&](const void *k) {
    return with_ops(o, [&](auto ops) {
      return ops.erase(o->l, o->t, k, n, reinterpret_cast<unsigned long long *>(d_count), s);
    });
  });
}

gcol_status_t oa_retrieve_all(oa_object *o, void *keys_out, void *values_out, size_t *h_count, cudaStream_t s) {
  o->last = s;
  GCOL_CUDA_TRY(cudaMemsetAsync(&o->t.state->scratch, 0, sizeof o->t.state->scratch, s));
  const size_t chunks = (size_t)o->t.num_buckets * o->l.tile;
  GCOL_CUDA_TRY(with_ops(o, [&](auto ops) { return ops.retrieve(o->l, o->t, chunks, keys_out, values_out, s); }));
  map_state h;
  GCOL_TRY(map_state_read(o->t.state, &h, s));
  *h_count = (size_t)h.scratch;
  return map_state_take_latched(o->t.state, &h, s);
}

gcol_status_t oa_size(oa_object *o, size_t *h_size, cudaStream_t s) {
  o->last = s;
  map_state h;
  GCOL_TRY(map_state_read(o->t.state, &h, s));
  *h_size = (size_t)live_keys(&h);
  return map_state_take_latched(o->t.state, &h, s);
}

gcol_status_t oa_clear(oa_object *o, cudaStream_t s) {
  o->last = s;
  o->used_bound = 0;
  o->may_have_tombstones = 0;
  GCOL_CUDA_TRY(cudaMemsetAsync(o->t.state, 0, sizeof(map_state), s));
  GCOL_CUDA_TRY(clear_pub_bits(o, o->t.slots, o->num_slots, s));
  return gcol_from_cuda(with_ops(o, [&](auto ops) { return ops.fill(o->l, o->t, o->num_slots, s); }));
}

gcol_status_t oa_reserve(oa_object *o, size_t capacity, const char *noun, cudaStream_t s) {
  if (!o->cfg.growable) {
    if (capacity <= o->num_slots) return GCOL_SUCCESS;
    return gcol_fail(GCOL_ERROR_FULL, "capacity %zu is more than this fixed %s's %zu slots", capacity, noun,
                     o->num_slots);
  }
  o->last = s;
  return map_reserve_growable(o, capacity, s);
}

gcol_status_t oa_status(oa_object *o, cudaStream_t s) {
  o->last = s;
  map_state h;
  GCOL_TRY(map_state_read(o->t.state, &h, s));
  return map_state_take_latched(o->t.state, &h, s);
}

}  // namespace detail
}  // namespace gcol
