/* Thread layer of every open-addressing container (map, multimap, set,
 * multiset): how slots are laid out, and the probe sequence.
 *
 * A slot kind (slot_of<KB, VB>, the one home of the rule) names a layout:
 *  - SLOT_PAIR8: 4-byte key and value packed in 8 bytes (one 64-bit CAS
 *    claims the pair);
 *  - SLOT_PAIR16: any other pair, key word + value word, 64 bits each,
 *    zero-extended (on sm_90 one 128-bit CAS claims the pair; before, the
 *    key word is claimed first and a bit per slot after the slots says
 *    when a value equal to empty_value is published: pair16_wait in
 *    map_tile.cuh);
 *  - SLOT_KEY4 / SLOT_KEY8: keys only (sets, multisets; VB = 0), 4 or 8
 *    bytes, one CAS of the slot's width;
 *  - SLOT_KEY16: 16-byte keys only (GCOL_U128), one 128-bit CAS (sm_90 only:
 *    the host refuses these containers on older GPUs);
 *  - SLOT_PAIR32: 16-byte key + 4/8-byte value: key half (16 bytes), value
 *    word, claim tag (the pre-sm_90 scheme's); see claim() in map_tile.cuh.
 * Each lane of a probing tile reads one chunk of max(16, slot) bytes, so a
 * bucket is `tile` chunks. Template parameters named SB are slot kinds; for
 * the map's pairs the kind is the slot's bytes.
 *
 * Keys travel as layout<SB>::key_t: uint64_t (4- and 8-byte keys,
 * zero-extended; the generated code of those paths is what it was) or key16.
 * A 16-byte sentinel is the config's 64-bit empty_key / erased_key in both
 * words (key_is). */
#ifndef GCOL_DEVICE_DETAIL_MAP_LAYOUT_CUH
#define GCOL_DEVICE_DETAIL_MAP_LAYOUT_CUH

#include <stdint.h>

