/* NVTX ranges around public calls and their internal steps (no-ops with
 * -DGCOL_NVTX_DISABLE). Apart from error.c and cuda_status.c so that
 * neither of those needs the other for it. */
#ifndef GCOL_SRC_CORE_NVTX_H
#define GCOL_SRC_CORE_NVTX_H

#ifdef __cplusplus
extern "C" {
#endif

void gcol_nvtx_push(const char *name);
void gcol_nvtx_pop(void);

#ifdef __cplusplus
}
#endif
#endif
