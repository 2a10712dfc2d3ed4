/* gcol_detail_heap_bench: raw warp-heap push/pop throughput for bench_sssp. */
#include "core/common.h"
#include "gcol/device/warp_heap.cuh"
#include "sssp/sssp_internal.h"

using gcol::warp_heap;
using gcol::warp_heap_node;

namespace {
constexpr int WARPS_PER_BLOCK = 4; /* as the solver */

__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
    heap_bench(warp_heap_node *nodes, uint32_t warps, uint32_t pairs, uint32_t cap, unsigned long long *disorder) {
  extern __shared__ uint32_t smem[];
  unsigned lane = threadIdx.x & 31, wib = threadIdx.x / 32;
  uint32_t w = blockIdx.x * WARPS_PER_BLOCK + wib;
  if (w >= warps) return; /* whole warps leave together */
  warp_heap h;
  h.init(nodes + (size_t)w * cap, smem + 2 * cap * wib, cap);
  uint32_t x = (w + 1) * 0x9e3779b9u ^ lane * 0x85ebca6bu;
  for (uint32_t i = 0; i < pairs; i += 32) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5; /* xorshift per lane */
    h.push_bulk(i + lane < pairs, (float)(x >> 8), i + lane);
  }
  float prev = -1.0f, k;
  uint32_t v, bad = 0;
  while (h.pop(k, v)) bad += k < prev, prev = k;
  if (lane == 0 && bad) atomicAdd(disorder, (unsigned long long)bad);
}
}  // namespace

extern "C" gcol_status_t gcol_detail_heap_bench(uint32_t warps, uint32_t pairs, uint32_t cap, float *ms_out,
                                                 unsigned long long *disorder_out) {
  if (!warps || !ms_out || !disorder_out || cap < 1 || cap > GCOL_SSSP_HEAP_NODES || (uint64_t)pairs > (uint64_t)cap * 32)
    return GCOL_ERROR_INVALID_ARGUMENT;
  GCOL_TRY(gcol_require_device());
  warp_heap_node *nodes = NULL;
  unsigned long long *d_bad = NULL;
  cudaEvent_t a = NULL, b = NULL;
  cudaError_t e = cudaMalloc(&nodes, (size_t)warps * cap * sizeof *nodes);
  if (e == cudaSuccess) e = cudaMalloc(&d_bad, sizeof *d_bad);
  if (e == cudaSuccess) e = cudaMemset(d_bad, 0, sizeof *d_bad);
  if (e == cudaSuccess) e = cudaEventCreate(&a);
  if (e == cudaSuccess) e = cudaEventCreate(&b);
  if (e == cudaSuccess) {
    unsigned blocks = (warps + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    size_t smem = (size_t)WARPS_PER_BLOCK * 2 * cap * sizeof(uint32_t);
    e = cudaEventRecord(a);
    if (e == cudaSuccess) {
      heap_bench<<<blocks, WARPS_PER_BLOCK * 32, smem>>>(nodes, warps, pairs, cap, d_bad);
      e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaEventRecord(b);
  }
  if (e == cudaSuccess) e = cudaEventSynchronize(b);
  if (e == cudaSuccess) e = cudaEventElapsedTime(ms_out, a, b);
  if (e == cudaSuccess) e = cudaMemcpy(disorder_out, d_bad, sizeof *d_bad, cudaMemcpyDeviceToHost);
  cudaFree(nodes);
  cudaFree(d_bad);
  if (a) cudaEventDestroy(a);
  if (b) cudaEventDestroy(b);
  return gcol_from_cuda(e);
}
