/* Host-side planning of a distributed call: who owns a key, how a batch is
 * cut into rounds, and the config fingerprint ranks compare at create. Pure
 * C, no CUDA calls: tested on machines without a GPU. */
#ifndef GCOL_SRC_DIST_DIST_PLAN_H
#define GCOL_SRC_DIST_DIST_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "gcol/gcol.h"

#ifdef __CUDACC__
#define GCOL_DIST_HD __host__ __device__ __forceinline__
#else
#define GCOL_DIST_HD static inline
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The partition hash: a splitmix64-style finalizer with constants unrelated
 * to the shards' murmur3 finalizer (include/gcol/device/hash.cuh), so the
 * keys one rank owns still spread over all of its shard's buckets. The owner
 * is the high 32 bits scaled to [0, nranks) (no division). */
GCOL_DIST_HD uint32_t gcol_dist_owner_of(uint64_t key, uint32_t nranks) {
  uint64_t x = key + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return (uint32_t)(((x >> 32) * (uint64_t)nranks) >> 32);
}

/* Pairs per peer per round: the heuristic (gcol_dist_round_pairs), or the
 * value a test set with gcol_dist_set_round_pairs (0 restores it). */
size_t gcol_dist_round_pairs_in_use(int nranks);
void gcol_dist_set_round_pairs(size_t pairs_per_peer);

/* Tests: 1 makes a rank's own keys travel through NCCL and the rounds like
 * every other rank's (so one GPU runs the whole pipeline); 0 (default)
 * applies them in place. */
void gcol_dist_set_send_own_keys(int on);
int gcol_dist_send_own_keys(void);

/* Rounds that `count` pairs between one pair of ranks take: ceil(count / q). */
size_t gcol_dist_pieces(uint64_t count, size_t q);

/* Rounds this rank takes part in: the most pieces it sends to or receives
 * from any peer (send_counts[p], recv_counts[p] for p < nranks). */
size_t gcol_dist_num_rounds(const uint64_t *send_counts, const uint64_t *recv_counts, int nranks,
                            size_t q);

/* Round k of a side whose per-peer totals are counts[p]: the piece of peer p
 * is piece[p] pairs starting at counts-side offset k*q inside p's segment, and
 * lands at offset[p] of the round's contiguous buffer (peers in rank order).
 * Returns the round's total. */
size_t gcol_dist_round_layout(const uint64_t *counts, int nranks, size_t q, size_t k,
                              size_t *piece, size_t *offset);

/* Exclusive prefix sums of counts[0..n) into starts (starts[n] = total). */
void gcol_dist_exclusive_sum(const uint64_t *counts, int n, uint64_t *starts);

/* What ranks must agree on at create: the config's value fields (not its
 * allocator, which is per process), whether this rank found it valid and the
 * library version. Plain words so that ranks compare bytes. */
typedef struct {
  uint64_t words[12];
} gcol_dist_fingerprint_t;
gcol_dist_fingerprint_t gcol_dist_fingerprint(const gcol_map_config_t *cfg, int valid);

/* GCOL_SUCCESS when all nranks fingerprints (as gathered, rank order) are
 * valid and equal, else GCOL_ERROR_INVALID_ARGUMENT. */
gcol_status_t gcol_dist_check_fingerprints(const gcol_dist_fingerprint_t *all, int nranks);

/* The status every rank returns, from every rank's local one: the one
 * of highest rank in this order, so ranks agree whatever the gather order:
 * SUCCESS < FULL < RESERVED_KEY < OUT_OF_MEMORY < CUDA < NO_DEVICE <
 * INVALID_ARGUMENT. severity() maps a status to that order (a small int to
 * reduce with max), status_of_severity() back. */
int gcol_dist_severity(gcol_status_t s);
gcol_status_t gcol_dist_status_of_severity(int severity);

#ifdef __cplusplus
}
#endif
#endif
