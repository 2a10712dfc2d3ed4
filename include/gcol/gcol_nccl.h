/* gcol_nccl — a hash map sharded over GPUs, keys moved with NCCL.
 *
 * A separate library (libgcol_nccl) on top of libgcol and NCCL; pure C11.
 *
 * Model
 *  - One shard per rank of an NCCL communicator the caller made (one GPU per
 *    rank: MPI, torchrun or Slurm launch one process per GPU and build the
 *    communicator with ncclCommInitRank; or one process drives several GPUs
 *    with ncclCommInitAll, see "Several GPUs in one process" below). Every
 *    shard is a gcol map built from the same gcol_map_config_t, fixed or
 *    growable; config->capacity is the capacity of EACH shard.
 *  - Every key has one owner rank, chosen by a partition hash that is
 *    independent of the hash a shard uses inside its table.
 *  - The bulk operations are collective: every rank of the communicator makes
 *    the same call, in the same order, each with its own batch (sizes may
 *    differ, 0 included). A call routes each key to its owner (counts first,
 *    then the pairs, with ncclSend/ncclRecv in one group), applies the
 *    operation there, and sends find/contains answers back to the asking rank
 *    in the order of its batch.
 *  - Large batches move in rounds (see gcol_dist_round_pairs): rounds k+1
 *    and k+2 travel while the shard works on round k, on a stream of the
 *    device's highest priority (so that NCCL's blocks get SMs ahead of the
 *    shard's kernels). A rank's own keys never travel; their find/contains
 *    answers are written while the other ranks' keys are still arriving.
 *  - Scratch: a call takes about n x (key + value + 4) bytes for its batch
 *    of n, plus three receive buffers, from the config's allocator and frees
 *    them before it returns (a communicator of one rank takes none: its
 *    calls are the shard's gcol_map calls on the batch). The map itself keeps a few words per rank
 *    (counts, votes) from create on, so that a call whose allocator refuses
 *    still takes part in every collective step and every rank returns
 *    GCOL_ERROR_OUT_OF_MEMORY. With the default (cudaMallocAsync), keep the
 *    device's default pool from releasing memory at every synchronization
 *    (cudaMemPoolAttrReleaseThreshold), or each call maps it anew.
 *  - Calls are blocking: they synchronize stream s (to learn how many keys
 *    each rank receives) and return when the operation is complete on every
 *    shard. Their status is collective: a failure on any rank (a full fixed
 *    shard, a reserved key, out of memory, a CUDA or NCCL error) is returned
 *    by every rank for that call. Work on the other shards is not undone:
 *    a pair is either stored whole or not at all, and which failure occurred
 *    is never hidden.
 *  - Argument errors: a NULL map, config or communicator returns
 *    GCOL_ERROR_INVALID_ARGUMENT at once, without taking part: without the
 *    map or the communicator there is nothing to take part with, so the
 *    other ranks wait in NCCL, as for any collective one rank skips. Check
 *    those three before calling. Any other bad argument (a NULL, misaligned
 *    or host pointer with n > 0, memory of another device, a batch of 2^32
 *    keys or more, an unknown op, a NULL output count) cannot be seen by the
 *    other ranks, so the rank takes part with an empty batch and every rank
 *    returns GCOL_ERROR_INVALID_ARGUMENT for the call; the next call works.
 *  - What cannot be voted: an NCCL error (the communicator is broken: abort
 *    it on every rank with ncclCommAbort) and a CUDA error that breaks a
 *    device's context; the other ranks may then wait in NCCL.
 *  - A device-side failure (full, reserved key) is reported by the call
 *    that met it and then cleared, as gcol_map_status does.
 *  - At most GCOL_DIST_MAX_RANKS (4096) ranks.
 *  - GCOL_DIST_PROFILE=1 in the environment: every call prints to stderr
 *    where its first local rank's time went (a diagnostic, like NCCL_DEBUG).
 *  - A batch holds fewer than 2^32 keys per rank (positions travel as 32-bit
 *    indices); a larger one is an argument error. On failure, find and
 *    contains outputs are unspecified.
 *  - The CUDA device current on the calling thread does not matter: every
 *    gcol_dist_* call works on the device of its communicator and restores
 *    the caller's. (gcol_map_* calls on gcol_dist_map_shard need that
 *    device current, as for any gcol map.)
 *  - A call copies its config and scalars when it is made; inside a group,
 *    its buffers and output pointers must stay valid until
 *    gcol_dist_group_end.
 *
 * Several GPUs in one process
 *    ncclCommInitAll(comms, ndev, devs);
 *    gcol_dist_group_start();
 *    for (i = 0; i < ndev; ++i) gcol_dist_map_create(&maps[i], &cfg, comms[i], streams[i]);
 *    st = gcol_dist_group_end();
 *  Between gcol_dist_group_start and gcol_dist_group_end (on one host thread)
 *  the calls only check their arguments and queue; gcol_dist_group_end runs
 *  the queued calls together, step by step, inside ncclGroupStart/End, and
 *  returns the first failing status (or GCOL_SUCCESS). A queued call
 *  returns GCOL_SUCCESS once its arguments pass (or an immediate error, see
 *  "Argument errors"); output pointers (h_size_out, ...) are written by
 *  gcol_dist_group_end. A group holds at most one call per map: a second
 *  one is refused (GCOL_ERROR_INVALID_ARGUMENT) and not queued. A queued
 *  create sets *map at once (so later calls of the group can name it) and
 *  gcol_dist_group_end sets it back to NULL if the create failed. */
#ifndef GCOL_GCOL_NCCL_H
#define GCOL_GCOL_NCCL_H

