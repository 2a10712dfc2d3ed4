/* The distributed map across two processes, one GPU each, as MPI or
 * torchrun would run it. The parent makes the ncclUniqueId and starts two
 * children; each is this test binary again (fork + exec: CUDA cannot be used
 * in a child forked after the parent initialized it, and the harness has),
 * running only dist_gpu2_two_processes_rank, told its rank, the id and the
 * seed through the environment. Both derive every rank's data from the
 * seed, so each checks against the whole model. Skipped below two GPUs. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../harness.h"
#include "dist_specs.h"

extern char **environ;

#define CHILD_TEST "dist_gpu2_two_processes_rank"
#define RANK_VAR "GCOL_DIST_TEST_RANK"
#define ID_VAR "GCOL_DIST_TEST_NCCL_ID"
enum { TIMEOUT_S = 120 };

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

/* One rank's part; the other process runs the same calls. */
TEST(dist_gpu2_two_processes_rank) {
  const char *rank_s = getenv(RANK_VAR), *id_s = getenv(ID_VAR);
  if (!rank_s || !id_s) return TEST_SKIP; /* runs only as a child of the test below */
  int rank = atoi(rank_s);
  ncclUniqueId id;
  CHECK(decode_id(id_s, &id) == 0 && (rank == 0 || rank == 1));
  dc_cluster_t c;
  RUN(dc_init_rank(&c, 2, rank, id));
  ds_spec_t sp = dspec_two_ranks(GCOL_U64, GCOL_I64, GCOL_OP_ADD, 200000);
  if (!dspec_too_large(&sp)) RUN(ds_run(&c, &sp));
  /* statuses are per process here: each rank must see the failure itself */
  RUN(ds_fill(&c, 0));
  RUN(ds_reserved(&c, GCOL_U32, 1));
  dc_destroy(&c);
  return TEST_PASS;
}

/* ---- parent --------------------------------------------------------------- */

/* environ without our variables, plus rank, id and seed (built before fork:
 * the child may only exec). */
static char **child_env(int rank, const char *id_hex) {
  size_t n = 0;
  while (environ[n]) ++n;
  char **env = calloc(n + 4, sizeof *env);
  size_t line = strlen(ID_VAR) + 2 * sizeof(ncclUniqueId) + 64;
  char *rank_v = malloc(line), *id_v = malloc(line), *seed_v = malloc(line);
  if (!env || !rank_v || !id_v || !seed_v) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (strncmp(environ[i], RANK_VAR "=", strlen(RANK_VAR) + 1) && strncmp(environ[i], ID_VAR "=", strlen(ID_VAR) + 1) &&
        strncmp(environ[i], "GCOL_TEST_SEED=", 15))
      env[k++] = environ[i];
  snprintf(rank_v, line, "%s=%d", RANK_VAR, rank);
  snprintf(id_v, line, "%s=%s", ID_VAR, id_hex);
  snprintf(seed_v, line, "GCOL_TEST_SEED=%llu", (unsigned long long)test_seed());
  env[k++] = rank_v, env[k++] = id_v, env[k++] = seed_v;
  return env;
}

static void free_env(char **env) {
  if (!env) return;
  size_t n = 0;
  while (env[n]) ++n;
  for (size_t i = n - 3; i < n; ++i) free(env[i]); /* the three we made */
  free(env);
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Wait for both children; kill what is left after TIMEOUT_S. 1 if both
 * exited with status 0. */
static int wait_children(const pid_t pid[2]) {
  int done[2] = {0, 0}, ok[2] = {0, 0};
  double deadline = now_s() + TIMEOUT_S;
  while (!done[0] || !done[1]) {
    for (int r = 0; r < 2; ++r) {
      int st;
      if (done[r] || waitpid(pid[r], &st, WNOHANG) != pid[r]) continue;
      done[r] = 1, ok[r] = WIFEXITED(st) && WEXITSTATUS(st) == 0;
      if (!ok[r])
        fprintf(stderr, "    rank %d: %s %d\n", r, WIFEXITED(st) ? "exit status" : "signal",
                WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
    }
    if ((!done[0] || !done[1]) && now_s() > deadline) {
      for (int r = 0; r < 2; ++r) {
        if (done[r]) continue;
        fprintf(stderr, "    rank %d still running after %d s: killed\n", r, TIMEOUT_S);
        kill(pid[r], SIGKILL);
        waitpid(pid[r], NULL, 0);
        done[r] = 1;
      }
    }
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
  }
  return ok[0] && ok[1];
}

TEST(dist_gpu2_two_processes) {
  REQUIRE_GPU();
  if (dc_device_count() < 2) return TEST_SKIP;
  dc_nccl_env();
  ncclUniqueId id;
  ncclResult_t nr = ncclGetUniqueId(&id);
  if (nr != ncclSuccess) {
    fprintf(stderr, "    ncclGetUniqueId: %s\n", ncclGetErrorString(nr));
    return TEST_FAIL;
  }
  char hex[2 * sizeof id + 1];
  for (size_t i = 0; i < sizeof id; ++i) snprintf(hex + 2 * i, 3, "%02x", ((unsigned char *)&id)[i]);
  char **env[2] = {child_env(0, hex), child_env(1, hex)};
  char exe[] = "/proc/self/exe", filter[] = CHILD_TEST;
  char *argv[] = {exe, filter, NULL};
  pid_t pid[2] = {-1, -1};
  CHECK(env[0] && env[1]);
  fflush(stdout), fflush(stderr);
  for (int r = 0; r < 2; ++r) {
    pid[r] = fork();
    if (pid[r] == 0) {
      int fd = open("/dev/null", O_WRONLY); /* keep the children's summary lines out of ours */
      if (fd >= 0) dup2(fd, STDOUT_FILENO);
      execve(exe, argv, env[r]);
      _exit(127);
    }
    if (pid[r] < 0) { /* clean up a child already started */
      if (r == 1) kill(pid[0], SIGKILL), waitpid(pid[0], NULL, 0);
      CHECK(pid[r] >= 0);
    }
  }
  int ok = wait_children(pid);
  free_env(env[0]), free_env(env[1]);
  CHECK(ok);
  return TEST_PASS;
}
