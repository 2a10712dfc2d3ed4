/* Shortest-path benchmark (issues 6, 27): warp-heap push/pop throughput, then the
 * many-to-many problems on the GPU next to a multithreaded CPU Dijkstra
 * (binary heap, one thread per source, all cores). To bound the run time the
 * CPU solves the last GCOL_BENCH_CPU_SOURCES sources of each problem
 * (default 128) and its time is scaled to all sources (said in the output);
 * those rows are also compared with the GPU's. Relaxations (arcs scanned by
 * settled vertices) are counted by the CPU and scaled the same way; the GPU's
 * rate is that work over its time. Each GPU time is the median of
 * GCOL_BENCH_REPS runs (default 3) after a warm-up. Issue 27's rows: the
 * target (GPU >= 20x the CPU of the same run) as met/MISSED per problem, the
 * predecessor variant's time next to the distances-only one, the road
 * networks (the OSM Helsinki graph, from $GCOL_SSSP_DATA or
 * ../shared/data, and the 1M-point 3-NN graph) 1,024 -> all and 4,096 ->
 * 4,096, and gcol_sssp_paths for 4,096 pairs; also a 1.21M-vertex road
 * model (a lattice with holes, 2.5 arcs per vertex). GCOL_BENCH_SSSP_ONLY=
 * names (voxel, grid, road, holes, helsinki) runs those graphs;
 * GCOL_BENCH_SSSP_NS sets every problem's source count and
 * GCOL_BENCH_SSSP_GRID_SIDE the 2D grid's side (profiling);
 * GCOL_BENCH_SSSP_VARIANTS adds engine and bucket-width rows (variant_sweep)
 * to the all-vertex problems, GCOL_BENCH_SSSP_TARGET_VARIANTS to the
 * target-list ones; GCOL_BENCH_SSSP_EXTRAS=0 leaves out the predecessor and
 * path rows (the warp engine's, to fit a short device call). Each row names
 * the engine that the policy (or the variant) ran. */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "gcol/gcol.h"
#include "sssp/sssp_internal.h"
#include "sssp_ref.h"

static cudaStream_t stream;
static bench_timer_t timer;
static uint32_t *d_fallbacks; /* [0] fallback sources, [1] heap refills */

static void ok(gcol_status_t s, const char *what) { bench_ok(s, what); }

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
  return rng_state;
}
static double unit(void) { return (double)(rnd() >> 11) * 0x1p-53; }


