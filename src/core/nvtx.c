/* NVTX ranges (nvtx.h): the only file that includes NVTX. */
#include "nvtx.h"

#ifndef GCOL_NVTX_DISABLE
#include <nvtx3/nvToolsExt.h>
#endif

void gcol_nvtx_push(const char *name) {
#ifndef GCOL_NVTX_DISABLE
  nvtxRangePushA(name);
#else
  (void)name;
#endif
}

void gcol_nvtx_pop(void) {
#ifndef GCOL_NVTX_DISABLE
  nvtxRangePop();
#endif
}
