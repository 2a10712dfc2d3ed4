#define _POSIX_C_SOURCE 200809L /* sigaction */
#include "harness.h"
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_TESTS 256
static struct {
  const char *name;
  test_fn_t fn;
} tests[MAX_TESTS];
static int num_tests;

void test_register(const char *name, test_fn_t fn) {
  if (num_tests == MAX_TESTS) {
    fprintf(stderr, "too many tests\n");
    exit(2);
  }
  tests[num_tests].name = name;
  tests[num_tests].fn = fn;
  ++num_tests;
}

int test_have_gpu(void) {
  static int have = -1;
  if (have < 0) {
    int n = 0;
    have = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  }
  return have;
}

size_t test_max_n(void) {
  const char *s = getenv("GCOL_TEST_MAX_N");
  return s ? (size_t)strtoull(s, NULL, 10) : (size_t)-1;
}

uint64_t test_seed(void) {
  static uint64_t seed;
  if (!seed) {
    const char *s = getenv("GCOL_TEST_SEED");
    seed = s ? strtoull(s, NULL, 10) : (uint64_t)time(NULL) * 2654435761u + (uint64_t)clock();
    if (!seed) seed = 1;
  }
  return seed;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const __typeof__(tests[0]) *)a)->name, ((const __typeof__(tests[0]) *)b)->name);
}

/* Whether name contains one of the comma-separated substrings of filter. */
static int selected(const char *name, const char *filter) {
  char buf[256];
  for (const char *p = filter;; ++p) {
    size_t len = strcspn(p, ",");
    if (len > 0 && len < sizeof buf) {
      memcpy(buf, p, len), buf[len] = 0;
      if (strstr(name, buf)) return 1;
    }
    p += len;
    if (!*p) return 0;
  }
}

/* ---- the per-test time limit ---------------------------------------------
 * GCOL_TEST_TIMEOUT seconds (default 300; 0: none). A test still running then
 * may be stuck inside CUDA or NCCL, where nothing can be undone, so the alarm
 * ends the run: it prints the test as FAIL and the closing counts (this test
 * counted failed), then exits 1. The lines are made before the test starts:
 * a signal handler may only write them. Child processes a test started get
 * SIGKILL from the kernel (test_kill_with_parent). */
static char timeout_lines[1024];
static size_t timeout_len;

static unsigned test_timeout_s(void) {
  const char *s = getenv("GCOL_TEST_TIMEOUT");
  return s && *s ? (unsigned)strtoul(s, NULL, 10) : 300u;
}

static void on_alarm(int sig) {
  (void)sig;
  ssize_t w = write(STDOUT_FILENO, timeout_lines, timeout_len);
  (void)w;
  _exit(1);
}

static void arm_timeout(const char *name, unsigned secs, int passed, int failed, int skipped) {
  if (!secs) return;
  int len = snprintf(timeout_lines, sizeof timeout_lines,
                     "FAIL %s (timed out after %u s: GCOL_TEST_TIMEOUT)\n%d passed, %d failed, %d skipped\n", name,
                     secs, passed, failed + 1, skipped);
  timeout_len = len < 0 ? 0 : (size_t)len < sizeof timeout_lines ? (size_t)len : sizeof timeout_lines - 1;
  fflush(stdout);
  alarm(secs);
}

/* Usage: gcol_tests [substring[,substring...]]  runs the tests whose name
 * contains one of them. */
int main(int argc, char **argv) {
  int passed = 0, failed = 0, skipped = 0;
  unsigned limit = test_timeout_s();
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, NULL);
  qsort(tests, num_tests, sizeof tests[0], by_name);
  printf("gcol tests: seed %llu, %s\n", (unsigned long long)test_seed(),
         test_have_gpu() ? "GPU present" : "no GPU (GPU tests skip)");
  if (test_have_gpu()) {
    struct cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) == cudaSuccess) printf("device 0: %s (sm_%d%d)\n", p.name, p.major, p.minor);
  }
  for (int i = 0; i < num_tests; ++i) {
    if (argc > 1 && !selected(tests[i].name, argv[1])) continue;
    clock_t t0 = clock();
    arm_timeout(tests[i].name, limit, passed, failed, skipped);
    test_result_t r = tests[i].fn();
    alarm(0);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    const char *word = r == TEST_PASS ? "PASS" : r == TEST_FAIL ? "FAIL" : "SKIP";
    printf("%-4s %s (%.2fs cpu)\n", word, tests[i].name, secs);
    fflush(stdout);
    passed += r == TEST_PASS;
    failed += r == TEST_FAIL;
    skipped += r == TEST_SKIP;
  }
  printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed ? 1 : 0;
}
