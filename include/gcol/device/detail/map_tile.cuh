/* Tile layer: one key probed by a tile of W threads. A bucket is T 16-byte
 * chunks (T, the map's tile, is 1, 2, 4 or 8); each lane reads C = T / W
 * consecutive chunks of it (C = 1 in the library's inserts, 2 in its
 * lookups in buckets of 4 or more chunks (worker_lanes in map_bulk.cuh), and
 * more when a user's tile is narrower, e.g. per-thread operations).
 * Ballots over the tile decide where the key is, where a free slot is, and
 * whether the probe may stop. A slot of the lane's chunks is named by its
 * bit: chunk (bit / per_chunk), slot (bit % per_chunk).
 *
 * Termination: a probe stops at the key, or at a bucket holding an empty slot,
 * or after visiting every bucket once (the bucket count is prime, see
 * probe_seq), so no operation loops forever, even on a full table.
 *
 * Concurrency rules of the bulk kernels: one kernel either inserts (insert,
 * insert_or_assign, insert_or_apply, insert_and_find) or erases or reads. In
 * an inserting kernel a slot only goes from free (empty or erased) to holding
 * a key. Inserts claim the first free slot of the key's probe sequence, after
 * checking that the key is absent up to the first bucket with an empty slot;
 * with the one-way transitions this places every copy of a key racing in one
 * batch on the same slot, so tombstones are reused without ever duplicating a
 * key. */
#ifndef GCOL_DEVICE_DETAIL_MAP_TILE_CUH
#define GCOL_DEVICE_DETAIL_MAP_TILE_CUH

#include <cooperative_groups.h>
#include "gcol/device/detail/map_layout.cuh"
#include "gcol/device/detail/map_values.cuh"

