/* Dispatch layer of the open-addressing core (model: CUB's
 * dispatch_select_if.cuh): one dispatch per operation, each turning the
 * run-time choices of a table (launch_cfg, from its policy row) into one
 * compiled kernel and returning the launch's cudaError_t. No algorithm here
 * and no tuning: block sizes, tiles and lanes come from tuning_oa.h
 * (oa_tuning), the choices from the policy rows (map_policy.c).
 *
 * The instantiation matrix: which kernels exist. A call goes
 *   with_widths (map_ops.h: kb x vb -> the oa_ops<KB, VB> of one object,
 *                map_instance_KB_VB.o, 9 pairs: the Makefile's PAIRS)
 *   -> the op's dispatch below: tile T (oa_tuning::tiles), then the op's
 *      own choices (thread per key or tiles; the upsert's mode; lanes W,
 *      one value per T in the shipped build) -> one kernel.
 * A choice with no compiled kernel returns cudaErrorInvalidValue (nothing
 * launched); tests/test_tuning_host.c checks that no policy row makes one.
 *
 * Tiles T compiled per pair in the shipped library (GCOL_OA_TILE and
 * GCOL_OA_TILE_ALT of tuning_oa.h; equal ones compile once):
 *   pair            slot        T       per-T kernels  per-pair kernels      total
 *   4_4             SLOT_PAIR8  2       13 + 1 reduce  3 + 3 region + 1      21
 *   4_8, 8_4, 8_8   SLOT_PAIR16 4, 2    13 + 1 reduce  3 + 3 region + 1      36 each
 *                               (+ 1 at T 4: find_kernel with two keys in flight)
 *   4_0, 8_0        SLOT_KEY4/8 2       13             3 + 3 region + 2 ms   21 each
 *   16_0            SLOT_KEY16  4       8              3 (+ 0 ms: the same)  11
 *   16_4, 16_8      SLOT_PAIR32 2       8              3                     11 each
 *   204 kernels per SASS target (238 before the multiset's contains had its
 *   own instance and the unreachable thread-per-key kernels of 16-byte keys
 *   went; scripts/kernel_count.py counts the whole library: these, the
 *   multimap's, and every other module's).
 * Per tile T (13; 8 for 16-byte keys, which have no thread-per-key kernels):
 *   upsert (dispatch_upsert): 4 (MODE, OUTPUTS): (INSERT, outputs),
 *     (INSERT, -), (ASSIGN, -), (APPLY, -); each has upsert_solo_kernel<T,
 *     KB, VB, MODE, OUTPUTS> (keys of 4 and 8 bytes) and upsert_kernel<T, W,
 *     ...> with W = upsert_lanes<T>: 8 (4).
 *   find / contains (dispatch_find): find_solo_kernel<T, KB, VB> (keys of 4
 *     and 8 bytes), find_kernel<T, W, KB, VB> with W = lookup_lanes<T>: 2 (1);
 *     where GCOL_OA_TWO_KEYS holds (SLOT_PAIR16 at GCOL_MAP_TILE16) also
 *     find_kernel<..., KEYS 2>, for the rows whose lookup_keys is 2 (pick_keys).
 *   erase (dispatch_erase): erase_kernel<T, W, KB, VB>, W = erase_lanes<T>: 1.
 *   growth (dispatch_rehash): stage_kernel<T, KB, VB>,
 *     deferred_kernel<T, KB, VB>: 2.
 *   "+ 1 reduce": grouped_reduce_kernel<T, KB, VB> (dispatch_apply_grouped;
 *     maps of 4- and 8-byte keys only).
 * Per pair: fill_kernel<SB>, count_used_kernel<SB>, retrieve_kernel<KB, VB>
 *   (3, no tile); "3 region": grouped_histogram_kernel<KB>,
 *   grouped_starts_kernel<KB>, grouped_scatter_kernel<KB, 0> (order_regions,
 *   keys of 4 or 8 bytes, shared with apply_grouped's first steps); "+ 1":
 *   grouped_scatter_kernel<KB, VB> (apply_grouped's pairs); "ms": the
 *   multiset's contains (oa_ops::multiset_contains), find_solo_kernel and
 *   find_kernel at GCOL_MULTISET_TILE (4), its own instance: the sets' tiles
 *   do not decide what a multiset can launch. (For 16-byte keys the
 *   multiset's tile is the set's, so its find_kernel is the set's.)
 * Test and bench builds (GCOL_TESTING) compile T in {1, 2, 4, 8} for every
 * pair and, for keys-only pairs, W in {1, 2} as well (pick_lanes), and for
 * the SLOT_PAIR16 pairs each tile kernel above also with KC 1 (pick_key_cas:
 * the key-first claim forced on sm_90 by the test hook).
 * The multimap and multiset (mm_instance.cu, the same 9 pairs) add 7 per
 * pair: oa_insert_kernel, chain_insert_kernel, oa_count_solo_kernel and
 * query_kernel<E, KB, VB, WRITE> for both engines E and WRITE false / true. */
