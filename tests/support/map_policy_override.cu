/* gcol_map_set_policy_for_testing: run a map with another probing tile or
 * claim scheme (tile sweeps, the pre-sm_90 scheme on sm_90), always on the
 * tile kernels (a table left to its policy runs a thread per key where the
 * policy says so: the default tests cover those kernels, the ones calling
 * these hooks the tile kernels). Test and bench builds only: the kernels of
 * other tiles exist only in libgcol_testing.a. */
#include "core/test_hooks.h"
#include "map/map_object.h"
#include "map/map_policy.h"

/* The hooks (core/test_hooks.h: oa) act on one table at a time: hooking
 * another starts over from zero. */
static gcol_detail_oa_hooks_t *hook(const gcol::detail::oa_object *o) {
  gcol_detail_oa_hooks_t *h = &gcol_test_hooks.oa;
  if (!gcol_oa_hooked(o->t.state)) {
    *h = gcol_detail_oa_hooks_t{};
    h->table = o->t.state;
  }
  return h;
}
/* The hooks of o if it is the hooked table, else NULL. */
static const gcol_detail_oa_hooks_t *hooked(const gcol::detail::oa_object *o) {
  return o && gcol_oa_hooked(o->t.state) ? &gcol_test_hooks.oa : NULL;
}

static gcol_status_t set_policy(gcol::detail::oa_object *m, int tile, int key_cas, int lanes) {
  if (!m || !gcol_map_tile_supported(tile) || lanes < 0 || lanes > 2 || lanes > tile) return GCOL_ERROR_INVALID_ARGUMENT;
  int old_tile = m->l.tile;
  m->l.tile = tile;
  m->l.solo_lookups = m->l.solo_upserts = 0;
  m->t.key_cas = key_cas || m->needs_key_cas; /* code without CAS128 claims the pre-sm_90 way anyway */
  gcol_status_t st = gcol::detail::map_reset_table(m, m->last);
  if (st != GCOL_SUCCESS) m->l.tile = old_tile;
  else if (lanes || hooked(m)) hook(m)->lanes = lanes; /* after the reset: the table's state is final */
  return st;
}

extern "C" gcol_status_t gcol_map_set_policy_for_testing(gcol_map_t *m, int tile, int key_cas) {
  return set_policy(m, tile, key_cas, 0);
}

extern "C" gcol_status_t gcol_set_set_policy_for_testing(gcol_set_t *s, int tile, int lanes) {
  return set_policy(s, tile, 0, lanes);
}

extern "C" gcol_status_t gcol_set_set_key_cas_for_testing(gcol_set_t *s, int key_cas) {
  if (!s) return GCOL_ERROR_INVALID_ARGUMENT;
  const gcol_detail_oa_hooks_t *h = hooked(s);
  return set_policy(s, s->l.tile, key_cas, h ? h->lanes : 0);
}

extern "C" gcol_status_t gcol_map_set_grouped_for_testing(gcol_map_t *m, size_t min_batch, size_t smem_bytes) {
  if (!m || smem_bytes > (96u << 10)) return GCOL_ERROR_INVALID_ARGUMENT;
  m->l.grouped_min_batch = min_batch;
  m->l.grouped_smem = smem_bytes;
  hook(m)->grouped_always = 1;
  return GCOL_SUCCESS;
}

static gcol_status_t set_region(gcol::detail::oa_object *o, int bits) {
  if (!o || bits < 0 || bits > GCOL_GROUPED_ONE_PASS_BITS) return GCOL_ERROR_INVALID_ARGUMENT;
  hook(o)->region_bits = bits;
  o->l.region_ops = bits ? GCOL_OA_REGION_ERASE | GCOL_OA_REGION_INSERT4 | GCOL_OA_REGION_INSERT8 : 0;
  return GCOL_SUCCESS;
}
extern "C" gcol_status_t gcol_map_set_region_for_testing(gcol_map_t *m, int bits) { return set_region(m, bits); }
extern "C" gcol_status_t gcol_set_set_region_for_testing(gcol_set_t *s, int bits) { return set_region(s, bits); }
extern "C" gcol_status_t gcol_map_set_find_keys_for_testing(gcol_map_t *m, int keys) {
  if (!m || keys < 1 || keys > 2) return GCOL_ERROR_INVALID_ARGUMENT;
  hook(m)->find_keys = keys;
  return GCOL_SUCCESS;
}

/* Hook a table without changing what it does: its counters start at zero. */
extern "C" gcol_status_t gcol_map_watch_for_testing(gcol_map_t *m) {
  if (!m) return GCOL_ERROR_INVALID_ARGUMENT;
  hook(m);
  return GCOL_SUCCESS;
}
extern "C" gcol_status_t gcol_set_watch_for_testing(gcol_set_t *s) {
  if (!s) return GCOL_ERROR_INVALID_ARGUMENT;
  hook(s);
  return GCOL_SUCCESS;
}

static size_t region_calls(const gcol::detail::oa_object *o) { return hooked(o) ? hooked(o)->region_calls : 0; }
extern "C" size_t gcol_map_region_calls_for_testing(const gcol_map_t *m) { return region_calls(m); }
extern "C" size_t gcol_set_region_calls_for_testing(const gcol_set_t *s) { return region_calls(s); }

extern "C" size_t gcol_map_grouped_calls_for_testing(const gcol_map_t *m) { return hooked(m) ? hooked(m)->grouped_calls : 0; }
extern "C" int gcol_map_grouped_passes_for_testing(const gcol_map_t *m) { return hooked(m) ? hooked(m)->grouped_passes : 0; }
