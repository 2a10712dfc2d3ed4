/* Grid sizing of every container's bulk kernels (open addressing, sketches): as many blocks as fill every
 * SM once at the kernel's occupancy (or 1 / div of that, at least one
 * block; or `waves` times that), but no more than the work needs (the
 * kernels loop grid-stride).
 * CUDA C++ host code. */
#ifndef GCOL_SRC_CORE_GRID_FILL_CUH
#define GCOL_SRC_CORE_GRID_FILL_CUH

#include <stddef.h>
#include <cuda_runtime_api.h>

namespace gcol {
namespace detail {

template <class Kernel>
unsigned grid_fill(Kernel k, int block_threads, int num_sms, size_t threads_needed, size_t smem = 0, int div = 1,
                   int waves = 1) {
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, block_threads, smem) != cudaSuccess || per_sm < 1)
    per_sm = 1;
  size_t want = (threads_needed + block_threads - 1) / block_threads;
  size_t full = (size_t)per_sm * (size_t)num_sms / (size_t)(div > 1 ? div : 1);
  if (full < 1) full = 1;
  if (div <= 1 && waves > 1) full *= (size_t)waves;
  return (unsigned)(want < full ? (want ? want : 1) : full);
}

/* Grid of kernels that take one item per thread (grid-stride past 2^20
 * blocks): blocks finish and free their SM at their own pace, which suits
 * short dependent work per item (a thread-per-key lookup). */
inline unsigned grid_per_item(int block_threads, size_t items) {
  size_t want = (items + block_threads - 1) / block_threads;
  return (unsigned)(want == 0 ? 1 : want < ((size_t)1 << 20) ? want : ((size_t)1 << 20));
}

}  // namespace detail
}  // namespace gcol
#endif
