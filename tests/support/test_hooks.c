/* The library's test hooks (core/test_hooks.h), read by the GCOL_TESTING
 * build of the sources that have hooks. */
#include <string.h>
#include "core/test_hooks.h"

gcol_test_hooks_t gcol_test_hooks;

void gcol_test_hooks_reset(void) { memset(&gcol_test_hooks, 0, sizeof gcol_test_hooks); }
