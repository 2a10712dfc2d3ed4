/* Inner hash join of two columns of random 64-bit keys with duplicates: the
 * build column (4M rows over 1M distinct keys) goes into a multimap, the
 * probe column (4M rows, about half of them matching) asks for its matches.
 * Two calls do the join: count (the output size), then retrieve. The match
 * count is printed next to a CPU sort-merge join's. Without a GPU it prints
 * "no CUDA device" and exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include "gcol/gcol.h"

#define BUILD_ROWS (4u << 20)
#define PROBE_ROWS (4u << 20)
#define DISTINCT (1u << 20)

static int fail(const char *what, gcol_status_t s) {
  fprintf(stderr, "%s: %s\n", what, gcol_status_string(s));
  return 1;
}

static uint64_t next(uint64_t *x) {
  *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
  return *x;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Matches of a sort-merge join (sorts both columns in place). */
static size_t cpu_join(uint64_t *b, size_t nb, uint64_t *p, size_t np) {
  qsort(b, nb, 8, cmp_u64), qsort(p, np, 8, cmp_u64);
  size_t i = 0, j = 0, matches = 0;
  while (i < nb && j < np) {
    if (b[i] < p[j]) ++i;
    else if (p[j] < b[i]) ++j;
    else {
      size_t i2 = i, j2 = j;
      while (i2 < nb && b[i2] == b[i]) ++i2;
      while (j2 < np && p[j2] == p[j]) ++j2;
      matches += (i2 - i) * (j2 - j);
      i = i2, j = j2;
    }
  }
  return matches;
}

int main(void) {
  gcol_multimap_config_t cfg = gcol_multimap_config_default(GCOL_U64, GCOL_U64, GCOL_MULTIMAP_OPEN);
  cfg.map.capacity = 2 * BUILD_ROWS; /* load 0.5 */
  gcol_multimap_t *mm = NULL;
  gcol_status_t s = gcol_multimap_create(&mm, &cfg, 0);
  if (s == GCOL_ERROR_NO_DEVICE) {
    printf("no CUDA device: gcol needs an NVIDIA GPU (%s)\n", gcol_status_string(s));
    return 0;
  }
  if (s != GCOL_SUCCESS) return fail("gcol_multimap_create", s);

  /* keys are (random id) >> 1, never a sentinel; the build value is its row */
  uint64_t *build = malloc(BUILD_ROWS * 8), *rows = malloc(BUILD_ROWS * 8), *probe = malloc(PROBE_ROWS * 8);
  uint64_t x = 0x2545F4914F6CDD1DULL;
  for (size_t i = 0; i < BUILD_ROWS; ++i) build[i] = (next(&x) % DISTINCT) * 0x9E3779B97F4A7C15ULL >> 1, rows[i] = i;
  for (size_t i = 0; i < PROBE_ROWS; ++i) probe[i] = (next(&x) % (2 * DISTINCT)) * 0x9E3779B97F4A7C15ULL >> 1;

  uint64_t *d_build, *d_rows, *d_probe;
  size_t *d_total, total = 0, written = 0;
  if (cudaMalloc((void **)&d_build, BUILD_ROWS * 8) || cudaMalloc((void **)&d_rows, BUILD_ROWS * 8) ||
      cudaMalloc((void **)&d_probe, PROBE_ROWS * 8) || cudaMalloc((void **)&d_total, sizeof(size_t)) ||
      cudaMemcpy(d_build, build, BUILD_ROWS * 8, cudaMemcpyHostToDevice) ||
      cudaMemcpy(d_rows, rows, BUILD_ROWS * 8, cudaMemcpyHostToDevice) ||
      cudaMemcpy(d_probe, probe, PROBE_ROWS * 8, cudaMemcpyHostToDevice)) {
    fprintf(stderr, "CUDA allocation or copy failed\n");
    return 1;
  }
  if ((s = gcol_multimap_insert(mm, d_build, d_rows, BUILD_ROWS, NULL, 0))) return fail("insert", s);
  /* call 1: how many matches */
  if ((s = gcol_multimap_count(mm, d_probe, PROBE_ROWS, NULL, d_total, 0))) return fail("count", s);
  cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost);
  /* call 2: the matches (build row, probe row) */
  size_t temp_bytes = 0;
  void *d_temp = NULL;
  uint64_t *d_build_row;
  size_t *d_probe_row;
  if ((s = gcol_multimap_retrieve(NULL, &temp_bytes, mm, d_probe, PROBE_ROWS, NULL, NULL, NULL, total, d_total, 0)))
    return fail("retrieve (size)", s);
  if (cudaMalloc(&d_temp, temp_bytes) || cudaMalloc((void **)&d_build_row, (total ? total : 1) * 8) ||
      cudaMalloc((void **)&d_probe_row, (total ? total : 1) * sizeof(size_t))) {
    fprintf(stderr, "CUDA allocation failed\n");
    return 1;
  }
  if ((s = gcol_multimap_retrieve(d_temp, &temp_bytes, mm, d_probe, PROBE_ROWS, NULL, d_build_row, d_probe_row,
                                  total, d_total, 0)))
    return fail("retrieve", s);
  cudaMemcpy(&written, d_total, sizeof written, cudaMemcpyDeviceToHost);
  if ((s = gcol_multimap_status(mm, 0))) return fail("status", s);

  /* spot check: every output row pairs equal keys */
  uint64_t *hb = malloc((total ? total : 1) * 8);
  size_t *hp = malloc((total ? total : 1) * sizeof(size_t)), bad = 0;
  cudaMemcpy(hb, d_build_row, total * 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(hp, d_probe_row, total * sizeof(size_t), cudaMemcpyDeviceToHost);
  for (size_t i = 0; i < total; ++i) bad += build[hb[i]] != probe[hp[i]];
  size_t cpu = cpu_join(build, BUILD_ROWS, probe, PROBE_ROWS);
  printf("hash join of %u x %u rows: GPU %zu matches (retrieve wrote %zu, %zu wrong), CPU %zu matches: %s\n",
         BUILD_ROWS, PROBE_ROWS, total, written, bad, cpu, total == cpu && written == cpu && !bad ? "agree" : "DIFFER");
  gcol_multimap_destroy(mm);
  cudaFree(d_build), cudaFree(d_rows), cudaFree(d_probe), cudaFree(d_total), cudaFree(d_temp);
  cudaFree(d_build_row), cudaFree(d_probe_row);
  free(build), free(rows), free(probe), free(hb), free(hp);
  return total == cpu && written == cpu && !bad ? 0 : 1;
}
