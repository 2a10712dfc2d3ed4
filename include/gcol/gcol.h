/*
 * gcol — GPU concurrent data structures for CUDA, with a C11 API.
 *
 * Conventions that hold for every call in this header:
 *  - Every function returns a gcol_status_t (destroy functions return void).
 *    On an error, gcol_last_error_message() says why (call, argument, rule).
 *  - The stream is always the last parameter. Work is ordered on it and the
 *    host is not synchronized, except where a call says "synchronizes".
 *  - Pointers named h_* are host memory. Pointers named d_* (the "device
 *    pointer rule"):
 *      * must be memory the kernels of the current device can read and
 *        write: device memory of that device (cudaMalloc, cudaMallocAsync,
 *        any pool or framework allocator), managed memory, or pinned host
 *        memory mapped for the device (cudaHostAlloc with
 *        cudaHostAllocMapped / cudaHostRegisterMapped; on a UVA system the
 *        host pointer itself works). Pageable host memory is accepted only
 *        where the device can read it (HMM/ATS systems:
 *        cudaDevAttrPageableMemoryAccess); device memory of another GPU is
 *        refused;
 *      * must be aligned to their element size (4 for 32-bit keys, values,
 *        floats and ids; 8 for 64-bit ones and size_t counts; 1 for flag
 *        bytes; the item size for compaction);
 *      * may be NULL only where a call says so, or where the call reads or
 *        writes no element through them (n == 0).
 *    A pointer that breaks the rule is refused with
 *    GCOL_ERROR_INVALID_ARGUMENT before any device work, so no input can
 *    fault the caller's CUDA context. The memory-kind test asks the driver
 *    (cudaPointerGetAttributes, about 0.1 us per pointer; bench_call_overhead
 *    measures it) and needs a device, so it comes after GCOL_ERROR_NO_DEVICE;
 *    NULL and alignment are checked first. Only the first element's address
 *    is checked: a buffer shorter than the call needs is the caller's bug.
 *  - Argument errors (GCOL_ERROR_INVALID_ARGUMENT) are detected on the host
 *    before any device work, and before GCOL_ERROR_NO_DEVICE is reported.
 *    A refused call changes nothing.
 *  - Handles: a NULL or destroyed handle is refused (where detectable: the
 *    handle's memory is freed by destroy, so a reused pointer is caught
 *    only while that memory is not reused). Calls that take a const handle
 *    (lookups, queries) do not change it; calls on one handle must not
 *    overlap from several host threads unless both take const handles.
 *  - What may run at once (host threads and streams; tests/test_threads_gpu.c
 *    checks it):
 *      * any calls on different handles, from any threads and streams: the
 *        library keeps no mutable state shared between handles (messages,
 *        the CUDA error and the device check are per thread; policy tables
 *        are constant; the one lazily looked-up driver entry point is
 *        atomic);
 *      * calls that take a const handle (find, contains, count, retrieve,
 *        estimate, export, the host-side queries) on one handle from several
 *        threads and streams, while no call that takes it non-const runs or
 *        has unfinished work on any stream. Ordering a writer after lookups
 *        queued on other streams is the caller's (events or one stream);
 *      * the device work of gcol_bloom_add calls on one filter queued on
 *        several streams (atomic OR), the calls made from one host thread
 *        (each records its stream in the handle).
 *    Nothing else overlaps on one handle. A cfg.allocator used from several
 *    threads is called from each of them (string map lookups take their
 *    temporaries from it too), so it must be thread-safe itself.
 *  - A device-side failure that a call cannot return at once (a full map, a
 *    reserved key in the input) is latched in the container and returned
 *    (and cleared) by the next synchronizing call on it: _status, _size,
 *    _retrieve_all, which therefore take non-const handles.
 *  - No call leaves a container half-changed on a host-side error.
 *
 * ABI: version 1.x keeps binary compatibility (SONAME libgcol.so.1): calls
 * and types are only added, config structs only grow at their end (see
 * GCOL_CONFIG_HEADER), enums only gain values. Anything else bumps the
 * major version and the SONAME. Only the functions declared here with
 * GCOL_API are exported.
 */
#ifndef GCOL_GCOL_H
#define GCOL_GCOL_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h> /* cudaStream_t; a C header */

#ifdef __cplusplus
extern "C" {
#endif

#define GCOL_VERSION_MAJOR 1
#define GCOL_VERSION_MINOR 4
#define GCOL_VERSION_PATCH 0

/* Only what this header declares is exported from libgcol.so; everything
 * else in the library has hidden visibility. */
#if defined(__GNUC__) && __GNUC__ >= 4
#define GCOL_API __attribute__((visibility("default")))
#else
#define GCOL_API
#endif

/* The version of the library actually loaded, as
 * GCOL_VERSION_MAJOR * 10000 + GCOL_VERSION_MINOR * 100 + GCOL_VERSION_PATCH
 * (1.0.0 is 10000). Compare it with the macros above to catch a program built
 * against one header and run with another libgcol.so. Needs no device. */
GCOL_API unsigned int gcol_version(void);

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
  GCOL_ERROR_RESERVED_KEY,     /* input held an empty/erased sentinel key */
  GCOL_ERROR_NCCL              /* libgcol_nccl: NCCL failed (gcol_dist_last_nccl_error) */
} gcol_status_t;

/* A static, human-readable name for a status ("GCOL_ERROR_FULL: ..."). Never NULL. */
GCOL_API const char *gcol_status_string(gcol_status_t s);

/* Why the most recent call on this host thread that returned an error
 * failed: the call, the argument and the rule it broke, and the CUDA or NCCL
 * error text where one is behind it, e.g.
 *   "gcol_map_insert: d_keys 0x7f3a00000004 is not 8-byte aligned (GCOL_U64 keys)".
 * Thread-local, like errno: set by every call that returns a status other
 * than GCOL_SUCCESS, left as it was by calls that succeed (so read it right
 * after the failing call). Never NULL; "" before the first error. Valid
 * until the next gcol call on this thread. Needs no device. */
GCOL_API const char *gcol_last_error_message(void);

/* The cudaError_t (as int) behind the most recent GCOL_ERROR_CUDA or
 * GCOL_ERROR_NO_DEVICE returned on this host thread; 0 if none. */
GCOL_API int gcol_last_cuda_error(void);

/* Element types. Keys may be 32- or 64-bit integers or GCOL_U128 (below);
 * values any of these but GCOL_U128. GCOL_U128 is appended last: the other
 * values keep their numbers. */
typedef enum { GCOL_U32, GCOL_U64, GCOL_I32, GCOL_I64, GCOL_F32, GCOL_F64, GCOL_U128 } gcol_type_t;

/* Size in bytes of one element of type t (4, 8; 16 for GCOL_U128); 0 for an unknown type. */
GCOL_API size_t gcol_type_size(gcol_type_t t);

/* 16-byte keys: GCOL_U128 (issue 25).
 * A key type only, for the map, set, multimap and multiset (fixed and
 * growable where the container grows), every operation they have, and their
 * device views (gcol::u128 in gcol/device/map.cuh). A key is two 64-bit
 * words, low word first (little-endian: a C struct {uint64_t lo, hi;} or an
 * unsigned __int128), compared as bits. Key arrays (inputs and outputs) are
 * 16-byte aligned; values stay 4- or 8-byte types.
 * Sentinels: the config's 64-bit empty_key / erased_key in BOTH words. A key
 * (w, w) with w a sentinel is skipped and latches GCOL_ERROR_RESERVED_KEY
 * like any sentinel; (w, x) with x != w is an ordinary key.
 * Slots: keys only (set, multiset) 16 bytes; with a value (map, multimap) 32
 * bytes (key, value word, claim tag): capacity * 32 bytes of device memory.
 * Claims, linearizable per key, no key ever read half-written:
 *  - keys only: one 128-bit CAS on sm_90; before sm_90 the same
 *    compare-and-store under one of 256 spin locks striped over the slot
 *    addresses (in the container's device state);
 *  - with a value: the key is claimed first (128-bit CAS on sm_90; before
 *    sm_90 a 64-bit CAS of the slot's tag word, then one 16-byte store of
 *    the key), then value and a "published" tag are stored together in one
 *    16-byte store; a find, an insert, assign or apply that meets the key
 *    before its value (only possible from concurrent kernels or duplicates
 *    in one batch) waits for the tag, so it never reads a value that has
 *    not landed, whatever the value is (empty_value included).
 * Refused with GCOL_ERROR_INVALID_ARGUMENT and a message: GCOL_U128 as a
 * value type or element type (maps' and multimaps' values, gcol_reduce,
 * gcol_exclusive_scan, gcol_hll_add) and as the sharded map's key type
 * (libgcol_nccl). Bloom filters take 4- and 8-byte keys only. */

/* Binary operators for insert_or_apply (and the reductions). */
typedef enum { GCOL_OP_ADD, GCOL_OP_MIN, GCOL_OP_MAX } gcol_op_t;

/* ------------------------------------------------------------------------ */
/* Hash map                                                                 */
/* ------------------------------------------------------------------------ */
/* Open addressing over buckets of slots, probed cooperatively by a tile of
 * threads or by one thread per key, as the library's policy picks per
 * table (double hashing over a prime number of buckets). Keys are compared
 * as bits: i64 and u64 keys behave the same; -1 and -2 are the default
 * sentinels of signed keys. Values are stored as bits and only
 * insert_or_apply interprets them (with value_type's arithmetic).
 *
 *   gcol_map_config_t cfg = gcol_map_config_default(GCOL_I64, GCOL_F64);
 *   cfg.capacity = 2 * n;                               (load factor 0.5)
 *   gcol_map_t *m;
 *   if (gcol_map_create(&m, &cfg, stream) != GCOL_SUCCESS)
 *     fprintf(stderr, "%s\n", gcol_last_error_message());
 *   gcol_map_insert(m, d_keys, d_values, n, NULL, stream);   asynchronous
 *   gcol_map_find(m, d_queries, q, d_found, stream);         empty_value where absent
 *   gcol_status_t st = gcol_map_status(m, stream);           waits; FULL / RESERVED_KEY
 *   gcol_map_destroy(m);
 *
 * Every call below: m is a live map (NULL or destroyed: INVALID_ARGUMENT);
 * d_keys hold key_type elements (4-, 8- or 16-byte aligned), d_values and
 * d_values_out value_type elements, size_t counts are 8-byte aligned, flag
 * outputs are bytes (the device pointer rule at the top of this header).
 * Errors every call can return besides those it names: INVALID_ARGUMENT
 * (a pointer or the handle), NO_DEVICE, CUDA (a launch failed;
 * gcol_last_cuda_error), and a map made with a growable config
 * OUT_OF_MEMORY from its growth. n == 0 does no device work. */
typedef struct gcol_map gcol_map_t;

/* Device memory for a container, from the user's own allocator (an RMM pool,
 * an arena). alloc returns NULL when it cannot give `bytes` (the container then
 * reports GCOL_ERROR_OUT_OF_MEMORY and stays as it was); memory may be used on
 * stream s as soon as alloc returns. free gets back the same pointer and size,
 * stream-ordered on s. Memory must be aligned to 16 bytes at least (the
 * kernels use 16-byte loads; cudaMallocAsync gives 256). All three fields NULL
 * (the default): cudaMallocAsync / cudaFreeAsync on the call's stream. alloc
 * and free are set together or not at all (else GCOL_ERROR_INVALID_ARGUMENT). A map makes every device
 * allocation through it: its table, its state and the new table of a growth. */
