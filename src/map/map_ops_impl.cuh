/* Dispatch layer of the map: picks the kernel instance for the tile size and
 * sizes the grid to fill the GPU once. No algorithm here. */
#ifndef GCOL_SRC_MAP_MAP_OPS_IMPL_CUH
#define GCOL_SRC_MAP_MAP_OPS_IMPL_CUH

#include "map_ops.h"
#include "map_kernels.cuh"
#include "map_rebuild.cuh"
#include "map_policy.h"

namespace gcol {
namespace detail {

/* Blocks that fill every SM once for this kernel, but no more than the work needs. */
template <class Kernel>
static unsigned grid_for(Kernel k, const launch_cfg &l, size_t threads_needed) {
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, l.block_threads, 0) != cudaSuccess || per_sm < 1)
    per_sm = 1;
  size_t want = (threads_needed + l.block_threads - 1) / l.block_threads;
  size_t full = (size_t)per_sm * l.num_sms;
  return (unsigned)(want < full ? (want ? want : 1) : full);
}

/* Call f with the tile size as a compile-time constant (f(tile_c<T>())).
 * The shipped library compiles the tile its policy rows pick for the slot
 * size SB (map_policy.h); the test and bench build (GCOL_TESTING) every
 * tile the sweeps try. */
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
  constexpr int T = SB == 8 ? GCOL_MAP_TILE8 : GCOL_MAP_TILE16;
  if (tile != T) return cudaErrorInvalidValue;
  f(tile_c<T>());
#endif
  return cudaGetLastError();
}

template <int KB, int VB>
cudaError_t map_ops<KB, VB>::upsert(const launch_cfg &l, const table_ref &t, const void *keys,
                                    const void *values, size_t n, upsert_args a, void *values_out,
                                    uint8_t *inserted_out, unsigned long long *d_count, cudaStream_t s) {
  return with_tile<(KB == 4 && VB == 4) ? 8 : 16>(l.tile, [&](auto tc) {
    constexpr int T = decltype(tc)::value;
    auto k = values_out ? upsert_kernel<T, KB, VB, UPSERT_INSERT, true>
             : a.mode == UPSERT_INSERT ? upsert_kernel<T, KB, VB, UPSERT_INSERT, false>
             : a.mode == UPSERT_ASSIGN ? upsert_kernel<T, KB, VB, UPSERT_ASSIGN, false>
                                       : upsert_kernel<T, KB, VB, UPSERT_APPLY, false>;
    k<<<grid_for(k, l, n), l.block_threads, 0, s>>>(t, keys, values, n, a, values_out, inserted_out, d_count);
  });
}

template <int KB, int VB>
cudaError_t map_ops<KB, VB>::find(const launch_cfg &l, const table_ref &t, const void *keys, size_t n,
                                  void *out, bool contains, cudaStream_t s) {
  return with_tile<(KB == 4 && VB == 4) ? 8 : 16>(l.tile, [&](auto tc) {
    constexpr int T = decltype(tc)::value;
    auto k = find_kernel<T, KB, VB>;
    k<<<grid_for(k, l, n), l.block_threads, 0, s>>>(t, keys, n, out, contains);
  });
}

template <int KB, int VB>
cudaError_t map_ops<KB, VB>::erase(const launch_cfg &l, const table_ref &t, const void *keys, size_t n,
                                   unsigned long long *d_count, cudaStream_t s) {
  return with_tile<(KB == 4 && VB == 4) ? 8 : 16>(l.tile, [&](auto tc) {
    constexpr int T = decltype(tc)::value;
    auto k = erase_kernel<T, KB, VB>;
    k<<<grid_for(k, l, n), l.block_threads, 0, s>>>(t, keys, n, d_count);
  });
}

template <int KB, int VB>
cudaError_t map_ops<KB, VB>::fill(const launch_cfg &l, const table_ref &t, size_t num_slots, cudaStream_t s) {
  auto k = fill_kernel<(KB == 4 && VB == 4) ? 8 : 16>;
  k<<<grid_for(k, l, num_slots), l.block_threads, 0, s>>>(t, num_slots);
  return cudaGetLastError();
}

template <int KB, int VB>
cudaError_t map_ops<KB, VB>::rehash(const launch_cfg &l, const table_ref &from, const table_ref &to,
                                    cudaStream_t s) {
  return with_tile<(KB == 4 && VB == 4) ? 8 : 16>(l.tile, [&](auto tc) {
    constexpr int T = decltype(tc)::value, SB = (KB == 4 && VB == 4) ? 8 : 16;
    constexpr uint32_t seg = rebuild_shape<T, SB>::segment_buckets;
    uint32_t segments = (to.num_buckets + seg - 1) / seg, warps = GCOL_REBUILD_BLOCK / 32;
    stage_kernel<T, KB, VB><<<segments, GCOL_REBUILD_BLOCK, 0, s>>>(from, to);
    if (cudaPeekAtLastError() == cudaSuccess)
      deferred_kernel<T, KB, VB><<<(segments + warps - 1) / warps, GCOL_REBUILD_BLOCK, 0, s>>>(from, to, segments);
  });
}

template <int KB, int VB>
cudaError_t map_ops<KB, VB>::count_used(const launch_cfg &l, const table_ref &t, cudaStream_t s) {
  size_t n = (size_t)t.num_buckets * l.tile;
  auto k = count_used_kernel<(KB == 4 && VB == 4) ? 8 : 16>;
  k<<<grid_for(k, l, n), l.block_threads, 0, s>>>(t, n);
  return cudaGetLastError();
}

template <int KB, int VB>
cudaError_t map_ops<KB, VB>::retrieve(const launch_cfg &l, const table_ref &t, size_t num_chunks,
                                      void *keys_out, void *values_out, cudaStream_t s) {
  auto k = retrieve_kernel<KB, VB>;
  launch_cfg r = l;
  r.block_threads = GCOL_RETRIEVE_BLOCK;
  k<<<grid_for(k, r, (num_chunks + GCOL_RETRIEVE_ITEMS - 1) / GCOL_RETRIEVE_ITEMS), GCOL_RETRIEVE_BLOCK, 0, s>>>(t, num_chunks,
                                                                                                 keys_out, values_out);
  return cudaGetLastError();
}

}  // namespace detail
}  // namespace gcol
#endif
