/* Kernels of the string dictionary.
 *
 * Slots are 64-bit words: the high 32 bits hold a tag (the hash's high
 * half), the low 32 bits a reference:
 *   - e < 2^31: entry e (committed: its bytes are in the arena);
 *   - ROW_BIT | r: row r of the insert call in progress, whose bytes are
 *     still the caller's (the input is immutable during the call);
 *   - all ones (with an all-ones tag): empty.
 * An insert claims an empty slot with one CAS to its own row, so a slot is
 * usable the moment it is claimed: nobody waits for a copy to be published.
 * Rows of the same string that meet the claimed slot compare their bytes
 * with the claiming row's and record the smaller row (atomicMin) as the
 * string's first row. After the probe pass, a scan over the first rows
 * numbers the new strings in first-seen order and places their bytes in the
 * arena; the commit pass copies them and rewrites each claimed slot to its
 * entry. A call refused after probing releases its claims (rollback).
 *
 * Work per row: a thread (solo group) for strings of up to kLongBytes, a
 * whole warp (warp group) for longer ones, so a 64 KiB string costs its warp
 * 256 steps, not 8192. Buckets of 8 slots on the probe_seq of the map. */
#ifndef GCOL_SRC_STRMAP_STRMAP_KERNELS_CUH
#define GCOL_SRC_STRMAP_STRMAP_KERNELS_CUH

#include <stdint.h>
#include "gcol/device/detail/map_layout.cuh"
#include "gcol/device/detail/ops.cuh"
#include "gcol/device/hash.cuh"
#include "strmap_internal.h"

