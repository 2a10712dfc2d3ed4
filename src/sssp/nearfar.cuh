/* The near-far engine (issue 27): a block per source instead of a warp, for
 * distances-only tables, where few sources leave the warp engine latency
 * bound (one vertex per warp step). Delta-stepping's near-far variant: the
 * block keeps a near queue of vertices whose distance dropped below a
 * threshold T and a far pile of those at T or above. Its warps expand the
 * near queue together (one vertex per warp, the graph view's arcs per lane,
 * as the warp engine does), relaxing by atomicMin and appending improved
 * vertices to the next near queue (below T) or to the far pile, until the
 * near queue is empty: then every distance below T is final. The far pile
 * is split: T becomes its smallest live distance plus delta, those below T
 * form the near queue, the rest stay. A vertex is at most once in the next
 * near queue (a per-vertex stamp of the queue generation) and at most once
 * in the far pile (a stamp of the split), so each holds at most n entries.
 * Label-correcting: a vertex may be expanded again when its distance drops
 * while it waits; the result is the fixpoint that Dijkstra finds (float
 * sums along shortest paths).
 * Target lists: the search runs in the block's own distance row (n floats)
 * and stops at a split once every target's distance is final, by this
 * rule: with m the smallest live far distance (the smallest tentative
 * distance of any vertex not yet final), a vertex at m or below is final
 * (a shorter path would leave the final region through a far vertex, at m
 * or more, and weights are >= 0), so targets at m or below are dropped from
 * the block's pending list and the search stops when it is empty (or when
 * nothing is live: then every distance is final). Unreachable targets keep
 * the search going to its end. No predecessors: the warp engine has them;
 * the policy in sssp.cu picks the engine. */
#ifndef GCOL_SRC_SSSP_NEARFAR_CUH
#define GCOL_SRC_SSSP_NEARFAR_CUH

#include <math.h>
#include <stdint.h>

#include "core/common.h"
#include "sssp/graph_internal.h"
#include "sssp/sssp_warp.cuh"

