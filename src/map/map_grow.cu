/* Growth of a growable map.
 *
 * Why one table, rebuilt larger: a lookup then probes exactly one table with
 * the fixed map's kernels, so find, contains and retrieve_all keep fixed-map
 * speed, and erased slots are purged on the way. The alternative, a chain of
 * tables that finds would walk (old tables kept, new keys in the newest),
 * makes every miss probe every table and keeps tombstones forever. Rebuilding
 * costs one streaming pass over the old table per growth (amortized O(1)
 * per key; map_rebuild.cuh): the old table read once, the new one written
 * once. Peak memory is old + new table, 1.5x the new one when doubling.
 *
 * How much: growth_factor (2 by default, 4 or 8). With 100M i64 pairs
 * inserted in batches of 10M into 50M slots (H100, bench_map_growable), 2
 * reaches 5.50 G inserts/s (1.2.4): the inserts themselves (loads of 0.4
 * to 0.8) take 13.1 ms of the 16.8 ms that 6 G/s allows, and the two
 * rebuilds 4.9 ms (their streaming floor alone is 2.4 ms, and the 18M pairs
 * that sat past their first bucket are inserted again). A factor of 4 rebuilds once (50M
 * -> 200M slots) and then inserts at loads of 0.2 to 0.5: 7.33 G/s, same
 * final table, peak 1.25x.
 * The default stays 2 because 4 can leave up to twice the memory idle until
 * the table fills. Measured figures: bench/RESULTS.md.
 *
 * When: the host keeps an upper bound of the non-empty slots (the last exact
 * count plus n of every insert-type call since; none while a mutable device
 * view may be writing). Only when bound + n would
 * pass max_load_factor * slots does a call read the exact counts (one
 * synchronization) and, if the batch does not fit, rebuild with the size
 * gcol_map_growth_target picks. Tombstones count as used, so erase-heavy
 * workloads get rebuilt (purged) instead of probing ever longer. The table
 * a growth most likely needs is allocated before that synchronization
 * (early_table). */
#include "core/api_scope.h"
#include "core/device_alloc.h"
#include "map_object.h"

