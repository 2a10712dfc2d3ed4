#include "dist_faults.h"

#include <stdlib.h>
#include <string.h>

#include "dist_data.h"

enum { PER_RANK = 3000 };

/* An allocator that refuses while `refuse` is set. */
typedef struct {
  int refuse;
} df_alloc_t;

static void *df_alloc(void *ctx, size_t bytes, cudaStream_t s) {
  void *p = NULL;
  if (((df_alloc_t *)ctx)->refuse) return NULL;
  return cudaMallocAsync(&p, bytes, s) == cudaSuccess ? p : NULL;
}

static void df_free(void *ctx, void *p, size_t bytes, cudaStream_t s) {
  (void)ctx, (void)bytes;
  cudaFreeAsync(p, s);
}

/* PER_RANK distinct u64 keys per global rank (value = 3 key + 1), every
 * rank's on the host, the local ranks' batches on their devices. */
typedef struct {
  dc_cluster_t *c;
  gcol_map_config_t cfg[DC_MAX_LOCAL];
  df_alloc_t alloc[DC_MAX_LOCAL];
  uint64_t *keys; /* nranks * PER_RANK */
  void *d_keys[DC_MAX_LOCAL], *d_vals[DC_MAX_LOCAL], *d_all[DC_MAX_LOCAL], *d_out[DC_MAX_LOCAL];
} df_t;

static void df_free_all(df_t *f) {
  for (int i = 0; i < f->c->nlocal; ++i) {
    dc_use(f->c, i);
    dd_free(f->d_keys[i]), dd_free(f->d_vals[i]), dd_free(f->d_all[i]), dd_free(f->d_out[i]);
  }
  free(f->keys);
  dc_destroy_maps(f->c);
}

static test_result_t df_init(df_t *f, dc_cluster_t *c) {
  memset(f, 0, sizeof *f);
  f->c = c;
  size_t total = (size_t)PER_RANK * (size_t)c->nranks;
  gcol_map_config_t cfg = gcol_map_config_default(GCOL_U64, GCOL_U64);
  cfg.capacity = 4 * total, cfg.seed = test_seed();
  f->keys = malloc(total * sizeof(uint64_t));
  uint64_t *vals = malloc(total * sizeof(uint64_t));
  dd_rng_t g = dd_rng(test_seed(), 40);
  CHECK(f->keys && vals && dd_distinct_keys(f->keys, total, &g, &cfg) == 0);
  for (size_t j = 0; j < total; ++j) vals[j] = 3 * f->keys[j] + 1;
  dc_args_t a[DC_MAX_LOCAL];
  memset(a, 0, sizeof a);
  for (int i = 0; i < c->nlocal; ++i) {
    size_t at = (size_t)c->rank[i] * PER_RANK;
    f->cfg[i] = cfg;
    f->cfg[i].allocator = (gcol_allocator_t){df_alloc, df_free, &f->alloc[i]};
    a[i].cfg = &f->cfg[i];
    RUN(dc_use(c, i));
    CHECK(dd_upload(&f->d_keys[i], f->keys + at, PER_RANK, 8) == 0);
    CHECK(dd_upload(&f->d_vals[i], vals + at, PER_RANK, 8) == 0);
    CHECK(dd_upload(&f->d_all[i], f->keys, total, 8) == 0);
    f->d_out[i] = dd_poisoned(total * 8);
    CHECK(f->d_out[i]);
  }
  free(vals);
  CHECK_OK(dc_call(c, DC_CREATE, a));
  return TEST_PASS;
}

/* The local rank index of global rank r, or -1. */
static int local_of(const dc_cluster_t *c, int r) {
  for (int i = 0; i < c->nlocal; ++i)
    if (c->rank[i] == r) return i;
  return -1;
}

