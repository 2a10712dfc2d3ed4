/* The map's kernels for one key width x value width. The Makefile compiles
 * this file once per pair with -DGCOL_KB=.. -DGCOL_VB=.. (4 or 8 bytes). */
#include "dispatch_oa.cuh"

#if !defined(GCOL_KB) || !defined(GCOL_VB)
#error "compile with -DGCOL_KB=4|8 -DGCOL_VB=4|8"
#endif
template struct gcol::detail::oa_ops<GCOL_KB, GCOL_VB>;
