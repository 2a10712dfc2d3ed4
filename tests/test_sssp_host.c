/* Host-side tests of the shortest-path module (CI, no GPU needed): argument
 * checks, the CPU reference against Bellman-Ford, the grid edge rules, the
 * DIMACS reader, and NO_DEVICE without a GPU. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sssp/graph_internal.h"
#include "sssp/sssp_internal.h"
#include "sssp_test_util.h"

/* Bellman-Ford in float: relax every arc until nothing changes. */
static void bellman_ford(const gcol_ref_csr_t *g, uint32_t s, float *dist) {
  for (uint32_t i = 0; i < g->n; ++i) dist[i] = INFINITY;
  dist[s] = 0.0f;
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t u = 0; u < g->n; ++u)
      for (uint32_t e = g->offsets[u]; e < g->offsets[u + 1]; ++e) {
        float nd = dist[u] + g->weights[e];
        if (nd < dist[g->targets[e]]) dist[g->targets[e]] = nd, changed = 1;
      }
  }
}

TEST(sssp_cpu_dijkstra_matches_bellman_ford) {
  tu_rng_t r = {test_seed() ^ 0x5551};
  for (int trial = 0; trial < 40; ++trial) {
    uint32_t n = 1 + (uint32_t)(tu_next(&r) % 60);
    size_t m = tu_next(&r) % (4 * n + 1);
    gcol_ref_csr_t g;
    CHECK(st_random_graph(n, m, trial % 2, &r, &g) == 0);
    CHECK(gcol_ref_csr_valid(g.n, g.m, g.offsets, g.targets, g.weights));
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    for (uint32_t s = 0; s < n; s += 1 + n / 7) {
      CHECK(gcol_ref_dijkstra(&g, s, a, NULL, 0) >= 0);
      bellman_ford(&g, s, b);
      CHECK(memcmp(a, b, n * sizeof *a) == 0); /* same float sums: bit-identical */
    }
    free(a), free(b);
    gcol_ref_csr_free(&g);
  }
  return TEST_PASS;
}

TEST(sssp_cpu_table_with_targets_matches_full_rows) {
  tu_rng_t r = {test_seed() ^ 0x7a7a};
  gcol_ref_csr_t g;
  CHECK(st_random_graph(300, 1200, 1, &r, &g) == 0);
  uint32_t src[5] = {0, 17, 299, 1000 /* invalid */, 17}, tgt[7] = {3, 3, 250, 299, 5000 /* invalid */, 0, 100};
  float *full = malloc(5 * 300 * sizeof *full), part[5 * 7];
  CHECK(gcol_ref_many_to_many(&g, src, 5, NULL, 300, full, 3) >= 0);
  CHECK(gcol_ref_many_to_many(&g, src, 5, tgt, 7, part, 2) >= 0);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) {
      float p = part[i * 7 + j];
      if (src[i] >= 300 || tgt[j] >= 300) CHECK(isnan(p));
      else CHECK(p == full[i * 300 + tgt[j]]);
    }
  for (int j = 0; j < 300; ++j) CHECK(isnan(full[3 * 300 + j]));
  free(full);
  gcol_ref_csr_free(&g);
  return TEST_PASS;
}

