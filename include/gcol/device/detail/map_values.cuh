/* Thread layer: value arithmetic of insert_or_apply on stored bits. */
#ifndef GCOL_DEVICE_DETAIL_MAP_VALUES_CUH
#define GCOL_DEVICE_DETAIL_MAP_VALUES_CUH

#include <stdint.h>
#include "gcol/gcol.h"
#include "gcol/device/detail/ops.cuh"

namespace gcol {
namespace detail {

/* op(a, b) on the bits of two values of type vtype (zero-extended to 64
 * bits), with gcol_op_t's one meaning (ops.cuh). */
__device__ __forceinline__ uint64_t combine_bits(uint64_t a, uint64_t b, int op, int vtype) {
  switch (vtype) {
    case GCOL_U32: return op_apply<uint32_t>((uint32_t)a, (uint32_t)b, op);
    case GCOL_I32: return (uint32_t)op_apply<int32_t>((int32_t)(uint32_t)a, (int32_t)(uint32_t)b, op);
    case GCOL_F32:
      return __float_as_uint(op_apply<float>(__uint_as_float((uint32_t)a), __uint_as_float((uint32_t)b), op));
    case GCOL_U64: return op_apply<uint64_t>(a, b, op);
    case GCOL_I64: return (uint64_t)op_apply<int64_t>((int64_t)a, (int64_t)b, op);
    default:
      return (uint64_t)__double_as_longlong(
          op_apply<double>(__longlong_as_double((long long)a), __longlong_as_double((long long)b), op));
  }
}

/* The bits of one in value type vtype: what every key adds when
 * insert_or_apply counts (GCOL_OP_ADD with no values). */
__host__ __device__ __forceinline__ uint64_t one_bits(int vtype) {
  return vtype == GCOL_F32 ? 0x3f800000ULL : vtype == GCOL_F64 ? 0x3ff0000000000000ULL : 1ULL;
}

/* Apply op to a 64-bit value word in place, atomically; a 4-byte value lives
 * in the word's low half (little endian). Native atomics where the hardware
 * has them, a CAS loop for float MIN/MAX. */
__device__ __forceinline__ void atomic_apply_word(unsigned long long *w, uint64_t v, int op, int vtype) {
  unsigned *w32 = reinterpret_cast<unsigned *>(w);
  switch (vtype) {
    case GCOL_U32:
      if (op == GCOL_OP_ADD) atomicAdd(w32, (unsigned)v);
      else if (op == GCOL_OP_MIN) atomicMin(w32, (unsigned)v);
      else atomicMax(w32, (unsigned)v);
      return;
    case GCOL_I32:
      if (op == GCOL_OP_ADD) atomicAdd(w32, (unsigned)v);
      else if (op == GCOL_OP_MIN) atomicMin(reinterpret_cast<int *>(w32), (int)(uint32_t)v);
      else atomicMax(reinterpret_cast<int *>(w32), (int)(uint32_t)v);
      return;
    case GCOL_U64:
      if (op == GCOL_OP_ADD) atomicAdd(w, (unsigned long long)v);
      else if (op == GCOL_OP_MIN) atomicMin(w, (unsigned long long)v);
      else atomicMax(w, (unsigned long long)v);
      return;
    case GCOL_I64:
      if (op == GCOL_OP_ADD) atomicAdd(w, (unsigned long long)v);
      else if (op == GCOL_OP_MIN) atomicMin(reinterpret_cast<long long *>(w), (long long)v);
      else atomicMax(reinterpret_cast<long long *>(w), (long long)v);
      return;
    case GCOL_F32:
      if (op == GCOL_OP_ADD) { atomicAdd(reinterpret_cast<float *>(w32), __uint_as_float((uint32_t)v)); return; }
      break;
    default:
      if (op == GCOL_OP_ADD) { atomicAdd(reinterpret_cast<double *>(w), __longlong_as_double((long long)v)); return; }
      break;
  }
  /* float MIN/MAX */
  if (vtype == GCOL_F32) {
    unsigned cur = *reinterpret_cast<volatile unsigned *>(w32);
    for (;;) {
      unsigned nv = (unsigned)combine_bits(cur, v, op, vtype);
      if (nv == cur) return;
      unsigned old = atomicCAS(w32, cur, nv);
      if (old == cur) return;
      cur = old;
    }
  }
  unsigned long long cur = *reinterpret_cast<volatile unsigned long long *>(w);
  for (;;) {
    unsigned long long nv = combine_bits(cur, v, op, vtype);
    if (nv == cur) return;
    unsigned long long old = atomicCAS(w, cur, nv);
    if (old == cur) return;
    cur = old;
  }
}

}  // namespace detail
}  // namespace gcol
#endif
