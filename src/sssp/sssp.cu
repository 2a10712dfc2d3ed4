/* gcol_sssp_many_to_many: persistent warps take sources from a counter and
 * run warp_dijkstra with a heap whose tops and counts sit in shared memory.
 * A frontier larger than that heap is handled in threshold phases
 * (sssp_warp.cuh). A source that still does not fit (more equal keys than
 * the heap holds) or that needs more refills than max_refills is queued; a
 * second kernel solves the queue with heaps in global memory sized for every
 * arc, which cannot overflow (lazy Dijkstra pushes at most once per arc, plus
 * the source) for graphs below about 134M arcs, the heap's limit (past it
 * the fallback works in threshold phases too). Both kernels are always
 * enqueued: the fallback reads the queue length on the device, so the host
 * never waits. */
#include <stdlib.h>

#include "core/common.h"
#include "core/api_scope.h"
#include "core/args.h"
#include "sssp/graph_internal.h"
#include "sssp/sssp_internal.h"
#include "sssp/sssp_warp.cuh"

using gcol::warp_heap;
using gcol::warp_heap_node;
using gcol::detail::api_scope;

/* The solver's test hooks exist only in the test and bench build
 * (GCOL_TESTING; tests/support/sssp_hooks.c); the shipped solver reads
 * constants the compiler folds away. */
#ifdef GCOL_TESTING
#define SSSP_HOOKS gcol_detail_sssp_hooks
#else
static const gcol_detail_sssp_hooks_t no_hooks = {0, NULL, NULL};
#define SSSP_HOOKS no_hooks
#endif

namespace {

constexpr int WARPS_PER_BLOCK = 4; /* 4 x 8.3 KB of heap meta per block at 1,057 nodes */

/* Per-call device state. */
struct sssp_job {
  uint32_t n;
  const uint32_t *sources, *targets; /* targets NULL: all vertices */
  uint32_t num_sources;
  size_t row;                        /* output row length */
  const uint32_t *target_flags;      /* n flags, or NULL */
  const uint32_t *distinct;          /* number of distinct valid targets */
  float *out;
  uint32_t *next;                    /* work counter */
  uint32_t *queue, *queue_len;       /* sources whose primary heap overflowed */
  uint32_t *refills;                 /* test hook, or NULL */
  uint32_t max_refills;              /* per source, before it is queued */
};

/* Per-kernel heap storage: `cap` nodes per warp, meta in shared memory
 * (dynamic, 2 * cap words per warp) or in global arrays. */
struct heap_store {
  warp_heap_node *nodes;
  uint32_t *meta;     /* global meta (2 * cap words per warp), or NULL: shared */
  float *scratch;     /* n floats per warp when targets are given */
  uint32_t cap;
};

__global__ void mark_targets(const uint32_t *targets, size_t num_targets, uint32_t n, uint32_t *flags,
                             uint32_t *distinct) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < num_targets; j += stride) {
    uint32_t t = targets[j];
    if (t < n && atomicExch(&flags[t], 1u) == 0) atomicAdd(distinct, 1u);
  }
}

__device__ void fill_row(float *row, size_t len, float x, unsigned lane) {
  for (size_t j = lane; j < len; j += 32) row[j] = x;
}

/* fallback == false: sources 0..num_sources-1, overflowing ones are queued.
 * fallback == true: the queued sources. */
template <class G>
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32, 8) sssp_kernel(G g, sssp_job job, heap_store hs, bool fallback) {
  extern __shared__ uint32_t smem[];
  unsigned lane = threadIdx.x & 31, wib = threadIdx.x / 32;
  size_t w = (size_t)blockIdx.x * WARPS_PER_BLOCK + wib;
  warp_heap h;
  h.init(hs.nodes + w * hs.cap, (hs.meta ? hs.meta + 2 * w * hs.cap : smem + 2 * hs.cap * wib), hs.cap);
  float *scratch = job.targets ? hs.scratch + w * job.n : NULL;
  uint32_t distinct = job.targets ? *job.distinct : 0;
  uint32_t total = fallback ? *job.queue_len : job.num_sources;
  for (;;) {
    uint32_t k = 0;
    if (lane == 0) k = atomicAdd(job.next, 1u);
    k = __shfl_sync(0xffffffffu, k, 0);
    if (k >= total) break;
    uint32_t i = fallback ? job.queue[k] : k;
    uint32_t s = job.sources[i];
    if (s >= job.n) {
      fill_row(job.out + (size_t)i * job.row, job.row, NAN, lane);
      continue;
    }
    /* One opaque pointer for the search (row is recomputed after it): left
     * as a select between scratch and row, the compiler spilled both and
     * selected at every relaxation (four local loads per settle). */
    float *dist = job.targets ? scratch : job.out + (size_t)i * job.row;
    asm("" : "+l"(dist));
    bool solved = gcol::detail::warp_dijkstra(g, job.n, s, dist, job.target_flags, distinct, job.max_refills, h,
                                              job.refills);
    float *row = job.out + (size_t)i * job.row;
    if (!solved) {
      if (!fallback) {
        if (lane == 0) job.queue[atomicAdd(job.queue_len, 1u)] = i;
      } else {
        fill_row(row, job.row, NAN, lane); /* sized for every arc: only past the heap's limit */
      }
      continue;
    }
    if (job.targets)
      for (size_t j = lane; j < job.row; j += 32) {
        uint32_t t = job.targets[j];
        row[j] = t < job.n ? __ldcg(&dist[t]) : NAN;
      }
    __syncwarp();
  }
}