#ifndef GCOL_SRC_MAP_DISPATCH_OA_CUH
#define GCOL_SRC_MAP_DISPATCH_OA_CUH

#include <utility>
#include "map_ops.h"
#include "map_kernels.cuh"
#include "map_grouped.cuh"
#include "map_rebuild.cuh"
#include "map_policy.h"
#include "tuning_oa.h"
#include "core/grid_fill.cuh"
#include "core/test_hooks.h"

namespace gcol {
namespace detail {

/* A compile-time int as a value (f(tile_c<T>())). */
template <int T>
struct tile_c {
  static constexpr int value = T;
};

/* f(tile_c<T>()) for the compiled tile T == tile; cudaErrorInvalidValue
 * (nothing launched) when no tile of the list is. */
template <int... Ts, class F>
static cudaError_t pick_tile(tile_list<Ts...>, int tile, F &&f) {
  cudaError_t e = cudaErrorInvalidValue;
  (void)((tile == Ts && ((e = f(tile_c<Ts>())), true)) || ...);
  return e;
}

/* f(tile_c<W>()) for the lanes that probe one key of t: W (the tuning's), or
 * in test builds for a hooked keys-only table the sweep's 1 or 2
 * (gcol_test_hooks.oa.lanes). */
template <int T, bool KEYS_ONLY, int W, class F>
static cudaError_t pick_lanes(const table_ref &t, F &&f) {
#ifdef GCOL_TESTING
  if constexpr (KEYS_ONLY) {
    const int lanes = gcol_oa_hooked(t.state) ? gcol_test_hooks.oa.lanes : 0;
    if (lanes == 1) return f(tile_c<1>());
    if constexpr (T >= 2)
      if (lanes == 2) return f(tile_c<2>());
  }
#endif
  (void)t;
  return f(tile_c<W>());
}

/* f(tile_c<K>()) for the keys a lookup tile has in flight: the row's
 * lookup_keys where ROW (the tuning's row_two_keys<T>: the classes it
 * applies to), else 1; in test builds the sweep's 1 or 2 for a hooked table
 * (gcol_test_hooks.oa.find_keys). 2 only where TWO says such a kernel is
 * compiled (two_keys<T>, lanes W even). */
template <bool ROW, bool TWO, class F>
static cudaError_t pick_keys(const launch_cfg &l, const table_ref &t, F &&f) {
  int keys = ROW ? l.lookup_keys : 1;
#ifdef GCOL_TESTING
  if (gcol_oa_hooked(t.state) && gcol_test_hooks.oa.find_keys) keys = gcol_test_hooks.oa.find_keys;
#endif
  (void)t;
  if constexpr (TWO)
    if (keys == 2) return f(tile_c<2>());
  return f(tile_c<1>());
}

/* f(tile_c<KC>()): the kernels of t's claim scheme. The shipped library
 * compiles KC 0 only: its sm_90 code claims 16-byte pairs with the 128-bit
 * CAS and carries no key-first code (map_layout.cuh, SLOT_PAIR16K), and its
 * tables have key_cas only where the code is older than sm_90 (oa_init),
 * which claims key first anyway. The test build also compiles KC 1 for
 * 8-byte-key pairs, which the key_cas hook selects on an sm_90 GPU. */
template <int SB, class F>
static cudaError_t pick_key_cas(const table_ref &t, F &&f) {
#ifdef GCOL_TESTING
  if constexpr (SB == SLOT_PAIR16)
    if (t.key_cas) return f(tile_c<1>());
#endif
  (void)t;
  return f(tile_c<0>());
}

/* One launch and its error. */
template <class... P, class... A>
static cudaError_t launch(void (*k)(P...), unsigned grid, unsigned block, size_t smem, cudaStream_t s, A &&...a) {
  k<<<grid, block, smem, s>>>(std::forward<A>(a)...);
  return cudaGetLastError();
}

/* The tuning of slot kind SB. */
template <int SB>
using oa_tuning_of = oa_tuning<layout<SB>::bytes, layout<SB>::keys_only>;

/* ---- insert family ---------------------------------------------------------- */
template <int KB, int VB>
struct dispatch_upsert {
  static constexpr int SB = slot_of<KB, VB>();
  typedef oa_tuning_of<SB> tuning;
  const launch_cfg &l;
  const table_ref &t;
  const void *keys, *values;
  size_t n;
  upsert_args a;
  void *values_out;
  uint8_t *inserted_out;
  unsigned long long *d_count;
  cudaStream_t s;