namespace gcol {
namespace detail {
namespace {

/* Exact live keys and non-empty slots (synchronizes s). */
gcol_status_t read_counts(const oa_object *m, size_t *live, size_t *used, cudaStream_t s) {
  if (m->may_have_tombstones) {
    GCOL_CUDA_TRY(cudaMemsetAsync(&m->t.state->scratch, 0, sizeof m->t.state->scratch, s));
    GCOL_CUDA_TRY(with_ops(m, [&](auto ops) { return ops.count_used(m->l, m->t, s); }));
  }
  map_state h;
  GCOL_TRY(map_state_read(m->t.state, &h, s));
  *live = (size_t)live_keys(&h);
  *used = m->may_have_tombstones ? (size_t)h.scratch : *live;
  return GCOL_SUCCESS;
}

/* The table the next growth most likely needs, allocated before read_counts
 * synchronizes the stream, so that the allocator's work overlaps the GPU
 * work still queued instead of leaving the GPU idle after the
 * synchronization (fresh pages for cudaMallocAsync's default pool cost
 * about 1.6 ms per GB on an H100: 100M u64 keys in 10 batches into a
 * growable set of 50M slots took 16.4 ms, now 14.3; docs/experiments.md). The size
 * is guessed from the bound, as if every key since the last exact count
 * were new. No guess while the last exact count found room (batches of
 * repeated keys keep the bound far above the truth, and would allocate for
 * nothing each time), nor with tombstones (a growth may be a purge) or
 * device writes (no bound). Optional: a refusal leaves the
 * allocation to the exact path, and a wrong guess is freed. */
table_t early_table(oa_object *m, size_t n, cudaStream_t s) {
  table_t none = {NULL, 0, 0, 0};
  if (m->last_count_kept || m->may_have_tombstones || m->device_writes) return none;
  size_t slots = gcol_map_growth_target(m->num_slots, m->cfg.max_load_factor, m->cfg.growth_factor, m->used_bound,
                                        m->used_bound, n);
  if (slots == 0 || slots == SIZE_MAX || slots == m->num_slots) return none;
  uint32_t nb = table_buckets(m, slots);
  if (nb == 0) return none;
  table_t nt = table_shape(m, nb);
  return gcol_device_try_alloc(&m->cfg.allocator, &nt.slots, nt.bytes, s) ? nt : none;
}

/* Rebuild the table with at least `capacity` slots, moving every live pair
 * (skipped when the caller knows the map is empty), into *early when it has
 * the size (table_create). Every allocation comes first: when one fails
 * the old table is untouched. The move consumes the old table, so
 * nothing may fail after it starts but a kernel launch. */
gcol_status_t rebuild(oa_object *m, size_t capacity, bool empty, table_t *early, cudaStream_t s) {
  nvtx_range r("gcol_map_grow");
  uint32_t nb = table_buckets(m, capacity);
  if (nb == 0) /* more buckets than the probe sequence addresses */
    return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "growing to %zu slots needs more than 2^31 buckets", capacity);
  table_t nt;
  GCOL_TRY(table_create(m, nb, empty, early, s, &nt));
  if (!empty) {
    table_ref to = m->t;
    to.slots = nt.slots;
    to.num_buckets = nt.num_buckets;
    to.capacity = nt.num_slots;
    /* the rehash recounts the live keys into size */
    cudaError_t e = cudaMemsetAsync(&m->t.state->size, 0, sizeof m->t.state->size, s);
    if (e == cudaSuccess) e = cudaMemsetAsync(m->t.state->stripe, 0, sizeof m->t.state->stripe, s);
    if (e == cudaSuccess) e = clear_pub_bits(m, nt.slots, nt.num_slots, s); /* stage_kernel sets the ones it needs */
    if (e == cudaSuccess) e = with_ops(m, [&](auto ops) { return ops.rehash(m->l, m->t, to, s); });
    if (e != cudaSuccess) {
      (void)map_free(m, nt.slots, nt.bytes, s);
      return gcol_from_cuda(e);
    }
  }
  m->may_have_tombstones = 0;
  m->device_writes = 0;
  return table_install(m, nt, s);
}

}  // namespace

gcol_status_t map_make_room(oa_object *m, size_t n, cudaStream_t s) {
  if (!m->cfg.growable) return GCOL_SUCCESS;
  size_t limit = gcol_map_load_limit(m->num_slots, m->cfg.max_load_factor);
  if (!m->device_writes && m->used_bound <= limit && n <= limit - m->used_bound) {
    m->used_bound += n;
    return GCOL_SUCCESS;
  }
  table_t early = early_table(m, n, s);
  size_t live = 0, used = 0, target = 0;
  gcol_status_t st = read_counts(m, &live, &used, s);
  if (st == GCOL_SUCCESS) {
    m->used_bound = used;
    target = gcol_map_growth_target(m->num_slots, m->cfg.max_load_factor, m->cfg.growth_factor, used, live, n);
    if (target == SIZE_MAX) {
      st = gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no table size holds %zu more keys", n);
    } else if (target) {
      st = rebuild(m, target, live == 0, &early, s);
      if (st == GCOL_SUCCESS) used = live;
    }
    m->last_count_kept = target == 0;
  }
  (void)map_free(m, early.slots, early.bytes, s); /* a wrong guess (NULL: none or taken) */
  GCOL_TRY(st);
  m->used_bound = used + n;
  return GCOL_SUCCESS;
}

gcol_status_t map_reserve_growable(oa_object *m, size_t keys, cudaStream_t s) {
  if (keys <= gcol_map_load_limit(m->num_slots, m->cfg.max_load_factor)) return GCOL_SUCCESS;
  size_t slots = gcol_map_growth_target(0, m->cfg.max_load_factor, m->cfg.growth_factor, 0, 0, keys);
  if (slots == SIZE_MAX) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no table size holds %zu keys", keys);
  /* live keys <= used_bound, which stays a bound after the rebuild */
  return rebuild(m, slots, m->used_bound == 0, NULL, s);
}

}  // namespace detail
}  // namespace gcol