namespace gcol {
namespace detail {

enum upsert_mode { UPSERT_INSERT, UPSERT_ASSIGN, UPSERT_APPLY };
struct upsert_args {
  int mode;  /* upsert_mode */
  int op;    /* gcol_op_t, for UPSERT_APPLY */
  int vtype; /* gcol_type_t of values, for UPSERT_APPLY */
};
enum upsert_status { UPSERT_PRESENT = 0, UPSERT_INSERTED = 1, UPSERT_NO_ROOM = 2 };

/* Bits of a chunk's slots that hold the key, the empty or the erased key. */
template <int SB>
__device__ __forceinline__ void classify(const chunk<SB> &c, key_of<SB> key, const table_ref &t,
                                         unsigned &match, unsigned &empty, unsigned &erased) {
  match = empty = erased = 0;
#pragma unroll
  for (int j = 0; j < layout<SB>::per_chunk; ++j) {
    key_of<SB> k = layout<SB>::key(c.s[j]);
    match |= (unsigned)(k == key) << j;
    empty |= (unsigned)key_is(k, t.empty_key) << j;
    erased |= (unsigned)key_is(k, t.erased_key) << j;
  }
}

/* c.s[j] with j known only at run time, without a local-memory array. */
template <int SB>
__device__ __forceinline__ typename layout<SB>::slot_t pick(const chunk<SB> &c, unsigned j) {
  typename layout<SB>::slot_t s = c.s[0];
#pragma unroll
  for (int i = 1; i < layout<SB>::per_chunk; ++i)
    if (j == (unsigned)i) s = c.s[i];
  return s;
}

/* The C chunks one lane reads of a bucket. */
template <int SB, int C>
struct lane_chunks {
  chunk<SB> c[C];
};

template <int T, int SB, int C>
__device__ __forceinline__ chunk<SB> *lane_base(const table_ref &t, uint32_t bucket, int lane) {
  return static_cast<chunk<SB> *>(t.slots) + (size_t)bucket * T + (size_t)lane * C;
}

template <int SB, int C, bool RO>
__device__ __forceinline__ lane_chunks<SB, C> load_lane(const chunk<SB> *p) {
  lane_chunks<SB, C> l;
#pragma unroll
  for (int i = 0; i < C; ++i) l.c[i] = RO ? load_chunk_ro(p + i) : load_chunk_cg(p + i);
  return l;
}

/* classify over a lane's chunks: bit i * per_chunk + j is slot j of chunk i. */
template <int SB, int C>
__device__ __forceinline__ void classify(const lane_chunks<SB, C> &l, key_of<SB> key, const table_ref &t,
                                         unsigned &match, unsigned &empty, unsigned &erased) {
  match = empty = erased = 0;
#pragma unroll
  for (int i = 0; i < C; ++i) {
    unsigned m, e, x;
    classify(l.c[i], key, t, m, e, x);
    match |= m << (i * layout<SB>::per_chunk);
    empty |= e << (i * layout<SB>::per_chunk);
    erased |= x << (i * layout<SB>::per_chunk);
  }
}

/* The slot named by bit, without a local-memory array: one select per
 * slot. (Selecting the chunk, then the slot in it, left the lane's chunks
 * in local memory for 8-byte pairs read two chunks at a time: 32 bytes of
 * stack in the thread-per-key find.) */
template <int SB, int C>
__device__ __forceinline__ typename layout<SB>::slot_t pick(const lane_chunks<SB, C> &l, unsigned bit) {
  constexpr int PER = layout<SB>::per_chunk;
  typename layout<SB>::slot_t s = l.c[0].s[0];
#pragma unroll
  for (int i = 0; i < C; ++i)
#pragma unroll
    for (int j = 0; j < PER; ++j)
      if (bit == (unsigned)(i * PER + j)) s = l.c[i].s[j];
  return s;
}

template <int SB>
__device__ __forceinline__ typename layout<SB>::slot_t *slot_at(chunk<SB> *base, unsigned bit) {
  return &base[bit / layout<SB>::per_chunk].s[bit % layout<SB>::per_chunk];
}

/* A tile of one thread (per-thread operations): the tile calls cost nothing. */
struct solo_tile {
  static constexpr unsigned num_threads() { return 1; }
  __device__ __forceinline__ unsigned thread_rank() const { return 0; }
  template <class X>
  __device__ __forceinline__ X shfl(X x, int) const { return x; }
  template <class X>
  __device__ __forceinline__ X shfl_xor(X x, int) const { return x; }
  __device__ __forceinline__ unsigned ballot(bool p) const { return p; }
  __device__ __forceinline__ bool any(bool p) const { return p; }
};

/* Give up early when the map has no free slot at all. The tile first adds the
 * inserts it has not yet counted, so the count it reads is nearly current. */
template <class Tile>
__device__ __forceinline__ bool map_is_full(const Tile &tile, const table_ref &t, unsigned long long &pending) {
  unsigned long long size = 0;
  if (tile.thread_rank() == 0) {
    if (pending) atomicAdd(&t.state->size, pending);
    size = live_keys(t.state);
  }
  pending = 0;
  return tile.shfl(size, 0) >= t.capacity;
}

__device__ __forceinline__ key16 load_key16_cg(const key16 *p) {
  ulonglong2 r = __ldcg(reinterpret_cast<const ulonglong2 *>(p));
  return key16{r.x, r.y};
}
__device__ __forceinline__ void store_key16_cg(key16 *p, key16 k) {
  __stcg(reinterpret_cast<ulonglong2 *>(p), make_ulonglong2(k.lo, k.hi));
}

/* A 16-byte CAS without the 128-bit CAS: under the spin lock of the slot's
 * address stripe (map_state::cas_lock), read the slot, and store `desired`
 * with one 16-byte store if it held `expected`. Every writer of such a slot
 * takes the lock, and readers load 16 bytes at once, so nobody sees a
 * half-written key. One lock held at a time: no deadlock (sm_70+ schedules
 * the holder while others spin). */
__device__ __forceinline__ key16 locked_cas16(key16 *p, key16 expected, key16 desired, map_state *st) {
  unsigned *lock = &st->cas_lock[(reinterpret_cast<uintptr_t>(p) >> 4) % MAP_CAS_LOCKS];
  while (atomicCAS(lock, 0u, 1u) != 0u) __nanosleep(32);
  __threadfence();
  key16 cur = load_key16_cg(p);
  if (cur == expected) store_key16_cg(p, desired);
  __threadfence();
  atomicExch(lock, 0u);
  return cur;
}

/* One CAS of a one-word slot. 16-byte keys-only slots take the 128-bit CAS
 * on sm_90, else (or with key_cas forced by a test) locked_cas16. */
template <class S>
__device__ __forceinline__ S cas_slot(S *p, S expected, S desired, const table_ref &t) {
  if constexpr (sizeof(S) == 16) {
#if __CUDA_ARCH__ >= 900
    if (!t.key_cas) return atomicCAS(p, expected, desired);
#endif
    return locked_cas16(p, expected, desired, t.state);
  } else {
    return atomicCAS(p, expected, desired);
  }
}

/* ---- 16-byte key + value slots (SLOT_PAIR32) ------------------------------
 * No single CAS covers key and value, so a slot is claimed by its key half
 * and the value is published after it, together with the tag word: one
 * 16-byte store of (value, TAG_PUBLISHED). The key half is claimed
 *  - on sm_90 (key_cas 0): with one 128-bit CAS from the free sentinel pair;
 *  - before sm_90, or with key_cas forced by a test (key_cas 1): by moving
 *    the tag 0 -> TAG_CLAIMED with a 64-bit CAS; the winner then stores the
 *    key half with one 16-byte store, so nobody ever reads a half-written
 *    key: the key half goes from a free sentinel pair to the whole key at
 *    once. A claimer that loses the tag waits for the winner's key
 *    (wait_key), then acts as if its CAS128 had failed and returned it.
 * Whoever finds the key with the tag not yet TAG_PUBLISHED (a twin insert,
 * an assign or apply, a find from a concurrent kernel) waits for it
 * (wait_published): the value is read whole with its tag, so no value is
 * ever taken before it lands, whatever it is (empty_value included).
 * Erase moves the key half to the erased pair (CAS128; or the tag
 * TAG_PUBLISHED -> TAG_ERASING, then a store of the erased pair), then
 * stores (empty_value, 0). Inserts and erases never share a kernel, so the
 * tag never goes back to 0 under an inserter. */
enum { TAG_FREE = 0, TAG_CLAIMED = 1, TAG_PUBLISHED = 2, TAG_ERASING = 3 };

/* 16 bytes read whole through L2 in a spin loop (volatile: re-read every time). */
__device__ __forceinline__ ulonglong2 load16_relaxed(const void *p) {
  ulonglong2 r;
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(r.x), "=l"(r.y) : "l"(p) : "memory");
  return r;
}

/* Wait until the claim winner has stored its key half over `was`. */
__device__ __forceinline__ key16 wait_key(const key16 *p, key16 was) {
  ulonglong2 r = load16_relaxed(p);
  while (r.x == was.lo && r.y == was.hi) {
    __nanosleep(32);
    r = load16_relaxed(p);
  }
  return key16{r.x, r.y};
}

/* The value of a claimed slot once published (v and tag are one 16-byte piece). */
__device__ __forceinline__ uint64_t wait_published(const unsigned long long *v) {
  ulonglong2 r = load16_relaxed(v);
  while (r.y != TAG_PUBLISHED) {
    __nanosleep(32);
    r = load16_relaxed(v);
  }
  return r.x;
}

/* Store (value, tag) as one 16-byte piece. */
__device__ __forceinline__ void store_value_tag(unsigned long long *v, uint64_t value, uint64_t tag) {
  __stcg(reinterpret_cast<ulonglong2 *>(v), make_ulonglong2(value, tag));
}

template <class S>
__device__ __forceinline__ bool erase_pair32(S *p, key16 key, const table_ref &t) {
  const key16 erased = sentinel_key<key16>(t.erased_key);
#if __CUDA_ARCH__ >= 900
  if (!t.key_cas) {
    if (atomicCAS(&p->k, key, erased) != key) return false; /* a duplicate erased it */
    store_value_tag(&p->v, t.empty_value, TAG_FREE);
    return true;
  }
#endif
  if (atomicCAS(&p->tag, (unsigned long long)TAG_PUBLISHED, (unsigned long long)TAG_ERASING) != TAG_PUBLISHED)
    return false; /* a duplicate erased it */
  store_key16_cg(&p->k, erased);
  __threadfence();
  store_value_tag(&p->v, t.empty_value, TAG_FREE);
  return true;
}

/* ---- 8-byte-key pairs claimed key first (SLOT_PAIR16 without CAS128) -------
 * Before sm_90 (or with key_cas forced by a test) no CAS covers a 16-byte
 * pair: the claimer CASes the key word, then stores the value word. A reader
 * that finds the key must know whether the value is there yet. A free slot's
 * value word holds empty_value, so the value word alone tells "published"
 * apart from "claimed" only when the value differs from empty_value; every
 * 64-bit value is a legal user value. Designs weighed:
 *  - reserve a value state, or steal a key or value bit: users may store any
 *    64-bit value and key (only empty_key and erased_key are reserved);
 *  - a third reserved "claiming" key: shrinks the key space (refused);
 *  - claim through the value word first: a published pair whose value is
 *    empty_value reads as free to it, so two claimers can take one slot;
 *  - a tag word per slot (SLOT_PAIR32's): 16 -> 32-byte slots (24 would
 *    split 16-byte loads), twice the memory and DRAM traffic of every
 *    pre-sm_90 pair table;
 *  - chosen: a published bit per slot, after the slots (1/128 more memory,
 *    only in tables claimed this way: table_ref::key_cas), consulted only
 *    when a reader sees the value word equal to empty_value. Rule: a claimed
 *    pair is published iff its value word != empty_value or its bit is set.
 *    A claimer with value != empty_value publishes with the value store (no
 *    bit); one with value == empty_value is published by its key CAS (the
 *    free slot holds empty_value already) and sets the bit. An assign or
 *    apply reads the word back after its write and sets the bit if it reads
 *    empty_value (the last writer reads its own result, whatever the op's
 *    rounding); erase clears it. So the common path touches no bit, and
 *    exactness needs no bound: a reader seeing (key, empty_value) without
 *    the bit waits for either (pair16_wait),
 *    and the thread that owes it (the claimer, or the writer of
 *    empty_value) has already done its CAS or write and runs straight-line
 *    code to the bit or the value store, with no barrier or collective in
 *    between. Forward progress: that thread is resident (it is running);
 *    within one warp (tiles of one warp, or a thread per key) Volta's
 *    independent thread scheduling runs the diverged claimer while the
 *    waiter sleeps (__nanosleep), and a tile never waits on itself (one key
 *    per tile at a time, the claim completes before the tile's next
 *    collective). sm_90 code of SLOT_PAIR16 claims with CAS128 and carries
 *    none of this (SLOT_PAIR16K, for key_cas tables there, does).
 * Inserts and erases never share a bulk kernel (and must not share a user
 * kernel), so a bit is never cleared under a reader. */
template <int SB>
__device__ __forceinline__ bool split_claim(const table_ref &t) {
#if __CUDA_ARCH__ >= 900
  return SB == SLOT_PAIR16K && t.key_cas; /* SLOT_PAIR16: always CAS128 (map_layout.cuh) */
#else
  (void)t;
  return true; /* no 128-bit CAS */
#endif
}

/* The published bits of a SLOT_PAIR16 table claimed key first: one bit per
 * slot after its capacity * 16 bytes of slots (the host allocates them with
 * key_cas, table_shape, and sets key_cas wherever its own kernels lack the
 * 128-bit CAS: oa_init). None without key_cas: only a user's kernel built
 * for an older GPU than the library's code splits a claim then; it takes
 * empty_value as published (no bits to wait on, none written out of
 * bounds). Build device-API kernels for the GPU they run on. p: the slot
 * or its value word. */
__device__ __forceinline__ unsigned *pub_word(const table_ref &t, const void *p, unsigned &mask) {
  const size_t off = (size_t)(static_cast<const char *>(p) - static_cast<const char *>(t.slots));
  mask = 1u << ((off >> 4) & 31);
  return reinterpret_cast<unsigned *>(static_cast<char *>(t.slots) + t.capacity * 16 + (off >> 9) * 4);
}
/* Set (or clear) the published bit of the slot at p. */
__device__ __forceinline__ void mark_published(const table_ref &t, const void *p, bool on = true) {
  if (!t.key_cas) return;
  unsigned mask;
  unsigned *w = pub_word(t, p, mask);
  if (on) atomicOr(w, mask);
  else atomicAnd(w, ~mask);
}

__device__ __forceinline__ unsigned long long load_relaxed_u64(const unsigned long long *p) {
  unsigned long long r;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(r) : "l"(p) : "memory");
  return r;
}
__device__ __forceinline__ unsigned load_relaxed_u32(const unsigned *p) {
  unsigned r;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");
  return r;
}

