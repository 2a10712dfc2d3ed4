/* One public call, for the lifetime of a C++ scope (CUDA host code only):
 * its name for error messages on this thread and its NVTX range. */
#ifndef GCOL_SRC_CORE_API_SCOPE_H
#define GCOL_SRC_CORE_API_SCOPE_H

#include "core/common.h"

namespace gcol {
namespace detail {
struct api_scope {
  explicit api_scope(const char *name) { gcol_api_begin(name); }
  ~api_scope() { gcol_api_end(); }
  api_scope(const api_scope &) = delete;
  api_scope &operator=(const api_scope &) = delete;
};
/* An NVTX range alone, for internal steps inside a public call (a growth):
 * messages keep naming the public call. */
struct nvtx_range {
  explicit nvtx_range(const char *name) { gcol_nvtx_push(name); }
  ~nvtx_range() { gcol_nvtx_pop(); }
  nvtx_range(const nvtx_range &) = delete;
  nvtx_range &operator=(const nvtx_range &) = delete;
};
}  // namespace detail
}  // namespace gcol
#endif