static void *to_device(const void *h, size_t bytes) {
  void *d = NULL;
  BENCH_CUDA(cudaMalloc(&d, bytes ? bytes : 4));
  if (bytes) BENCH_CUDA(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
  return d;
}

/* ---- heap throughput --------------------------------------------------------- */
static void bench_heap(const bench_gpu_t *gpu) {
  const uint32_t cap = GCOL_SSSP_HEAP_NODES, pairs = 32768;
  uint32_t all = (uint32_t)gpu->num_sms * 32; /* 8 blocks of 4 warps per SM */
  uint32_t counts[2] = {1, all};
  for (int i = 0; i < 2; ++i) {
    float ms = 0;
    unsigned long long bad = 0;
    ok(gcol_detail_heap_bench(counts[i], pairs, cap, &ms, &bad), "heap bench (warm-up)");
    ok(gcol_detail_heap_bench(counts[i], pairs, cap, &ms, &bad), "heap bench");
    double ops = 2.0 * pairs * counts[i]; /* every pair pushed and popped */
    printf("heap %-22s %6u warps: %8.3f ms, %9.2f M push+pop/s total, %8.2f M/s per warp%s\n",
           i ? "all SMs busy" : "one warp", counts[i], ms, ops / ms / 1e3, ops / ms / 1e3 / counts[i],
           bad ? "  POPS OUT OF ORDER" : "");
  }
  printf("  (%u pairs per warp in bulks of 32, then popped one by one; heap of %u nodes)\n", pairs, cap);
}

/* ---- problems ------------------------------------------------------------------ */
typedef struct {
  const char *name;
  gcol_ref_csr_t cpu;
  gcol_graph_t *gpu;
  size_t num_sources, num_targets; /* num_targets 0: all vertices */
} problem_t;

static gcol_graph_t *grid_problem(problem_t *p, uint32_t nx, uint32_t ny, uint32_t nz, double obstacles) {
  size_t n = (size_t)nx * ny * nz;
  float *cost = malloc(n * sizeof *cost);
  for (size_t i = 0; i < n; ++i) cost[i] = unit() < obstacles ? INFINITY : (float)(1.0 + 9.0 * unit());
  if (gcol_ref_grid_csr(nx, ny, nz, cost, 26, &p->cpu) != 0) exit(1);
  void *d = to_device(cost, n * sizeof *cost);
  gcol_graph_t *g = NULL;
  ok(gcol_graph_create_grid3d(&g, nx, ny, nz, d, 26, stream), "create grid");
  BENCH_CUDA(cudaFree(d));
  free(cost);
  return g;
}

/* n random points in the unit square, each joined both ways to its 3 nearest
 * neighbours (found through a uniform bucket grid), Euclidean weights. */
static void road_graph(uint32_t n, gcol_ref_csr_t *out) {
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (uint32_t i = 0; i < n; ++i) x[i] = (float)unit(), y[i] = (float)unit();
  uint32_t side = (uint32_t)sqrt(n / 2.0) + 1, cells = side * side;
  uint32_t *start = calloc((size_t)cells + 1, sizeof *start), *item = malloc(n * sizeof *item);
#define CELL(i) ((uint32_t)(x[i] * side < side ? x[i] * side : side - 1) + side * (uint32_t)(y[i] * side < side ? y[i] * side : side - 1))
  for (uint32_t i = 0; i < n; ++i) ++start[CELL(i) + 1];
  for (uint32_t c = 0; c < cells; ++c) start[c + 1] += start[c];
  uint32_t *fill = malloc((size_t)cells * sizeof *fill);
  memcpy(fill, start, (size_t)cells * sizeof *fill);
  for (uint32_t i = 0; i < n; ++i) item[fill[CELL(i)]++] = i;
  size_t m = (size_t)n * 6;
  uint32_t *src = malloc(m * sizeof *src), *dst = malloc(m * sizeof *dst);
  float *w = malloc(m * sizeof *w);
  size_t e = 0;
  for (uint32_t i = 0; i < n; ++i) {
    int cx = (int)(x[i] * side), cy = (int)(y[i] * side);
    uint32_t best[3] = {i, i, i};
    float bd[3] = {INFINITY, INFINITY, INFINITY};
    for (int r = 0;; ++r) { /* ring r of cells; stop once it is farther than the 3rd best */
      for (int gy = cy - r; gy <= cy + r; ++gy)
        for (int gx = cx - r; gx <= cx + r; ++gx) {
          if (gx < 0 || gy < 0 || gx >= (int)side || gy >= (int)side) continue;
          if (abs(gx - cx) != r && abs(gy - cy) != r) continue;
          uint32_t c = (uint32_t)gx + side * (uint32_t)gy;
          for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
            uint32_t j = item[k];
            if (j == i) continue;
            float d = sqrtf((x[i] - x[j]) * (x[i] - x[j]) + (y[i] - y[j]) * (y[i] - y[j]));
            for (int s = 0; s < 3; ++s)
              if (d < bd[s]) {
                for (int t = 2; t > s; --t) bd[t] = bd[t - 1], best[t] = best[t - 1];
                bd[s] = d, best[s] = j;
                break;
              }
          }
        }
      if (bd[2] <= (float)r / side || r > (int)side) break;
    }
    for (int s = 0; s < 3; ++s)
      if (best[s] != i) {
        src[e] = i, dst[e] = best[s], w[e] = bd[s], ++e;
        src[e] = best[s], dst[e] = i, w[e] = bd[s], ++e;
      }
  }
#undef CELL
  if (gcol_ref_csr_from_arcs(n, e, src, dst, w, out) != 0) exit(1);
  free(x), free(y), free(start), free(item), free(fill), free(src), free(dst), free(w);
}