namespace gcol {
namespace detail {
namespace str {

constexpr uint32_t kRowBit = 0x80000000u;
constexpr uint32_t kNone = 0xffffffffu;
constexpr unsigned long long kEmpty = ~0ULL;
constexpr uint32_t kLongBytes = 256;
constexpr int kBucket = GCOL_STRMAP_BUCKET;

/* The row checks; the verdict holds the smallest (row << 3 | kind). */
enum bad_kind : unsigned { BAD_NEGATIVE = 1, BAD_DECREASING = 2, BAD_BEYOND = 3, BAD_TOO_LONG = 4 };

/* Per-call device header: the verdict and the totals the host reads back. */
struct call_head {
  unsigned long long bad;        /* ~0: every row is valid */
  unsigned long long full_rows;  /* rows a fixed strmap could not place */
  unsigned long long new_count;  /* strings this call adds */
  unsigned long long new_bytes;  /* their bytes */
};

template <class OffT>
struct rows_in {
  const OffT *off;
  const uint8_t *chars;
  unsigned long long chars_bytes, n;
};

/* What the kernels see of a strmap. */
struct table {
  unsigned long long *slots;
  uint32_t nb;
  uint64_t seed;
#ifdef GCOL_TESTING
  uint64_t mask; /* the test hook's (core/test_hooks.h), ANDed into every hash */
#endif
  const unsigned long long *ent_off, *ent_hash;
  unsigned long long *ent_val;
  const unsigned *ent_len;
  const uint8_t *arena;
  unsigned long long arena_bytes;
};

/* Temporaries of an insert-type call (n rows each). */
struct call_tmp {
  call_head *head;
  uint32_t *rep;                  /* per row: entry, ROW_BIT | claiming row, or kNone */
  uint32_t *first;                /* per claiming row: first row of its string; after commit, its entry */
  uint32_t *owner;                /* per first row: claiming row + 1, else 0 */
  unsigned long long *hrow;       /* per claiming row: its hash */
  unsigned long long *slotpos;    /* per claiming row: its slot */
  ulonglong2 *pairs, *scan;       /* per first row: (1, bytes); exclusive scan */
};

/* ---- groups: one thread, or a warp working on one row ---- */
struct solo {
  static constexpr bool is_solo = true;
  __device__ int size() const { return 1; }
  __device__ int rank() const { return 0; }
  __device__ bool leader() const { return true; }
  template <class T>
  __device__ T bcast(T v) const { return v; }
  __device__ bool any(bool p) const { return p; }
  __device__ unsigned long long sum(unsigned long long v) const { return v; }
  __device__ void sync() const {}
};
struct warp {
  static constexpr bool is_solo = false;
  int lane;
  __device__ int size() const { return 32; }
  __device__ int rank() const { return lane; }
  __device__ bool leader() const { return lane == 0; }
  template <class T>
  __device__ T bcast(T v) const { return __shfl_sync(0xffffffffu, v, 0); }
  __device__ bool any(bool p) const { return __any_sync(0xffffffffu, p); }
  __device__ unsigned long long sum(unsigned long long v) const {
    for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
  }
  __device__ void sync() const { __syncwarp(); }
};

/* A string inside a buffer of base_bytes bytes (loads stay inside it). */
struct sview {
  const uint8_t *base;
  unsigned long long base_bytes, start;
  uint32_t len;
};

/* Bytes [8i, 8i + 8) of the string, little-endian, zero past its end: two
 * aligned 8-byte loads and a funnel shift where both lie inside the buffer,
 * else byte loads. */
__device__ __forceinline__ uint64_t word_at(const sview &s, uint32_t i) {
  uint32_t pos = 8 * i, k = s.len - pos < 8 ? s.len - pos : 8;
  const uint8_t *p = s.base + s.start + pos;
  uintptr_t a = (uintptr_t)p & ~(uintptr_t)7;
  unsigned sh = (unsigned)((uintptr_t)p & 7);
  bool two = sh + k > 8;
  uint64_t w = 0;
  if (a >= (uintptr_t)s.base && a + (two ? 16 : 8) <= (uintptr_t)s.base + s.base_bytes) {
    const unsigned long long *q = reinterpret_cast<const unsigned long long *>(a);
    w = __ldg(q) >> (8 * sh);
    if (two) w |= __ldg(q + 1) << (64 - 8 * sh);
  } else {
    for (uint32_t j = 0; j < k; ++j) w |= (uint64_t)__ldg(p + j) << (8 * j);
  }
  if (k < 8) w &= (1ULL << (8 * k)) - 1;
  return w;
}

/* 64-bit hash of a string: a sum of mixed, position-salted words (so a warp
 * adds its lanes' shares and gets the solo thread's result), mixed with the
 * length. In the test build the hook's mask makes distinct strings collide. */
template <class G>
__device__ __forceinline__ uint64_t str_hash(G g, const sview &s, const table &t) {
  const uint64_t seed = t.seed;
  uint32_t nw = (s.len + 7) / 8;
  unsigned long long acc = 0;
  for (uint32_t i = g.rank(); i < nw; i += g.size())
    acc += gcol::hash64(word_at(s, i) + (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ULL, seed);
  acc = g.sum(acc);
  const uint64_t h = gcol::hash64(acc ^ ((uint64_t)s.len * 0xc2b2ae3d27d4eb4fULL), ~seed);
#ifdef GCOL_TESTING
  return h & t.mask;
#else
  return h;
#endif
}

template <class G>
__device__ __forceinline__ bool str_equal(G g, const sview &a, const sview &b) {
  uint32_t nw = (a.len + 7) / 8;
  bool diff = false;
  for (uint32_t i = g.rank(); i < nw; i += g.size()) {
    if (word_at(a, i) != word_at(b, i)) {
      diff = true;
      if (G::is_solo) break;
    }
  }
  return !g.any(diff);
}

/* Row i's string after its checks; false (and the verdict noted) if bad. */
template <class OffT>
__device__ __forceinline__ bool row_view(const rows_in<OffT> &in, unsigned long long i, call_head *head, sview *out) {
  long long a = (long long)in.off[i], b = (long long)in.off[i + 1];
  unsigned kind = 0;
  if (a < 0) kind = BAD_NEGATIVE;
  else if (b < a) kind = BAD_DECREASING;
  else if ((unsigned long long)b > in.chars_bytes) kind = BAD_BEYOND;
  else if ((unsigned long long)(b - a) > GCOL_STRMAP_MAX_KEY_BYTES) kind = BAD_TOO_LONG;
  if (kind) {
    atomicMin(&head->bad, (i << 3) | kind);
    return false;
  }
  *out = sview{in.chars, in.chars_bytes, (unsigned long long)a, (uint32_t)(b - a)};
  return true;
}

/* Does reference idx (tag already matched) hold the string s of hash h? */
template <class G, class OffT>
__device__ bool same_string(G g, const table &t, const rows_in<OffT> &in, const call_tmp &c, uint32_t idx,
                            const sview &s, uint64_t h) {
  sview o;
  if (idx & kRowBit) {
    uint32_t r = idx & ~kRowBit;
    __threadfence(); /* the claim was seen: see what the claimer wrote before it */
    if (__ldcg(&c.hrow[r]) != h) return false;
    long long a = (long long)in.off[r], b = (long long)in.off[r + 1];
    o = sview{in.chars, in.chars_bytes, (unsigned long long)a, (uint32_t)(b - a)};
  } else {
    if (t.ent_hash[idx] != h || t.ent_len[idx] != s.len) return false;
    o = sview{t.arena, t.arena_bytes, t.ent_off[idx], t.ent_len[idx]};
  }
  if (o.len != s.len) return false;
  return str_equal(g, s, o);
}

/* Probe for s (hash h). INSERT: claim an empty slot for row when s is
 * absent. Returns the reference found or claimed, kNone when absent (find)
 * or when no slot is free (insert into a full fixed strmap). */
template <bool INSERT, class G, class OffT>
__device__ uint32_t probe(G g, const table &t, const rows_in<OffT> &in, const call_tmp &c, uint32_t row,
                          const sview &s, uint64_t h) {
  const uint32_t tag = (uint32_t)(h >> 32);
  probe_seq ps(h, t.nb);
  for (uint32_t b = 0; b < t.nb; ++b, ps.next()) {
    const unsigned long long base = (unsigned long long)ps.bucket * kBucket;
    for (int j = 0; j < kBucket; ++j) {
      unsigned long long *p = t.slots + base + j;
      unsigned long long w = 0;
      if (g.leader()) w = INSERT ? __ldcg(p) : __ldg(p);
      w = g.bcast(w);
      for (;;) {
        if (w == kEmpty) {
          if (!INSERT) return kNone;
          unsigned long long mine = ((unsigned long long)tag << 32) | (kRowBit | row);
          if (g.leader()) {
            c.hrow[row] = h;
            c.slotpos[row] = base + j;
            c.first[row] = row;
            __threadfence(); /* before the claim makes them reachable */
            w = atomicCAS(p, kEmpty, mine);
          }
          w = g.bcast(w);
          if (w == kEmpty) return kRowBit | row;
          continue; /* lost the race: look at the winner */
        }
        if ((uint32_t)(w >> 32) == tag && same_string(g, t, in, c, (uint32_t)w, s, h)) return (uint32_t)w;
        break;
      }
    }
  }
  return kNone;
}

enum rows_op { ROWS_INSERT, ROWS_FIND, ROWS_CONTAINS };

/* One row's work in the probe / lookup pass. */
template <int OP, class G, class OffT>
__device__ void do_row(G g, const table &t, const rows_in<OffT> &in, const call_tmp &c, uint32_t row, const sview &s,
                       void *out, int vb, uint64_t empty_value) {
  uint64_t h = str_hash(g, s, t);
  uint32_t idx = probe<OP == ROWS_INSERT>(g, t, in, c, row, s, h);
  if (!g.leader()) return;
  if (OP == ROWS_INSERT) {
    c.rep[row] = idx;
    if (idx == kNone) atomicAdd(&c.head->full_rows, 1ULL);
    else if ((idx & kRowBit) && idx != (kRowBit | row)) atomicMin(&c.first[idx & ~kRowBit], row);
  } else if (OP == ROWS_CONTAINS) {
    static_cast<uint8_t *>(out)[row] = idx != kNone;
  } else {
    uint64_t v = idx == kNone ? empty_value : t.ent_val[idx];
    if (vb == 4) static_cast<uint32_t *>(out)[row] = (uint32_t)v;
    else static_cast<unsigned long long *>(out)[row] = v;
  }
}

/* The probe pass of an insert-type call, and find / contains. Warps walk
 * the rows 32 at a time: short strings a thread each, then the warp takes
 * the long ones one after the other. */
template <int OP, class OffT>
__global__ void rows_kernel(table t, rows_in<OffT> in, call_tmp c, void *out, int vb, uint64_t empty_value) {
  const int lane = threadIdx.x & 31;
  const unsigned long long warp_id = ((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned long long warps = ((unsigned long long)gridDim.x * blockDim.x) >> 5;
  for (unsigned long long base = warp_id * 32; base < in.n; base += warps * 32) {
    const unsigned long long row = base + lane;
    sview s = {};
    bool ok = row < in.n && row_view(in, row, c.head, &s);
    bool is_long = ok && s.len > kLongBytes;
    if (ok && !is_long) do_row<OP>(solo(), t, in, c, (uint32_t)row, s, out, vb, empty_value);
    if (row < in.n && !ok) { /* a bad row: the call is refused; outputs stay defined */
      if (OP == ROWS_INSERT) c.rep[row] = kNone;
      else if (OP == ROWS_CONTAINS) static_cast<uint8_t *>(out)[row] = 0;
      else if (vb == 4) static_cast<uint32_t *>(out)[row] = (uint32_t)empty_value;
      else static_cast<unsigned long long *>(out)[row] = empty_value;
    }
    unsigned longs = __ballot_sync(0xffffffffu, is_long);
    while (longs) {
      int src = __ffs(longs) - 1;
      longs &= longs - 1;
      /* every lane's view of the row (lanes past n or with a bad row hold none) */
      sview ls = {in.chars, in.chars_bytes, __shfl_sync(0xffffffffu, s.start, src),
                  __shfl_sync(0xffffffffu, s.len, src)};
      do_row<OP>(warp{lane}, t, in, c, (uint32_t)(base + src), ls, out, vb, empty_value);
    }
  }
}

/* Each claiming row names its string's first row: owner and (1, bytes). */
template <class OffT>
__global__ void mark_kernel(rows_in<OffT> in, call_tmp c) {
  for (unsigned long long r = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; r < in.n;
       r += (unsigned long long)gridDim.x * blockDim.x) {
    if (c.rep[r] != (kRowBit | (uint32_t)r)) continue;
    uint32_t f = c.first[r];
    c.owner[f] = (uint32_t)r + 1;
    c.pairs[f] = make_ulonglong2(1, (unsigned long long)(in.off[r + 1] - in.off[r]));
  }
}

struct pair_add {
  __device__ ulonglong2 operator()(const ulonglong2 &a, const ulonglong2 &b) const {
    return make_ulonglong2(a.x + b.x, a.y + b.y);
  }
};

/* Totals = last exclusive prefix + last element. */
__global__ void totals_kernel(call_tmp c, unsigned long long n) {
  c.head->new_count = c.scan[n - 1].x + c.pairs[n - 1].x;
  c.head->new_bytes = c.scan[n - 1].y + c.pairs[n - 1].y;
}

/* A refused call gives back the slots it claimed. */
__global__ void rollback_kernel(table t, call_tmp c, unsigned long long n) {
  for (unsigned long long r = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; r < n;
       r += (unsigned long long)gridDim.x * blockDim.x)
    if (c.rep[r] == (kRowBit | (uint32_t)r)) t.slots[c.slotpos[r]] = kEmpty;
}

/* What commit writes into the entries it creates. */
struct commit_args {
  unsigned long long *ent_off, *ent_hash, *ent_val;
  unsigned *ent_len;
  uint8_t *arena;
  unsigned long long e0, a0;
  const void *values; /* NULL: dense ids */
  int vb;
};

template <class G, class OffT>
__device__ void copy_bytes(G g, const rows_in<OffT> &in, unsigned long long from, uint8_t *to, uint32_t len) {
  for (uint32_t i = g.rank(); i < len; i += g.size()) to[i] = __ldg(in.chars + from + i);
}

/* Entry e0 + rank for each new string, its bytes at a0 + its byte rank, its
 * slot rewritten from the claiming row to the entry. */
template <class OffT>
__global__ void commit_kernel(table t, rows_in<OffT> in, call_tmp c, commit_args a) {
  const int lane = threadIdx.x & 31;
  const unsigned long long warp_id = ((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned long long warps = ((unsigned long long)gridDim.x * blockDim.x) >> 5;
  for (unsigned long long base = warp_id * 32; base < in.n; base += warps * 32) {
    const unsigned long long f = base + lane;
    uint32_t own = f < in.n ? c.owner[f] : 0;
    unsigned long long from = 0, dst = 0;
    uint32_t len = 0;
    if (own) {
      uint32_t r = own - 1;
      ulonglong2 sc = c.scan[f];
      unsigned long long e = a.e0 + sc.x;
      dst = a.a0 + sc.y;
      from = (unsigned long long)in.off[r];
      len = (uint32_t)(in.off[r + 1] - in.off[r]);
      unsigned long long h = c.hrow[r];
      a.ent_off[e] = dst;
      a.ent_len[e] = len;
      a.ent_hash[e] = h;
      uint64_t v = e;
      if (a.values) v = a.vb == 4 ? (uint64_t) static_cast<const uint32_t *>(a.values)[f]
                                  : (uint64_t) static_cast<const unsigned long long *>(a.values)[f];
      a.ent_val[e] = v;
      t.slots[c.slotpos[r]] = ((h >> 32) << 32) | e;
      c.first[r] = (uint32_t)e;
      if (len <= kLongBytes) copy_bytes(solo(), in, from, a.arena + dst, len);
    }
    unsigned longs = __ballot_sync(0xffffffffu, own && len > kLongBytes);
    while (longs) {
      int src = __ffs(longs) - 1;
      longs &= longs - 1;
      copy_bytes(warp{lane}, in, __shfl_sync(0xffffffffu, from, src), a.arena + __shfl_sync(0xffffffffu, dst, src),
                 __shfl_sync(0xffffffffu, len, src));
    }
  }
}

/* Atomic op(stored, v) on the value bits of an entry (4-byte types: the low
 * word). */
template <class T>
__device__ void apply_value(unsigned long long *slot, T v, int op) {
  if (op == GCOL_OP_ADD) {
    if constexpr (sizeof(T) == 4 && std::is_integral<T>::value) atomicAdd(reinterpret_cast<unsigned *>(slot), (unsigned)v);
    else if constexpr (sizeof(T) == 8 && std::is_integral<T>::value) atomicAdd(slot, (unsigned long long)v);
    else atomicAdd(reinterpret_cast<T *>(slot), v);
    return;
  }
  typedef typename std::conditional<sizeof(T) == 4, unsigned, unsigned long long>::type W;
  W *p = reinterpret_cast<W *>(slot);
  W old = *reinterpret_cast<volatile W *>(p);
  for (;;) {
    T cur;
    memcpy(&cur, &old, sizeof cur);
    T nv = op_apply(cur, v, op);
    W nw;
    memcpy(&nw, &nv, sizeof nw);
    if (nw == old) return;
    W prev = atomicCAS(p, old, nw);
    if (prev == old) return;
    old = prev;
  }
}

/* After commit: per row, its value out and whether it inserted the string;
 * with apply, op for every row but the first of a new string. */
template <class T>
__global__ void finish_kernel(table t, call_tmp c, unsigned long long n, void *values_out, uint8_t *inserted_out,
                              const T *values, int op, uint64_t empty_value) {
  for (unsigned long long r = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; r < n;
       r += (unsigned long long)gridDim.x * blockDim.x) {
    uint32_t idx = c.rep[r];
    uint32_t e = idx == kNone ? kNone : (idx & kRowBit) ? c.first[idx & ~kRowBit] : idx;
    bool first = c.owner[r] != 0;
    if (values && !first && e != kNone) apply_value<T>(&t.ent_val[e], values[r], op);
    if (values_out) {
      uint64_t v = e == kNone ? empty_value : t.ent_val[e];
      if (sizeof(T) == 4) static_cast<uint32_t *>(values_out)[r] = (uint32_t)v;
      else static_cast<unsigned long long *>(values_out)[r] = v;
    }
    if (inserted_out) inserted_out[r] = first;
  }
}

/* Growth: every entry into a fresh table (all distinct: no comparisons). */
__global__ void rehash_kernel(unsigned long long *slots, uint32_t nb, const unsigned long long *ent_hash,
                              unsigned long long count) {
  for (unsigned long long e = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; e < count;
       e += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned long long h = ent_hash[e];
    unsigned long long w = ((h >> 32) << 32) | e;
    probe_seq ps(h, nb);
    bool done = false;
    for (uint32_t b = 0; b < nb && !done; ++b, ps.next())
      for (int j = 0; j < kBucket && !done; ++j)
        done = atomicCAS(slots + (unsigned long long)ps.bucket * kBucket + j, kEmpty, w) == kEmpty;
  }
}

/* retrieve_all: offsets and values in entry order. */
template <class OffT>
__global__ void retrieve_kernel(const unsigned long long *ent_off, const unsigned long long *ent_val,
                                unsigned long long count, unsigned long long total, OffT *off_out, void *values_out,
                                int vb) {
  for (unsigned long long e = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; e <= count;
       e += (unsigned long long)gridDim.x * blockDim.x) {
    off_out[e] = (OffT)(e == count ? total : ent_off[e]);
    if (e == count || !values_out) continue;
    if (vb == 4) static_cast<uint32_t *>(values_out)[e] = (uint32_t)ent_val[e];
    else static_cast<unsigned long long *>(values_out)[e] = ent_val[e];
  }
}

__global__ void store_count_kernel(unsigned long long *p, unsigned long long v) { *p = v; }

}  // namespace str
}  // namespace detail
}  // namespace gcol
#endif
