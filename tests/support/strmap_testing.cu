/* gcol_strmap_set_hash_mask_for_testing: make distinct strings share hashes
 * (tests of the byte comparisons behind equal tags). Test builds only. */
#include "core/test_hooks.h"
#include "strmap/strmap_object.h"

extern "C" gcol_status_t gcol_strmap_set_hash_mask_for_testing(gcol_strmap_t *m, uint64_t mask) {
  if (!m || m->magic != GCOL_STRMAP_MAGIC || m->count) return GCOL_ERROR_INVALID_ARGUMENT;
  gcol_test_hooks.strmap_masked = m; /* until m is destroyed, or another strmap is masked */
  gcol_test_hooks.strmap_hash_mask = mask;
  return GCOL_SUCCESS;
}