/* GPU seconds (median of reps after a warm-up) of one many-to-many call,
 * with predecessors when d_pred is given. */
static double time_gpu(problem_t *p, const uint32_t *d_src, size_t ns, const uint32_t *d_tgt, size_t nt, float *d_dist,
                       uint32_t *d_pred, int reps) {
  double ms[16];
  if (reps > 16) reps = 16;
  if (reps < 1) reps = 1;
#define SSSP_CALL()                                                                   \
  (d_pred ? gcol_sssp_many_to_many_pred(p->gpu, d_src, ns, d_tgt, nt, d_dist, d_pred, stream) \
          : gcol_sssp_many_to_many(p->gpu, d_src, ns, d_tgt, nt, d_dist, stream))
  ok(SSSP_CALL(), "sssp (warm-up)");
  BENCH_CUDA(cudaStreamSynchronize(stream));
  for (int r = 0; r < reps; ++r) {
    bench_timer_start(&timer, stream);
    ok(SSSP_CALL(), "sssp");
#undef SSSP_CALL
    ms[r] = bench_timer_stop_ms(&timer, stream);
  }
  return bench_median(ms, reps) / 1e3;
}

static int gpu_only;

/* The variable's list, e.g. "w,n,s,l,2,8,32": the problem again (GPU only,
 * one run) with the warp engine forced (w), near-far forced at the policy's
 * bucket width and block size (n), with blocks of 256 (s) or 512 (l)
 * threads, and at each given width (in mean arc weights); the plain row is
 * the policy's choice. */
static void run_problem(problem_t *p, size_t cpu_sources, int reps);
static void variant_sweep_of(problem_t *p, const char *var) {
  const char *list = getenv(var);
  const char *base = p->name;
  while (list && *list) {
    char *end = NULL;
    static char name[96];
    if (*list == 'w') {
      gcol_test_hooks.sssp.engine = 1, end = (char *)list + 1;
      snprintf(name, sizeof name, "%s, warp engine", base);
    } else if (*list == 'n' || *list == 's' || *list == 'l') {
      gcol_test_hooks.sssp.engine = 2, end = (char *)list + 1;
      gcol_test_hooks.sssp.nf_threads = *list == 's' ? 256 : *list == 'l' ? 512 : 0;
      snprintf(name, sizeof name, "%s, near-far%s", base, *list == 's' ? ", 256 threads" : *list == 'l' ? ", 512 threads" : "");
    } else {
      gcol_test_hooks.sssp.engine = 2, gcol_test_hooks.sssp.delta_factor = strtof(list, &end);
      gcol_test_hooks.sssp.nf_threads = 0;
      snprintf(name, sizeof name, "%s, near-far delta %g", base, gcol_test_hooks.sssp.delta_factor);
    }
    list = *end ? end + 1 : end;
    p->name = name, gpu_only = 1;
    run_problem(p, 0, 1);
  }
  gcol_test_hooks.sssp.engine = 0, gcol_test_hooks.sssp.delta_factor = 0.0f, p->name = base, gpu_only = 0;
  gcol_test_hooks.sssp.nf_threads = 0;
}
static void variant_sweep(problem_t *p) {
  variant_sweep_of(p, p->num_targets ? "GCOL_BENCH_SSSP_TARGET_VARIANTS" : "GCOL_BENCH_SSSP_VARIANTS");
}
static int extras(void) { return bench_size("GCOL_BENCH_SSSP_EXTRAS", 1) != 0; }
static const char *engine_name(void) {
  return gcol_test_hooks.sssp.last_engine == 2 ? "near-far" : "warp";
}

