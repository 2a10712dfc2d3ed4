/* CPU reference Dijkstra (binary heap, lazy deletion) and its multithreaded
 * many-to-many driver, following the GPU solver's output rules. */
#include "sssp_ref.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void gcol_ref_csr_free(gcol_ref_csr_t *g) {
  if (!g) return;
  free(g->offsets);
  free(g->targets);
  free(g->weights);
  free(g->blocked);
  memset(g, 0, sizeof *g);
}

int gcol_ref_csr_valid(size_t n, size_t m, const uint32_t *offsets, const uint32_t *targets,
                       const float *weights) {
  if (!offsets || offsets[0] != 0 || offsets[n] != m) return 0;
  for (size_t i = 0; i < n; ++i)
    if (offsets[i] > offsets[i + 1]) return 0;
  for (size_t e = 0; e < m; ++e)
    if (targets[e] >= n || !(weights[e] >= 0.0f) || isinf(weights[e])) return 0;
  return 1;
}

/* A binary min-heap of (key, vertex) with room for `cap` entries. */
typedef struct {
  float *key;
  uint32_t *v;
  size_t size;
} bheap_t;

static void bheap_push(bheap_t *h, float k, uint32_t v) {
  size_t i = h->size++;
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (h->key[p] <= k) break;
    h->key[i] = h->key[p], h->v[i] = h->v[p];
    i = p;
  }
  h->key[i] = k, h->v[i] = v;
}

static void bheap_pop(bheap_t *h, float *k, uint32_t *v) {
  *k = h->key[0], *v = h->v[0];
  float lk = h->key[--h->size];
  uint32_t lv = h->v[h->size];
  size_t i = 0, n = h->size;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && h->key[c + 1] < h->key[c]) ++c;
    if (lk <= h->key[c]) break;
    h->key[i] = h->key[c], h->v[i] = h->v[c];
    i = c;
  }
  if (n) h->key[i] = lk, h->v[i] = lv;
}

/* Dijkstra into dist with a caller's heap (room for m + 1 entries: each arc
 * relaxes at most once, as stale entries are skipped before expanding). */
static long long dijkstra(const gcol_ref_csr_t *g, uint32_t s, float *dist, const uint8_t *stop, size_t num_stop,
                          bheap_t *h) {
  for (uint32_t i = 0; i < g->n; ++i) dist[i] = INFINITY;
  if (g->blocked && g->blocked[s]) return 0;
  long long relax = 0;
  size_t left = stop ? num_stop : (size_t)-1;
  h->size = 0;
  dist[s] = 0.0f;
  bheap_push(h, 0.0f, s);
  while (h->size) {
    float d;
    uint32_t u;
    bheap_pop(h, &d, &u);
    if (d > dist[u]) continue; /* stale */
    if (stop && stop[u] && --left == 0) break;
    for (uint32_t e = g->offsets[u]; e < g->offsets[u + 1]; ++e) {
      uint32_t v = g->targets[e];
      float nd = d + g->weights[e];
      ++relax;
      if (nd < dist[v]) {
        dist[v] = nd;
        bheap_push(h, nd, v);
      }
    }
  }
  return relax;
}

static int bheap_init(bheap_t *h, size_t cap) {
  h->key = malloc(cap * sizeof *h->key);
  h->v = malloc(cap * sizeof *h->v);
  h->size = 0;
  return h->key && h->v ? 0 : -1;
}
static void bheap_free(bheap_t *h) {
  free(h->key);
  free(h->v);
}

long long gcol_ref_dijkstra(const gcol_ref_csr_t *g, uint32_t s, float *dist, const uint8_t *stop,
                            size_t num_stop) {
  bheap_t h;
  if (bheap_init(&h, g->m + 1) != 0) {
    bheap_free(&h);
    return -1;
  }
  long long r = dijkstra(g, s, dist, stop, num_stop, &h);
  bheap_free(&h);
  return r;
}

/* ---- many-to-many on threads ------------------------------------------- */
typedef struct {
  const gcol_ref_csr_t *g;
  const uint32_t *sources, *targets;
  size_t num_sources, num_targets, num_stop;
  const uint8_t *stop;
  float *out;
  atomic_size_t next;
  atomic_llong relax;
  atomic_int failed;
} m2m_job_t;

static void *m2m_worker(void *arg) {
  m2m_job_t *j = arg;
  const gcol_ref_csr_t *g = j->g;
  bheap_t h;
  float *scratch = j->targets ? malloc((size_t)g->n * sizeof *scratch) : NULL;
  if (bheap_init(&h, g->m + 1) != 0 || (j->targets && !scratch)) {
    atomic_store(&j->failed, 1);
    bheap_free(&h);
    free(scratch);
    return NULL;
  }
  long long relax = 0;
  for (;;) {
    size_t i = atomic_fetch_add(&j->next, 1);
    if (i >= j->num_sources) break;
    float *row = j->out + i * j->num_targets;
    uint32_t s = j->sources[i];
    if (s >= g->n) { /* the solver's rule for an invalid source id */
      for (size_t t = 0; t < j->num_targets; ++t) row[t] = NAN;
      continue;
    }
    float *dist = j->targets ? scratch : row;
    relax += dijkstra(g, s, dist, j->stop, j->num_stop, &h);
    if (j->targets)
      for (size_t t = 0; t < j->num_targets; ++t) row[t] = j->targets[t] < g->n ? dist[j->targets[t]] : NAN;
  }
  atomic_fetch_add(&j->relax, relax);
  bheap_free(&h);
  free(scratch);
  return NULL;
}

long long gcol_ref_many_to_many(const gcol_ref_csr_t *g, const uint32_t *sources, size_t num_sources,
                                const uint32_t *targets, size_t num_targets, float *out, int threads) {
  if (!targets && num_targets != g->n) return -1;
  if (threads <= 0) threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (threads < 1) threads = 1;
  if ((size_t)threads > num_sources) threads = num_sources ? (int)num_sources : 1;
  m2m_job_t j;
  memset(&j, 0, sizeof j);
  j.g = g, j.sources = sources, j.targets = targets, j.num_sources = num_sources, j.num_targets = num_targets;
  j.out = out;
  uint8_t *stop = NULL;
  if (targets) { /* stop once every distinct valid target is settled */
    stop = calloc(g->n ? g->n : 1, 1);
    if (!stop) return -1;
    for (size_t t = 0; t < num_targets; ++t)
      if (targets[t] < g->n && !stop[targets[t]]) stop[targets[t]] = 1, ++j.num_stop;
    j.stop = stop;
  }
  atomic_init(&j.next, 0);
  atomic_init(&j.relax, 0);
  atomic_init(&j.failed, 0);
  pthread_t *tid = malloc((size_t)threads * sizeof *tid);
  int started = 0;
  if (tid)
    for (; started < threads; ++started)
      if (pthread_create(&tid[started], NULL, m2m_worker, &j) != 0) break;
  if (started == 0) m2m_worker(&j); /* no threads available: run here */
  for (int t = 0; t < started; ++t) pthread_join(tid[t], NULL);
  free(tid);
  free(stop);
  return atomic_load(&j.failed) ? -1 : (long long)atomic_load(&j.relax);
}