#include <nccl.h>

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gcol_dist_map gcol_dist_map_t;

/* Most ranks a communicator may have (the owner grouping keeps one counter
 * per rank in shared memory). */
#define GCOL_DIST_MAX_RANKS 4096

/* Collective. Create this rank's shard on the communicator's device. Every
 * rank checks its config; the configs' type, capacity, load factor, growth,
 * sentinel and seed fields are then compared across ranks (collectively), and
 * if any rank's is invalid or differs, every rank returns
 * GCOL_ERROR_INVALID_ARGUMENT with *map NULL. (A NULL comm is refused
 * locally; the other ranks then wait in NCCL for this one, as with any NCCL
 * collective that one rank skips.) */
GCOL_API gcol_status_t gcol_dist_map_create(gcol_dist_map_t **map, const gcol_map_config_t *cfg,
                                   ncclComm_t comm, cudaStream_t s);

/* Free this rank's shard (local, not collective). NULL is a no-op. */
GCOL_API void gcol_dist_map_destroy(gcol_dist_map_t *map);

/* Collective bulk operations; each rank's batch is in its own device memory.
 * Semantics per key are those of the gcol_map call of the same name (the
 * first insert of a key wins, also across ranks; insert_or_assign stores one
 * of the values; insert_or_apply applies op for every occurrence). */
GCOL_API gcol_status_t gcol_dist_map_insert(gcol_dist_map_t *m, const void *d_keys, const void *d_values,
                                   size_t n, cudaStream_t s);
GCOL_API gcol_status_t gcol_dist_map_insert_or_assign(gcol_dist_map_t *m, const void *d_keys,
                                             const void *d_values, size_t n, cudaStream_t s);
GCOL_API gcol_status_t gcol_dist_map_insert_or_apply(gcol_dist_map_t *m, const void *d_keys,
                                            const void *d_values, size_t n, gcol_op_t op,
                                            cudaStream_t s);
/* d_values_out[i] = value of d_keys[i] on its owner shard, or empty_value. */
GCOL_API gcol_status_t gcol_dist_map_find(gcol_dist_map_t *m, const void *d_keys, size_t n,
                                 void *d_values_out, cudaStream_t s);
/* d_found_out[i] = 1 if d_keys[i] is present on its owner shard, else 0. */
GCOL_API gcol_status_t gcol_dist_map_contains(gcol_dist_map_t *m, const void *d_keys, size_t n,
                                     uint8_t *d_found_out, cudaStream_t s);
GCOL_API gcol_status_t gcol_dist_map_erase(gcol_dist_map_t *m, const void *d_keys, size_t n,
                                  cudaStream_t s);

/* Collective: the number of keys stored on all shards together. */
GCOL_API gcol_status_t gcol_dist_map_size(gcol_dist_map_t *m, size_t *h_size_out, cudaStream_t s);

/* Collective (every rank calls it): write this rank's shard's pairs to
 * d_keys_out / d_values_out (room for gcol_map_size(gcol_dist_map_shard(m))
 * pairs; non-NULL even for an empty shard) and their count to *h_count_out; the union over the ranks is the
 * whole map. The status is collective as for the other calls. */
GCOL_API gcol_status_t gcol_dist_map_retrieve_all(gcol_dist_map_t *m, void *d_keys_out, void *d_values_out,
                                         size_t *h_count_out, cudaStream_t s);

/* This rank's shard, for local reads (gcol_map_size, gcol_map_find of keys
 * known to be owned here, device views). Changing it directly breaks the
 * ownership rule; don't. */
GCOL_API gcol_map_t *gcol_dist_map_shard(gcol_dist_map_t *m);

/* The rank that owns key (its bits, zero-extended to 64) in a communicator
 * of nranks ranks; the same function every call uses. -1 if nranks < 1. */
GCOL_API int gcol_dist_owner(uint64_t key, int nranks);

/* Pairs per peer per round for a communicator of nranks ranks (the chunking
 * heuristic): max(2^18, 2^24 / nranks), so that one round receives at most
 * about 2^24 pairs on a rank (at ~10 G pairs/s about 1.6 ms of shard work,
 * far above NCCL's per-round latency of tens of microseconds) while a large
 * batch still splits into enough rounds to overlap transfer and insertion,
 * and the three receive buffers stay near 3 x 2^24 pairs. */
GCOL_API size_t gcol_dist_round_pairs(int nranks);

/* The ncclResult_t (as int) behind the most recent failure that NCCL
 * reported on this host thread (such failures return GCOL_ERROR_NCCL, or
 * GCOL_ERROR_INVALID_ARGUMENT for NCCL's invalid argument or usage); 0 if none. */
GCOL_API int gcol_dist_last_nccl_error(void);

/* Why the most recent gcol_dist_* call on this host thread that returned an
 * error failed: the call, the argument or rule, the NCCL or CUDA error text,
 * or the shard's own gcol message ("rank 1's shard: gcol_map_insert: ...").
 * A rank whose own part was fine but another rank's failed says so. The
 * same rules as gcol_last_error_message (thread-local, set only by failing
 * calls, never NULL); libgcol's own calls keep reporting through
 * gcol_last_error_message. */
GCOL_API const char *gcol_dist_last_error_message(void);

/* Queue the calls that follow on this host thread until gcol_dist_group_end. */
GCOL_API gcol_status_t gcol_dist_group_start(void);
/* Run the queued calls together; see "Several GPUs in one process". */
GCOL_API gcol_status_t gcol_dist_group_end(void);

#ifdef __cplusplus
}
#endif
#endif
