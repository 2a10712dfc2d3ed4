/* An NVTX range for the lifetime of a C++ scope (CUDA host code only). */
#ifndef GCOL_SRC_CORE_NVTX_SCOPE_H
#define GCOL_SRC_CORE_NVTX_SCOPE_H

#include "core/common.h"

namespace gcol {
namespace detail {
struct nvtx_scope {
  explicit nvtx_scope(const char *name) { gcol_nvtx_push(name); }
  ~nvtx_scope() { gcol_nvtx_pop(); }
  nvtx_scope(const nvtx_scope &) = delete;
  nvtx_scope &operator=(const nvtx_scope &) = delete;
};
}  // namespace detail
}  // namespace gcol
#endif