/* The value of a claimed pair whose value word read empty_value, once
 * published (value != empty_value, or the bit set: see above). Exact, and
 * unbounded only while a running thread owes the publication. */
__device__ __forceinline__ uint64_t pair16_wait(const table_ref &t, const unsigned long long *v) {
  if (!t.key_cas) return t.empty_value;
  unsigned mask;
  const unsigned *w = pub_word(t, v, mask);
  for (;;) {
    if (load_relaxed_u32(w) & mask) return load_relaxed_u64(v);
    uint64_t x = load_relaxed_u64(v);
    if (x != t.empty_value) return x;
    __nanosleep(32);
  }
}

/* ---- find ------------------------------------------------------------- */
/* One bucket of a lookup, from the tile's chunks c of it (cp: this lane's
 * first chunk): 1 found (value set on every lane), 0 absent (the bucket has
 * an empty slot), -1 look on. */
template <int T, int SB, int C, class Tile>
__device__ __forceinline__ int tile_find_bucket(const Tile &tile, const table_ref &t, key_of<SB> key, chunk<SB> *cp,
                                                const lane_chunks<SB, C> &c, uint64_t &value) {
  unsigned m, e, x;
  classify(c, key, t, m, e, x);
  unsigned who = tile.ballot(m != 0);
  if (who) {
    uint64_t v = m ? layout<SB>::value(pick(c, __ffs(m) - 1)) : 0;
    if constexpr (SB == SLOT_PAIR32) /* a concurrent insert's value may not have landed yet */
      if (m && pick(c, __ffs(m) - 1).tag != TAG_PUBLISHED) v = wait_published(&slot_at(cp, __ffs(m) - 1)->v);
    if constexpr (is_pair16(SB)) /* the same, for pairs claimed key first */
      if (m && v == t.empty_value && split_claim<SB>(t)) v = pair16_wait(t, &slot_at(cp, __ffs(m) - 1)->v);
    value = tile.shfl(v, __ffs(who) - 1);
    return 1;
  }
  return tile.any(e != 0) ? 0 : -1;
}

