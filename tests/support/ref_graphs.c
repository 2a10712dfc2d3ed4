/* Host graph builders for the CPU reference: arcs to CSR, the voxel grid as
 * an explicit CSR (the GPU keeps it implicit), and the DIMACS .gr reader. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sssp/graph_internal.h"
#include "sssp_ref.h"

int gcol_ref_csr_from_arcs(uint32_t n, size_t m, const uint32_t *src, const uint32_t *dst, const float *w,
                           gcol_ref_csr_t *out) {
  memset(out, 0, sizeof *out);
  for (size_t e = 0; e < m; ++e)
    if (src[e] >= n || dst[e] >= n) return -1;
  out->n = n, out->m = m;
  out->offsets = calloc((size_t)n + 1, sizeof *out->offsets);
  out->targets = malloc((m ? m : 1) * sizeof *out->targets);
  out->weights = malloc((m ? m : 1) * sizeof *out->weights);
  if (!out->offsets || !out->targets || !out->weights) {
    gcol_ref_csr_free(out);
    return -3;
  }
  for (size_t e = 0; e < m; ++e) ++out->offsets[src[e] + 1];
  for (uint32_t i = 0; i < n; ++i) out->offsets[i + 1] += out->offsets[i];
  uint32_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
  if (!fill) {
    gcol_ref_csr_free(out);
    return -3;
  }
  memcpy(fill, out->offsets, ((size_t)n + 1) * sizeof *fill);
  for (size_t e = 0; e < m; ++e) {
    uint32_t at = fill[src[e]]++;
    out->targets[at] = dst[e], out->weights[at] = w[e];
  }
  free(fill);
  return 0;
}

int gcol_ref_grid_csr(uint32_t nx, uint32_t ny, uint32_t nz, const float *cost, int connectivity,
                      gcol_ref_csr_t *out) {
  memset(out, 0, sizeof *out);
  int max_class;
  uint64_t n64 = (uint64_t)nx * ny * nz;
  if (!cost || !gcol_grid_connectivity_class(connectivity, &max_class) || n64 == 0 || n64 > UINT32_MAX)
    return -1;
  uint32_t n = (uint32_t)n64;
  for (uint32_t i = 0; i < n; ++i)
    if (!gcol_grid_cost_valid(cost[i])) return -1;
  size_t cap = (size_t)n * (size_t)connectivity;
  out->n = n;
  out->offsets = malloc(((size_t)n + 1) * sizeof *out->offsets);
  out->targets = malloc(cap * sizeof *out->targets);
  out->weights = malloc(cap * sizeof *out->weights);
  out->blocked = malloc(n);
  if (!out->offsets || !out->targets || !out->weights || !out->blocked) {
    gcol_ref_csr_free(out);
    return -2;
  }
  size_t m = 0;
  for (uint32_t u = 0; u < n; ++u) {
    out->offsets[u] = (uint32_t)m;
    out->blocked[u] = isinf(cost[u]) != 0;
    if (out->blocked[u]) continue;
    int x = (int)(u % nx), y = (int)((u / nx) % ny), z = (int)(u / nx / ny);
    for (int d = 0; d < 26; ++d) {
      int dx, dy, dz, cls = gcol_grid_dir(d, &dx, &dy, &dz);
      int X = x + dx, Y = y + dy, Z = z + dz;
      if (cls > max_class || X < 0 || Y < 0 || Z < 0 || X >= (int)nx || Y >= (int)ny || Z >= (int)nz) continue;
      uint32_t v = (uint32_t)X + nx * ((uint32_t)Y + ny * (uint32_t)Z);
      if (isinf(cost[v])) continue;
      out->targets[m] = v;
      out->weights[m] = gcol_grid_weight(cost[u], cost[v], gcol_grid_step(cls));
      ++m;
    }
  }
  out->offsets[n] = (uint32_t)m;
  out->m = m;
  return 0;
}

/* ---- DIMACS ---------------------------------------------------------------- */
static const char *skip_line(const char *p) {
  while (*p && *p != '\n') ++p;
  return *p ? p + 1 : p;
}

int gcol_ref_parse_dimacs(const char *text, gcol_ref_csr_t *out) {
  memset(out, 0, sizeof *out);
  unsigned long long n = 0, m = 0, seen = 0;
  int have_p = 0, rc = 0;
  uint32_t *src = NULL, *dst = NULL;
  float *w = NULL;
  for (const char *p = text; *p; p = skip_line(p)) {
    while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
    if (*p == 'c' || *p == '\n' || *p == '\0') continue;
    if (*p == 'p') {
      if (have_p || sscanf(p, "p sp %llu %llu", &n, &m) != 2 || n > UINT32_MAX || m > UINT32_MAX) return -2;
      have_p = 1;
      src = malloc((m ? m : 1) * sizeof *src);
      dst = malloc((m ? m : 1) * sizeof *dst);
      w = malloc((m ? m : 1) * sizeof *w);
      if (!src || !dst || !w) {
        rc = -3;
        break;
      }
    } else if (*p == 'a') {
      unsigned long long u, v;
      double weight;
      if (!have_p || seen >= m || sscanf(p, "a %llu %llu %lf", &u, &v, &weight) != 3 || u < 1 || v < 1 ||
          u > n || v > n || !(weight >= 0) || isinf(weight)) {
        rc = -2;
        break;
      }
      src[seen] = (uint32_t)(u - 1), dst[seen] = (uint32_t)(v - 1), w[seen] = (float)weight;
      ++seen;
    } else {
      rc = -2;
      break;
    }
  }
  if (rc == 0 && (!have_p || seen != m)) rc = -2;
  if (rc == 0 && gcol_ref_csr_from_arcs((uint32_t)n, (size_t)m, src, dst, w, out) != 0) rc = -3;
  free(src);
  free(dst);
  free(w);
  return rc;
}

int gcol_ref_read_dimacs(const char *path, gcol_ref_csr_t *out) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t cap = 1 << 20, len = 0;
  char *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0;) {
    len += got;
    if (len + 1 == cap) {
      char *b = realloc(buf, cap *= 2);
      if (!b) free(buf);
      buf = b;
    }
  }
  fclose(f);
  if (!buf) return -3;
  buf[len] = '\0';
  int rc = gcol_ref_parse_dimacs(buf, out);
  free(buf);
  return rc;
}
