/* gcol_version(): the version compiled into the library, from the header's macros. */
#include "gcol/gcol.h"

unsigned int gcol_version(void) {
  return GCOL_VERSION_MAJOR * 10000u + GCOL_VERSION_MINOR * 100u + GCOL_VERSION_PATCH;
}
