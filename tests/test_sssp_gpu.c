/* GPU tests of gcol_sssp_many_to_many against the CPU reference (tolerance:
 * see st_same_table). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sssp/sssp_internal.h"
#include "sssp_test_util.h"

TEST(sssp_gpu_random_sparse_graphs) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x1001};
  for (int split = 0; split < 2; ++split) {
    gcol_ref_csr_t h;
    CHECK(st_random_graph(2000, 8000, split, &r, &h) == 0);
    gcol_graph_t *g = st_device_graph(&h);
    CHECK(g);
    uint32_t *src = st_random_ids(64, h.n, &r);
    src[0] = h.n - 1; /* isolated when split */
    CHECK(st_check_table(&h, g, src, 64, NULL, 0));
    uint32_t *tgt = st_random_ids(50, h.n, &r);
    tgt[1] = tgt[0];       /* duplicate target */
    tgt[2] = h.n + 5;      /* invalid target: NaN column */
    src[3] = 0xffffffffu;  /* invalid source: NaN row */
    CHECK(st_check_table(&h, g, src, 64, tgt, 50));
    free(src), free(tgt);
    gcol_graph_destroy(g);
    gcol_ref_csr_free(&h);
  }
  return TEST_PASS;
}

TEST(sssp_gpu_single_vertex_and_empty_targets) {
  REQUIRE_GPU();
  uint32_t off[2] = {0, 1}, self = 0;
  float w = 3.0f;
  gcol_ref_csr_t h = {1, 1, off, &self, &w, NULL};
  gcol_graph_t *g = st_device_graph(&h);
  CHECK(g);
  uint32_t src[2] = {0, 0};
  float out[2] = {-1, -1};
  CHECK_OK(st_gpu_table(g, src, 2, NULL, 1, out));
  CHECK(out[0] == 0.0f && out[1] == 0.0f);
  /* an empty target list writes nothing */
  float *dd = tu_poisoned(16);
  void *ds = tu_to_device(src, 8);
  CHECK_OK(gcol_sssp_many_to_many(g, ds, 2, ds, 0, dd, 0));
  uint8_t back[16];
  CHECK(tu_to_host(back, dd, 16) == 0);
  for (int i = 0; i < 16; ++i) CHECK(back[i] == 0xA5);
  tu_free(dd), tu_free(ds);
  gcol_graph_destroy(g);
  return TEST_PASS;
}

TEST(sssp_gpu_grid3d_with_obstacles) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x3d3d};
  const int conns[3] = {6, 18, 26};
  const uint32_t dims[2][3] = {{12, 10, 8}, {48, 40, 1}};
  for (int d = 0; d < 2; ++d)
    for (int c = 0; c < 3; ++c) {
      uint32_t nx = dims[d][0], ny = dims[d][1], nz = dims[d][2], n = nx * ny * nz;
      float *cost = st_random_costs(n, 0.1, &r);
      cost[0] = INFINITY; /* source 0 below is an obstacle */
      gcol_ref_csr_t h;
      CHECK(gcol_ref_grid_csr(nx, ny, nz, cost, conns[c], &h) == 0);
      void *dc = tu_to_device(cost, n * 4);
      gcol_graph_t *g = NULL;
      CHECK_OK(gcol_graph_create_grid3d(&g, nx, ny, nz, dc, conns[c], 0));
      uint32_t *src = st_random_ids(40, n, &r);
      src[0] = 0;
      CHECK(st_check_table(&h, g, src, 40, NULL, 0));
      uint32_t *tgt = st_random_ids(30, n, &r);
      CHECK(st_check_table(&h, g, src, 40, tgt, 30));
      free(src), free(tgt), free(cost);
      tu_free(dc);
      gcol_graph_destroy(g);
      gcol_ref_csr_free(&h);
    }
  return TEST_PASS;
}

