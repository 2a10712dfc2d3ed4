/* The runner's own rules: GCOL_TEST_TIMEOUT ends a test that runs too long
 * (reported FAIL by name, closing counts, exit status 1) instead of blocking. */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define SLEEPER_VAR "GCOL_TEST_HARNESS_SLEEPER"

/* Sleeps a minute when the test below runs it as a child; skipped otherwise. */
TEST(harness_sleeper) {
  if (!getenv(SLEEPER_VAR)) return TEST_SKIP;
  struct timespec t = {60, 0};
  while (nanosleep(&t, &t) != 0) {
  }
  return TEST_PASS;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

TEST(harness_timeout_fails_a_slow_test) {
  int fd[2];
  CHECK(pipe(fd) == 0);
  fflush(stdout), fflush(stderr);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    dup2(fd[1], STDOUT_FILENO);
    close(fd[0]), close(fd[1]);
    setenv("GCOL_TEST_TIMEOUT", "1", 1);
    setenv(SLEEPER_VAR, "1", 1);
    char exe[] = "/proc/self/exe", filter[] = "harness_sleeper";
    char *argv[] = {exe, filter, NULL};
    execv(exe, argv);
    _exit(127);
  }
  close(fd[1]);
  char out[4096];
  size_t len = 0;
  double t0 = now_s();
  for (;;) { /* read until the child closes its end, 30 s at most */
    struct pollfd p = {fd[0], POLLIN, 0};
    if (poll(&p, 1, 1000) > 0) {
      ssize_t r = read(fd[0], out + len, sizeof out - 1 - len);
      if (r <= 0) break;
      len += (size_t)r;
    }
    if (now_s() - t0 > 30) break;
  }
  out[len] = 0;
  close(fd[0]);
  double secs = now_s() - t0;
  int st = 0;
  pid_t done = 0; /* the output ended; the exit may take a moment more (a GPU context to tear down) */
  while ((done = waitpid(pid, &st, WNOHANG)) == 0 && now_s() - t0 < 30) {
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
  }
  secs = now_s() - t0;
  if (done != pid) { /* still running: the limit did not work */
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    fprintf(stderr, "    the child was still running after %.0f s\n", secs);
    return TEST_FAIL;
  }
  if (!(WIFEXITED(st) && WEXITSTATUS(st) == 1) || !strstr(out, "FAIL harness_sleeper (timed out after 1 s") ||
      !strstr(out, "\n0 passed, 1 failed, 0 skipped\n") || secs > 20) {
    fprintf(stderr, "    status %d after %.1f s, output:\n%s\n", st, secs, out);
    return TEST_FAIL;
  }
  return TEST_PASS;
}