/* Every local rank inserts its batch; rank `bad` (if local) uses bad_keys. */
static gcol_status_t insert(df_t *f, int bad, const void *bad_keys) {
  dc_args_t a[DC_MAX_LOCAL];
  memset(a, 0, sizeof a);
  for (int i = 0; i < f->c->nlocal; ++i) {
    a[i].keys = f->c->rank[i] == bad ? bad_keys : f->d_keys[i];
    a[i].values = f->d_vals[i], a[i].n = PER_RANK;
  }
  return dc_call(f->c, DC_INSERT, a);
}

/* Every local rank finds every key; rank `bad` (if local) writes to bad_out. */
static gcol_status_t find_all(df_t *f, int bad, void *bad_out) {
  dc_args_t a[DC_MAX_LOCAL];
  memset(a, 0, sizeof a);
  for (int i = 0; i < f->c->nlocal; ++i) {
    a[i].keys = f->d_all[i], a[i].n = (size_t)PER_RANK * (size_t)f->c->nranks;
    a[i].out = f->c->rank[i] == bad ? bad_out : f->d_out[i];
  }
  return dc_call(f->c, DC_FIND, a);
}

/* Insert every batch, then every rank finds every key with its value. */
static test_result_t works_again(df_t *f) {
  size_t total = (size_t)PER_RANK * (size_t)f->c->nranks;
  CHECK_OK(insert(f, -1, NULL));
  RUN(dc_size_is(f->c, total));
  CHECK_OK(find_all(f, -1, NULL));
  uint64_t *got = malloc(total * sizeof(uint64_t));
  CHECK(got);
  for (int i = 0; i < f->c->nlocal; ++i) {
    RUN(dc_use(f->c, i));
    CHECK(dd_download(got, f->d_out[i], total, 8) == 0);
    for (size_t j = 0; j < total; ++j) CHECK(got[j] == 3 * f->keys[j] + 1);
  }
  free(got);
  return TEST_PASS;
}

static test_result_t allocator_refuses(df_t *f, int bad) {
  int b = local_of(f->c, bad);
  if (b >= 0) f->alloc[b].refuse = 1;
  CHECK_STATUS(insert(f, -1, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  CHECK_STATUS(find_all(f, -1, NULL), GCOL_ERROR_OUT_OF_MEMORY);
  if (b >= 0) f->alloc[b].refuse = 0;
  RUN(dc_size_is(f->c, 0)); /* refused before any pair moved */
  return works_again(f);
}

/* body on a fresh df_t of cluster c, freed after. */
static test_result_t with_fault(dc_cluster_t *c, int bad, test_result_t (*body)(df_t *, int)) {
  df_t f;
  test_result_t r = df_init(&f, c);
  if (r == TEST_PASS) r = body(&f, bad);
  df_free_all(&f);
  return r;
}

test_result_t df_allocator_refuses(dc_cluster_t *c, int bad) { return with_fault(c, bad, allocator_refuses); }

static test_result_t bad_pointers(df_t *f, int bad) {
  const gcol_status_t E = GCOL_ERROR_INVALID_ARGUMENT;
  int b = local_of(f->c, bad);
  uint64_t *host = calloc((size_t)PER_RANK * (size_t)f->c->nranks, sizeof(uint64_t));
  CHECK(host);
  CHECK_STATUS(insert(f, bad, NULL), E);
  CHECK_STATUS(insert(f, bad, b >= 0 ? (char *)f->d_keys[b] + 1 : NULL), E); /* misaligned */
  /* host memory is refused where the GPU cannot read it (no HMM / ATS);
   * every process of a cluster sees the same kind of machine */
  int pageable = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0));
  if (!pageable) CHECK_STATUS(insert(f, bad, host), E);
  RUN(dc_size_is(f->c, 0));
  RUN(works_again(f));
  CHECK_STATUS(find_all(f, bad, NULL), E);
  if (!pageable) CHECK_STATUS(find_all(f, bad, host), E);
  free(host);
  return works_again(f); /* the same pairs again: stored once */
}

test_result_t df_bad_pointers(dc_cluster_t *c, int bad) { return with_fault(c, bad, bad_pointers); }
