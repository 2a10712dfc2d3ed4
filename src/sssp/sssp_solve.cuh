/* The many-to-many solver's machinery, shared by the table calls (sssp.cu)
 * and the path call (paths.cu): persistent warps take work items from a
 * counter and run warp_dijkstra with a heap whose tops and counts sit in
 * shared memory. A frontier larger than that heap is handled in threshold
 * phases (sssp_warp.cuh). An item whose source still does not fit (more
 * equal keys than the heap holds) or that needs more refills than
 * max_refills is queued; a second kernel solves the queue with heaps in
 * global memory sized for every arc, which cannot overflow (lazy Dijkstra
 * pushes at most once per arc, plus the source) for graphs below about 134M
 * arcs, the heap's limit (past it the fallback works in threshold phases
 * too). Both kernels are always enqueued: the fallback reads the queue
 * length on the device, so the host never waits. Included by VARIANT_CU
 * files only (its hooks depend on GCOL_TESTING). */
#ifndef GCOL_SRC_SSSP_SSSP_SOLVE_CUH
#define GCOL_SRC_SSSP_SSSP_SOLVE_CUH

#include <stdlib.h>

#include "core/common.h"
#include "core/device_alloc.h"
#include "core/test_hooks.h"
#include "sssp/graph_internal.h"
#include "sssp/sssp_internal.h"
#include "sssp/sssp_warp.cuh"

using gcol::warp_heap;
using gcol::warp_heap_node;

/* The solver's test hooks (core/test_hooks.h): gcol_test_hooks.sssp in the
 * test and bench build (GCOL_TESTING); the shipped solver reads constants
 * the compiler folds away. */
#define SSSP_HOOKS (GCOL_HOOKS.sssp)

