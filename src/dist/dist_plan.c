#include "gcol/gcol_nccl.h" /* GCOL_API: gcol_dist_owner and gcol_dist_round_pairs are public */
#include "dist_plan.h"

#include <string.h>

static size_t round_pairs_override = 0;
static int send_own_keys = 0;

void gcol_dist_set_send_own_keys(int on) { send_own_keys = on; }
int gcol_dist_send_own_keys(void) { return send_own_keys; }

size_t gcol_dist_round_pairs(int nranks) {
  if (nranks < 1) nranks = 1;
  size_t q = ((size_t)1 << 24) / (size_t)nranks;
  return q < ((size_t)1 << 18) ? (size_t)1 << 18 : q;
}

size_t gcol_dist_round_pairs_in_use(int nranks) {
  return round_pairs_override ? round_pairs_override : gcol_dist_round_pairs(nranks);
}

void gcol_dist_set_round_pairs(size_t pairs_per_peer) { round_pairs_override = pairs_per_peer; }

int gcol_dist_owner(uint64_t key, int nranks) {
  return nranks < 1 ? -1 : (int)gcol_dist_owner_of(key, (uint32_t)nranks);
}

size_t gcol_dist_pieces(uint64_t count, size_t q) { return (size_t)((count + q - 1) / q); }

size_t gcol_dist_num_rounds(const uint64_t *send_counts, const uint64_t *recv_counts, int nranks,
                            size_t q) {
  size_t rounds = 0;
  for (int p = 0; p < nranks; ++p) {
    size_t a = gcol_dist_pieces(send_counts[p], q), b = gcol_dist_pieces(recv_counts[p], q);
    if (a > rounds) rounds = a;
    if (b > rounds) rounds = b;
  }
  return rounds;
}

size_t gcol_dist_round_layout(const uint64_t *counts, int nranks, size_t q, size_t k,
                              size_t *piece, size_t *offset) {
  size_t total = 0;
  for (int p = 0; p < nranks; ++p) {
    uint64_t start = (uint64_t)k * q;
    uint64_t left = counts[p] > start ? counts[p] - start : 0;
    piece[p] = (size_t)(left < q ? left : q);
    offset[p] = total;
    total += piece[p];
  }
  return total;
}

void gcol_dist_exclusive_sum(const uint64_t *counts, int n, uint64_t *starts) {
  uint64_t sum = 0;
  for (int i = 0; i < n; ++i) {
    starts[i] = sum;
    sum += counts[i];
  }
  starts[n] = sum;
}

gcol_dist_fingerprint_t gcol_dist_fingerprint(const gcol_map_config_t *cfg, int valid) {
  gcol_dist_fingerprint_t f;
  memset(&f, 0, sizeof f);
  f.words[0] = 0x67636f6c64697374ULL; /* "gcoldist": not a stray buffer */
  f.words[1] = (uint64_t)valid;
  f.words[2] = ((uint64_t)GCOL_VERSION_MAJOR << 32) | ((uint64_t)GCOL_VERSION_MINOR << 16) |
               (uint64_t)GCOL_VERSION_PATCH;
  if (cfg) {
    f.words[3] = (uint64_t)cfg->key_type;
    f.words[4] = (uint64_t)cfg->value_type;
    f.words[5] = (uint64_t)cfg->capacity;
    memcpy(&f.words[6], &cfg->max_load_factor, sizeof(double));
    f.words[7] = (uint64_t)cfg->growable;
    f.words[8] = cfg->empty_key;
    f.words[9] = cfg->erased_key;
    f.words[10] = cfg->empty_value;
    f.words[11] = cfg->seed;
  }
  return f;
}

gcol_status_t gcol_dist_check_fingerprints(const gcol_dist_fingerprint_t *all, int nranks) {
  for (int r = 0; r < nranks; ++r) {
    if (all[r].words[1] != 1) return GCOL_ERROR_INVALID_ARGUMENT;
    if (memcmp(&all[r], &all[0], sizeof all[0]) != 0) return GCOL_ERROR_INVALID_ARGUMENT;
  }
  return GCOL_SUCCESS;
}

static const gcol_status_t by_severity[] = {
    GCOL_SUCCESS,       GCOL_ERROR_FULL, GCOL_ERROR_RESERVED_KEY,     GCOL_ERROR_OUT_OF_MEMORY,
    GCOL_ERROR_CUDA, GCOL_ERROR_NCCL,   GCOL_ERROR_NO_DEVICE,         GCOL_ERROR_INVALID_ARGUMENT,
};
enum { NUM_SEVERITIES = sizeof by_severity / sizeof by_severity[0] };

int gcol_dist_severity(gcol_status_t s) {
  for (int i = 0; i < NUM_SEVERITIES; ++i)
    if (by_severity[i] == s) return i;
  return NUM_SEVERITIES - 1; /* unknown: treat as the worst */
}

gcol_status_t gcol_dist_status_of_severity(int severity) {
  if (severity < 0) severity = 0;
  if (severity >= NUM_SEVERITIES) severity = NUM_SEVERITIES - 1;
  return by_severity[severity];
}
