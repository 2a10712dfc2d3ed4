/* The ABI rules on a GPU: every call that takes device pointers refuses a
 * misaligned one and a host one with INVALID_ARGUMENT and a message, the
 * CUDA context stays usable (the next good call works, nothing faults), and
 * device-readable host memory (managed, mapped pinned) is accepted. Also
 * gcol_op_t's one meaning in maps and reductions. */
#include <math.h>
#include <string.h>
#include "harness.h"
#include "test_util.h"

/* The call was refused with a message containing `why`. */
#define REFUSED(expr, why)                                                       \
  do {                                                                           \
    CHECK_STATUS(expr, GCOL_ERROR_INVALID_ARGUMENT);                             \
    if (!strstr(gcol_last_error_message(), why)) {                               \
      fprintf(stderr, "    message \"%s\" lacks \"%s\"\n", gcol_last_error_message(), why); \
      return TEST_FAIL;                                                          \
    }                                                                            \
  } while (0)

#define N 1000

/* Context still healthy: a sync and a fresh allocation work. */
static test_result_t context_ok(void) {
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaGetLastError());
  void *p = NULL;
  CHECK_CUDA(cudaMalloc(&p, 64));
  CHECK_CUDA(cudaFree(p));
  return TEST_PASS;
}

TEST(abi_map_calls_refuse_misaligned_and_host_pointers) {
  REQUIRE_GPU();
  const gcol_type_t kts[] = {GCOL_U64, GCOL_U32};
  for (int t = 0; t < 2; ++t) {
    size_t kb = gcol_type_size(kts[t]);
    gcol_map_config_t cfg = gcol_map_config_default(kts[t], GCOL_I64);
    cfg.capacity = 4 * N;
    gcol_map_t *m = NULL;
    CHECK_OK(gcol_map_create(&m, &cfg, 0));
    char *keys = tu_poisoned(N * 8 + 64), *vals = tu_poisoned(N * 8 + 64), *out = tu_poisoned(N * 8 + 64);
    CHECK(keys && vals && out);
    uint64_t *hk = malloc(N * 8);
    tu_unique_keys(hk, kb, N, 7, NULL);
    CHECK_CUDA(cudaMemcpy(keys, hk, N * kb, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(vals, hk, N * 8, cudaMemcpyHostToDevice));
    char *bad = keys + (kb == 8 ? 4 : 1); /* u64 at base + 4, u32 at base + 1 */
    char *host = (char *)hk;
    size_t *cnt = tu_poisoned(sizeof(size_t) * 2);
    REFUSED(gcol_map_insert(m, bad, vals, N, NULL, 0), "aligned");
    REFUSED(gcol_map_insert(m, host, vals, N, NULL, 0), "host memory");
    REFUSED(gcol_map_insert(m, keys, vals + 4, N, NULL, 0), "aligned");
    REFUSED(gcol_map_insert(m, keys, vals, N, (size_t *)((char *)cnt + 4), 0), "aligned");
    REFUSED(gcol_map_insert_or_assign(m, bad, vals, N, 0), "aligned");
    REFUSED(gcol_map_insert_or_assign(m, keys, host, N, 0), "host memory");
    REFUSED(gcol_map_insert_and_find(m, keys, vals, N, out + 4, NULL, 0), "aligned");
    REFUSED(gcol_map_insert_and_find(m, keys, vals, N, host, NULL, 0), "host memory");
    REFUSED(gcol_map_insert_or_apply(m, bad, vals, N, GCOL_OP_ADD, 0), "aligned");
    REFUSED(gcol_map_find(m, bad, N, out, 0), "aligned");
    REFUSED(gcol_map_find(m, keys, N, host, 0), "host memory");
    REFUSED(gcol_map_contains(m, host, N, (uint8_t *)out, 0), "host memory");
    REFUSED(gcol_map_erase(m, bad, N, NULL, 0), "aligned");
    size_t count = 0;
    REFUSED(gcol_map_retrieve_all(m, bad, out, &count, 0), "aligned");
    REFUSED(gcol_map_retrieve_all(m, keys, host, &count, 0), "host memory");
    RUN(context_ok());
    /* nothing stored was lost and the good calls work */
    CHECK_OK(gcol_map_insert(m, keys, vals, N, cnt, 0));
    size_t size = 0, added = 0;
    CHECK_OK(gcol_map_size(m, &size, 0));
    CHECK(tu_to_host(&added, cnt, sizeof added) == 0 && size == N && added == N);
    CHECK_OK(gcol_map_find(m, keys, N, out, 0));
    uint64_t *found = malloc(N * 8);
    CHECK(tu_to_host(found, out, N * 8) == 0);
    for (size_t i = 0; i < N; ++i) CHECK(found[i] == hk[i]);
    free(found);
    gcol_map_destroy(m);
    tu_free(keys), tu_free(vals), tu_free(out), tu_free(cnt);
    free(hk);
  }
  return TEST_PASS;
}

TEST(abi_multimap_and_primitives_refuse_misaligned_and_host_pointers) {
  REQUIRE_GPU();
  gcol_multimap_config_t cfg = gcol_multimap_config_default(GCOL_I64, GCOL_I64, GCOL_MULTIMAP_OPEN);
  cfg.map.capacity = 4 * N;
  gcol_multimap_t *mm = NULL;
  CHECK_OK(gcol_multimap_create(&mm, &cfg, 0));
  char *d = tu_poisoned(N * 16 + 256), *e = tu_poisoned(N * 16 + 256);
  char host[64];
  size_t *total = (size_t *)tu_poisoned(64);
  CHECK(d && e && total);
  CHECK_CUDA(cudaMemset(d, 0, N * 16 + 256));
  REFUSED(gcol_multimap_insert(mm, d + 4, e, N, NULL, 0), "aligned");
  REFUSED(gcol_multimap_insert(mm, d, host, N, NULL, 0), "host memory");
  REFUSED(gcol_multimap_count(mm, d + 4, N, NULL, total, 0), "aligned");
  REFUSED(gcol_multimap_count(mm, d, N, (size_t *)host, NULL, 0), "host memory");
  size_t tb = 0;
  CHECK_OK(gcol_multimap_retrieve(NULL, &tb, mm, d, N, NULL, e, (size_t *)e, N, total, 0));
  REFUSED(gcol_multimap_retrieve(d, &tb, mm, d, N, NULL, e + 4, (size_t *)e, N, total, 0), "aligned");
  REFUSED(gcol_multimap_retrieve(d, &tb, mm, d, N, NULL, e, (size_t *)e, N, (size_t *)host, 0), "host memory");
  size_t count = 0;
  REFUSED(gcol_multimap_retrieve_all(mm, host, e, &count, 0), "host memory");
  size_t bytes = 1 << 20;
  char *tmp = tu_poisoned(bytes);
  REFUSED(gcol_select_flagged(tmp, &bytes, host, (uint8_t *)d, e, total, N, 8, GCOL_ORDER_ANY, 0), "host memory");
  REFUSED(gcol_select_flagged(tmp, &bytes, d, (uint8_t *)d, e + 4, total, N, 8, GCOL_ORDER_STABLE, 0), "aligned");
  REFUSED(gcol_reduce(tmp, &bytes, d, host, N, GCOL_I64, GCOL_OP_ADD, 0), "host memory");
  REFUSED(gcol_exclusive_scan(tmp, &bytes, d + 2, e, N, GCOL_F32, GCOL_OP_ADD, 0), "aligned");
  gcol_graph_t *g = NULL;
  REFUSED(gcol_graph_create_grid3d(&g, 4, 4, 4, (float *)host, 26, 0), "host memory");
  REFUSED(gcol_graph_create_csr(&g, 3, 0, (uint32_t *)(d + 2), NULL, NULL, 0), "aligned");
  RUN(context_ok());
  /* good calls afterwards */
  CHECK_OK(gcol_multimap_insert(mm, d, e, N, NULL, 0));
  CHECK_OK(gcol_multimap_count(mm, d, 1, NULL, total, 0));
  size_t t = 0;
  CHECK(tu_to_host(&t, total, sizeof t) == 0 && t == N); /* N copies of key 0 */
  CHECK_OK(gcol_multimap_size(mm, &count, 0));
  CHECK(count == N);
  float *cost = (float *)d;
  CHECK_CUDA(cudaMemset(cost, 0, 64 * sizeof(float)));
  CHECK_OK(gcol_graph_create_grid3d(&g, 4, 4, 4, cost, 26, 0));
  REFUSED(gcol_sssp_many_to_many(g, (uint32_t *)host, 1, NULL, 64, (float *)e, 0), "host memory");
  REFUSED(gcol_sssp_many_to_many(g, (uint32_t *)(d + 1), 1, NULL, 64, (float *)e, 0), "aligned");
  CHECK_CUDA(cudaMemset(d, 0, 4));
  CHECK_OK(gcol_sssp_many_to_many(g, (uint32_t *)d, 1, NULL, 64, (float *)e, 0));
  RUN(context_ok());
  gcol_graph_destroy(g);
  gcol_multimap_destroy(mm);
  tu_free(d), tu_free(e), tu_free(total), tu_free(tmp);
  return TEST_PASS;
}

TEST(abi_managed_and_mapped_pinned_memory_are_accepted) {
  REQUIRE_GPU();
  gcol_map_config_t cfg = gcol_map_config_default(GCOL_U32, GCOL_U32);
  cfg.capacity = 4 * N;
  gcol_map_t *m = NULL;
  CHECK_OK(gcol_map_create(&m, &cfg, 0));
  uint32_t *managed = NULL, *pinned = NULL, *dev_view = NULL;
  CHECK_CUDA(cudaMallocManaged((void **)&managed, N * 4, cudaMemAttachGlobal));
  CHECK_CUDA(cudaHostAlloc((void **)&pinned, N * 4, cudaHostAllocMapped));
  CHECK_CUDA(cudaHostGetDevicePointer((void **)&dev_view, pinned, 0));
  for (uint32_t i = 0; i < N; ++i) managed[i] = i + 1, pinned[i] = 0;
  CHECK_OK(gcol_map_insert(m, managed, managed, N, NULL, 0));
  CHECK_OK(gcol_map_find(m, managed, N, dev_view, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  for (uint32_t i = 0; i < N; ++i) CHECK(pinned[i] == i + 1);
  gcol_map_destroy(m);
  cudaFree(managed);
  cudaFreeHost(pinned);
  return TEST_PASS;
}

TEST(abi_ops_have_one_meaning_in_maps_and_reductions) {
  REQUIRE_GPU();
  /* float MIN/MAX ignore NaN: in a map's insert_or_apply and in gcol_reduce */
  float hv[4] = {NAN, 2.0f, -1.0f, NAN};
  uint32_t hk[4] = {5, 5, 5, 5};
  float *v = tu_to_device(hv, sizeof hv), *r = tu_poisoned(8);
  uint32_t *k = tu_to_device(hk, sizeof hk);
  const gcol_op_t ops[2] = {GCOL_OP_MIN, GCOL_OP_MAX};
  const float want[2] = {-1.0f, 2.0f};
  for (int o = 0; o < 2; ++o) {
    gcol_map_config_t cfg = gcol_map_config_default(GCOL_U32, GCOL_F32);
    gcol_map_t *m = NULL;
    CHECK_OK(gcol_map_create(&m, &cfg, 0));
    for (int i = 0; i < 4; ++i) CHECK_OK(gcol_map_insert_or_apply(m, k + i, v + i, 1, ops[o], 0)); /* NaN first */
    CHECK_OK(gcol_map_find(m, k, 1, r, 0));
    float got = 0;
    CHECK(tu_to_host(&got, r, 4) == 0 && got == want[o]);
    gcol_map_destroy(m);
    size_t bytes = 0;
    CHECK_OK(gcol_reduce(NULL, &bytes, v, r, 4, GCOL_F32, ops[o], 0));
    void *tmp = tu_poisoned(bytes);
    CHECK_OK(gcol_reduce(tmp, &bytes, v, r, 4, GCOL_F32, ops[o], 0));
    CHECK(tu_to_host(&got, r, 4) == 0 && got == want[o]);
    tu_free(tmp);
  }
  /* integer ADD wraps, signed too */
  int32_t hi[2] = {INT32_MAX, 1};
  int32_t *di = tu_to_device(hi, sizeof hi);
  gcol_map_config_t cfg = gcol_map_config_default(GCOL_U32, GCOL_I32);
  gcol_map_t *m = NULL;
  CHECK_OK(gcol_map_create(&m, &cfg, 0));
  CHECK_OK(gcol_map_insert_or_apply(m, k, di, 1, GCOL_OP_ADD, 0));
  CHECK_OK(gcol_map_insert_or_apply(m, k, di + 1, 1, GCOL_OP_ADD, 0));
  CHECK_OK(gcol_map_find(m, k, 1, r, 0));
  int32_t sum = 0;
  CHECK(tu_to_host(&sum, r, 4) == 0 && sum == INT32_MIN);
  size_t bytes = 0;
  CHECK_OK(gcol_reduce(NULL, &bytes, di, r, 2, GCOL_I32, GCOL_OP_ADD, 0));
  void *tmp = tu_poisoned(bytes);
  CHECK_OK(gcol_reduce(tmp, &bytes, di, r, 2, GCOL_I32, GCOL_OP_ADD, 0));
  CHECK(tu_to_host(&sum, r, 4) == 0 && sum == INT32_MIN);
  gcol_map_destroy(m);
  tu_free(tmp), tu_free(v), tu_free(r), tu_free(k), tu_free(di);
  return TEST_PASS;
}
