/* GPU tests of the predecessor table (gcol_sssp_many_to_many_pred) and the
 * path call (gcol_sssp_paths), checked on the CPU: every predecessor names an
 * arc that reaches the vertex's distance exactly, following predecessors
 * from any vertex reaches the source (no cycle, zero weights included), and
 * the arc weights summed along a walk give the distance; paths equal the
 * predecessor walk of the same search. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sssp/sssp_internal.h"
#include "sssp_test_util.h"

/* The lightest arc u -> v whose weight added to du gives dv exactly (float);
 * -1 when none does. */
static double tight_arc(const gcol_ref_csr_t *h, uint32_t u, uint32_t v, float du, float dv) {
  double best = -1;
  for (uint32_t e = h->offsets[u]; e < h->offsets[u + 1]; ++e)
    if (h->targets[e] == v && du + h->weights[e] == dv && (best < 0 || h->weights[e] < best)) best = h->weights[e];
  return best;
}

/* One source's full rows (dist, pred over all n vertices): every reachable
 * vertex but s has a predecessor on a tight arc, s and unreachable vertices
 * have none, and the walks reach s (memoized: state 2 = reaches s). For
 * `walks` vertices the weights are summed in double along the walk and
 * compared with the distance. */
static int check_tree(const gcol_ref_csr_t *h, uint32_t s, const float *dist, const uint32_t *pred, uint8_t *state,
                      int walks, tu_rng_t *r) {
  uint32_t n = h->n;
  if (s >= n) {
    for (uint32_t v = 0; v < n; ++v)
      if (!isnan(dist[v]) || pred[v] != GCOL_SSSP_NO_PRED) return fprintf(stderr, "    invalid source %u: cell %u\n", s, v), 0;
    return 1;
  }
  memset(state, 0, n);
  for (uint32_t v = 0; v < n; ++v) {
    uint32_t p = pred[v];
    if (isinf(dist[v]) || v == s) {
      if (p != GCOL_SSSP_NO_PRED || (v == s && dist[v] != 0.0f && !isinf(dist[v])))
        return fprintf(stderr, "    source %u vertex %u: dist %g pred %u, want none\n", s, v, dist[v], p), 0;
      continue;
    }
    if (p >= n || tight_arc(h, p, v, dist[p], dist[v]) < 0)
      return fprintf(stderr, "    source %u vertex %u (dist %.9g): pred %u is no tight arc\n", s, v, dist[v], p), 0;
  }
  state[s] = 2;
  for (uint32_t v = 0; v < n; ++v) {
    if (isinf(dist[v]) || state[v] == 2) continue;
    uint32_t x = v;
    while (state[x] == 0) state[x] = 1, x = pred[x];
    if (state[x] == 1) return fprintf(stderr, "    source %u: predecessors of %u run into a cycle at %u\n", s, v, x), 0;
    for (x = v; state[x] == 1; x = pred[x]) state[x] = 2;
  }
  for (int k = 0; k < walks; ++k) {
    uint32_t t = (uint32_t)(tu_next(r) % n);
    if (isinf(dist[t])) continue;
    double sum = 0;
    uint32_t steps = 0;
    for (uint32_t x = t; x != s; x = pred[x], ++steps) {
      if (steps > n) return 0;
      sum += tight_arc(h, pred[x], x, dist[pred[x]], dist[x]);
    }
    if (fabs(sum - dist[t]) > 1e-5 * fmax(1.0, dist[t]))
      return fprintf(stderr, "    source %u target %u: walk sums to %.9g, distance %.9g\n", s, t, sum, dist[t]), 0;
  }
  return 1;
}

/* gcol_sssp_many_to_many_pred from host arrays. */
static gcol_status_t gpu_pred(const gcol_graph_t *g, const uint32_t *src, size_t ns, const uint32_t *tgt, size_t nt,
                              float *dist, uint32_t *pred) {
  void *ds = tu_to_device(src, ns * 4), *dt = tgt ? tu_to_device(tgt, nt * 4) : NULL;
  void *dd = tu_poisoned(ns * nt * 4), *dp = tu_poisoned(ns * nt * 4);
  gcol_status_t st = gcol_sssp_many_to_many_pred(g, ds, ns, dt, nt, dd, dp, 0);
  if (st == GCOL_SUCCESS && (tu_to_host(dist, dd, ns * nt * 4) || tu_to_host(pred, dp, ns * nt * 4)))
    st = GCOL_ERROR_CUDA;
  tu_free(ds), tu_free(dt), tu_free(dd), tu_free(dp);
  return st;
}

