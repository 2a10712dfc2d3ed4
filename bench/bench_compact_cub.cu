#include <cub/device/device_select.cuh>
#include "bench_compact_cub.h"

extern "C" cudaError_t bench_cub_select_flagged16(void *d_temp, size_t *temp_bytes, const void *d_in,
                                                  const uint8_t *d_flags, void *d_out, size_t *d_num_selected,
                                                  size_t n, cudaStream_t s) {
  return cub::DeviceSelect::Flagged(d_temp, *temp_bytes, static_cast<const uint4 *>(d_in), d_flags,
                                    static_cast<uint4 *>(d_out), d_num_selected, (int64_t)n, s);
}
