/* A program built only against an installed gcol (pkg-config or CMake):
 * checks that the header and the loaded library agree on the version, then
 * creates a map. Without a GPU it prints the NO_DEVICE status and exits 0. */
#include <stdio.h>
#include "gcol/gcol.h"

int main(void) {
  unsigned header = GCOL_VERSION_MAJOR * 10000u + GCOL_VERSION_MINOR * 100u + GCOL_VERSION_PATCH;
  unsigned lib = gcol_version();
  printf("gcol %u.%u.%u (header %d.%d.%d)\n", lib / 10000, lib / 100 % 100, lib % 100, GCOL_VERSION_MAJOR,
         GCOL_VERSION_MINOR, GCOL_VERSION_PATCH);
  if (lib != header) return 1;

  gcol_map_config_t cfg = gcol_map_config_default(GCOL_I64, GCOL_I64);
  cfg.capacity = 1000;
  gcol_map_t *map = NULL;
  gcol_status_t s = gcol_map_create(&map, &cfg, 0);
  if (s == GCOL_ERROR_NO_DEVICE) {
    printf("gcol_map_create: %s\n", gcol_status_string(s));
    return 0;
  }
  size_t size = 1;
  if (s == GCOL_SUCCESS) s = gcol_map_size(map, &size, 0);
  gcol_map_destroy(map);
  printf("map ok: %s, size %zu\n", gcol_status_string(s), size);
  return s == GCOL_SUCCESS && size == 0 ? 0 : 1;
}