typedef struct {
  void *(*alloc)(void *ctx, size_t bytes, cudaStream_t s);
  void (*free)(void *ctx, void *ptr, size_t bytes, cudaStream_t s);
  void *ctx;
} gcol_allocator_t;

/* Config structs can grow (NCCL's ncclConfig_t pattern). Each begins with
 * GCOL_CONFIG_HEADER: its size, a magic number and the version of the header
 * it was compiled with, set by its _default function: always start from
 * _default and change fields (a struct filled by hand is refused).
 * A later library reads an older, shorter struct and takes the defaults for
 * the fields it lacks; a struct that does not start with the magic, is
 * shorter than the 1.0 struct, longer than the library knows (built against
 * a newer header than the library loaded) or of another major version is
 * refused with GCOL_ERROR_INVALID_ARGUMENT and a message. New fields are
 * only ever appended. */
#define GCOL_CONFIG_MAGIC 0x6c6f6367u /* "gcol" */
#define GCOL_CONFIG_HEADER \
  size_t size;             /* sizeof the struct, as the caller compiled it */ \
  uint32_t magic;          /* GCOL_CONFIG_MAGIC */ \
  uint32_t version;        /* GCOL_VERSION_MAJOR * 10000 + MINOR * 100 + PATCH */

typedef struct {
  GCOL_CONFIG_HEADER
  gcol_type_t key_type;    /* GCOL_U32, GCOL_I32, GCOL_U64, GCOL_I64 or GCOL_U128 */
  gcol_type_t value_type;  /* any gcol_type_t but GCOL_U128 */
  size_t capacity;         /* lower bound on slots (>= 1); rounded up to a whole,
                              prime number of buckets. gcol_map_capacity tells. */
  double max_load_factor;  /* Fixed map: in (0, 1]; it accepts keys up to 100%
                              of its slots whatever this says. Growable map: in
                              [0.1, 0.95]; it grows before an insert would take
                              it past this share of its slots (tombstones
                              count). Others: GCOL_ERROR_INVALID_ARGUMENT.
                              Default 0.8. */
  int growable;            /* 0: fixed capacity. 1: grows as keys arrive (see
                              "Growth" below); capacity is then the initial
                              size. */
  uint64_t empty_key;      /* sentinel of a never-used slot. Default: all ones of
                              the key width (0xFFFFFFFF for 32-bit keys). */
  uint64_t erased_key;     /* sentinel of an erased slot (tombstone). Default: all
                              ones minus one of the key width. */
  uint64_t empty_value;    /* what find writes for an absent key. Default: all
                              ones of the value width. Sentinels must fit in the
                              width of their type, and empty_key != erased_key. */
  uint64_t seed;           /* hash seed */
  gcol_allocator_t allocator; /* zeroed: cudaMallocAsync (see gcol_allocator_t) */
  int growth_factor;       /* growable maps: a growth multiplies the slots by
                              at least this, 2 (default; 0 means 2), 4 or 8.
                              4 rebuilds half as often and keeps the load
                              lower between growths (faster inserts), for up
                              to twice the memory of 2 (bench/RESULTS.md). */
} gcol_map_config_t;

/* The defaults above for a key/value type pair (capacity 1024 slots,
 * max_load_factor 0.8, fixed, sentinels all ones / all ones - 1 / all ones
 * of the width, seed 0x9e3779b97f4a7c15, cudaMallocAsync, growth factor 2),
 * with the config header set. Always start from it. Needs no device. */
GCOL_API gcol_map_config_t gcol_map_config_default(gcol_type_t key, gcol_type_t value);

/* Create a map.
 *   map  host, out: the handle, or NULL on failure (must not be NULL)
 *   cfg  host: a config from gcol_map_config_default (copied; may be freed
 *        after the call)
 *   s    the stream its table is allocated (cfg->allocator) and emptied on;
 *        no host synchronization
 * Errors: INVALID_ARGUMENT (a rule of gcol_map_config_t broken, a config
 * header refused, a capacity no table can address: all before NO_DEVICE),
 * NO_DEVICE, OUT_OF_MEMORY, CUDA. Uses the current device; call the map's
 * functions with that device current. */
GCOL_API gcol_status_t gcol_map_create(gcol_map_t **map, const gcol_map_config_t *cfg, cudaStream_t s);

/* Free the map (NULL, or a handle already destroyed, is a no-op). Memory is
 * freed stream-ordered on the stream of the last call that took a non-const
 * handle (create, the insert family, erase, clear, reserve, retrieve_all,
 * size, status), so that call's work finishes first. Lookups (find,
 * contains) record no stream: work they queued on other streams must be
 * complete, or ordered before that stream, when destroy is called. */
GCOL_API void gcol_map_destroy(gcol_map_t *map);

/* Growth (growable maps). Before an insert-type call (insert,
 * insert_or_assign, insert_and_find, insert_or_apply) of n inputs, the map
 * makes sure its non-empty slots (live keys and tombstones) plus n stay within
 * max_load_factor * slots, counting every input as possibly new. The host
 * keeps an upper bound of the non-empty slots (the exact count of the last
 * check plus n of every insert-type call since); while bound + n fits, the
 * call does not synchronize. Otherwise the call synchronizes s once, right
 * there, to read the exact counts, and if the batch does not fit it rebuilds
 * the table before inserting: into at least growth_factor times the slots and
 * enough for live keys + n, or at the same size when tombstones are most of
 * the load. The rebuild moves every pair and drops the tombstones; old and new
 * table exist together meanwhile (1.5x the new table when doubling, 1.25x
 * with a factor of 4). So near the limit, batches of repeated keys may
 * synchronize on every call. Since 1.2.4 the table the bound says a growth
 * needs is allocated just before that synchronization, so the allocator's
 * work overlaps the GPU's queued work; a guess the exact count refutes is
 * freed, and none is made after a check that found room. Besides
 * these calls only gcol_map_reserve grows a map (without synchronizing);
 * capacity never shrinks (clear keeps it); a growable map never reports
 * GCOL_ERROR_FULL.
 * On GCOL_ERROR_OUT_OF_MEMORY (the allocator failed, or no table of the
 * needed size can be addressed: 2^31 buckets) the call did nothing: the map
 * holds exactly the pairs it held and answers every call. */

/* Insert n pairs; a key already present keeps its value (the first wins).
 * Duplicates inside one batch: exactly one is stored.
 *   d_keys, d_values  device, n keys / n values (NULL only when n == 0)
 *   d_num_inserted    device, one size_t, or NULL: how many keys this call
 *                     added (set to 0 first, also for n == 0)
 * Keys equal to a sentinel are skipped and GCOL_ERROR_RESERVED_KEY is
 * latched; keys that find no free slot are skipped and GCOL_ERROR_FULL is
 * latched (read them with gcol_map_status). Asynchronous, except a growable
 * map's growth check (see "Growth"). */
GCOL_API gcol_status_t gcol_map_insert(gcol_map_t *m, const void *d_keys, const void *d_values, size_t n,
                              size_t *d_num_inserted, cudaStream_t s);

/* Like insert, but a key already present takes the new value. With duplicate
 * keys in one batch one of their values (unspecified which) is stored.
 * d_keys, d_values as for insert; errors and latching as for insert. */
GCOL_API gcol_status_t gcol_map_insert_or_assign(gcol_map_t *m, const void *d_keys, const void *d_values,
                                        size_t n, cudaStream_t s);

/* Insert like gcol_map_insert and write, per input i, the value stored for
 * key i after the call and whether input i inserted it. Exactly one input
 * per new key gets 1. Skipped (reserved or not-fitting) inputs get
 * empty_value and 0.
 *   d_keys, d_values  device, n each, as for insert
 *   d_values_out      device, n values (must not be NULL when n > 0)
 *   d_inserted_out    device, n bytes (1 / 0), or NULL */
GCOL_API gcol_status_t gcol_map_insert_and_find(gcol_map_t *m, const void *d_keys, const void *d_values,
                                       size_t n, void *d_values_out, uint8_t *d_inserted_out,
                                       cudaStream_t s);

/* Reduce by key: an absent key is stored with its value; a present key's value
 * becomes op(stored, value) atomically, for every occurrence in the batch
 * (GCOL_OP_ADD with d_values NULL counts keys). gcol_op_t has one meaning
 * here and in gcol_reduce / gcol_exclusive_scan: integer ADD wraps modulo
 * 2^bits (signed types too); MIN/MAX compare as value_type (signed, unsigned
 * or float); float MIN/MAX ignore a NaN operand (fmin/fmax), so a NaN stored
 * first gives way to the first number applied to it. Float ADD order is
 * unspecified (atomic adds).
 *   d_keys, d_values  device, n each, as for insert; d_values may be NULL
 *                     with GCOL_OP_ADD: every key then adds one (1, or 1.0
 *                     for float values), so the map counts occurrences
 *                     without an array of ones (new in 1.2; MIN/MAX with
 *                     NULL: INVALID_ARGUMENT)
 *   op                GCOL_OP_ADD, GCOL_OP_MIN or GCOL_OP_MAX (else
 *                     INVALID_ARGUMENT)
 * Large batches (since 1.2.1): a batch of 2^22 or more inputs, at least
 * twice the map's slots, into a table larger than the L2 cache (counts
 * with d_values NULL: any table, since 1.2.2), with keys of 4 or 8 bytes,
 * is first reduced per key in shared memory, and the map takes one apply
 * per distinct key. It needs scratch of once or twice the batch's keys and
 * values (twice for tables of more than a few million slots), so it runs only where
 * that is cheap: with cfg.allocator
 * set (a caching pool), or with cudaMallocAsync when the device's current
 * pool keeps that much (cudaMemPoolAttrReleaseThreshold; the default keeps
 * nothing, and mapping the memory every call costs more than grouping
 * saves). When the scratch cannot be had, the call applies the batch as it
 * is. The results are the same either way. */
GCOL_API gcol_status_t gcol_map_insert_or_apply(gcol_map_t *m, const void *d_keys, const void *d_values,
                                       size_t n, gcol_op_t op, cudaStream_t s);

/* d_values_out[i] = value of d_keys[i], or empty_value where absent.
 *   d_keys        device, n keys (NULL only when n == 0)
 *   d_values_out  device, n values
 * A sentinel key reads as absent and latches RESERVED_KEY. Asynchronous;
 * may run concurrently with other lookups (const handle), not with calls
 * that change the map. */
GCOL_API gcol_status_t gcol_map_find(const gcol_map_t *m, const void *d_keys, size_t n, void *d_values_out,
                            cudaStream_t s);

/* d_found_out[i] = 1 if d_keys[i] is present, else 0.
 *   d_keys       device, n keys
 *   d_found_out  device, n bytes
 * As gcol_map_find otherwise. */
GCOL_API gcol_status_t gcol_map_contains(const gcol_map_t *m, const void *d_keys, size_t n,
                                uint8_t *d_found_out, cudaStream_t s);

/* Erase keys (their slots become tombstones that later inserts reuse;
 * absent keys are ignored).
 *   d_keys        device, n keys
 *   d_num_erased  device, one size_t, or NULL: how many keys this call
 *                 removed (set to 0 first)
 * Asynchronous. Large batches (since 1.2.3): a batch of 2^22 or more keys
 * of 4 or 8 bytes, at least an eighth of the slots, into a table larger
 * than the L2 cache is first copied in the order of the keys' places in
 * the table, so the erase sweeps it a region at a time (H100, 100M keys
 * from 200M slots: 1.4-1.6x faster). The copy is scratch of n keys (plus a
 * few KB) from the map's allocator; when it cannot be had, the call erases
 * the keys as they are. The results are the same either way. */