/* A bump allocator over one cudaMallocAsync block. */
struct carve {
  char *base = nullptr;
  size_t used = 0;
  template <class T>
  T *take(size_t count) {
    size_t at = (used + 255) & ~(size_t)255;
    used = at + count * sizeof(T);
    return base ? (T *)(base + at) : nullptr;
  }
};

struct plan {
  uint32_t warps, fb_warps; /* both multiples of WARPS_PER_BLOCK (fb may be 0) */
  uint32_t cap, fb_cap;
  size_t smem;
};

/* Lay out every buffer (with c.base NULL it only measures). */
void lay_out(carve &c, const gcol_graph *g, const plan &p, bool targets, size_t num_sources, sssp_job &job,
             heap_store &prim, heap_store &fb) {
  size_t n = g->n;
  job.next = c.take<uint32_t>(4); /* next, queue_len, distinct, fallback next */
  job.queue_len = job.next + 1;
  job.distinct = job.next + 2;
  job.queue = c.take<uint32_t>(num_sources);
  job.target_flags = targets ? c.take<uint32_t>(n) : nullptr;
  prim.nodes = c.take<warp_heap_node>((size_t)p.warps * p.cap);
  prim.meta = nullptr;
  prim.scratch = targets ? c.take<float>((size_t)p.warps * n) : nullptr;
  prim.cap = p.cap;
  fb.cap = p.fb_cap;
  fb.nodes = c.take<warp_heap_node>((size_t)p.fb_warps * p.fb_cap);
  fb.meta = c.take<uint32_t>((size_t)p.fb_warps * 2 * p.fb_cap);
  fb.scratch = targets ? c.take<float>((size_t)p.fb_warps * n) : nullptr;
}

/* Primary heap size: the largest (up to GCOL_SSSP_HEAP_NODES) whose shared
 * meta (8 bytes a node) still lets every SM hold the warps that the sources
 * need, up to 32 per SM (the kernel's 64 registers allow 32), within 2/3 of
 * the SM's shared memory. The solver is latency-bound, so resident warps
 * matter more than heap room: an overflow costs one refill from the
 * distances (sssp_warp.cuh), not a restart. The last third stays L1, where
 * the kernel's register spills and the grid's costs are cached: on an H100
 * at 32 warps per SM, 4,096 voxel sources took 1.43 s with 880 nodes (225 KB
 * of meta, 28 KB of L1; 0.6 refills per source), 1.36 s with 700, 1.26 s
 * with 576 (the 2/3 rule; 11 refills per source) and 1.21 s with 450 (21
 * refills per source; each sweep point draws its own sources, so the last
 * two are within noise; bench/RESULTS.md). */
struct smem_limits {
  size_t per_sm, reserved; /* bytes: an SM's shared memory, the part reserved per block */
};
gcol_status_t query_smem(smem_limits *l) {
  int dev = 0, per_sm = 0, reserved = 0;
  GCOL_CUDA_TRY(cudaGetDevice(&dev));
  GCOL_CUDA_TRY(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
  GCOL_CUDA_TRY(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev));
  l->per_sm = (size_t)per_sm, l->reserved = (size_t)reserved;
  return GCOL_SUCCESS;
}

