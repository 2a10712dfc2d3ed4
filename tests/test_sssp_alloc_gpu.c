/* GPU tests of the shortest-path module under a user allocator (issue 42,
 * item 5): a graph made with gcol_graph_config_t's allocator takes its
 * arrays and every call's scratch from it, on the call's stream, and gives
 * all of it back; an allocator that refuses makes the call return
 * GCOL_ERROR_OUT_OF_MEMORY with nothing written, and the next call works. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sssp/graph_internal.h"
#include "sssp/sssp_internal.h"
#include "sssp_test_util.h"

/* ---- a counting allocator ------------------------------------------------
 * Memory from a pool of its own (not the device's current pool), every
 * block remembered with its size; a free of an unknown pointer or with
 * another size counts as bad. Streams: with check_stream set, every alloc
 * and free must come with `stream`. */
enum { MAX_BLOCKS = 64 };
typedef struct {
  cudaMemPool_t pool;
  int refuse;              /* every alloc gives NULL */
  unsigned fail_at, calls; /* fail the fail_at-th call (0: never) */
  size_t live, total;      /* bytes held now, bytes ever given */
  unsigned allocs, frees, bad_frees, wrong_streams;
  int check_stream;
  cudaStream_t stream;
  size_t last_bytes; /* the size of the last block given */
  struct {
    void *p;
    size_t bytes;
  } blocks[MAX_BLOCKS];
  size_t nblocks;
} count_alloc_t;

static void *count_alloc(void *ctx, size_t bytes, cudaStream_t s) {
  count_alloc_t *a = ctx;
  if (a->check_stream && s != a->stream) ++a->wrong_streams;
  if (a->refuse || ++a->calls == a->fail_at || a->nblocks == MAX_BLOCKS) return NULL;
  void *p = NULL;
  if (cudaMallocFromPoolAsync(&p, bytes, a->pool, s) != cudaSuccess) {
    (void)cudaGetLastError();
    return NULL;
  }
  a->blocks[a->nblocks].p = p, a->blocks[a->nblocks].bytes = bytes, ++a->nblocks;
  a->live += bytes, a->total += bytes, a->last_bytes = bytes, ++a->allocs;
  return p;
}

static void count_free(void *ctx, void *p, size_t bytes, cudaStream_t s) {
  count_alloc_t *a = ctx;
  if (a->check_stream && s != a->stream) ++a->wrong_streams;
  size_t i = 0;
  while (i < a->nblocks && a->blocks[i].p != p) ++i;
  if (i == a->nblocks || a->blocks[i].bytes != bytes) {
    ++a->bad_frees;
    return;
  }
  a->blocks[i] = a->blocks[--a->nblocks];
  a->live -= bytes, ++a->frees;
  cudaFreeAsync(p, s);
}

/* A memory pool of the current device's own (not its current pool). */
static cudaError_t new_pool(cudaMemPool_t *pool) {
  int dev = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e != cudaSuccess) return e;
  struct cudaMemPoolProps props;
  memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = dev;
  return cudaMemPoolCreate(pool, &props);
}

static int count_init(count_alloc_t *a) {
  memset(a, 0, sizeof *a);
  return new_pool(&a->pool) == cudaSuccess ? 0 : -1;
}

/* 1 when the allocator holds exactly this block (the graph's arrays). */
static int holds(const count_alloc_t *a, const void *p, size_t bytes) {
  for (size_t i = 0; i < a->nblocks; ++i)
    if (a->blocks[i].p == p) return a->blocks[i].bytes == bytes;
  return 0;
}

static gcol_graph_config_t config_of(count_alloc_t *a) {
  gcol_graph_config_t c = gcol_graph_config_default();
  c.allocator.alloc = count_alloc, c.allocator.free = count_free, c.allocator.ctx = a;
  return c;
}

static void reset_hooks(void) {
  gcol_test_hooks.sssp.engine = 0, gcol_test_hooks.sssp.nf_blocks = 0;
  gcol_test_hooks.sssp.nf_threads = 0, gcol_test_hooks.sssp.delta_factor = 0.0f;
}