GCOL_API gcol_status_t gcol_map_erase(gcol_map_t *m, const void *d_keys, size_t n, size_t *d_num_erased,
                             cudaStream_t s);

/* Write every stored pair densely, in unspecified order, and their count.
 *   d_keys_out, d_values_out  device, room for gcol_map_size() elements each
 *                             (never NULL)
 *   h_count_out               host, one size_t (never NULL)
 * Synchronizes s. Returns (and clears) a latched FULL / RESERVED_KEY after
 * writing everything, so the outputs are valid then too. */
GCOL_API gcol_status_t gcol_map_retrieve_all(gcol_map_t *m, void *d_keys_out, void *d_values_out,
                                    size_t *h_count_out, cudaStream_t s);

/* Number of stored keys to *h_size_out (host, never NULL). Synchronizes s;
 * returns (and clears) a latched FULL / RESERVED_KEY after writing it. */
GCOL_API gcol_status_t gcol_map_size(gcol_map_t *m, size_t *h_size_out, cudaStream_t s);

/* Number of slots to *h_capacity_out (host, never NULL); no device work,
 * no synchronization. */
GCOL_API gcol_status_t gcol_map_capacity(const gcol_map_t *m, size_t *h_capacity_out);

/* Remove every pair (and tombstone) and clear latched errors; keeps the
 * capacity. Asynchronous. */
GCOL_API gcol_status_t gcol_map_clear(gcol_map_t *m, cudaStream_t s);

/* Make room for capacity keys. A fixed map only checks: GCOL_SUCCESS if it
 * already has that many slots, else GCOL_ERROR_FULL. A growable map whose
 * max_load_factor * slots is below capacity rebuilds into enough slots
 * (asynchronous; GCOL_ERROR_OUT_OF_MEMORY as for growth); inserts then do
 * not grow it while its non-empty slots plus their n stay within capacity. */
GCOL_API gcol_status_t gcol_map_reserve(gcol_map_t *m, size_t capacity, cudaStream_t s);

/* Synchronizes s; returns and clears the latched device-side error
 * (GCOL_ERROR_FULL before GCOL_ERROR_RESERVED_KEY), or GCOL_SUCCESS; also
 * a CUDA error of earlier work on s, as CUDA reports it. */
GCOL_API gcol_status_t gcol_map_status(gcol_map_t *m, cudaStream_t s);

/* Device-side access for users' kernels: get a view on the host, pass it by
 * value to a kernel and use it through include/gcol/device/map.cuh (CUDA
 * C++: gcol::map_view<Key, Value> and gcol::map_mutable_view<Key, Value>).
 * The fields are the library's business; treat them as opaque.
 *  - A read-only view allows find and contains; a mutable view also insert,
 *    insert_and_find, insert_or_assign, insert_or_apply and erase. Use
 *    mutable views and read-only views in different kernels (a read-only
 *    view promises the kernel changes nothing).
 *  - gcol_map_size stays exact after inserts and erases made in kernels, and
 *    a full map or a reserved key is latched as for the bulk calls.
 *  - A view is valid until the map is destroyed or rebuilt: a growable map
 *    rebuilds in insert-type calls and gcol_map_reserve. Kernels never grow
 *    a map: reserve room for what they insert first. Once a mutable view
 *    is taken, every insert-type call of a growable map counts the map's
 *    slots first (one synchronization) instead of trusting its host-side
 *    bound, until a rebuild ends the view. These two calls do no device
 *    work and do not synchronize. */
typedef struct {
  void *slots, *state;
  uint64_t empty_key, erased_key, empty_value, seed, capacity;
  uint32_t num_buckets;
  int32_t bucket_chunks; /* 16-byte chunks per bucket (the map's tile) */
  int32_t key_cas;       /* pre-sm_90 claim scheme */
  int32_t key_type, value_type;
} gcol_map_view_t;
typedef struct {
  gcol_map_view_t view;
} gcol_map_mutable_view_t;
GCOL_API gcol_status_t gcol_map_device_view(const gcol_map_t *m, gcol_map_view_t *view_out);
GCOL_API gcol_status_t gcol_map_device_mutable_view(gcol_map_t *m, gcol_map_mutable_view_t *view_out);

/* ------------------------------------------------------------------------ */
/* Device-scope primitives: select, reduce, exclusive scan                  */
/* ------------------------------------------------------------------------ */
/* These follow CUB's two-phase convention. Call once with d_temp == NULL: only
 * *temp_bytes is written (the bytes of device temp storage the call needs,
 * always >= 1) and nothing else is read or touched. Allocate that much, call
 * again with the same n, sizes, type and op and a non-NULL d_temp to run. The
 * temp storage may be reused once the call's work on the stream is done.
 *
 *   size_t bytes = 0; void *tmp = NULL;
 *   gcol_select_flagged(NULL, &bytes, d_in, d_flags, d_out, d_count, n, 16,
 *                       GCOL_ORDER_ANY, s);            (asks the size)
 *   cudaMallocAsync(&tmp, bytes, s);
 *   gcol_select_flagged(tmp, &bytes, d_in, d_flags, d_out, d_count, n, 16,
 *                       GCOL_ORDER_ANY, s);            (runs)
 *
 * Common rules:
 *  - Work is ordered on the stream; the host is never synchronized. Results
 *    (including counts) are written to device memory.
 *  - Each call is one NVTX range named after the function.
 *  - GCOL_ERROR_INVALID_ARGUMENT, before any device work and before the
 *    device check: temp_bytes NULL; an unknown order, type or op; an item
 *    size other than 1, 2, 4, 8, 16; when running (d_temp != NULL): a NULL
 *    data pointer (d_in, d_flags, d_out may be NULL only when n == 0); a
 *    misaligned pointer (see below); n above PTRDIFF_MAX. When running with
 *    *temp_bytes smaller than the size query returns: also
 *    GCOL_ERROR_INVALID_ARGUMENT (found after the device check, since the size
 *    depends on the device).
 *  - Alignment: misaligned pointers are rejected, not handled. d_in and d_out
 *    must be aligned to the item size (select) or the type size (reduce,
 *    scan); d_num_selected to 8 bytes. d_flags and d_temp need no alignment.
 *    (cudaMalloc'ed buffers are 256-byte aligned; an offset of k items keeps
 *    the alignment.)
 *  - GCOL_ERROR_NO_DEVICE without a usable GPU, for the size query too: the
 *    sizes depend on the device's architecture (as CUB's do).
 *  - Inputs must not be modified while the call's work runs; outputs must not
 *    overlap inputs except where a function says so. */

/* Output order of gcol_select_flagged. */
typedef enum {
  GCOL_ORDER_STABLE = 0, /* selected items keep their input order (CUB's
                            decoupled look-back select, one pass) */
  GCOL_ORDER_ANY = 1     /* selected items in an unspecified order that may
                            differ run to run; a single pass at the memory
                            bandwidth floor (warp/block-aggregated slots). Its
                            temp storage is nominal: the count accumulates in
                            d_num_selected itself. */
} gcol_order_t;

/* Stream compaction: writes every d_in[i] whose d_flags[i] != 0 densely to
 * d_out and the number written to *d_num_selected.
 *   d_temp          device temp storage, or NULL to ask its size
 *   temp_bytes      host; in: bytes at d_temp; out (d_temp NULL): bytes needed
 *   d_in            device, n items of item_bytes each (opaque bytes)
 *   d_flags         device, n bytes; any non-zero byte selects its item
 *   d_out           device, room for as many items as are selected (n is
 *                   always enough); must not overlap d_in. Only the first
 *                   *d_num_selected items are written.
 *   d_num_selected  device, one size_t (8-byte aligned): the count
 *   n               number of items (0 writes a count of 0)
 *   item_bytes      1, 2, 4, 8 or 16
 *   order           GCOL_ORDER_STABLE or GCOL_ORDER_ANY
 *   s               stream */
GCOL_API gcol_status_t gcol_select_flagged(void *d_temp, size_t *temp_bytes, const void *d_in, const uint8_t *d_flags,
                                  void *d_out, size_t *d_num_selected, size_t n, size_t item_bytes,
                                  gcol_order_t order, cudaStream_t s);

/* Reduction: *d_out = identity op x[0] op ... op x[n-1] (one element of type
 * t). The identity (and the result of n == 0) is 0 for GCOL_OP_ADD; for
 * GCOL_OP_MIN the largest value of the type (+INFINITY for F32/F64); for
 * GCOL_OP_MAX the lowest (0 unsigned, the most negative signed, -INFINITY
 * for floats). Integer ADD wraps modulo 2^bits, signed types included.
 * Floating-point ADD is reassociated (serial per thread, then a tree: CUB's
 * order), so it may differ from a serial sum by rounding: a few dozen ulps
 * of sum(|x|) for a reduction; a scan's prefix i also carries a serial chain
 * over tiles (hundreds of ulps of sum_{j<i}|x[j]| at 1M items; the tests
 * allow 1e-4 relative for F32, 1e-12 for F64). Float reductions repeat
 * bit for bit on the same GPU; float scans may differ in the last bits run to
 * run (the look-back's association depends on timing).
 * MIN/MAX compare as the type; float MIN/MAX ignore NaN operands (fmin /
 * fmax, the same rule as gcol_map_insert_or_apply): the result is NaN only
 * when no operand is a number, and then the identity for a reduction.
 *   d_temp, temp_bytes  temp storage, two-phase as above
 *   d_in                device, n elements of type t
 *   d_out               device, one element of type t
 *   n                   number of elements
 *   t                   any gcol_type_t
 *   op                  GCOL_OP_ADD, GCOL_OP_MIN or GCOL_OP_MAX
 *   s                   stream */
GCOL_API gcol_status_t gcol_reduce(void *d_temp, size_t *temp_bytes, const void *d_in, void *d_out, size_t n,
                          gcol_type_t t, gcol_op_t op, cudaStream_t s);

/* Exclusive scan: d_out[0] = identity, d_out[i] = d_out[i-1] op d_in[i-1]
 * (identities, wrapping, rounding and NaN as for gcol_reduce). d_out may
 * equal d_in (in place) but must not overlap it otherwise. n == 0 writes
 * nothing.
 *   d_temp, temp_bytes  temp storage, two-phase as above
 *   d_in                device, n elements of type t
 *   d_out               device, n elements of type t
 *   n, t, op, s         as for gcol_reduce */
GCOL_API gcol_status_t gcol_exclusive_scan(void *d_temp, size_t *temp_bytes, const void *d_in, void *d_out, size_t n,
                                  gcol_type_t t, gcol_op_t op, cudaStream_t s);

/* ------------------------------------------------------------------------ */
/* Shortest paths                                                           */
/* ------------------------------------------------------------------------ */
/* Many-to-many shortest paths on directed graphs with float weights >= 0 and
 * 32-bit vertex ids. Two engines, chosen per call: for distances only (to
 * every vertex or to a target list) a block of 512 threads per source runs
 * near-far Delta-stepping (buckets of 2 mean arc weights on a 2D grid, 8 on
 * every other graph; the graph measures its mean weight at creation), when
 * one such block per SM fits in half the free device memory; otherwise (and
 * for predecessors) one warp per source runs Dijkstra on its own
 * warp-cooperative 32-ary heap (include/gcol/device/warp_heap.cuh). Either
 * stops a source's search once its targets' distances are final. Distances
 * are float sums along a path, each addition rounded on its own, in the
 * order of the path (a CPU Dijkstra adding in float gets the same numbers,
 * whichever engine ran). */