TEST(sssp_grid_csr_follows_the_weight_rules) {
  float cost[27];
  for (int i = 0; i < 27; ++i) cost[i] = 1.0f + (float)i;
  cost[0] = INFINITY; /* an obstacle in a corner */
  const int conns[3] = {6, 18, 26};
  for (int c = 0; c < 3; ++c) {
    gcol_ref_csr_t g;
    CHECK(gcol_ref_grid_csr(3, 3, 3, cost, conns[c], &g) == 0);
    uint32_t centre = 13;
    CHECK(g.offsets[centre + 1] - g.offsets[centre] == (uint32_t)conns[c] - (conns[c] == 26)); /* corner 0 blocked */
    CHECK(g.blocked[0] && g.offsets[1] == g.offsets[0]);
    for (uint32_t e = g.offsets[centre]; e < g.offsets[centre + 1]; ++e) {
      uint32_t v = g.targets[e];
      CHECK(v != 0 && v != centre);
      int dx = (int)(v % 3) - 1, dy = (int)(v / 3 % 3) - 1, dz = (int)(v / 9) - 1;
      int k = (dx != 0) + (dy != 0) + (dz != 0);
      double step = k == 1 ? 1.0 : k == 2 ? sqrt(2.0) : sqrt(3.0);
      double want = 0.5 * (cost[centre] + cost[v]) * step;
      CHECK(fabs(g.weights[e] - want) <= 1e-6 * want);
      CHECK(g.weights[e] == 0.5f * (cost[centre] + cost[v]) * gcol_grid_step(k));
    }
    gcol_ref_csr_free(&g);
  }
  /* a 2D grid: connectivity 26 is 8-connected */
  gcol_ref_csr_t g2;
  CHECK(gcol_ref_grid_csr(3, 3, 1, cost + 1, 26, &g2) == 0);
  CHECK(g2.offsets[5] - g2.offsets[4] == 8);
  gcol_ref_csr_free(&g2);
  /* invalid costs and arguments */
  float bad[2] = {1.0f, -1.0f};
  CHECK(gcol_ref_grid_csr(2, 1, 1, bad, 6, &g2) == -1);
  bad[1] = NAN;
  CHECK(gcol_ref_grid_csr(2, 1, 1, bad, 6, &g2) == -1);
  bad[1] = INFINITY;
  CHECK(gcol_ref_grid_csr(2, 1, 1, bad, 8, &g2) == -1);
  CHECK(gcol_ref_grid_csr(0, 1, 1, bad, 6, &g2) == -1);
  /* a blocked source sees nothing, not even itself */
  CHECK(gcol_ref_grid_csr(2, 1, 1, bad, 6, &g2) == 0);
  float d[2];
  CHECK(gcol_ref_dijkstra(&g2, 1, d, NULL, 0) == 0 && isinf(d[0]) && isinf(d[1]));
  CHECK(gcol_ref_dijkstra(&g2, 0, d, NULL, 0) >= 0 && d[0] == 0.0f && isinf(d[1]));
  gcol_ref_csr_free(&g2);
  return TEST_PASS;
}

/* A voxel's faces byte (graph_internal.h) blocks a direction exactly when
 * the neighbour that way lies outside the grid; bit 6 is always set. The
 * direction's mask is built the way the solver's lanes build it. */
TEST(sssp_grid_faces_block_exactly_the_outside_neighbours) {
  const uint32_t dims[][3] = {{1, 1, 1}, {1, 3, 2}, {4, 3, 5}, {2, 2, 2}, {7, 1, 3}};
  for (size_t k = 0; k < sizeof dims / sizeof *dims; ++k) {
    uint32_t nx = dims[k][0], ny = dims[k][1], nz = dims[k][2];
    int ok = 1;
    for (uint32_t z = 0; z < nz; ++z)
      for (uint32_t y = 0; y < ny; ++y)
        for (uint32_t x = 0; x < nx; ++x) {
          uint8_t f = gcol_grid_faces(x, y, z, nx, ny, nz);
          ok &= (f >> 6) == 1;
          for (int i = 0; i < 26; ++i) {
            int dx, dy, dz;
            gcol_grid_dir(i, &dx, &dy, &dz);
            uint32_t mask = (uint32_t)(dx < 0) | (uint32_t)(dx > 0) << 1 | (uint32_t)(dy < 0) << 2 |
                            (uint32_t)(dy > 0) << 3 | (uint32_t)(dz < 0) << 4 | (uint32_t)(dz > 0) << 5;
            int64_t a = (int64_t)x + dx, b = (int64_t)y + dy, c = (int64_t)z + dz;
            int inside = a >= 0 && a < nx && b >= 0 && b < ny && c >= 0 && c < nz;
            ok &= inside == ((mask & f) == 0);
          }
        }
    CHECK(ok);
  }
  return TEST_PASS;
}

TEST(dimacs_parses_and_rejects) {
  const char *ok = "c comment\np sp 4 3\na 1 2 5\na 1 3 7\n\na 4 1 0\n";
  gcol_ref_csr_t g;
  CHECK(gcol_ref_parse_dimacs(ok, &g) == 0);
  CHECK(g.n == 4 && g.m == 3 && g.offsets[1] == 2 && g.targets[0] == 1 && g.targets[1] == 2);
  CHECK(g.weights[0] == 5.0f && g.weights[1] == 7.0f && g.targets[2] == 0 && g.weights[2] == 0.0f);
  gcol_ref_csr_free(&g);
  const char *bad[] = {
      "a 1 2 3\n",                         /* arc before the problem line */
      "p sp 2 1\na 1 3 1\n",               /* id past n */
      "p sp 2 1\na 0 1 1\n",               /* ids are 1-based */
      "p sp 2 2\na 1 2 1\n",               /* fewer arcs than announced */
      "p sp 2 1\na 1 2 1\na 2 1 1\n",      /* more */
      "p sp 2 1\na 1 2 -4\n",              /* negative weight */
      "p sp 2 1\nx\n",                     /* unknown line */
      "p sp 2 1\np sp 2 1\na 1 2 1\n",     /* two problem lines */
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) CHECK(gcol_ref_parse_dimacs(bad[i], &g) == -2);
  CHECK(gcol_ref_read_dimacs("/nonexistent/file.gr", &g) == -1);
  return TEST_PASS;
}