/* All-target predecessor rows for src: distances equal the CPU's and each
 * row is a valid tree; then with targets (and an invalid target id) the
 * distances match and each predecessor is a tight arc or none. */
static int check_pred(const gcol_ref_csr_t *h, const gcol_graph_t *g, const uint32_t *src, size_t ns, tu_rng_t *r) {
  uint32_t n = h->n;
  float *want = malloc(ns * n * 4), *dist = malloc(ns * n * 4);
  uint32_t *pred = malloc(ns * n * 4);
  uint8_t *state = malloc(n);
  int ok = gcol_ref_many_to_many(h, src, ns, NULL, n, want, 0) >= 0;
  gcol_status_t st = gpu_pred(g, src, ns, NULL, n, dist, pred);
  if (st != GCOL_SUCCESS) fprintf(stderr, "    pred: %s %s\n", gcol_status_string(st), gcol_last_error_message());
  ok = ok && st == GCOL_SUCCESS && st_same_table(want, dist, ns, n);
  for (size_t i = 0; ok && i < ns; ++i)
    ok = check_tree(h, src[i], dist + i * n, pred + i * n, state, 50, r);
  size_t nt = 40;
  uint32_t *tgt = st_random_ids(nt, n, r);
  tgt[1] = n + 3;  /* invalid: NaN column, no predecessor */
  tgt[2] = src[0]; /* the source itself */
  float *tdist = malloc(ns * nt * 4);
  uint32_t *tpred = malloc(ns * nt * 4);
  if (ok) {
    st = gpu_pred(g, src, ns, tgt, nt, tdist, tpred);
    ok = st == GCOL_SUCCESS;
  }
  for (size_t i = 0; ok && i < ns; ++i)
    for (size_t j = 0; ok && j < nt; ++j) {
      float d = tdist[i * nt + j];
      uint32_t p = tpred[i * nt + j], t = tgt[j];
      if (src[i] >= n || t >= n) {
        ok = isnan(d) && p == GCOL_SSSP_NO_PRED;
      } else {
        float full = dist[i * n + t];
        ok = d == full || fabsf(d - full) <= 1e-5f * full;
        if (isinf(d) || t == src[i]) ok = ok && p == GCOL_SSSP_NO_PRED;
        else ok = ok && p < n && tight_arc(h, p, t, dist[i * n + p], d) >= 0;
      }
      if (!ok) fprintf(stderr, "    targets: source %u target %u: dist %g pred %u\n", src[i], t, d, p);
    }
  free(want), free(dist), free(pred), free(state), free(tgt), free(tdist), free(tpred);
  return ok;
}

/* Integer weights 0..2: many ties, zero-weight arcs and zero-weight cycles. */
static void integer_weights(gcol_ref_csr_t *h, tu_rng_t *r) {
  for (size_t e = 0; e < h->m; ++e) h->weights[e] = (float)(tu_next(r) % 3);
}

TEST(sssp_pred_csr_ties_and_zero_weights) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x27a1};
  for (int variant = 0; variant < 3; ++variant) {
    gcol_ref_csr_t h;
    CHECK(st_random_graph(1500, 6000, variant == 1, &r, &h) == 0);
    if (variant != 1) integer_weights(&h, &r);
    if (variant == 2) /* all zero: every reachable vertex at distance 0 */
      for (size_t e = 0; e < h.m; ++e) h.weights[e] = 0.0f;
    gcol_graph_t *g = st_device_graph(&h);
    CHECK(g);
    uint32_t *src = st_random_ids(24, h.n, &r);
    src[3] = 0xfffffff0u; /* invalid: NaN row, no predecessors */
    src[4] = src[5];      /* duplicate source */
    CHECK(check_pred(&h, g, src, 24, &r));
    free(src);
    gcol_graph_destroy(g);
    gcol_ref_csr_free(&h);
  }
  return TEST_PASS;
}

