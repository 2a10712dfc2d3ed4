/* Device helpers of the sketches' tests and benchmarks: distinct keys
 * generated on the device (billions of them; a host generator would take
 * seconds), and a HyperLogLog add through the device API alone (each item
 * checks its global register and raises it with atomicMax), the
 * check-before-atomic alternative to the library's shared-memory kernel. */
#include "sketch_ref.h"
#include "gcol/device/hash.cuh"
#include "gcol/device/hll.cuh"

namespace {
__global__ void fill_keys(void *d, size_t n, int kb, uint64_t off) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    if (kb == 8) {
      ((uint64_t *)d)[i] = gcol::hash64(off + i, 0); /* fmix64 is a bijection */
    } else {
      uint32_t x = (uint32_t)(off + i); /* murmur3's 32-bit finalizer: a bijection */
      x ^= x >> 16, x *= 0x85ebca6bu, x ^= x >> 13, x *= 0xc2b2ae35u, x ^= x >> 16;
      ((uint32_t *)d)[i] = x;
    }
  }
}
__global__ void hll_global_add(gcol_hll_view_t v, const uint64_t *items, size_t n) {
  gcol::hll_ref h(v);
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) h.add(items[i]);
}
}  // namespace

extern "C" cudaError_t sketch_hll_global_add(const gcol_hll_view_t *v, const uint64_t *d_items, size_t n,
                                             int num_sms, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  hll_global_add<<<(unsigned)num_sms * 8, 256, 0, s>>>(*v, d_items, n);
  return cudaGetLastError();
}

extern "C" cudaError_t sketch_fill_keys(void *d, size_t n, size_t kb, uint64_t off, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  size_t blocks = (n + 255) / 256;
  fill_keys<<<(unsigned)(blocks < 65536 ? blocks : 65536), 256, 0, s>>>(d, n, (int)kb, off);
  return cudaGetLastError();
}