TEST(dimacs_reads_helsinki) {
  gcol_ref_csr_t g;
  if (st_load_helsinki(&g) != 0) return TEST_SKIP; /* data not beside the repo */
  CHECK(g.n == 6067 && g.m == 13106);
  CHECK(gcol_ref_csr_valid(g.n, g.m, g.offsets, g.targets, g.weights));
  CHECK(g.targets[0] == 1 && g.weights[0] == 937.0f); /* "a 1 2 937" */
  float *d = malloc(g.n * sizeof *d);
  CHECK(gcol_ref_dijkstra(&g, 0, d, NULL, 0) > 0 && d[0] == 0.0f && d[1] > 0.0f && d[1] <= 937.0f);
  CHECK(d[2] <= 937.0f + 450.0f);
  free(d);
  gcol_ref_csr_free(&g);
  return TEST_PASS;
}

TEST(sssp_api_rejects_bad_arguments_before_the_device) {
  gcol_graph_t *g = (gcol_graph_t *)1;
  uint32_t *p = (uint32_t *)16; /* never dereferenced: argument checks come first */
  float *w = (float *)16;
  CHECK_STATUS(gcol_graph_create_csr(NULL, 1, 0, p, NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_csr(&g, 0, 0, p, NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(g == NULL);
  CHECK_STATUS(gcol_graph_create_csr(&g, 4, 0, NULL, NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_csr(&g, 4, 3, p, NULL, w, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_csr(&g, 4, 3, p, p, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_csr(&g, (size_t)1 << 32, 0, p, NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_grid3d(NULL, 2, 2, 2, w, 6, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_grid3d(&g, 0, 2, 2, w, 6, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_grid3d(&g, 2, 2, 2, NULL, 6, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_grid3d(&g, 2, 2, 2, w, 8, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_grid3d(&g, 65536, 65536, 2, w, 6, 0), GCOL_ERROR_INVALID_ARGUMENT);
  struct gcol_graph fake;
  memset(&fake, 0, sizeof fake);
  fake.magic = GCOL_GRAPH_MAGIC, fake.kind = GCOL_GRAPH_CSR, fake.n = 10;
  CHECK_STATUS(gcol_sssp_many_to_many(NULL, p, 1, NULL, 10, w, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_many_to_many(&fake, NULL, 1, NULL, 10, w, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_many_to_many(&fake, p, 1, NULL, 9, w, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_many_to_many(&fake, p, 1, NULL, 10, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_many_to_many(&fake, p, (size_t)1 << 40, p, (size_t)1 << 40, w, 0),
               GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_OK(gcol_sssp_many_to_many(&fake, p, 0, NULL, 10, NULL, 0)); /* nothing to do */
  CHECK_OK(gcol_sssp_many_to_many(&fake, p, 3, p, 0, NULL, 0));
  gcol_graph_destroy(NULL);
  return TEST_PASS;
}

TEST(heap_replay_rejects_nan_and_bad_ops_on_host) {
  gcol_heap_op_t ops[3] = {{GCOL_HEAP_OP_PUSH, 1, 1.0f, 0}, {GCOL_HEAP_OP_PUSH, 1, NAN, 1}, {GCOL_HEAP_OP_POP, 0, 0, 0}};
  gcol_heap_result_t res[3];
  CHECK_STATUS(gcol_detail_heap_replay(ops, 3, 4, 0, 1, res), GCOL_ERROR_INVALID_ARGUMENT);
  ops[1].key = 2.0f;
  ops[0].op = GCOL_HEAP_OP_BULK, ops[0].count = 3; /* runs past a non-bulk entry */
  CHECK_STATUS(gcol_detail_heap_replay(ops, 3, 4, 0, 1, res), GCOL_ERROR_INVALID_ARGUMENT);
  ops[0].count = 33;
  CHECK_STATUS(gcol_detail_heap_replay(ops, 3, 4, 0, 1, res), GCOL_ERROR_INVALID_ARGUMENT);
  ops[0].op = GCOL_HEAP_OP_PUSH;
  CHECK_STATUS(gcol_detail_heap_replay(ops, 3, 0, 0, 1, res), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_detail_heap_replay(ops, 3, 7000, 1, 1, res), GCOL_ERROR_INVALID_ARGUMENT);
  /* a subtree's pair count shares its meta word with the ring head: 2^22 - 1 nodes at most */
  CHECK_STATUS(gcol_detail_heap_replay(ops, 3, 1u << 22, 0, 1, res), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_detail_heap_replay(ops, 3, 4, 0, 0, res), GCOL_ERROR_INVALID_ARGUMENT);
  return TEST_PASS;
}

TEST(sssp_no_device_without_gpu) {
  if (test_have_gpu()) return TEST_SKIP;
  gcol_graph_t *g = NULL;
  uint32_t *p = (uint32_t *)16;
  float *w = (float *)16;
  CHECK_STATUS(gcol_graph_create_csr(&g, 4, 3, p, p, w, 0), GCOL_ERROR_NO_DEVICE);
  CHECK(g == NULL);
  CHECK_STATUS(gcol_graph_create_grid3d(&g, 2, 2, 2, w, 26, 0), GCOL_ERROR_NO_DEVICE);
  struct gcol_graph fake;
  memset(&fake, 0, sizeof fake);
  fake.magic = GCOL_GRAPH_MAGIC, fake.kind = GCOL_GRAPH_CSR, fake.n = 10;
  CHECK_STATUS(gcol_sssp_many_to_many(&fake, p, 1, NULL, 10, w, 0), GCOL_ERROR_NO_DEVICE);
  gcol_heap_op_t op = {GCOL_HEAP_OP_PUSH, 1, 1.0f, 0};
  gcol_heap_result_t res;
  CHECK_STATUS(gcol_detail_heap_replay(&op, 1, 4, 0, 1, &res), GCOL_ERROR_NO_DEVICE);
  return TEST_PASS;
}

/* Predecessors and paths (issue 27): argument errors come before the device
 * (NULL, misaligned, sizes), a no-op call succeeds, and without a GPU the
 * first good-looking call says NO_DEVICE. */
TEST(sssp_pred_and_paths_reject_bad_arguments_before_the_device) {
  struct gcol_graph fake;
  memset(&fake, 0, sizeof fake);
  fake.magic = GCOL_GRAPH_MAGIC, fake.kind = GCOL_GRAPH_CSR, fake.n = 10;
  uint32_t *p = (uint32_t *)16, *odd = (uint32_t *)18;
  float *w = (float *)16;
  uint64_t *off = (uint64_t *)16, *off4 = (uint64_t *)20;
  CHECK_STATUS(gcol_sssp_many_to_many_pred(NULL, p, 1, NULL, 10, w, p, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_many_to_many_pred(&fake, p, 1, NULL, 10, w, odd, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "gcol_sssp_many_to_many_pred: d_pred") != NULL);
  CHECK_STATUS(gcol_sssp_many_to_many_pred(&fake, p, 1, NULL, 10, NULL, p, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_many_to_many_pred(&fake, p, 1, NULL, 9, w, p, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_OK(gcol_sssp_many_to_many_pred(&fake, p, 0, NULL, 10, NULL, NULL, 0));
  CHECK_STATUS(gcol_sssp_paths(NULL, p, p, 1, off, p, 4, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_paths(&fake, NULL, p, 1, off, p, 4, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_paths(&fake, p, NULL, 1, off, p, 4, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_paths(&fake, p, p, 1, NULL, p, 4, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_paths(&fake, p, p, 1, off4, p, 4, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "d_offsets") != NULL);
  CHECK_STATUS(gcol_sssp_paths(&fake, p, p, 1, off, NULL, 4, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_paths(&fake, p, p, 1, off, odd, 4, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_paths(&fake, p, p, 1, off, p, 4, (float *)18, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_sssp_paths(&fake, p, p, (size_t)UINT32_MAX, off, p, 4, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_OK(gcol_sssp_paths(&fake, NULL, NULL, 0, NULL, NULL, 0, NULL, 0)); /* nothing to do */
  if (!test_have_gpu()) {
    CHECK_STATUS(gcol_sssp_many_to_many_pred(&fake, p, 1, NULL, 10, w, p, 0), GCOL_ERROR_NO_DEVICE);
    CHECK_STATUS(gcol_sssp_paths(&fake, p, p, 1, off, NULL, 0, NULL, 0), GCOL_ERROR_NO_DEVICE);
  }
  return TEST_PASS;
}

/* Graph configs (issue 42): the header is set by the _default function and
 * checked, the allocator's alloc and free go together, and the _with calls
 * refuse a NULL config and every argument the calls without one refuse, all
 * before the device; without a GPU a good call says NO_DEVICE. */
static void *never_alloc(void *ctx, size_t bytes, cudaStream_t s) {
  (void)ctx, (void)bytes, (void)s;
  return NULL;
}
static void never_free(void *ctx, void *p, size_t bytes, cudaStream_t s) { (void)ctx, (void)p, (void)bytes, (void)s; }

TEST(sssp_alloc_graph_config_rejects_bad_configs_before_the_device) {
  gcol_graph_config_t c = gcol_graph_config_default();
  CHECK(c.size == sizeof c && c.magic == GCOL_CONFIG_MAGIC);
  CHECK(c.version == GCOL_VERSION_MAJOR * 10000u + GCOL_VERSION_MINOR * 100u + GCOL_VERSION_PATCH);
  CHECK(!c.allocator.alloc && !c.allocator.free && !c.allocator.ctx);
  gcol_graph_t *g = (gcol_graph_t *)1;
  uint32_t *p = (uint32_t *)16;
  float *w = (float *)16;
  CHECK_STATUS(gcol_graph_create_csr_with(&g, 4, 3, p, p, w, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(g == NULL && strstr(gcol_last_error_message(), "gcol_graph_create_csr_with: cfg is NULL"));
  g = (gcol_graph_t *)1;
  CHECK_STATUS(gcol_graph_create_grid3d_with(&g, 2, 2, 2, w, 6, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(g == NULL && strstr(gcol_last_error_message(), "gcol_graph_create_grid3d_with: cfg is NULL"));
  gcol_graph_config_t bad = c;
  bad.magic = 0; /* filled by hand */
  CHECK_STATUS(gcol_graph_create_csr_with(&g, 4, 3, p, p, w, &bad, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "magic"));
  bad = c;
  bad.size = sizeof bad + 8; /* built against a newer header */
  CHECK_STATUS(gcol_graph_create_grid3d_with(&g, 2, 2, 2, w, 6, &bad, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "newer"));
  bad = c;
  bad.size = sizeof bad - 8; /* shorter than the first struct (1.4) */
  CHECK_STATUS(gcol_graph_create_csr_with(&g, 4, 3, p, p, w, &bad, 0), GCOL_ERROR_INVALID_ARGUMENT);
  bad = c;
  bad.version = (GCOL_VERSION_MAJOR + 1) * 10000u;
  CHECK_STATUS(gcol_graph_create_csr_with(&g, 4, 3, p, p, w, &bad, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "major version"));
  bad = c;
  bad.allocator.alloc = never_alloc; /* alone */
  CHECK_STATUS(gcol_graph_create_csr_with(&g, 4, 3, p, p, w, &bad, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "allocator"));
  bad = c;
  bad.allocator.free = never_free;
  CHECK_STATUS(gcol_graph_create_grid3d_with(&g, 2, 2, 2, w, 26, &bad, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "allocator"));
  /* a good config: the other arguments are checked as without one */
  gcol_graph_config_t a = c;
  a.allocator.alloc = never_alloc, a.allocator.free = never_free;
  CHECK_STATUS(gcol_graph_create_csr_with(NULL, 4, 3, p, p, w, &a, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_csr_with(&g, 0, 0, p, NULL, NULL, &a, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_csr_with(&g, 4, 0, NULL, NULL, NULL, &a, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_csr_with(&g, 4, 3, p, NULL, w, &a, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_csr_with(&g, 4, 3, p, p, (float *)18, &a, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(strstr(gcol_last_error_message(), "d_weights"));
  CHECK_STATUS(gcol_graph_create_csr_with(&g, (size_t)1 << 32, 0, p, NULL, NULL, &a, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_csr_with(&g, 4, (size_t)1 << 32, p, p, w, &a, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_grid3d_with(NULL, 2, 2, 2, w, 6, &a, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_grid3d_with(&g, 0, 2, 2, w, 6, &a, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_grid3d_with(&g, 2, 2, 2, NULL, 6, &a, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_grid3d_with(&g, 2, 2, 2, w, 8, &a, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(gcol_graph_create_grid3d_with(&g, 65536, 65536, 2, w, 6, &a, 0), GCOL_ERROR_INVALID_ARGUMENT);
  CHECK(g == NULL);
  if (!test_have_gpu()) {
    CHECK_STATUS(gcol_graph_create_csr_with(&g, 4, 3, p, p, w, &c, 0), GCOL_ERROR_NO_DEVICE);
    CHECK_STATUS(gcol_graph_create_grid3d_with(&g, 2, 2, 2, w, 26, &a, 0), GCOL_ERROR_NO_DEVICE);
    CHECK(g == NULL);
  }
  return TEST_PASS;
}
