/* Sharded map benchmark (libgcol_nccl) on every visible GPU, driven by one
 * process (ncclCommInitAll, group mode). In the same run:
 *  (a) NCCL all-to-all: ncclSend/ncclRecv to every peer in one group, each
 *      GPU sending what an insert of N pairs sends, (R-1)/R of N x 16 B;
 *  (b) one GPU's gcol_map_insert and gcol_map_find of N i64->i64 pairs at
 *      load 0.5 (2N slots);
 *  (c) gcol_dist_map_insert and _find of R x N pairs, N per rank (shards of
 *      2N slots); aggregate = R N / time.
 * The table compares (c) with one GPU and with the bound set by the slower of
 * R x one GPU's rate and the all-to-all bandwidth over the bytes each pair
 * moves. Target (the issue's): aggregate >= 1.7x one GPU, or >= 85% of that
 * bound. N = 100M per rank; GCOL_BENCH_DIST_N overrides. Median of REPS
 * runs after a warm-up (NCCL connects peers on first use). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nccl.h>
#include "bench_common.h"
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
static rank_t *ranks;
static int R;
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
/* One row: the aggregate against one GPU and against the slower of R GPUs
 * at one GPU's rate and the all-to-all moving (R-1)/R of each pair's bytes
 * out of every GPU. */
static void row(const char *op, double agg, double local, double a2a_gbs) {
  double bound = local * R;
  const char *by = "R x one GPU";
  if (R > 1) {
    double net = R * a2a_gbs / (PAIR_BYTES * (R - 1) / R);
    if (net < bound) bound = net, by = "all-to-all";
  }
  printf("%-7s %10.2f %9.2fx %10.2f  %-12s %7.1f%%  ", op, agg, agg / local, bound, by, 100 * agg / bound);
  if (R < 2) {
    printf("n/a: the multi-GPU targets need >= 2 GPUs\n");
    return;
  }
  int scale = agg >= 1.7 * local, near = agg >= 0.85 * bound;
  if (scale && near) printf("met (>= 1.7x one GPU and >= 85%% of bound)\n");
  else if (scale) printf("met (>= 1.7x one GPU)\n");
  else if (near) printf("met (>= 85%% of bound)\n");
  else printf("MISSED (needs %.2f: 1.7x one GPU, or %.2f: 85%% of bound)\n", 1.7 * local, 0.85 * bound);
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
  for (int r = 0; r < R; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    ranks[r].keys = bench_unique_keys(N, 8, 1000 + 2 * N * (uint64_t)r);
    BENCH_CUDA(cudaMalloc(&ranks[r].out, N * 8 + 8));
  }
}

static void tear_down(void) {
  for (int r = 0; r < R; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    BENCH_CUDA(cudaFree(ranks[r].keys));
    BENCH_CUDA(cudaFree(ranks[r].out));
    BENCH_NCCL(ncclCommDestroy(ranks[r].comm));
  }
  free(ranks);
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
  ncclComm_t *comms = calloc((size_t)R, sizeof *comms);
  ranks = calloc((size_t)R, sizeof *ranks);
  BENCH_NCCL(ncclCommInitAll(comms, R, NULL));
  for (int r = 0; r < R; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    ranks[r].comm = comms[r];
    BENCH_CUDA(cudaStreamCreate(&ranks[r].s));
    bench_timer_init(&ranks[r].t);
    keep_pool(r);
  }
  free(comms);
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
  BENCH_CUDA(cudaGetDeviceCount(&R));
  N = bench_size("GCOL_BENCH_DIST_N", 100000000);
  print_gpus();
  setup();
  printf("\nsharded map, i64/i64, %zu pairs per GPU, median of %d runs\n", N, REPS);
  double a2a = alltoall_gbs(); /* first: its buffers are gone before the maps come */
  make_keys();
  rates_t one = one_gpu();
  rates_t all = sharded();

  printf("\n%-7s %10s %10s %10s  %-12s %8s  %s\n", "op", "G pairs/s", "vs 1 GPU", "bound G/s", "bound by",
         "of bound", "target: >= 1.7x one GPU or >= 85% of bound");
  row("insert", all.insert, one.insert, a2a);
  row("find", all.find, one.find, a2a);
  tear_down();
  return 0;
}