typedef struct gcol_graph gcol_graph_t;

/* Where a graph's device memory comes from (since 1.4.0): its own arrays and
 * the scratch of every gcol_sssp_* call on it. Start from
 * gcol_graph_config_default (GCOL_CONFIG_HEADER) and pass it to
 * gcol_graph_create_csr_with / gcol_graph_create_grid3d_with; the calls
 * without a config use the defaults. */
typedef struct {
  GCOL_CONFIG_HEADER
  gcol_allocator_t allocator; /* zeroed (the default): the graph's arrays from
                                 cudaMalloc (freed by cudaFree), each call's
                                 scratch from cudaMallocAsync / cudaFreeAsync
                                 on its stream. Set (alloc and free together,
                                 else GCOL_ERROR_INVALID_ARGUMENT): every device
                                 allocation of the graph and of the calls on it
                                 goes through it (see gcol_allocator_t), each
                                 with the stream of the call that makes it:
                                 at creation its copies of the input and
                                 the check's verdict (24 bytes, freed
                                 before create returns); per gcol_sssp_many_to_many /
                                 _pred call one scratch block, per
                                 gcol_sssp_paths call two, each freed on the
                                 call's stream before it returns (their sizes:
                                 the "scratch" paragraphs below). The arrays
                                 are freed by gcol_graph_destroy (see there).
                                 The solver still sizes its scratch by the
                                 device's free memory; an allocator that
                                 cannot give it makes the call return
                                 GCOL_ERROR_OUT_OF_MEMORY (nothing written,
                                 the graph unchanged). */
} gcol_graph_config_t;

/* The defaults (zeroed allocator) with the config header set. Needs no device. */
GCOL_API gcol_graph_config_t gcol_graph_config_default(void);

/* A graph from a CSR on the device: the arcs of vertex u are
 * d_targets[d_offsets[u] .. d_offsets[u+1]) with weights d_weights[same].
 *   num_vertices  1 .. 2^32 - 1
 *   num_edges     0 .. 2^32 - 1 (arcs; parallel arcs and self loops allowed)
 *   d_offsets     num_vertices + 1 entries: d_offsets[0] == 0, non-decreasing,
 *                 d_offsets[num_vertices] == num_edges
 *   d_targets     num_edges ids < num_vertices (may be NULL when num_edges == 0)
 *   d_weights     num_edges floats, finite and >= 0 (same)
 * The arrays are copied (the caller may free them after the call) and checked
 * on the GPU; the call synchronizes s once to read the verdict.
 * Errors: GCOL_ERROR_INVALID_ARGUMENT for NULL/size errors (before any device
 * work) and for array contents that break the rules above; *g is then NULL. */
GCOL_API gcol_status_t gcol_graph_create_csr(gcol_graph_t **g, size_t num_vertices, size_t num_edges,
                                    const uint32_t *d_offsets, const uint32_t *d_targets,
                                    const float *d_weights, cudaStream_t s);

/* gcol_graph_create_csr with a config (since 1.4.0): cfg from
 * gcol_graph_config_default (host; copied, may be freed after the call).
 * Errors besides gcol_graph_create_csr's: GCOL_ERROR_INVALID_ARGUMENT for a
 * NULL or refused config (header, allocator), before any device work;
 * GCOL_ERROR_OUT_OF_MEMORY when cfg->allocator gives no memory (*g NULL,
 * whatever it gave freed). */
GCOL_API gcol_status_t gcol_graph_create_csr_with(gcol_graph_t **g, size_t num_vertices, size_t num_edges,
                                                  const uint32_t *d_offsets, const uint32_t *d_targets,
                                                  const float *d_weights, const gcol_graph_config_t *cfg,
                                                  cudaStream_t s);

/* A voxel grid graph. Voxel (x, y, z) is vertex x + nx * (y + ny * z);
 * d_voxel_cost holds nx * ny * nz costs in that order (copied).
 *   nx, ny, nz    >= 1, product <= 2^32 - 1 (nz == 1: a 2D grid)
 *   connectivity  6 (faces), 18 (faces, edges) or 26 (all neighbours at
 *                 Chebyshev distance 1); on a 2D grid 26 means 8-connected
 * The arc u -> v weighs 0.5 * (cost[u] + cost[v]) * step, step being 1, sqrt 2
 * or sqrt 3 for 1, 2 or 3 differing coordinates. A cost of INFINITY is an
 * obstacle: no arc touches it and its distance is INFINITY, also as a source.
 * The grid stays implicit (arcs are derived from the costs on the fly): it
 * takes 5 bytes per voxel (the cost, and a byte saying which faces of the
 * grid the voxel lies on). Synchronizes s once (the costs are checked on the
 * GPU).
 * Errors: GCOL_ERROR_INVALID_ARGUMENT for a zero or too large size, a NULL
 * cost array, another connectivity, or a cost < 0 or NaN. */
GCOL_API gcol_status_t gcol_graph_create_grid3d(gcol_graph_t **g, uint32_t nx, uint32_t ny, uint32_t nz,
                                       const float *d_voxel_cost, int connectivity, cudaStream_t s);

/* gcol_graph_create_grid3d with a config (since 1.4.0), as
 * gcol_graph_create_csr_with: same errors. */
GCOL_API gcol_status_t gcol_graph_create_grid3d_with(gcol_graph_t **g, uint32_t nx, uint32_t ny, uint32_t nz,
                                                     const float *d_voxel_cost, int connectivity,
                                                     const gcol_graph_config_t *cfg, cudaStream_t s);

/* Free the graph. Waits for the device to finish pending work (cudaFree;
 * with a config's allocator, cudaDeviceSynchronize and then its free, given
 * stream 0 since no call's work is pending any more). NULL is a no-op. */
GCOL_API void gcol_graph_destroy(gcol_graph_t *g);

/* Shortest-path distances from every source to every target (engine: see
 * the top of this section). Near-far's device scratch, instead of the heaps
 * below, is one allocation of 256 bytes plus, per running block (2 per SM),
 * 24 bytes per vertex with d_targets NULL, and 28 bytes per vertex plus 8
 * per target with a target list (its own distance array and two lists of
 * the targets not yet final),
 * blocks limited to what half the free memory holds (e.g. 264 blocks of
 * 34 MB on an H100 for 1.21M vertices and 4,096 targets):
 * d_dist[i * row + j] = distance from d_sources[i] to d_targets[j], INFINITY
 * where unreachable, row = num_targets (row-major, num_sources x num_targets).
 *   d_sources    num_sources vertex ids (duplicates allowed)
 *   num_sources  0 .. 2^32 - 1; 0 is a no-op
 *   d_targets    num_targets vertex ids (duplicates allowed), or NULL for all
 *                vertices in id order, num_targets then being the vertex count
 *   num_targets  0 with non-NULL d_targets is a no-op
 *   d_dist       num_sources * num_targets floats (device)
 * An id >= the vertex count cannot be checked without synchronizing: its row
 * (a source) or column (a target) is filled with NaN instead.
 * With d_targets, a source's search stops once every target's distance is
 * final (near-far: at the first bucket split where every target is at or
 * below the smallest distance still tentative).
 * Asynchronous: nothing synchronizes the host. Device scratch (one
 * allocation per call) comes from the graph's allocator (gcol_graph_config_t;
 * by default cudaMallocAsync) on s and is freed on s: per concurrently
 * running warp a heap of up to 1,057 nodes (270 KB; fewer when many warps share an SM, e.g.
 * 576 at 32 warps per SM on an H100) and, with d_targets, a distance array
 * of 4 bytes per vertex; warps are limited to what half the free memory
 * holds. A heap that fills up (up to 33,824 pending pairs) is rebuilt from
 * the distances; a frontier larger than it is worked in threshold phases
 * (the heap keeps the keys below a threshold and is refilled when it runs
 * dry). A source with more equal pending keys than the heap holds, or
 * needing more than max(64, 8 * arcs / vertices) refills, is solved again,
 * after the others, with a heap in global memory sized for every arc of the
 * graph (up to about 134M pairs, which it cannot outgrow below that many
 * arcs): slower, never wrong.
 * Errors: GCOL_ERROR_INVALID_ARGUMENT (NULL g, NULL pointers with work to do,
 * d_targets NULL with num_targets != vertex count, a table too large for
 * size_t); GCOL_ERROR_OUT_OF_MEMORY when not even one warp's scratch (near-far:
 * one block's queues) fits, or the graph's allocator gives no memory. */
GCOL_API gcol_status_t gcol_sssp_many_to_many(const gcol_graph_t *g, const uint32_t *d_sources, size_t num_sources,
                                     const uint32_t *d_targets, size_t num_targets, float *d_dist,
                                     cudaStream_t s);

/* Predecessors and paths (issue 27). GCOL_SSSP_NO_PRED is the predecessor
 * of a source itself, of an unreachable vertex, and of every cell of a NaN
 * row or column. */
#define GCOL_SSSP_NO_PRED 0xFFFFFFFFu

/* gcol_sssp_many_to_many plus predecessors: d_pred[i * row + j] = the vertex
 * before d_targets[j] on the shortest path from d_sources[i] that the
 * solver found, or GCOL_SSSP_NO_PRED (see above). Every other argument, the
 * distances written and the errors are those of gcol_sssp_many_to_many.
 *   d_pred  device, num_sources * num_targets uint32_t (4-byte aligned), or
 *           NULL: then exactly gcol_sssp_many_to_many (same kernels, same
 *           speed; the predecessor solver is a separate compiled variant)
 * Which predecessor among ties: the one whose expansion first lowered the
 * target's distance to its final value (a later arc reaching the same
 * distance never replaces it), so following predecessors from any target
 * reaches the source without a cycle, zero-weight arcs included, and the
 * float sum of the arc weights along that walk, added from the source, is
 * the reported distance bit for bit. With parallel arcs u -> v the path
 * names vertices, not arcs: the lightest one is meant.
 * Memory: with d_targets NULL the table is num_sources x num_vertices of 4
 * bytes for d_pred besides as much for d_dist (1,024 sources on 1M vertices:
 * 4 GiB each); rows of the full predecessor tree are what path walks need,
 * and gcol_sssp_paths walks them on the device without that table. With
 * d_targets the solver keeps a private predecessor array of 4 bytes per
 * vertex per running warp (as it does for distances).
 * Errors besides gcol_sssp_many_to_many's: GCOL_ERROR_INVALID_ARGUMENT for a
 * misaligned d_pred, and for a d_pred (or d_dist) whose device allocation
 * ends before num_sources * num_targets elements (checked where the driver
 * can tell the allocation's extent: cudaMalloc and pool memory). */
GCOL_API gcol_status_t gcol_sssp_many_to_many_pred(const gcol_graph_t *g, const uint32_t *d_sources,
                                                   size_t num_sources, const uint32_t *d_targets,
                                                   size_t num_targets, float *d_dist, uint32_t *d_pred,
                                                   cudaStream_t s);

