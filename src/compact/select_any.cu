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
    case GCOL_AGG_THREAD: return launch<Item, ITEMS, GCOL_AGG_THREAD>(in, flags, out, counter, n, p->block_threads, s);
    case GCOL_AGG_WARP: return launch<Item, ITEMS, GCOL_AGG_WARP>(in, flags, out, counter, n, p->block_threads, s);
    case GCOL_AGG_BLOCK: return launch<Item, ITEMS, GCOL_AGG_BLOCK>(in, flags, out, counter, n, p->block_threads, s);
  }
  return cudaErrorInvalidValue;
}
}  // namespace

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
      case 4: return by_level<Item, 4>(in, d_flags, out, d_counter, n, p, s);
      case 8: return by_level<Item, 8>(in, d_flags, out, d_counter, n, p, s);
      case 16: return by_level<Item, 16>(in, d_flags, out, d_counter, n, p, s);
    }
    return cudaErrorInvalidValue;
  });
}
