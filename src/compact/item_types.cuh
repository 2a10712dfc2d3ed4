/* Opaque items of 1, 2, 4, 8 and 16 bytes as the widest native word of that
 * size, so that one load or store moves a whole item (16 bytes: one
 * 128-bit access). Shared by every compaction kernel. */
#ifndef GCOL_SRC_COMPACT_ITEM_TYPES_CUH
#define GCOL_SRC_COMPACT_ITEM_TYPES_CUH

#include <cstdint>
#include <vector_types.h>

namespace gcol {
namespace detail {
template <int B> struct item_word;
template <> struct item_word<1> { typedef uint8_t type; };
template <> struct item_word<2> { typedef uint16_t type; };
template <> struct item_word<4> { typedef uint32_t type; };
template <> struct item_word<8> { typedef unsigned long long type; };
template <> struct item_word<16> { typedef uint4 type; };

/* Call f(item_word<B>::type{}) for item_bytes B; cudaErrorInvalidValue for
 * another size (the API rejects those first). */
template <class F>
cudaError_t with_item_word(size_t item_bytes, F f) {
  switch (item_bytes) {
    case 1: return f(item_word<1>::type{});
    case 2: return f(item_word<2>::type{});
    case 4: return f(item_word<4>::type{});
    case 8: return f(item_word<8>::type{});
    case 16: return f(item_word<16>::type{});
  }
  return cudaErrorInvalidValue;
}
}  // namespace detail
}  // namespace gcol
#endif
