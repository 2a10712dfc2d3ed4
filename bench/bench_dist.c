/* Sharded map benchmark (libgcol_nccl), one process driving the GPUs
 * (ncclCommInitAll, group mode). For R = 1, 2, 4, ... up to every visible
 * GPU, in one run:
 *  (a) NCCL all-to-all: ncclSend/ncclRecv to every peer in one group, each
 *      GPU sending what an insert of N pairs sends, (R-1)/R of N x 16 B;
 *  (b) one GPU's gcol_map_insert and gcol_map_find of N i64->i64 pairs at
 *      load 0.5 (2N slots), measured once;
 *  (c) gcol_dist_map_insert and _find of R x N pairs, N per rank (shards of
 *      2N slots); aggregate = R N / time.
 * The table compares (c) with one GPU and with the bound set by the slower
 * of R x one GPU's rate and the all-to-all bandwidth over the bytes each
 * pair moves. Targets (issue 37): insert >= 1.85x one GPU on 2 GPUs and
 * 3.5x on 4, find >= 1.6x and 2.9x; a target above the bound is met at 90%
 * of the bound. N = 100M per rank; GCOL_BENCH_DIST_N overrides. Median of
 * REPS runs after a warm-up (NCCL connects peers on first use).
 *
 * Capacity run (GCOL_BENCH_DIST_TOTAL=10000000000): one map of that many
 * i64 pairs over every GPU at load 0.8 (GCOL_BENCH_DIST_LOAD), fed in
 * batches from every GPU, then every key found again and every answer
 * checked on the device; prints the rates and each GPU's peak memory. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nccl.h>
#include "bench_common.h"
#include "bench_dist_data.h"
#include "dist/dist_plan.h"
#include "gcol/gcol_nccl.h"

#define REPS 5
#define PAIR_BYTES 16.0 /* insert: key + value; find: the key out and the value back */
#define SPOT 1000000    /* find answers checked per GPU */

static void nccl_check(ncclResult_t r, const char *what) {
  if (r != ncclSuccess) {
    fprintf(stderr, "bench: %s failed: %s\n", what, ncclGetErrorString(r));
    exit(1);
  }
}
#define BENCH_NCCL(x) nccl_check((x), #x)

typedef struct {
  ncclComm_t comm; /* rank i is device i */
  cudaStream_t s;
  bench_timer_t t;
  gcol_dist_map_t *map;
  void *keys, *out; /* N keys (also the values), N find answers */
} rank_t;

static bench_gpu_t gpu;
static rank_t *ranks; /* one per visible GPU */
static int R;         /* GPUs of the communicator in use: 0 .. R-1 */
static int R_all;     /* visible GPUs */
static size_t N;

/* ---- timing over several GPUs: the slowest GPU's time ---------------------- */
typedef void (*step_t)(int ngpu);

static double median_ms(int ngpu, step_t prepare, step_t run) {
  double ms[REPS];
  for (int rep = -1; rep < REPS; ++rep) { /* rep -1: warm-up */
    if (prepare) prepare(ngpu);
    for (int i = 0; i < ngpu; ++i) {
      BENCH_CUDA(cudaSetDevice(i));
      bench_timer_start(&ranks[i].t, ranks[i].s);
    }
    run(ngpu);
    double slowest = 0;
    for (int i = 0; i < ngpu; ++i) {
      BENCH_CUDA(cudaSetDevice(i));
      double t = bench_timer_stop_ms(&ranks[i].t, ranks[i].s);
      slowest = t > slowest ? t : slowest;
    }
    if (rep >= 0) ms[rep] = slowest;
  }
  return bench_median(ms, REPS);
}

static double gpairs(size_t pairs, double ms) { return (double)pairs / (ms * 1e-3) / 1e9; }

/* ---- (a) NCCL all-to-all ----------------------------------------------------- */
static void **sendbuf, **recvbuf;
static size_t chunk; /* bytes to each peer */

