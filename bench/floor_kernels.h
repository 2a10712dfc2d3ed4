/* The floor kernels (issues 23, 24 and 38): for a DRAM-bound row, a kernel
 * that does only the memory work no implementation of that layout can skip
 * (read the key, hash it, read its one home bucket or filter block, write
 * the output; for inserts, erases and adds also the one atomic that changes
 * the bucket) on a table of the row's size, and nothing else. The best of
 * its shapes (1, 2 or 4 lanes per key, 1 or 2 keys in flight per tile, for
 * atomics also half the grid) is the floor. bench_floor prints them all;
 * bench_map, bench_set, bench_multimap and bench_sketch measure the floor of
 * each of their rows in the same process and print the row's share of it.
 * The one home of this code is bench/floor_kernels.cu. */
#ifndef GCOL_BENCH_FLOOR_KERNELS_H
#define GCOL_BENCH_FLOOR_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include "bench_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  BENCH_FLOOR_READ,       /* lookups: read the home bucket, write out_bytes per key (0: a total only) */
  BENCH_FLOOR_CAS8,       /* insert / erase: read the home bucket, one succeeding 8-byte CAS on its first slot */
  BENCH_FLOOR_CAS16,      /* the same with a 16-byte CAS (sm_90; a pair's key half) */
  BENCH_FLOOR_OR4,        /* Bloom add: four 8-byte ORs into the key's block */
  BENCH_FLOOR_CAS8_SLOT,  /* multiset insert: read the home bucket, one 8-byte CAS on slot (i mod slots) of
                             it, so the copies of one key take different slots of the same bucket */
  BENCH_FLOOR_CAS16_SLOT  /* the same on 16-byte slots (multimap insert of pairs) */
} bench_floor_op_t;

typedef struct {
  int key_bytes;      /* 4 or 8 */
  int bucket_bytes;   /* 16, 32, 64 or 128 */
  int out_bytes;      /* BENCH_FLOOR_READ: 0, 1, 4 or 8 */
  bench_floor_op_t op;
  size_t table_bytes; /* the container's table (or filter) */
  double p_full;      /* READ: chance that a bucket is full, so a miss reads a further random one */
} bench_floor_spec_t;

typedef struct {
  double gops;       /* G keys/s: the best shape's median */
  int lanes, keys;   /* the best shape: lanes per key, keys in flight per tile */
  int half_grid;
} bench_floor_t;

/* The floor of spec over the n keys at keys (device; key_bytes wide). The
 * table and output live in scratch of this module, grown as needed (the
 * table is filled with 0xff once per growth); g: bench_init's. Prints
 * nothing but, for an unsupported spec (key, bucket or output width), a
 * line on stderr; that floor is then 0 (the benches print none). */
bench_floor_t bench_floor_measure(const bench_gpu_t *g, const bench_floor_spec_t *spec, const void *keys, size_t n);

/* bench_floor_measure's G keys/s for the spec of these fields, or 0 where
 * GCOL_BENCH_NO_FLOOR is set (the benches then print no floor). */
double bench_floor_gops(const bench_gpu_t *g, bench_floor_op_t op, int key_bytes, int bucket_bytes, int out_bytes,
                        size_t table_bytes, double p_full, const void *keys, size_t n);

/* Frees the scratch of bench_floor_measure (a bench calls it before it
 * needs the memory back). */
void bench_floor_release(void);

/* The share of buckets without an empty slot in a table of num_buckets
 * buckets of bucket_bytes, slots of slot_bytes whose first key_bytes (4 or
 * 8; of a 16-byte key its first 8) hold the key (a gcol map's or set's
 * device view). */
double bench_floor_full_share(const void *slots, size_t num_buckets, int bucket_bytes, int slot_bytes, int key_bytes,
                              uint64_t empty_key);

/* n keys on the device over n / copies distinct ones, each at least once,
 * in hashed order (the multiset's and multimap's inputs for a floor). */
void *bench_floor_repeated_keys(size_t n, size_t kb, size_t copies, uint64_t off);

#ifdef __cplusplus
}
#endif
#endif
