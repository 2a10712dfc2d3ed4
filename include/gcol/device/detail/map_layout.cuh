/* Thread layer: how a map stores its pairs, and the probe sequence.
 *
 * A slot is 8 bytes when key and value are both 4 bytes (packed, so one 64-bit
 * CAS claims the pair) and 16 bytes otherwise (key word + value word, 64 bits
 * each, zero-extended; on sm_90 one 128-bit CAS claims the pair). Each lane of
 * a probing tile reads one 16-byte chunk, so a bucket is `tile` chunks:
 * 2*tile slots of 8 bytes or tile slots of 16 bytes. */
#ifndef GCOL_DEVICE_DETAIL_MAP_LAYOUT_CUH
#define GCOL_DEVICE_DETAIL_MAP_LAYOUT_CUH

#include <stdint.h>

namespace gcol {
namespace detail {

/* Device-resident state of one map. Live keys = size + every stripe. The
 * library's bulk kernels add to size once per warp per launch; device-API
 * calls (a user kernel makes one per few keys) add to the stripe of their
 * SM, one 128-byte line each, so their atomics do not queue on one word (on
 * an H100 that queue held per-key inserts with tiles of 2 at 6.9 G/s instead
 * of 10.5, bench_map_device). */
enum { MAP_SIZE_STRIPES = 32 };
struct map_state {
  unsigned long long size;    /* live keys, with the stripes */
  unsigned long long scratch; /* output counter of retrieve_all */
  unsigned int flags;         /* latched errors: map_flag bits */
  unsigned int pad;
  unsigned long long stripe[MAP_SIZE_STRIPES][16]; /* [i][0] is stripe i */
};
/* Live keys (volatile: on the device, read what other SMs added). */
__host__ __device__ inline unsigned long long live_keys(const volatile map_state *st) {
  unsigned long long n = st->size;
#ifdef __CUDA_ARCH__
#pragma unroll 1
#endif
  for (int i = 0; i < MAP_SIZE_STRIPES; ++i) n += st->stripe[i][0]; /* rolled: rare, and few registers */
  return n;
}
enum map_flag : unsigned { MAP_FLAG_FULL = 1u, MAP_FLAG_RESERVED = 2u };

/* What kernels need to know of a table; trivially copyable, passed by value. */
struct table_ref {
  void *slots;
  map_state *state;
  uint64_t empty_key, erased_key, empty_value, seed;
  unsigned long long capacity; /* slots */
  uint32_t num_buckets;        /* prime, < 2^31 */
  int key_cas;                 /* 16-byte slots: claim with a 64-bit CAS on the
                                  key then store the value (pre-sm_90 scheme) */
};

template <int SLOT_BYTES>
struct layout;

template <>
struct layout<8> {
  typedef unsigned long long slot_t;
  enum { per_chunk = 2 };
  static __device__ __forceinline__ uint64_t key(slot_t s) { return (uint32_t)s; }
  static __device__ __forceinline__ uint64_t value(slot_t s) { return s >> 32; }
  static __device__ __forceinline__ slot_t make(uint64_t k, uint64_t v) {
    return (k & 0xffffffffULL) | (v << 32);
  }
  static __device__ __forceinline__ bool same(slot_t a, slot_t b) { return a == b; }
};

template <>
struct layout<16> {
  struct __align__(16) slot_t {
    unsigned long long k, v;
  };
  enum { per_chunk = 1 };
  static __device__ __forceinline__ uint64_t key(slot_t s) { return s.k; }
  static __device__ __forceinline__ uint64_t value(slot_t s) { return s.v; }
  static __device__ __forceinline__ slot_t make(uint64_t k, uint64_t v) {
    slot_t s;
    s.k = k;
    s.v = v;
    return s;
  }
  static __device__ __forceinline__ bool same(slot_t a, slot_t b) { return a.k == b.k && a.v == b.v; }
};

/* The 16 bytes one lane reads. */
template <int SLOT_BYTES>
struct __align__(16) chunk {
  typename layout<SLOT_BYTES>::slot_t s[layout<SLOT_BYTES>::per_chunk];
};

/* Load a chunk through L2 only (mutating kernels must see other SMs' CASes). */
template <int SB>
__device__ __forceinline__ chunk<SB> load_chunk_cg(const chunk<SB> *p) {
  ulonglong2 raw = __ldcg(reinterpret_cast<const ulonglong2 *>(p));
  chunk<SB> c;
  memcpy(&c, &raw, sizeof c);
  return c;
}

/* Load a chunk through the read-only path (the table is constant in the kernel). */
template <int SB>
__device__ __forceinline__ chunk<SB> load_chunk_ro(const chunk<SB> *p) {
  ulonglong2 raw = __ldg(reinterpret_cast<const ulonglong2 *>(p));
  chunk<SB> c;
  memcpy(&c, &raw, sizeof c);
  return c;
}

/* Double hashing over a prime number of buckets: every step in [1, nb-1] is
 * coprime to nb, so nb probes visit every bucket once. Multiply-high maps a
 * 32-bit hash onto [0, nb) without a division. */
struct probe_seq {
  uint32_t bucket, step, nb;
  __device__ __forceinline__ probe_seq(uint64_t h, uint32_t num_buckets) : nb(num_buckets) {
    bucket = __umulhi((uint32_t)h, nb);
    step = 1 + __umulhi((uint32_t)(h >> 32), nb - 1);
  }
  __device__ __forceinline__ void next() {
    bucket += step;
    if (bucket >= nb) bucket -= nb;
  }
};

}  // namespace detail
}  // namespace gcol
#endif
