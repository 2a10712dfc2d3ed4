/* GPU tests of the near-far engine with target lists (it stops a source's
 * search once every target is final) and of the engine policy, against the
 * CPU reference; the engine is forced through the solver's hooks. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "sssp/sssp_internal.h"
#include "sssp_test_util.h"

enum { WARP = 1, NEARFAR = 2 };

static void reset_hooks(void) {
  gcol_test_hooks.sssp.engine = 0, gcol_test_hooks.sssp.delta_factor = 0.0f;
  gcol_test_hooks.sssp.nf_blocks = 0, gcol_test_hooks.sssp.nf_threads = 0;
}

/* Sources and targets with the awkward cases: an invalid source (NaN row),
 * the isolated last vertex as source and target (split graphs), duplicate
 * targets and out-of-range ones (NaN columns). */
static void awkward_ids(uint32_t *src, size_t ns, uint32_t *tgt, size_t nt, uint32_t n) {
  src[0] = n - 1, src[ns - 1] = 0xffffffffu;
  tgt[1] = tgt[0], tgt[2] = n + 5, tgt[3] = n - 1, tgt[nt - 1] = 0xffffffffu, tgt[nt - 2] = tgt[4];
}

/* Random CSR graphs (zero weights, self loops, parallel arcs, unreachable
 * parts), then with weights cut to whole numbers (many equal-cost ties):
 * forced near-far at bucket widths from a thousandth to a million mean
 * weights, with blocks of 256 and 512 threads, all of them or 2-3 blocks
 * (several sources per block), against the CPU. */
TEST(sssp_nearfar_targets_csr_ties_zeros_unreachable) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x27a1};
  int small = test_max_n() < 20000;
  const float factors[] = {8.0f, 1e-3f, 1e6f};
  const uint32_t blocks[] = {3, 0, 2}, threads[] = {256, 0, 512}; /* 0: the policy's (512 for 40 sources) */
  for (int ties = 0; ties < 2; ++ties) {
    gcol_ref_csr_t h;
    CHECK(st_random_graph(1500, 6000, 1, &r, &h) == 0);
    for (size_t e = 0; ties && e < h.m; ++e) h.weights[e] = floorf(h.weights[e] / 3.0f);
    gcol_graph_t *g = st_device_graph(&h);
    CHECK(g);
    size_t ns = 40, nt = 60;
    uint32_t *src = st_random_ids(ns, h.n, &r), *tgt = st_random_ids(nt, h.n, &r);
    awkward_ids(src, ns, tgt, nt, h.n);
    int ok = 1;
    gcol_test_hooks.sssp.engine = NEARFAR;
    for (int f = 0; f < (small ? 1 : 3) && ok; ++f)
      for (int b = 0; b < 3 && ok; ++b) {
        gcol_test_hooks.sssp.delta_factor = factors[f], gcol_test_hooks.sssp.nf_blocks = blocks[b];
        gcol_test_hooks.sssp.nf_threads = threads[b];
        ok = st_check_table(&h, g, src, ns, tgt, nt);
        ok = ok && gcol_test_hooks.sssp.last_engine == NEARFAR;
        if (!ok) fprintf(stderr, "    delta %g, blocks %u, threads %u\n", factors[f], blocks[b], threads[b]);
      }
    reset_hooks();
    CHECK(ok);
    free(src), free(tgt);
    gcol_graph_destroy(g);
    gcol_ref_csr_free(&h);
  }
  return TEST_PASS;
}

/* 2D and 3D grids with obstacles: a source on an obstacle (its row is
 * INFINITY), targets on obstacles, several sources per block; then a target
 * list with no valid id (NaN columns, no search). */
