/* Word count over several GPUs with libgcol_nccl. Every rank counts its own
 * slice of a token stream into one map sharded over all ranks
 * (gcol_dist_map_insert_or_apply, ADD of 1 per token), then checks its shard
 * against a CPU count of every rank's slice: each rank regenerates all slices
 * from one seed, so the check moves no data.
 *
 * Two ways to run it:
 *  - One process driving every visible GPU (the default):
 *      build/examples/dist_wordcount
 *    ncclCommInitAll makes one communicator per GPU, and each collective call
 *    is made once per GPU between gcol_dist_group_start and _end.
 *  - One process per GPU, started by a launcher (mpirun, srun, torchrun):
 *      GCOL_NCCL_ID_FILE=$HOME/wc-id.$SLURM_JOB_ID srun -n 4 build/examples/dist_wordcount
 *    Rank and size come from the launcher's environment (OMPI_COMM_WORLD_RANK
 *    and _SIZE, PMI_RANK and PMI_SIZE, SLURM_PROCID and SLURM_NTASKS, RANK and
 *    WORLD_SIZE). No MPI is linked, so rank 0 hands the ncclUniqueId to the
 *    others through the file GCOL_NCCL_ID_FILE: a path every rank sees, new
 *    for each run (rank 0 removes it once all ranks have joined). A program
 *    that links MPI would MPI_Bcast the id from rank 0 instead.
 * The last line is "wordcount: N tokens on R ranks, D distinct: agree" (or
 * DISAGREE, exit 1). Without a GPU it says so and exits 0. */
#define _POSIX_C_SOURCE 200809L /* setenv, nanosleep, getpid */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cuda_runtime_api.h>
#include <nccl.h>
#include "gcol/gcol_nccl.h"

#define OCTAVES 18u
#define VOCAB (1u << OCTAVES)    /* token ids are drawn from [0, VOCAB - 1) */
#define TOKENS_PER_RANK 4000000u /* rank r's slice: this + r * SLICE_STEP tokens */
#define SLICE_STEP 4099u         /* batches of different sizes, as real slices are */
#define SEED 0x243f6a8885a308d3ULL
#define KEY_MUL 0x9e3779b97f4a7c15ULL /* odd: key = (id + 1) * KEY_MUL is a bijection */
#define ID_WAIT_S 300                 /* how long ranks > 0 wait for the id file */

/* ---- errors: every failure ends the process with a message ------------- */
/* (With one process per rank the others may then wait in NCCL; launchers end
 * the whole job when one rank exits non-zero.) */
static void cuda_ok(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return;
  fprintf(stderr, "dist_wordcount: %s: %s\n", what, cudaGetErrorString(e));
  exit(1);
}
static void nccl_ok(ncclResult_t r, const char *what) {
  if (r == ncclSuccess) return;
  fprintf(stderr, "dist_wordcount: %s: %s\n", what, ncclGetErrorString(r));
  exit(1);
}
static void gcol_ok(gcol_status_t s, const char *what) {
  if (s == GCOL_SUCCESS) return;
  int nccl = gcol_dist_last_nccl_error(), cuda = gcol_last_cuda_error();
  fprintf(stderr, "dist_wordcount: %s: %s", what, gcol_status_string(s));
  if (nccl) fprintf(stderr, " (NCCL: %s)", ncclGetErrorString((ncclResult_t)nccl));
  else if (cuda && s == GCOL_ERROR_CUDA) fprintf(stderr, " (CUDA: %s)", cudaGetErrorString((cudaError_t)cuda));
  fprintf(stderr, "\n");
  exit(1);
}
static void fail(const char *msg) {
  fprintf(stderr, "dist_wordcount: %s\n", msg);
  exit(1);
}
#define CUDA(x) cuda_ok((x), #x)
#define NCCL(x) nccl_ok((x), #x)

