/* String dictionary benchmark (issue 25): dictionary encoding and string
 * value_counts of generated columns (20M rows / 2M distinct and 100M rows /
 * 10M distinct, 12.5 bytes on average, random order, seeded) and of the
 * words of a real text repeated to 20M tokens.
 *
 * encode = create + insert_and_find (dense ids per row) + retrieve_all (the
 * dictionary) + destroy: what gcol.dictionary_encode does on the device.
 * value_counts = create + insert_or_apply(ADD, ones) + retrieve_all.
 * Wall time of the whole sequence (the calls synchronize), median of REPS.
 * "read" = the column's bytes (chars + offsets) / time, against the copy
 * bandwidth of this run. Targets (issue 25, H100 at 3,000 GB/s, scaled by
 * this run's copy bandwidth): <= 38 ms for the 20M column (100x
 * pyarrow.compute.dictionary_encode on the CPU; the same-run CPU
 * comparison is bench/bench_strmap.py), and read >= 30% of copy.
 * GCOL_BENCH_TEXT names the text file (default: the first found of a list).
 * GCOL_BENCH_STR_SCALE divides the row counts (quick runs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_common.h"
#include "gcol/gcol.h"

#define REPS 5
static bench_gpu_t gpu;
static cudaStream_t stream;

typedef struct {
  size_t n, bytes;
  int32_t *d_off;
  unsigned char *d_chars;
} col_t;

static col_t upload(const int32_t *off, const unsigned char *chars, size_t n) {
  col_t c = {n, (size_t)off[n], NULL, NULL};
  BENCH_CUDA(cudaMalloc((void **)&c.d_off, (n + 1) * 4));
  BENCH_CUDA(cudaMalloc((void **)&c.d_chars, c.bytes ? c.bytes : 1));
  BENCH_CUDA(cudaMemcpy(c.d_off, off, (n + 1) * 4, cudaMemcpyHostToDevice));
  BENCH_CUDA(cudaMemcpy(c.d_chars, chars, c.bytes, cudaMemcpyHostToDevice));
  return c;
}

/* n rows over d distinct strings: string k is k in base 26 (5 letters,
 * unique up to 11.8M) then seeded letters, 5..20 bytes (12.5 on average);
 * every string once, the rest drawn at random, then shuffled. */
static col_t generated(size_t n, size_t d, uint64_t seed) {
  uint32_t *pick = (uint32_t *)malloc(n * 4);
  for (size_t i = 0; i < n; ++i) pick[i] = (uint32_t)(i < d ? i : bench_mix64(seed + i) % d);
  for (size_t i = n - 1; i > 0; --i) {
    size_t j = bench_mix64(seed ^ (i * 0x9e3779b97f4a7c15ULL)) % (i + 1);
    uint32_t t = pick[i];
    pick[i] = pick[j];
    pick[j] = t;
  }
  int32_t *off = (int32_t *)malloc((n + 1) * 4);
  off[0] = 0;
  for (size_t i = 0; i < n; ++i) off[i + 1] = off[i] + 5 + (int32_t)(bench_mix64(pick[i] * 7919ULL + seed) % 16);
  unsigned char *chars = (unsigned char *)malloc((size_t)off[n]);
  for (size_t i = 0; i < n; ++i) {
    unsigned char *s = chars + off[i];
    uint32_t k = pick[i], len = (uint32_t)(off[i + 1] - off[i]);
    for (int j = 0; j < 5; ++j, k /= 26) s[j] = (unsigned char)('a' + k % 26);
    uint64_t h = bench_mix64(pick[i] ^ seed);
    for (uint32_t j = 5; j < len; ++j, h = bench_mix64(h)) s[j] = (unsigned char)('a' + h % 26);
  }
  col_t c = upload(off, chars, n);
  free(pick);
  free(off);
  free(chars);
  return c;
}

/* The words (runs of letters, digits, ' and -) of a text file, repeated in
 * order to n tokens. */
