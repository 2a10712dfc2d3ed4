/* The string dictionary object and the interface between its host files
 * (strmap.cu: public calls and checks; strmap_host.cu: the call pipeline,
 * growth and retrieval) and its kernels (strmap_kernels.cuh). CUDA C++. */
#ifndef GCOL_SRC_STRMAP_STRMAP_OBJECT_H
#define GCOL_SRC_STRMAP_STRMAP_OBJECT_H

#include "core/common.h"
#include "strmap_internal.h"

#define GCOL_STRMAP_MAGIC 0x53727473u /* a live strmap; 0 once destroyed */

namespace gcol {
namespace detail {

/* Entries: one per stored string, numbered in first-seen order (entry e of a
 * dense-id strmap has id e). Structure of arrays in one allocation. */
struct str_entries {
  void *block;
  size_t cap, bytes;
  unsigned long long *off, *hash, *val; /* arena offset, 64-bit hash, value bits */
  unsigned *len;
};

/* How an insert-type call sets values: dense ids, the first row's value,
 * or that plus op(stored, value) for every other row. */
enum str_upsert_mode { STR_IDS, STR_VALUES, STR_APPLY };

}  // namespace detail
}  // namespace gcol

struct gcol_strmap {
  uint32_t magic;
  gcol_strmap_config_t cfg;
  int vb;                        /* value bytes */
  unsigned long long *slots;     /* num_buckets * GCOL_STRMAP_BUCKET words */
  uint32_t num_buckets;
  size_t num_slots;
  gcol::detail::str_entries ent;
  unsigned char *arena;          /* the stored strings' bytes, in entry order */
  size_t arena_cap;
  /* Exact on the host: every change goes through a call that reads its
   * totals back (entries are never removed). */
  size_t count;                  /* stored strings (entries) */
  size_t arena_used;             /* their bytes */
  int latched_full;              /* a fixed strmap skipped rows */
  int num_sms;
  cudaStream_t last;             /* destroy frees on it */
};

namespace gcol {
namespace detail {

/* ---- strmap_host.cu ---- */
/* Slots for at least `capacity` (prime buckets) and their entries, empty. */
gcol_status_t str_init(gcol_strmap *m, cudaStream_t s);
void str_release(gcol_strmap *m);
gcol_status_t str_upsert(gcol_strmap *m, const gcol_strings_t &k, const void *values, str_upsert_mode mode, int op,
                         void *values_out, uint8_t *inserted_out, size_t *d_count, cudaStream_t s);
gcol_status_t str_lookup(const gcol_strmap *m, const gcol_strings_t &k, void *out, bool contains, cudaStream_t s);
gcol_status_t str_retrieve(gcol_strmap *m, void *offsets_out, gcol_type_t offset_type, void *chars_out,
                           void *values_out, cudaStream_t s);
gcol_status_t str_clear(gcol_strmap *m, cudaStream_t s);
/* Return and clear the latched FULL (after synchronizing s). */
gcol_status_t str_take_latched(gcol_strmap *m, cudaStream_t s);

}  // namespace detail
}  // namespace gcol
#endif
