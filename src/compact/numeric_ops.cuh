/* The numeric types and operators of gcol_reduce / gcol_exclusive_scan:
 * functors for CUB, each op's identity, and the type x op dispatch that
 * instantiates one generic call per pair. */
#ifndef GCOL_SRC_COMPACT_NUMERIC_OPS_CUH
#define GCOL_SRC_COMPACT_NUMERIC_OPS_CUH

#include <cstdint>
#include <limits>
#include <type_traits>
#include "gcol/gcol.h"
#include "gcol/device/detail/ops.cuh"

namespace gcol {
namespace detail {

/* CUB functors over gcol_op_t's one meaning (gcol/device/detail/ops.cuh):
 * integer ADD wraps, float MIN/MAX ignore NaN. */
template <class T>
struct add_op {
  __host__ __device__ __forceinline__ T operator()(const T &a, const T &b) const { return op_add(a, b); }
  static T identity() { return T(0); }
};

template <class T>
struct min_op {
  __host__ __device__ __forceinline__ T operator()(const T &a, const T &b) const { return op_min(a, b); }
  static T identity() {
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
  }
};
template <class T>
struct max_op {
  __host__ __device__ __forceinline__ T operator()(const T &a, const T &b) const { return op_max(a, b); }
  static T identity() {
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                : std::numeric_limits<T>::lowest();
  }
};

/* Call f(T{}, Op{}) for the C type and op; cudaErrorInvalidValue otherwise. */
template <class T, class F>
cudaError_t with_op(gcol_op_t op, F f) {
  switch (op) {
    case GCOL_OP_ADD: return f(T{}, add_op<T>{});
    case GCOL_OP_MIN: return f(T{}, min_op<T>{});
    case GCOL_OP_MAX: return f(T{}, max_op<T>{});
  }
  return cudaErrorInvalidValue;
}
template <class F>
cudaError_t with_type_op(gcol_type_t t, gcol_op_t op, F f) {
  switch (t) {
    case GCOL_U32: return with_op<uint32_t>(op, f);
    case GCOL_U64: return with_op<uint64_t>(op, f);
    case GCOL_I32: return with_op<int32_t>(op, f);
    case GCOL_I64: return with_op<int64_t>(op, f);
    case GCOL_F32: return with_op<float>(op, f);
    case GCOL_F64: return with_op<double>(op, f);
    case GCOL_U128: break; /* a key type only: compact_api.c refuses it */
  }
  return cudaErrorInvalidValue;
}

}  // namespace detail
}  // namespace gcol
#endif
