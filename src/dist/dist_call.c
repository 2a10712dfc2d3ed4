/* The steps of one rank's part of a collective call (see dist_internal.h
 * for their order). A step never returns early in a way that would leave
 * the other ranks waiting: a local failure is recorded in c->local, the
 * rank goes on with an empty batch, and the collective votes tell everyone.
 *
 * A keyed call: group the batch by owner (compute stream s); exchange the
 * counts (NCCL stream cs); vote that every rank is ready (all allocations
 * made), then move the pairs in rounds of at most q pairs per peer. Round k
 * lands in receive slot k % DIST_SLOTS; the shard works on it on s while the
 * next rounds travel on cs, a stream of the highest priority, so that NCCL's
 * blocks get SMs ahead of the shard's kernels. find/contains, and insert /
 * insert_or_apply on fixed shards, work on their own keys where they stand
 * in the batch (only the other ranks' keys are grouped; own_in_place);
 * lookups answer rounds through the shard's device view in short blocks
 * (gcol_dist_lookup); answers go back in the round's layout and are
 * scattered into batch order as they arrive. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"
#include "core/device_alloc.h"
#include "dist/dist_internal.h"
#include "dist/dist_kernels.h"

/* device words: counts out, counts in, cursor, vote (2), own fingerprint, all fingerprints */
#define FP_WORDS 12
static size_t words_count(int P) { return 3 * (size_t)P + 2 + FP_WORDS * ((size_t)P + 1); }
static uint64_t *vote_words(const dist_call_t *c) { return c->d_counts + 3 * (size_t)c->m->nranks; }
static uint64_t *fp_words(const dist_call_t *c) { return vote_words(c) + 2; }

/* Bytes per pair of the values a call sends with its keys, and of the
 * answers it sends back (0 when it sends none). */
static size_t sent_value_bytes(const dist_call_t *c) { return dist_kind_carries_values(c->kind) ? c->m->value_bytes : 0; }
static size_t answer_bytes(const dist_call_t *c) {
  return !dist_kind_answers(c->kind) ? 0 : c->kind == DIST_FIND ? c->m->value_bytes : 1;
}
static size_t align16(size_t b) { return (b + 15) & ~(size_t)15; }
static cudaStream_t comm_stream(const dist_call_t *c) { return c->m->comm_stream ? c->m->comm_stream : c->s; }

static void fail(dist_call_t *c, gcol_status_t s) {
  if (c->local == GCOL_SUCCESS) c->local = s;
}
/* A failure of a gcol_map_* call on the shard: its message (libgcol's)
 * becomes this library's too. */
static void shard_fail(dist_call_t *c, gcol_status_t s) {
  if (s == GCOL_SUCCESS || c->local != GCOL_SUCCESS) return;
  char why[GCOL_MESSAGE_BYTES];
  snprintf(why, sizeof why, "%s", gcol_last_error_message());
  fail(c, gcol_fail(s, "rank %d's shard: %s", c->m->rank, why));
}
static int cuda_ok(dist_call_t *c, cudaError_t e) {
  if (e == cudaSuccess) return 1;
  fail(c, gcol_from_cuda(e));
  return 0;
}
static void nccl_call(dist_call_t *c, ncclResult_t r) {
  if (r == ncclSuccess) return;
  fail(c, dist_from_nccl(r));
  c->nccl_broken = 1;
}
/* Every step that touches CUDA starts here: in a group the steps of ranks on
 * other devices run in between, each leaving its own device current. */
static void use_device(dist_call_t *c) { cuda_ok(c, cudaSetDevice(c->m->device)); }
static int nccl_usable(const dist_call_t *c) { return !c->nccl_broken && c->d_counts; }

/* waiter goes on once signaller has done everything enqueued so far
 * (stream-ordered; nothing when the call runs on one stream). */
static void stream_waits(dist_call_t *c, cudaStream_t waiter, cudaStream_t signaller) {
  if (waiter == signaller) return;
  if (cuda_ok(c, cudaEventRecord(c->m->ev_sync, signaller))) cuda_ok(c, cudaStreamWaitEvent(waiter, c->m->ev_sync, 0));
}
static void s_waits_for_cs(dist_call_t *c) { stream_waits(c, c->s, comm_stream(c)); }
static void cs_waits_for_s(dist_call_t *c) { stream_waits(c, comm_stream(c), c->s); }

/* Resources of the shard's rank, made by the create call before its first
 * NCCL step; a failure leaves the call working on s alone. */