/* with_pred: also time the predecessor variant (its table beside d_dist). */
static void run_problem_pred(problem_t *p, size_t cpu_sources, int reps, int with_pred);
static void run_problem(problem_t *p, size_t cpu_sources, int reps) { run_problem_pred(p, cpu_sources, reps, 0); }
static void run_problem_pred(problem_t *p, size_t cpu_sources, int reps, int with_pred) {
  uint32_t n = p->cpu.n;
  size_t ns = bench_size("GCOL_BENCH_SSSP_NS", p->num_sources), nt = p->num_targets ? p->num_targets : n; /* NS: profiling */
  uint32_t *src = calloc(ns, sizeof *src), *tgt = p->num_targets ? calloc(nt, sizeof *tgt) : NULL;
  for (size_t i = 0; i < ns; ++i) src[i] = (uint32_t)(rnd() % n);
  for (size_t j = 0; tgt && j < nt; ++j) tgt[j] = (uint32_t)(rnd() % n);
  uint32_t *d_src = to_device(src, ns * 4), *d_tgt = tgt ? to_device(tgt, nt * 4) : NULL;
  float *d_dist = NULL;
  BENCH_CUDA(cudaMalloc((void **)&d_dist, ns * nt * sizeof(float)));
  double pred_s = 0;
  if (with_pred) {
    uint32_t *d_pred = NULL;
    BENCH_CUDA(cudaMalloc((void **)&d_pred, ns * nt * sizeof(uint32_t)));
    pred_s = time_gpu(p, d_src, ns, d_tgt, nt, d_dist, d_pred, reps);
    BENCH_CUDA(cudaFree(d_pred));
  }
  double gpu_s = time_gpu(p, d_src, ns, d_tgt, nt, d_dist, NULL, reps);
  const char *engine = engine_name();
  uint32_t hooks[2] = {0, 0};
  if (gpu_only) { /* a sweep point: no CPU run, no check */
    printf("%-44s GPU %8.3f s  (%s)\n", p->name, gpu_s, engine);
    free(src), free(tgt);
    BENCH_CUDA(cudaFree(d_src));
    if (d_tgt) BENCH_CUDA(cudaFree(d_tgt));
    BENCH_CUDA(cudaFree(d_dist));
    return;
  }
  BENCH_CUDA(cudaMemcpy(hooks, d_fallbacks, 8, cudaMemcpyDeviceToHost));

  /* CPU on the first sources, all cores; compare those rows */
  size_t cs = cpu_sources < ns ? cpu_sources : ns;
  float *want = malloc(cs * nt * sizeof *want), *got = malloc(cs * nt * sizeof *got);
  double t0 = 1e-3 * bench_wall_ms();
  size_t first = ns - cs; /* the last sources: the ones a near-far block takes after others */
  long long relax = gcol_ref_many_to_many(&p->cpu, src + first, cs, tgt, nt, want, 0);
  double cpu_s = (1e-3 * bench_wall_ms() - t0) * (double)ns / (double)cs;
  double relax_all = (double)relax * (double)ns / (double)cs;
  BENCH_CUDA(cudaMemcpy(got, d_dist + first * nt, cs * nt * sizeof *got, cudaMemcpyDeviceToHost));
  size_t wrong = 0;
  for (size_t i = 0; i < cs * nt; ++i) {
    float a = want[i], b = got[i];
    if (!(a == b || (isnan(a) && isnan(b)) || (isfinite(a) && fabsf(a - b) <= 1e-5f * fabsf(a)))) ++wrong;
  }
  printf("%-44s GPU %8.3f s (%s)  CPU %8.3f s%s  speedup %6.1fx  %6.2f G relax/s GPU, %5.2f CPU  refills %u, "
         "fallback sources %u%s  target >= 20x: %s\n",
         p->name, gpu_s, engine, cpu_s, cs < ns ? "*" : " ", cpu_s / gpu_s, relax_all / gpu_s / 1e9, relax_all / cpu_s / 1e9,
         hooks[1], hooks[0], wrong ? "  MISMATCH vs CPU" : "", cpu_s / gpu_s >= 20.0 ? "met" : "MISSED");
  if (with_pred)
    printf("%-44s GPU %8.3f s with predecessors (warp engine; %.2fx the distances-only time)\n", "", pred_s,
           pred_s / gpu_s);
  if (wrong) fprintf(stderr, "bench: %zu of %zu checked distances differ\n", wrong, cs * nt);
  free(src), free(tgt), free(want), free(got);
  BENCH_CUDA(cudaFree(d_src));
  if (d_tgt) BENCH_CUDA(cudaFree(d_tgt));
  BENCH_CUDA(cudaFree(d_dist));
}