/* Shortest paths as vertex sequences for num_pairs (source, target) pairs:
 * pair k runs from d_sources[k] to d_targets[k]. One search per distinct
 * source (pairs are grouped by source on the device); each search stops once
 * every target of the call is settled, then walks the predecessors (as
 * gcol_sssp_many_to_many_pred chooses them) for the pairs of its source.
 *   d_sources, d_targets  device, num_pairs uint32_t ids each
 *   num_pairs     0 .. 2^32 - 2; 0 is a no-op (nothing is read or written)
 *   d_offsets     device, num_pairs + 1 uint64_t (8-byte aligned), always
 *                 written: pair k's path is d_vertices[d_offsets[k] ..
 *                 d_offsets[k + 1]), and d_offsets[num_pairs] is the total
 *                 vertex count the paths need
 *   d_vertices    device, max_vertices uint32_t; the paths, source first and
 *                 target last, written only when the total fits in
 *                 max_vertices (else left untouched). May be NULL when
 *                 max_vertices is 0: a size query (read d_offsets[num_pairs],
 *                 allocate, call again; the searches run again). A path has
 *                 at most num_vertices vertices, so num_pairs * num_vertices
 *                 always suffices.
 *   d_dist        device, num_pairs floats, or NULL: each pair's distance
 *                 (as gcol_sssp_many_to_many: INFINITY unreachable, NaN for
 *                 an id >= the vertex count)
 * A path is empty (length 0) exactly when the pair has none: the target is
 * unreachable, or an id is >= the vertex count (cannot be checked without
 * synchronizing); d_dist tells these apart. source == target gives a path of
 * one vertex (distance 0), unless the grid voxel is an obstacle (empty).
 * Asynchronous. Scratch from the graph's allocator (by default
 * cudaMallocAsync) on s, in two allocations: one for the sort of the pairs by
 * source, per pair 16 bytes and max_vertices * 4 bytes; one per running warp a
 * heap as gcol_sssp_many_to_many's plus 8 bytes per vertex (distances and
 * predecessors).
 * Errors: GCOL_ERROR_INVALID_ARGUMENT (NULL g, NULL or misaligned pointers
 * with work to do, d_vertices NULL with max_vertices > 0); OUT_OF_MEMORY. */
GCOL_API gcol_status_t gcol_sssp_paths(const gcol_graph_t *g, const uint32_t *d_sources, const uint32_t *d_targets,
                                       size_t num_pairs, uint64_t *d_offsets, uint32_t *d_vertices,
                                       size_t max_vertices, float *d_dist, cudaStream_t s);

/* ------------------------------------------------------------------------ */
/* Multimap (duplicate keys)                                                */
/* ------------------------------------------------------------------------ */
/* Every inserted pair is kept, duplicates of a key included. Handles,
 * pointers, sentinels, latching and destroy's stream follow the map's rules
 * (see "Hash map"): d_keys key_type elements, d_values value_type, size_t
 * counts and query indices 8-byte aligned, each may be NULL only where said.
 * Two engines behind one API:
 *  - GCOL_MULTIMAP_OPEN (the default, fastest): open addressing laid out as
 *    the hash map (same hashing, buckets probed by a tile, pairs packed in 8-
 *    or 16-byte slots); a key's copies lie along its probe sequence and a
 *    query reads up to the first bucket with an empty slot. capacity = slots.
 *  - GCOL_MULTIMAP_CHAINED / GCOL_MULTIMAP_CHAINED_LOCKFREE: bucket heads and
 *    a node pool (capacity = nodes, so at most capacity pairs). CHAINED links
 *    a node in under a per-bucket spin lock (include/gcol/device/lock.cuh):
 *    the reference design. CHAINED_LOCKFREE links it with one atomic
 *    exchange on the bucket's head. Both store the same pairs.
 * Keys, sentinels and errors behave as the map's: a key equal to empty_key
 * or erased_key is skipped and latches GCOL_ERROR_RESERVED_KEY; a pair that
 * finds no room is skipped and latches GCOL_ERROR_FULL (the others are
 * stored); latched errors are returned by _size, _retrieve_all, _status.
 * max_load_factor is checked as for maps and otherwise unused; growable
 * multimaps are refused (GCOL_ERROR_INVALID_ARGUMENT). Every device
 * allocation goes through map.allocator (zeroed: cudaMallocAsync on the
 * call's stream); destroy frees on the stream of the last call. */
typedef struct gcol_multimap gcol_multimap_t;

typedef enum {
  GCOL_MULTIMAP_OPEN = 0,
  GCOL_MULTIMAP_CHAINED = 1,
  GCOL_MULTIMAP_CHAINED_LOCKFREE = 2
} gcol_multimap_engine_t;

/* The map's config plus what only multimaps have. (A separate struct, so
 * that gcol_map_config_t stays the maps' own.) */
typedef struct {
  GCOL_CONFIG_HEADER
  gcol_multimap_engine_t engine;
  size_t num_buckets;            /* chained engines: bucket heads (< 2^32);
                                    0 (default) = 2 * capacity, i.e. load 0.5.
                                    Must be 0 for GCOL_MULTIMAP_OPEN. */
  gcol_map_config_t map;         /* types, capacity, sentinels, seed, allocator.
                                    Last, so that both structs can grow: the
                                    multimap's own fields never move, and the
                                    map's config carries its own size. */
} gcol_multimap_config_t;

/* gcol_map_config_default(key, value) with this engine and num_buckets 0. */
GCOL_API gcol_multimap_config_t gcol_multimap_config_default(gcol_type_t key, gcol_type_t value,
                                                    gcol_multimap_engine_t engine);

/* Create an empty multimap; *mm is NULL on failure. Chained engines need
 * capacity < 2^32 - 1 (32-bit node links). Asynchronous on s. */
GCOL_API gcol_status_t gcol_multimap_create(gcol_multimap_t **mm, const gcol_multimap_config_t *cfg, cudaStream_t s);

/* Free; on the stream of the last call. NULL is a no-op. */
GCOL_API void gcol_multimap_destroy(gcol_multimap_t *mm);

/* Insert n pairs, every one kept. d_num_inserted (device, may be NULL)
 * receives how many this call stored (set to 0 first, also for n == 0). */
GCOL_API gcol_status_t gcol_multimap_insert(gcol_multimap_t *mm, const void *d_keys, const void *d_values, size_t n,
                                   size_t *d_num_inserted, cudaStream_t s);

/* Count stored pairs per query key: d_counts[i] (device, n size_t, may be
 * NULL) = pairs with key d_keys[i]; *d_total (device, one size_t, may be
 * NULL) = the sum over the batch (0 for n == 0), which is exactly the output
 * size gcol_multimap_retrieve needs for the same batch. Sentinel queries
 * count 0 and latch GCOL_ERROR_RESERVED_KEY. */
GCOL_API gcol_status_t gcol_multimap_count(const gcol_multimap_t *mm, const void *d_keys, size_t n, size_t *d_counts,
                                  size_t *d_total, cudaStream_t s);

/* Every stored pair whose key equals one of d_keys[0..n), each tagged with
 * the index i of its query (a query key repeated in the batch gets its
 * matches once per occurrence): an inner hash join. Output in unspecified
 * order. Two-phase as the device-scope primitives below: d_temp NULL writes
 * only *temp_bytes (>= 1; no device work, but mm must be valid).
 *   d_temp, temp_bytes  temp storage
 *   mm, d_keys, n       the multimap and the queries
 *   d_keys_out          device, out_capacity keys, or NULL (the key of
 *                       match j is d_keys[d_query_out[j]])
 *   d_values_out        device, out_capacity values
 *   d_query_out         device, out_capacity size_t: the query index
 *   out_capacity        matches the outputs have room for
 *   d_total             device, one size_t: the number of matches (all of
 *                       them, also when that exceeds out_capacity)
 * A sentinel query key matches nothing and latches GCOL_ERROR_RESERVED_KEY.
 * Room too small (*d_total > out_capacity): out_capacity of the matches
 * (which ones is unspecified) are written, nothing past out_capacity, and no
 * error is latched: compare *d_total with out_capacity. Call
 * gcol_multimap_count first to size the outputs exactly. */
GCOL_API gcol_status_t gcol_multimap_retrieve(void *d_temp, size_t *temp_bytes, const gcol_multimap_t *mm,
                                     const void *d_keys, size_t n, void *d_keys_out, void *d_values_out,
                                     size_t *d_query_out, size_t out_capacity, size_t *d_total, cudaStream_t s);

/* Every stored pair, in unspecified order, to d_keys_out and d_values_out
 * (room for gcol_multimap_size() each); *h_count_out = pairs written.
 * Synchronizes; returns a latched error after writing. */
GCOL_API gcol_status_t gcol_multimap_retrieve_all(gcol_multimap_t *mm, void *d_keys_out, void *d_values_out,
                                         size_t *h_count_out, cudaStream_t s);

/* Stored pairs. Synchronizes; returns a latched error after writing. */
GCOL_API gcol_status_t gcol_multimap_size(gcol_multimap_t *mm, size_t *h_size_out, cudaStream_t s);

/* Pairs the multimap can hold at most (slots or pool nodes; host-side). */
GCOL_API gcol_status_t gcol_multimap_capacity(const gcol_multimap_t *mm, size_t *h_capacity_out);

/* Remove every pair and clear latched errors; asynchronous. */
GCOL_API gcol_status_t gcol_multimap_clear(gcol_multimap_t *mm, cudaStream_t s);

/* Synchronizes s; returns and clears the latched error (FULL before
 * RESERVED_KEY), or GCOL_SUCCESS. */
GCOL_API gcol_status_t gcol_multimap_status(gcol_multimap_t *mm, cudaStream_t s);

/* ------------------------------------------------------------------------ */
/* Set and multiset (keys only)                                             */
/* ------------------------------------------------------------------------ */
/* The hash map's table without values: the same open addressing (hashing,
 * buckets probed by one thread per key (or a tile, for 16-byte keys), double
 * hashing over a prime number of buckets),
 * with slots of 4 bytes (GCOL_U32, GCOL_I32 keys) or 8 bytes (GCOL_U64,
 * GCOL_I64), so a set moves half the bytes of a map of the same keys. Keys
 * are compared as bits, as the map's. Everything the map's section says of
 * sentinels, latched errors (FULL, RESERVED_KEY; returned by _size,
 * _retrieve_all, _status), the allocator, streams, destroy, growth and
 * argument checks holds for gcol_set_t word for word ("pair" reading "key").
 * A gcol_multiset_t keeps every inserted key, duplicates included (the
 * multimap's open engine without values; fixed capacity). */
typedef struct gcol_set gcol_set_t;
typedef struct gcol_multiset gcol_multiset_t;

/* Config of a set or a multiset: the map's fields without the value ones
 * (meanings, defaults and limits as in gcol_map_config_t). */
typedef struct {
  GCOL_CONFIG_HEADER
  gcol_type_t key_type;    /* GCOL_U32, GCOL_I32, GCOL_U64, GCOL_I64 or GCOL_U128 (16-byte slots) */
  size_t capacity;         /* lower bound on slots (>= 1); default 1024 */
  double max_load_factor;  /* as the map's; default 0.8 */
  int growable;            /* 0 fixed, 1 grows (sets only: a growable
                              multiset is GCOL_ERROR_INVALID_ARGUMENT) */
  uint64_t empty_key;      /* default all ones of the key width */
  uint64_t erased_key;     /* default all ones minus one */
  uint64_t seed;           /* hash seed */
  gcol_allocator_t allocator; /* zeroed: cudaMallocAsync */
  int growth_factor;       /* growable sets: 2 (default; 0 means 2), 4 or 8 */
} gcol_set_config_t;

/* The defaults above for a key type. */
GCOL_API gcol_set_config_t gcol_set_config_default(gcol_type_t key);