template <int T, int SB, class Tile>
__device__ __forceinline__ bool tile_find(const Tile &tile, const table_ref &t, key_of<SB> key, uint64_t h,
                                          uint64_t &value) {
  constexpr int C = T / Tile::num_threads();
  static_assert(C >= 1, "a probing tile is at most as wide as a bucket");
  probe_seq seq(h, t.num_buckets);
  for (uint32_t i = 0; i < t.num_buckets; ++i, seq.next()) {
    chunk<SB> *cp = lane_base<T, SB, C>(t, seq.bucket, tile.thread_rank());
    const int r = tile_find_bucket<T, SB, C>(tile, t, key, cp, load_lane<SB, C, true>(cp), value);
    if (r >= 0) return r == 1;
  }
  return false;
}

/* Two lookups at once (keys a and b; the valid flags are tile-uniform), in
 * lockstep: each step reads the next bucket of every key still unsettled
 * before matching either, so the tile has two DRAM reads in flight where
 * tile_find has one, on the home buckets and on the walks past full ones
 * (misses at high load walk several). Same answers as two tile_finds. */
template <int T, int SB, class Tile>
__device__ __forceinline__ void tile_find_two(const Tile &tile, const table_ref &t, bool va, key_of<SB> ka,
                                              uint64_t ha, bool &fa, uint64_t &xa, bool vb, key_of<SB> kb,
                                              uint64_t hb, bool &fb, uint64_t &xb) {
  constexpr int C = T / Tile::num_threads();
  static_assert(C >= 1, "a probing tile is at most as wide as a bucket");
  probe_seq sa(ha, t.num_buckets), sb(hb, t.num_buckets);
  bool on_a = va, on_b = vb; /* still looking (tile-uniform) */
  fa = fb = false;
  for (uint32_t i = 0; (on_a || on_b) && i < t.num_buckets; ++i) {
    chunk<SB> *pa = lane_base<T, SB, C>(t, sa.bucket, tile.thread_rank());
    chunk<SB> *pb = lane_base<T, SB, C>(t, sb.bucket, tile.thread_rank());
    lane_chunks<SB, C> ca = {}, cb = {};
    if (on_a) ca = load_lane<SB, C, true>(pa);
    if (on_b) cb = load_lane<SB, C, true>(pb);
    if (on_a) {
      const int r = tile_find_bucket<T, SB, C>(tile, t, ka, pa, ca, xa);
      if (r >= 0) on_a = false, fa = r == 1;
      else sa.next();
    }
    if (on_b) {
      const int r = tile_find_bucket<T, SB, C>(tile, t, kb, pb, cb, xb);
      if (r >= 0) on_b = false, fb = r == 1;
      else sb.next();
    }
  }
}

