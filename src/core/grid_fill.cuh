/* Grid sizing of every container's bulk kernels (open addressing, sketches): as many blocks as fill every
 * SM once at the kernel's occupancy, but no more than the work needs (the
 * kernels loop grid-stride). CUDA C++ host code. */
#ifndef GCOL_SRC_CORE_GRID_FILL_CUH
#define GCOL_SRC_CORE_GRID_FILL_CUH

#include <stddef.h>
#include <cuda_runtime_api.h>

namespace gcol {
namespace detail {

template <class Kernel>
unsigned grid_fill(Kernel k, int block_threads, int num_sms, size_t threads_needed, size_t smem = 0) {
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, block_threads, smem) != cudaSuccess || per_sm < 1)
    per_sm = 1;
  size_t want = (threads_needed + block_threads - 1) / block_threads;
  size_t full = (size_t)per_sm * (size_t)num_sms;
  return (unsigned)(want < full ? (want ? want : 1) : full);
}

}  // namespace detail
}  // namespace gcol
#endif