/* Create a set; *set is NULL on failure. Asynchronous on s (as gcol_map_create).
 * Errors: GCOL_ERROR_INVALID_ARGUMENT (set NULL, a config that is refused,
 * with a message naming the field), GCOL_ERROR_NO_DEVICE,
 * GCOL_ERROR_OUT_OF_MEMORY. */
GCOL_API gcol_status_t gcol_set_create(gcol_set_t **set, const gcol_set_config_t *cfg, cudaStream_t s);

/* Free the set on the stream of its last call. NULL (or a destroyed set) is a no-op. */
GCOL_API void gcol_set_destroy(gcol_set_t *set);

/* Insert n keys (device, d_keys aligned to the key width; NULL only when
 * n == 0). Duplicates inside a batch: one is stored. d_num_inserted (device,
 * one size_t, 8-byte aligned, may be NULL) receives how many keys this call
 * added (set to 0 first, also for n == 0). Sentinel keys are skipped and
 * latch GCOL_ERROR_RESERVED_KEY; keys that find no free slot in a fixed set
 * are skipped and latch GCOL_ERROR_FULL. A growable set grows first as the
 * map does (may synchronize s; GCOL_ERROR_OUT_OF_MEMORY leaves it as it was).
 * Large batches of 4-byte keys go in table order first, as gcol_map_erase
 * describes (H100, 100M u32 keys into 200M slots: 1.1x faster; 8-byte
 * keys gain less than the copy costs and go as they are). */
GCOL_API gcol_status_t gcol_set_insert(gcol_set_t *set, const void *d_keys, size_t n, size_t *d_num_inserted,
                                       cudaStream_t s);

/* Insert like gcol_set_insert and write d_inserted_out[i] (device, n bytes)
 * = 1 where input i added its key, else 0 (present before, a twin in the
 * batch won, skipped). Exactly one input per new key gets 1. */
GCOL_API gcol_status_t gcol_set_insert_and_contains(gcol_set_t *set, const void *d_keys, size_t n,
                                                    uint8_t *d_inserted_out, cudaStream_t s);

/* d_found_out[i] (device, n bytes) = 1 if d_keys[i] is in the set, else 0.
 * Changes nothing in the set. */
GCOL_API gcol_status_t gcol_set_contains(const gcol_set_t *set, const void *d_keys, size_t n, uint8_t *d_found_out,
                                         cudaStream_t s);

/* Erase keys (tombstones that later inserts reuse; absent keys are
 * ignored). d_num_erased (device, may be NULL) receives how many this call
 * removed. Large batches go in table order first, as gcol_map_erase
 * describes. */
GCOL_API gcol_status_t gcol_set_erase(gcol_set_t *set, const void *d_keys, size_t n, size_t *d_num_erased,
                                      cudaStream_t s);

/* Every key, densely in unspecified order, to d_keys_out (device, room for
 * gcol_set_size() keys; non-NULL, aligned); *h_count_out = keys written.
 * Synchronizes; returns a latched error after writing. */
GCOL_API gcol_status_t gcol_set_retrieve_all(gcol_set_t *set, void *d_keys_out, size_t *h_count_out,
                                             cudaStream_t s);

/* Keys in the set. Synchronizes; returns a latched error after writing. */
GCOL_API gcol_status_t gcol_set_size(gcol_set_t *set, size_t *h_size_out, cudaStream_t s);

/* Slots (host-side, no device work). */
GCOL_API gcol_status_t gcol_set_capacity(const gcol_set_t *set, size_t *h_capacity_out);

/* Remove every key (and tombstone) and clear latched errors; asynchronous. */
GCOL_API gcol_status_t gcol_set_clear(gcol_set_t *set, cudaStream_t s);

/* Room for capacity keys, as gcol_map_reserve (fixed: GCOL_ERROR_FULL when
 * it has fewer slots; growable: rebuilds, asynchronous). */
GCOL_API gcol_status_t gcol_set_reserve(gcol_set_t *set, size_t capacity, cudaStream_t s);

/* Synchronizes s; returns and clears the latched error (FULL before
 * RESERVED_KEY), or GCOL_SUCCESS. */
GCOL_API gcol_status_t gcol_set_status(gcol_set_t *set, cudaStream_t s);

/* Device-side access (include/gcol/device/set.cuh: gcol::set_view<Key>,
 * gcol::set_mutable_view<Key>), with the rules of the map's views: a
 * read-only view allows contains, a mutable one also insert and erase;
 * valid until the set is destroyed or rebuilt; a mutable view makes a
 * growable set count its slots before each insert. No device work. */
typedef struct {
  void *slots, *state;
  uint64_t empty_key, erased_key, seed, capacity;
  uint32_t num_buckets;
  int32_t bucket_chunks; /* 16-byte chunks per bucket */
  int32_t key_type;
} gcol_set_view_t;
typedef struct {
  gcol_set_view_t view;
} gcol_set_mutable_view_t;
GCOL_API gcol_status_t gcol_set_device_view(const gcol_set_t *set, gcol_set_view_t *view_out);
GCOL_API gcol_status_t gcol_set_device_mutable_view(gcol_set_t *set, gcol_set_mutable_view_t *view_out);

/* Create a multiset from a set config (growable must be 0; max_load_factor
 * is checked and unused). capacity = slots = keys it holds at most. */
GCOL_API gcol_status_t gcol_multiset_create(gcol_multiset_t **ms, const gcol_set_config_t *cfg, cudaStream_t s);

/* Free on the stream of the last call. NULL is a no-op. */
GCOL_API void gcol_multiset_destroy(gcol_multiset_t *ms);

/* Insert n keys, every copy kept. d_num_inserted (device, may be NULL):
 * how many this call stored (0 first). Sentinels: skipped, RESERVED_KEY
 * latched; no room: skipped, FULL latched. */
GCOL_API gcol_status_t gcol_multiset_insert(gcol_multiset_t *ms, const void *d_keys, size_t n,
                                            size_t *d_num_inserted, cudaStream_t s);

/* d_counts[i] (device, n size_t, may be NULL) = copies of d_keys[i];
 * *d_total (device, one size_t, may be NULL) = their sum (0 for n == 0),
 * the output size gcol_multiset_retrieve needs. Sentinel queries count 0 and
 * latch RESERVED_KEY. */
GCOL_API gcol_status_t gcol_multiset_count(const gcol_multiset_t *ms, const void *d_keys, size_t n,
                                           size_t *d_counts, size_t *d_total, cudaStream_t s);

/* d_found_out[i] (device, n bytes) = 1 if at least one copy of d_keys[i]
 * is stored. */
GCOL_API gcol_status_t gcol_multiset_contains(const gcol_multiset_t *ms, const void *d_keys, size_t n,
                                              uint8_t *d_found_out, cudaStream_t s);

/* Every stored copy of every query key, tagged with its query's index (a
 * semi-join with multiplicity), in unspecified order; two-phase as
 * gcol_multimap_retrieve (d_temp NULL: only *temp_bytes is written).
 *   d_keys_out   device, out_capacity keys, or NULL (the key of match j is
 *                d_keys[d_query_out[j]])
 *   d_query_out  device, out_capacity size_t
 *   d_total      device, one size_t: all matches, also past out_capacity
 * Room too small: out_capacity matches are written and nothing past it. */
GCOL_API gcol_status_t gcol_multiset_retrieve(void *d_temp, size_t *temp_bytes, const gcol_multiset_t *ms,
                                              const void *d_keys, size_t n, void *d_keys_out, size_t *d_query_out,
                                              size_t out_capacity, size_t *d_total, cudaStream_t s);

/* Every stored key (copies included) to d_keys_out (room for
 * gcol_multiset_size()); *h_count_out = keys written. Synchronizes;
 * returns a latched error after writing. */
GCOL_API gcol_status_t gcol_multiset_retrieve_all(gcol_multiset_t *ms, void *d_keys_out, size_t *h_count_out,
                                                  cudaStream_t s);

/* Stored keys, copies included. Synchronizes; returns a latched error after writing. */
GCOL_API gcol_status_t gcol_multiset_size(gcol_multiset_t *ms, size_t *h_size_out, cudaStream_t s);

/* Slots (host-side). */
GCOL_API gcol_status_t gcol_multiset_capacity(const gcol_multiset_t *ms, size_t *h_capacity_out);

/* Remove every key and clear latched errors; asynchronous. */
GCOL_API gcol_status_t gcol_multiset_clear(gcol_multiset_t *ms, cudaStream_t s);

/* Synchronizes s; returns and clears the latched error, or GCOL_SUCCESS. */
GCOL_API gcol_status_t gcol_multiset_status(gcol_multiset_t *ms, cudaStream_t s);

/* ------------------------------------------------------------------------ */
/* Bloom filter (gcol_bloom_t)                                              */
/* ------------------------------------------------------------------------ */
/* A sector-blocked Bloom filter of 4- or 8-byte keys. The filter is an
 * array of B blocks of 256 bits (one 32-byte DRAM sector = four 64-bit
 * words). A key k sets 8 bits: with h1 = murmur3-fmix64(k ^ seed) (k
 * zero-extended to 64 bits) its block is floor(h1 * B / 2^64), and with
 * h2 = fmix64(h1 ^ 0x9e3779b97f4a7c15) bits 12w..12w+5 and 12w+6..12w+11 of
 * h2 pick two bits (possibly the same one) in word w, w = 0..3. The block
 * comes from h1's high bits and the in-block bits from h2, so the bits a key
 * sets inside its block do not depend on which block it falls in (cuco
 * #682's flaw), and the false-positive rate of n distinct keys is exactly
 *     FPR(n) = sum_j Binomial(j; n, 1/B) * q(j)^4,
 *     q(j)   = 1/64 * (1 - a^j) + 63/64 * (1 - 2 a^j + b^j),
 *     a = (63/64)^2, b = (62/64)^2
 * (j keys in the query's block set 2j random bits of each word; q(j) is the
 * chance that both of a query's bits in one word are among them).
 * gcol_bloom_expected_fpr computes it: at 10.5 bits per key 0.99%, at 8
 * bits 3.3%, at 16 bits 0.13% (an unblocked filter with the best k: 0.64%,
 * 2.2%, 0.05%; the block costs a little FPR for one sector per key).
 * Adding a key again, or both a key and an equal one, changes nothing:
 * n counts distinct keys. There are no false negatives.
 *
 * Keys are hashed as bits (a GCOL_I64 -1 and a GCOL_U64 0xff..ff are the same
 * key; 4-byte keys are zero-extended); every key value is allowed (no
 * sentinels). Calls are stream-ordered and do not synchronize the host. The
 * filter's memory comes from cfg.allocator (cudaMallocAsync when zeroed). */
typedef struct gcol_bloom gcol_bloom_t;

typedef struct {
  GCOL_CONFIG_HEADER
  gcol_type_t key_type;     /* GCOL_U32, GCOL_I32, GCOL_U64 or GCOL_I64. Default GCOL_U64. */
  size_t size_bytes;        /* the filter's size, rounded up to a multiple of 32
                               bytes; at most 2^40 (1 TiB). 0 (default): size
                               it from expected_keys and target_fpr. */
  size_t expected_keys;     /* with size_bytes == 0: the smallest filter whose
                               FPR(expected_keys) <= target_fpr. Default 0:
                               one of the two must be set, not both. At most 2^40. */
  double target_fpr;        /* in (1e-12, 1), default 0.01; used with expected_keys
                               (a target the 8-bit layout cannot reach with
                               2^40 bytes is refused). */
  uint64_t seed;            /* hash seed; merge and intersect need equal seeds */
  gcol_allocator_t allocator; /* zeroed: cudaMallocAsync (see gcol_allocator_t) */
} gcol_bloom_config_t;