static gcol_graph_t *csr_with(const gcol_ref_csr_t *h, const gcol_graph_config_t *c, cudaStream_t s,
                              gcol_status_t *st) {
  void *o = tu_to_device(h->offsets, ((size_t)h->n + 1) * 4);
  void *t = tu_to_device(h->targets, h->m * 4), *w = tu_to_device(h->weights, h->m * 4);
  gcol_graph_t *g = NULL;
  *st = o && t && w ? gcol_graph_create_csr_with(&g, h->n, h->m, o, t, w, c, s) : GCOL_ERROR_CUDA;
  cudaDeviceSynchronize();
  tu_free(o), tu_free(t), tu_free(w);
  return g;
}

/* The CPU table's distances equal the GPU's (host copies of d rows x cols). */
static int same_as_cpu(const gcol_ref_csr_t *h, const uint32_t *src, size_t ns, const uint32_t *tgt, size_t nt,
                       const float *d_dist) {
  float *want = malloc(ns * nt * 4), *got = malloc(ns * nt * 4);
  int ok = want && got && gcol_ref_many_to_many(h, src, ns, tgt, nt, want, 0) >= 0 &&
           tu_to_host(got, d_dist, ns * nt * 4) == 0 && st_same_table(want, got, ns, nt);
  free(want), free(got);
  return ok;
}

/* Every word of a device buffer still holds the poison (tu_poisoned). */
static int untouched(const void *d, size_t bytes) {
  unsigned char *h = malloc(bytes);
  int ok = h && tu_to_host(h, d, bytes) == 0;
  for (size_t i = 0; ok && i < bytes; ++i) ok = h[i] == 0xA5;
  free(h);
  return ok;
}

/* Every byte the graph and the calls on it allocate comes from the
 * allocator, on the call's stream, and goes back: the graph's arrays are the
 * allocator's blocks of their sizes; each table call takes one block (near-far
 * with 2 blocks: exactly 256 + 2 x (24 n) bytes, or 256 + 2 x (28 n + 8 nt)
 * with targets, gcol.h's sizes), each path call two; while it all runs the
 * device's current pool (where cudaMallocAsync would take memory) stays
 * unused; after destroy nothing is held. */