TEST(sssp_pred_grids_with_obstacles) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x27a2};
  const uint32_t dims[2][3] = {{14, 12, 9}, {60, 50, 1}};
  const int conns[2] = {6, 26};
  for (int d = 0; d < 2; ++d)
    for (int c = 0; c < 2; ++c) {
      uint32_t nx = dims[d][0], ny = dims[d][1], nz = dims[d][2], n = nx * ny * nz;
      float *cost = st_random_costs(n, 0.15, &r);
      for (uint32_t i = 0; c == 1 && i < n; ++i) /* uniform costs: ties everywhere */
        if (!isinf(cost[i])) cost[i] = 1.0f;
      cost[0] = INFINITY; /* an obstacle as a source */
      gcol_ref_csr_t h;
      gcol_graph_t *g = st_grid_graph(nx, ny, nz, cost, conns[c], &h);
      CHECK(g);
      uint32_t *src = st_random_ids(16, n, &r);
      src[0] = 0;
      CHECK(check_pred(&h, g, src, 16, &r));
      free(src), free(cost);
      gcol_graph_destroy(g);
      gcol_ref_csr_free(&h);
    }
  return TEST_PASS;
}

TEST(sssp_pred_helsinki) {
  REQUIRE_GPU();
  gcol_ref_csr_t h;
  if (st_load_helsinki(&h) != 0) return TEST_SKIP;
  tu_rng_t r = {test_seed() ^ 0x27a3};
  gcol_graph_t *g = st_device_graph(&h);
  CHECK(g);
  size_t ns = test_max_n() < 100000 ? 8 : 64;
  uint32_t *src = st_random_ids(ns, h.n, &r);
  CHECK(check_pred(&h, g, src, ns, &r));
  free(src);
  gcol_graph_destroy(g);
  gcol_ref_csr_free(&h);
  return TEST_PASS;
}

/* A small heap (forced through the hook) makes the predecessor search
 * refill and fall back; the trees must stay valid. */
TEST(sssp_pred_through_refills_and_fallback) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x27a4};
  uint32_t nx = 20, ny = 20, nz = 20, n = nx * ny * nz;
  float *cost = st_random_costs(n, 0.05, &r);
  gcol_ref_csr_t h;
  gcol_graph_t *g = st_grid_graph(nx, ny, nz, cost, 26, &h);
  CHECK(g);
  uint32_t *hooks = tu_poisoned(8), counts[2] = {0, 0};
  gcol_test_hooks.sssp.d_fallback_sources = hooks;
  gcol_test_hooks.sssp.d_refills = hooks + 1;
  uint32_t *src = st_random_ids(8, n, &r);
  int ok = 1, refilled = 0, fell_back = 0;
  const uint32_t sizes[] = {2, 40};
  for (int i = 0; i < 2 && ok; ++i) {
    gcol_test_hooks.sssp.heap_nodes = sizes[i];
    ok = check_pred(&h, g, src, 8, &r) && tu_to_host(counts, hooks, 8) == 0;
    fell_back |= counts[0] > 0, refilled |= counts[1] > 0;
  }
  gcol_test_hooks.sssp.heap_nodes = 0;
  gcol_test_hooks.sssp.d_fallback_sources = NULL;
  gcol_test_hooks.sssp.d_refills = NULL;
  CHECK(ok);
  CHECK(refilled && fell_back);
  free(src), free(cost);
  tu_free(hooks);
  gcol_graph_destroy(g);
  gcol_ref_csr_free(&h);
  return TEST_PASS;
}

/* gcol_sssp_paths from host arrays: the size query, then the call with the
 * exact room. *total receives the vertex count; offsets, vertices, dist are
 * malloc'd for the caller. */