TEST(sssp_gpu_1_and_10000_sources) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x10000};
  gcol_ref_csr_t h;
  CHECK(st_random_graph(3000, 12000, 0, &r, &h) == 0);
  gcol_graph_t *g = st_device_graph(&h);
  CHECK(g);
  size_t ns = test_max_n() < 10000 ? test_max_n() / 10 + 1 : 10000;
  uint32_t *src = st_random_ids(ns, h.n, &r), *tgt = st_random_ids(100, h.n, &r);
  CHECK(st_check_table(&h, g, src, 1, NULL, 0));
  CHECK(st_check_table(&h, g, src, ns, tgt, 100));
  free(src), free(tgt);
  gcol_graph_destroy(g);
  gcol_ref_csr_free(&h);
  return TEST_PASS;
}

/* Overflows of a small heap are absorbed by refilling it from the distances
 * (no restart). One source per call, so the hooks count that source alone:
 * over a range of heap sizes every row matches the CPU, and for some source
 * and size the heap was refilled and the source finished without falling
 * back. With and without targets (the refill recounts settled targets). */
TEST(sssp_gpu_heap_refill_absorbs_overflow) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x5e5e};
  uint32_t nx = 24, ny = 24, nz = 24, n = nx * ny * nz;
  float *cost = st_random_costs(n, 0.10, &r);
  gcol_ref_csr_t h;
  CHECK(gcol_ref_grid_csr(nx, ny, nz, cost, 26, &h) == 0);
  void *dc = tu_to_device(cost, n * 4);
  gcol_graph_t *g = NULL;
  CHECK_OK(gcol_graph_create_grid3d(&g, nx, ny, nz, dc, 26, 0));
  uint32_t *hooks = tu_poisoned(8), counts[2] = {0, 0};
  uint32_t *src = st_random_ids(12, n, &r), *tgt = st_random_ids(200, n, &r);
  gcol_test_hooks.sssp.d_fallback_sources = hooks;
  gcol_test_hooks.sssp.d_refills = hooks + 1;
  int ok = 1, absorbed = 0;
  const uint32_t sizes[] = {20, 30, 45, 70, 100, 150};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes && ok; ++i) {
    gcol_test_hooks.sssp.heap_nodes = sizes[i];
    for (size_t k = 0; k < 12 && ok; ++k)
      for (int with_targets = 0; with_targets < 2 && ok; ++with_targets) {
        ok = st_check_table(&h, g, src + k, 1, with_targets ? tgt : NULL, with_targets ? 200 : 0) &&
             tu_to_host(counts, hooks, 8) == 0;
        if (counts[1] > 0 && counts[0] == 0) absorbed = 1;
      }
  }
  gcol_test_hooks.sssp.heap_nodes = 0;
  gcol_test_hooks.sssp.d_fallback_sources = NULL;
  gcol_test_hooks.sssp.d_refills = NULL;
  CHECK(ok);
  CHECK(absorbed);
  free(src), free(tgt), free(cost);
  tu_free(dc), tu_free(hooks);
  gcol_graph_destroy(g);
  gcol_ref_csr_free(&h);
  return TEST_PASS;
}

/* A hub joined both ways to 3,000 leaves overflows a heap of 20 nodes (480
 * pairs before a refill gives up) at its first expansion. With distinct leaf
 * weights threshold phases absorb it (refills, no fallback); with equal
 * weights no threshold separates the keys, so the source must fall back. */