static void exchange(int ngpu) {
  BENCH_NCCL(ncclGroupStart());
  for (int r = 0; r < ngpu; ++r)
    for (int p = 0; p < ngpu; ++p) {
      if (p == r) continue; /* a rank's own share stays on its GPU */
      BENCH_NCCL(ncclSend((char *)sendbuf[r] + p * chunk, chunk, ncclUint8, p, ranks[r].comm, ranks[r].s));
      BENCH_NCCL(ncclRecv((char *)recvbuf[r] + p * chunk, chunk, ncclUint8, p, ranks[r].comm, ranks[r].s));
    }
  BENCH_NCCL(ncclGroupEnd());
}

/* GB/s each GPU sends to its peers while all exchange at once; 0 with one GPU. */
static double alltoall_gbs(void) {
  if (R < 2) {
    printf("NCCL all-to-all: none with one GPU\n");
    return 0;
  }
  chunk = (size_t)((double)N * PAIR_BYTES / R);
  sendbuf = calloc((size_t)R, sizeof *sendbuf), recvbuf = calloc((size_t)R, sizeof *recvbuf);
  for (int r = 0; r < R; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    BENCH_CUDA(cudaMalloc(&sendbuf[r], chunk * R));
    BENCH_CUDA(cudaMalloc(&recvbuf[r], chunk * R));
    BENCH_CUDA(cudaMemset(sendbuf[r], 1, chunk * R));
  }
  double ms = median_ms(R, NULL, exchange), sent = (double)chunk * (R - 1);
  for (int r = 0; r < R; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    BENCH_CUDA(cudaFree(sendbuf[r]));
    BENCH_CUDA(cudaFree(recvbuf[r]));
  }
  free(sendbuf), free(recvbuf);
  double gbs = sent / (ms * 1e-3) / 1e9;
  printf("NCCL all-to-all: %.1f MB to each of %d peers per GPU in %.2f ms: %.1f GB/s sent per GPU\n", chunk / 1e6,
         R - 1, ms, gbs);
  return gbs;
}

/* ---- (b) one GPU ------------------------------------------------------------- */
typedef struct {
  double insert, find; /* G pairs/s */
} rates_t;

static gcol_map_t *local_map;

static void local_clear(int ngpu) {
  (void)ngpu;
  bench_ok(gcol_map_clear(local_map, ranks[0].s), "gcol_map_clear");
}
static void local_insert(int ngpu) {
  (void)ngpu;
  bench_ok(gcol_map_insert(local_map, ranks[0].keys, ranks[0].keys, N, NULL, ranks[0].s), "gcol_map_insert");
}
static void local_find(int ngpu) {
  (void)ngpu;
  bench_ok(gcol_map_find(local_map, ranks[0].keys, N, ranks[0].out, ranks[0].s), "gcol_map_find");
}

static void print_rates(const char *what, const char *op, size_t pairs, double ms, int ngpu) {
  double g = gpairs(pairs, ms);
  printf("%-9s %-7s %12zu pairs %9.2f ms %7.2f G pairs/s  %5.1f%% of copy per GPU\n", what, op, pairs, ms, g,
         100 * g / ngpu * PAIR_BYTES / gpu.copy_gbs);
}

static rates_t one_gpu(void) {
  BENCH_CUDA(cudaSetDevice(0));
  gcol_map_config_t c = gcol_map_config_default(GCOL_I64, GCOL_I64);
  c.capacity = 2 * N;
  bench_ok(gcol_map_create(&local_map, &c, ranks[0].s), "gcol_map_create");
  double ins = median_ms(1, local_clear, local_insert);
  bench_ok(gcol_map_status(local_map, ranks[0].s), "insert status");
  double find = median_ms(1, NULL, local_find);
  print_rates("one GPU", "insert", N, ins, 1);
  print_rates("one GPU", "find", N, find, 1);
  gcol_map_destroy(local_map);
  return (rates_t){gpairs(N, ins), gpairs(N, find)};
}

/* ---- (c) the sharded map ----------------------------------------------------- */
/* Every rank's call of one collective operation, grouped (one thread drives
 * every GPU, so ungrouped calls would wait for each other). */
typedef gcol_status_t (*rank_call_t)(rank_t *r);

static void on_every_rank(rank_call_t call, const char *what) {
  bench_ok(gcol_dist_group_start(), "gcol_dist_group_start");
  gcol_status_t first = GCOL_SUCCESS;
  for (int r = 0; r < R; ++r) {
    gcol_status_t s = call(&ranks[r]);
    if (first == GCOL_SUCCESS) first = s;
  }
  gcol_status_t end = gcol_dist_group_end();
  bench_ok(first == GCOL_SUCCESS ? end : first, what);
}

