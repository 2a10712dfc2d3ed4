/* Dispatch of the multimap's kernels for one key width x value width: picks
 * the engine's kernel and sizes the grid to fill the GPU once. The Makefile
 * compiles this file once per pair with -DGCOL_KB=.. -DGCOL_VB=.. */
#include "mm_kernels.cuh"
#include "mm_ops.h"
#include "core/grid_fill.cuh"
#include "core/test_hooks.h"

#if !defined(GCOL_KB) || !defined(GCOL_VB)
#error "compile with -DGCOL_KB=4|8 -DGCOL_VB=4|8"
#endif

namespace gcol {
namespace detail {

static constexpr int MM_BLOCK = GCOL_MM_BLOCK; /* tuning_mm.h */

template <int KB, int VB>
cudaError_t mm_ops<KB, VB>::insert(int num_sms, const mm_ref &r, const void *keys, const void *values, size_t n,
                                   unsigned long long *d_count, cudaStream_t s) {
  if (r.chained) {
    auto k = chain_insert_kernel<KB, VB>;
    k<<<grid_fill(k, MM_BLOCK, num_sms, n), MM_BLOCK, 0, s>>>(r.t, r.next, r.heads, r.locks, keys, values, n, d_count);
  } else {
    auto k = oa_insert_kernel<KB, VB>;
#ifdef GCOL_TESTING /* the sweep's lanes (1, 2 or 4, at most the bucket's chunks) */
    constexpr int T = oa_engine<slot_of<KB, VB>()>::T;
    const int lanes = GCOL_HOOKS.mm_insert_lanes;
    if (lanes == 1) k = oa_insert_kernel<KB, VB, 1>;
    if constexpr (T >= 2)
      if (lanes == 2) k = oa_insert_kernel<KB, VB, 2>;
    if constexpr (T >= 4)
      if (lanes == 4) k = oa_insert_kernel<KB, VB, 4>;
#endif
    k<<<grid_fill(k, MM_BLOCK, num_sms, n), MM_BLOCK, 0, s>>>(r.t, keys, values, n, d_count);
  }
  return cudaGetLastError();
}

template <class E, int KB, int VB>
static void launch_query(int num_sms, const E &e, const void *keys, size_t n, const mm_query_out &o, bool write,
                         cudaStream_t s) {
  auto k = write ? query_kernel<E, KB, VB, true> : query_kernel<E, KB, VB, false>;
  k<<<grid_fill(k, MM_BLOCK, num_sms, n), MM_BLOCK, 0, s>>>(e, keys, n, o);
}

template <int KB, int VB>
cudaError_t mm_ops<KB, VB>::query(const launch_cfg &l, const mm_ref &r, const void *keys, size_t n,
                                  const mm_query_out &o, bool write, cudaStream_t s) {
  constexpr int SB = slot_of<KB, VB>();
  if (r.chained) launch_query<chain_engine<SB>, KB, VB>(l.num_sms, {r.t, r.next, r.heads}, keys, n, o, write, s);
  else if (!write && solo_for<SB>(l.solo_lookups, l, r.t))
    oa_count_solo_kernel<KB, VB><<<grid_per_item(MM_BLOCK, n), MM_BLOCK, 0, s>>>(r.t, keys, n, o);
  else launch_query<oa_engine<SB>, KB, VB>(l.num_sms, {r.t}, keys, n, o, write, s);
  return cudaGetLastError();
}

}  // namespace detail
}  // namespace gcol

template struct gcol::detail::mm_ops<GCOL_KB, GCOL_VB>;