/* ---- erase ------------------------------------------------------------ */
template <int T, int SB, class Tile>
__device__ __forceinline__ bool tile_erase(const Tile &tile, const table_ref &t, key_of<SB> key, uint64_t h) {
  typedef layout<SB> L;
  constexpr int C = T / Tile::num_threads();
  static_assert(C >= 1, "a probing tile is at most as wide as a bucket");
  probe_seq seq(h, t.num_buckets);
  for (uint32_t i = 0; i < t.num_buckets; ++i, seq.next()) {
    chunk<SB> *cp = lane_base<T, SB, C>(t, seq.bucket, tile.thread_rank());
    lane_chunks<SB, C> c = load_lane<SB, C, false>(cp);
    unsigned m, e, x;
    classify(c, key, t, m, e, x);
    unsigned who = tile.ballot(m != 0);
    if (who) {
      int src = __ffs(who) - 1, ok = 0;
      if (tile.thread_rank() == (unsigned)src) {
        unsigned bit = __ffs(m) - 1;
        typename L::slot_t *p = slot_at(cp, bit);
        if constexpr (L::one_word) {
          typename L::slot_t obs = pick(c, bit);
          ok = L::same(cas_slot(p, obs, L::make(sentinel_key<key_of<SB>>(t.erased_key), t.empty_value), t), obs);
        } else if constexpr (SB == SLOT_PAIR32) {
          ok = erase_pair32(p, key, t);
        } else {
          ok = atomicCAS(&p->k, (unsigned long long)key, (unsigned long long)t.erased_key) == key;
          /* a free slot holds empty_value and no published bit, which the
           * key-first claim relies on */
          if (ok) {
            atomicExch(&p->v, (unsigned long long)t.empty_value);
            if (split_claim<SB>(t)) mark_published(t, p, false);
          }
        }
      }
      /* a failed CAS means a duplicate of this key in the batch erased it */
      return tile.shfl(ok, src);
    }
    if (tile.any(e != 0)) return false;
  }
  return false;
}

