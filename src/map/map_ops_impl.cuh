/* Dispatch layer of the map: picks the kernel instance for the tile size and
 * sizes the grid to fill the GPU once. No algorithm here. */
#ifndef GCOL_SRC_MAP_MAP_OPS_IMPL_CUH
#define GCOL_SRC_MAP_MAP_OPS_IMPL_CUH

#include "map_ops.h"
#include "map_kernels.cuh"
#include "map_grouped.cuh"
#include "map_rebuild.cuh"
#include "map_policy.h"
#include "core/grid_fill.cuh"

namespace gcol {
namespace detail {

/* The instantiation matrix: which kernels exist. A call goes
 *   with_widths (map_ops.h: kb x vb -> the oa_ops<KB, VB> of one object,
 *                map_instance_KB_VB.o, 9 pairs: the Makefile's PAIRS)
 *   -> with_tile (T: the tiles below) -> with_upsert_mode (upsert only)
 *   -> with_lanes (W: one value in the shipped build) -> one kernel.
 *
 * Tiles T compiled per pair in the shipped library (GCOL_OA_TILE and
 * GCOL_OA_TILE_ALT of map_policy.h; equal ones compile once):
 *   pair            slot        T       per-T kernels  per-pair kernels  total
 *   4_4             SLOT_PAIR8  2       13 + 1 reduce  3 + 3 region + 1  21
 *   4_8, 8_4, 8_8   SLOT_PAIR16 4, 2    13 + 1 reduce  3 + 3 region + 1  35 each
 *   4_0, 8_0        SLOT_KEY4/8 2, 4    13             3 + 3 region      32 each
 *   16_0            SLOT_KEY16  4       13             3                 16
 *   16_4, 16_8      SLOT_PAIR32 2       13             3                 16 each
 *   238 kernels per SASS target (scripts/kernel_count.py counts the whole
 *   library: these, the multimap's, and every other module's).
 * Per tile T (13):
 *   upsert: with_upsert_mode gives 4 (MODE, OUTPUTS): (INSERT, outputs),
 *     (INSERT, -), (ASSIGN, -), (APPLY, -); each has upsert_solo_kernel<T,
 *     KB, VB, MODE, OUTPUTS> and upsert_kernel<T, W, ...> with W =
 *     upsert_lanes<T, SB>: 8. (16-byte keys never run the solo kernels, as
 *     solo_for is false for them at run time, but they are compiled.)
 *   find / contains: find_solo_kernel<T, KB, VB>, find_kernel<T, W, KB, VB>
 *     with W = worker_lanes<T, true, SB>: 2.
 *   erase: erase_kernel<T, W, KB, VB>, W = worker_lanes<T, false, SB>: 1.
 *   growth (rehash): stage_kernel<T, KB, VB>, deferred_kernel<T, KB, VB>: 2.
 *   "+ 1 reduce": grouped_reduce_kernel<T, KB, VB> (apply_grouped; maps of
 *     4- and 8-byte keys only).
 * Per pair: fill_kernel<SB>, count_used_kernel<SB>, retrieve_kernel<KB, VB>
 *   (3, no tile); "3 region": grouped_histogram_kernel<KB>,
 *   grouped_starts_kernel<KB>, grouped_scatter_kernel<KB, 0> (order_regions,
 *   keys of 4 or 8 bytes, shared with apply_grouped's first steps); "+ 1":
 *   grouped_scatter_kernel<KB, VB> (apply_grouped's pairs).
 * Test and bench builds (GCOL_TESTING) compile T in {1, 2, 4, 8} for every
 * pair and, for keys-only pairs, W in {1, 2} as well (with_lanes), and for
 * the SLOT_PAIR16 pairs each tile kernel above also with KC 1 (with_key_cas:
 * the key-first claim forced on sm_90 by the test hook).
 * The multimap and multiset (mm_instance.cu, the same 9 pairs) add 7 per
 * pair: oa_insert_kernel, chain_insert_kernel, oa_count_solo_kernel and
 * query_kernel<E, KB, VB, WRITE> for both engines E and WRITE false / true;
 * a multiset's contains is oa_ops<KB, 0>::find on GCOL_MULTISET_TILE (the
 * ALT tile of the keys-only pairs above). */

/* Call f with the tile size as a compile-time constant (f(tile_c<T>())).
 * The shipped library compiles the two tiles its policy picks for the slot
 * size SB (GCOL_OA_TILE and GCOL_OA_TILE_ALT, map_policy.h); the test and
 * bench build (GCOL_TESTING) every tile the sweeps try. */
template <int T>
struct tile_c {
  static constexpr int value = T;
};
template <int SB, class F>
static cudaError_t with_tile(int tile, F f) {
#ifdef GCOL_TESTING
  switch (tile) {
    case 1: f(tile_c<1>()); break;
    case 2: f(tile_c<2>()); break;
    case 4: f(tile_c<4>()); break;
    case 8: f(tile_c<8>()); break;
    default: return cudaErrorInvalidValue;
  }
#else
  constexpr int T = GCOL_OA_TILE(layout<SB>::bytes, layout<SB>::keys_only);
  constexpr int ALT = GCOL_OA_TILE_ALT(layout<SB>::bytes, layout<SB>::keys_only);
  if (tile == T) f(tile_c<T>());
  else if (tile == ALT) f(tile_c<ALT>());
  else return cudaErrorInvalidValue;
#endif
  return cudaGetLastError();
}

/* f(tile_c<W>()) for the lanes that probe one key: W, or in test builds
 * for keys-only tables the sweep's 1 or 2 (l.lanes). */
template <int T, int SB, int W, class F>
static void with_lanes(int lanes, F f) {
#ifdef GCOL_TESTING
  if constexpr (layout<SB>::keys_only) {
    if (lanes == 1) return f(tile_c<1>());
    if constexpr (T >= 2)
      if (lanes == 2) return f(tile_c<2>());
  }
#endif
  (void)lanes;
  f(tile_c<W>());
}

/* f(MODE, OUTPUTS) as compile-time constants: the upsert kernel instance
 * of a call (insert_and_find's outputs only with UPSERT_INSERT). */
template <class F>
static void with_upsert_mode(const upsert_args &a, bool outputs, F f) {
  using std::integral_constant;
  if (outputs) return f(integral_constant<int, UPSERT_INSERT>(), std::true_type());
  if (a.mode == UPSERT_INSERT) return f(integral_constant<int, UPSERT_INSERT>(), std::false_type());
  if (a.mode == UPSERT_ASSIGN) return f(integral_constant<int, UPSERT_ASSIGN>(), std::false_type());
  f(integral_constant<int, UPSERT_APPLY>(), std::false_type());
}

/* f(tile_c<KC>()): the kernels of t's claim scheme. The shipped library
 * compiles KC 0 only: its sm_90 code claims 16-byte pairs with the 128-bit
 * CAS and carries no key-first code (map_layout.cuh, SLOT_PAIR16K), and its
 * tables have key_cas only where the code is older than sm_90 (oa_init),
 * which claims key first anyway. The test build also compiles KC 1 for
 * 8-byte-key pairs, which the key_cas hook selects on an sm_90 GPU. */
template <int SB, class F>
static void with_key_cas(const table_ref &t, F f) {
#ifdef GCOL_TESTING
  if constexpr (SB == SLOT_PAIR16)
    if (t.key_cas) return f(tile_c<1>());
#endif
  (void)t;
  f(tile_c<0>());
}

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::upsert(const launch_cfg &l, const table_ref &t, const void *keys,
                                    const void *values, size_t n, upsert_args a, void *values_out,
                                    uint8_t *inserted_out, unsigned long long *d_count, cudaStream_t s) {
  constexpr int SB = slot_of<KB, VB>();
  const bool one_thread = solo_for<SB>(l.solo_upserts, l, t);
  return with_tile<SB>(l.tile, [&](auto tc) {
    constexpr int T = decltype(tc)::value;
    with_key_cas<SB>(t, [&](auto kc) {
    constexpr int KC = decltype(kc)::value;
    with_upsert_mode(a, values_out || inserted_out, [&](auto mc, auto oc) {
      constexpr int MODE = decltype(mc)::value;
      constexpr bool OUTPUTS = decltype(oc)::value;
      if (one_thread) { /* inserts stride over a GPU-filling grid (a share of it for DRAM tables: the
                           policy's solo_insert_div); assign and apply take a thread per key */
        auto k = upsert_solo_kernel<T, KB, VB, MODE, OUTPUTS, KC>;
        const bool dram = t.capacity * layout<SB>::bytes > l.l2_bytes;
        unsigned grid = MODE == UPSERT_INSERT ? grid_fill(k, 256, l.num_sms, n, 0, dram ? l.solo_insert_div : 1)
                                              : grid_per_item(256, n);
        k<<<grid, 256, 0, s>>>(t, keys, values, n, a, values_out, inserted_out, d_count);
        return;
      }
      with_lanes<T, SB, upsert_lanes<T, SB>()>(l.lanes, [&](auto wc) {
        auto k = upsert_kernel<T, decltype(wc)::value, KB, VB, MODE, OUTPUTS, KC>;
        k<<<grid_fill(k, l.block_threads, l.num_sms, n), l.block_threads, 0, s>>>(t, keys, values, n, a, values_out,
                                                                                  inserted_out, d_count);
      });
    });
    });
  });
}

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
    cudaError_t w = with_tile<SB>(l.tile, [&](auto tc) {
      with_key_cas<SB>(t, [&](auto kc) {
        auto k = grouped_reduce_kernel<decltype(tc)::value, KB, VB, decltype(kc)::value>;
        if ((e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)g.smem_bytes)) !=
            cudaSuccess)
          return;
        unsigned grid = grid_fill(k, GCOL_GROUPED_REDUCE_BLOCK, l.num_sms,
                                  (size_t)g.max_items * GCOL_GROUPED_REDUCE_BLOCK, g.smem_bytes);
        k<<<grid, GCOL_GROUPED_REDUCE_BLOCK, g.smem_bytes, s>>>(t, in_keys, in_values, g.items, g.num_items, g.slots,
                                                                a);
      });
    });
    return e != cudaSuccess ? e : w; /* the reduce kernel did not run when its attribute failed */
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

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::find(const launch_cfg &l, const table_ref &t, const void *keys, size_t n,
                                  void *out, bool contains, cudaStream_t s) {
  constexpr int SB = slot_of<KB, VB>();
  return with_tile<SB>(l.tile, [&](auto tc) {
    constexpr int T = decltype(tc)::value;
    with_key_cas<SB>(t, [&](auto kc) {
      constexpr int KC = decltype(kc)::value;
      if (solo_for<SB>(l.solo_lookups, l, t)) { /* a thread per key */
        find_solo_kernel<T, KB, VB, KC><<<grid_per_item(256, n), 256, 0, s>>>(t, keys, n, out, contains);
        return;
      }
      with_lanes<T, SB, worker_lanes<T, true, SB>()>(l.lanes, [&](auto wc) {
        auto k = find_kernel<T, decltype(wc)::value, KB, VB, KC>;
        k<<<grid_fill(k, l.block_threads, l.num_sms, n), l.block_threads, 0, s>>>(t, keys, n, out, contains);
      });
    });
  });
}

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::erase(const launch_cfg &l, const table_ref &t, const void *keys, size_t n,
                                   unsigned long long *d_count, cudaStream_t s) {
  constexpr int SB = slot_of<KB, VB>();
  return with_tile<SB>(l.tile, [&](auto tc) {
    constexpr int T = decltype(tc)::value;
    with_key_cas<SB>(t, [&](auto kc) {
      with_lanes<T, SB, worker_lanes<T, false, SB>()>(l.lanes, [&](auto wc) {
        auto k = erase_kernel<T, decltype(wc)::value, KB, VB, decltype(kc)::value>;
        k<<<grid_fill(k, l.block_threads, l.num_sms, n), l.block_threads, 0, s>>>(t, keys, n, d_count);
      });
    });
  });
}

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::fill(const launch_cfg &l, const table_ref &t, size_t num_slots, cudaStream_t s) {
  auto k = fill_kernel<slot_of<KB, VB>()>;
  k<<<grid_fill(k, l.block_threads, l.num_sms, num_slots), l.block_threads, 0, s>>>(t, num_slots);
  return cudaGetLastError();
}

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::rehash(const launch_cfg &l, const table_ref &from, const table_ref &to,
                                    cudaStream_t s) {
  return with_tile<slot_of<KB, VB>()>(l.tile, [&](auto tc) {
    constexpr int T = decltype(tc)::value, SB = slot_of<KB, VB>();
    constexpr uint32_t seg = rebuild_shape<T, SB>::segment_buckets;
    uint32_t segments = (to.num_buckets + seg - 1) / seg, warps = GCOL_REBUILD_BLOCK / 32;
    with_key_cas<SB>(to, [&](auto kc) {
      constexpr int KC = decltype(kc)::value;
      stage_kernel<T, KB, VB, KC><<<segments, GCOL_REBUILD_BLOCK, 0, s>>>(from, to);
      if (cudaPeekAtLastError() == cudaSuccess)
        deferred_kernel<T, KB, VB, KC><<<(segments + warps - 1) / warps, GCOL_REBUILD_BLOCK, 0, s>>>(from, to, segments);
    });
  });
}

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::count_used(const launch_cfg &l, const table_ref &t, cudaStream_t s) {
  size_t n = (size_t)t.num_buckets * l.tile;
  auto k = count_used_kernel<slot_of<KB, VB>()>;
  k<<<grid_fill(k, l.block_threads, l.num_sms, n), l.block_threads, 0, s>>>(t, n);
  return cudaGetLastError();
}

template <int KB, int VB>
cudaError_t oa_ops<KB, VB>::retrieve(const launch_cfg &l, const table_ref &t, size_t num_chunks,
                                      void *keys_out, void *values_out, cudaStream_t s) {
  auto k = retrieve_kernel<KB, VB>;
  unsigned grid = grid_fill(k, GCOL_RETRIEVE_BLOCK, l.num_sms, (num_chunks + GCOL_RETRIEVE_ITEMS - 1) / GCOL_RETRIEVE_ITEMS);
  k<<<grid, GCOL_RETRIEVE_BLOCK, 0, s>>>(t, num_chunks, keys_out, values_out);
  return cudaGetLastError();
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
