/* Device-side data of bench_dist's capacity run: keys made where they are
 * used (10 billion of them would take minutes on the host) and answers
 * checked there. */
#include "bench_dist_data.h"

namespace {

/* Key i: i times an odd constant, modulo 2^63. Distinct for i < 2^62 (two
 * products differ by 2^63 only when the indices do), never a sentinel (the
 * top bit is clear), spread over the bits. */
__device__ __forceinline__ uint64_t key_of(uint64_t i) { return (i * 0x9e3779b97f4a7c15ULL) & 0x7fffffffffffffffULL; }
__device__ __forceinline__ uint64_t value_of(uint64_t k) { return k ^ 0x5bd1e9955bd1e995ULL; }

__global__ void fill_kernel(uint64_t *keys, uint64_t *values, size_t n, uint64_t first) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint64_t k = key_of(first + i);
    keys[i] = k;
    if (values) values[i] = value_of(k);
  }
}

__global__ void check_kernel(const uint64_t *keys, const uint64_t *found, size_t n, unsigned long long *wrong) {
  unsigned long long w = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    w += found[i] != value_of(keys[i]);
  if (w) atomicAdd(wrong, w);
}

unsigned grid(size_t n) { return (unsigned)((n + 255) / 256 < 65536 ? (n + 255) / 256 + 1 : 65536); }

}  // namespace

extern "C" cudaError_t bench_dist_fill(uint64_t *d_keys, uint64_t *d_values, size_t n, uint64_t first,
                                       cudaStream_t s) {
  fill_kernel<<<grid(n), 256, 0, s>>>(d_keys, d_values, n, first);
  return cudaGetLastError();
}

extern "C" cudaError_t bench_dist_count_wrong(const uint64_t *d_keys, const uint64_t *d_found, size_t n,
                                              unsigned long long *d_wrong, cudaStream_t s) {
  check_kernel<<<grid(n), 256, 0, s>>>(d_keys, d_found, n, d_wrong);
  return cudaGetLastError();
}