static col_t text_words(const char *path, size_t n, size_t *distinct_words) {
  FILE *f = fopen(path, "rb");
  if (!f) return (col_t){0, 0, NULL, NULL};
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *txt = (unsigned char *)malloc((size_t)sz + 1);
  size_t got = fread(txt, 1, (size_t)sz, f);
  fclose(f);
  size_t cap = 1024, w = 0;
  size_t *ws = (size_t *)malloc(cap * sizeof *ws), *wl = (size_t *)malloc(cap * sizeof *wl);
  for (size_t i = 0; i < got;) {
    while (i < got && !(txt[i] >= 0x80 || (txt[i] >= '0' && txt[i] <= '9') || (unsigned)((txt[i] | 32) - 'a') < 26u || txt[i] == '\'' || txt[i] == '-')) ++i;
    size_t s = i;
    while (i < got && (txt[i] >= 0x80 || (txt[i] >= '0' && txt[i] <= '9') || (unsigned)((txt[i] | 32) - 'a') < 26u || txt[i] == '\'' || txt[i] == '-')) ++i;
    if (i > s) {
      if (w == cap) {
        cap *= 2;
        ws = (size_t *)realloc(ws, cap * sizeof *ws);
        wl = (size_t *)realloc(wl, cap * sizeof *wl);
      }
      ws[w] = s;
      wl[w++] = i - s;
    }
  }
  col_t c = {0, 0, NULL, NULL};
  if (w == 0) return c;
  size_t total = 0;
  for (size_t i = 0; i < n; ++i) total += wl[i % w];
  if (total > 0x7fffffff) n = n / 2, total /= 2;
  int32_t *off = (int32_t *)malloc((n + 1) * 4);
  unsigned char *chars = (unsigned char *)malloc(total + 64);
  off[0] = 0;
  for (size_t i = 0; i < n; ++i) {
    memcpy(chars + off[i], txt + ws[i % w], wl[i % w]);
    off[i + 1] = off[i] + (int32_t)wl[i % w];
  }
  *distinct_words = w; /* tokens in the text (an upper bound of the distinct ones) */
  c = upload(off, chars, n);
  free(off);
  free(chars);
  free(txt);
  free(ws);
  free(wl);
  return c;
}

/* One encode or value_counts, wall ms; *distinct out. */
static double run_once(const col_t *c, int counts, void *d_ids, size_t *distinct) {
  double t0 = bench_wall_ms();
  gcol_strmap_config_t cfg = gcol_strmap_config_default(GCOL_U32);
  gcol_strmap_t *m = NULL;
  bench_ok(gcol_strmap_create(&m, &cfg, stream), "create");
  gcol_strings_t k = {c->d_off, GCOL_I32, c->d_chars, c->bytes, c->n};
  if (counts) bench_ok(gcol_strmap_insert_or_apply(m, &k, d_ids, GCOL_OP_ADD, stream), "insert_or_apply");
  else bench_ok(gcol_strmap_insert_and_find(m, &k, NULL, d_ids, NULL, stream), "insert_and_find");
  size_t cnt = 0, bytes = 0;
  bench_ok(gcol_strmap_retrieve_all(m, NULL, GCOL_I32, NULL, NULL, &cnt, &bytes, stream), "retrieve sizes");
  void *d_o = NULL, *d_c = NULL, *d_v = NULL;
  BENCH_CUDA(cudaMallocAsync(&d_o, (cnt + 1) * 4, stream));
  BENCH_CUDA(cudaMallocAsync(&d_c, bytes + 1, stream));
  BENCH_CUDA(cudaMallocAsync(&d_v, cnt * 4 + 4, stream));
  bench_ok(gcol_strmap_retrieve_all(m, d_o, GCOL_I32, d_c, d_v, &cnt, &bytes, stream), "retrieve_all");
  gcol_strmap_destroy(m);
  BENCH_CUDA(cudaFreeAsync(d_o, stream));
  BENCH_CUDA(cudaFreeAsync(d_c, stream));
  BENCH_CUDA(cudaFreeAsync(d_v, stream));
  BENCH_CUDA(cudaStreamSynchronize(stream));
  *distinct = cnt;
  return bench_wall_ms() - t0;
}

/* insert_and_find alone on a strmap already grown for the column (then
 * cleared: slots and arena kept): the call without create, growth and
 * retrieval. */
static double insert_only(const col_t *c, void *d_ids) {
  gcol_strmap_config_t cfg = gcol_strmap_config_default(GCOL_U32);
  gcol_strmap_t *m = NULL;
  bench_ok(gcol_strmap_create(&m, &cfg, stream), "create");
  gcol_strings_t k = {c->d_off, GCOL_I32, c->d_chars, c->bytes, c->n};
  bench_ok(gcol_strmap_insert_and_find(m, &k, NULL, d_ids, NULL, stream), "insert_and_find");
  double ms[REPS];
  for (int r = 0; r < REPS; ++r) {
    bench_ok(gcol_strmap_clear(m, stream), "clear");
    BENCH_CUDA(cudaStreamSynchronize(stream));
    double t0 = bench_wall_ms();
    bench_ok(gcol_strmap_insert_and_find(m, &k, NULL, d_ids, NULL, stream), "insert_and_find");
    BENCH_CUDA(cudaStreamSynchronize(stream));
    ms[r] = bench_wall_ms() - t0;
  }
  gcol_strmap_destroy(m);
  return bench_median(ms, REPS);
}

