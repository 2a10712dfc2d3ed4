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
 * the policy in sssp.cu picks the engine.
 * Included by VARIANT_CU files only: the 256-thread kernels are compiled
 * for the test hook (nf_threads) under GCOL_TESTING alone.
 * Layout: one allocation per call (nf_layout says where everything lies in
 * it, for the host that sizes and carves it and for the kernel that finds
 * its block's buffers); the kernel is the steps of a search as named device
 * functions over a block's buffers (nf_buffers) and its shared counters
 * (nf_shared). */
#ifndef GCOL_SRC_SSSP_NEARFAR_CUH
#define GCOL_SRC_SSSP_NEARFAR_CUH

#include <math.h>
#include <stdint.h>

#include "core/common.h"
#include "core/device_alloc.h"
#include "sssp/graph_internal.h"
#include "sssp/sssp_warp.cuh"

namespace gcol {
namespace detail {

/* Threads per block: 512 (2 blocks per SM) or 256 (4 per SM), chosen by
 * nearfar_threads; both at 64 registers a thread. */
constexpr int nf_threads_small = 256, nf_threads_large = 512;

/* One block's buffers: the near queue and the next one, the far pile and
 * the part of it a split keeps (n words each: a vertex is at most once in
 * each, see the top of the file), the generation and split stamps (n words
 * each, zeroed once per call), and with a target list the block's distance
 * row (n floats) and its two lists of pending targets (row words each). */
struct nf_buffers {
  uint32_t *nearq, *nextq, *far, *kept;
  uint32_t *stamp, *fstamp;
  float *dist;                /* targets: the search's distances; else NULL (the output row) */
  uint32_t *pend, *pend_next; /* targets: pending lists; else NULL */
};

/* Where everything of a near-far call lies in its one allocation: the work
 * counter (head_bytes), then every block's queues and stamps (zeroed
 * together with the counter), then with a target list every block's
 * distance row, then every block's pending lists. The policy and the
 * engine size the call with it (block_bytes; nearfar_fit), the engine carves
 * the allocation with it and the kernel finds its block's buffers with it. */
struct nf_layout {
  static constexpr size_t head_bytes = 256;
  static constexpr size_t queue_arrays = 6; /* nf_buffers' n-word arrays */
  uint32_t n;
  bool targets;       /* a target list (distance rows and pending lists) */
  size_t num_targets; /* its length */
  size_t blocks;

  __host__ __device__ size_t queue_bytes() const { return queue_arrays * n * sizeof(uint32_t); }
  __host__ __device__ size_t dist_bytes() const { return targets ? (size_t)n * sizeof(float) : 0; }
  __host__ __device__ size_t pend_bytes() const { return targets ? 2 * num_targets * sizeof(uint32_t) : 0; }
  /* device bytes of one block (what a block more costs) */
  __host__ __device__ size_t block_bytes() const { return queue_bytes() + dist_bytes() + pend_bytes(); }
  /* the counter and every block's queues and stamps: zeroed before the kernel */
  __host__ __device__ size_t zeroed_bytes() const { return head_bytes + blocks * queue_bytes(); }
  __host__ __device__ size_t bytes() const { return head_bytes + blocks * block_bytes(); }

  __device__ nf_buffers block(char *base, size_t b) const {
    nf_buffers r;
    uint32_t *q = (uint32_t *)(base + head_bytes + b * queue_bytes());
    r.nearq = q, r.nextq = q + n, r.far = q + 2 * (size_t)n, r.kept = q + 3 * (size_t)n;
    r.stamp = q + 4 * (size_t)n, r.fstamp = q + 5 * (size_t)n;
    char *rows = base + zeroed_bytes(), *pend = rows + blocks * dist_bytes();
    r.dist = targets ? (float *)(rows + b * dist_bytes()) : nullptr;
    r.pend = targets ? (uint32_t *)(pend + b * pend_bytes()) : nullptr;
    r.pend_next = targets ? r.pend + num_targets : nullptr;
    return r;
  }
};

struct nf_job {
  uint32_t n, num_sources;
  const uint32_t *sources;
  const uint32_t *targets; /* NULL: all vertices (the search runs in the output row) */
  size_t row;              /* output row length: num_targets, or n */
  float *out;              /* num_sources x row */
  char *base;              /* the call's allocation (nf_layout): the work counter first */
  nf_layout lay;
  float delta;
};

/* A block's shared counters. */
template <int WARPS>
struct nf_shared {
  uint32_t src;     /* the source index the block took */
  uint32_t len[3];  /* near, next near, far lengths */
  uint32_t plen[2]; /* pending targets: this list, the next one */
  float min[WARPS]; /* nf_block_min's per-warp minima */
};

/* Stamps: queue generation and far split, never reset (zeroed once); both
 * move on at every source, so no stamp of an earlier source matches. */
struct nf_stamps {
  uint32_t gen, phase;
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

/* The next source index for the block (every thread gets it). */
template <class S>
__device__ __forceinline__ uint32_t nf_take_source(const nf_job &job, S &sh) {
  if (threadIdx.x == 0) sh.src = atomicAdd((uint32_t *)job.base, 1u);
  __syncthreads();
  uint32_t k = sh.src;
  __syncthreads();
  return k;
}

/* Every distance INFINITY, every list empty. */
template <int THREADS, class S>
__device__ __forceinline__ void nf_reset(float *dist, uint32_t n, S &sh) {
  for (uint32_t i = threadIdx.x; i < n; i += THREADS) dist[i] = INFINITY;
  if (threadIdx.x == 0) sh.len[0] = 0, sh.len[1] = 0, sh.len[2] = 0, sh.plen[0] = 0, sh.plen[1] = 0;
  __syncthreads();
}

/* The valid targets go to the pending list. */
template <int THREADS, class S>
__device__ __forceinline__ void nf_pend_targets(const nf_job &job, uint32_t *pend, S &sh) {
  for (size_t j0 = 0; j0 < job.row; j0 += THREADS) {
    size_t j = j0 + threadIdx.x;
    uint32_t v = j < job.row ? __ldg(&job.targets[j]) : job.n;
    nf_append(v < job.n, v, pend, &sh.plen[0]);
  }
}

/* Expand the near queue until it is empty: the warps take its vertices, the
 * lanes their arcs; an improved vertex goes to the next near queue (below
 * t, once per generation) or to the far pile (once per split). Then every
 * distance below t is final. */
template <int THREADS, class G, class S>
__device__ __forceinline__ void nf_expand_near(const G &g, nf_buffers &q, float *dist, float t, nf_stamps &st,
                                               S &sh) {
  constexpr int WARPS = THREADS / 32;
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  while (sh.len[0] > 0) {
    uint32_t len = sh.len[0];
    ++st.gen;
    const uint32_t gen = st.gen, split = st.phase + 1;
    for (uint32_t i = warp; i < len; i += WARPS) {
      uint32_t u = __ldcg(&q.nearq[i]);
      typename G::arcs arcs = g.load(u, lane);
      float du = __ldcg(&dist[u]);
      g.relax_all(arcs, lane, [&](bool ok, uint32_t v, float w) {
        float nd = __fadd_rn(du, w);
        bool better = ok && nd < __int_as_float(atomicMin((int *)&dist[v], __float_as_int(nd)));
        bool near = better && nd < t && atomicExch(&q.stamp[v], gen) != gen;
        bool far_ = better && nd >= t && atomicExch(&q.fstamp[v], split) != split;
        nf_append(near, v, q.nextq, &sh.len[1]);
        nf_append(far_, v, q.far, &sh.len[2]);
        return true;
      });
    }
    __syncthreads();
    if (threadIdx.x == 0) sh.len[0] = sh.len[1], sh.len[1] = 0;
    uint32_t *x = q.nearq;
    q.nearq = q.nextq, q.nextq = x;
    __syncthreads();
  }
}

/* The smallest live distance (at t or above) of the far pile's flen entries:
 * the smallest tentative distance of any vertex not yet final. */
template <int THREADS, class S>
__device__ __forceinline__ float nf_far_min(const nf_buffers &q, uint32_t flen, const float *dist, float t, S &sh) {
  float m = INFINITY;
  for (uint32_t i = threadIdx.x; i < flen; i += THREADS) {
    float d = __ldcg(&dist[__ldcg(&q.far[i])]);
    if (d >= t) m = fminf(m, d);
  }
  return nf_block_min<THREADS / 32>(m, sh.min);
}

/* Targets at m or below are final (top of file): drop them from the pending
 * list (the other list receives the rest, and the two swap). Returns how
 * many are left. */
template <int THREADS, class S>
__device__ __forceinline__ uint32_t nf_drop_final(nf_buffers &q, const float *dist, float m, S &sh) {
  uint32_t plen = sh.plen[0];
  for (uint32_t i0 = 0; i0 < plen; i0 += THREADS) {
    uint32_t i = i0 + threadIdx.x;
    uint32_t v = i < plen ? __ldcg(&q.pend[i]) : 0;
    nf_append(i < plen && __ldcg(&dist[v]) > m, v, q.pend_next, &sh.plen[1]);
  }
  __syncthreads();
  uint32_t left = sh.plen[1];
  __syncthreads();
  if (threadIdx.x == 0) sh.plen[0] = left, sh.plen[1] = 0;
  uint32_t *x = q.pend;
  q.pend = q.pend_next, q.pend_next = x;
  return left;
}

/* Split the far pile's flen entries at the new threshold t2: the live ones
 * (at t or above) below t2 become the near queue, the rest are kept (stamped
 * with the new split, st already moved on) and become the far pile. */
template <int THREADS, class S>
__device__ __forceinline__ void nf_split_far(nf_buffers &q, const float *dist, uint32_t flen, float t, float t2,
                                             const nf_stamps &st, S &sh) {
  const uint32_t gen = st.gen, split = st.phase + 1;
  if (threadIdx.x == 0) sh.len[2] = 0;
  __syncthreads();
  for (uint32_t i0 = 0; i0 < flen; i0 += THREADS) {
    uint32_t i = i0 + threadIdx.x;
    uint32_t v = i < flen ? __ldcg(&q.far[i]) : 0;
    float d = i < flen ? __ldcg(&dist[v]) : 0.0f;
    bool live = i < flen && d >= t;
    bool to_near = live && d < t2 && atomicExch(&q.stamp[v], gen) != gen;
    bool keep = live && d >= t2 && atomicExch(&q.fstamp[v], split) != split;
    nf_append(to_near, v, q.nearq, &sh.len[0]);
    nf_append(keep, v, q.kept, &sh.len[2]);
  }
  uint32_t *x = q.far;
  q.far = q.kept, q.kept = x;
  __syncthreads();
}

/* One source's search from s (not an obstacle) in dist: near queues until
 * empty, then far splits, until nothing is live or no target is pending. */
template <int THREADS, class G, class S>
__device__ __forceinline__ void nf_search(const G &g, const nf_job &job, nf_buffers &q, float *dist, uint32_t s,
                                          nf_stamps &st, S &sh) {
  const bool tl = job.targets != nullptr;
  if (tl) nf_pend_targets<THREADS>(job, q.pend, sh);
  if (threadIdx.x == 0) dist[s] = 0.0f, q.nearq[0] = s, sh.len[0] = 1;
  float t = job.delta;
  __syncthreads();
  if (tl && sh.plen[0] == 0) return; /* no valid target: nothing to search */
  for (;;) {
    nf_expand_near<THREADS>(g, q, dist, t, st, sh);
    uint32_t flen = sh.len[2];
    if (flen == 0) break;
    float m = nf_far_min<THREADS>(q, flen, dist, t, sh);
    if (m == INFINITY) break;
    if (tl && nf_drop_final<THREADS>(q, dist, m, sh) == 0) break;
    float t2 = fmaxf(m + job.delta, __uint_as_float(__float_as_uint(m) + 1)); /* above m even past float precision */
    ++st.gen, ++st.phase;
    nf_split_far<THREADS>(q, dist, flen, t, t2, st, sh);
    t = t2;
  }
}

/* The output row of a target list, from the block's distances. */
template <int THREADS>
__device__ __forceinline__ void nf_write_targets(const nf_job &job, float *row, const float *dist) {
  for (size_t j = threadIdx.x; j < job.row; j += THREADS) {
    uint32_t v = __ldg(&job.targets[j]);
    row[j] = v < job.n ? __ldcg(&dist[v]) : NAN;
  }
}

/* A block per source, taking sources from the work counter. */
template <class G, int THREADS>
__global__ void __launch_bounds__(THREADS, 1024 / THREADS) nearfar_kernel(G g, nf_job job) {
  __shared__ nf_shared<THREADS / 32> sh;
  const uint32_t n = job.n;
  const bool tl = job.targets != nullptr;
  const nf_buffers mine = job.lay.block(job.base, blockIdx.x);
  nf_buffers q = mine; /* the pending lists' roles carry over from source to source */
  nf_stamps st = {0, 0};
  for (;;) {
    uint32_t k = nf_take_source(job, sh);
    if (k >= job.num_sources) break;
    ++st.gen, ++st.phase;
    uint32_t s = job.sources[k];
    float *row = job.out + (size_t)k * job.row;
    float *dist = tl ? mine.dist : row;
    if (s >= n) {
      for (size_t i = threadIdx.x; i < job.row; i += THREADS) row[i] = NAN;
      continue;
    }
    nf_reset<THREADS>(dist, n, sh);
    if (g.source_ok(s)) {
      q.nearq = mine.nearq, q.nextq = mine.nextq, q.far = mine.far, q.kept = mine.kept;
      nf_search<THREADS>(g, job, q, dist, s, st, sh);
    }
    __syncthreads();
    if (tl) nf_write_targets<THREADS>(job, row, dist);
  }
}

/* How many near-far blocks half the free device memory holds, and the
 * layout of one block (nf_layout::block_bytes): the policy (pick_engine)
 * and the engine (nearfar_solve) size a call with this one function. */
struct nearfar_fit {
  nf_layout lay; /* blocks still 0: nearfar_solve sets it */
  size_t mem_blocks;
};
inline gcol_status_t nearfar_fit_in_memory(uint32_t n, bool targets, size_t num_targets, nearfar_fit *out) {
  out->lay.n = n, out->lay.targets = targets, out->lay.num_targets = targets ? num_targets : 0;
  out->lay.blocks = 0;
  size_t free_b = 0, total_b = 0;
  GCOL_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
  out->mem_blocks = free_b / 2 / out->lay.block_bytes();
  return GCOL_SUCCESS;
}

/* The block size of the policy: 512 threads (2 blocks per SM). It won or
 * tied every row of the H100 sweep against 256 (4 per SM), GPU s 256 / 512
 * (docs/experiments.md, issue 27): all vertices, 2D grid 256 sources 0.240 /
 * 0.140, voxel grid 1,024 sources 0.157 / 0.148, road model 0.704 / 0.661,
 * 3-NN road 0.807 / 0.805; target lists of 4,096 sources: voxel 0.562 /
 * 0.538, road model 2.791 / 2.617, 3-NN road 3.219 / 3.219. 256 stays
 * compiled for the test hook (nf_threads) in the test build only. */
inline int nearfar_threads() { return nf_threads_large; }

/* Run a distance table of ns sources on s: to all vertices (d_targets
 * NULL) or to num_targets targets (fit from nearfar_fit_in_memory with the
 * same ones), with blocks of `threads` (256 or 512; the shipped build has
 * 512 only). max_blocks (0: no cap) caps the blocks. The scratch comes from
 * g's allocator. */
template <class G>
gcol_status_t nearfar_solve(const gcol_graph *g, G view, const nearfar_fit &fit, const uint32_t *d_sources,
                            size_t ns, const uint32_t *d_targets, float *d_dist, float delta, int threads,
                            size_t max_blocks, cudaStream_t s) {
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  int bps = 0;
#ifdef GCOL_TESTING
  threads = threads == nf_threads_large ? nf_threads_large : nf_threads_small;
  auto kernel = threads == nf_threads_large ? nearfar_kernel<G, nf_threads_large> : nearfar_kernel<G, nf_threads_small>;
#else
  threads = nf_threads_large;
  auto kernel = nearfar_kernel<G, nf_threads_large>;
#endif
  GCOL_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, kernel, threads, 0));
  if (bps < 1) bps = 1;
  size_t blocks = (size_t)bps * dev.num_sms;
  blocks = blocks < ns ? blocks : ns;
  blocks = blocks < fit.mem_blocks ? blocks : fit.mem_blocks;
  if (max_blocks && blocks > max_blocks) blocks = max_blocks;
  if (blocks == 0) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "not even one near-far block's queues fit in free device memory");
  nf_job job;
  job.lay = fit.lay;
  job.lay.blocks = blocks;
  char *base = nullptr;
  const size_t bytes = job.lay.bytes();
  GCOL_TRY(gcol_device_alloc(&g->allocator, (void **)&base, bytes, s));
  job.n = g->n, job.num_sources = (uint32_t)ns, job.sources = d_sources, job.out = d_dist;
  job.targets = d_targets, job.row = d_targets ? fit.lay.num_targets : g->n;
  job.base = base;
  job.delta = delta;
  cudaError_t e = cudaMemsetAsync(base, 0, job.lay.zeroed_bytes(), s); /* the counter and the stamps */
  if (e == cudaSuccess) {
    kernel<<<(unsigned)blocks, (unsigned)threads, 0, s>>>(view, job);
    e = cudaGetLastError();
  }
  cudaError_t f = gcol_device_free(&g->allocator, base, bytes, s);
  if (e != cudaSuccess) return gcol_from_cuda(e);
  return gcol_from_cuda(f);
}

}  // namespace detail
}  // namespace gcol
#endif