uint32_t primary_heap_nodes(const smem_limits &l, size_t *blocks_per_sm, size_t num_sources, int num_sms) {
  size_t warps = (num_sources + (size_t)num_sms - 1) / (size_t)num_sms;
  warps = (warps + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK * WARPS_PER_BLOCK;
  if (warps > 32) warps = 32;
  size_t blocks = warps / WARPS_PER_BLOCK;
  size_t per_block = l.per_sm * 2 / 3 / blocks - l.reserved;
  size_t nodes = per_block / (WARPS_PER_BLOCK * 2 * sizeof(uint32_t));
  if (nodes > GCOL_SSSP_HEAP_NODES) nodes = GCOL_SSSP_HEAP_NODES;
  if (nodes < 33) nodes = 33; /* root and its children at least */
  *blocks_per_sm = blocks;
  return (uint32_t)nodes;
}

/* The shared-memory share of L1 to ask for, in percent: what `blocks` blocks
 * of `smem` bytes use on one SM. */
int smem_carveout(const smem_limits &l, size_t blocks, size_t smem) {
  size_t used = blocks * (smem + l.reserved);
  size_t pct = (used * 100 + l.per_sm - 1) / l.per_sm;
  return (int)(pct > 100 ? 100 : pct);
}

template <class G>
gcol_status_t solve(const gcol_graph *g, G view, const uint32_t *d_sources, size_t num_sources,
                    const uint32_t *d_targets, size_t num_targets, float *d_dist, cudaStream_t s) {
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  bool targets = d_targets != NULL;
  plan p;
  smem_limits sl;
  GCOL_TRY(query_smem(&sl));
  size_t blocks_per_sm = 0;
  p.cap = primary_heap_nodes(sl, &blocks_per_sm, num_sources, dev.num_sms);
  if (SSSP_HOOKS.heap_nodes) p.cap = SSSP_HOOKS.heap_nodes;
  if (p.cap > GCOL_SSSP_HEAP_NODES) p.cap = GCOL_SSSP_HEAP_NODES;
  p.smem = (size_t)WARPS_PER_BLOCK * 2 * p.cap * sizeof(uint32_t);
  int carveout = smem_carveout(sl, blocks_per_sm, p.smem); /* from the size used, hook included */
  size_t fb_cap = (g->m + 1 + 31) / 32 + 1; /* room for one push per arc plus the source */
  p.fb_cap = (uint32_t)(fb_cap < gcol::detail::heap_max_nodes ? fb_cap : gcol::detail::heap_max_nodes);
  bool may_overflow = (uint64_t)p.cap * 32 < (uint64_t)g->m + 1;

  int bps = 0;
  GCOL_CUDA_TRY(cudaFuncSetAttribute(sssp_kernel<G>, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
  GCOL_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, sssp_kernel<G>, WARPS_PER_BLOCK * 32, p.smem));
  if (bps < 1) bps = 1;
  size_t free_b = 0, total_b = 0;
  GCOL_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
  size_t per_warp = (size_t)p.cap * sizeof(warp_heap_node) + (targets ? (size_t)g->n * 4 : 0);
  size_t per_fb = (size_t)p.fb_cap * (sizeof(warp_heap_node) + 8) + (targets ? (size_t)g->n * 4 : 0);
  size_t blocks_needed = (num_sources + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
  size_t blocks = (size_t)bps * dev.num_sms;
  size_t mem_blocks = free_b / 2 / (per_warp * WARPS_PER_BLOCK);
  blocks = blocks < blocks_needed ? blocks : blocks_needed;
  blocks = blocks < mem_blocks ? blocks : mem_blocks;
  /* fallback: up to one block per SM, within a quarter of the free memory */
  size_t fb_blocks = 0;
  if (may_overflow) {
    fb_blocks = free_b / 4 / (per_fb * WARPS_PER_BLOCK);
    if (fb_blocks > (size_t)dev.num_sms) fb_blocks = dev.num_sms;
    if (fb_blocks > blocks_needed) fb_blocks = blocks_needed;
  }
  if (blocks == 0 || (may_overflow && fb_blocks == 0))
    return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "not even one warp's heap and distance scratch fits in free device memory");
  p.warps = (uint32_t)(blocks * WARPS_PER_BLOCK);
  p.fb_warps = (uint32_t)(fb_blocks * WARPS_PER_BLOCK);
  if (!may_overflow) p.fb_cap = 0;

  sssp_job job;
  job.n = g->n;
  job.sources = d_sources, job.targets = d_targets;
  job.num_sources = (uint32_t)num_sources;
  job.row = targets ? num_targets : g->n;
  job.out = d_dist;
  job.refills = SSSP_HOOKS.d_refills;
  /* Each refill scans the n distances; after 8 m of them (or 64) a heap
   * sized for every arc is the cheaper way to finish the source. */
  uint64_t max_refills = (uint64_t)8 * g->m / (g->n ? g->n : 1);
  job.max_refills = (uint32_t)(max_refills < 64 ? 64 : max_refills > UINT32_MAX ? UINT32_MAX : max_refills);
  heap_store prim, fb;
  carve c;
  lay_out(c, g, p, targets, num_sources, job, prim, fb);
  GCOL_CUDA_TRY(cudaMallocAsync((void **)&c.base, c.used, s));
  c.used = 0;
  lay_out(c, g, p, targets, num_sources, job, prim, fb);

  cudaError_t e = cudaMemsetAsync(job.next, 0, 4 * sizeof(uint32_t), s);
  if (e == cudaSuccess && job.refills) e = cudaMemsetAsync(job.refills, 0, sizeof(uint32_t), s);
  if (e == cudaSuccess && targets) e = cudaMemsetAsync((void *)job.target_flags, 0, (size_t)g->n * 4, s);
  if (e == cudaSuccess && targets) {
    size_t tb = (num_targets + 255) / 256, max_tb = (size_t)dev.num_sms * 8;
    mark_targets<<<(unsigned)(tb < max_tb ? tb : max_tb), 256, 0, s>>>(d_targets, num_targets, g->n,
                                                                       (uint32_t *)job.target_flags,
                                                                       (uint32_t *)job.distinct);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) {
    sssp_kernel<G><<<(unsigned)blocks, WARPS_PER_BLOCK * 32, p.smem, s>>>(view, job, prim, false);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess && may_overflow) {
    sssp_job fjob = job;
    fjob.next = job.next + 3;
    fjob.max_refills = UINT32_MAX; /* its heaps hold every arc (below the heap's limit) */
    sssp_kernel<G><<<(unsigned)fb_blocks, WARPS_PER_BLOCK * 32, 0, s>>>(view, fjob, fb, true);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess && SSSP_HOOKS.d_fallback_sources)
    e = cudaMemcpyAsync(SSSP_HOOKS.d_fallback_sources, job.queue_len, sizeof(uint32_t),
                        cudaMemcpyDeviceToDevice, s);
  cudaError_t f = cudaFreeAsync(c.base, s);
  if (e != cudaSuccess) return gcol_from_cuda(e);
  return gcol_from_cuda(f);
}

}  // namespace