TEST(sssp_alloc_counting_allocator_sees_every_byte) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x42a5};
  int dev = 0;
  CHECK_CUDA(cudaGetDevice(&dev));
  cudaMemPool_t was, trap;
  CHECK_CUDA(cudaDeviceGetMemPool(&was, dev));
  CHECK_CUDA(new_pool(&trap));
  count_alloc_t a;
  CHECK(count_init(&a) == 0);
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  gcol_ref_csr_t h;
  CHECK(st_random_graph(3000, 12000, 1, &r, &h) == 0);
  size_t n = h.n, ns = 24, nt = 40;
  uint32_t *src = st_random_ids(ns, h.n, &r), *tgt = st_random_ids(nt, h.n, &r);
  uint32_t *ds = tu_to_device(src, ns * 4), *dt = tu_to_device(tgt, nt * 4);
  float *dd = tu_poisoned(ns * n * 4), *pd = tu_poisoned(ns * 4);
  uint32_t *dp = tu_poisoned(ns * nt * 4), *pv = tu_poisoned(ns * n * 4);
  uint64_t *po = tu_poisoned((ns + 1) * 8);
  CHECK(src && tgt && ds && dt && dd && pd && dp && pv && po);
  /* from here, cudaMallocAsync would take from `trap` */
  CHECK_CUDA(cudaDeviceSetMemPool(dev, trap));
  a.check_stream = 1, a.stream = s;
  gcol_graph_config_t c = config_of(&a);
  gcol_status_t st;
  gcol_graph_t *g = csr_with(&h, &c, s, &st);
  int ok = st == GCOL_SUCCESS && g;
  /* the arrays are the allocator's; the verdict came and went */
  ok = ok && a.allocs == 4 && a.frees == 1 && a.nblocks == 3;
  ok = ok && holds(&a, g->offsets, (n + 1) * 4) && holds(&a, g->targets, h.m * 4) && holds(&a, g->weights, h.m * 4);
  if (!ok) fprintf(stderr, "    create: %s, %u allocs, %u frees\n", gcol_status_string(st), a.allocs, a.frees);
  size_t held = a.live;
  /* near-far, 2 blocks: all vertices, then the target list */
  gcol_test_hooks.sssp.engine = 2, gcol_test_hooks.sssp.nf_blocks = 2;
  unsigned before = a.allocs;
  ok = ok && gcol_sssp_many_to_many(g, ds, ns, NULL, n, dd, s) == GCOL_SUCCESS;
  ok = ok && a.allocs == before + 1 && a.last_bytes == 256 + 2 * (24 * n) && a.live == held;
  ok = ok && gcol_test_hooks.sssp.last_engine == 2;
  ok = ok && cudaStreamSynchronize(s) == cudaSuccess && same_as_cpu(&h, src, ns, NULL, n, dd);
  if (!ok) fprintf(stderr, "    near-far, all vertices: last block %zu bytes\n", a.last_bytes);
  ok = ok && gcol_sssp_many_to_many(g, ds, ns, dt, nt, dd, s) == GCOL_SUCCESS;
  ok = ok && a.allocs == before + 2 && a.last_bytes == 256 + 2 * (28 * n + 8 * nt) && a.live == held;
  ok = ok && cudaStreamSynchronize(s) == cudaSuccess && same_as_cpu(&h, src, ns, tgt, nt, dd);
  if (!ok) fprintf(stderr, "    near-far, targets: last block %zu bytes\n", a.last_bytes);
  /* the warp engine, the policy's choice, predecessors: one block each */
  const uint32_t engines[2] = {1, 0};
  for (int e = 0; e < 2 && ok; ++e) {
    reset_hooks();
    gcol_test_hooks.sssp.engine = engines[e];
    before = a.allocs;
    ok = gcol_sssp_many_to_many(g, ds, ns, dt, nt, dd, s) == GCOL_SUCCESS && a.allocs == before + 1 &&
         a.live == held && cudaStreamSynchronize(s) == cudaSuccess && same_as_cpu(&h, src, ns, tgt, nt, dd);
    if (!ok) fprintf(stderr, "    engine hook %u\n", engines[e]);
  }
  reset_hooks();
  before = a.allocs;
  ok = ok && gcol_sssp_many_to_many_pred(g, ds, ns, dt, nt, dd, dp, s) == GCOL_SUCCESS;
  ok = ok && a.allocs == before + 1 && a.live == held;
  ok = ok && cudaStreamSynchronize(s) == cudaSuccess && same_as_cpu(&h, src, ns, tgt, nt, dd);
  /* paths of ns pairs (source i, target i): the sort's block and the search's */
  before = a.allocs;
  ok = ok && gcol_sssp_paths(g, ds, dt, ns, po, pv, ns * n, pd, s) == GCOL_SUCCESS;
  ok = ok && a.allocs == before + 2 && a.live == held && cudaStreamSynchronize(s) == cudaSuccess;
  if (ok) {
    float *want = malloc(ns * nt * 4), *got = malloc(ns * 4);
    ok = want && got && gcol_ref_many_to_many(&h, src, ns, tgt, nt, want, 0) >= 0 && tu_to_host(got, pd, ns * 4) == 0;
    for (size_t i = 0; ok && i < ns; ++i) ok = st_same_table(&want[i * nt + i], &got[i], 1, 1);
    free(want), free(got);
  }
  /* a grid: costs and faces */
  size_t gn = 20 * 16 * 6;
  float *cost = st_random_costs(gn, 0.1, &r);
  void *dc = tu_to_device(cost, gn * 4);
  gcol_graph_t *grid = NULL;
  ok = ok && cost && dc && gcol_graph_create_grid3d_with(&grid, 20, 16, 6, dc, 26, &c, s) == GCOL_SUCCESS;
  ok = ok && holds(&a, grid->cost, gn * 4) && holds(&a, grid->faces, gn) && a.live == held + gn * 5;
  ok = ok && gcol_sssp_many_to_many(grid, ds, ns, NULL, gn, dd, s) == GCOL_SUCCESS && a.live == held + gn * 5;
  cudaStreamSynchronize(s);
  /* destroy: the arrays go back (on stream 0, after a device synchronization) */
  a.check_stream = 0;
  gcol_graph_destroy(grid);
  gcol_graph_destroy(g);
  CHECK_CUDA(cudaDeviceSynchronize());
  size_t used_high = 1;
  CHECK_CUDA(cudaMemPoolGetAttribute(trap, cudaMemPoolAttrUsedMemHigh, &used_high));
  CHECK_CUDA(cudaDeviceSetMemPool(dev, was));
  reset_hooks();
  if (!ok || a.live || a.nblocks || a.bad_frees || a.wrong_streams || used_high)
    fprintf(stderr, "    live %zu, blocks %zu, bad frees %u, wrong streams %u, current pool used %zu\n", a.live,
            a.nblocks, a.bad_frees, a.wrong_streams, used_high);
  CHECK(ok);
  CHECK(a.live == 0 && a.nblocks == 0 && a.allocs == a.frees && a.bad_frees == 0 && a.wrong_streams == 0);
  CHECK(used_high == 0); /* nothing went around the allocator to cudaMallocAsync */
  free(src), free(tgt), free(cost);
  tu_free(ds), tu_free(dt), tu_free(dd), tu_free(pd), tu_free(dp), tu_free(pv), tu_free(po), tu_free(dc);
  gcol_ref_csr_free(&h);
  CHECK_CUDA(cudaStreamDestroy(s));
  CHECK_CUDA(cudaMemPoolDestroy(trap));
  CHECK_CUDA(cudaMemPoolDestroy(a.pool));
  return TEST_PASS;
}

