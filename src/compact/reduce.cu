/* gcol_reduce's device work: cub::DeviceReduce::Reduce with the op's
 * identity as the initial value, one instantiation per type x op. */
#include <cub/device/device_reduce.cuh>
#include "compact_internal.h"
#include "numeric_ops.cuh"

extern "C" cudaError_t gcol_reduce_cub(void *d_temp, size_t *temp_bytes, const void *d_in, void *d_out, size_t n,
                                       gcol_type_t t, gcol_op_t op, cudaStream_t s) {
  return gcol::detail::with_type_op(t, op, [&](auto zero, auto f) -> cudaError_t {
    typedef decltype(zero) T;
    return cub::DeviceReduce::Reduce(d_temp, *temp_bytes, static_cast<const T *>(d_in), static_cast<T *>(d_out),
                                     (uint64_t)n, f, decltype(f)::identity(), s);
  });
}