/* ---- the token stream, the same on every host -------------------------- */
static uint64_t mix(uint64_t x) { /* splitmix64's finalizer */
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static size_t slice_size(int rank) { return TOKENS_PER_RANK + (size_t)rank * SLICE_STEP; }

/* Token j of rank r's slice, from a counter-based generator so that any
 * rank can regenerate any slice. Zipf-like, as words in text: an octave
 * [2^e - 1, 2^(e+1) - 1) is drawn uniformly, then an id uniformly inside it,
 * so id i comes up about 1 / (i + 1) times as often as id 0 (about 5% of
 * all tokens). Integer arithmetic only: every host agrees. */
static uint32_t token_id(int rank, uint64_t j) {
  uint64_t h = mix(SEED ^ ((uint64_t)rank << 40) ^ j);
  uint32_t e = (uint32_t)((h >> 32) % OCTAVES), low = (uint32_t)h;
  return ((1u << e) - 1) + (low & ((1u << e) - 1));
}

/* Ids become 64-bit keys through an odd multiplier, so that every key bit
 * varies; keys map back with its inverse modulo 2^64. */
static uint64_t key_of(uint32_t id) { return ((uint64_t)id + 1) * KEY_MUL; }
static uint64_t id_of(uint64_t key) { /* >= VOCAB: no token's key */
  uint64_t inv = KEY_MUL; /* Newton's step doubles the correct low bits: 3, 6, ..., 96 */
  for (int i = 0; i < 5; ++i) inv *= 2 - KEY_MUL * inv;
  return key * inv - 1;
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n, size);
  if (!p) fail("out of host memory");
  return p;
}

/* counts[id] over every rank's slice: what the sharded map must hold. */
static uint64_t *cpu_counts(int nranks) {
  uint64_t *counts = xcalloc(VOCAB, sizeof *counts);
  for (int r = 0; r < nranks; ++r)
    for (size_t j = 0; j < slice_size(r); ++j) ++counts[token_id(r, j)];
  return counts;
}

/* ---- ranks ----------------------------------------------------------------- */
typedef struct {
  int rank, dev;
  ncclComm_t comm;
  cudaStream_t s;
  gcol_dist_map_t *map;
  size_t n;                    /* tokens in this rank's slice */
  uint64_t *d_tokens, *d_ones; /* the slice as keys, and n ones */
  size_t shard_n, got;         /* pairs in its shard; pairs retrieved */
  uint64_t *d_keys, *d_counts; /* the shard, retrieved */
  size_t global_size;          /* keys on all shards */
  uint64_t *d_word;            /* one word for the all-reduce of the verdict */
} rank_t;

typedef struct {
  int nranks, nlocal; /* ranks in all; ranks this process drives */
  rank_t *local;
} job_t;

typedef gcol_status_t (*rank_call_t)(rank_t *r, const void *arg);

/* One collective call on every rank this process drives. Several ranks in
 * one process must be grouped: a blocking collective call on the first would
 * wait forever for peers whose calls this thread has not made yet. */
static void on_every_rank(const job_t *job, rank_call_t call, const void *arg, const char *what) {
  int grouped = job->nlocal > 1;
  gcol_status_t first = grouped ? gcol_dist_group_start() : GCOL_SUCCESS;
  gcol_ok(first, "gcol_dist_group_start");
  for (int i = 0; i < job->nlocal; ++i) {
    gcol_status_t s = call(&job->local[i], arg);
    if (first == GCOL_SUCCESS) first = s;
  }
  if (grouped) { /* closes the group even when a queued call was refused */
    gcol_status_t s = gcol_dist_group_end();
    if (first == GCOL_SUCCESS) first = s;
  }
  gcol_ok(first, what);
}

static gcol_status_t create_shard(rank_t *r, const void *cfg) {
  return gcol_dist_map_create(&r->map, cfg, r->comm, r->s);
}
static gcol_status_t count_slice(rank_t *r, const void *unused) {
  (void)unused;
  return gcol_dist_map_insert_or_apply(r->map, r->d_tokens, r->d_ones, r->n, GCOL_OP_ADD, r->s);
}
static gcol_status_t retrieve_shard(rank_t *r, const void *unused) {
  (void)unused;
  return gcol_dist_map_retrieve_all(r->map, r->d_keys, r->d_counts, &r->got, r->s);
}
static gcol_status_t total_size(rank_t *r, const void *unused) {
  (void)unused;
  return gcol_dist_map_size(r->map, &r->global_size, r->s);
}