/* Defaults: key_type (GCOL_U64 when key is not a key type: create checks),
 * size_bytes 0, expected_keys 0, target_fpr 0.01, seed 0x9e3779b97f4a7c15. */
GCOL_API gcol_bloom_config_t gcol_bloom_config_default(gcol_type_t key);

/* The expected false-positive rate (the formula above) of a filter of
 * size_bytes (rounded up to 32-byte blocks as create does) holding n
 * distinct keys; writes *h_fpr_out. Host-only, needs no device.
 * INVALID_ARGUMENT: size_bytes 0 or over 2^40, h_fpr_out NULL. */
GCOL_API gcol_status_t gcol_bloom_expected_fpr(size_t size_bytes, size_t n, double *h_fpr_out);

/* Bytes (a multiple of 32) of the smallest filter whose FPR for n keys is at
 * most target_fpr, as create chooses them. Host-only. INVALID_ARGUMENT: n 0
 * or over 2^40, target_fpr outside (1e-12, 1), more than 2^40 bytes needed,
 * h_bytes_out NULL. */
GCOL_API gcol_status_t gcol_bloom_size_for(size_t n, double target_fpr, size_t *h_bytes_out);

/* Create an empty filter (all bits 0, set on s); *bloom = NULL on failure.
 * INVALID_ARGUMENT (bad config: see the fields), OUT_OF_MEMORY, NO_DEVICE. */
GCOL_API gcol_status_t gcol_bloom_create(gcol_bloom_t **bloom, const gcol_bloom_config_t *cfg, cudaStream_t s);
/* Free it, stream-ordered on the stream of its last call. NULL: no-op. */
GCOL_API void gcol_bloom_destroy(gcol_bloom_t *bloom);

/* Add n keys (device, n keys of the filter's key type, aligned to the key
 * width; NULL only when n == 0). Concurrent adds on several streams are
 * safe (atomic OR). */
GCOL_API gcol_status_t gcol_bloom_add(gcol_bloom_t *bloom, const void *d_keys, size_t n, cudaStream_t s);

/* For each of n keys, d_found_out[i] = 1 if the key may be in the filter, 0
 * if it certainly is not (device, n bytes, one byte per key). */
GCOL_API gcol_status_t gcol_bloom_contains(const gcol_bloom_t *bloom, const void *d_keys, size_t n,
                                           uint8_t *d_found_out, cudaStream_t s);

/* Remove every key (all bits 0); asynchronous. */
GCOL_API gcol_status_t gcol_bloom_clear(gcol_bloom_t *bloom, cudaStream_t s);

/* dst |= src (the union: dst then answers as if it had had src's keys added
 * too) and dst &= src (the intersection of the bit sets: every key added to
 * both is still found; its FPR is at most the smaller of the two). Both
 * filters must have the same number of blocks, seed and key width, else
 * INVALID_ARGUMENT and dst is unchanged. src may be dst. Asynchronous; work
 * on src from another stream must be ordered by the caller. */
GCOL_API gcol_status_t gcol_bloom_merge(gcol_bloom_t *dst, const gcol_bloom_t *src, cudaStream_t s);
GCOL_API gcol_status_t gcol_bloom_intersect(gcol_bloom_t *dst, const gcol_bloom_t *src, cudaStream_t s);

/* *h_bits_out = bits of the filter (256 per block); *h_bytes_out = bytes
 * (bits / 8). Host-side, no device work. */
GCOL_API gcol_status_t gcol_bloom_bits(const gcol_bloom_t *bloom, size_t *h_bits_out);
GCOL_API gcol_status_t gcol_bloom_size(const gcol_bloom_t *bloom, size_t *h_bytes_out);

/* The filter as bytes, to persist it or rebuild it elsewhere (since 1.3.0):
 * a 32-byte header (bytes 0-3 "GBLM", byte 4 format version 1, byte 5 the
 * key width 4 or 8, bytes 6-7 zero, bytes 8-15 the seed, bytes 16-23 the
 * number of 32-byte blocks, bytes 24-31 zero; integers little-endian), then
 * the filter's bits as gcol_bloom_size bytes: four little-endian 64-bit
 * words per block, blocks in order (the device's own layout).
 * gcol_bloom_export_size gives 32 + gcol_bloom_size (host-side, no device
 * work). gcol_bloom_export writes that many bytes to h_bytes (host memory
 * with room for capacity bytes; INVALID_ARGUMENT if NULL or too small),
 * sets *h_len_out (may be NULL) and synchronizes s. */
GCOL_API gcol_status_t gcol_bloom_export_size(const gcol_bloom_t *bloom, size_t *h_bytes_out);
GCOL_API gcol_status_t gcol_bloom_export(const gcol_bloom_t *bloom, void *h_bytes, size_t capacity, size_t *h_len_out,
                                         cudaStream_t s);

/* Replace bloom's bits with exported bytes (host memory, len bytes). To
 * rebuild an exported filter, create one with size_bytes = the exported
 * filter's gcol_bloom_size, a key type of the same width and the same seed,
 * then import. Refused with INVALID_ARGUMENT, bloom unchanged: h_bytes NULL,
 * a wrong length, magic, format version or nonzero reserved bytes, a key
 * width, seed or block count other than bloom's. Synchronizes s (h_bytes,
 * pageable or pinned, may be reused on return). */
GCOL_API gcol_status_t gcol_bloom_import(gcol_bloom_t *bloom, const void *h_bytes, size_t len, cudaStream_t s);

/* Device-side access: pass the view by value to a kernel and use it through
 * include/gcol/device/bloom.cuh (gcol::bloom_ref<Key>: add/contains per
 * thread and per tile). Fields are the library's business. The view lives
 * as long as the filter. No device work, no synchronization. */
typedef struct {
  uint64_t *words;     /* 4 per block */
  uint64_t num_blocks;
  uint64_t seed;
  int32_t key_bytes;   /* 4 or 8 */
  int32_t reserved;
} gcol_bloom_view_t;
GCOL_API gcol_status_t gcol_bloom_device_view(const gcol_bloom_t *bloom, gcol_bloom_view_t *view_out);

/* ------------------------------------------------------------------------ */
/* HyperLogLog (gcol_hll_t)                                                 */
/* ------------------------------------------------------------------------ */
/* A HyperLogLog sketch of m = 2^precision registers (precision 4..18) that
 * estimates the number of distinct items added. Item x (4-byte items
 * zero-extended) is hashed with h = murmur3-fmix64(x ^ seed); its register
 * is the top `precision` bits of h and its rank is 1 + the number of leading
 * zeros of the remaining 64 - precision bits (at most 65 - precision), the
 * register keeping the largest rank. The estimate is Ertl's improved
 * estimator over the register histogram (O. Ertl, "New cardinality
 * estimation algorithms for HyperLogLog sketches", 2017), which corrects the
 * small-cardinality bias that HLL++ corrects with empirical tables and turns
 * into linear counting as cardinalities go to 0; standard error about
 * 1.04 / sqrt(m) at every cardinality. Precision 18 (256 K registers, about
 * 0.2%) is the most the library keeps in shared memory; 4 the least the
 * estimator is defined for.
 *
 * Calls are stream-ordered; estimate and export synchronize s. Memory: 4
 * bytes per register from cfg.allocator. */
typedef struct gcol_hll gcol_hll_t;

typedef struct {
  GCOL_CONFIG_HEADER
  int precision;            /* 4..18, default 13 (8192 registers, 1.15%) */
  uint64_t seed;            /* hash seed; merge and import need equal seeds */
  gcol_allocator_t allocator; /* zeroed: cudaMallocAsync */
} gcol_hll_config_t;

GCOL_API gcol_hll_config_t gcol_hll_config_default(void);

/* Create an empty sketch (registers 0, set on s); *hll = NULL on failure.
 * INVALID_ARGUMENT (precision out of range, bad allocator), OUT_OF_MEMORY,
 * NO_DEVICE. */
GCOL_API gcol_status_t gcol_hll_create(gcol_hll_t **hll, const gcol_hll_config_t *cfg, cudaStream_t s);
GCOL_API void gcol_hll_destroy(gcol_hll_t *hll);

/* Add n items of type t (device, aligned to its size; NULL only when
 * n == 0). Integers are hashed as bits (zero-extended when 4 bytes);
 * GCOL_F32 / GCOL_F64 items are hashed as bits after -0.0 is made 0.0 and
 * every NaN the canonical one, so equal values count once. Keep one type per
 * sketch: a 4-byte 1 and an 8-byte 1 are the same item. */
GCOL_API gcol_status_t gcol_hll_add(gcol_hll_t *hll, const void *d_items, size_t n, gcol_type_t t, cudaStream_t s);

/* Add n raw items of item_bytes (4 or 8) each, hashed as bits. */
GCOL_API gcol_status_t gcol_hll_add_raw(gcol_hll_t *hll, const void *d_items, size_t n, size_t item_bytes,
                                        cudaStream_t s);

/* dst's registers become max(dst, src): dst then estimates the union. Same
 * precision and seed, else INVALID_ARGUMENT and dst unchanged. Asynchronous. */
GCOL_API gcol_status_t gcol_hll_merge(gcol_hll_t *dst, const gcol_hll_t *src, cudaStream_t s);

/* *h_estimate_out = estimated distinct items. Synchronizes s. */
GCOL_API gcol_status_t gcol_hll_estimate(const gcol_hll_t *hll, double *h_estimate_out, cudaStream_t s);

/* All registers 0; asynchronous. */
GCOL_API gcol_status_t gcol_hll_clear(gcol_hll_t *hll, cudaStream_t s);

/* The sketch as bytes, to persist it or merge it elsewhere: a 16-byte
 * header (bytes 0-3 "GHLL", byte 4 format version 1, byte 5 the precision,
 * bytes 6-7 zero, bytes 8-15 the seed, little-endian), then one byte per
 * register. gcol_hll_export_size gives 16 + 2^precision (host-side).
 * gcol_hll_export writes that many bytes to h_bytes (host memory, room for
 * capacity bytes; INVALID_ARGUMENT if too small) and synchronizes s. */
GCOL_API gcol_status_t gcol_hll_export_size(const gcol_hll_t *hll, size_t *h_bytes_out);
GCOL_API gcol_status_t gcol_hll_export(const gcol_hll_t *hll, void *h_bytes, size_t capacity, size_t *h_len_out,
                                       cudaStream_t s);

/* Replace hll's registers with exported bytes (host memory, len bytes);
 * merge them instead with gcol_hll_import_merge. Refused with
 * INVALID_ARGUMENT, hll unchanged: a wrong length, magic, version or
 * nonzero reserved bytes, a precision or seed other than hll's, a register
 * above 65 - precision. Asynchronous (the bytes are copied before return). */
GCOL_API gcol_status_t gcol_hll_import(gcol_hll_t *hll, const void *h_bytes, size_t len, cudaStream_t s);
GCOL_API gcol_status_t gcol_hll_import_merge(gcol_hll_t *hll, const void *h_bytes, size_t len, cudaStream_t s);

/* *h_precision_out, host-side. */
GCOL_API gcol_status_t gcol_hll_precision(const gcol_hll_t *hll, int *h_precision_out);

/* Device-side access (include/gcol/device/hll.cuh: gcol::hll_ref, add per
 * thread from users' kernels). */
