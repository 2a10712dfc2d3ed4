#include <cooperative_groups.h>
#include "aggregate_kernels.h"
#include "gcol/device/block_aggregate.cuh"
#include "gcol/device/warp_aggregate.cuh"

namespace cg = cooperative_groups;

__host__ __device__ static unsigned mix(size_t i) {
  unsigned long long x = i * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 29;
  return (unsigned)(x >> 32);
}
extern "C" unsigned agg_test_want(size_t i) { return mix(i) & 1; }
extern "C" unsigned agg_test_want_n(size_t i) { return mix(i) % 4; }

template <int T, class C>
__global__ void tile_kernel(int n_form, size_t n, C *counter, unsigned long long *slot) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  auto tile = cg::tiled_partition<T>(cg::this_thread_block());
  C s;
  unsigned want;
  if (n_form) {
    want = i < n ? mix(i) % 4 : 0;
    s = gcol::tile_reserve_n(tile, (C)want, counter);
  } else {
    want = i < n ? mix(i) & 1 : 0;
    s = gcol::tile_reserve(tile, want != 0, counter);
  }
  if (i < n) slot[i] = want ? (unsigned long long)s : ~0ull;
}

template <class C>
__global__ void block_kernel(int n_form, size_t n, C *counter, unsigned long long *slot) {
  __shared__ typename gcol::block_reserve<1024, C>::temp_storage tmp;
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  gcol::block_reserve<1024, C> r(tmp);
  unsigned want;
  C s;
  if (n_form) {
    want = i < n ? mix(i) % 4 : 0;
    s = r.reserve_n((C)want, counter);
  } else {
    want = i < n ? mix(i) & 1 : 0;
    s = r.reserve(want != 0, counter);
  }
  if (i < n) slot[i] = want ? (unsigned long long)s : ~0ull;
}

template <class C>
__global__ void read_total(const C *counter, unsigned long long *total) {
  *total = (unsigned long long)*counter;
}

template <class C>
static cudaError_t run(int level, int tile, int block, size_t n, unsigned long long *slot, unsigned long long *total) {
  C *counter = nullptr;
  cudaError_t e = cudaMalloc(&counter, sizeof(C));
  if (e != cudaSuccess) return e;
  e = cudaMemset(counter, 0, sizeof(C));
  const unsigned grid = (unsigned)((n + block - 1) / block + (n == 0));
  const int n_form = level & 1;
  if (e == cudaSuccess) {
    if (level >= 2) block_kernel<C><<<grid, block>>>(n_form, n, counter, slot);
    else switch (tile) {
        case 1: tile_kernel<1, C><<<grid, block>>>(n_form, n, counter, slot); break;
        case 2: tile_kernel<2, C><<<grid, block>>>(n_form, n, counter, slot); break;
        case 4: tile_kernel<4, C><<<grid, block>>>(n_form, n, counter, slot); break;
        case 8: tile_kernel<8, C><<<grid, block>>>(n_form, n, counter, slot); break;
        case 16: tile_kernel<16, C><<<grid, block>>>(n_form, n, counter, slot); break;
        case 32: tile_kernel<32, C><<<grid, block>>>(n_form, n, counter, slot); break;
        default: e = cudaErrorInvalidValue;
      }
  }
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e == cudaSuccess) read_total<C><<<1, 1>>>(counter, total);
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  cudaError_t f = cudaFree(counter);
  return e != cudaSuccess ? e : f;
}

extern "C" cudaError_t agg_test_run(int level, int tile, char counter_kind, int block_threads, size_t n,
                                    unsigned long long *d_slot, unsigned long long *d_total) {
  switch (counter_kind) {
    case '4': return run<unsigned>(level, tile, block_threads, n, d_slot, d_total);
    case 'L': return run<unsigned long>(level, tile, block_threads, n, d_slot, d_total);
    case 'Q': return run<unsigned long long>(level, tile, block_threads, n, d_slot, d_total);
  }
  return cudaErrorInvalidValue;
}
