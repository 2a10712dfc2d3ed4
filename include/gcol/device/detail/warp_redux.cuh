/* Warp layer: whole-warp unsigned add / min / max. sm_80 and later have one
 * instruction for each (redux.sync: __reduce_*_sync); sm_75 (Turing, which the
 * release wheels carry) has not, and takes five butterfly shuffles instead.
 * Every lane of the warp must call, and every lane gets the result. */
#ifndef GCOL_DEVICE_DETAIL_WARP_REDUX_CUH
#define GCOL_DEVICE_DETAIL_WARP_REDUX_CUH

#include <stdint.h>

namespace gcol {
namespace detail {

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__device__ __forceinline__ uint32_t redux_add(uint32_t x) { return __reduce_add_sync(0xffffffffu, x); }
__device__ __forceinline__ uint32_t redux_min(uint32_t x) { return __reduce_min_sync(0xffffffffu, x); }
__device__ __forceinline__ uint32_t redux_max(uint32_t x) { return __reduce_max_sync(0xffffffffu, x); }
#else
__device__ __forceinline__ uint32_t redux_add(uint32_t x) {
#pragma unroll
  for (int d = 16; d; d >>= 1) x += __shfl_xor_sync(0xffffffffu, x, d);
  return x;
}
__device__ __forceinline__ uint32_t redux_min(uint32_t x) {
#pragma unroll
  for (int d = 16; d; d >>= 1) {
    uint32_t o = __shfl_xor_sync(0xffffffffu, x, d);
    x = o < x ? o : x;
  }
  return x;
}
__device__ __forceinline__ uint32_t redux_max(uint32_t x) {
#pragma unroll
  for (int d = 16; d; d >>= 1) {
    uint32_t o = __shfl_xor_sync(0xffffffffu, x, d);
    x = o > x ? o : x;
  }
  return x;
}
#endif

}  // namespace detail
}  // namespace gcol

#endif