static gcol_status_t gpu_paths(const gcol_graph_t *g, const uint32_t *src, const uint32_t *tgt, size_t np,
                               uint64_t **offsets, uint32_t **vertices, float **dist, uint64_t *total) {
  void *ds = tu_to_device(src, np * 4), *dt = tu_to_device(tgt, np * 4);
  uint64_t *doff = tu_poisoned((np + 1) * 8);
  float *dd = tu_poisoned(np * 4);
  *offsets = malloc((np + 1) * 8), *dist = malloc(np * 4), *vertices = NULL;
  gcol_status_t st = gcol_sssp_paths(g, ds, dt, np, doff, NULL, 0, NULL, 0);
  if (st == GCOL_SUCCESS && tu_to_host(total, doff + np, 8)) st = GCOL_ERROR_CUDA;
  void *dv = NULL;
  if (st == GCOL_SUCCESS) {
    dv = tu_poisoned(*total ? *total * 4 : 4);
    st = gcol_sssp_paths(g, ds, dt, np, doff, dv, *total ? *total : 1, dd, 0);
  }
  *vertices = malloc(*total ? *total * 4 : 4);
  if (st == GCOL_SUCCESS && (tu_to_host(*offsets, doff, (np + 1) * 8) || tu_to_host(*dist, dd, np * 4) ||
                             (*total && tu_to_host(*vertices, dv, *total * 4))))
    st = GCOL_ERROR_CUDA;
  tu_free(ds), tu_free(dt), tu_free(doff), tu_free(dd), tu_free(dv);
  return st;
}

/* Paths for random pairs (duplicate sources, source == target, unreachable
 * targets, invalid ids). An all-target predecessor call with the pairs'
 * sources has as many work items, hence the same heap size, so it runs the
 * same searches (the path call's stop once its targets are settled): each
 * path equals
 * the walk of that call's predecessors, starts at the source, ends at the
 * target, and its distance is the table's. */
static int check_paths(const gcol_ref_csr_t *h, const gcol_graph_t *g, size_t np, tu_rng_t *r) {
  uint32_t n = h->n;
  uint32_t *src = st_random_ids(np, n, r), *tgt = st_random_ids(np, n, r);
  for (size_t k = 0; k < np; k += 7) src[k] = src[(k * 13) % np]; /* shared sources */
  tgt[0] = src[0];                                                  /* one-vertex path */
  if (np > 3) src[1] = n + 9, tgt[2] = n;                           /* invalid ids: empty, NaN */
  uint64_t *off, total = 0;
  uint32_t *verts;
  float *pd;
  gcol_status_t st = gpu_paths(g, src, tgt, np, &off, &verts, &pd, &total);
  float *dist = malloc(np * n * 4);
  uint32_t *pred = malloc(np * n * 4);
  int ok = st == GCOL_SUCCESS && gpu_pred(g, src, np, NULL, n, dist, pred) == GCOL_SUCCESS;
  if (st != GCOL_SUCCESS) fprintf(stderr, "    paths: %s %s\n", gcol_status_string(st), gcol_last_error_message());
  ok = ok && off[0] == 0 && off[np] == total;
  for (size_t k = 0; ok && k < np; ++k) {
    uint32_t s = src[k], t = tgt[k];
    uint64_t len = off[k + 1] - off[k];
    const uint32_t *path = verts + off[k];
    if (s >= n || t >= n) {
      ok = len == 0 && isnan(pd[k]);
    } else {
      float d = dist[k * n + t];
      const uint32_t *p = pred + k * n;
      ok = pd[k] == d && (isinf(d) ? len == 0 : len >= 1);
      if (ok && len) { /* the predecessor walk, from the target back */
        ok = path[0] == s && path[len - 1] == t;
        uint32_t x = t;
        for (uint64_t j = len - 1; ok && j > 0; --j) {
          ok = path[j] == x;
          x = p[x];
        }
        ok = ok && x == s;
      }
    }
    if (!ok) fprintf(stderr, "    pair %zu (%u -> %u): length %llu, dist %g\n", k, s, t, (unsigned long long)len, pd[k]);
  }
  free(src), free(tgt), free(off), free(verts), free(pd), free(dist), free(pred);
  return ok;
}

TEST(sssp_paths_equal_the_predecessor_walk) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x27b1};
  gcol_ref_csr_t h;
  CHECK(st_random_graph(1200, 4000, 1, &r, &h) == 0); /* split: unreachable halves */
  integer_weights(&h, &r);
  gcol_graph_t *g = st_device_graph(&h);
  CHECK(g);
  CHECK(check_paths(&h, g, 1, &r));
  CHECK(check_paths(&h, g, 200, &r));
  gcol_graph_destroy(g);
  gcol_ref_csr_free(&h);
  float *cost = st_random_costs(40 * 30 * 6, 0.1, &r);
  g = st_grid_graph(40, 30, 6, cost, 26, &h);
  CHECK(g);
  CHECK(check_paths(&h, g, 150, &r));
  free(cost);
  gcol_graph_destroy(g);
  gcol_ref_csr_free(&h);
  if (st_load_helsinki(&h) == 0) {
    g = st_device_graph(&h);
    CHECK(g);
    CHECK(check_paths(&h, g, test_max_n() < 100000 ? 20 : 300, &r));
    gcol_graph_destroy(g);
    gcol_ref_csr_free(&h);
  }
  return TEST_PASS;
}

