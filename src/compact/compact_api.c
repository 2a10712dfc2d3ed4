/* Public entry of the device-scope primitives (CUB's device/ layer): check
 * arguments, open the NVTX range, check the device, pick the policy and
 * forward. No algorithm here. */
#include <stdint.h>
#include "compact_internal.h"
#include "core/args.h"
#include "core/common.h"

#define BAD(...) gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, __VA_ARGS__)

static int valid_item_bytes(size_t b) { return b == 1 || b == 2 || b == 4 || b == 8 || b == 16; }

static int valid_op(gcol_op_t op) { return op == GCOL_OP_ADD || op == GCOL_OP_MIN || op == GCOL_OP_MAX; }

/* A size query's answer, never 0 (a 0-byte allocation is NULL, which would
 * ask the size again). */
static gcol_status_t at_least_one(size_t *temp_bytes, cudaError_t e) {
  if (e == cudaSuccess && *temp_bytes == 0) *temp_bytes = 1;
  return gcol_from_cuda(e);
}

/* *temp_bytes against what the CUB call needs (it re-sizes on the host). */
#define NEEDS_AT_LEAST(query)                                                                            \
  do {                                                                                                   \
    size_t need_ = 0;                                                                                    \
    GCOL_CUDA_TRY(query);                                                                                \
    if (*temp_bytes < need_) return BAD("*temp_bytes %zu is less than the %zu bytes needed", *temp_bytes, need_); \
  } while (0)

static gcol_status_t select_flagged(void *d_temp, size_t *temp_bytes, const void *d_in, const uint8_t *d_flags,
                                    void *d_out, size_t *d_num_selected, size_t n, size_t item_bytes,
                                    gcol_order_t order, cudaStream_t s) {
  if (!temp_bytes) return BAD("temp_bytes is NULL");
  if (!valid_item_bytes(item_bytes)) return BAD("item_bytes %zu is not 1, 2, 4, 8 or 16", item_bytes);
  if (order != GCOL_ORDER_STABLE && order != GCOL_ORDER_ANY)
    return BAD("order %d is not GCOL_ORDER_STABLE or GCOL_ORDER_ANY", (int)order);
  if (n > (size_t)PTRDIFF_MAX) return BAD("n %zu is more than PTRDIFF_MAX", n);
  if (d_temp) {
    gcol_dptr_t a[] = {{"d_in", d_in, n, item_bytes, "items"},
                       gcol_flags_arg("d_flags", d_flags, n),
                       {"d_out", d_out, n, item_bytes, "items"},
                       {"d_num_selected", d_num_selected, 1, 8, "one size_t"},
                       {"d_temp", d_temp, 1, 1, "temp storage"}};
    if (order == GCOL_ORDER_ANY && *temp_bytes < GCOL_SELECT_ANY_TEMP_BYTES)
      return BAD("*temp_bytes %zu is less than the %zu bytes asked for", *temp_bytes,
                 (size_t)GCOL_SELECT_ANY_TEMP_BYTES);
    GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  }
  GCOL_TRY(gcol_require_device());
  if (order == GCOL_ORDER_ANY) {
    if (!d_temp) {
      *temp_bytes = GCOL_SELECT_ANY_TEMP_BYTES;
      return GCOL_SUCCESS;
    }
    gcol_device_info_t info;
    GCOL_TRY(gcol_current_device_info(&info));
    gcol_select_policy_t p = gcol_select_policy_for(info.cc_major);
    GCOL_CUDA_TRY(cudaMemsetAsync(d_num_selected, 0, sizeof *d_num_selected, s));
    return gcol_from_cuda(gcol_select_any_launch(d_in, d_flags, d_out, (unsigned long long *)d_num_selected, n,
                                                 item_bytes, &p, s));
  }
  if (!d_temp)
    return at_least_one(temp_bytes, gcol_select_stable_cub(NULL, temp_bytes, d_in, d_flags, d_out, d_num_selected,
                                                           n, item_bytes, s));
  NEEDS_AT_LEAST(gcol_select_stable_cub(NULL, &need_, d_in, d_flags, d_out, d_num_selected, n, item_bytes, s));
  if (n == 0) return gcol_from_cuda(cudaMemsetAsync(d_num_selected, 0, sizeof *d_num_selected, s));
  size_t bytes = *temp_bytes; /* the caller's value stays as it was */
  return gcol_from_cuda(
      gcol_select_stable_cub(d_temp, &bytes, d_in, d_flags, d_out, d_num_selected, n, item_bytes, s));
}