/* Sum of one number per rank, known to every rank afterwards. */
static uint64_t sum_over_ranks(const job_t *job, const uint64_t *mine) {
  for (int i = 0; i < job->nlocal; ++i) {
    rank_t *r = &job->local[i];
    CUDA(cudaSetDevice(r->dev));
    CUDA(cudaMemcpyAsync(r->d_word, &mine[i], sizeof *mine, cudaMemcpyHostToDevice, r->s));
  }
  NCCL(ncclGroupStart());
  for (int i = 0; i < job->nlocal; ++i) {
    rank_t *r = &job->local[i];
    NCCL(ncclAllReduce(r->d_word, r->d_word, 1, ncclUint64, ncclSum, r->comm, r->s));
  }
  NCCL(ncclGroupEnd());
  uint64_t total = 0;
  for (int i = 0; i < job->nlocal; ++i) {
    rank_t *r = &job->local[i];
    CUDA(cudaSetDevice(r->dev));
    CUDA(cudaMemcpyAsync(&total, r->d_word, sizeof total, cudaMemcpyDeviceToHost, r->s));
    CUDA(cudaStreamSynchronize(r->s));
  }
  return total;
}

/* ---- launch: one process for all GPUs, or one per rank ------------------ */
/* A non-negative integer from the environment: 1 if set, 0 if not. */
static int env_int(const char *name, int *out) {
  const char *v = getenv(name);
  if (!v || !*v) return 0;
  char *end = NULL;
  long x = strtol(v, &end, 10);
  if (*end || x < 0 || x > 1 << 30) {
    fprintf(stderr, "dist_wordcount: %s=%s is not a rank or size\n", name, v);
    exit(1);
  }
  *out = (int)x;
  return 1;
}

/* Rank and size as a launcher set them (Open MPI, MPICH/Intel MPI, Slurm,
 * torchrun); 0 when none did. */
static int launched_as(int *rank, int *size) {
  static const char *const vars[][2] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                                        {"PMI_RANK", "PMI_SIZE"},
                                        {"SLURM_PROCID", "SLURM_NTASKS"},
                                        {"RANK", "WORLD_SIZE"}};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; ++i)
    if (env_int(vars[i][0], rank) && env_int(vars[i][1], size)) {
      if (*rank >= *size) fail("the launcher's rank is not below its size");
      return 1;
    }
  return 0;
}

/* The GPU of this process: its rank on this host modulo the visible GPUs. */
static int pick_device(int rank, int ndev) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID",
                                     "LOCAL_RANK"};
  int local = rank;
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; ++i)
    if (env_int(vars[i], &local)) break;
  return local % ndev;
}

/* Rank 0 writes to a temporary name and renames it: rename is atomic, so a
 * reader sees either no file or the whole id. */
static void write_id(const char *path, const ncclUniqueId *id) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  int ok = f && fwrite(id, sizeof *id, 1, f) == 1;
  if (f && fclose(f) != 0) ok = 0;
  if (!ok || rename(tmp, path) != 0) {
    perror(path);
    fail("cannot write GCOL_NCCL_ID_FILE");
  }
}

static void read_id(const char *path, ncclUniqueId *id) {
  const struct timespec pause = {0, 10 * 1000 * 1000};
  for (long waited_ms = 0;; waited_ms += 10) {
    FILE *f = fopen(path, "rb");
    if (f) {
      int ok = fread(id, sizeof *id, 1, f) == 1;
      fclose(f);
      if (!ok) fail("GCOL_NCCL_ID_FILE holds no ncclUniqueId");
      return;
    }
    if (errno != ENOENT) {
      perror(path);
      fail("cannot read GCOL_NCCL_ID_FILE");
    }
    if (waited_ms >= ID_WAIT_S * 1000L) fail("rank 0 wrote no GCOL_NCCL_ID_FILE in time");
    nanosleep(&pause, NULL);
  }
}

static void setup_one_process(job_t *job, int ndev) {
  ncclComm_t *comms = xcalloc((size_t)ndev, sizeof *comms);
  NCCL(ncclCommInitAll(comms, ndev, NULL)); /* rank i on device i */
  job->nranks = job->nlocal = ndev;
  job->local = xcalloc((size_t)ndev, sizeof *job->local);
  for (int i = 0; i < ndev; ++i) {
    rank_t *r = &job->local[i];
    r->comm = comms[i];
    NCCL(ncclCommUserRank(r->comm, &r->rank));
    NCCL(ncclCommCuDevice(r->comm, &r->dev));
  }
  free(comms);
}