  /* a thread per key: inserts stride over a GPU-filling grid (a share of it
     for DRAM tables: the policy's solo_insert_div); assign and apply take a
     thread per key */
  template <int T, int MODE, bool OUTPUTS, int KC>
  cudaError_t solo() const {
    auto k = upsert_solo_kernel<T, KB, VB, MODE, OUTPUTS, KC>;
    const bool dram = t.capacity * layout<SB>::bytes > l.l2_bytes;
    const unsigned grid = MODE == UPSERT_INSERT
                              ? grid_fill(k, tuning::block, l.num_sms, n, 0, dram ? l.solo_insert_div : 1)
                              : grid_per_item(tuning::block, n);
    return launch(k, grid, tuning::block, 0, s, t, keys, values, n, a, values_out, inserted_out, d_count);
  }
  template <int T, int MODE, bool OUTPUTS, int KC>
  cudaError_t shape() const {
    if constexpr (tuning::solo)
      if (solo_for<SB>(l.solo_upserts, l, t)) return solo<T, MODE, OUTPUTS, KC>();
    return pick_lanes<T, layout<SB>::keys_only, tuning::template upsert_lanes<T>()>(t, [&](auto wc) {
      auto k = upsert_kernel<T, decltype(wc)::value, KB, VB, MODE, OUTPUTS, KC>;
      return launch(k, grid_fill(k, tuning::block, l.num_sms, n, 0, 1, GCOL_UPSERT_WAVES), tuning::block, 0, s, t,
                    keys, values, n, a, values_out, inserted_out, d_count);
    });
  }
  /* the mode as a compile-time constant (insert_and_find's outputs only with INSERT) */
  template <int T, int KC>
  cudaError_t mode() const {
    if (values_out || inserted_out) return shape<T, UPSERT_INSERT, true, KC>();
    if (a.mode == UPSERT_INSERT) return shape<T, UPSERT_INSERT, false, KC>();
    if (a.mode == UPSERT_ASSIGN) return shape<T, UPSERT_ASSIGN, false, KC>();
    return shape<T, UPSERT_APPLY, false, KC>();
  }
  cudaError_t operator()() const {
    return pick_tile(typename tuning::tiles(), l.tile, [&](auto tc) {
      return pick_key_cas<SB>(t, [&](auto kc) { return this->template mode<decltype(tc)::value, decltype(kc)::value>(); });
    });
  }
};

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::upsert(const launch_cfg &l, const table_ref &t, const void *keys, const void *values,
                                    size_t n, upsert_args a, void *values_out, uint8_t *inserted_out,
                                    unsigned long long *d_count, cudaStream_t s) {
  return dispatch_upsert<KB, VB>{l, t, keys, values, n, a, values_out, inserted_out, d_count, s}();
}

/* ---- grouped insert_or_apply and region order ------------------------------- */

/* Steps 1-3 of map_grouped.cuh: keys (and values, when not NULL) copied to
 * plan g's partitions by the hash bits below `top` (grouped_part);
 * *out_keys / *out_values: the last pass's arrays. VB 0: keys alone. */
template <int KB, int VB>
static cudaError_t partition_batch(const launch_cfg &l, const table_ref &t, const void *keys, const void *values,
                                   size_t n, const grouped_plan &g, int top, const void **out_keys,
                                   const void **out_values, cudaStream_t s) {
  const int *bits = g.bits;
  const uint32_t first = 1u << bits[0];
  const size_t hist_bytes = g.counters * sizeof(uint32_t);
  cudaError_t e = cudaMemsetAsync(g.hist, 0, hist_bytes, s);
  if (e != cudaSuccess) return e;
  const int bits1 = g.passes == 2 ? bits[1] : 0; /* the kernels' "no second pass" */
  auto hk = grouped_histogram_kernel<KB>;
  hk<<<grid_fill(hk, GCOL_GROUPED_BLOCK, l.num_sms, n, hist_bytes), GCOL_GROUPED_BLOCK, hist_bytes, s>>>(
      t, keys, n, bits[0], bits1, top, g.hist);
  grouped_starts_kernel<KB><<<1, GCOL_GROUPED_BLOCK, 0, s>>>(g.hist, bits[0], bits1, g.cursor, g.chunk, g.items,
                                                            g.num_items);
  const void *in_keys = keys, *in_values = values;
  auto sk = grouped_scatter_kernel<KB, VB>;
  for (int pass = 0; pass < g.passes; ++pass) {
    const size_t smem = grouped_scatter_smem<KB, VB>(bits[pass]);
    if ((e = cudaFuncSetAttribute(sk, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem)) != cudaSuccess)
      return e;
    void *out_vals = values ? g.part_values[pass] : NULL;
    const size_t tiles = (n + GCOL_GROUPED_BLOCK * GCOL_GROUPED_ITEMS - 1) / (GCOL_GROUPED_BLOCK * GCOL_GROUPED_ITEMS);
    sk<<<grid_fill(sk, GCOL_GROUPED_BLOCK, l.num_sms, tiles * GCOL_GROUPED_BLOCK, smem), GCOL_GROUPED_BLOCK, smem, s>>>(
        t, in_keys, in_values, n, bits[pass], pass ? bits[1] - bits[0] : 0, top, g.cursor + (pass ? first : 0),
        g.part_keys[pass], out_vals);
    in_keys = g.part_keys[pass], in_values = out_vals;
  }
  *out_keys = in_keys, *out_values = in_values;
  return cudaPeekAtLastError();
}

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::apply_grouped(const launch_cfg &l, const table_ref &t, const void *keys,
                                           const void *values, size_t n, upsert_args a, const grouped_plan &g,
                                           cudaStream_t s) {
  if constexpr (KB == 16 || VB == 0) {
    return cudaErrorNotSupported;
  } else {
    constexpr int SB = slot_of<KB, VB>();
    const void *in_keys = NULL, *in_values = NULL;
    cudaError_t e = partition_batch<KB, VB>(l, t, keys, values, n, g, 64, &in_keys, &in_values, s);
    if (e != cudaSuccess) return e;
    return pick_tile(typename oa_tuning_of<SB>::tiles(), l.tile, [&](auto tc) {
      return pick_key_cas<SB>(t, [&](auto kc) {
        auto k = grouped_reduce_kernel<decltype(tc)::value, KB, VB, decltype(kc)::value>;
        cudaError_t x = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)g.smem_bytes);
        if (x != cudaSuccess) return x; /* the reduce kernel does not run */
        const unsigned grid = grid_fill(k, GCOL_GROUPED_REDUCE_BLOCK, l.num_sms,
                                        (size_t)g.max_items * GCOL_GROUPED_REDUCE_BLOCK, g.smem_bytes);
        return launch(k, grid, GCOL_GROUPED_REDUCE_BLOCK, g.smem_bytes, s, t, in_keys, in_values, g.items,
                      g.num_items, g.slots, a);
      });
    });
  }
}

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::order_regions(const launch_cfg &l, const table_ref &t, const void *keys, size_t n,
                                           const grouped_plan &g, cudaStream_t s) {
  if constexpr (KB == 16) {
    return cudaErrorNotSupported;
  } else {
    const void *out_keys = NULL, *out_values = NULL;
    return partition_batch<KB, 0>(l, t, keys, NULL, n, g, 32, &out_keys, &out_values, s);
  }
}