gcol_status_t gcol_select_flagged(void *d_temp, size_t *temp_bytes, const void *d_in, const uint8_t *d_flags,
                                  void *d_out, size_t *d_num_selected, size_t n, size_t item_bytes,
                                  gcol_order_t order, cudaStream_t s) {
  gcol_api_begin("gcol_select_flagged");
  gcol_status_t st = select_flagged(d_temp, temp_bytes, d_in, d_flags, d_out, d_num_selected, n, item_bytes, order, s);
  gcol_api_end();
  return st;
}

typedef cudaError_t (*numeric_fn)(void *, size_t *, const void *, void *, size_t, gcol_type_t, gcol_op_t,
                                  cudaStream_t);

/* reduce and scan share their checks; out_n is how many elements d_out holds. */
static gcol_status_t numeric(numeric_fn f, size_t out_n, void *d_temp, size_t *temp_bytes, const void *d_in,
                             void *d_out, size_t n, gcol_type_t t, gcol_op_t op, cudaStream_t s) {
  const size_t tb = gcol_type_size(t);
  if (!temp_bytes) return BAD("temp_bytes is NULL");
  if (!tb) return BAD("t %d is not a gcol_type_t", (int)t);
  if (t == GCOL_U128) return BAD("t is GCOL_U128, a key type only");
  if (!valid_op(op)) return BAD("op %d is not GCOL_OP_ADD, GCOL_OP_MIN or GCOL_OP_MAX", (int)op);
  if (n > (size_t)PTRDIFF_MAX) return BAD("n %zu is more than PTRDIFF_MAX", n);
  if (d_temp) {
    gcol_dptr_t a[] = {{"d_in", d_in, n, tb, gcol_type_name(t)}, {"d_out", d_out, out_n, tb, gcol_type_name(t)}};
    GCOL_TRY(gcol_check_dptrs(a, GCOL_NARGS(a)));
  }
  GCOL_TRY(gcol_require_device());
  if (!d_temp) return at_least_one(temp_bytes, f(NULL, temp_bytes, d_in, d_out, n, t, op, s));
  NEEDS_AT_LEAST(f(NULL, &need_, d_in, d_out, n, t, op, s));
  size_t bytes = *temp_bytes;
  return gcol_from_cuda(f(d_temp, &bytes, d_in, d_out, n, t, op, s));
}

gcol_status_t gcol_reduce(void *d_temp, size_t *temp_bytes, const void *d_in, void *d_out, size_t n, gcol_type_t t,
                          gcol_op_t op, cudaStream_t s) {
  gcol_api_begin("gcol_reduce");
  gcol_status_t st = numeric(gcol_reduce_cub, 1, d_temp, temp_bytes, d_in, d_out, n, t, op, s);
  gcol_api_end();
  return st;
}

gcol_status_t gcol_exclusive_scan(void *d_temp, size_t *temp_bytes, const void *d_in, void *d_out, size_t n,
                                  gcol_type_t t, gcol_op_t op, cudaStream_t s) {
  gcol_api_begin("gcol_exclusive_scan");
  gcol_status_t st = numeric(gcol_exclusive_scan_cub, n, d_temp, temp_bytes, d_in, d_out, n, t, op, s);
  gcol_api_end();
  return st;
}
