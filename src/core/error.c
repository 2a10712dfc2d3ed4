/* The message behind the last error on this thread, and the public call it
 * belongs to. */
#include <stdarg.h>
#include <stdio.h>
#include "error.h"
#include "nvtx.h"

_Thread_local char gcol_tls_message[GCOL_MESSAGE_BYTES];
_Thread_local int gcol_tls_cuda_error;
/* Public calls nest (a growth inside an insert, create calling clear): the
 * names form a short stack so that a message after an inner call still
 * names the outer one. */
#define CALL_DEPTH 8
static _Thread_local const char *calls[CALL_DEPTH];
static _Thread_local int depth;

void gcol_api_begin(const char *call) {
  if (depth < CALL_DEPTH) calls[depth] = call;
  ++depth;
  gcol_nvtx_push(call);
}

void gcol_api_end(void) {
  if (depth > 0) --depth;
  gcol_nvtx_pop();
}

static const char *current_call(void) {
  if (depth <= 0) return "gcol";
  return calls[depth <= CALL_DEPTH ? depth - 1 : CALL_DEPTH - 1];
}

gcol_status_t gcol_fail(gcol_status_t s, const char *fmt, ...) {
  int used = snprintf(gcol_tls_message, sizeof gcol_tls_message, "%s: ", current_call());
  if (used < 0 || used >= (int)sizeof gcol_tls_message) return s;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(gcol_tls_message + used, sizeof gcol_tls_message - (size_t)used, fmt, ap);
  va_end(ap);
  return s;
}

const char *gcol_type_name(gcol_type_t t) {
  switch (t) {
    case GCOL_U32: return "GCOL_U32";
    case GCOL_U64: return "GCOL_U64";
    case GCOL_I32: return "GCOL_I32";
    case GCOL_I64: return "GCOL_I64";
    case GCOL_F32: return "GCOL_F32";
    case GCOL_F64: return "GCOL_F64";
    case GCOL_U128: return "GCOL_U128";
  }
  return "an unknown gcol_type_t";
}