typedef struct {
  uint32_t *registers; /* 2^precision, one per uint32 */
  uint64_t seed;
  int32_t precision;
  int32_t reserved;
} gcol_hll_view_t;
GCOL_API gcol_status_t gcol_hll_device_view(const gcol_hll_t *hll, gcol_hll_view_t *view_out);

/* ------------------------------------------------------------------------ */
/* String dictionary (byte-string keys; issue 25)                           */
/* ------------------------------------------------------------------------ */
/* gcol_strmap_t maps byte strings of any length (0 to
 * GCOL_STRMAP_MAX_KEY_BYTES bytes) to values: dense ids numbered in
 * first-seen order (dictionary encoding), or values of any gcol_type_t
 * (a map; insert_or_apply is a string group-by). Strings are compared as
 * bytes; the empty string is a key like any other.
 *
 *   gcol_strmap_config_t cfg = gcol_strmap_config_default(GCOL_U32);
 *   gcol_strmap_t *m;
 *   gcol_strmap_create(&m, &cfg, s);
 *   gcol_strings_t col = {d_offsets, GCOL_I32, d_chars, chars_bytes, n};
 *   gcol_strmap_insert_and_find(m, &col, NULL, d_ids, NULL, s);   ids per row
 *   gcol_strmap_retrieve_all(m, NULL, GCOL_I32, NULL, NULL, &k, &bytes, s);
 *   ... allocate k + 1 offsets, bytes chars, k values ...
 *   gcol_strmap_retrieve_all(m, d_dict_off, GCOL_I32, d_dict_chars, d_dict_ids, &k, &bytes, s);
 *
 * Strings come Arrow-style (gcol_strings_t): string i is the bytes
 * d_chars[offsets[i] .. offsets[i + 1]), so n strings take n + 1 offsets
 * (int32 or int64, as Arrow's StringArray / LargeStringArray; offsets[0]
 * need not be 0, as in a sliced array). The map copies the bytes of every
 * new string into an arena of its own (allocated through cfg.allocator):
 * the inputs may be freed once the call's work on the stream is done.
 *
 * Guarantees:
 *  - Linearizable per key: calls are ordered on their stream and a call
 *    sees every string of the calls before it. Inside one call, every
 *    occurrence of a string resolves to one entry (duplicates in a batch are
 *    stored once).
 *  - First-seen order: the strings new to a call become entries in the
 *    order of their first row in the call. With dense ids (d_values NULL),
 *    the id of a new string is the number of strings stored before the call
 *    plus its rank among the call's new strings by first row, so ids are
 *    0, 1, 2, ... over the map's life (until clear) and deterministic.
 *  - With user values, a new string takes the value of its first row.
 *  - retrieve_all lists the strings in entry order: for a map filled with
 *    dense ids, string i has id i (the dictionary, as Arrow has it).
 *  - Erase is not offered: entries are never removed (clear empties the
 *    map), which is what keeps ids dense and retrieve_all a copy.
 *
 * Checks of the strings (every call that takes them): on the host, as for
 * any call, NULL, alignment (offsets 4- or 8-byte aligned) and memory kind;
 * d_chars may be NULL only when chars_bytes is 0. On the device, each row
 * checks 0 <= offsets[i] <= offsets[i + 1] <= chars_bytes and a length of at
 * most GCOL_STRMAP_MAX_KEY_BYTES, during the call's first pass (no extra
 * pass over the data; the kernels read no byte outside [0, chars_bytes) of
 * d_chars). The call then synchronizes s once to read the verdict: a bad
 * row makes it return GCOL_ERROR_INVALID_ARGUMENT naming the first bad row
 * and the rule, with the map unchanged (slots the call had claimed are
 * released) and no output to rely on. Offsets shorter than n + 1 entries
 * cannot be seen (only the first element's address is checked, as for
 * every pointer): the caller's bug.
 * Every call that takes strings therefore synchronizes s once (an insert
 * reads its verdict and how many strings and bytes it adds, then sizes the
 * arena and commits); besides that, growth as the map's ("Growth"
 * above, counting every row as possibly new), and a growable strmap never
 * reports GCOL_ERROR_FULL. Limits: n <= GCOL_STRMAP_MAX_ROWS per call and
 * at most GCOL_STRMAP_MAX_ROWS distinct strings (INVALID_ARGUMENT /
 * OUT_OF_MEMORY beyond). Memory: 8 bytes per slot, 28 per entry (slots *
 * max_load_factor of them are allocated), the arena (the distinct strings'
 * bytes, grown by doubling), and during an insert-type call about 60 bytes
 * per row of temporary storage from the allocator. */
#define GCOL_STRMAP_MAX_KEY_BYTES ((size_t)1 << 24) /* 16 MiB per string */
#define GCOL_STRMAP_MAX_ROWS ((size_t)0x7ffffffd)    /* rows per call; distinct strings */

typedef struct gcol_strmap gcol_strmap_t;

/* A column of n byte strings on the device (plain struct, read during the
 * call only). */
typedef struct {
  const void *d_offsets;   /* device, n + 1 offsets of offset_type (NULL only when n == 0) */
  gcol_type_t offset_type; /* GCOL_I32 or GCOL_I64 (else INVALID_ARGUMENT) */
  const void *d_chars;     /* device, chars_bytes bytes (NULL only when chars_bytes == 0) */
  size_t chars_bytes;      /* bytes at d_chars: every offset must be <= this */
  size_t n;                /* strings */
} gcol_strings_t;

typedef struct {
  GCOL_CONFIG_HEADER
  gcol_type_t value_type;  /* any gcol_type_t; dense ids need an integer type
                              (GCOL_U32 holds up to 2^32 - 1 ids) */
  size_t capacity;         /* lower bound on slots (>= 1); rounded up to a
                              prime number of 8-slot buckets */
  double max_load_factor;  /* as gcol_map_config_t's; default 0.8 */
  int growable;            /* default 1 (grows as strings arrive, as a
                              growable map); 0: fixed, rows that find no slot
                              are skipped and GCOL_ERROR_FULL latched */
  uint64_t empty_value;    /* what find writes for an absent string; default
                              all ones of the value width */
  uint64_t seed;           /* hash seed */
  gcol_allocator_t allocator; /* slots, entries, arena and temporaries */
  int growth_factor;       /* as gcol_map_config_t's: 0 or 2 (default), 4, 8 */
} gcol_strmap_config_t;

/* The defaults above for a value type, the header set. Needs no device. */
GCOL_API gcol_strmap_config_t gcol_strmap_config_default(gcol_type_t value);

/* Create an empty strmap (*m NULL on failure). Errors: INVALID_ARGUMENT (a
 * config rule, before NO_DEVICE), NO_DEVICE, OUT_OF_MEMORY, CUDA. */
GCOL_API gcol_status_t gcol_strmap_create(gcol_strmap_t **m, const gcol_strmap_config_t *cfg, cudaStream_t s);

/* Free (NULL or destroyed: no-op), stream-ordered on the last call's stream. */
GCOL_API void gcol_strmap_destroy(gcol_strmap_t *m);

/* Insert the strings of keys; a string already present keeps its value.
 *   keys            host struct (not NULL) describing device strings
 *   d_values        device, n values of value_type: a new string takes the
 *                   value of its first row; NULL: dense ids in first-seen
 *                   order (value_type must be an integer type)
 *   d_num_inserted  device, one size_t, or NULL: strings this call added
 * Synchronizes s once (see above). */
GCOL_API gcol_status_t gcol_strmap_insert(gcol_strmap_t *m, const gcol_strings_t *keys, const void *d_values,
                                          size_t *d_num_inserted, cudaStream_t s);

/* Insert like gcol_strmap_insert and write, per row i, the value stored for
 * string i after the call (its id with d_values NULL: dictionary encoding)
 * and whether row i inserted it (1 for the first row of each new string).
 *   d_values_out    device, n values (not NULL when n > 0)
 *   d_inserted_out  device, n bytes, or NULL
 * Rows skipped in a full fixed strmap get empty_value and 0. */
GCOL_API gcol_status_t gcol_strmap_insert_and_find(gcol_strmap_t *m, const gcol_strings_t *keys,
                                                   const void *d_values, void *d_values_out,
                                                   uint8_t *d_inserted_out, cudaStream_t s);

/* String group-by: an absent string is stored with the value of its first
 * row, then every other row applies op to the stored value atomically
 * (gcol_op_t's one meaning, as gcol_map_insert_or_apply: a column of ones
 * under GCOL_OP_ADD counts each string).
 *   d_values  device, n values of value_type (not NULL when n > 0)
 *   op        GCOL_OP_ADD, GCOL_OP_MIN or GCOL_OP_MAX */
GCOL_API gcol_status_t gcol_strmap_insert_or_apply(gcol_strmap_t *m, const gcol_strings_t *keys,
                                                   const void *d_values, gcol_op_t op, cudaStream_t s);

/* d_values_out[i] = the value of string i, or empty_value where absent.
 * Synchronizes s once (the strings' verdict). */
GCOL_API gcol_status_t gcol_strmap_find(const gcol_strmap_t *m, const gcol_strings_t *keys, void *d_values_out,
                                        cudaStream_t s);

/* d_found_out[i] = 1 if string i is present, else 0 (device, n bytes).
 * Synchronizes s once. */
GCOL_API gcol_status_t gcol_strmap_contains(const gcol_strmap_t *m, const gcol_strings_t *keys,
                                            uint8_t *d_found_out, cudaStream_t s);

/* Every stored string, Arrow-style, in entry order (see the guarantees),
 * with its value. Two phases:
 *  - d_offsets_out NULL: only *h_count_out (strings) and *h_chars_bytes_out
 *    (their bytes) are written; no device work, no synchronization.
 *  - else: d_offsets_out (device, count + 1 offsets of offset_type, aligned
 *    to it; offsets start at 0), d_chars_out (device, chars_bytes bytes;
 *    NULL allowed when that is 0), d_values_out (device, count values, or
 *    NULL) are written, and the counts; synchronizes s and returns (and
 *    clears) a latched GCOL_ERROR_FULL after writing.
 *   offset_type  GCOL_I32 or GCOL_I64 (I32 with more than INT32_MAX bytes:
 *                INVALID_ARGUMENT)
 *   h_count_out, h_chars_bytes_out  host (never NULL) */
GCOL_API gcol_status_t gcol_strmap_retrieve_all(gcol_strmap_t *m, void *d_offsets_out, gcol_type_t offset_type,
                                                void *d_chars_out, void *d_values_out, size_t *h_count_out,
                                                size_t *h_chars_bytes_out, cudaStream_t s);

/* Stored strings to *h_size_out. Synchronizes s; returns (and clears) a
 * latched GCOL_ERROR_FULL after writing it. */
GCOL_API gcol_status_t gcol_strmap_size(gcol_strmap_t *m, size_t *h_size_out, cudaStream_t s);

/* Slots to *h_capacity_out; host-side. */
GCOL_API gcol_status_t gcol_strmap_capacity(const gcol_strmap_t *m, size_t *h_capacity_out);

/* Remove every string (ids restart at 0) and the latched error; keeps the
 * slots and the arena's memory. Asynchronous. */
GCOL_API gcol_status_t gcol_strmap_clear(gcol_strmap_t *m, cudaStream_t s);

/* Synchronizes s; returns and clears the latched GCOL_ERROR_FULL, or a CUDA
 * error of earlier work on s, or GCOL_SUCCESS. */
GCOL_API gcol_status_t gcol_strmap_status(gcol_strmap_t *m, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif /* GCOL_GCOL_H */