static void setup_rank_process(job_t *job, int rank, int size, int ndev) {
  const char *path = getenv("GCOL_NCCL_ID_FILE");
  if (!path || !*path)
    fail("launched as one of several ranks, but GCOL_NCCL_ID_FILE (a path all ranks see, new for "
         "each run) is not set");
  job->nranks = size, job->nlocal = 1;
  job->local = xcalloc(1, sizeof *job->local);
  rank_t *r = job->local;
  r->rank = rank, r->dev = pick_device(rank, ndev);
  CUDA(cudaSetDevice(r->dev));
  ncclUniqueId id;
  if (rank == 0) {
    NCCL(ncclGetUniqueId(&id));
    write_id(path, &id);
  } else {
    read_id(path, &id);
  }
  NCCL(ncclCommInitRank(&r->comm, size, id, rank));
  /* Every rank has joined once ncclCommInitRank returns: the id is spent, and
   * a later run must not find it. */
  if (rank == 0 && remove(path) != 0) perror(path);
}

/* ---- the steps -------------------------------------------------------------- */
/* Fixed shards at load <= 0.5: twice the most vocabulary ids any rank owns
 * (the same number on every rank, as create requires). */
static size_t shard_capacity(int nranks) {
  size_t *owned = xcalloc((size_t)nranks, sizeof *owned), most = 0;
  for (uint32_t id = 0; id < VOCAB; ++id) {
    uint64_t key = key_of(id);
    if (key >= UINT64_MAX - 1) fail("a token's key is a sentinel"); /* the defaults: ~0, ~0 - 1 */
    size_t n = ++owned[gcol_dist_owner(key, nranks)];
    if (n > most) most = n;
  }
  free(owned);
  return 2 * most;
}

/* Rank r's slice, as keys, and as many ones, on its GPU. */
static void upload_slice(rank_t *r, uint64_t *h_keys, const uint64_t *h_ones) {
  r->n = slice_size(r->rank);
  for (size_t j = 0; j < r->n; ++j) h_keys[j] = key_of(token_id(r->rank, j));
  CUDA(cudaSetDevice(r->dev));
  CUDA(cudaStreamCreate(&r->s));
  CUDA(cudaMalloc((void **)&r->d_tokens, r->n * sizeof *h_keys));
  CUDA(cudaMalloc((void **)&r->d_ones, r->n * sizeof *h_ones));
  CUDA(cudaMalloc((void **)&r->d_word, sizeof(uint64_t)));
  CUDA(cudaMemcpy(r->d_tokens, h_keys, r->n * sizeof *h_keys, cudaMemcpyHostToDevice));
  CUDA(cudaMemcpy(r->d_ones, h_ones, r->n * sizeof *h_ones, cudaMemcpyHostToDevice));
}

/* Room for this rank's shard (the retrieve that follows is collective). */
static void make_room(rank_t *r) {
  CUDA(cudaSetDevice(r->dev)); /* gcol_map_* calls use the current device */
  gcol_ok(gcol_map_size(gcol_dist_map_shard(r->map), &r->shard_n, r->s), "gcol_map_size of the shard");
  CUDA(cudaMalloc((void **)&r->d_keys, (r->shard_n + 1) * sizeof(uint64_t)));
  CUDA(cudaMalloc((void **)&r->d_counts, (r->shard_n + 1) * sizeof(uint64_t)));
}

/* Mismatches between rank r's shard and the CPU counts: keys that are no
 * token's, that another rank owns, that repeat or whose count differs, and
 * tokens owned here that the shard lacks. */
static uint64_t shard_errors(const rank_t *r, int nranks, const uint64_t *counts) {
  uint64_t *keys = xcalloc(r->got + 1, sizeof *keys), *vals = xcalloc(r->got + 1, sizeof *vals);
  uint8_t *seen = xcalloc(VOCAB, 1);
  CUDA(cudaSetDevice(r->dev));
  CUDA(cudaMemcpy(keys, r->d_keys, r->got * sizeof *keys, cudaMemcpyDeviceToHost));
  CUDA(cudaMemcpy(vals, r->d_counts, r->got * sizeof *vals, cudaMemcpyDeviceToHost));
  uint64_t wrong = 0, matched = 0, expected = 0;
  for (size_t i = 0; i < r->got; ++i) {
    uint64_t id = id_of(keys[i]);
    int ok = id < VOCAB && gcol_dist_owner(keys[i], nranks) == r->rank && !seen[id] && counts[id] &&
             vals[i] == counts[id];
    if (id < VOCAB) seen[id] = 1;
    wrong += !ok, matched += ok;
  }
  for (uint32_t id = 0; id < VOCAB; ++id)
    expected += counts[id] && gcol_dist_owner(key_of(id), nranks) == r->rank;
  wrong += expected - matched; /* the missing ones (matched keys are expected ones) */
  if (wrong || r->got != r->shard_n)
    fprintf(stderr, "rank %d: %llu wrong (shard holds %zu pairs, retrieved %zu, the CPU expects %llu)\n",
            r->rank, (unsigned long long)wrong, r->shard_n, r->got, (unsigned long long)expected);
  free(keys), free(vals), free(seen);
  return wrong + (r->got != r->shard_n);
}