static void row(const char *label, const col_t *c, int counts, double target_ms) {
  uint32_t *d = NULL;
  BENCH_CUDA(cudaMalloc((void **)&d, c->n * 4 + 4));
  if (counts) { /* ones: value_counts */
    uint32_t *h = (uint32_t *)malloc(c->n * 4);
    for (size_t i = 0; i < c->n; ++i) h[i] = 1;
    BENCH_CUDA(cudaMemcpy(d, h, c->n * 4, cudaMemcpyHostToDevice));
    free(h);
  }
  double ms[REPS];
  size_t distinct = 0;
  for (int r = 0; r < REPS; ++r) {
    if (counts && r) { /* the ones were consumed by reading only; nothing to reset */
    }
    ms[r] = run_once(c, counts, d, &distinct);
  }
  double t = bench_median(ms, REPS);
  double read_gbs = (double)(c->bytes + (c->n + 1) * 4) / t / 1e6;
  double share = read_gbs / gpu.copy_gbs;
  printf("%-34s %-12s %11zu %10zu %9.2f %8.2f %8.1f %6.1f%%", label, counts ? "value_counts" : "encode", c->n,
         distinct, t, c->n / t / 1e6, read_gbs, 100 * share);
  if (target_ms > 0) printf("  <= %.1f ms: %s", target_ms, t <= target_ms ? "met" : "MISSED");
  printf("  read >= 30%%: %s\n", share >= 0.30 ? "met" : "MISSED");
  if (!counts) {
    double ti = insert_only(c, d);
    printf("%-34s %-12s %11zu %10s %9.2f %8.2f %8.1f %6.1f%%  (insert_and_find alone, table grown)\n", label,
           "  of which", c->n, "", ti, c->n / ti / 1e6, (double)(c->bytes + (c->n + 1) * 4) / ti / 1e6,
           100 * (double)(c->bytes + (c->n + 1) * 4) / ti / 1e6 / gpu.copy_gbs);
  }
  BENCH_CUDA(cudaFree(d));
}

int main(void) {
  if (bench_init(&gpu)) return 0;
  BENCH_CUDA(cudaStreamCreate(&stream));
  size_t scale = bench_size("GCOL_BENCH_STR_SCALE", 1);
  double target20 = 38.0 * 3000.0 / gpu.copy_gbs; /* 100x pyarrow on the CPU, scaled */
  printf("strmap: rows, distinct, median ms of %d (wall, create..destroy), G rows/s, column bytes read GB/s and %% of copy\n",
         REPS);
  printf("%-34s %-12s %11s %10s %9s %8s %8s %7s\n", "column", "op", "rows", "distinct", "ms", "G/s", "GB/s", "copy");
  col_t a = generated(20000000 / scale, 2000000 / scale, 25);
  row("generated 20M / 2M, 12.5 B", &a, 0, target20);
  row("generated 20M / 2M, 12.5 B", &a, 1, target20);
  cudaFree(a.d_off);
  cudaFree(a.d_chars);
  col_t b = generated(100000000 / scale, 10000000 / scale, 26);
  row("generated 100M / 10M, 12.5 B", &b, 0, 5 * target20);
  row("generated 100M / 10M, 12.5 B", &b, 1, 5 * target20);
  cudaFree(b.d_off);
  cudaFree(b.d_chars);
  const char *texts[] = {getenv("GCOL_BENCH_TEXT"), "/usr/share/dict/words", "/usr/share/common-licenses/GPL-3",
                         "/usr/lib/python3.12/LICENSE.txt", "/usr/share/common-licenses/Apache-2.0"};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; ++i) {
    if (!texts[i]) continue;
    size_t words = 0;
    col_t c = text_words(texts[i], 20000000 / scale, &words);
    if (!c.n) continue;
    char label[64];
    const char *base = strrchr(texts[i], '/');
    snprintf(label, sizeof label, "%s (%zu tokens) x", base ? base + 1 : texts[i], words);
    row(label, &c, 0, target20);
    row(label, &c, 1, target20);
    cudaFree(c.d_off);
    cudaFree(c.d_chars);
    break;
  }
  return 0;
}
