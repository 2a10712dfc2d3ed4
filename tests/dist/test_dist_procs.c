/* The distributed map across processes, one GPU each (every visible GPU, or
 * GCOL_TEST_GPUS of them), as MPI or torchrun would run it. The parent makes
 * the ncclUniqueId and starts one child per GPU; each is this test binary
 * again (fork + exec: CUDA cannot be used in a child forked after the parent
 * initialized it, and the harness has), running only
 * dist_multi_processes_rank, told the rank count, its rank, the id and the
 * seed through the environment. Every child derives every rank's data from
 * the seed, so each checks against the whole model, and each checks its
 * own status of the collective faults. Skipped below two GPUs. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../harness.h"
#include "dist/dist_plan.h"
#include "dist_faults.h"
#include "dist_specs.h"

extern char **environ;

#define CHILD_TEST "dist_multi_processes_rank"
#define RANK_VAR "GCOL_DIST_TEST_RANK"
#define NRANKS_VAR "GCOL_DIST_TEST_NRANKS"
#define ID_VAR "GCOL_DIST_TEST_NCCL_ID"
enum { TIMEOUT_S = 240 };

/* ---- child ---------------------------------------------------------------- */

static int decode_id(const char *hex, ncclUniqueId *id) {
  unsigned char *b = (unsigned char *)id;
  if (strlen(hex) != 2 * sizeof *id) return -1;
  for (size_t i = 0; i < sizeof *id; ++i) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) != 1) return -1;
    b[i] = (unsigned char)v;
  }
  return 0;
}

/* One rank's part; the other processes run the same calls. */
static test_result_t rank_part(dc_cluster_t *c) {
  int last = c->nranks - 1;
  ds_spec_t sp = dspec_ranks(c->nranks, GCOL_U64, GCOL_I64, GCOL_OP_ADD, 200000);
  if (!dspec_too_large(&sp)) RUN(ds_run(c, &sp));
  /* statuses are per process here: each rank must see the failure itself */
  RUN(ds_fill(c, 0));
  RUN(ds_reserved(c, GCOL_U32, last));
  RUN(df_allocator_refuses(c, last));
  RUN(df_bad_pointers(c, 0));
  ds_spec_t sk = dspec_skewed(c->nranks, 200000);
  gcol_dist_set_round_pairs(4096); /* in every process: ranks must agree on it */
  test_result_t r = dspec_too_large(&sk) ? TEST_PASS : ds_run(c, &sk);
  gcol_dist_set_round_pairs(0);
  return r;
}

TEST(dist_multi_processes_rank) {
  const char *rank_s = getenv(RANK_VAR), *n_s = getenv(NRANKS_VAR), *id_s = getenv(ID_VAR);
  if (!rank_s || !n_s || !id_s) return TEST_SKIP; /* runs only as a child of the test below */
  int rank = atoi(rank_s), nranks = atoi(n_s);
  ncclUniqueId id;
  CHECK(decode_id(id_s, &id) == 0 && nranks >= 1 && nranks <= DC_MAX_LOCAL && rank >= 0 && rank < nranks);
  dc_cluster_t c;
  RUN(dc_init_rank(&c, nranks, rank, id));
  test_result_t r = rank_part(&c);
  dc_destroy(&c);
  return r;
}

/* ---- parent --------------------------------------------------------------- */

enum { OURS = 4 }; /* variables the parent sets for a child */
static int ours(const char *v) {
  static const char *const names[OURS] = {RANK_VAR "=", NRANKS_VAR "=", ID_VAR "=", "GCOL_TEST_SEED="};
  for (int i = 0; i < OURS; ++i)
    if (!strncmp(v, names[i], strlen(names[i]))) return 1;
  return 0;
}

/* environ without our variables, plus rank, rank count, id and seed (built
 * before fork: the child may only exec). */