/* Lives as long as the program: a grouped create may read it as late as
 * gcol_dist_group_end. */
static gcol_map_config_t shard_cfg;

static gcol_status_t create_shard(rank_t *r) { return gcol_dist_map_create(&r->map, &shard_cfg, r->comm, r->s); }
static gcol_status_t insert_keys(rank_t *r) { return gcol_dist_map_insert(r->map, r->keys, r->keys, N, r->s); }
static gcol_status_t find_keys(rank_t *r) { return gcol_dist_map_find(r->map, r->keys, N, r->out, r->s); }

/* An empty map before each timed insert: made anew, since a shard must not
 * be changed directly. */
static void fresh_map(int ngpu) {
  (void)ngpu;
  for (int r = 0; r < R; ++r) gcol_dist_map_destroy(ranks[r].map), ranks[r].map = NULL;
  on_every_rank(create_shard, "gcol_dist_map_create");
}
static void dist_insert(int ngpu) {
  (void)ngpu;
  on_every_rank(insert_keys, "gcol_dist_map_insert");
}
static void dist_find(int ngpu) {
  (void)ngpu;
  on_every_rank(find_keys, "gcol_dist_map_find");
}

/* Every key was inserted with itself as value: the first SPOT answers of
 * each GPU must be the keys. */
static void check_answers(void) {
  size_t n = N < SPOT ? N : SPOT, wrong = 0;
  int64_t *k = malloc(n * 8 + 8), *v = malloc(n * 8 + 8);
  for (int r = 0; r < R; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    BENCH_CUDA(cudaMemcpy(k, ranks[r].keys, n * 8, cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(v, ranks[r].out, n * 8, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i) wrong += k[i] != v[i];
  }
  free(k), free(v);
  if (wrong) {
    fprintf(stderr, "bench: gcol_dist_map_find answered %zu of %zu keys wrongly\n", wrong, n * R);
    exit(1);
  }
}

static rates_t sharded(void) {
  shard_cfg = gcol_map_config_default(GCOL_I64, GCOL_I64);
  shard_cfg.capacity = 2 * N;
  double ins = median_ms(R, fresh_map, dist_insert);
  size_t size = 0;
  bench_ok(gcol_dist_group_start(), "gcol_dist_group_start");
  for (int r = 0; r < R; ++r) bench_ok(gcol_dist_map_size(ranks[r].map, &size, ranks[r].s), "gcol_dist_map_size");
  bench_ok(gcol_dist_group_end(), "gcol_dist_map_size");
  if (size != N * R) fprintf(stderr, "bench: the sharded map holds %zu of %zu keys\n", size, N * R);
  double find = median_ms(R, NULL, dist_find);
  check_answers();
  print_rates("sharded", "insert", N * R, ins, R);
  print_rates("sharded", "find", N * R, find, R);
  for (int r = 0; r < R; ++r) gcol_dist_map_destroy(ranks[r].map);
  return (rates_t){gpairs(N * R, ins), gpairs(N * R, find)};
}

/* ---- report ---------------------------------------------------------------------- */
typedef struct {
  int r;
  double a2a_gbs;
  rates_t all;
} run_t;

/* The target for R GPUs, as a multiple of one GPU; 0: none. */
static double target_x(int r, int find) {
  if (r == 2) return find ? 1.6 : 1.85;
  if (r == 4) return find ? 2.9 : 3.5;
  return 0;
}

/* One row: the aggregate against one GPU and against the slower of R GPUs
 * at one GPU's rate and the all-to-all moving (R-1)/R of each pair's bytes
 * out of every GPU. */
static void row(const run_t *u, const char *op, double agg, double local, int find) {
  double bound = local * u->r;
  const char *by = "R x one GPU";
  if (u->r > 1 && u->a2a_gbs > 0) {
    double net = u->r * u->a2a_gbs / (PAIR_BYTES * (u->r - 1) / u->r);
    if (net < bound) bound = net, by = "all-to-all";
  }
  printf("%4d %-7s %10.2f %9.2fx %10.2f  %-12s %7.1f%%  ", u->r, op, agg, agg / local, bound, by, 100 * agg / bound);
  double x = target_x(u->r, find), want = x * local;
  if (x == 0) printf("no target\n");
  else if (agg >= want) printf("met (>= %.2fx one GPU)\n", x);
  else if (want > bound && agg >= 0.9 * bound) printf("met (%.2fx lies above the bound; >= 90%% of it)\n", x);
  else if (want > bound) printf("MISSED (%.2fx lies above the bound; needs %.2f, 90%% of it)\n", x, 0.9 * bound);
  else printf("MISSED (needs %.2f: %.2fx one GPU)\n", want, x);
}

/* The GPUs' names: one line, or one per GPU when they differ. */
static void print_gpus(void) {
  int same = 1;
  for (int d = 1; d < R; ++d) {
    struct cudaDeviceProp p;
    BENCH_CUDA(cudaGetDeviceProperties(&p, d));
    same = same && strcmp(p.name, gpu.name) == 0;
  }
  printf("GPUs: %d x %s%s\n", R, gpu.name, same ? "" : " and others (timings follow the slowest)");
}

/* Each GPU's N keys (distinct across GPUs; they are their own values) and
 * room for N answers; GPU 0's also serve the one-GPU runs. */
static void make_keys(void) {
  for (int r = 0; r < R_all; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    ranks[r].keys = bench_unique_keys(N, 8, 1000 + 2 * N * (uint64_t)r);
    BENCH_CUDA(cudaMalloc(&ranks[r].out, N * 8 + 8));
  }
}

static void free_keys(void) {
  for (int r = 0; r < R_all; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    BENCH_CUDA(cudaFree(ranks[r].keys));
    BENCH_CUDA(cudaFree(ranks[r].out));
  }
}

/* Each call takes its scratch (about n x (key + value + 4) bytes) from
 * cudaMallocAsync. An application keeps that memory pooled between calls,
 * as here; by default the pool hands it back at every synchronization and
 * maps it again on the next call. GCOL_BENCH_DIST_TRIM=1 measures that. */
static void keep_pool(int device) {
  const char *trim = getenv("GCOL_BENCH_DIST_TRIM");
  if (trim && trim[0] == '1') return;
  bench_pool_keep(device, UINT64_MAX);
}

static void setup(void) {
  ranks = calloc((size_t)R_all, sizeof *ranks);
  for (int r = 0; r < R_all; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    BENCH_CUDA(cudaStreamCreate(&ranks[r].s));
    bench_timer_init(&ranks[r].t);
    keep_pool(r);
  }
}

/* A communicator of GPUs 0 .. r-1 (rank i on GPU i) becomes the one in use.
 * GCOL_BENCH_DIST_CTA_POLICY=0|1|2 makes it with that ncclConfig_t CTAPolicy
 * (NCCL_CTA_POLICY_DEFAULT / _EFFICIENCY / _ZERO, NCCL 2.27 and later): how
 * many SMs the rounds' transfers take from the shard's kernels. Unset:
 * ncclCommInitAll's defaults. */
static void open_comms(int r) {
  ncclComm_t comms[64];
  int devs[64] = {0};
  if (r > 64) r = 64;
  for (int i = 0; i < r; ++i) devs[i] = i;
  const char *policy = getenv("GCOL_BENCH_DIST_CTA_POLICY");
  if (policy && *policy) {
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
    ncclUniqueId id;
    BENCH_NCCL(ncclGetUniqueId(&id));
    BENCH_NCCL(ncclGroupStart());
    for (int i = 0; i < r; ++i) {
      ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
      cfg.CTAPolicy = atoi(policy);
      BENCH_CUDA(cudaSetDevice(i));
      BENCH_NCCL(ncclCommInitRankConfig(&comms[i], r, id, i, &cfg));
    }
    BENCH_NCCL(ncclGroupEnd());
#else
    fprintf(stderr, "bench: GCOL_BENCH_DIST_CTA_POLICY needs NCCL 2.27 headers\n");
    exit(1);
#endif
  } else {
    BENCH_NCCL(ncclCommInitAll(comms, r, devs));
  }
  for (int i = 0; i < r; ++i) ranks[i].comm = comms[i];
  R = r;
}

static void close_comms(void) {
  for (int i = 0; i < R; ++i) {
    BENCH_CUDA(cudaSetDevice(i));
    BENCH_NCCL(ncclCommDestroy(ranks[i].comm));
    ranks[i].comm = NULL;
  }
  R = 0;
}

/* ---- capacity: one map of `total` pairs over every GPU ----------------------------- */
static double used_gb(int device) {
  size_t free_b = 0, total_b = 0;
  BENCH_CUDA(cudaSetDevice(device));
  BENCH_CUDA(cudaMemGetInfo(&free_b, &total_b));
  return (double)(total_b - free_b) / 1e9;
}

static void note_peak(double *peak) {
  for (int r = 0; r < R; ++r) {
    double u = used_gb(r);
    if (u > peak[r]) peak[r] = u;
  }
}

static double load_factor(void) {
  const char *s = getenv("GCOL_BENCH_DIST_LOAD");
  double l = s ? atof(s) : 0.8;
  return l > 0 && l <= 1 ? l : 0.8;
}

static int capacity_run(size_t total) {
  double load = load_factor(), peak[64] = {0};
  open_comms(R_all);
  size_t share = (total + (size_t)R - 1) / (size_t)R; /* pairs each GPU feeds (and about what each shard holds) */
  size_t batch = bench_size("GCOL_BENCH_DIST_BATCH", (size_t)1 << 27);
  if (batch > share) batch = share;
  size_t nbatches = (share + batch - 1) / batch;
  shard_cfg = gcol_map_config_default(GCOL_I64, GCOL_I64);
  shard_cfg.capacity = (size_t)((double)share / load) + 1;
  printf("\ncapacity: %zu i64 pairs over %d GPUs at load %.2f: %zu slots per shard (%.1f GB), "
         "%zu batches of %zu pairs per GPU\n", share * (size_t)R, R, load, shard_cfg.capacity,
         shard_cfg.capacity * 16 / 1e9, nbatches, batch);
  unsigned long long *wrong[64];
  uint64_t *vals[64];
  for (int r = 0; r < R; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    BENCH_CUDA(cudaMalloc(&ranks[r].keys, batch * 8));
    BENCH_CUDA(cudaMalloc((void **)&vals[r], batch * 8));
    BENCH_CUDA(cudaMalloc(&ranks[r].out, batch * 8));
    BENCH_CUDA(cudaMalloc((void **)&wrong[r], sizeof **wrong));
    BENCH_CUDA(cudaMemset(wrong[r], 0, sizeof **wrong));
  }
  on_every_rank(create_shard, "gcol_dist_map_create");
  note_peak(peak);
  double ms[2] = {0, 0};
  for (int phase = 0; phase < 2; ++phase) { /* 0: insert, 1: find and check */
    for (size_t b = 0; b < nbatches; ++b) {
      size_t n = b + 1 < nbatches ? batch : share - b * batch;
      bench_ok(gcol_dist_group_start(), "gcol_dist_group_start");
      for (int r = 0; r < R; ++r) {
        BENCH_CUDA(cudaSetDevice(r));
        BENCH_CUDA(bench_dist_fill(ranks[r].keys, vals[r], n, (uint64_t)r * share + b * batch, ranks[r].s));
        bench_timer_start(&ranks[r].t, ranks[r].s);
        bench_ok(phase == 0 ? gcol_dist_map_insert(ranks[r].map, ranks[r].keys, vals[r], n, ranks[r].s)
                            : gcol_dist_map_find(ranks[r].map, ranks[r].keys, n, ranks[r].out, ranks[r].s),
                 phase == 0 ? "gcol_dist_map_insert" : "gcol_dist_map_find");
      }
      bench_ok(gcol_dist_group_end(), phase == 0 ? "insert batch" : "find batch");
      double slowest = 0;
      for (int r = 0; r < R; ++r) {
        BENCH_CUDA(cudaSetDevice(r));
        double t = bench_timer_stop_ms(&ranks[r].t, ranks[r].s);
        slowest = t > slowest ? t : slowest;
        if (phase == 1) BENCH_CUDA(bench_dist_count_wrong(ranks[r].keys, ranks[r].out, n, wrong[r], ranks[r].s));
      }
      ms[phase] += slowest;
      if (b == 0 || b + 1 == nbatches) note_peak(peak);
    }
  }
  size_t size = 0;
  bench_ok(gcol_dist_group_start(), "gcol_dist_group_start");
  for (int r = 0; r < R; ++r) bench_ok(gcol_dist_map_size(ranks[r].map, &size, ranks[r].s), "gcol_dist_map_size");
  bench_ok(gcol_dist_group_end(), "gcol_dist_map_size");
  unsigned long long bad = 0;
  for (int r = 0; r < R; ++r) {
    unsigned long long w = 0;
    BENCH_CUDA(cudaSetDevice(r));
    BENCH_CUDA(cudaMemcpy(&w, wrong[r], sizeof w, cudaMemcpyDeviceToHost));
    bad += w;
  }
  size_t pairs = share * (size_t)R;
  printf("insert  %zu pairs in %.2f s: %.2f G pairs/s\n", pairs, ms[0] / 1e3, gpairs(pairs, ms[0]));
  printf("find    %zu pairs in %.2f s: %.2f G pairs/s; every answer checked on the device: %llu wrong\n", pairs,
         ms[1] / 1e3, gpairs(pairs, ms[1]), bad);
  printf("size    %zu (want %zu)\n", size, pairs);
  for (int r = 0; r < R; ++r) {
    struct cudaDeviceProp p;
    BENCH_CUDA(cudaGetDeviceProperties(&p, r));
    printf("GPU %d   peak device memory in use %.1f GB of %.1f GB (%s)\n", r, peak[r], p.totalGlobalMem / 1e9, p.name);
  }
  for (int r = 0; r < R; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    gcol_dist_map_destroy(ranks[r].map);
    BENCH_CUDA(cudaFree(ranks[r].keys)), BENCH_CUDA(cudaFree(vals[r])), BENCH_CUDA(cudaFree(ranks[r].out));
    BENCH_CUDA(cudaFree(wrong[r]));
  }
  close_comms();
  return bad == 0 && size == pairs ? 0 : 1;
}

int main(void) {
  /* NVLink SHARP (NVLS, multicast) needs fabric resources that every job on
   * the host shares; on a shared machine they may be taken or not granted to
   * a container, and NCCL's init then fails. A user's own setting wins. */
  if (setenv("NCCL_NVLS_ENABLE", "0", 0) != 0) {
    perror("bench: setenv NCCL_NVLS_ENABLE");
    return 1;
  }
  if (bench_init(&gpu)) return 0;
  BENCH_CUDA(cudaGetDeviceCount(&R_all));
  if (R_all > 64) R_all = 64;
  R = R_all;
  print_gpus();
  setup();
  size_t total = bench_size("GCOL_BENCH_DIST_TOTAL", 0);
  if (total) return capacity_run(total);

  N = bench_size("GCOL_BENCH_DIST_N", 100000000);
  gcol_dist_set_round_pairs(bench_size("GCOL_BENCH_DIST_ROUND_PAIRS", 0)); /* 0: the library's choice */
  printf("\nsharded map, i64/i64, %zu pairs per GPU, median of %d runs\n", N, REPS);
  run_t runs[8];
  int nruns = 0;
  for (int r = 1; r <= R_all && nruns < 8; r = r * 2 <= R_all || r == R_all ? r * 2 : R_all) {
    open_comms(r);
    printf("-- %d GPU%s\n", r, r > 1 ? "s" : "");
    runs[nruns].r = r;
    runs[nruns].a2a_gbs = alltoall_gbs(); /* first: its buffers are gone before the maps come */
    if (nruns == 0) make_keys();
    runs[nruns].all = sharded();
    close_comms();
    ++nruns;
  }
  R = 1;
  rates_t one = one_gpu();
  free_keys();

  printf("\n%4s %-7s %10s %10s %10s  %-12s %8s  %s\n", "GPUs", "op", "G pairs/s", "vs 1 GPU", "bound G/s", "bound by",
         "of bound", "target (issue 37)");
  for (int i = 0; i < nruns; ++i) {
    row(&runs[i], "insert", runs[i].all.insert, one.insert, 0);
    row(&runs[i], "find", runs[i].all.find, one.find, 1);
  }
  free(ranks);
  return 0;
}
