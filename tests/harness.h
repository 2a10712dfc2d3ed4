/* A small test harness: TEST(name) registers a test; CHECK fails it.
 * The runner prints one line per test and ends with
 * "N passed, N failed, N skipped". */
#ifndef GCOL_TESTS_HARNESS_H
#define GCOL_TESTS_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>
#include "gcol/gcol.h"

typedef enum { TEST_PASS, TEST_FAIL, TEST_SKIP } test_result_t;
typedef test_result_t (*test_fn_t)(void);
void test_register(const char *name, test_fn_t fn);

#define TEST(name)                                                                     \
  static test_result_t name(void);                                                     \
  __attribute__((constructor)) static void register_##name(void) { test_register(#name, name); } \
  static test_result_t name(void)

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      fprintf(stderr, "    %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);  \
      return TEST_FAIL;                                                             \
    }                                                                               \
  } while (0)

#define CHECK_STATUS(expr, want)                                                        \
  do {                                                                                  \
    gcol_status_t got_ = (expr);                                                        \
    if (got_ != (want)) {                                                               \
      fprintf(stderr, "    %s:%d: %s returned %s, wanted %s\n", __FILE__, __LINE__, #expr, \
              gcol_status_string(got_), gcol_status_string(want));                      \
      return TEST_FAIL;                                                                 \
    }                                                                                   \
  } while (0)

#define CHECK_OK(expr) CHECK_STATUS(expr, GCOL_SUCCESS)

/* Run a sub-check; return its result unless it passed. */
#define RUN(expr)                   \
  do {                              \
    test_result_t r_ = (expr);      \
    if (r_ != TEST_PASS) return r_; \
  } while (0)

#define CHECK_CUDA(expr)                                                                       \
  do {                                                                                         \
    cudaError_t e_ = (expr);                                                                   \
    if (e_ != cudaSuccess) {                                                                   \
      fprintf(stderr, "    %s:%d: %s: %s\n", __FILE__, __LINE__, #expr, cudaGetErrorString(e_)); \
      return TEST_FAIL;                                                                        \
    }                                                                                          \
  } while (0)

/* 1 when a CUDA device is usable. */
int test_have_gpu(void);
#define REQUIRE_GPU() \
  do {                \
    if (!test_have_gpu()) return TEST_SKIP; \
  } while (0)

/* Largest problem size a test may use (GCOL_TEST_MAX_N caps it, e.g. under
 * compute-sanitizer); sizes above it are skipped by the tests. */
size_t test_max_n(void);

/* A fresh seed per run (GCOL_TEST_SEED fixes it); printed by the runner. */
uint64_t test_seed(void);

#endif