static void open_rank(dist_call_t *c) {
  gcol_dist_map_t *m = c->m;
  int least = 0, greatest = 0;
  if (cudaDeviceGetStreamPriorityRange(&least, &greatest) != cudaSuccess) greatest = 0;
  if (!cuda_ok(c, cudaStreamCreateWithPriority(&m->comm_stream, cudaStreamNonBlocking, greatest))) m->comm_stream = NULL;
  for (int i = 0; i < DIST_SLOTS; ++i) {
    cuda_ok(c, cudaEventCreateWithFlags(&m->ev_fwd[i], cudaEventDisableTiming));
    cuda_ok(c, cudaEventCreateWithFlags(&m->ev_op[i], cudaEventDisableTiming));
  }
  cuda_ok(c, cudaEventCreateWithFlags(&m->ev_sync, cudaEventDisableTiming));
  if (!cuda_ok(c, cudaMallocHost((void **)&m->h_words, sizeof(uint64_t) * (2 * (size_t)m->nranks + 2))))
    m->h_words = NULL;
}

/* Own keys in place: only the other ranks' keys are grouped, and this
 * rank's are worked on where they stand in the batch. Lookups always
 * (gcol_dist_lookup); with one rank, every kind (the shard's bulk call on
 * the batch: nothing to count or group). The insert family and erase of
 * several ranks group their own keys with the rest and go through the
 * shard's bulk calls: growth, sizes and the claim rules stay the shard's,
 * and the bulk kernels beat the device view's per-key form on the
 * scattered own pairs (H200, 2 GPUs: 17.5 against 15.2 G pairs/s). The test
 * hook that sends own keys through NCCL turns it off. */
static int own_in_place(const dist_call_t *c) {
  if (gcol_dist_send_own_keys()) return 0;
  return c->m->nranks == 1 || dist_kind_answers(c->kind);
}

/* One rank keeps its whole batch: no counting, grouping or buffers. */
static int alone(const dist_call_t *c) { return c->m->nranks == 1 && own_in_place(c); }

static void prepare_batch(dist_call_t *c) {
  gcol_dist_map_t *m = c->m;
  const int P = m->nranks;
  size_t n = alone(c) ? 0 : c->n, kb = m->key_bytes;
  size_t vb = sent_value_bytes(c), ab = answer_bytes(c);
  size_t ib = ab ? sizeof(uint32_t) : 0;
  c->block_bytes = align16(n * kb) + align16(n * vb) + align16(n * ib) + align16(n * ab);
  gcol_status_t st = gcol_device_alloc(&m->cfg.allocator, &c->block, c->block_bytes, c->s);
  if (st != GCOL_SUCCESS) fail(c, st);
  if (c->local != GCOL_SUCCESS) c->n = n = 0; /* take part with nothing */
  if (alone(c)) { /* the count is the batch: written, not counted */
    cuda_ok(c, gcol_dist_put_count(c->d_counts, c->n, c->s));
    return;
  }
  char *b = c->block;
  c->send_keys = b, b += align16(n * kb);
  c->send_values = vb ? b : NULL, b += align16(n * vb);
  c->origin = ib ? (uint32_t *)b : NULL, b += align16(n * ib);
  c->back = ab ? b : NULL;
  if (!cuda_ok(c, gcol_dist_count_owners(c->keys, n, (int)kb, P, c->d_counts, c->s))) return;
  cuda_ok(c, gcol_dist_group_by_owner(c->keys, c->values, n, (int)kb, (int)vb, P, own_in_place(c) ? m->rank : -1,
                                      c->d_counts, c->d_counts + 2 * P, c->send_keys, c->send_values, c->origin,
                                      c->s));
}

/* The map's device words (counts, votes, fingerprints), made once by create:
 * a later call then takes part in every collective step without allocating,
 * whatever its allocator does. From the config's allocator, or cudaMalloc
 * where that refuses (a few KB); a rank that gets neither cannot take part
 * in create's first step. */
static void open_words(dist_call_t *c) {
  gcol_dist_map_t *m = c->m;
  m->words_bytes = sizeof(uint64_t) * words_count(m->nranks);
  if (gcol_device_try_alloc(&m->cfg.allocator, (void **)&m->d_words, m->words_bytes, c->s)) return;
  m->words_from_cuda = 1;
  if (cudaMalloc((void **)&m->d_words, m->words_bytes) != cudaSuccess) {
    m->d_words = NULL;
    (void)cudaGetLastError();
    fail(c, gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no device memory for the map's %zu bytes of counts and votes",
                      m->words_bytes));
  }
}