/* ---- insert family ------------------------------------------------------ */

/* Claim a free slot that was observed as obs. On failure *now is what the
 * slot holds (its value word only trustworthy with 8-byte slots or CAS128).
 * MARK: SLOT_PAIR16 claimed key first sets the published bit of a value
 * equal to empty_value (false: the table has no bits, as the multimap's,
 * whose readers never run beside its inserts). */
template <int SB, bool MARK = true>
__device__ __forceinline__ bool claim(typename layout<SB>::slot_t *p, typename layout<SB>::slot_t obs,
                                      key_of<SB> key, uint64_t value, const table_ref &t,
                                      typename layout<SB>::slot_t *now) {
  typedef layout<SB> L;
  const int key_cas = t.key_cas;
  if constexpr (layout<SB>::one_word) {
    *now = cas_slot(p, obs, L::make(key, value), t);
    return L::same(*now, obs);
  } else if constexpr (SB == SLOT_PAIR32) {
    *now = obs;
#if __CUDA_ARCH__ >= 900
    if (!key_cas) {
      now->k = atomicCAS(&p->k, obs.k, key);
      if (now->k != obs.k) return false;
      /* no fence: a reader that sees the tag before the key takes the slot
       * for free, i.e. reads the insert as not yet done, which it is not */
      store_value_tag(&p->v, value, TAG_PUBLISHED);
      return true;
    }
#endif
    (void)key_cas;
    if (atomicCAS(&p->tag, (unsigned long long)TAG_FREE, (unsigned long long)TAG_CLAIMED) != TAG_FREE) {
      now->k = wait_key(&p->k, obs.k);
      return false;
    }
    store_key16_cg(&p->k, key);
    __threadfence(); /* the key before the value */
    store_value_tag(&p->v, value, TAG_PUBLISHED);
    return true;
  } else {
#if __CUDA_ARCH__ >= 900
    if (!split_claim<SB>(t)) {
      /* sm_90: key and value become visible together, so no reader ever waits. */
      *now = atomicCAS(p, obs, L::make(key, value));
      return L::same(*now, obs);
    }
#endif
    (void)key_cas;
    /* No 128-bit CAS: claim the key, then publish the value (the protocol
     * above pair16_wait). The free slot's value word holds empty_value. */
    unsigned long long old = atomicCAS(&p->k, obs.k, (unsigned long long)key);
    now->k = old;
    now->v = obs.v;
    if (old != obs.k) return false;
    if (value != t.empty_value) atomicExch(&p->v, (unsigned long long)value);
    else if (MARK) mark_published(t, p); /* published by the key CAS itself */
    return true;
  }
}

