/* gcol_detail_heap_replay: drives warp heaps through an op list so that the
 * tests can compare every pop with a CPU priority queue. */
#include <math.h>
#include <stdlib.h>

#include "core/common.h"
#include "gcol/device/warp_heap.cuh"
#include "sssp/sssp_internal.h"

using gcol::warp_heap;
using gcol::warp_heap_node;

namespace {

constexpr uint32_t MAX_SHARED_NODES = 6144; /* 48 KB of tops and counts, one warp per block */

/* One warp per block; warp b replays every op on its own heap. */
__global__ void replay(const gcol_heap_op_t *ops, size_t n, warp_heap_node *nodes, uint32_t *g_meta, uint32_t cap,
                       gcol_heap_result_t *res) {
  extern __shared__ uint32_t smem[];
  size_t w = blockIdx.x;
  unsigned lane = threadIdx.x;
  warp_heap h;
  h.init(nodes + w * cap, g_meta ? g_meta + 2 * w * cap : smem, cap);
  res += w * n;
  for (size_t i = 0; i < n;) {
    gcol_heap_op_t op = ops[i];
    gcol_heap_result_t r;
    size_t step = 1;
    if (op.op == GCOL_HEAP_OP_POP) {
      r.ok = h.pop(r.key, r.val);
      if (!r.ok) r.key = 0.0f, r.val = 0;
    } else {
      if (op.op == GCOL_HEAP_OP_PUSH) {
        r.ok = h.push(op.key, op.val);
      } else {
        step = op.count;
        bool mine = lane < op.count;
        r.ok = h.push_bulk(mine, mine ? ops[i + lane].key : 0.0f, mine ? ops[i + lane].val : 0u);
      }
      r.key = h.empty() ? 0.0f : h.top_key();
      r.val = h.empty() ? 0u : h.top_value();
    }
    r.size = h.size();
    if (lane == 0) res[i] = r;
    i += step;
  }
}

gcol_status_t check_ops(const gcol_heap_op_t *ops, size_t n) {
  for (size_t i = 0; i < n;) {
    const gcol_heap_op_t *o = &ops[i];
    if (o->op == GCOL_HEAP_OP_POP) {
      ++i;
      continue;
    }
    size_t k = o->op == GCOL_HEAP_OP_BULK ? o->count : 1;
    if ((o->op != GCOL_HEAP_OP_PUSH && o->op != GCOL_HEAP_OP_BULK) || k < 1 || k > 32 || k > n - i)
      return GCOL_ERROR_INVALID_ARGUMENT;
    for (size_t j = i; j < i + k; ++j)
      if (isnan(ops[j].key) || (o->op == GCOL_HEAP_OP_BULK && ops[j].op != GCOL_HEAP_OP_BULK))
        return GCOL_ERROR_INVALID_ARGUMENT;
    i += k;
  }
  return GCOL_SUCCESS;
}

}  // namespace

extern "C" gcol_status_t gcol_detail_heap_replay(const gcol_heap_op_t *h_ops, size_t n, uint32_t cap,
                                                  int meta_in_shared, int num_warps,
                                                  gcol_heap_result_t *h_results) {
  if ((n && (!h_ops || !h_results)) || cap < 1 || cap > gcol::detail::heap_max_nodes || num_warps < 1 ||
      (meta_in_shared && cap > MAX_SHARED_NODES))
    return GCOL_ERROR_INVALID_ARGUMENT;
  GCOL_TRY(check_ops(h_ops, n));
  GCOL_TRY(gcol_require_device());
  if (n == 0) return GCOL_SUCCESS;
  size_t W = (size_t)num_warps;
  gcol_heap_op_t *d_ops = NULL;
  gcol_heap_result_t *d_res = NULL;
  warp_heap_node *d_nodes = NULL;
  uint32_t *d_meta = NULL;
  cudaError_t e = cudaMalloc(&d_ops, n * sizeof *d_ops);
  if (e == cudaSuccess) e = cudaMalloc(&d_res, W * n * sizeof *d_res);
  if (e == cudaSuccess) e = cudaMalloc(&d_nodes, W * cap * sizeof *d_nodes);
  if (e == cudaSuccess && !meta_in_shared) e = cudaMalloc(&d_meta, 2 * W * cap * sizeof *d_meta);
  if (e == cudaSuccess) e = cudaMemcpy(d_ops, h_ops, n * sizeof *d_ops, cudaMemcpyHostToDevice);
  if (e == cudaSuccess) {
    replay<<<(unsigned)W, 32, meta_in_shared ? 2 * cap * sizeof(uint32_t) : 0>>>(d_ops, n, d_nodes, d_meta, cap,
                                                                                 d_res);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaMemcpy(h_results, d_res, W * n * sizeof *d_res, cudaMemcpyDeviceToHost);
  cudaFree(d_ops);
  cudaFree(d_res);
  cudaFree(d_nodes);
  cudaFree(d_meta);
  return gcol_from_cuda(e);
}