/* A buffer smaller than the total leaves d_vertices untouched; offsets and
 * the total are still written. */
TEST(sssp_paths_too_small_buffer_writes_no_vertices) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x27b2};
  gcol_ref_csr_t h;
  CHECK(st_random_graph(500, 2500, 0, &r, &h) == 0);
  gcol_graph_t *g = st_device_graph(&h);
  CHECK(g);
  uint32_t src[3] = {1, 2, 3}, tgt[3] = {400, 401, 402};
  void *ds = tu_to_device(src, 12), *dt = tu_to_device(tgt, 12);
  uint64_t *doff = tu_poisoned(32), off[4];
  uint32_t *dv = tu_poisoned(8), back[2];
  CHECK_OK(gcol_sssp_paths(g, ds, dt, 3, doff, dv, 1, NULL, 0)); /* a path has >= 2 vertices here */
  CHECK(tu_to_host(off, doff, 32) == 0 && tu_to_host(back, dv, 8) == 0);
  CHECK(off[0] == 0 && off[3] > 1 && back[0] == 0xA5A5A5A5u && back[1] == 0xA5A5A5A5u);
  tu_free(ds), tu_free(dt), tu_free(doff), tu_free(dv);
  gcol_graph_destroy(g);
  gcol_ref_csr_free(&h);
  return TEST_PASS;
}

/* Bad predecessor and path buffers are refused with a message; a good call
 * after them still works. */
TEST(sssp_pred_and_paths_refuse_bad_buffers) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() ^ 0x27b3};
  gcol_ref_csr_t h;
  CHECK(st_random_graph(2048, 8000, 0, &r, &h) == 0);
  gcol_graph_t *g = st_device_graph(&h);
  CHECK(g);
  size_t ns = 1024, cells = ns * h.n; /* 8 MiB tables */
  uint32_t *src = st_random_ids(ns, h.n, &r);
  void *ds = tu_to_device(src, ns * 4);
  float *dd = tu_poisoned(cells * 4);
  uint32_t *dp = tu_poisoned(cells * 4), *half = tu_poisoned(cells * 2), *host = malloc(h.n * 4);
  CHECK_STATUS(gcol_sssp_many_to_many_pred(g, ds, ns, NULL, h.n, dd, (uint32_t *)((char *)dp + 2), 0),
               GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "d_pred") != NULL);
  CHECK_STATUS(gcol_sssp_many_to_many_pred(g, ds, ns, NULL, h.n, dd, half, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "d_pred") && strstr(gcol_last_error_message(), "allocation"));
  CHECK_STATUS(gcol_sssp_many_to_many_pred(g, ds, 1, NULL, h.n, dd, host, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_OK(gcol_sssp_many_to_many_pred(g, ds, ns, NULL, h.n, dd, dp, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  uint64_t *doff = tu_poisoned(8 * (ns + 1));
  CHECK_STATUS(gcol_sssp_paths(g, ds, ds, ns, NULL, NULL, 0, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_paths(g, ds, ds, ns, (uint64_t *)((char *)doff + 4), NULL, 0, NULL, 0),
               GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_paths(g, ds, ds, ns, doff, NULL, 5, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "d_vertices") != NULL);
  CHECK_OK(gcol_sssp_paths(g, ds, ds, ns, doff, NULL, 0, NULL, 0));
  uint64_t total = 0;
  CHECK(tu_to_host(&total, doff + ns, 8) == 0 && total == ns); /* source == target: one vertex each */
  tu_free(ds), tu_free(dd), tu_free(dp), tu_free(half), tu_free(doff);
  free(src), free(host);
  gcol_graph_destroy(g);
  gcol_ref_csr_free(&h);
  return TEST_PASS;
}
