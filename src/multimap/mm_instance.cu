/* Dispatch of the multimap's kernels for one key width x value width: picks
 * the engine's kernel and sizes the grid to fill the GPU once. The Makefile
 * compiles this file once per pair with -DGCOL_KB=.. -DGCOL_VB=.. */
#include "mm_kernels.cuh"
#include "mm_ops.h"

#if !defined(GCOL_KB) || !defined(GCOL_VB)
#error "compile with -DGCOL_KB=4|8 -DGCOL_VB=4|8"
#endif

namespace gcol {
namespace detail {

static constexpr int MM_BLOCK = 256;

/* Blocks that fill every SM once for this kernel, but no more than the work needs. */
template <class Kernel>
static unsigned mm_grid(Kernel k, int num_sms, size_t threads_needed) {
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, MM_BLOCK, 0) != cudaSuccess || per_sm < 1) per_sm = 1;
  size_t want = (threads_needed + MM_BLOCK - 1) / MM_BLOCK, full = (size_t)per_sm * num_sms;
  return (unsigned)(want < full ? (want ? want : 1) : full);
}

template <int KB, int VB>
cudaError_t mm_ops<KB, VB>::insert(int num_sms, const mm_ref &r, const void *keys, const void *values, size_t n,
                                   unsigned long long *d_count, cudaStream_t s) {
  if (r.chained) {
    auto k = chain_insert_kernel<KB, VB>;
    k<<<mm_grid(k, num_sms, n), MM_BLOCK, 0, s>>>(r.t, r.next, r.heads, r.locks, keys, values, n, d_count);
  } else {
    auto k = oa_insert_kernel<KB, VB>;
    k<<<mm_grid(k, num_sms, n), MM_BLOCK, 0, s>>>(r.t, keys, values, n, d_count);
  }
  return cudaGetLastError();
}

template <class E, int KB, int VB>
static void launch_query(int num_sms, const E &e, const void *keys, size_t n, const mm_query_out &o, bool write,
                         cudaStream_t s) {
  auto k = write ? query_kernel<E, KB, VB, true> : query_kernel<E, KB, VB, false>;
  k<<<mm_grid(k, num_sms, n), MM_BLOCK, 0, s>>>(e, keys, n, o);
}

template <int KB, int VB>
cudaError_t mm_ops<KB, VB>::query(int num_sms, const mm_ref &r, const void *keys, size_t n, const mm_query_out &o,
                                  bool write, cudaStream_t s) {
  constexpr int SB = slot_of<KB, VB>();
  if (r.chained) launch_query<chain_engine<SB>, KB, VB>(num_sms, {r.t, r.next, r.heads}, keys, n, o, write, s);
  else launch_query<oa_engine<SB>, KB, VB>(num_sms, {r.t}, keys, n, o, write, s);
  return cudaGetLastError();
}

}  // namespace detail
}  // namespace gcol

template struct gcol::detail::mm_ops<GCOL_KB, GCOL_VB>;
