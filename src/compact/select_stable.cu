/* STABLE-order select: cub::DeviceSelect::Flagged (decoupled look-back, one
 * pass) on items of each size as opaque words. */
#include <cub/device/device_select.cuh>
#include "compact_internal.h"
#include "item_types.cuh"

extern "C" cudaError_t gcol_select_stable_cub(void *d_temp, size_t *temp_bytes, const void *d_in,
                                              const uint8_t *d_flags, void *d_out, size_t *d_num_selected,
                                              size_t n, size_t item_bytes, cudaStream_t s) {
  return gcol::detail::with_item_word(item_bytes, [&](auto word) -> cudaError_t {
    typedef decltype(word) Item;
    return cub::DeviceSelect::Flagged(d_temp, *temp_bytes, static_cast<const Item *>(d_in), d_flags,
                                      static_cast<Item *>(d_out), d_num_selected, (int64_t)n, s);
  });
}