TEST(sssp_nearfar_targets_grids_obstacles) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x27a2};
  const uint32_t dims[2][3] = {{12, 10, 8}, {48, 40, 1}};
  const int conns[2] = {26, 6};
  gcol_test_hooks.sssp.engine = NEARFAR;
  gcol_test_hooks.sssp.nf_blocks = 4;
  int ok = 1;
  for (int d = 0; d < 2 && ok; ++d)
    for (int c = 0; c < 2 && ok; ++c) {
      uint32_t n = dims[d][0] * dims[d][1] * dims[d][2];
      float *cost = st_random_costs(n, 0.15, &r);
      cost[0] = cost[7] = INFINITY;
      gcol_ref_csr_t h;
      gcol_graph_t *g = st_grid_graph(dims[d][0], dims[d][1], dims[d][2], cost, conns[c], &h);
      ok = g != NULL;
      uint32_t *src = st_random_ids(24, n, &r), *tgt = st_random_ids(40, n, &r);
      awkward_ids(src, 24, tgt, 40, n);
      src[1] = 0, tgt[5] = 7; /* an obstacle as source, one as target */
      gcol_test_hooks.sssp.nf_threads = c ? 512 : 256;
      ok = ok && st_check_table(&h, g, src, 24, tgt, 40);
      uint32_t bad[3] = {n, n + 1, 0xffffffffu};
      ok = ok && st_check_table(&h, g, src, 24, bad, 3);
      if (!ok) fprintf(stderr, "    grid %u x %u x %u, %d-connected\n", dims[d][0], dims[d][1], dims[d][2], conns[c]);
      free(src), free(tgt), free(cost);
      gcol_graph_destroy(g);
      gcol_ref_csr_free(&h);
    }
  reset_hooks();
  CHECK(ok);
  return TEST_PASS;
}

/* The policy and its overrides: a small graph's distances-only calls (all
 * vertices or a target list) go to near-far, predecessors to the warp
 * engine; forced either way the tables are the same as the CPU's. Also
 * all-vertex tables with several sources per near-far block (the far pile's
 * stamps must not carry over from one source to the next). */
TEST(sssp_nearfar_policy_and_forced_engines) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x27a3};
  gcol_ref_csr_t h;
  CHECK(st_random_graph(2000, 9000, 1, &r, &h) == 0);
  gcol_graph_t *g = st_device_graph(&h);
  CHECK(g);
  size_t ns = test_max_n() < 20000 ? 30 : 200, nt = 50;
  uint32_t *src = st_random_ids(ns, h.n, &r), *tgt = st_random_ids(nt, h.n, &r);
  awkward_ids(src, ns, tgt, nt, h.n);
  int ok = 1;
  const uint32_t forced[3] = {0, WARP, NEARFAR}, want[3] = {NEARFAR, WARP, NEARFAR};
  for (int i = 0; i < 3 && ok; ++i) {
    gcol_test_hooks.sssp.engine = forced[i];
    ok = st_check_table(&h, g, src, ns, tgt, nt) && gcol_test_hooks.sssp.last_engine == want[i];
    ok = ok && st_check_table(&h, g, src, ns, NULL, 0) && gcol_test_hooks.sssp.last_engine == want[i];
    if (!ok) fprintf(stderr, "    engine hook %u: ran %u\n", forced[i], gcol_test_hooks.sssp.last_engine);
  }
  reset_hooks();
  CHECK(ok);
  /* predecessors: the warp engine, whatever the distances-only policy says */
  float *dd = tu_poisoned(ns * nt * 4);
  uint32_t *dp = tu_poisoned(ns * nt * 4), *ds = tu_to_device(src, ns * 4), *dt = tu_to_device(tgt, nt * 4);
  CHECK(dd && dp && ds && dt);
  CHECK_OK(gcol_sssp_many_to_many_pred(g, ds, ns, dt, nt, dd, dp, 0));
  CHECK(gcol_test_hooks.sssp.last_engine == WARP);
  tu_free(dd), tu_free(dp), tu_free(ds), tu_free(dt);
  /* all vertices, 2 blocks for every source */
  gcol_test_hooks.sssp.engine = NEARFAR, gcol_test_hooks.sssp.nf_blocks = 2;
  ok = st_check_table(&h, g, src, ns, NULL, 0);
  reset_hooks();
  CHECK(ok);
  free(src), free(tgt);
  gcol_graph_destroy(g);
  gcol_ref_csr_free(&h);
  return TEST_PASS;
}
