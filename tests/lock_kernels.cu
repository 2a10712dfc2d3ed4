#include <cooperative_groups.h>
#include "lock_kernels.h"
#include "gcol/device/lock.cuh"

namespace cg = cooperative_groups;

#define TRY(x)                               \
  do {                                       \
    cudaError_t e_ = (x);                    \
    if (e_ != cudaSuccess) return e_;        \
  } while (0)

__global__ void dot_kernel(const float *a, const float *b, size_t n, unsigned *word, double *sum,
                           unsigned long long *blocks) {
  __shared__ double part[256];
  double s = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    s += (double)a[i] * (double)b[i]; /* exact: a float product fits a double */
  part[threadIdx.x] = s;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o >>= 1) {
    if ((int)threadIdx.x < o) part[threadIdx.x] += part[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    gcol::spin_mutex m(word);
    gcol::lock_guard g(m);
    *sum += part[0]; /* plain read-modify-write: only the lock makes it safe */
    *blocks += 1;
  }
}

__global__ void contend_kernel(unsigned *word, int iters, int guard, unsigned long long *count) {
  gcol::spin_mutex m(word);
  for (int i = 0; i < iters; ++i) {
    if (guard == 1) {
      gcol::lock_guard g(m);
      *count += 1;
    } else {
      if (guard == 2) {
        while (!m.try_lock()) __nanosleep(64);
      } else {
        m.lock();
      }
      *count += 1;
      m.unlock();
    }
  }
}

template <int T>
__global__ void tile_kernel(unsigned *word, int iters, unsigned long long *counts) {
  auto tile = cg::tiled_partition<T>(cg::this_thread_block());
  gcol::spin_mutex m(word);
  for (int i = 0; i < iters; ++i) {
    gcol::tile_lock_guard<decltype(tile)> g(tile, m);
    counts[tile.thread_rank()] += 1;
  }
}

__global__ void try_once_kernel(unsigned *word, unsigned long long *winners) {
  gcol::spin_mutex m(word);
  if (m.try_lock()) atomicAdd(winners, 1ull);
}

/* A zeroed device buffer: the mutex word at offset 0, counters after it. */
static cudaError_t scratch(void **p, size_t bytes) {
  TRY(cudaMalloc(p, bytes));
  return cudaMemset(*p, 0, bytes);
}

extern "C" cudaError_t lock_test_dot(const float *a, const float *b, size_t n, int blocks, double *h_sum,
                                     unsigned long long *h_blocks) {
  char *buf = nullptr;
  TRY(scratch((void **)&buf, 64));
  dot_kernel<<<blocks, 256>>>(a, b, n, (unsigned *)buf, (double *)(buf + 8), (unsigned long long *)(buf + 16));
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaMemcpy(h_sum, buf + 8, 8, cudaMemcpyDeviceToHost);
  if (e == cudaSuccess) e = cudaMemcpy(h_blocks, buf + 16, 8, cudaMemcpyDeviceToHost);
  cudaFree(buf);
  return e;
}

extern "C" cudaError_t lock_test_contend(int blocks, int threads, int iters, int guard, unsigned long long *h_count) {
  char *buf = nullptr;
  TRY(scratch((void **)&buf, 64));
  contend_kernel<<<blocks, threads>>>((unsigned *)buf, iters, guard, (unsigned long long *)(buf + 8));
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaMemcpy(h_count, buf + 8, 8, cudaMemcpyDeviceToHost);
  cudaFree(buf);
  return e;
}

extern "C" cudaError_t lock_test_tile(int tile, int blocks, int iters, unsigned long long *h_counts) {
  char *buf = nullptr;
  TRY(scratch((void **)&buf, 8 + 32 * 8));
  unsigned *w = (unsigned *)buf;
  unsigned long long *c = (unsigned long long *)(buf + 8);
  switch (tile) {
    case 1: tile_kernel<1><<<blocks, 256>>>(w, iters, c); break;
    case 2: tile_kernel<2><<<blocks, 256>>>(w, iters, c); break;
    case 4: tile_kernel<4><<<blocks, 256>>>(w, iters, c); break;
    case 8: tile_kernel<8><<<blocks, 256>>>(w, iters, c); break;
    case 16: tile_kernel<16><<<blocks, 256>>>(w, iters, c); break;
    case 32: tile_kernel<32><<<blocks, 256>>>(w, iters, c); break;
    default: cudaFree(buf); return cudaErrorInvalidValue;
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaMemcpy(h_counts, c, 32 * 8, cudaMemcpyDeviceToHost);
  cudaFree(buf);
  return e;
}

extern "C" cudaError_t lock_test_try_once(int blocks, unsigned long long *h_winners) {
  char *buf = nullptr;
  TRY(scratch((void **)&buf, 64));
  try_once_kernel<<<blocks, 256>>>((unsigned *)buf, (unsigned long long *)(buf + 8));
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaMemcpy(h_winners, buf + 8, 8, cudaMemcpyDeviceToHost);
  cudaFree(buf);
  return e;
}
