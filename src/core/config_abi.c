#include <string.h>
#include "config_abi.h"
#include "error.h"

static const uint32_t our_version = GCOL_VERSION_MAJOR * 10000u + GCOL_VERSION_MINOR * 100u + GCOL_VERSION_PATCH;

gcol_config_header_t gcol_config_header(size_t size) {
  gcol_config_header_t h;
  h.size = size;
  h.magic = GCOL_CONFIG_MAGIC;
  h.version = our_version;
  return h;
}

gcol_status_t gcol_config_take(const void *in, void *out, size_t min_size, size_t out_size, const char *what) {
  if (!in) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "%s is NULL", what);
  gcol_config_header_t h;
  memcpy(&h, in, sizeof h);
  if (h.magic != GCOL_CONFIG_MAGIC)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT,
                     "%s was not made by its _default function (magic 0x%08x, want 0x%08x; a struct from "
                     "before gcol 1.0?)",
                     what, (unsigned)h.magic, (unsigned)GCOL_CONFIG_MAGIC);
  if (h.version / 10000u != GCOL_VERSION_MAJOR)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "%s is from gcol major version %u; this library is %u", what,
                     (unsigned)(h.version / 10000u), (unsigned)GCOL_VERSION_MAJOR);
  if (h.size < min_size || h.size > out_size)
    return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT,
                     "%s has size %zu; this library (version %u) takes %zu to %zu bytes%s", what, h.size,
                     (unsigned)our_version, min_size, out_size,
                     h.size > out_size ? " (built against a newer gcol.h than the library loaded)" : "");
  memcpy(out, in, h.size);
  ((gcol_config_header_t *)out)->size = out_size;
  return GCOL_SUCCESS;
}
