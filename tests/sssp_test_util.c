#include "sssp_test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>

static double unit(tu_rng_t *r) { return (double)(tu_next(r) >> 11) * (1.0 / 9007199254740992.0); }

int st_random_graph(uint32_t n, size_t m, int split, tu_rng_t *rng, gcol_ref_csr_t *out) {
  uint32_t *src = malloc((m ? m : 1) * sizeof *src), *dst = malloc((m ? m : 1) * sizeof *dst);
  float *w = malloc((m ? m : 1) * sizeof *w);
  if (!src || !dst || !w) return -1;
  uint32_t live = split ? n - n / 10 : n, half = live / 2;
  for (size_t e = 0; e < m; ++e) {
    uint32_t u = (uint32_t)(tu_next(rng) % (live ? live : 1));
    uint32_t lo = 0, span = live;
    if (split && half) lo = u < half ? 0 : half, span = u < half ? half : live - half;
    uint32_t v = lo + (uint32_t)(tu_next(rng) % (span ? span : 1));
    uint64_t kind = tu_next(rng) % 16;
    if (kind == 0) v = u;               /* self loop */
    if (kind == 1 && e) u = src[e - 1], v = dst[e - 1]; /* parallel arc */
    src[e] = u, dst[e] = v;
    w[e] = tu_next(rng) % 8 == 0 ? 0.0f : (float)(unit(rng) * 10.0);
  }
  int rc = gcol_ref_csr_from_arcs(n, m, src, dst, w, out);
  free(src), free(dst), free(w);
  return rc;
}

uint32_t *st_random_ids(size_t k, uint32_t below, tu_rng_t *rng) {
  uint32_t *a = malloc((k ? k : 1) * sizeof *a);
  for (size_t i = 0; a && i < k; ++i) a[i] = (uint32_t)(tu_next(rng) % below);
  return a;
}

gcol_graph_t *st_grid_graph(uint32_t nx, uint32_t ny, uint32_t nz, const float *cost, int connectivity,
                            gcol_ref_csr_t *h) {
  size_t n = (size_t)nx * ny * nz;
  if (gcol_ref_grid_csr(nx, ny, nz, cost, connectivity, h) != 0) return NULL;
  void *dc = tu_to_device(cost, n * 4);
  gcol_graph_t *g = NULL;
  if (!dc || gcol_graph_create_grid3d(&g, nx, ny, nz, dc, connectivity, 0) != GCOL_SUCCESS) g = NULL;
  tu_free(dc);
  return g;
}

float *st_random_costs(size_t n, double obstacle_share, tu_rng_t *rng) {
  float *c = malloc(n * sizeof *c);
  for (size_t i = 0; c && i < n; ++i) c[i] = unit(rng) < obstacle_share ? INFINITY : (float)(0.5 + 2.0 * unit(rng));
  return c;
}

gcol_graph_t *st_device_graph(const gcol_ref_csr_t *h) {
  void *o = tu_to_device(h->offsets, ((size_t)h->n + 1) * 4);
  void *t = h->m ? tu_to_device(h->targets, h->m * 4) : NULL;
  void *w = h->m ? tu_to_device(h->weights, h->m * 4) : NULL;
  gcol_graph_t *g = NULL;
  if (o && (!h->m || (t && w)) && gcol_graph_create_csr(&g, h->n, h->m, o, t, w, 0) != GCOL_SUCCESS) g = NULL;
  tu_free(o), tu_free(t), tu_free(w);
  return g;
}

gcol_status_t st_gpu_table(const gcol_graph_t *g, const uint32_t *sources, size_t ns, const uint32_t *targets,
                           size_t nt, float *h_out) {
  void *ds = ns ? tu_to_device(sources, ns * 4) : NULL;
  void *dt = targets && nt ? tu_to_device(targets, nt * 4) : NULL;
  size_t cells = ns * nt;
  void *dd = cells ? tu_poisoned(cells * 4) : NULL;
  gcol_status_t st = GCOL_ERROR_CUDA;
  if ((!ns || ds) && (!targets || !nt || dt) && (!cells || dd)) {
    st = gcol_sssp_many_to_many(g, ds, ns, targets ? (dt ? dt : (void *)ds) : NULL, nt, dd, 0);
    if (st == GCOL_SUCCESS && cudaDeviceSynchronize() != cudaSuccess) st = GCOL_ERROR_CUDA;
    if (st == GCOL_SUCCESS && cells && tu_to_host(h_out, dd, cells * 4) != 0) st = GCOL_ERROR_CUDA;
  }
  tu_free(ds), tu_free(dt), tu_free(dd);
  return st;
}

int st_same_table(const float *want, const float *got, size_t rows, size_t cols) {
  for (size_t i = 0; i < rows * cols; ++i) {
    float a = want[i], b = got[i];
    int ok = (isnan(a) && isnan(b)) || a == b || (isfinite(a) && isfinite(b) && fabsf(a - b) <= 1e-5f * fmaxf(fabsf(a), fabsf(b)));
    if (!ok) {
      fprintf(stderr, "    row %zu col %zu: want %.9g got %.9g\n", i / cols, i % cols, a, b);
      return 0;
    }
  }
  return 1;
}

int st_load_helsinki(gcol_ref_csr_t *out) {
  char path[4096];
  const char *dir = getenv("GCOL_SSSP_DATA");
  if (dir) {
    snprintf(path, sizeof path, "%s/helsinki-osm.gr", dir);
    return gcol_ref_read_dimacs(path, out);
  }
  const char *tries[] = {"../shared/data/helsinki-osm.gr", "../../shared/data/helsinki-osm.gr"};
  for (int i = 0; i < 2; ++i)
    if (gcol_ref_read_dimacs(tries[i], out) == 0) return 0;
  return -1;
}

int st_check_table(const gcol_ref_csr_t *h, const gcol_graph_t *g, const uint32_t *src, size_t ns,
                   const uint32_t *tgt, size_t nt) {
  size_t cols = tgt ? nt : h->n;
  float *want = malloc(ns * cols * sizeof *want + 1), *got = malloc(ns * cols * sizeof *got + 1);
  int ok = want && got && gcol_ref_many_to_many(h, src, ns, tgt, cols, want, 0) >= 0;
  if (ok) {
    gcol_status_t st = st_gpu_table(g, src, ns, tgt, cols, got);
    if (st != GCOL_SUCCESS) fprintf(stderr, "    gpu: %s\n", gcol_status_string(st));
    ok = st == GCOL_SUCCESS && st_same_table(want, got, ns, cols);
  }
  free(want), free(got);
  return ok;
}
