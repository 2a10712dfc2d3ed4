/* Dispatch of the ANY-order select: the policy picks the kernel variant
 * (items per thread, aggregation level) and the block size; one generic
 * kernel (select_any_agent.cuh) is instantiated per item size here. */
#include <climits>
#include "compact_internal.h"
#include "item_types.cuh"
#include "select_any_agent.cuh"

namespace {
using gcol::detail::select_any_kernel;

template <class Item, int ITEMS, int AGG>
cudaError_t launch(const Item *in, const uint8_t *flags, Item *out, unsigned long long *counter, size_t n,
                   int block_threads, cudaStream_t s) {
  const size_t tile_items = (size_t)block_threads * ITEMS;
  size_t grid = (n + tile_items - 1) / tile_items;
  if (grid > INT_MAX) grid = INT_MAX; /* the kernel strides over the rest */
  select_any_kernel<Item, ITEMS, AGG><<<(unsigned)grid, block_threads, 0, s>>>(in, flags, out, counter, n);
  return cudaGetLastError();
}

template <class Item, int ITEMS>
cudaError_t by_level(const Item *in, const uint8_t *flags, Item *out, unsigned long long *counter, size_t n,
                     const gcol_select_policy_t *p, cudaStream_t s) {
  switch (p->aggregate) {
#ifdef GCOL_TESTING
    case GCOL_AGG_THREAD: return launch<Item, ITEMS, GCOL_AGG_THREAD>(in, flags, out, counter, n, p->block_threads, s);
    case GCOL_AGG_WARP: return launch<Item, ITEMS, GCOL_AGG_WARP>(in, flags, out, counter, n, p->block_threads, s);
#endif
    case GCOL_AGG_BLOCK: return launch<Item, ITEMS, GCOL_AGG_BLOCK>(in, flags, out, counter, n, p->block_threads, s);
    default: return cudaErrorInvalidValue;
  }
}
}  // namespace

/* The shipped library compiles the variant every policy row picks
 * (compact_policy.h); the test and bench build (GCOL_TESTING) the whole
 * sweep: 4, 8 or 16 items per thread at each aggregation level. */
extern "C" int gcol_select_policy_supported(const gcol_select_policy_t *p) {
  if (!p || p->block_threads < 32 || p->block_threads > 1024 || p->block_threads % 32) return 0;
#ifdef GCOL_TESTING
  int items = p->items_per_thread;
  return (items == 4 || items == 8 || items == 16) &&
         (p->aggregate == GCOL_AGG_THREAD || p->aggregate == GCOL_AGG_WARP || p->aggregate == GCOL_AGG_BLOCK);
#else
  return p->items_per_thread == GCOL_SELECT_ITEMS && p->aggregate == GCOL_AGG_BLOCK;
#endif
}

extern "C" cudaError_t gcol_select_any_launch(const void *d_in, const uint8_t *d_flags, void *d_out,
                                              unsigned long long *d_counter, size_t n, size_t item_bytes,
                                              const gcol_select_policy_t *p, cudaStream_t s) {
  if (!gcol_select_policy_supported(p)) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  return gcol::detail::with_item_word(item_bytes, [&](auto word) -> cudaError_t {
    typedef decltype(word) Item;
    const Item *in = static_cast<const Item *>(d_in);
    Item *out = static_cast<Item *>(d_out);
    switch (p->items_per_thread) {
#ifdef GCOL_TESTING
      case 4: return by_level<Item, 4>(in, d_flags, out, d_counter, n, p, s);
      case 16: return by_level<Item, 16>(in, d_flags, out, d_counter, n, p, s);
#endif
      case GCOL_SELECT_ITEMS: return by_level<Item, GCOL_SELECT_ITEMS>(in, d_flags, out, d_counter, n, p, s);
    }
    return cudaErrorInvalidValue;
  });
}
