/* The solver's test hooks (read by the GCOL_TESTING build of sssp.cu). */
#include "sssp/sssp_internal.h"

gcol_detail_sssp_hooks_t gcol_detail_sssp_hooks = {0, NULL, NULL, 0, 0.0f, 0, 0, 0};