/* What an insert does to a slot that already holds its key; run by one lane.
 * Returns the value stored afterwards (only insert_and_find uses it). */
template <int SB>
__device__ __forceinline__ uint64_t on_present(typename layout<SB>::slot_t *p, typename layout<SB>::slot_t obs,
                                               key_of<SB> key, uint64_t value, const upsert_args &a,
                                               const table_ref &t) {
  typedef layout<SB> L;
  if constexpr (L::one_word) {
    if (a.mode == UPSERT_INSERT) return L::value(obs);
    typename L::slot_t cur = obs;
    for (;;) { /* the key half never changes here, so a CAS loop on the pair is exact */
      uint64_t nv = a.mode == UPSERT_ASSIGN ? value : combine_bits(L::value(cur), value, a.op, a.vtype);
      typename L::slot_t old = cas_slot(p, cur, L::make(key, nv), t);
      if (L::same(old, cur)) return nv;
      cur = old;
    }
  } else {
    uint64_t stored = obs.v;
    if constexpr (SB == SLOT_PAIR32) {
      /* every value lands after its key: wait for it in every mode, so an
       * assign or apply comes after the claimer's value */
      if (obs.tag != TAG_PUBLISHED) stored = wait_published(&p->v);
    } else {
      /* the same for pairs claimed key first (pair16_wait) */
      if (split_claim<SB>(t) && stored == t.empty_value) stored = pair16_wait(t, &p->v);
    }
    if (a.mode == UPSERT_ASSIGN) atomicExch(&p->v, (unsigned long long)value), stored = value;
    else if (a.mode == UPSERT_APPLY) atomic_apply_word(&p->v, value, a.op, a.vtype);
    if constexpr (is_pair16(SB))
      /* Whoever leaves empty_value in the word publishes it with the bit.
       * Read back (exact whatever the op's rounding): the last writer of
       * the word reads its own value, so once writers are done the word is
       * not empty_value or the bit is set. */
      if (a.mode != UPSERT_INSERT && split_claim<SB>(t) && load_relaxed_u64(&p->v) == t.empty_value) mark_published(t, p);
    return stored;
  }
}