/* ---- find / contains -------------------------------------------------------- */
/* Tiles: the tile list to pick l.tile from (the class's, or the multiset's). */
template <int KB, int VB, class Tiles>
struct dispatch_find {
  static constexpr int SB = slot_of<KB, VB>();
  typedef oa_tuning_of<SB> tuning;
  const launch_cfg &l;
  const table_ref &t;
  const void *keys;
  size_t n;
  void *out;
  bool contains;
  cudaStream_t s;

  template <int T, int KC>
  cudaError_t shape() const {
    if constexpr (tuning::solo)
      if (solo_for<SB>(l.solo_lookups, l, t)) /* a thread per key */
        return launch(find_solo_kernel<T, KB, VB, KC>, grid_per_item(tuning::block, n), tuning::block, 0, s, t,
                      keys, n, out, contains);
    return pick_lanes<T, layout<SB>::keys_only, tuning::template lookup_lanes<T>()>(t, [&](auto wc) {
      constexpr int W = decltype(wc)::value;
      constexpr bool row = tuning::template row_two_keys<T>() && W == tuning::template lookup_lanes<T>();
      return pick_keys<row, tuning::template two_keys<T>() && W % 2 == 0>(l, t, [&](auto kc) {
        auto k = find_kernel<T, W, KB, VB, KC, decltype(kc)::value>;
        return launch(k, grid_fill(k, tuning::block, l.num_sms, n), tuning::block, 0, s, t, keys, n, out, contains);
      });
    });
  }
  cudaError_t operator()() const {
    return pick_tile(Tiles(), l.tile, [&](auto tc) {
      return pick_key_cas<SB>(t, [&](auto kc) { return this->template shape<decltype(tc)::value, decltype(kc)::value>(); });
    });
  }
};

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::find(const launch_cfg &l, const table_ref &t, const void *keys, size_t n, void *out,
                                  bool contains, cudaStream_t s) {
  typedef typename oa_tuning_of<slot_of<KB, VB>()>::tiles tiles;
  return dispatch_find<KB, VB, tiles>{l, t, keys, n, out, contains, s}();
}

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::multiset_contains(const launch_cfg &l, const table_ref &t, const void *keys, size_t n,
                                               uint8_t *found, cudaStream_t s) {
  if constexpr (VB != 0) {
    return cudaErrorNotSupported;
  } else {
    typedef typename oa_tuning_of<slot_of<KB, VB>()>::multiset_tiles tiles;
    return dispatch_find<KB, VB, tiles>{l, t, keys, n, found, true, s}();
  }
}