/* A road model: a side x side lattice of jittered points where each
 * lattice edge exists with probability `keep` (0.625: 2.5 roads per
 * crossing on average, as in city street networks; the holes are blocks and
 * missing links, and some crossings end up cut off), both ways, weighing
 * its length times a class factor (8% arterials at 0.5, the rest 0.9 to
 * 1.3: travel times). */
static void holes_road_graph(uint32_t side, double keep, gcol_ref_csr_t *out) {
  uint32_t n = side * side;
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (uint32_t i = 0; i < n; ++i) x[i] = (float)(i % side + 0.6 * unit() - 0.3), y[i] = (float)(i / side + 0.6 * unit() - 0.3);
  size_t cap = (size_t)n * 4, e = 0;
  uint32_t *src = malloc(cap * sizeof *src), *dst = malloc(cap * sizeof *dst);
  float *w = malloc(cap * sizeof *w);
  for (uint32_t i = 0; i < n; ++i)
    for (int k = 0; k < 2; ++k) {
      uint32_t j = k == 0 ? i + 1 : i + side;
      if ((k == 0 && i % side + 1 == side) || (k == 1 && j >= n) || unit() >= keep) continue;
      float len = sqrtf((x[i] - x[j]) * (x[i] - x[j]) + (y[i] - y[j]) * (y[i] - y[j]));
      float c = unit() < 0.08 ? 0.5f : (float)(0.9 + 0.4 * unit());
      src[e] = i, dst[e] = j, w[e] = len * c, ++e;
      src[e] = j, dst[e] = i, w[e] = len * c, ++e;
    }
  if (gcol_ref_csr_from_arcs(n, e, src, dst, w, out) != 0) exit(1);
  free(x), free(y), free(src), free(dst), free(w);
}

/* gcol_sssp_paths for np random pairs: the size query and the filling call
 * (each runs the searches), and the mean path length. */
static void run_paths(problem_t *p, size_t np) {
  uint32_t n = p->cpu.n;
  uint32_t *src = malloc(np * 4), *tgt = malloc(np * 4);
  for (size_t i = 0; i < np; ++i) src[i] = (uint32_t)(rnd() % n), tgt[i] = (uint32_t)(rnd() % n);
  uint32_t *d_src = to_device(src, np * 4), *d_tgt = to_device(tgt, np * 4), *d_v = NULL;
  uint64_t *d_off = NULL, total = 0;
  BENCH_CUDA(cudaMalloc((void **)&d_off, (np + 1) * 8));
  ok(gcol_sssp_paths(p->gpu, d_src, d_tgt, np, d_off, NULL, 0, NULL, stream), "paths (size, warm-up)");
  BENCH_CUDA(cudaMemcpy(&total, d_off + np, 8, cudaMemcpyDeviceToHost));
  BENCH_CUDA(cudaMalloc((void **)&d_v, (total ? total : 1) * 4));
  bench_timer_start(&timer, stream);
  ok(gcol_sssp_paths(p->gpu, d_src, d_tgt, np, d_off, NULL, 0, NULL, stream), "paths (size)");
  double size_s = bench_timer_stop_ms(&timer, stream) / 1e3;
  bench_timer_start(&timer, stream);
  ok(gcol_sssp_paths(p->gpu, d_src, d_tgt, np, d_off, d_v, total, NULL, stream), "paths");
  double fill_s = bench_timer_stop_ms(&timer, stream) / 1e3;
  printf("%-44s size query %8.3f s, paths %8.3f s: %llu vertices, %.1f per pair\n", p->name, size_s, fill_s,
         (unsigned long long)total, (double)total / (double)np);
  free(src), free(tgt);
  BENCH_CUDA(cudaFree(d_src)), BENCH_CUDA(cudaFree(d_tgt)), BENCH_CUDA(cudaFree(d_v)), BENCH_CUDA(cudaFree(d_off));
}

