/* The distributed map's object and its calls, shared by the public entry
 * points (dist_map.c), the steps of a call (dist_call.c) and the executor
 * that runs calls alone or as a group in lockstep (dist_group.c). */
#ifndef GCOL_SRC_DIST_DIST_INTERNAL_H
#define GCOL_SRC_DIST_DIST_INTERNAL_H

#include "gcol/gcol_nccl.h"
#include "dist/dist_plan.h"

#define GCOL_DIST_MAP_MAGIC 0x44646367u /* a live sharded map; 0 once destroyed */

/* Receive slots of the round pipeline: round k lands in slot k % DIST_SLOTS,
 * and transfers run DIST_SLOTS - 1 rounds ahead of the shard work. */
#define DIST_SLOTS 3

struct gcol_dist_map {
  uint32_t magic;
  ncclComm_t comm;
  int rank, nranks, device;
  gcol_map_config_t cfg;
  size_t key_bytes, value_bytes;
  gcol_map_t *shard;          /* NULL until create succeeded on every rank */
  cudaStream_t comm_stream;   /* every NCCL call of this rank's shard */
  cudaEvent_t ev_fwd[DIST_SLOTS], ev_op[DIST_SLOTS], ev_sync; /* the round pipeline (dist_call.c) */
  uint64_t *h_words;          /* pinned: send counts, receive counts (nranks each), 2 vote words */
  uint64_t *d_words;          /* device: counts, cursor, votes, fingerprints (dist_call.c) */
  size_t words_bytes;
  int words_from_cuda;        /* d_words came from cudaMalloc (the allocator refused) */
};

typedef enum {
  DIST_CREATE,
  DIST_INSERT,
  DIST_ASSIGN,
  DIST_APPLY,
  DIST_FIND,
  DIST_CONTAINS,
  DIST_ERASE,
  DIST_SIZE,
  DIST_RETRIEVE
} dist_kind_t;

/* What a kind of call moves: keys (insert .. erase), values with them
 * (the insert family), answers back (find, contains). */
static inline int dist_kind_keyed(dist_kind_t k) { return k >= DIST_INSERT && k <= DIST_ERASE; }
static inline int dist_kind_carries_values(dist_kind_t k) {
  return k == DIST_INSERT || k == DIST_ASSIGN || k == DIST_APPLY;
}
static inline int dist_kind_answers(dist_kind_t k) { return k == DIST_FIND || k == DIST_CONTAINS; }

/* One rank's part of one collective call: its arguments, then the state the
 * steps pass along. */
typedef struct {
  dist_kind_t kind;
  gcol_dist_map_t *m;
  gcol_map_config_t cfg; /* DIST_CREATE */
  const void *keys, *values;
  size_t n;
  gcol_op_t op;
  void *out, *out_values;  /* find / contains answers; retrieve's keys and values */
  size_t *h_out;           /* size, retrieve's count */
  cudaStream_t s;

  gcol_status_t local;     /* the first failure on this rank */
  gcol_status_t result;    /* the collective status */
  /* device buffers of a keyed call (one allocation, freed at the end) */
  void *block;
  size_t block_bytes;
  uint64_t *d_counts;      /* the map's d_words: send counts, receive counts, cursor, severity / size words */
  void *send_keys, *send_values, *back; /* the batch grouped by owner; answers back */
  uint32_t *origin;        /* find/contains: the batch position of each grouped key */
  void *slot_keys[DIST_SLOTS], *slot_values[DIST_SLOTS], *slot_out[DIST_SLOTS]; /* receive slots, answers */
  void *slots;             /* the receive slots' allocation */
  size_t slots_bytes;
  uint64_t *plan;          /* host: send starts, receive starts (nranks + 1 each), then
                              piece and offset of each side for one round (4 * nranks) */
  size_t q, rounds;
  size_t self;             /* keys this rank owns itself (never sent) */
  int skip;                /* a rank failed before any pair moved: no rounds */
  int nccl_broken;         /* NCCL failed here: no further NCCL calls */
  gcol_dist_fingerprint_t fingerprint;
  uint64_t vote[2];        /* severity, size */
  gcol_dist_map_t **map_out; /* DIST_CREATE: cleared when create fails */
} dist_call_t;

/* Steps of a call, in the order the executor runs them. Steps marked
 * [nccl] only enqueue NCCL work and run between ncclGroupStart/End. */
void dist_step_prepare(dist_call_t *c);      /* check, allocate, group the batch by owner */
void dist_step_exchange(dist_call_t *c);     /* [nccl] counts, or create's fingerprints */
void dist_step_plan(dist_call_t *c);         /* sync; rounds; create the shard; size; retrieve */
void dist_step_ready(dist_call_t *c);        /* [nccl] max severity so far, before any pairs move */
int dist_step_check_ready(dist_call_t *c);   /* sync; 1 if every rank may go on */
void dist_step_forward(dist_call_t *c, size_t k); /* [nccl] round k's keys (and values) */
void dist_step_forwarded(dist_call_t *c, size_t k); /* mark round k's arrival (after the group) */
void dist_step_apply_self(dist_call_t *c);   /* this rank's own keys, while round 0 travels */
void dist_step_apply(dist_call_t *c, size_t k);   /* round k's shard operation */
void dist_step_answer(dist_call_t *c, size_t k);  /* [nccl] round k's answers back */
void dist_step_answered(dist_call_t *c, size_t k); /* round k's answers into batch order (after the group) */
void dist_step_finish(dist_call_t *c);       /* wait for the answers; shard status */
void dist_step_vote(dist_call_t *c);         /* [nccl] collective status (and size) */
void dist_step_release(dist_call_t *c);      /* sync; outputs; free */

/* Run calls (one per rank of this process) to the end, in lockstep. */
gcol_status_t dist_execute(dist_call_t *calls, int n);

/* Groups (dist_group.c): whether one is open on this thread; queue a copy of
 * a call (at most one per map). dist_call_done (dist_map.c) finishes a call
 * after it ran: a failed create frees its map and clears the user's pointer. */
int dist_group_open(void);
gcol_status_t dist_group_add(const dist_call_t *c);
void dist_call_done(dist_call_t *c);

/* Record an NCCL failure (gcol_dist_last_nccl_error) as a status. */
gcol_status_t dist_from_nccl(ncclResult_t r);

#endif
