/*
 * gcol — GPU concurrent data structures for CUDA, with a C11 API.
 *
 * Conventions that hold for every call in this header:
 *  - Every function returns a gcol_status_t (destroy functions return void).
 *  - Pointers named d_* are device pointers; h_* are host pointers.
 *  - The stream is always the last parameter. Work is ordered on it and the
 *    host is not synchronized, except where a call says "synchronizes".
 *  - Argument errors (GCOL_ERROR_INVALID_ARGUMENT) are detected on the host
 *    before any device work, and before GCOL_ERROR_NO_DEVICE is reported.
 *  - A device-side failure that a call cannot return at once (a full map, a
 *    reserved key in the input) is latched in the container and returned by
 *    the next synchronizing call on it (gcol_map_status, _size, _retrieve_all).
 *  - No call leaves a container half-changed on a host-side error.
 */
#ifndef GCOL_GCOL_H
#define GCOL_GCOL_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h> /* cudaStream_t; a C header */

#ifdef __cplusplus
extern "C" {
#endif

#define GCOL_VERSION_MAJOR 0
#define GCOL_VERSION_MINOR 1
#define GCOL_VERSION_PATCH 0

/* ------------------------------------------------------------------------ */
/* Status                                                                   */
/* ------------------------------------------------------------------------ */
typedef enum {
  GCOL_SUCCESS = 0,
  GCOL_ERROR_INVALID_ARGUMENT, /* null pointer, bad config, unsupported type pair */
  GCOL_ERROR_OUT_OF_MEMORY,    /* device allocation failed; the container is unchanged */
  GCOL_ERROR_NO_DEVICE,        /* no usable CUDA device or driver */
  GCOL_ERROR_CUDA,             /* another CUDA error; gcol_last_cuda_error() names it */
  GCOL_ERROR_FULL,             /* a fixed-capacity container could not take every key */
  GCOL_ERROR_RESERVED_KEY      /* input held an empty/erased sentinel key */
} gcol_status_t;

/* A static, human-readable name for a status ("GCOL_ERROR_FULL: ..."). Never NULL. */
const char *gcol_status_string(gcol_status_t s);

/* The cudaError_t (as int) behind the most recent GCOL_ERROR_CUDA or
 * GCOL_ERROR_NO_DEVICE returned on this host thread; 0 if none. */
int gcol_last_cuda_error(void);

/* Element types. Keys may be 32- or 64-bit integers; values any of these. */
typedef enum { GCOL_U32, GCOL_U64, GCOL_I32, GCOL_I64, GCOL_F32, GCOL_F64 } gcol_type_t;

/* Size in bytes of one element of type t (4 or 8); 0 for an unknown type. */
size_t gcol_type_size(gcol_type_t t);

/* Binary operators for insert_or_apply (and the reductions). */
typedef enum { GCOL_OP_ADD, GCOL_OP_MIN, GCOL_OP_MAX } gcol_op_t;

/* ------------------------------------------------------------------------ */
/* Hash map                                                                 */
/* ------------------------------------------------------------------------ */
/* Open addressing over buckets of slots, probed cooperatively by a tile of
 * threads (double hashing over a prime number of buckets). Keys are compared
 * as bits: i64 and u64 keys behave the same; -1 and -2 are the default
 * sentinels of signed keys. Values are stored as bits and only
 * insert_or_apply interprets them (with value_type's arithmetic). */
typedef struct gcol_map gcol_map_t;

typedef struct {
  gcol_type_t key_type;    /* GCOL_U32, GCOL_I32, GCOL_U64 or GCOL_I64 */
  gcol_type_t value_type;  /* any gcol_type_t */
  size_t capacity;         /* lower bound on slots (>= 1); rounded up to a whole,
                              prime number of buckets. gcol_map_capacity tells. */
  double max_load_factor;  /* in (0, 1]. A fixed map accepts keys up to 100% of
                              its slots whatever this says; values past 1.0 are
                              refused. Default 0.8. */
  int growable;            /* 0: fixed capacity. 1: grows (not yet supported:
                              GCOL_ERROR_INVALID_ARGUMENT). */
  uint64_t empty_key;      /* sentinel of a never-used slot. Default: all ones of
                              the key width (0xFFFFFFFF for 32-bit keys). */
  uint64_t erased_key;     /* sentinel of an erased slot (tombstone). Default: all
                              ones minus one of the key width. */
  uint64_t empty_value;    /* what find writes for an absent key. Default: all
                              ones of the value width. Sentinels must fit in the
                              width of their type, and empty_key != erased_key. */
  uint64_t seed;           /* hash seed */
} gcol_map_config_t;

/* The defaults above for a key/value type pair. */
gcol_map_config_t gcol_map_config_default(gcol_type_t key, gcol_type_t value);

/* Create a map; *map is set to NULL on failure. The slots are allocated with
 * cudaMallocAsync and initialized on stream s (no host synchronization). */
gcol_status_t gcol_map_create(gcol_map_t **map, const gcol_map_config_t *cfg, cudaStream_t s);

/* Free the map. Frees on the stream of the last call made on the map, so
 * pending work finishes first. NULL is a no-op. */
void gcol_map_destroy(gcol_map_t *map);

/* Insert n pairs; a key already present keeps its value (the first wins).
 * Duplicates inside one batch: exactly one is stored. d_num_inserted (device,
 * may be NULL) receives how many keys this call added. Keys equal to a
 * sentinel are skipped and GCOL_ERROR_RESERVED_KEY is latched; keys that find
 * no free slot are skipped and GCOL_ERROR_FULL is latched. n == 0: no-op. */
gcol_status_t gcol_map_insert(gcol_map_t *m, const void *d_keys, const void *d_values, size_t n,
                              size_t *d_num_inserted, cudaStream_t s);

/* Like insert, but a key already present takes the new value. With duplicate
 * keys in one batch one of their values (unspecified which) is stored. */
gcol_status_t gcol_map_insert_or_assign(gcol_map_t *m, const void *d_keys, const void *d_values,
                                        size_t n, cudaStream_t s);

/* Insert like gcol_map_insert and write, per input i, the value stored for
 * key i after the call (d_values_out) and whether input i inserted it
 * (d_inserted_out[i] = 1; may be NULL). Exactly one input per new key gets 1.
 * Skipped (reserved or not-fitting) inputs get empty_value and 0. */
gcol_status_t gcol_map_insert_and_find(gcol_map_t *m, const void *d_keys, const void *d_values,
                                       size_t n, void *d_values_out, uint8_t *d_inserted_out,
                                       cudaStream_t s);

/* Reduce by key: an absent key is stored with its value; a present key's value
 * becomes op(stored, value) atomically, for every occurrence in the batch.
 * Integer ADD wraps; MIN/MAX compare as value_type (signed, unsigned or float). */
gcol_status_t gcol_map_insert_or_apply(gcol_map_t *m, const void *d_keys, const void *d_values,
                                       size_t n, gcol_op_t op, cudaStream_t s);

/* d_values_out[i] = value of d_keys[i], or empty_value where absent. */
gcol_status_t gcol_map_find(const gcol_map_t *m, const void *d_keys, size_t n, void *d_values_out,
                            cudaStream_t s);

/* d_found_out[i] = 1 if d_keys[i] is present, else 0. */
gcol_status_t gcol_map_contains(const gcol_map_t *m, const void *d_keys, size_t n,
                                uint8_t *d_found_out, cudaStream_t s);

/* Erase keys (their slots become tombstones that later inserts reuse).
 * d_num_erased (device, may be NULL) receives how many keys this call removed. */
gcol_status_t gcol_map_erase(gcol_map_t *m, const void *d_keys, size_t n, size_t *d_num_erased,
                             cudaStream_t s);

/* Write every stored pair densely, in unspecified order, to d_keys_out and
 * d_values_out (each with room for gcol_map_size() elements), and the count to
 * *h_count_out. Synchronizes; returns a latched error after writing. */
gcol_status_t gcol_map_retrieve_all(const gcol_map_t *m, void *d_keys_out, void *d_values_out,
                                    size_t *h_count_out, cudaStream_t s);

/* Number of stored keys. Synchronizes; returns a latched error after writing. */
gcol_status_t gcol_map_size(const gcol_map_t *m, size_t *h_size_out, cudaStream_t s);

/* Number of slots (host-side, no device work). */
gcol_status_t gcol_map_capacity(const gcol_map_t *m, size_t *h_capacity_out);

/* Remove every pair (and tombstone) and clear latched errors; asynchronous. */
gcol_status_t gcol_map_clear(gcol_map_t *m, cudaStream_t s);

/* Make room for capacity keys. A fixed map only checks: GCOL_SUCCESS if it
 * already has that many slots, else GCOL_ERROR_FULL. */
gcol_status_t gcol_map_reserve(gcol_map_t *m, size_t capacity, cudaStream_t s);

/* Synchronizes s; returns and clears the latched device-side error
 * (GCOL_ERROR_FULL before GCOL_ERROR_RESERVED_KEY), or GCOL_SUCCESS. */
gcol_status_t gcol_map_status(gcol_map_t *m, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif /* GCOL_GCOL_H */