namespace gcol {
namespace detail {

/* A 16-byte key (GCOL_U128): two little-endian 64-bit words, compared as bits. */
struct __align__(16) key16 {
  unsigned long long lo, hi;
};
__host__ __device__ __forceinline__ bool operator==(key16 a, key16 b) { return a.lo == b.lo && a.hi == b.hi; }
__host__ __device__ __forceinline__ bool operator!=(key16 a, key16 b) { return !(a == b); }

/* Whether key k is the 64-bit sentinel w (16-byte keys: w in both words). */
__host__ __device__ __forceinline__ bool key_is(uint64_t k, uint64_t w) { return k == w; }
__host__ __device__ __forceinline__ bool key_is(key16 k, uint64_t w) { return k.lo == w && k.hi == w; }
/* The key a 64-bit sentinel stands for. */
template <class K>
__host__ __device__ __forceinline__ K sentinel_key(uint64_t w) {
  if constexpr (sizeof(K) == 16) return K{w, w};
  else return w;
}

/* Device-resident state of one map. Live keys = size + every stripe. The
 * library's bulk kernels add to size once per warp per launch; device-API
 * calls (a user kernel makes one per few keys) add to the stripe of their
 * SM, one 128-byte line each, so their atomics do not queue on one word (on
 * an H100 that queue held per-key inserts with tiles of 2 at 6.9 G/s instead
 * of 10.5, bench_map_device). */
enum { MAP_SIZE_STRIPES = 32, MAP_CAS_LOCKS = 256 };
struct map_state {
  unsigned long long size;    /* live keys, with the stripes */
  unsigned long long scratch; /* output counter of retrieve_all */
  unsigned int flags;         /* latched errors: map_flag bits */
  unsigned int pad;
  unsigned long long stripe[MAP_SIZE_STRIPES][16]; /* [i][0] is stripe i */
  /* 16-byte keys-only slots without the 128-bit CAS (before sm_90, or
   * key_cas forced by a test): spin locks, one per slot address stripe, that
   * make a 16-byte compare-and-store atomic (cas_slot in map_tile.cuh). Last:
   * the host reads the state only up to here (map_state_read). */
  unsigned int cas_lock[MAP_CAS_LOCKS];
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
                                  key then store the value (pre-sm_90 scheme;
                                  SLOT_PAIR16 tables then carry published
                                  bits after the slots, pub_bits_bytes) */
};

/* Bytes of the published bits that follow the slots of a SLOT_PAIR16 table
 * claimed key first (key_cas; the protocol is in map_tile.cuh). */
__host__ __device__ inline size_t pub_bits_bytes(size_t slots) { return (slots + 31) / 32 * 4; }

/* Slot kinds (see the top). SLOT_KEY8 is 8 bytes too; its value only tells
 * it apart from SLOT_PAIR8. */
enum slot_kind { SLOT_KEY4 = 4, SLOT_PAIR8 = 8, SLOT_PAIR16 = 16, SLOT_PAIR32 = 32, SLOT_KEY8 = 0x108, SLOT_KEY16 = 0x110,
                 SLOT_PAIR16K = 0x210 };

/* The slot kind of a container with KB-byte keys and VB-byte values (VB = 0:
 * keys only). */
template <int KB, int VB>
__host__ __device__ constexpr int slot_of() {
  return VB == 0 ? (KB == 4 ? SLOT_KEY4 : KB == 8 ? SLOT_KEY8 : SLOT_KEY16)
         : KB == 16 ? SLOT_PAIR32 : (KB == 4 && VB == 4) ? SLOT_PAIR8 : SLOT_PAIR16;
}

template <int SLOT_KIND>
struct layout;

/* bytes: of a slot; one_word: the slot is one machine word, claimed, erased
 * and updated with one CAS of its width; keys_only: no value. */
template <>
struct layout<SLOT_PAIR8> {
  typedef unsigned long long slot_t;
  typedef uint64_t key_t;
  enum { per_chunk = 2, bytes = 8, one_word = 1, keys_only = 0 };
  static __device__ __forceinline__ uint64_t key(slot_t s) { return (uint32_t)s; }
  static __device__ __forceinline__ uint64_t value(slot_t s) { return s >> 32; }
  static __device__ __forceinline__ slot_t make(uint64_t k, uint64_t v) {
    return (k & 0xffffffffULL) | (v << 32);
  }
  static __device__ __forceinline__ bool same(slot_t a, slot_t b) { return a == b; }
};

template <>
struct layout<SLOT_PAIR16> {
  struct __align__(16) slot_t {
    unsigned long long k, v;
  };
  typedef uint64_t key_t;
  enum { per_chunk = 1, bytes = 16, one_word = 0, keys_only = 0 };
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

/* SLOT_PAIR16K: SLOT_PAIR16 whose claim scheme sm_90 code reads at run time
 * (key_cas: key first, map_tile.cuh). SLOT_PAIR16 code for sm_90 always
 * claims with the 128-bit CAS, so the library's sm_90 kernels carry none of
 * the key-first code; the device API, and the test build's kernels for
 * tables with key_cas (pick_key_cas in src/map/dispatch_oa.cuh), use
 * SLOT_PAIR16K. Code for older GPUs claims key first either way. */
template <>
struct layout<SLOT_PAIR16K> : layout<SLOT_PAIR16> {};
__host__ __device__ constexpr bool is_pair16(int sb) { return sb == SLOT_PAIR16 || sb == SLOT_PAIR16K; }
/* The slot kind of kernels instantiated for key_cas KC (0 or 1). */
template <int SB, int KC>
__host__ __device__ constexpr int slot_for_scheme() {
  return SB == SLOT_PAIR16 && KC ? SLOT_PAIR16K : SB;
}

/* Keys only: the slot is the key; value() reads 0 and make() drops it. */
template <class W>
struct key_layout {
  typedef W slot_t;
  typedef uint64_t key_t;
  enum { per_chunk = 16 / sizeof(W), bytes = sizeof(W), one_word = 1, keys_only = 1 };
  static __device__ __forceinline__ uint64_t key(slot_t s) { return s; }
  static __device__ __forceinline__ uint64_t value(slot_t) { return 0; }
  static __device__ __forceinline__ slot_t make(uint64_t k, uint64_t) { return (slot_t)k; }
  static __device__ __forceinline__ bool same(slot_t a, slot_t b) { return a == b; }
};
template <>
struct layout<SLOT_KEY4> : key_layout<unsigned int> {};
template <>
struct layout<SLOT_KEY8> : key_layout<unsigned long long> {};

/* 16-byte keys only: the slot is the key, claimed with one 128-bit CAS. */
template <>
struct layout<SLOT_KEY16> {
  typedef key16 slot_t;
  typedef key16 key_t;
  enum { per_chunk = 1, bytes = 16, one_word = 1, keys_only = 1 };
  static __device__ __forceinline__ key16 key(slot_t s) { return s; }
  static __device__ __forceinline__ uint64_t value(slot_t) { return 0; }
  static __device__ __forceinline__ slot_t make(key16 k, uint64_t) { return k; }
  static __device__ __forceinline__ bool same(slot_t a, slot_t b) { return a == b; }
};

/* 16-byte key + value: 32 bytes, one DRAM sector. The key half is claimed
 * first (128-bit CAS, or under the tag), then value and tag are stored as
 * one 16-byte piece: tag 0 free, 1 claimed (pre-sm_90 scheme), 2 value
 * published, 3 being erased (TAG_* and claim in map_tile.cuh). make() leaves
 * the tag 0: the chained multimap's pool, which it fills, never waits on it. */
template <>
struct layout<SLOT_PAIR32> {
  struct __align__(16) slot_t {
    key16 k;
    unsigned long long v, tag;
  };
  typedef key16 key_t;
  enum { per_chunk = 1, bytes = 32, one_word = 0, keys_only = 0 };
  static __device__ __forceinline__ key16 key(slot_t s) { return s.k; }
  static __device__ __forceinline__ uint64_t value(slot_t s) { return s.v; }
  static __device__ __forceinline__ slot_t make(key16 k, uint64_t v) {
    slot_t s;
    s.k = k;
    s.v = v;
    s.tag = 0;
    return s;
  }
  static __device__ __forceinline__ bool same(slot_t a, slot_t b) { return a.k == b.k && a.v == b.v; }
};

/* The bytes one lane reads: 16, or a whole 32-byte slot. */
template <int SLOT_BYTES>
struct __align__(16) chunk {
  typename layout<SLOT_BYTES>::slot_t s[layout<SLOT_BYTES>::per_chunk];
};
/* The key type of slot kind SB. */
template <int SB>
using key_of = typename layout<SB>::key_t;

/* Load a chunk in 16-byte pieces: through L2 only (LD 0: mutating kernels
 * must see other SMs' CASes), the read-only path (1: the table is constant in
 * the kernel) or streaming (2: read once). Each 16-byte piece is read whole,
 * so a key half is never torn. */
template <int LD, int SB>
__device__ __forceinline__ chunk<SB> load_chunk_as(const chunk<SB> *p) {
  constexpr int N = sizeof(chunk<SB>) / 16;
  ulonglong2 raw[N];
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const ulonglong2 *q = reinterpret_cast<const ulonglong2 *>(p) + i;
    raw[i] = LD == 0 ? __ldcg(q) : LD == 1 ? __ldg(q) : __ldcs(q);
  }
  chunk<SB> c;
  memcpy(&c, raw, sizeof c);
  return c;
}
template <int SB>
__device__ __forceinline__ chunk<SB> load_chunk_cg(const chunk<SB> *p) { return load_chunk_as<0>(p); }
template <int SB>
__device__ __forceinline__ chunk<SB> load_chunk_ro(const chunk<SB> *p) { return load_chunk_as<1>(p); }

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