static void csr_to_gpu(problem_t *p) {
  void *o = to_device(p->cpu.offsets, ((size_t)p->cpu.n + 1) * 4), *t = to_device(p->cpu.targets, p->cpu.m * 4),
       *w = to_device(p->cpu.weights, p->cpu.m * 4);
  ok(gcol_graph_create_csr(&p->gpu, p->cpu.n, p->cpu.m, o, t, w, stream), "create CSR graph");
  BENCH_CUDA(cudaFree(o)), BENCH_CUDA(cudaFree(t)), BENCH_CUDA(cudaFree(w));
}

/* A road network's rows (p->cpu holds it; the GPU copy is made and freed
 * here): 1,024 -> all with predecessors and the variant rows, 4,096 ->
 * 4,096, and paths for 4,096 pairs. */
static void road_rows(problem_t *p, const char *label, const char *what) {
  static char names[3][96];
  csr_to_gpu(p);
  printf("%s: %u vertices, %zu arcs (%.2f per vertex)\n", what, p->cpu.n, p->cpu.m, (double)p->cpu.m / p->cpu.n);
  snprintf(names[0], sizeof names[0], "%s, 1024 -> all", label);
  snprintf(names[1], sizeof names[1], "%s, 4096 -> 4096", label);
  snprintf(names[2], sizeof names[2], "%s, paths for 4096 pairs", label);
  p->name = names[0], p->num_sources = 1024, p->num_targets = 0;
  run_problem_pred(p, bench_size("GCOL_BENCH_CPU_SOURCES", 128), (int)bench_size("GCOL_BENCH_REPS", 3), extras());
  variant_sweep(p);
  p->name = names[1], p->num_sources = 4096, p->num_targets = 4096;
  run_problem(p, bench_size("GCOL_BENCH_CPU_SOURCES", 128), (int)bench_size("GCOL_BENCH_REPS", 3));
  variant_sweep(p);
  p->name = names[2];
  if (extras()) run_paths(p, 4096);
  gcol_graph_destroy(p->gpu);
  gcol_ref_csr_free(&p->cpu);
}

static int want(const char *name) {
  const char *only = getenv("GCOL_BENCH_SSSP_ONLY");
  return !only || strstr(only, name) != NULL;
}