TEST(sssp_gpu_star_phases_or_fallback) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x57a7};
  const uint32_t leaves = 3000, n = leaves + 1;
  uint32_t *src = malloc(2 * leaves * sizeof *src), *dst = malloc(2 * leaves * sizeof *dst);
  float *w = malloc(2 * leaves * sizeof *w);
  uint32_t *hooks = tu_poisoned(8), counts[2] = {0, 0}, sources[2] = {0, 7};
  gcol_test_hooks.sssp.d_fallback_sources = hooks;
  gcol_test_hooks.sssp.d_refills = hooks + 1;
  gcol_test_hooks.sssp.heap_nodes = 20;
  int ok = 1;
  for (int equal = 0; equal < 2 && ok; ++equal) {
    for (uint32_t i = 0; i < leaves; ++i) {
      float x = equal ? 1.0f : (float)(1 + tu_next(&r) % 100000) * 1e-3f;
      src[2 * i] = 0, dst[2 * i] = i + 1, w[2 * i] = x;
      src[2 * i + 1] = i + 1, dst[2 * i + 1] = 0, w[2 * i + 1] = x;
    }
    gcol_ref_csr_t h;
    CHECK(gcol_ref_csr_from_arcs(n, 2 * (size_t)leaves, src, dst, w, &h) == 0);
    gcol_graph_t *g = st_device_graph(&h);
    CHECK(g);
    for (int k = 0; k < 2 && ok; ++k) { /* from the hub, and from a leaf */
      ok = st_check_table(&h, g, sources + k, 1, NULL, 0) && tu_to_host(counts, hooks, 8) == 0;
      ok = ok && counts[1] > 0 && counts[0] == (equal ? 1u : 0u);
      if (!ok) fprintf(stderr, "    equal %d source %u: refills %u, fallback %u\n", equal, sources[k], counts[1], counts[0]);
    }
    gcol_graph_destroy(g);
    gcol_ref_csr_free(&h);
  }
  gcol_test_hooks.sssp.heap_nodes = 0;
  gcol_test_hooks.sssp.d_fallback_sources = NULL;
  gcol_test_hooks.sssp.d_refills = NULL;
  CHECK(ok);
  free(src), free(dst), free(w);
  tu_free(hooks);
  return TEST_PASS;
}

/* A heap of 1 or 2 nodes (32 or 64 pairs) overflows on a 26-connected grid;
 * threshold phases of a few dozen keys would take more refills than the
 * budget (8 m / n), so the sources fall back: the fallback must give the same
 * table, and the hook must count it. */
TEST(sssp_gpu_heap_overflow_falls_back) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x0f0f};
  uint32_t nx = 20, ny = 20, nz = 20, n = nx * ny * nz;
  float *cost = st_random_costs(n, 0.05, &r);
  gcol_ref_csr_t h;
  CHECK(gcol_ref_grid_csr(nx, ny, nz, cost, 26, &h) == 0);
  void *dc = tu_to_device(cost, n * 4);
  gcol_graph_t *g = NULL;
  CHECK_OK(gcol_graph_create_grid3d(&g, nx, ny, nz, dc, 26, 0));
  uint32_t *count = tu_poisoned(4), host_count = 0;
  uint32_t *src = st_random_ids(24, n, &r), *tgt = st_random_ids(16, n, &r);
  gcol_test_hooks.sssp.d_fallback_sources = count;
  int ok = 1;
  for (uint32_t nodes = 1; nodes <= 2 && ok; ++nodes) {
    gcol_test_hooks.sssp.heap_nodes = nodes;
    ok = st_check_table(&h, g, src, 24, NULL, 0) && tu_to_host(&host_count, count, 4) == 0 && host_count > 0;
    ok = ok && st_check_table(&h, g, src, 24, tgt, 16);
  }
  gcol_test_hooks.sssp.heap_nodes = 0;
  ok = ok && st_check_table(&h, g, src, 24, NULL, 0) && tu_to_host(&host_count, count, 4) == 0 && host_count == 0;
  gcol_test_hooks.sssp.d_fallback_sources = NULL;
  CHECK(ok);
  free(src), free(tgt), free(cost);
  tu_free(dc), tu_free(count);
  gcol_graph_destroy(g);
  gcol_ref_csr_free(&h);
  return TEST_PASS;
}

TEST(sssp_gpu_helsinki) {
  REQUIRE_GPU();
  gcol_ref_csr_t h;
  if (st_load_helsinki(&h) != 0) return TEST_SKIP;
  tu_rng_t r = {test_seed() ^ 0x4e15};
  gcol_graph_t *g = st_device_graph(&h);
  CHECK(g);
  uint32_t *src = st_random_ids(128, h.n, &r), *tgt = st_random_ids(200, h.n, &r);
  CHECK(st_check_table(&h, g, src, 128, NULL, 0));
  CHECK(st_check_table(&h, g, src, 128, tgt, 200));
  free(src), free(tgt);
  gcol_graph_destroy(g);
  gcol_ref_csr_free(&h);
  return TEST_PASS;
}