static void tear_down(job_t *job) {
  for (int i = 0; i < job->nlocal; ++i) {
    rank_t *r = &job->local[i];
    CUDA(cudaSetDevice(r->dev));
    gcol_dist_map_destroy(r->map);
    CUDA(cudaFree(r->d_tokens));
    CUDA(cudaFree(r->d_ones));
    CUDA(cudaFree(r->d_keys));
    CUDA(cudaFree(r->d_counts));
    CUDA(cudaFree(r->d_word));
    CUDA(cudaStreamDestroy(r->s));
    NCCL(ncclCommDestroy(r->comm));
  }
  free(job->local);
}

int main(void) {
  /* NVLink SHARP (NVLS, multicast) needs fabric resources that every job on
   * the host shares; on a shared machine they may be taken or not granted to
   * a container, and NCCL's init then fails. A user's own setting wins. */
  if (setenv("NCCL_NVLS_ENABLE", "0", 0) != 0) fail("setenv NCCL_NVLS_ENABLE");
  int ndev = 0;
  cudaError_t e = cudaGetDeviceCount(&ndev);
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || (e == cudaSuccess && ndev == 0)) {
    printf("dist_wordcount: needs a GPU (%s)\n", e ? cudaGetErrorString(e) : "no CUDA device");
    return 0;
  }
  CUDA(e);

  job_t job;
  int rank = 0, size = 1;
  if (launched_as(&rank, &size) && size > 1) setup_rank_process(&job, rank, size, ndev);
  else setup_one_process(&job, ndev);

  uint64_t *counts = cpu_counts(job.nranks), distinct = 0, tokens = 0;
  for (uint32_t id = 0; id < VOCAB; ++id) distinct += counts[id] != 0, tokens += counts[id];
  size_t most = slice_size(job.nranks - 1);
  uint64_t *h_keys = xcalloc(most, sizeof *h_keys), *h_ones = xcalloc(most, sizeof *h_ones);
  for (size_t j = 0; j < most; ++j) h_ones[j] = 1;
  for (int i = 0; i < job.nlocal; ++i) upload_slice(&job.local[i], h_keys, h_ones);
  free(h_keys), free(h_ones);

  gcol_map_config_t cfg = gcol_map_config_default(GCOL_U64, GCOL_U64);
  cfg.capacity = shard_capacity(job.nranks);
  on_every_rank(&job, create_shard, &cfg, "gcol_dist_map_create");
  on_every_rank(&job, count_slice, NULL, "gcol_dist_map_insert_or_apply");
  for (int i = 0; i < job.nlocal; ++i) make_room(&job.local[i]);
  on_every_rank(&job, retrieve_shard, NULL, "gcol_dist_map_retrieve_all");
  on_every_rank(&job, total_size, NULL, "gcol_dist_map_size");

  uint64_t *wrong = xcalloc((size_t)job.nlocal, sizeof *wrong);
  for (int i = 0; i < job.nlocal; ++i)
    wrong[i] = shard_errors(&job.local[i], job.nranks, counts) + (job.local[i].global_size != distinct);
  uint64_t total_wrong = sum_over_ranks(&job, wrong);
  for (int i = 0; i < job.nlocal; ++i)
    if (job.local[i].rank == 0)
      printf("wordcount: %llu tokens on %d ranks, %llu distinct: %s\n", (unsigned long long)tokens, job.nranks,
             (unsigned long long)distinct, total_wrong ? "DISAGREE" : "agree");
  tear_down(&job);
  free(counts), free(wrong);
  return total_wrong ? 1 : 0;
}