int main(void) {
  bench_gpu_t gpu;
  if (bench_init(&gpu)) return 0;
  BENCH_CUDA(cudaStreamCreate(&stream));
  bench_timer_init(&timer);
  BENCH_CUDA(cudaMalloc((void **)&d_fallbacks, 8));
  gcol_test_hooks.sssp.d_fallback_sources = d_fallbacks;
  gcol_test_hooks.sssp.d_refills = d_fallbacks + 1;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  size_t cpu_sources = bench_size("GCOL_BENCH_CPU_SOURCES", 128);
  int reps = (int)bench_size("GCOL_BENCH_REPS", 3);
  printf("CPU: Dijkstra on a binary heap, %ld threads; * = timed on the last %zu sources and scaled\n", cores,
         cpu_sources);
  bench_heap(&gpu);

  problem_t p;
  memset(&p, 0, sizeof p);
  p.gpu = grid_problem(&p, 64, 64, 64, 0.10);
  const char *sweep = getenv("GCOL_BENCH_SSSP_SWEEP");
  if (sweep) { /* primary heap sizes ("1": a default list; else comma-separated node counts, 0 = auto) on the
                  voxel problem with GCOL_BENCH_SSSP_SOURCES sources (4,096) to 1,024 targets, then stop */
    uint32_t nodes[16] = {0, 1057, 880, 700, 500, 300};
    size_t count = 6;
    if (strcmp(sweep, "1") != 0)
      for (count = 0; count < 16 && *sweep; ++count) {
        char *end = NULL;
        nodes[count] = (uint32_t)strtoul(sweep, &end, 10);
        sweep = *end ? end + 1 : end;
      }
    size_t ns = bench_size("GCOL_BENCH_SSSP_SOURCES", 4096);
    for (size_t i = 0; i < count; ++i) {
      static char name[64];
      snprintf(name, sizeof name, "voxel %zu -> 1024, heap %u nodes%s", ns, nodes[i], nodes[i] ? "" : " (auto)");
      gcol_test_hooks.sssp.heap_nodes = nodes[i];
      p.name = name, p.num_sources = ns, p.num_targets = 1024;
      run_problem(&p, cpu_sources, 1);
    }
    return 0;
  }
  if (want("voxel")) {
    p.name = "voxel 64^3 26-conn 10% obst, 1024 -> all", p.num_sources = 1024, p.num_targets = 0;
    run_problem(&p, cpu_sources, reps);
    variant_sweep(&p);
    p.name = "voxel 64^3 26-conn 10% obst, 4096 -> 1024", p.num_sources = 4096, p.num_targets = 1024;
    run_problem_pred(&p, cpu_sources, reps, extras());
    variant_sweep(&p);
  }
  gcol_graph_destroy(p.gpu);
  gcol_ref_csr_free(&p.cpu);

  if (want("grid")) {
    uint32_t side = (uint32_t)bench_size("GCOL_BENCH_SSSP_GRID_SIDE", 1024); /* smaller: profiling */
    p.gpu = grid_problem(&p, side, side, 1, 0.0);
    p.name = side == 1024 ? "grid 1024^2 8-conn, 256 -> all" : "grid (GCOL_BENCH_SSSP_GRID_SIDE)^2 8-conn, 256 -> all";
    p.num_sources = 256, p.num_targets = 0;
    run_problem(&p, cpu_sources, reps);
    variant_sweep(&p);
    gcol_graph_destroy(p.gpu);
    gcol_ref_csr_free(&p.cpu);
  }

  if (want("road")) {
    road_graph(1u << 20, &p.cpu);
    road_rows(&p, "road-like 1M pts 3-NN", "road-like graph");
  }
  if (want("holes")) {
    holes_road_graph(1100, 0.625, &p.cpu);
    road_rows(&p, "road model 1.21M", "road model (lattice with holes)");
  }

  char path[4096];
  const char *dir = getenv("GCOL_SSSP_DATA");
  snprintf(path, sizeof path, "%s/helsinki-osm.gr", dir ? dir : "../shared/data");
  if (want("helsinki") && gcol_ref_read_dimacs(path, &p.cpu) == 0) {
    road_rows(&p, "Helsinki OSM", "Helsinki OSM");
  } else if (want("helsinki")) {
    printf("Helsinki OSM: %s not found (set GCOL_SSSP_DATA)\n", path);
  }

  gcol_test_hooks.sssp.d_fallback_sources = NULL;
  gcol_test_hooks.sssp.d_refills = NULL;
  BENCH_CUDA(cudaFree(d_fallbacks));
  return 0;
}
