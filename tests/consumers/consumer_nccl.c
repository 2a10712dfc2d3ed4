/* A program built only against an installed libgcol_nccl (pkg-config or
 * CMake): the owner hash and the round size need no device; then a sharded
 * map on a communicator of one GPU. Without a GPU it prints the NO_DEVICE
 * status and exits 0. */
#include <stdio.h>
#include "gcol/gcol_nccl.h"

int main(void) {
  int owner = gcol_dist_owner(12345, 4);
  if (owner < 0 || owner > 3 || gcol_dist_owner(1, 0) != -1 || gcol_dist_round_pairs(2) != (size_t)1 << 23) {
    printf("gcol_dist_owner or gcol_dist_round_pairs is wrong\n");
    return 1;
  }
  /* libgcol's own check for a device, before NCCL needs one */
  gcol_map_config_t cfg = gcol_map_config_default(GCOL_I64, GCOL_I64);
  cfg.capacity = 1000;
  gcol_map_t *probe = NULL;
  gcol_status_t s = gcol_map_create(&probe, &cfg, 0);
  gcol_map_destroy(probe);
  if (s == GCOL_ERROR_NO_DEVICE) {
    printf("gcol_map_create: %s\n", gcol_status_string(s));
    return 0;
  }
  ncclComm_t comm;
  if (s != GCOL_SUCCESS || ncclCommInitAll(&comm, 1, NULL) != ncclSuccess) return 1;
  gcol_dist_map_t *map = NULL;
  size_t size = 1;
  s = gcol_dist_map_create(&map, &cfg, comm, 0);
  if (s == GCOL_SUCCESS) s = gcol_dist_map_size(map, &size, 0);
  gcol_dist_map_destroy(map);
  ncclCommDestroy(comm);
  printf("map ok: %s, size %zu\n", gcol_status_string(s), size);
  return s == GCOL_SUCCESS && size == 0 ? 0 : 1;
}