void dist_step_prepare(dist_call_t *c) {
  gcol_dist_map_t *m = c->m;
  use_device(c);
  if (c->kind == DIST_CREATE) open_rank(c), open_words(c);
  c->d_counts = m->d_words;
  c->plan = malloc(sizeof(uint64_t) * 6 * ((size_t)m->nranks + 1));
  if (!c->plan) fail(c, gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for the round plan"));
  if (!c->d_counts) {
    c->nccl_broken = 1; /* create found no memory for them: nothing to talk with */
    return;
  }
  if (c->kind == DIST_CREATE) {
    c->fingerprint = gcol_dist_fingerprint(&c->cfg, c->local == GCOL_SUCCESS && c->plan && m->h_words);
    cuda_ok(c, cudaMemcpyAsync(fp_words(c), &c->fingerprint, sizeof c->fingerprint, cudaMemcpyHostToDevice, c->s));
  } else if (dist_kind_keyed(c->kind)) {
    prepare_batch(c);
  }
  cs_waits_for_s(c);
}

void dist_step_exchange(dist_call_t *c) {
  if (!nccl_usable(c)) return;
  gcol_dist_map_t *m = c->m;
  use_device(c);
  cudaStream_t cs = comm_stream(c);
  if (c->kind == DIST_CREATE) {
    nccl_call(c, ncclAllGather(fp_words(c), fp_words(c) + FP_WORDS, FP_WORDS, ncclUint64, m->comm, cs));
  } else if (dist_kind_keyed(c->kind)) {
    for (int p = 0; p < m->nranks && !c->nccl_broken; ++p) {
      nccl_call(c, ncclSend(c->d_counts + p, 1, ncclUint64, p, m->comm, cs));
      nccl_call(c, ncclRecv(c->d_counts + m->nranks + p, 1, ncclUint64, p, m->comm, cs));
    }
  }
}

static void plan_rounds(dist_call_t *c) {
  gcol_dist_map_t *m = c->m;
  const int P = m->nranks;
  cudaStream_t cs = comm_stream(c);
  uint64_t *h = m->h_words;
  if (!cuda_ok(c, cudaMemcpyAsync(h, c->d_counts, sizeof(uint64_t) * 2 * P, cudaMemcpyDeviceToHost, cs)) ||
      !cuda_ok(c, cudaStreamSynchronize(cs))) {
    c->skip = 1;
    return;
  }
  /* this rank's own keys never travel: dist_step_apply_self works on them
   * where the grouping put them (or in the batch itself, own_in_place); the
   * rounds carry the other ranks' */
  const int own_apart = !gcol_dist_send_own_keys();
  if (own_apart) c->self = (size_t)h[m->rank];
  if (own_in_place(c)) h[m->rank] = h[P + m->rank] = 0; /* the grouping left them out */
  gcol_dist_exclusive_sum(h, P, c->plan);
  gcol_dist_exclusive_sum(h + P, P, c->plan + P + 1);
  if (own_apart) h[m->rank] = h[P + m->rank] = 0;
  c->q = gcol_dist_round_pairs_in_use(P);
  c->rounds = gcol_dist_num_rounds(h, h + P, P, c->q);
  size_t most = 0; /* round 0 is the largest a rank receives */
  for (int p = 0; p < P; ++p) most += h[P + p] < c->q ? (size_t)h[P + p] : c->q;
  size_t vb = sent_value_bytes(c), ab = answer_bytes(c);
  size_t one = align16(most * m->key_bytes) + align16(most * vb) + align16(most * ab);
  c->slots_bytes = DIST_SLOTS * one;
  gcol_status_t st = gcol_device_alloc(&m->cfg.allocator, &c->slots, c->slots_bytes, c->s);
  if (st != GCOL_SUCCESS) {
    fail(c, st);
    return;
  }
  for (int i = 0; i < DIST_SLOTS; ++i) {
    char *b = (char *)c->slots + i * one;
    c->slot_keys[i] = b, b += align16(most * m->key_bytes);
    c->slot_values[i] = b, b += align16(most * vb);
    c->slot_out[i] = b;
  }
  cs_waits_for_s(c); /* the slots' memory is usable on s; cs writes them */
}

void dist_step_plan(dist_call_t *c) {
  gcol_dist_map_t *m = c->m;
  use_device(c);
  if (c->kind == DIST_CREATE) {
    if (!nccl_usable(c)) return;
    size_t bytes = sizeof(gcol_dist_fingerprint_t) * (size_t)m->nranks;
    gcol_dist_fingerprint_t *all = malloc(bytes);
    if (!all) {
      fail(c, gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no host memory for %d config fingerprints", m->nranks));
      return;
    }
    if (cuda_ok(c, cudaMemcpyAsync(all, fp_words(c) + FP_WORDS, bytes, cudaMemcpyDeviceToHost, comm_stream(c))) &&
        cuda_ok(c, cudaStreamSynchronize(comm_stream(c)))) {
      gcol_status_t agree = gcol_dist_check_fingerprints(all, m->nranks);
      if (agree != GCOL_SUCCESS && c->local == GCOL_SUCCESS)
        fail(c, gcol_fail(agree, "the ranks' configs differ, or one was refused (compare them on every rank)"));
      else if (c->local == GCOL_SUCCESS) shard_fail(c, gcol_map_create(&m->shard, &m->cfg, c->s));
    }
    free(all);
  } else if (dist_kind_keyed(c->kind)) {
    if (nccl_usable(c)) plan_rounds(c);
    else c->skip = 1;
  } else if (c->local != GCOL_SUCCESS) {
    return; /* a size or retrieve with bad arguments only votes */
  } else if (c->kind == DIST_SIZE) {
    shard_fail(c, gcol_map_size(m->shard, &c->vote[1], c->s));
  } else if (c->kind == DIST_RETRIEVE) {
    shard_fail(c, gcol_map_retrieve_all(m->shard, c->out, c->out_values, c->h_out, c->s));
  }
}

/* Write this rank's vote words and reduce them over the ranks with op. */
static void vote(dist_call_t *c, int with_size) {
  cudaStream_t cs = comm_stream(c);
  c->vote[0] = (uint64_t)gcol_dist_severity(c->local);
  if (!cuda_ok(c, cudaMemcpyAsync(vote_words(c), c->vote, sizeof c->vote, cudaMemcpyHostToDevice, cs))) return;
  nccl_call(c, ncclAllReduce(vote_words(c), vote_words(c), 1, ncclUint64, ncclMax, c->m->comm, cs));
  if (with_size && !c->nccl_broken)
    nccl_call(c, ncclAllReduce(vote_words(c) + 1, vote_words(c) + 1, 1, ncclUint64, ncclSum, c->m->comm, cs));
}

/* Read the vote words back (synchronizes cs); 0 when they cannot be read. */
static int read_vote(dist_call_t *c, uint64_t out[2]) {
  uint64_t *h = c->m->h_words + 2 * (size_t)c->m->nranks;
  if (!nccl_usable(c) || !h) return 0;
  if (!cuda_ok(c, cudaMemcpyAsync(h, vote_words(c), 2 * sizeof(uint64_t), cudaMemcpyDeviceToHost, comm_stream(c))) ||
      !cuda_ok(c, cudaStreamSynchronize(comm_stream(c))))
    return 0;
  out[0] = h[0], out[1] = h[1];
  return 1;
}

void dist_step_ready(dist_call_t *c) {
  if (!dist_kind_keyed(c->kind) || !nccl_usable(c)) return;
  use_device(c);
  vote(c, 0);
}

int dist_step_check_ready(dist_call_t *c) {
  if (!dist_kind_keyed(c->kind)) return 1;
  use_device(c);
  uint64_t v[2];
  if (!read_vote(c, v) || v[0] != 0) c->skip = 1;
  return !c->skip;
}

static int in_round(const dist_call_t *c, size_t k) { return !c->skip && !c->nccl_broken && k < c->rounds; }

/* Round k's layout: this rank's pieces to send (piece_s) and to receive
 * (piece_r, at offsets off_r of the slot). */
static size_t layout(dist_call_t *c, size_t k, size_t **piece_s, size_t **piece_r, size_t **off_r) {
  const int P = c->m->nranks;
  size_t *w = (size_t *)(c->plan + 2 * ((size_t)P + 1)), *off_s = w + P;
  *piece_s = w, *piece_r = w + 2 * P, *off_r = w + 3 * P;
  gcol_dist_round_layout(c->m->h_words, P, c->q, k, *piece_s, off_s);
  return gcol_dist_round_layout(c->m->h_words + P, P, c->q, k, *piece_r, *off_r);
}

/* Move round k of a stream of elem-byte elements: this rank's send side is
 * grouped by owner (peer p's part starts at send_start[p]), the receive side
 * is one slot in rank order. reverse: answers go the other way. */
static void move_round(dist_call_t *c, size_t k, const void *grouped, void *slot, size_t elem, int reverse) {
  gcol_dist_map_t *m = c->m;
  size_t *piece_s, *piece_r, *off_r;
  layout(c, k, &piece_s, &piece_r, &off_r);
  cudaStream_t cs = comm_stream(c);
  for (int p = 0; p < m->nranks && !c->nccl_broken; ++p) {
    char *g = (char *)grouped + (size_t)(c->plan[p] + k * c->q) * elem;
    char *r = (char *)slot + off_r[p] * elem;
    if (!reverse) {
      if (piece_s[p]) nccl_call(c, ncclSend(g, piece_s[p] * elem, ncclUint8, p, m->comm, cs));
      if (piece_r[p]) nccl_call(c, ncclRecv(r, piece_r[p] * elem, ncclUint8, p, m->comm, cs));
    } else {
      if (piece_r[p]) nccl_call(c, ncclSend(r, piece_r[p] * elem, ncclUint8, p, m->comm, cs));
      if (piece_s[p]) nccl_call(c, ncclRecv(g, piece_s[p] * elem, ncclUint8, p, m->comm, cs));
    }
  }
}

void dist_step_forward(dist_call_t *c, size_t k) {
  if (!in_round(c, k)) return;
  gcol_dist_map_t *m = c->m;
  use_device(c);
  /* slot k % DIST_SLOTS was read by the shard operation of round k - DIST_SLOTS
   * (and its answers went back earlier on this stream) */
  if (k >= DIST_SLOTS) cuda_ok(c, cudaStreamWaitEvent(comm_stream(c), m->ev_op[k % DIST_SLOTS], 0));
  move_round(c, k, c->send_keys, c->slot_keys[k % DIST_SLOTS], m->key_bytes, 0);
  /* by the kind, not by send_values: a rank with an empty batch has none to
   * send but still receives its peers' values */
  if (sent_value_bytes(c)) move_round(c, k, c->send_values, c->slot_values[k % DIST_SLOTS], m->value_bytes, 0);
}

void dist_step_forwarded(dist_call_t *c, size_t k) {
  if (!in_round(c, k)) return;
  use_device(c);
  cuda_ok(c, cudaEventRecord(c->m->ev_fwd[k % DIST_SLOTS], comm_stream(c)));
}

/* The call's operation on this rank's shard, for n keys (and values) on s;
 * answers to out. */
static void shard_op(dist_call_t *c, const void *keys, const void *values, size_t n, void *out) {
  gcol_dist_map_t *m = c->m;
  gcol_status_t st = GCOL_SUCCESS;
  switch (c->kind) {
    case DIST_INSERT: st = gcol_map_insert(m->shard, keys, values, n, NULL, c->s); break;
    case DIST_ASSIGN: st = gcol_map_insert_or_assign(m->shard, keys, values, n, c->s); break;
    case DIST_APPLY: st = gcol_map_insert_or_apply(m->shard, keys, values, n, c->op, c->s); break;
    case DIST_FIND: st = gcol_map_find(m->shard, keys, n, out, c->s); break;
    case DIST_CONTAINS: st = gcol_map_contains(m->shard, keys, n, out, c->s); break;
    case DIST_ERASE: st = gcol_map_erase(m->shard, keys, n, NULL, c->s); break;
    default: break;
  }
  shard_fail(c, st);
}

/* Answers of grouped positions [at, at + n) into batch order, on stream. */
static void scatter(dist_call_t *c, size_t at, size_t n, cudaStream_t stream) {
  size_t ab = answer_bytes(c);
  cuda_ok(c, gcol_dist_scatter((char *)c->back + at * ab, c->origin + at, n, (int)ab, c->out, stream));
}

/* find / contains of n keys on the shard through its device view (see
 * gcol_dist_lookup): nranks 0 for all of them, else only this rank's. */
static void shard_lookup(dist_call_t *c, const void *keys, size_t n, int nranks, void *out) {
  gcol_map_view_t view;
  gcol_status_t st = gcol_map_device_view(c->m->shard, &view);
  if (st != GCOL_SUCCESS) {
    shard_fail(c, st);
    return;
  }
  cuda_ok(c, gcol_dist_lookup(&view, keys, n, c->m->rank, nranks, out, c->kind == DIST_CONTAINS, c->s));
}

void dist_step_apply_self(dist_call_t *c) {
  if (c->skip || !dist_kind_keyed(c->kind) || c->self == 0) return;
  use_device(c);
  if (own_in_place(c)) {
    if (alone(c)) shard_op(c, c->keys, c->values, c->n, c->out);
    else shard_lookup(c, c->keys, c->n, c->m->nranks, c->out);
    return;
  }
  size_t at = (size_t)c->plan[c->m->rank], vb = sent_value_bytes(c);
  shard_op(c, (char *)c->send_keys + at * c->m->key_bytes, vb ? (char *)c->send_values + at * vb : NULL, c->self,
           dist_kind_answers(c->kind) ? (char *)c->back + at * answer_bytes(c) : NULL);
  if (dist_kind_answers(c->kind)) scatter(c, at, c->self, c->s);
}

void dist_step_apply(dist_call_t *c, size_t k) {
  if (!in_round(c, k)) return;
  gcol_dist_map_t *m = c->m;
  use_device(c);
  size_t *piece_s, *piece_r, *off_r;
  size_t n = layout(c, k, &piece_s, &piece_r, &off_r);
  if (!cuda_ok(c, cudaStreamWaitEvent(c->s, m->ev_fwd[k % DIST_SLOTS], 0))) return;
  if (dist_kind_answers(c->kind)) shard_lookup(c, c->slot_keys[k % DIST_SLOTS], n, 0, c->slot_out[k % DIST_SLOTS]);
  else shard_op(c, c->slot_keys[k % DIST_SLOTS], c->slot_values[k % DIST_SLOTS], n, c->slot_out[k % DIST_SLOTS]);
  cuda_ok(c, cudaEventRecord(m->ev_op[k % DIST_SLOTS], c->s));
}

void dist_step_answer(dist_call_t *c, size_t k) {
  if (!dist_kind_answers(c->kind) || !in_round(c, k)) return;
  use_device(c);
  if (!cuda_ok(c, cudaStreamWaitEvent(comm_stream(c), c->m->ev_op[k % DIST_SLOTS], 0))) return;
  move_round(c, k, c->back, c->slot_out[k % DIST_SLOTS], answer_bytes(c), 1);
}

void dist_step_answered(dist_call_t *c, size_t k) {
  if (!dist_kind_answers(c->kind) || !in_round(c, k)) return;
  use_device(c);
  size_t *piece_s, *piece_r, *off_r;
  layout(c, k, &piece_s, &piece_r, &off_r);
  for (int p = 0; p < c->m->nranks; ++p) /* after the answers on cs: stream-ordered */
    if (piece_s[p]) scatter(c, (size_t)(c->plan[p] + k * c->q), piece_s[p], comm_stream(c));
}

void dist_step_finish(dist_call_t *c) {
  gcol_dist_map_t *m = c->m;
  use_device(c);
  if (!dist_kind_keyed(c->kind)) return;
  s_waits_for_cs(c); /* the answers scattered on cs */
  if (m->shard) shard_fail(c, gcol_map_status(m->shard, c->s)); /* full or reserved keys, latched on device */
}

void dist_step_vote(dist_call_t *c) {
  if (nccl_usable(c)) {
    use_device(c);
    cs_waits_for_s(c);
    vote(c, c->kind == DIST_SIZE);
  }
}

void dist_step_release(dist_call_t *c) {
  gcol_dist_map_t *m = c->m;
  use_device(c);
  uint64_t v[2];
  if (read_vote(c, v)) {
    c->result = gcol_dist_status_of_severity((int)v[0]);
    if (c->result != GCOL_SUCCESS && c->local == GCOL_SUCCESS)
      gcol_fail(c->result, "another rank failed this call (%s; its own message says why)",
                gcol_status_string(c->result));
    if (c->kind == DIST_SIZE && c->h_out) *c->h_out = (size_t)v[1];
  } else {
    c->result = c->local != GCOL_SUCCESS ? c->local : GCOL_ERROR_CUDA;
  }
  s_waits_for_cs(c); /* buffers go back on s once cs is done with them */
  const gcol_allocator_t *a = &m->cfg.allocator;
  gcol_device_free(a, c->slots, c->slots_bytes, c->s);
  gcol_device_free(a, c->block, c->block_bytes, c->s);
  c->slots = c->block = NULL;
  c->d_counts = NULL; /* the map's: freed with it */
  free(c->plan);
  c->plan = NULL;
}