/* ---- erase -------------------------------------------------------------------- */
template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::erase(const launch_cfg &l, const table_ref &t, const void *keys, size_t n,
                                   unsigned long long *d_count, cudaStream_t s) {
  constexpr int SB = slot_of<KB, VB>();
  typedef oa_tuning_of<SB> tuning;
  return pick_tile(typename tuning::tiles(), l.tile, [&](auto tc) {
    constexpr int T = decltype(tc)::value;
    return pick_key_cas<SB>(t, [&](auto kc) {
      return pick_lanes<T, layout<SB>::keys_only, tuning::template erase_lanes<T>()>(t, [&](auto wc) {
        auto k = erase_kernel<T, decltype(wc)::value, KB, VB, decltype(kc)::value>;
        return launch(k, grid_fill(k, tuning::block, l.num_sms, n), tuning::block, 0, s, t, keys, n, d_count);
      });
    });
  });
}

/* ---- growth ------------------------------------------------------------------- */
template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::rehash(const launch_cfg &l, const table_ref &from, const table_ref &to,
                                    cudaStream_t s) {
  constexpr int SB = slot_of<KB, VB>();
  return pick_tile(typename oa_tuning_of<SB>::tiles(), l.tile, [&](auto tc) {
    constexpr int T = decltype(tc)::value;
    constexpr uint32_t seg = rebuild_shape<T, SB>::segment_buckets;
    const uint32_t segments = (to.num_buckets + seg - 1) / seg, warps = GCOL_REBUILD_BLOCK / 32;
    return pick_key_cas<SB>(to, [&](auto kc) {
      constexpr int KC = decltype(kc)::value;
      cudaError_t e = launch(stage_kernel<T, KB, VB, KC>, segments, GCOL_REBUILD_BLOCK, 0, s, from, to);
      if (e != cudaSuccess) return e;
      return launch(deferred_kernel<T, KB, VB, KC>, (segments + warps - 1) / warps, GCOL_REBUILD_BLOCK, 0, s, from,
                    to, segments);
    });
  });
}

/* ---- whole-table kernels (no tile) ---------------------------------------------- */
template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::fill(const launch_cfg &l, const table_ref &t, size_t num_slots, cudaStream_t s) {
  auto k = fill_kernel<slot_of<KB, VB>()>;
  return launch(k, grid_fill(k, GCOL_OA_BLOCK, l.num_sms, num_slots), GCOL_OA_BLOCK, 0, s, t, num_slots);
}

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::count_used(const launch_cfg &l, const table_ref &t, cudaStream_t s) {
  const size_t n = (size_t)t.num_buckets * l.tile;
  auto k = count_used_kernel<slot_of<KB, VB>()>;
  return launch(k, grid_fill(k, GCOL_OA_BLOCK, l.num_sms, n), GCOL_OA_BLOCK, 0, s, t, n);
}

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::retrieve(const launch_cfg &l, const table_ref &t, size_t num_chunks, void *keys_out,
                                      void *values_out, cudaStream_t s) {
  auto k = retrieve_kernel<KB, VB>;
  const unsigned grid =
      grid_fill(k, GCOL_RETRIEVE_BLOCK, l.num_sms, (num_chunks + GCOL_RETRIEVE_ITEMS - 1) / GCOL_RETRIEVE_ITEMS);
  return launch(k, grid, GCOL_RETRIEVE_BLOCK, 0, s, t, num_chunks, keys_out, values_out);
}

template <int KB, int VB>
int oa_ops<KB, VB>::code_arch() {
  cudaFuncAttributes a;
  if (cudaFuncGetAttributes(&a, fill_kernel<slot_of<KB, VB>()>) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return a.ptxVersion;
}

}  // namespace detail
}  // namespace gcol
#endif