namespace {

constexpr int WARPS_PER_BLOCK = 4; /* 4 x 8.3 KB of heap meta per block at 1,057 nodes */

/* Per-call device state. What a work item is (a source of a table, a run
 * of path pairs) and where its results go is the Task's (sssp_tasks.cuh). */
struct sssp_job {
  uint32_t n;
  uint32_t num_items;                /* work items: the Task's indices */
  const uint32_t *target_flags;      /* n flags (stop once all are settled), or NULL */
  const uint32_t *distinct;          /* number of distinct valid targets */
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
  float *scratch;     /* n floats per warp when the Task searches in scratch rows */
  uint32_t *pscratch; /* the same for predecessors (predecessor Tasks only) */
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

/* fallback == false: items 0..num_items-1, overflowing ones are queued.
 * fallback == true: the queued items. The Task (sssp_tasks.cuh) names an
 * item's source (begin: false when the item needs no search, having written
 * what it must), the rows the search runs in, and what a finished (finish)
 * or hopeless (fail: past the heap's limit) search writes. */
template <class G, class Task>
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32, 8)
    sssp_kernel(G g, sssp_job job, heap_store hs, Task task, bool fallback) {
  extern __shared__ uint32_t smem[];
  unsigned lane = threadIdx.x & 31, wib = threadIdx.x / 32;
  size_t w = (size_t)blockIdx.x * WARPS_PER_BLOCK + wib;
  warp_heap h;
  h.init(hs.nodes + w * hs.cap, (hs.meta ? hs.meta + 2 * w * hs.cap : smem + 2 * hs.cap * wib), hs.cap);
  float *scratch = hs.scratch ? hs.scratch + w * job.n : NULL;
  uint32_t *pscratch = Task::PRED && hs.pscratch ? hs.pscratch + w * job.n : NULL;
  uint32_t distinct = job.target_flags ? *job.distinct : 0;
  uint32_t total = fallback ? *job.queue_len : job.num_items;
  for (;;) {
    uint32_t k = 0;
    if (lane == 0) k = atomicAdd(job.next, 1u);
    k = __shfl_sync(0xffffffffu, k, 0);
    if (k >= total) break;
    uint32_t i = fallback ? job.queue[k] : k;
    uint32_t s;
    if (!task.begin(i, s, lane)) continue;
    /* One opaque pointer for the search: left as a select between scratch
     * and row, the compiler spilled both and selected at every relaxation
     * (four local loads per settle). */
    float *dist = task.dist_row(i, scratch);
    asm("" : "+l"(dist));
    uint32_t *pred = NULL;
    if (Task::PRED) {
      pred = task.pred_row(i, pscratch);
      asm("" : "+l"(pred));
    }
    bool solved = gcol::detail::warp_dijkstra<Task::PRED>(g, job.n, s, dist, pred, job.target_flags, distinct,
                                                          job.max_refills, h, job.refills);
    if (!solved) {
      if (!fallback) {
        if (lane == 0) job.queue[atomicAdd(job.queue_len, 1u)] = i;
      } else {
        task.fail(i, lane); /* sized for every arc: only past the heap's limit */
      }
      continue;
    }
    __syncwarp(); /* every lane's dist and pred stores are visible to the warp */
    task.finish(i, s, dist, pred, lane);
    __syncwarp();
  }
}

/* A bump allocator over one block of the graph's allocator. */
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

/* What a call's searches need besides heaps: target flags (early stop),
 * distance rows in scratch, predecessor rows in scratch. */
struct needs {
  bool flags, scratch, pscratch;
};

/* Lay out every buffer (with c.base NULL it only measures). */
void lay_out(carve &c, const gcol_graph *g, const plan &p, const needs &nd, size_t num_items, sssp_job &job,
             heap_store &prim, heap_store &fb) {
  size_t n = g->n;
  job.next = c.take<uint32_t>(4); /* next, queue_len, distinct, fallback next */
  job.queue_len = job.next + 1;
  job.distinct = job.next + 2;
  job.queue = c.take<uint32_t>(num_items);
  job.target_flags = nd.flags ? c.take<uint32_t>(n) : nullptr;
  prim.nodes = c.take<warp_heap_node>((size_t)p.warps * p.cap);
  prim.meta = nullptr;
  prim.scratch = nd.scratch ? c.take<float>((size_t)p.warps * n) : nullptr;
  prim.pscratch = nd.pscratch ? c.take<uint32_t>((size_t)p.warps * n) : nullptr;
  prim.cap = p.cap;
  fb.cap = p.fb_cap;
  fb.nodes = c.take<warp_heap_node>((size_t)p.fb_warps * p.fb_cap);
  fb.meta = c.take<uint32_t>((size_t)p.fb_warps * 2 * p.fb_cap);
  fb.scratch = nd.scratch ? c.take<float>((size_t)p.fb_warps * n) : nullptr;
  fb.pscratch = nd.pscratch ? c.take<uint32_t>((size_t)p.fb_warps * n) : nullptr;
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
 * two are within noise; docs/experiments.md). */
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

/* Run the searches of num_items Task items on s. d_flag_targets (may be
 * NULL): the searches stop once all of these are settled. scratch: the
 * Task's searches run in per-warp rows (not in its output). */
template <class G, class Task>
gcol_status_t solve(const gcol_graph *g, G view, const Task &task, size_t num_items, bool scratch,
                    const uint32_t *d_flag_targets, size_t num_flag_targets, cudaStream_t s) {
  gcol_device_info_t dev;
  GCOL_TRY(gcol_current_device_info(&dev));
  size_t num_sources = num_items;
  needs nd = {d_flag_targets != NULL, scratch, scratch && Task::PRED};
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
  auto kernel = sssp_kernel<G, Task>;
  GCOL_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
  GCOL_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, kernel, WARPS_PER_BLOCK * 32, p.smem));
  if (bps < 1) bps = 1;
  size_t free_b = 0, total_b = 0;
  GCOL_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
  size_t rows = (size_t)g->n * 4 * ((nd.scratch ? 1 : 0) + (nd.pscratch ? 1 : 0));
  size_t per_warp = (size_t)p.cap * sizeof(warp_heap_node) + rows;
  size_t per_fb = (size_t)p.fb_cap * (sizeof(warp_heap_node) + 8) + rows;
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
  job.num_items = (uint32_t)num_items;
  job.refills = SSSP_HOOKS.d_refills;
  /* Each refill scans the n distances; after 8 m of them (or 64) a heap
   * sized for every arc is the cheaper way to finish the source. */
  uint64_t max_refills = (uint64_t)8 * g->m / (g->n ? g->n : 1);
  job.max_refills = (uint32_t)(max_refills < 64 ? 64 : max_refills > UINT32_MAX ? UINT32_MAX : max_refills);
  heap_store prim, fb;
  carve c;
  lay_out(c, g, p, nd, num_items, job, prim, fb);
  const size_t bytes = c.used;
  GCOL_TRY(gcol_device_alloc(&g->allocator, (void **)&c.base, bytes, s));
  c.used = 0;
  lay_out(c, g, p, nd, num_items, job, prim, fb);

  cudaError_t e = cudaMemsetAsync(job.next, 0, 4 * sizeof(uint32_t), s);
  if (e == cudaSuccess && job.refills) e = cudaMemsetAsync(job.refills, 0, sizeof(uint32_t), s);
  if (e == cudaSuccess && nd.flags) e = cudaMemsetAsync((void *)job.target_flags, 0, (size_t)g->n * 4, s);
  if (e == cudaSuccess && nd.flags) {
    size_t tb = (num_flag_targets + 255) / 256, max_tb = (size_t)dev.num_sms * 8;
    mark_targets<<<(unsigned)(tb < max_tb ? tb : max_tb), 256, 0, s>>>(d_flag_targets, num_flag_targets, g->n,
                                                                       (uint32_t *)job.target_flags,
                                                                       (uint32_t *)job.distinct);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) {
    kernel<<<(unsigned)blocks, WARPS_PER_BLOCK * 32, p.smem, s>>>(view, job, prim, task, false);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess && may_overflow) {
    sssp_job fjob = job;
    fjob.next = job.next + 3;
    fjob.max_refills = UINT32_MAX; /* its heaps hold every arc (below the heap's limit) */
    kernel<<<(unsigned)fb_blocks, WARPS_PER_BLOCK * 32, 0, s>>>(view, fjob, fb, task, true);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess && SSSP_HOOKS.d_fallback_sources)
    e = cudaMemcpyAsync(SSSP_HOOKS.d_fallback_sources, job.queue_len, sizeof(uint32_t),
                        cudaMemcpyDeviceToDevice, s);
  cudaError_t f = gcol_device_free(&g->allocator, c.base, bytes, s);
  if (e != cudaSuccess) return gcol_from_cuda(e);
  return gcol_from_cuda(f);
}



/* The graph's view for the kernels, and solve() over it. */
template <class Task>
gcol_status_t solve_on(const gcol_graph *g, const Task &task, size_t num_items, bool scratch,
                       const uint32_t *d_flag_targets, size_t num_flag_targets, cudaStream_t s) {
  if (g->kind == GCOL_GRAPH_GRID) {
    gcol::detail::grid_view v;
    v.cost = g->cost, v.faces = g->faces, v.n = g->n, v.nx = g->nx, v.ny = g->ny;
    gcol_grid_connectivity_class(g->connectivity, &v.max_class);
    return solve(g, v, task, num_items, scratch, d_flag_targets, num_flag_targets, s);
  }
  gcol::detail::csr_view v;
  v.off = g->offsets, v.tgt = g->targets, v.w = g->weights;
  return solve(g, v, task, num_items, scratch, d_flag_targets, num_flag_targets, s);
}

}  // namespace

#endif