/* An allocator that refuses: creation fails at each of its allocations with
 * GCOL_ERROR_OUT_OF_MEMORY, no handle and nothing held; on a graph that
 * exists, every call fails the same way with its outputs untouched, and the
 * same call works once the allocator gives memory again. */
TEST(sssp_alloc_refusing_allocator_gives_out_of_memory) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x42a6};
  count_alloc_t a;
  CHECK(count_init(&a) == 0);
  gcol_graph_config_t c = config_of(&a);
  gcol_ref_csr_t h;
  CHECK(st_random_graph(2000, 8000, 1, &r, &h) == 0);
  size_t n = h.n, ns = 16, nt = 30;
  /* creation: offsets, targets, weights, verdict (CSR); costs, faces, verdict (grid) */
  for (unsigned k = 1; k <= 4; ++k) {
    a.calls = 0, a.fail_at = k;
    gcol_status_t st;
    gcol_graph_t *g = csr_with(&h, &c, 0, &st);
    CHECK_STATUS(st, GCOL_ERROR_OUT_OF_MEMORY);
    CHECK(g == NULL && a.live == 0 && a.nblocks == 0);
    CHECK(strstr(gcol_last_error_message(), "gcol_graph_create_csr_with: the allocator gave no memory"));
  }
  float *cost = st_random_costs(12 * 10 * 4, 0.1, &r);
  void *dc = tu_to_device(cost, 12 * 10 * 4 * 4);
  CHECK(cost && dc);
  for (unsigned k = 1; k <= 3; ++k) {
    a.calls = 0, a.fail_at = k;
    gcol_graph_t *g = (gcol_graph_t *)&c;
    CHECK_STATUS(gcol_graph_create_grid3d_with(&g, 12, 10, 4, dc, 6, &c, 0), GCOL_ERROR_OUT_OF_MEMORY);
    CHECK(g == NULL && a.live == 0);
  }
  a.calls = 0, a.fail_at = 0;
  gcol_status_t st;
  gcol_graph_t *g = csr_with(&h, &c, 0, &st);
  CHECK_OK(st);
  CHECK(g);
  size_t held = a.live;
  uint32_t *src = st_random_ids(ns, h.n, &r), *tgt = st_random_ids(nt, h.n, &r);
  uint32_t *ds = tu_to_device(src, ns * 4), *dt = tu_to_device(tgt, nt * 4);
  float *dd = tu_poisoned(ns * n * 4), *pd = tu_poisoned(ns * 4);
  uint32_t *dp = tu_poisoned(ns * nt * 4), *pv = tu_poisoned(ns * n * 4);
  uint64_t *po = tu_poisoned((ns + 1) * 8);
  CHECK(src && tgt && ds && dt && dd && pd && dp && pv && po);
  int ok = 1;
  /* tables: the policy's engine, forced near-far and warp, all vertices and targets */
  const uint32_t engines[3] = {0, 2, 1};
  for (int e = 0; e < 3 && ok; ++e)
    for (int all = 0; all < 2 && ok; ++all) {
      gcol_test_hooks.sssp.engine = engines[e];
      const uint32_t *targets = all ? NULL : dt;
      size_t cols = all ? n : nt;
      a.refuse = 1;
      ok = gcol_sssp_many_to_many(g, ds, ns, targets, cols, dd, 0) == GCOL_ERROR_OUT_OF_MEMORY;
      ok = ok && strstr(gcol_last_error_message(), "gcol_sssp_many_to_many: the allocator gave no memory") != NULL;
      ok = ok && cudaDeviceSynchronize() == cudaSuccess && untouched(dd, ns * cols * 4);
      a.refuse = 0;
      ok = ok && gcol_sssp_many_to_many(g, ds, ns, targets, cols, dd, 0) == GCOL_SUCCESS;
      ok = ok && cudaDeviceSynchronize() == cudaSuccess && same_as_cpu(&h, src, ns, all ? NULL : tgt, cols, dd);
      ok = ok && a.live == held;
      if (!ok) fprintf(stderr, "    engine hook %u, %s: %s\n", engines[e], all ? "all" : "targets",
                       gcol_last_error_message());
      CHECK_CUDA(cudaMemset(dd, 0xA5, ns * n * 4));
    }
  reset_hooks();
  CHECK(ok);
  /* predecessors */
  a.refuse = 1;
  CHECK_STATUS(gcol_sssp_many_to_many_pred(g, ds, ns, dt, nt, dd, dp, 0), GCOL_ERROR_OUT_OF_MEMORY);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(untouched(dd, ns * nt * 4) && untouched(dp, ns * nt * 4));
  a.refuse = 0;
  CHECK_OK(gcol_sssp_many_to_many_pred(g, ds, ns, dt, nt, dd, dp, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(same_as_cpu(&h, src, ns, tgt, nt, dd));
  /* paths: the first allocation (the sort) refused, then the second (the search) */
  for (unsigned k = 1; k <= 2; ++k) {
    a.calls = 0, a.fail_at = k;
    CHECK_STATUS(gcol_sssp_paths(g, ds, dt, ns, po, pv, ns * n, pd, 0), GCOL_ERROR_OUT_OF_MEMORY);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(untouched(po, (ns + 1) * 8) && untouched(pv, ns * n * 4) && untouched(pd, ns * 4));
    CHECK(a.live == held);
  }
  a.calls = 0, a.fail_at = 0;
  CHECK_OK(gcol_sssp_paths(g, ds, dt, ns, po, pv, ns * n, pd, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  uint64_t total = 0;
  CHECK(tu_to_host(&total, po + ns, 8) == 0 && total >= 1);
  gcol_graph_destroy(g);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(a.live == 0 && a.nblocks == 0 && a.bad_frees == 0);
  free(src), free(tgt), free(cost);
  tu_free(ds), tu_free(dt), tu_free(dd), tu_free(pd), tu_free(dp), tu_free(pv), tu_free(po), tu_free(dc);
  gcol_ref_csr_free(&h);
  CHECK_CUDA(cudaMemPoolDestroy(a.pool));
  return TEST_PASS;
}