static char **child_env(int rank, int nranks, const char *id_hex) {
  size_t n = 0;
  while (environ[n]) ++n;
  char **env = calloc(n + OURS + 1, sizeof *env);
  size_t line = strlen(ID_VAR) + 2 * sizeof(ncclUniqueId) + 64;
  char *v[OURS];
  for (int i = 0; i < OURS; ++i) v[i] = malloc(line);
  if (!env || !v[0] || !v[1] || !v[2] || !v[3]) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (!ours(environ[i])) env[k++] = environ[i];
  snprintf(v[0], line, "%s=%d", RANK_VAR, rank);
  snprintf(v[1], line, "%s=%d", NRANKS_VAR, nranks);
  snprintf(v[2], line, "%s=%s", ID_VAR, id_hex);
  snprintf(v[3], line, "GCOL_TEST_SEED=%llu", (unsigned long long)test_seed());
  for (int i = 0; i < OURS; ++i) env[k++] = v[i];
  return env;
}

static void free_env(char **env) {
  if (!env) return;
  size_t n = 0;
  while (env[n]) ++n;
  for (size_t i = n - OURS; i < n; ++i) free(env[i]); /* the ones we made */
  free(env);
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Wait for the n children; kill what is left after TIMEOUT_S. 1 if every
 * one exited with status 0. */
static int wait_children(const pid_t *pid, int n) {
  int done[DC_MAX_LOCAL] = {0}, ok[DC_MAX_LOCAL] = {0}, left = n, all = 1;
  double deadline = now_s() + TIMEOUT_S;
  while (left > 0) {
    for (int r = 0; r < n; ++r) {
      int st;
      if (done[r] || waitpid(pid[r], &st, WNOHANG) != pid[r]) continue;
      done[r] = 1, --left, ok[r] = WIFEXITED(st) && WEXITSTATUS(st) == 0;
      if (!ok[r])
        fprintf(stderr, "    rank %d: %s %d\n", r, WIFEXITED(st) ? "exit status" : "signal",
                WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    }
    if (left > 0 && now_s() > deadline) {
      for (int r = 0; r < n; ++r) {
        if (done[r]) continue;
        fprintf(stderr, "    rank %d still running after %d s: killed\n", r, TIMEOUT_S);
        kill(pid[r], SIGKILL);
        waitpid(pid[r], NULL, 0);
        done[r] = 1, --left;
      }
    }
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
  }
  for (int r = 0; r < n; ++r) all &= ok[r];
  return all;
}

TEST(dist_multi_processes) {
  REQUIRE_GPU();
  int g = dc_test_gpus();
  if (g < 2) return TEST_SKIP;
  dc_nccl_env();
  ncclUniqueId id;
  ncclResult_t nr = ncclGetUniqueId(&id);
  if (nr != ncclSuccess) {
    fprintf(stderr, "    ncclGetUniqueId: %s\n", ncclGetErrorString(nr));
    return TEST_FAIL;
  }
  char hex[2 * sizeof id + 1];
  for (size_t i = 0; i < sizeof id; ++i) snprintf(hex + 2 * i, 3, "%02x", ((unsigned char *)&id)[i]);
  char **env[DC_MAX_LOCAL];
  char exe[] = "/proc/self/exe", filter[] = CHILD_TEST;
  char *argv[] = {exe, filter, NULL};
  pid_t pid[DC_MAX_LOCAL];
  for (int r = 0; r < g; ++r) CHECK((env[r] = child_env(r, g, hex)) != NULL);
  fflush(stdout), fflush(stderr);
  int started = 0;
  for (int r = 0; r < g; ++r, ++started) {
    pid[r] = fork();
    if (pid[r] == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL); /* a parent ended by the time limit takes its ranks along */
      int fd = open("/dev/null", O_WRONLY); /* keep the children's summary lines out of ours */
      if (fd >= 0) dup2(fd, STDOUT_FILENO);
      execve(exe, argv, env[r]);
      _exit(127);
    }
    if (pid[r] < 0) break;
  }
  if (started < g) { /* clean up the children already started */
    for (int r = 0; r < started; ++r) kill(pid[r], SIGKILL), waitpid(pid[r], NULL, 0);
    CHECK(started == g);
  }
  int ok = wait_children(pid, g);
  for (int r = 0; r < g; ++r) free_env(env[r]);
  CHECK(ok);
  return TEST_PASS;
}
