/* The library's test hooks: one struct, in the test and bench build only.
 *
 * Sources that read a hook include this header and are compiled twice
 * (VARIANT_CU in the Makefile): with -DGCOL_TESTING into libgcol_testing.a,
 * where GCOL_HOOKS is the writable gcol_test_hooks (defined in
 * tests/support/test_hooks.c, which only that archive holds), and without
 * it into the shipped libraries, where GCOL_HOOKS is a constant of defaults
 * that the compiler folds away: no hook, counter or test-only field is in a
 * shipped object, and nothing here is exported.
 *
 * Tests set fields of gcol_test_hooks (not thread-safe) and put them back
 * with gcol_test_hooks_reset(); every field's zero is the library's own
 * behaviour. */
#ifndef GCOL_SRC_CORE_TEST_HOOKS_H
#define GCOL_SRC_CORE_TEST_HOOKS_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the shortest-path solver (sssp.cu, paths.cu, sssp_solve.cuh) ---- */
typedef struct {
  uint32_t heap_nodes;          /* 0: the default primary heap; else its node
                                   count (1..1057), e.g. tiny to force overflow */
  uint32_t *d_fallback_sources; /* NULL, or a device word that each
                                   gcol_sssp_many_to_many call sets (on its
                                   stream) to the number of sources whose
                                   primary heap overflowed and that the
                                   fallback solved */
  uint32_t *d_refills;          /* NULL, or a device word that each call
                                   zeroes and then counts heap refills in
                                   (overflows absorbed by rebuilding the
                                   heap from the distances) */
  uint32_t engine;              /* 0: the policy (sssp.cu); 1: the warp
                                   engine; 2: near-far wherever it applies */
  float delta_factor;           /* 0: the policy's near-far bucket width
                                   (gcol_detail_sssp_delta_factor x the
                                   mean arc weight); else this factor */
  uint32_t nf_blocks;           /* 0: near-far runs the blocks that fit;
                                   else at most this many (tests: several
                                   sources per block) */
  uint32_t last_engine;         /* set by each table call: the engine that
                                   ran it (1 warp, 2 near-far) */
  uint32_t nf_threads;          /* 0: near-far's block size by the policy
                                   (nearfar_threads: 512); else 256 or 512 */
} gcol_detail_sssp_hooks_t;

/* ---- the open-addressing core (oa_host.cu, dispatch_oa.cuh) ----
 * For one table at a time: the map or set whose device state is `table`
 * (set by the *_for_testing calls of tests/support/map_policy_override.cu). */
typedef struct {
  const void *table;      /* NULL: no table hooked */
  int lanes;              /* keys-only tables: 1 or 2 lanes probe a key
                             (each reading tile / lanes chunks); 0: the
                             tuning's */
  int grouped_always;     /* insert_or_apply grouped whatever the table's
                             place and the scratch's cost */
  int region_bits;        /* > 0: every batch of the row's region_ops in
                             2^region_bits regions, whatever its size */
  int find_keys;          /* 1 or 2: keys in flight per lookup tile where
                             two are compiled (tiles of an even lane
                             count); 0: the row's lookup_keys */
  size_t grouped_calls;   /* counted by the library: insert_or_apply calls */
  int grouped_passes;     /* that ran grouped, the last one's passes, */
  size_t region_calls;    /* and calls whose batch went in region order */
} gcol_detail_oa_hooks_t;

typedef struct {
  gcol_detail_sssp_hooks_t sssp;
  gcol_detail_oa_hooks_t oa;
  /* The Bloom filter's threads per key of the bulk kernels (1, 2 or 4;
   * bloom.cu); 0: the policy's (GCOL_BLOOM_ADD_TILE, GCOL_BLOOM_CONTAINS_TILE). */
  int bloom_add_tile, bloom_contains_tile;
  /* HyperLogLog precisions past kHllWordFieldsMaxPrecision (tuning_hll.h):
   * the ranks the shared fields cannot hold go to the global registers 1
   * read first (atomicMax only where larger), 2 by atomicMax at once; 0: the
   * tuning's kHllOverflowAtOnce. */
  int hll_overflow;
  /* Lanes per key of the multimap's and multiset's open insert (1, 2 or 4,
   * at most the bucket's chunks; others: the tuning's mm_insert_lanes,
   * tuning_mm.h); 0: the tuning's. */
  int mm_insert_lanes;
  /* The strmap strmap_masked (NULL: none) ANDs strmap_hash_mask into every
   * string's hash, so that distinct strings collide (tests of the byte
   * comparisons behind equal hashes; strmap_host.cu). */
  const void *strmap_masked;
  uint64_t strmap_hash_mask;
} gcol_test_hooks_t;

#ifdef GCOL_TESTING
extern gcol_test_hooks_t gcol_test_hooks;
/* Every hook back to zero: the library's own behaviour. */
void gcol_test_hooks_reset(void);
#define GCOL_HOOKS gcol_test_hooks
#else
static inline gcol_test_hooks_t gcol_no_test_hooks(void) {
  gcol_test_hooks_t h = {{0, NULL, NULL, 0, 0.0f, 0, 0, 0}, {NULL, 0, 0, 0, 0, 0, 0, 0}, 0, 0, 0, 0, NULL, 0};
  return h;
}
#define GCOL_HOOKS (gcol_no_test_hooks())
#endif

/* Whether the open-addressing table whose device state is `state` is the
 * hooked one (gcol_test_hooks.oa); never in the shipped build. */
static inline int gcol_oa_hooked(const void *state) {
  return GCOL_HOOKS.oa.table != NULL && GCOL_HOOKS.oa.table == state;
}

#ifdef __cplusplus
}
#endif
#endif