namespace gcol {
namespace detail {

/* Threads per block: 512 (2 blocks per SM) or 256 (4 per SM), chosen by
 * nearfar_threads; both at 64 registers a thread. */
constexpr int nf_threads_small = 256, nf_threads_large = 512;

struct nf_job {
  uint32_t n, num_sources;
  const uint32_t *sources;
  const uint32_t *targets; /* NULL: all vertices (the search runs in the output row) */
  size_t row;              /* output row length: num_targets, or n */
  float *out;              /* num_sources x row */
  uint32_t *next;          /* work counter */
  uint32_t *queues;        /* per block: near, next near, far, far kept, stamps (2n): 6n words, zeroed */
  float *scratch;          /* targets: per block, a distance row (n floats) */
  uint32_t *pending;       /* targets: per block, two lists of row words (targets not yet final) */
  float delta;
};

/* Append x (lanes with `want`) to q at the shared counter *len. */
__device__ __forceinline__ void nf_append(bool want, uint32_t x, uint32_t *q, uint32_t *len) {
  unsigned lane = threadIdx.x & 31, mask = __ballot_sync(0xffffffffu, want);
  if (!mask) return;
  uint32_t base = 0;
  if (lane == __ffs(mask) - 1) base = atomicAdd(len, (uint32_t)__popc(mask));
  base = __shfl_sync(0xffffffffu, base, __ffs(mask) - 1);
  if (want) q[base + __popc(mask & ((1u << lane) - 1u))] = x;
}

template <int WARPS>
__device__ __forceinline__ float nf_block_min(float x, float *scratch) {
  for (int o = 16; o > 0; o >>= 1) x = fminf(x, __shfl_xor_sync(0xffffffffu, x, o));
  unsigned lane = threadIdx.x & 31, w = threadIdx.x / 32;
  if (lane == 0) scratch[w] = x;
  __syncthreads();
  float m = INFINITY;
  for (int i = 0; i < WARPS; ++i) m = fminf(m, scratch[i]);
  __syncthreads();
  return m;
}

template <class G, int THREADS>
__global__ void __launch_bounds__(THREADS, 1024 / THREADS) nearfar_kernel(G g, nf_job job) {
  constexpr int nf_threads = THREADS, nf_warps = THREADS / 32;
  __shared__ uint32_t s_src, s_len[3]; /* source index; near, next near, far lengths */
  __shared__ uint32_t s_plen[2];       /* pending targets: this list, the next one */
  __shared__ float s_min[nf_warps];
  const uint32_t n = job.n;
  const bool tl = job.targets != nullptr;
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  uint32_t *qa = job.queues + (size_t)blockIdx.x * 6 * n, *qb = qa + n, *fa = qa + 2 * (size_t)n,
           *fb = qa + 3 * (size_t)n, *stamp = qa + 4 * (size_t)n, *fstamp = qa + 5 * (size_t)n;
  uint32_t *pa = tl ? job.pending + (size_t)blockIdx.x * 2 * job.row : nullptr, *pb = pa ? pa + job.row : nullptr;
  /* Stamps: queue generation and far split, never reset (zeroed once); both
   * move on at every source, so no stamp of an earlier source matches. */
  uint32_t gen = 0, phase = 0;
  for (;;) {
    if (threadIdx.x == 0) s_src = atomicAdd(job.next, 1u);
    __syncthreads();
    uint32_t k = s_src;
    __syncthreads();
    if (k >= job.num_sources) break;
    ++gen, ++phase;
    uint32_t s = job.sources[k];
    float *row = job.out + (size_t)k * job.row;
    float *dist = tl ? job.scratch + (size_t)blockIdx.x * n : row;
    if (s >= n) {
      for (size_t i = threadIdx.x; i < job.row; i += nf_threads) row[i] = NAN;
      continue;
    }
    for (uint32_t i = threadIdx.x; i < n; i += nf_threads) dist[i] = INFINITY;
    if (threadIdx.x == 0) s_len[0] = 0, s_len[1] = 0, s_len[2] = 0, s_plen[0] = 0, s_plen[1] = 0;
    __syncthreads();
    if (g.source_ok(s)) {
      for (size_t j0 = 0; tl && j0 < job.row; j0 += nf_threads) { /* the valid targets are pending */
        size_t j = j0 + threadIdx.x;
        uint32_t v = j < job.row ? __ldg(&job.targets[j]) : n;
        nf_append(v < n, v, pa, &s_plen[0]);
      }
      uint32_t *nearq = qa, *nextq = qb, *far = fa, *kept = fb;
      if (threadIdx.x == 0) dist[s] = 0.0f, nearq[0] = s, s_len[0] = 1;
      float t = job.delta;
      __syncthreads();
      for (bool more = !tl || s_plen[0] > 0; more;) { /* (no valid target: nothing to search) */
        while (s_len[0] > 0) { /* expand the near queue */
          uint32_t len = s_len[0];
          ++gen;
          for (uint32_t i = warp; i < len; i += nf_warps) {
            uint32_t u = __ldcg(&nearq[i]);
            typename G::arcs arcs = g.load(u, lane);
            float du = __ldcg(&dist[u]);
            g.relax_all(arcs, lane, [&](bool ok, uint32_t v, float w) {
              float nd = __fadd_rn(du, w);
              bool better = ok && nd < __int_as_float(atomicMin((int *)&dist[v], __float_as_int(nd)));
              bool near = better && nd < t && atomicExch(&stamp[v], gen) != gen;
              bool far_ = better && nd >= t && atomicExch(&fstamp[v], phase + 1) != phase + 1;
              nf_append(near, v, nextq, &s_len[1]);
              nf_append(far_, v, far, &s_len[2]);
              return true;
            });
          }
          __syncthreads();
          if (threadIdx.x == 0) s_len[0] = s_len[1], s_len[1] = 0;
          uint32_t *x = nearq;
          nearq = nextq, nextq = x;
          __syncthreads();
        }
        /* Every distance below t is final. The far pile's live entries (at t
         * or above) set the next threshold; those below it become the near
         * queue, the rest are kept (stamped with the new split). */
        uint32_t flen = s_len[2];
        if (flen == 0) break;
        float m = INFINITY;
        for (uint32_t i = threadIdx.x; i < flen; i += nf_threads) {
          float d = __ldcg(&dist[__ldcg(&far[i])]);
          if (d >= t) m = fminf(m, d);
        }
        m = nf_block_min<nf_warps>(m, s_min);
        if (m == INFINITY) break;
        if (tl) { /* targets at m or below are final (top of file): drop them */
          uint32_t plen = s_plen[0];
          for (uint32_t i0 = 0; i0 < plen; i0 += nf_threads) {
            uint32_t i = i0 + threadIdx.x;
            uint32_t v = i < plen ? __ldcg(&pa[i]) : 0;
            nf_append(i < plen && __ldcg(&dist[v]) > m, v, pb, &s_plen[1]);
          }
          __syncthreads();
          uint32_t left = s_plen[1];
          __syncthreads();
          if (threadIdx.x == 0) s_plen[0] = left, s_plen[1] = 0;
          uint32_t *x = pa;
          pa = pb, pb = x;
          if (left == 0) break;
        }
        float t2 = fmaxf(m + job.delta, __uint_as_float(__float_as_uint(m) + 1)); /* above m even past float precision */
        ++gen, ++phase;
        if (threadIdx.x == 0) s_len[2] = 0;
        __syncthreads();
        for (uint32_t i0 = 0; i0 < flen; i0 += nf_threads) {
          uint32_t i = i0 + threadIdx.x;
          uint32_t v = i < flen ? __ldcg(&far[i]) : 0;
          float d = i < flen ? __ldcg(&dist[v]) : 0.0f;
          bool live = i < flen && d >= t;
          bool to_near = live && d < t2 && atomicExch(&stamp[v], gen) != gen;
          bool keep = live && d >= t2 && atomicExch(&fstamp[v], phase + 1) != phase + 1;
          nf_append(to_near, v, nearq, &s_len[0]);
          nf_append(keep, v, kept, &s_len[2]);
        }
        t = t2;
        uint32_t *x = far;
        far = kept, kept = x;
        __syncthreads();
      }
    }
    __syncthreads();
    for (size_t j = threadIdx.x; tl && j < job.row; j += nf_threads) { /* the row from the block's distances */
      uint32_t v = __ldg(&job.targets[j]);
      row[j] = v < n ? __ldcg(&dist[v]) : NAN;
    }
  }
}

/* Device bytes of one near-far block: queues and stamps (6n words), and
 * with a target list of num_targets entries its distance row (n floats)
 * and two pending lists. */
inline size_t nearfar_block_bytes(uint32_t n, bool targets, size_t num_targets) {
  return (size_t)6 * n * 4 + (targets ? (size_t)n * 4 + 2 * num_targets * 4 : 0);
}

/* The block size of the policy: 512 threads (2 blocks per SM). It won or
 * tied every row of the H100 sweep against 256 (4 per SM), GPU s 256 / 512
 * (bench/RESULTS.md, issue 27): all vertices, 2D grid 256 sources 0.240 /
 * 0.140, voxel grid 1,024 sources 0.157 / 0.148, road model 0.704 / 0.661,
 * 3-NN road 0.807 / 0.805; target lists of 4,096 sources: voxel 0.562 /
 * 0.538, road model 2.791 / 2.617, 3-NN road 3.219 / 3.219. 256 stays
 * compiled for the test hook (nf_threads). */
inline int nearfar_threads() { return nf_threads_large; }

/* Run a distance table of ns sources on s: to all vertices (d_targets
 * NULL) or to num_targets targets, with blocks of `threads` (256 or 512).
 * max_blocks (0: no cap) caps the blocks. */
template <class G>
gcol_status_t nearfar_solve(const gcol_graph *g, G view, const uint32_t *d_sources, size_t ns,
                            const uint32_t *d_targets, size_t num_targets, float *d_dist, float delta,
                            int threads, size_t max_blocks, cudaStream_t s) {
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  int bps = 0;
  threads = threads == nf_threads_large ? nf_threads_large : nf_threads_small;
  auto kernel = threads == nf_threads_large ? nearfar_kernel<G, nf_threads_large> : nearfar_kernel<G, nf_threads_small>;
  GCOL_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, kernel, threads, 0));
  if (bps < 1) bps = 1;
  size_t free_b = 0, total_b = 0;
  GCOL_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
  bool tl = d_targets != nullptr;
  size_t per_block = nearfar_block_bytes(g->n, tl, num_targets);
  size_t blocks = (size_t)bps * dev.num_sms, mem_blocks = free_b / 2 / per_block;
  blocks = blocks < ns ? blocks : ns;
  blocks = blocks < mem_blocks ? blocks : mem_blocks;
  if (max_blocks && blocks > max_blocks) blocks = max_blocks;
  if (blocks == 0) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "not even one near-far block's queues fit in free device memory");
  size_t queue_bytes = blocks * (size_t)6 * g->n * 4; /* zeroed: the stamps */
  char *base = nullptr;
  size_t bytes = 256 + blocks * per_block;
  GCOL_CUDA_TRY(cudaMallocAsync((void **)&base, bytes, s));
  nf_job job;
  job.n = g->n, job.num_sources = (uint32_t)ns, job.sources = d_sources, job.out = d_dist;
  job.targets = d_targets, job.row = tl ? num_targets : g->n;
  job.next = (uint32_t *)base, job.queues = (uint32_t *)(base + 256);
  job.scratch = tl ? (float *)(base + 256 + queue_bytes) : nullptr;
  job.pending = tl ? (uint32_t *)(base + 256 + queue_bytes + blocks * (size_t)g->n * 4) : nullptr;
  job.delta = delta;
  cudaError_t e = cudaMemsetAsync(base, 0, 256 + queue_bytes, s);
  if (e == cudaSuccess) {
    kernel<<<(unsigned)blocks, (unsigned)threads, 0, s>>>(view, job);
    e = cudaGetLastError();
  }
  cudaError_t f = cudaFreeAsync(base, s);
  if (e != cudaSuccess) return gcol_from_cuda(e);
  return gcol_from_cuda(f);
}

}  // namespace detail
}  // namespace gcol
#endif