extern "C" gcol_status_t gcol_sssp_many_to_many(const gcol_graph_t *g, const uint32_t *d_sources,
                                                 size_t num_sources, const uint32_t *d_targets, size_t num_targets,
                                                 float *d_dist, cudaStream_t s) {
  api_scope r("gcol_sssp_many_to_many");
  GCOL_TRY(gcol_check_handle(g, g ? g->magic : 0, GCOL_GRAPH_MAGIC, "gcol_graph_t"));
  if (num_sources > UINT32_MAX)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "num_sources %zu is more than 2^32 - 1", num_sources);
  if (!d_targets && num_targets != g->n)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "d_targets is NULL (all vertices) but num_targets %zu is not the "
                     "vertex count %u", num_targets, g->n);
  if (num_targets && num_sources > SIZE_MAX / sizeof(float) / num_targets)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "num_sources x num_targets = %zu x %zu floats overflow size_t",
                     num_sources, num_targets);
  size_t work = num_targets ? num_sources : 0; /* no work: nothing is read or written */
  gcol_dptr_t a[] = {{"d_sources", d_sources, work, 4, "uint32_t vertex ids"},
                     {"d_targets", d_targets, d_targets && num_sources ? num_targets : 0, 4, "uint32_t vertex ids"},
                     {"d_dist", d_dist, work * num_targets, 4, "float distances"}};
  GCOL_TRY(gcol_check_dptrs_host(a, GCOL_NARGS(a)));
  if (work == 0) return GCOL_SUCCESS;
  GCOL_TRY(gcol_require_device());
  GCOL_TRY(gcol_check_dptrs_device(a, GCOL_NARGS(a)));
  if (g->kind == GCOL_GRAPH_GRID) {
    gcol::detail::grid_view v;
    v.cost = g->cost, v.faces = g->faces, v.n = g->n, v.nx = g->nx, v.ny = g->ny;
    gcol_grid_connectivity_class(g->connectivity, &v.max_class);
    return solve(g, v, d_sources, num_sources, d_targets, num_targets, d_dist, s);
  }
  gcol::detail::csr_view v;
  v.off = g->offsets, v.tgt = g->targets, v.w = g->weights;
  return solve(g, v, d_sources, num_sources, d_targets, num_targets, d_dist, s);
}