/* Creation checks the arrays' contents on the GPU. */
TEST(sssp_gpu_graph_creation_validates_contents) {
  REQUIRE_GPU();
  struct {
    uint32_t off[4], tgt[3];
    float w[3];
  } cases[] = {
      {{0, 1, 2, 3}, {1, 2, 0}, {1, 0, 2}},        /* valid */
      {{1, 1, 2, 3}, {1, 2, 0}, {1, 0, 2}},        /* offsets[0] != 0 */
      {{0, 2, 1, 3}, {1, 2, 0}, {1, 0, 2}},        /* decreasing */
      {{0, 1, 2, 2}, {1, 2, 0}, {1, 0, 2}},        /* offsets[n] != m */
      {{0, 1, 2, 3}, {1, 3, 0}, {1, 0, 2}},        /* target >= n */
      {{0, 1, 2, 3}, {1, 2, 0}, {1, -1, 2}},       /* negative weight */
      {{0, 1, 2, 3}, {1, 2, 0}, {1, NAN, 2}},      /* NaN */
      {{0, 1, 2, 3}, {1, 2, 0}, {1, INFINITY, 2}}, /* infinite */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
    void *o = tu_to_device(cases[i].off, 16), *t = tu_to_device(cases[i].tgt, 12), *w = tu_to_device(cases[i].w, 12);
    gcol_graph_t *g = (gcol_graph_t *)1;
    gcol_status_t st = gcol_graph_create_csr(&g, 3, 3, o, t, w, 0);
    tu_free(o), tu_free(t), tu_free(w);
    CHECK_STATUS(st, i == 0 ? GCOL_SUCCESS : GCOL_ERROR_INVALID_ARGUMENT);
    CHECK((g != NULL) == (i == 0));
    gcol_graph_destroy(g);
  }
  float costs[3][4] = {{1, 0, INFINITY, 2}, {1, -0.5f, 1, 1}, {1, NAN, 1, 1}};
  for (int i = 0; i < 3; ++i) {
    void *c = tu_to_device(costs[i], 16);
    gcol_graph_t *g = NULL;
    gcol_status_t st = gcol_graph_create_grid3d(&g, 2, 2, 1, c, 6, 0);
    tu_free(c);
    CHECK_STATUS(st, i == 0 ? GCOL_SUCCESS : GCOL_ERROR_INVALID_ARGUMENT);
    gcol_graph_destroy(g);
  }
  return TEST_PASS;
}

/* The near-far engine (distances to all vertices): the same table as the
 * CPU with all-zero weights (its bucket width then falls back to 1), and
 * with bucket widths from a thousandth to a million mean weights (many
 * splits of the far pile, or one bucket: plain label correcting); and the
 * warp engine, forced, gives the same table. */
TEST(sssp_gpu_nearfar_bucket_widths_and_zero_weights) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x27c1};
  gcol_ref_csr_t h;
  CHECK(st_random_graph(1500, 6000, 1, &r, &h) == 0);
  gcol_graph_t *g = st_device_graph(&h);
  CHECK(g);
  uint32_t *src = st_random_ids(40, h.n, &r);
  const float factors[] = {1e-3f, 0.5f, 8.0f, 1e6f};
  int ok = 1;
  for (int i = 0; i < 4 && ok; ++i) {
    gcol_test_hooks.sssp.delta_factor = factors[i];
    ok = st_check_table(&h, g, src, 40, NULL, 0);
  }
  gcol_test_hooks.sssp.delta_factor = 0.0f;
  gcol_test_hooks.sssp.engine = 1;
  ok = ok && st_check_table(&h, g, src, 40, NULL, 0);
  gcol_test_hooks.sssp.engine = 0;
  CHECK(ok);
  gcol_graph_destroy(g);
  for (size_t e = 0; e < h.m; ++e) h.weights[e] = 0.0f;
  g = st_device_graph(&h);
  CHECK(g);
  CHECK(st_check_table(&h, g, src, 40, NULL, 0));
  free(src);
  gcol_graph_destroy(g);
  gcol_ref_csr_free(&h);
  return TEST_PASS;
}
