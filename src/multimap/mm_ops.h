/* Internal interface between the multimap's host API (multimap.cu) and its
 * kernels, instantiated once per key width x value width (mm_instance.cu). */
#ifndef GCOL_SRC_MULTIMAP_MM_OPS_H
#define GCOL_SRC_MULTIMAP_MM_OPS_H

#include <cuda_runtime_api.h>
#include "map/map_ops.h"

namespace gcol {
namespace detail {

/* What the kernels of one multimap see. */
struct mm_ref {
  table_ref t;       /* open: the slots; chained: the pool (capacity = nodes, num_buckets = heads) */
  unsigned *next;    /* chained: links */
  unsigned *heads;   /* chained: bucket heads */
  unsigned *locks;   /* GCOL_MULTIMAP_CHAINED: bucket locks; else NULL */
  int chained;
};

/* Where count and retrieve put their results (device pointers; NULL = not wanted). */
struct mm_query_out {
  unsigned long long *counts;   /* count: per query */
  unsigned long long *total;    /* count: the batch's sum (added to) */
  void *keys, *values;          /* retrieve */
  unsigned long long *queries;  /* retrieve: query index per match */
  unsigned long long capacity;  /* retrieve: room in the outputs */
  unsigned long long *cursor;   /* retrieve: next free output position (and the total) */
};

template <int KB, int VB>
struct mm_ops {
  static cudaError_t insert(int num_sms, const mm_ref &r, const void *keys, const void *values, size_t n,
                            unsigned long long *d_count, cudaStream_t s);
  /* count (write false) or retrieve (write true); l.solo_lookups picks a
   * thread per key for counts in open tables of its classes */
  static cudaError_t query(const launch_cfg &l, const mm_ref &r, const void *keys, size_t n, const mm_query_out &o,
                           bool write, cudaStream_t s);
};

}  // namespace detail
}  // namespace gcol
#endif
