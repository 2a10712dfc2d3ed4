/* gcol_sssp_paths: the pairs are sorted by source (cub radix sort of
 * (source, pair index)), one search per distinct source walks the paths of
 * its pairs (path_task.cuh) into an unordered buffer, an exclusive scan of
 * the lengths gives the offsets, and a gather puts the paths in pair order
 * when they fit the caller's buffer. All on the stream; no host wait. */
#include <cub/device/device_radix_sort.cuh>

#include "compact/compact_internal.h" /* gcol_exclusive_scan_cub */
#include "core/api_scope.h"
#include "core/args.h"
#include "core/device_alloc.h"
#include "sssp/path_task.cuh"
#include "sssp/sssp_solve.cuh"

using gcol::detail::api_scope;
using gcol::detail::path_task;

namespace {

/* Sort keys: the source id (an invalid one as n, so that it sorts last and
 * the sort needs only the bits of n), and the pair index. */
__global__ void path_keys(const uint32_t *sources, uint32_t num_pairs, uint32_t n, uint32_t *key, uint32_t *idx) {
  for (uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < num_pairs; k += gridDim.x * blockDim.x) {
    uint32_t s = sources[k];
    key[k] = s < n ? s : n;
    idx[k] = k;
  }
}

/* One warp per pair: its path from the unordered buffer into place, when
 * the total fits (else nothing; the caller reads the total and asks again). */
__global__ void gather_paths(const unsigned long long *off, const unsigned long long *start, const uint32_t *buf,
                             uint32_t *out, uint32_t num_pairs, unsigned long long cap) {
  if (off[num_pairs] > cap) return;
  unsigned lane = threadIdx.x & 31;
  size_t warps = (size_t)gridDim.x * blockDim.x / 32;
  for (size_t k = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; k < num_pairs; k += warps) {
    unsigned long long b = off[k], len = off[k + 1] - b, from = len ? start[k] : 0;
    for (unsigned long long j = lane; j < len; j += 32) out[b + j] = buf[from + j];
  }
}

struct path_bufs {
  uint32_t *key_in, *key, *idx_in, *idx, *buf;
  unsigned long long *len, *start, *cursor;
  void *temp;
  size_t temp_bytes;
};

/* With base NULL only measures (as the solver's carve). */
size_t lay_out_paths(char *base, size_t num_pairs, size_t cap, size_t temp_bytes, path_bufs &b) {
  size_t used = 0;
  auto take = [&](size_t bytes) -> void * {
    size_t at = (used + 255) & ~(size_t)255;
    used = at + bytes;
    return base ? base + at : nullptr;
  };
  b.key_in = (uint32_t *)take(num_pairs * 4);
  b.key = (uint32_t *)take(num_pairs * 4);
  b.idx_in = (uint32_t *)take(num_pairs * 4);
  b.idx = (uint32_t *)take(num_pairs * 4);
  b.len = (unsigned long long *)take((num_pairs + 1) * 8);
  b.start = (unsigned long long *)take(num_pairs * 8);
  b.cursor = (unsigned long long *)take(8);
  b.buf = (uint32_t *)take(cap * 4);
  b.temp = take(temp_bytes);
  b.temp_bytes = temp_bytes;
  return used;
}

gcol_status_t paths(const gcol_graph *g, const uint32_t *d_sources, const uint32_t *d_targets, uint32_t num_pairs,
                    uint64_t *d_offsets, uint32_t *d_vertices, size_t max_vertices, float *d_dist, cudaStream_t s) {
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  int bits = 0;
  while (bits < 32 && ((uint64_t)1 << bits) <= g->n) ++bits; /* the keys go up to n */
  size_t sort_bytes = 0, scan_bytes = 0;
  GCOL_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, (uint32_t *)nullptr, (uint32_t *)nullptr,
                                                (uint32_t *)nullptr, (uint32_t *)nullptr, num_pairs, 0, bits, s));
  GCOL_CUDA_TRY(gcol_exclusive_scan_cub(nullptr, &scan_bytes, nullptr, nullptr, (size_t)num_pairs + 1, GCOL_U64,
                                        GCOL_OP_ADD, s));
  size_t temp_bytes = sort_bytes > scan_bytes ? sort_bytes : scan_bytes;
  path_bufs b;
  size_t bytes = lay_out_paths(nullptr, num_pairs, max_vertices, temp_bytes, b);
  char *base = nullptr;
  GCOL_TRY(gcol_device_alloc(&g->allocator, (void **)&base, bytes, s));
  lay_out_paths(base, num_pairs, max_vertices, temp_bytes, b);
  unsigned blocks = (unsigned)((num_pairs + 255) / 256);
  unsigned max_blocks = (unsigned)dev.num_sms * 8;
  blocks = blocks < max_blocks ? blocks : max_blocks;
  cudaError_t e = cudaMemsetAsync(b.len, 0, ((size_t)num_pairs + 1) * 8, s);
  if (e == cudaSuccess) e = cudaMemsetAsync(b.cursor, 0, 8, s);
  if (e == cudaSuccess) {
    path_keys<<<blocks, 256, 0, s>>>(d_sources, num_pairs, g->n, b.key_in, b.idx_in);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess)
    e = cub::DeviceRadixSort::SortPairs(b.temp, b.temp_bytes, b.key_in, b.key, b.idx_in, b.idx, num_pairs, 0, bits, s);
  gcol_status_t st = e == cudaSuccess ? GCOL_SUCCESS : gcol_from_cuda(e);
  if (st == GCOL_SUCCESS) {
    path_task t = {g->n, num_pairs, b.key, b.idx, d_targets, d_dist, b.len, b.start, b.buf,
                   (unsigned long long)max_vertices, b.cursor};
    st = solve_on(g, t, num_pairs, true, d_targets, num_pairs, s);
  }
  if (st == GCOL_SUCCESS) {
    size_t tb = b.temp_bytes;
    e = gcol_exclusive_scan_cub(b.temp, &tb, b.len, d_offsets, (size_t)num_pairs + 1, GCOL_U64, GCOL_OP_ADD, s);
    if (e == cudaSuccess && max_vertices) {
      gather_paths<<<blocks, 256, 0, s>>>((const unsigned long long *)d_offsets, b.start, b.buf, d_vertices, num_pairs,
                                          (unsigned long long)max_vertices);
      e = cudaGetLastError();
    }
    if (e != cudaSuccess) st = gcol_from_cuda(e);
  }
  cudaError_t f = gcol_device_free(&g->allocator, base, bytes, s);
  if (st != GCOL_SUCCESS) return st;
  return gcol_from_cuda(f);
}

}  // namespace

