/* Thread-local error messages (gcol_last_error_message) and the name of the
 * public call being made, which every message starts with. */
#ifndef GCOL_SRC_CORE_ERROR_H
#define GCOL_SRC_CORE_ERROR_H

#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* This thread's message and the cudaError_t behind the last CUDA failure
 * (read by gcol_last_error_message / gcol_last_cuda_error). Each library
 * that links these internals (libgcol, libgcol_nccl) has its own. */
#define GCOL_MESSAGE_BYTES 512
#ifdef __cplusplus
#define GCOL_THREAD_LOCAL thread_local
#else
#define GCOL_THREAD_LOCAL _Thread_local
#endif
extern GCOL_THREAD_LOCAL char gcol_tls_message[GCOL_MESSAGE_BYTES];
extern GCOL_THREAD_LOCAL int gcol_tls_cuda_error;

/* Start / end of a public call: remembers its name for messages on this
 * thread and opens / closes its NVTX range. */
void gcol_api_begin(const char *call);
void gcol_api_end(void);

/* Set this thread's message to "<call>: <fmt...>" and return s. */
gcol_status_t gcol_fail(gcol_status_t s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The name of a type ("GCOL_U64"), for messages. */
const char *gcol_type_name(gcol_type_t t);

#ifdef __cplusplus
}
#endif
#endif