template <int T, int SB, class Tile>
__device__ __forceinline__ int tile_upsert(const Tile &tile, const table_ref &t, key_of<SB> key, uint64_t value,
                                           uint64_t h, const upsert_args &a, uint64_t &stored,
                                           unsigned long long &pending) {
  typedef layout<SB> L;
  typedef typename L::slot_t slot_t;
  constexpr int C = T / Tile::num_threads();
  static_assert(C >= 1, "a probing tile is at most as wide as a bucket");
  const int lane = tile.thread_rank();
  probe_seq seq(h, t.num_buckets);
  uint32_t visited = 0;
  for (;;) {
    bool have_free = false;
    probe_seq free_seq = seq;
    uint32_t free_visited = 0;
    int free_lane = 0;
    unsigned free_bit = 0;
    bool free_was_empty = false; /* a free slot is (empty or erased key, empty_value) */
    for (; visited < t.num_buckets; ++visited, seq.next()) {
      if (visited >= 16 && (visited & 15) == 0 && map_is_full(tile, t, pending)) return UPSERT_NO_ROOM;
      chunk<SB> *cp = lane_base<T, SB, C>(t, seq.bucket, lane);
      lane_chunks<SB, C> c = load_lane<SB, C, false>(cp);
      unsigned m, e, x;
      classify(c, key, t, m, e, x);
      unsigned who = tile.ballot(m != 0);
      if (who) {
        int src = __ffs(who) - 1;
        uint64_t v = 0;
        if (lane == src) {
          unsigned bit = __ffs(m) - 1;
          v = on_present<SB>(slot_at(cp, bit), pick(c, bit), key, value, a, t);
        }
        stored = tile.shfl(v, src);
        return UPSERT_PRESENT;
      }
      if (!have_free) {
        unsigned fw = tile.ballot((e | x) != 0);
        if (fw) {
          have_free = true;
          free_lane = __ffs(fw) - 1;
          free_seq = seq;
          free_visited = visited;
          if (lane == free_lane) {
            free_bit = __ffs(e | x) - 1;
            free_was_empty = (e >> free_bit) & 1;
          }
        }
      }
      if (tile.any(e != 0)) break; /* the key is absent from the rest of the sequence */
    }
    if (!have_free) return UPSERT_NO_ROOM;

    int won = 0;
    key_of<SB> key_now{};
    uint64_t v = 0;
    if (lane == free_lane) {
      slot_t *p = slot_at(lane_base<T, SB, C>(t, free_seq.bucket, lane), free_bit);
      slot_t now, obs = L::make(sentinel_key<key_of<SB>>(free_was_empty ? t.empty_key : t.erased_key), t.empty_value);
      won = claim<SB>(p, obs, key, value, t, &now);
      key_now = L::key(now);
      if (won) v = value;
      else if (key_now == key) v = on_present<SB>(p, now, key, value, a, t); /* a twin of this key won */
    }
    won = tile.shfl(won, free_lane);
    key_now = tile.shfl(key_now, free_lane);
    if (won || key_now == key) {
      stored = tile.shfl(v, free_lane);
      if (won) ++pending;
      return won ? UPSERT_INSERTED : UPSERT_PRESENT;
    }
    /* Another key took the slot: slots before it stay taken by other keys, so
     * resume the scan at its bucket. Free slots only run out, so this ends. */
    seq = free_seq;
    visited = free_visited;
  }
}

}  // namespace detail
}  // namespace gcol
#endif