extern "C" gcol_status_t gcol_sssp_paths(const gcol_graph_t *g, const uint32_t *d_sources, const uint32_t *d_targets,
                                          size_t num_pairs, uint64_t *d_offsets, uint32_t *d_vertices,
                                          size_t max_vertices, float *d_dist, cudaStream_t s) {
  api_scope r("gcol_sssp_paths");
  GCOL_TRY(gcol_check_handle(g, g ? g->magic : 0, GCOL_GRAPH_MAGIC, "gcol_graph_t"));
  if (num_pairs >= UINT32_MAX)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "num_pairs %zu is more than 2^32 - 2", num_pairs);
  if (max_vertices > SIZE_MAX / 8)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "max_vertices %zu is too large for a buffer", max_vertices);
  size_t work = num_pairs;
  gcol_dptr_t a[] = {{"d_sources", d_sources, work, 4, "uint32_t vertex ids"},
                     {"d_targets", d_targets, work, 4, "uint32_t vertex ids"},
                     {"d_offsets", d_offsets, work ? work + 1 : 0, 8, "uint64_t path offsets"},
                     {"d_vertices", d_vertices, work ? max_vertices : 0, 4, "uint32_t path vertices"},
                     {"d_dist", d_dist, d_dist ? work : 0, 4, "float distances"}};
  GCOL_TRY(gcol_check_dptrs_host(a, GCOL_NARGS(a)));
  if (work == 0) return GCOL_SUCCESS;
  GCOL_TRY(gcol_require_device());
  GCOL_TRY(gcol_check_dptrs_device(a, GCOL_NARGS(a)));
  return paths(g, d_sources, d_targets, (uint32_t)num_pairs, d_offsets, d_vertices, max_vertices, d_dist, s);
}
