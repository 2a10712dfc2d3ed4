/* Thread layer: the one meaning of gcol_op_t, shared by the maps'
 * insert_or_apply and by gcol_reduce / gcol_exclusive_scan.
 *  - Integer ADD wraps modulo 2^bits, signed types too (computed unsigned:
 *    no signed-overflow undefined behaviour).
 *  - MIN / MAX compare as the type (signed, unsigned or float).
 *  - Float MIN / MAX ignore a NaN operand (fmin / fmax): a NaN gives way to
 *    any number it meets, so NaN comes out only when every operand is NaN. */
#ifndef GCOL_DEVICE_DETAIL_OPS_CUH
#define GCOL_DEVICE_DETAIL_OPS_CUH

#include <math.h>
#include <type_traits>
#include "gcol/gcol.h"

namespace gcol {
namespace detail {

template <class T>
__host__ __device__ __forceinline__ T op_add(T a, T b) {
  if constexpr (std::is_integral<T>::value) {
    typedef typename std::make_unsigned<T>::type U;
    return (T)((U)a + (U)b);
  } else {
    return a + b;
  }
}

template <class T>
__host__ __device__ __forceinline__ T op_min(T a, T b) {
  if constexpr (std::is_floating_point<T>::value) return fmin(a, b); /* float overload for float */
  else return b < a ? b : a;
}

template <class T>
__host__ __device__ __forceinline__ T op_max(T a, T b) {
  if constexpr (std::is_floating_point<T>::value) return fmax(a, b);
  else return a < b ? b : a;
}

template <class T>
__host__ __device__ __forceinline__ T op_apply(T a, T b, int op) {
  return op == GCOL_OP_ADD ? op_add(a, b) : op == GCOL_OP_MIN ? op_min(a, b) : op_max(a, b);
}

}  // namespace detail
}  // namespace gcol
#endif
