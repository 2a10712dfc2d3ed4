/* Whether a device buffer is long enough, where the driver can tell: the
 * argument checks of gcol_dptr_t cover NULL, alignment and memory kind from
 * the first element's address only; calls whose outputs are large tables
 * (shortest-path predecessors) also ask for the allocation's extent. */
#ifndef GCOL_SRC_CORE_DPTR_ROOM_H
#define GCOL_SRC_CORE_DPTR_ROOM_H

#include <stddef.h>
#include "gcol/gcol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* GCOL_ERROR_INVALID_ARGUMENT with a message naming `name` and `what` when
 * p lies in a device allocation that ends before p + bytes; GCOL_SUCCESS
 * otherwise, also when the driver cannot say (host or managed memory, an
 * older driver): the check only ever refuses a buffer it has measured. A
 * device must be current. */
gcol_status_t gcol_check_dptr_room(const char *name, const void *p, size_t bytes, const char *what);

#ifdef __cplusplus
}
#endif
#endif
