/* Warp layer: a warp-cooperative 32-ary heap of (float key, uint32 payload)
 * pairs, one per warp, in a caller-provided buffer.
 *
 * Shape. Node i holds up to 32 pairs sorted ascending across the warp's lanes
 * (lane j holds element j); its children are nodes 32i+1 .. 32i+32. The heap
 * property is between whole nodes: every key of a child is >= the largest key
 * of its parent, so node 0 (the root) holds the 32 smallest keys and the
 * minimum is lane 0 of the root. A node that is not full has no non-empty
 * child, so a node's fill is min(32, its subtree's pair count).
 *
 * Where things live.
 *  - The root lives in registers (lane j holds root element j): top, pop and
 *    most pushes of a Dijkstra touch only it.
 *  - Nodes 1 .. capacity-1 live in the caller's global buffer, one 256-byte
 *    warp_heap_node each, as a ring: a node's pairs are sorted ascending
 *    from its head slot onwards (slot (head + j) % 32 holds its j-th
 *    smallest), so that taking its smallest pair moves the head instead of
 *    the other 31. A slot holds a key and its payload side by side (8
 *    bytes): a warp loads or stores a whole node with one coalesced access
 *    (and writes it back from slot 0), and a pop's per-level moves touch one
 *    cache line (with keys and payloads in separate arrays they touched two:
 *    the 4,096-source voxel bench ran 5% slower). Node 0's slot is the
 *    insertion buffer (below).
 *  - Per node, the sort word of its top (smallest key) and one word holding
 *    the pair count of its subtree (low 27 bits) and its head slot (high 5),
 *    in a caller-provided `meta` array of 2 * capacity words: in shared
 *    memory for speed (the solver does this), or in global memory for a heap
 *    too large for shared memory (the solver's overflow fallback).
 *
 * Operations (every lane of the warp calls each one, with warp-uniform
 * arguments unless stated).
 *  - pop: take lane 0 of the root, shift the root left by one lane (one
 *    __shfl_down), and refill its last lane with the minimum of its children:
 *    one warp-wide argmin over the 32 cached tops picks that child, whose
 *    head pair moves up (its payload is loaded, its key is the cached
 *    top) and whose head advances. The slot it leaves is the child's
 *    largest position, so the pair that comes up from the child's own
 *    children fills it in sorted order, and so on down one path to a node
 *    without non-empty children. Every node on the path stays sorted and
 *    full; the path is chosen from the meta alone (shared memory), and each
 *    level costs two 4-byte loads, one 8-byte store and the meta update
 *    (moving whole nodes instead was 44% of the solver's instructions on
 *    an H100; docs/experiments.md).
 *  - push and push_bulk (up to 32 pairs, one per lane). While the root has
 *    room for a few pairs (up to heap_insert_max) they are inserted into it:
 *    one __ballot_sync (lanes <= key), one __clz for the position and one
 *    __shfl_up to open the slot. Otherwise a few pairs go to the insertion
 *    buffer (unsorted, up to 32 pairs, its smallest key kept in a register),
 *    and a full buffer, or a bulk of more pairs, is sorted with a warp
 *    bitonic sort and merged into the root with one bitonic merge: the 32
 *    smallest stay, the rest spill as one batch to the child whose subtree
 *    has the most free room (a warp max over the 32 children), merged there
 *    the same way (a batch of a few pairs by insertions), and so on down.
 *    When even that child's subtree has less room than the batch and the
 *    child has no children (a leaf), the leaf takes the smallest pairs that
 *    fit and the rest goes to the next leaf with the most room (leaves of a
 *    well-filled heap rarely have room for 32). So a Dijkstra's typical push
 *    of a few pairs, each larger than the whole root, costs a few stores, and
 *    the tree is walked once per 32 of them. Choosing by free room means a
 *    push fails only when all capacity*32 slots are taken. pop and top first
 *    merge the buffer into the tree when it holds the minimum.
 *  - Child choices are one __reduce_min_sync / __reduce_max_sync and a ballot
 *    (sm_80 and later). The sort-and-merge path is one out-of-line function,
 *    so that inlining it at every call site does not burden the callers'
 *    loops with its registers.
 * This follows the published warp-per-source heap's shape (sorted 32-wide
 * nodes, cached tops, ballot/clz/shfl insertion, whole-node moves between
 * parent and child) with our own balancing rule (most free room).
 *
 * Overflow: a push that finds every slot taken leaves the heap unchanged,
 * returns false and sets overflowed(). A bulk push that does not fit pushes
 * its pairs one by one in lane order until the heap is full (the first ones
 * that fit are in the heap). Nothing is ever written past `capacity` nodes.
 *
 * Keys: any float but NaN (a NaN key breaks the order; host APIs reject it).
 * Among equal keys the pop order is unspecified.
 *
 * Limits: 1 <= capacity <= 2^22 - 1 nodes (about 134M pairs: a subtree's
 * pair count shares its meta word with the head slot).
 */
#ifndef GCOL_DEVICE_WARP_HEAP_CUH
#define GCOL_DEVICE_WARP_HEAP_CUH

#include <stdint.h>
#include "gcol/device/detail/warp_redux.cuh"

namespace gcol {

/* A slot of a node: key and payload side by side (see "Where things live"). */
struct __align__(8) warp_heap_pair {
  float key;
  uint32_t val;
};
struct warp_heap_node {
  warp_heap_pair pair[32];
};

namespace detail {
constexpr unsigned heap_full_mask = 0xffffffffu;

/* A batch of up to this many pairs enters a node by one insertion each
 * (ballot, clz, shfl_up: ~25 instructions a pair); a larger one is sorted and
 * merged with bitonic networks (~100 instructions to sort, ~80 a merge). */
constexpr uint32_t heap_insert_max = 6;

/* Keys as 32-bit sort words: an order-preserving map of the float's bits (so
 * unsigned compares order floats). The all-ones word, a NaN's, pads the lanes
 * that hold no element: it sorts above every key. */
__device__ __forceinline__ uint32_t heap_word(float k) {
  uint32_t b = __float_as_uint(k);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
__device__ __forceinline__ float heap_unword(uint32_t w) {
  return __uint_as_float((w & 0x80000000u) ? (w & 0x7fffffffu) : ~w);
}
constexpr uint32_t heap_pad = 0xffffffffu;

/* One compare-exchange stage of a warp bitonic network: lanes lane and
 * lane^stride swap so that the lower lane holds the smaller word when `up`. */
__device__ __forceinline__ void heap_cmpx(uint32_t &w, uint32_t &v, int stride, bool up) {
  uint32_t ow = __shfl_xor_sync(heap_full_mask, w, stride);
  uint32_t ov = __shfl_xor_sync(heap_full_mask, v, stride);
  bool lower = ((threadIdx.x & 31) & stride) == 0;
  bool take = (lower == up) ? (ow < w) : (ow > w);
  if (take) w = ow, v = ov;
}
/* Sort 32 words ascending across the warp. */
__device__ __forceinline__ void heap_sort32(uint32_t &w, uint32_t &v) {
  unsigned lane = threadIdx.x & 31;
#pragma unroll
  for (int size = 2; size <= 32; size <<= 1)
#pragma unroll
    for (int stride = size >> 1; stride > 0; stride >>= 1) heap_cmpx(w, v, stride, (lane & size) == 0);
}
/* Sort a bitonic sequence of 32 words ascending. */
__device__ __forceinline__ void heap_bitonic_merge32(uint32_t &w, uint32_t &v) {
#pragma unroll
  for (int stride = 16; stride > 0; stride >>= 1) heap_cmpx(w, v, stride, true);
}
/* Merge two sorted 32-lane sequences a and b: a becomes the 32 smallest, b the
 * 32 largest, both sorted (min/max against b reversed gives two bitonic
 * halves). */
__device__ __forceinline__ void heap_merge(uint32_t &aw, uint32_t &av, uint32_t &bw, uint32_t &bv) {
  unsigned lane = threadIdx.x & 31;
  uint32_t rw = __shfl_sync(heap_full_mask, bw, 31 - lane);
  uint32_t rv = __shfl_sync(heap_full_mask, bv, 31 - lane);
  if (rw < aw) {
    bw = aw, bv = av;
    aw = rw, av = rv;
  } else {
    bw = rw, bv = rv;
  }
  heap_bitonic_merge32(aw, av);
  heap_bitonic_merge32(bw, bv);
}

/* A node's meta word: its subtree's pair count (low bits) and its head slot. */
constexpr uint32_t heap_count_bits = 27, heap_count_mask = (1u << heap_count_bits) - 1;
constexpr uint32_t heap_max_nodes = (1u << 22) - 1; /* capacity * 32 pairs fit the count */

/* Number of nodes of the subtree rooted at node i in a heap of cap nodes
 * (cap < 2^22, so every index below stays under 2^27). */
__device__ __forceinline__ uint32_t heap_subtree_nodes(uint32_t i, uint32_t cap) {
  uint32_t lo = i, hi = i, s = 0;
  while (lo < cap) {
    s += (hi < cap ? hi : cap - 1) - lo + 1;
    lo = lo * 32 + 1;
    hi = hi * 32 + 32;
  }
  return s;
}

/* The nodes below the root and their meta: a small value type, so that the
 * out-of-line merge (heap_merge_root) takes it in registers. */
struct heap_tree {
  warp_heap_node *nodes;
  uint32_t *meta; /* per node: its top's sort word at [i]; at [cap + i] its subtree's pair count and head slot */
  uint32_t cap, lane;

  __device__ uint32_t &top_word(uint32_t node) const { return meta[node]; }
  __device__ uint32_t &count_head(uint32_t node) const { return meta[cap + node]; }
  __device__ uint32_t count(uint32_t node) const { return count_head(node) & heap_count_mask; }

  /* Load a node's `fill` pairs into lanes 0.. in sorted order (from its head). */
  __device__ void load(uint32_t node, uint32_t fill, float &k, uint32_t &v) const {
    uint32_t slot = ((count_head(node) >> heap_count_bits) + lane) & 31;
    warp_heap_pair p = {0.0f, 0};
    if (lane < fill) p = nodes[node].pair[slot];
    k = p.key, v = p.val;
  }
  /* Write a node back from slot 0 (head 0), with its subtree's new count. */
  __device__ void store(uint32_t node, uint32_t fill, uint32_t count, float k, uint32_t v) const {
    if (lane < fill) nodes[node].pair[lane] = warp_heap_pair{k, v};
    __syncwarp(); /* every lane has read the meta it is about to change */
    if (lane == 0) {
      if (fill) top_word(node) = heap_word(k);
      count_head(node) = count;
    }
  }

  /* Insert (key, val) into the sorted node (k, v) of `fill` pairs. When the
   * node was full, (key, val) becomes the pair that fell out (possibly the
   * argument itself) and the return is true. */
  __device__ bool insert(float &k, uint32_t &v, uint32_t fill, float &key, uint32_t &val) const {
    unsigned le = __ballot_sync(heap_full_mask, lane < fill && k <= key);
    uint32_t pos = 32 - __clz((int)le); /* le is a prefix of lanes: its length */
    float uk = __shfl_up_sync(heap_full_mask, k, 1);
    uint32_t uv = __shfl_up_sync(heap_full_mask, v, 1);
    float lk = __shfl_sync(heap_full_mask, k, 31);
    uint32_t lv = __shfl_sync(heap_full_mask, v, 31);
    if (pos == 32) return true; /* full node, key >= all: key itself falls out */
    if (lane == pos) k = key, v = val;
    else if (lane > pos) k = uk, v = uv;
    if (fill < 32) return false;
    key = lk, val = lv;
    return true;
  }

  /* Insert the pairs of the lanes in `from` (of bk/bv), in lane order, one
   * at a time into the sorted node (k, v) of `fill` pairs. The pairs that
   * fall out of the full node are returned in lanes 0.. of bk/bv, their
   * number as the result; `fill` becomes the node's new fill. */
  __device__ uint32_t insert_each(float &k, uint32_t &v, uint32_t &fill, unsigned from, float &bk,
                                  uint32_t &bv) const {
    uint32_t out = 0;
    float fk = 0.0f;
    uint32_t fv = 0;
    for (; from; from &= from - 1) {
      int l = __ffs(from) - 1;
      float x = __shfl_sync(heap_full_mask, bk, l);
      uint32_t y = __shfl_sync(heap_full_mask, bv, l);
      if (insert(k, v, fill, x, y)) {
        if (lane == out) fk = x, fv = y;
        ++out;
      } else {
        ++fill;
      }
    }
    bk = fk, bv = fv;
    return out;
  }

  /* Index of this lane's child of `parent`, or 0 when past the capacity. */
  __device__ uint32_t my_child(uint32_t parent) const {
    uint32_t c = parent * 32 + 1 + lane;
    return c < cap ? c : 0;
  }

  /* Refill the root's lane 31 (k, v; the root is full and has a non-empty
   * child) with the smallest pair of its children, and so on down: the
   * child's head advances and, if the child has children, its vacated slot
   * (now its largest position) is filled the same way. The path comes from
   * the meta alone; each level loads two words (lane 0: the taken pair's
   * payload, lane 1: the key after it, the child's new top) and stores one
   * pair. (Issuing the next level's loads before this level's stores, so
   * that a two-level pull waits for memory once, measured 12% slower on an
   * H100: more registers and branches for little latency.) */
  __device__ void pull_up(float &k, uint32_t &v) const {
    uint32_t parent = 0, hole = 0;
    for (;;) {
      uint32_t c = my_child(parent), ch = 0, w = heap_pad;
      if (c) ch = count_head(c), w = top_word(c);
      w = ch & heap_count_mask ? w : heap_pad;
      uint32_t best = redux_min(w);
      int l = __ffs(__ballot_sync(heap_full_mask, w == best)) - 1;
      c = parent * 32 + 1 + (uint32_t)l;
      ch = __shfl_sync(heap_full_mask, ch, l);
      uint32_t n = ch & heap_count_mask, head = ch >> heap_count_bits;
      uint32_t slot = (head + lane) & 31, x = 0;
      if (lane == 0) x = nodes[c].pair[slot].val;
      else if (lane == 1 && n > 1) x = __float_as_uint(nodes[c].pair[slot].key);
      uint32_t pv = __shfl_sync(heap_full_mask, x, 0), next = __shfl_sync(heap_full_mask, x, 1);
      float pk = heap_unword(best);
      if (parent == 0) {
        if (lane == 31) k = pk, v = pv;
      } else if (lane == 0) {
        nodes[parent].pair[hole] = warp_heap_pair{pk, pv};
      }
      __syncwarp(); /* every lane has read c's meta (its choice) before it changes */
      if (lane == 0) {
        count_head(c) = (n - 1) | ((head + 1) & 31) << heap_count_bits;
        if (n > 1) top_word(c) = heap_word(__uint_as_float(next));
      }
      __syncwarp();
      if (n <= 32) return; /* c had no non-empty child */
      parent = c, hole = head;
    }
  }
  /* The child of `parent` with the most free pair slots in its subtree (ties:
   * lowest index), and that number in *slots. */
  __device__ uint32_t most_room_child(uint32_t parent, uint32_t &slots) const {
    uint32_t c = my_child(parent), r = 0;
    if (c) r = heap_subtree_nodes(c, cap) * 32 - count(c);
    slots = redux_max(r);
    return parent * 32 + __ffs(__ballot_sync(heap_full_mask, r == slots));
  }

  /* The batch (lanes 0..spill-1 of bk/bv, every key >= each key of the full
   * node cur) goes down to the child with the most free room, is merged there
   * (the node keeps the 32 smallest) and what falls out goes on down. ONE:
   * the batch is a single pair, for which a child with room always exists.
   * Otherwise, when that child has less room than the batch: a leaf takes
   * the batch's smallest pairs that fit, the rest stays for the next leaf;
   * an inner node (a nearly full heap) gets the batch one pair at a time. A
   * batch of more than heap_insert_max pairs is sorted (it comes from a
   * bitonic merge). */
  template <bool ONE>
  __device__ void sink(uint32_t cur, uint32_t spill, float bk, uint32_t bv) const {
    while (spill) {
      uint32_t slots;
      uint32_t c = most_room_child(cur, slots);
      uint32_t take = spill;
      if constexpr (!ONE)
        if (slots < spill) {
          if (c * 32 + 1 < cap) { /* c has children: one pair at a time */
            for (uint32_t i = 0; i < spill; ++i)
              sink<true>(cur, 1, __shfl_sync(heap_full_mask, bk, i), __shfl_sync(heap_full_mask, bv, i));
            return;
          }
          take = slots; /* a leaf: it takes the batch's `slots` smallest pairs */
        }
      uint32_t cold = count(c), cf = cold < 32 ? cold : 32;
      float ck;
      uint32_t cv;
      load(c, cf, ck, cv);
      uint32_t next;
      float rk = bk;
      uint32_t rv = bv;
      if (ONE || take <= heap_insert_max) {
        next = insert_each(ck, cv, cf, (1u << take) - 1, rk, rv);
      } else {
        uint32_t aw = lane < cf ? heap_word(ck) : heap_pad, av = cv;
        uint32_t bw = lane < take ? heap_word(rk) : heap_pad;
        heap_merge(aw, av, bw, rv);
        next = cf + take > 32 ? cf + take - 32 : 0;
        cf = cf + take < 32 ? cf + take : 32;
        ck = heap_unword(aw), cv = av, rk = heap_unword(bw);
      }
      store(c, cf, cold + take, ck, cv);
      __syncwarp();
      if (take < spill) { /* the rest of the batch, lanes take.., stays at cur */
        bk = __shfl_down_sync(heap_full_mask, bk, take);
        bv = __shfl_down_sync(heap_full_mask, bv, take);
        spill -= take;
        continue;
      }
      spill = next, bk = rk, bv = rv;
      cur = c;
    }
  }
};

/* The root (in registers) and the tree's pair count. */
struct heap_root {
  float k;    /* this lane's root element */
  uint32_t v;
  uint32_t size;
};

/* Merge a sorted batch of k pairs (words bw, payloads bv; pads above) into
 * the root; what falls out sinks. Out of line: it is the heavy, rarer path
 * (one per 32 small pushes, or per bulk push), and inlined at every push and
 * pop site its registers and code would weigh on the callers' hot loops. */
__device__ __noinline__ inline heap_root heap_merge_root(heap_tree t, heap_root r, uint32_t bw, uint32_t bv,
                                                         uint32_t k) {
  heap_sort32(bw, bv);
  uint32_t f = r.size < 32 ? r.size : 32;
  r.size += k;
  uint32_t aw = t.lane < f ? heap_word(r.k) : heap_pad;
  heap_merge(aw, r.v, bw, bv);
  r.k = heap_unword(aw);
  uint32_t spill = f + k > 32 ? f + k - 32 : 0;
  if (spill) t.sink<false>(0, spill, heap_unword(bw), bv);
  return r;
}
}  // namespace detail

class warp_heap {
 public:
  /* Bind the heap to its storage and empty it. nodes: `capacity` nodes of
   * global memory (slot 0 holds the insertion buffer); meta: 2 * capacity
   * words (shared or global memory). Both private to this warp.
   * 1 <= capacity <= heap_max_nodes. */
  __device__ void init(warp_heap_node *nodes, uint32_t *meta, uint32_t capacity) {
    t_.nodes = nodes, t_.meta = meta, t_.cap = capacity;
    t_.lane = threadIdx.x & 31;
    clear();
  }

  /* Empty the heap (and forget an overflow); O(capacity / 32) per lane. */
  __device__ void clear() {
    r_.size = 0, buf_ = 0, buf_min_ = detail::heap_pad, overflowed_ = false;
    r_.k = 0.0f, r_.v = 0;
    __syncwarp();
    for (uint32_t i = t_.lane; i < t_.cap; i += 32) t_.count_head(i) = 0;
    __syncwarp();
  }

  __device__ uint32_t size() const { return r_.size + buf_; }
  __device__ bool empty() const { return size() == 0; }
  __device__ bool overflowed() const { return overflowed_; }
  __device__ uint64_t capacity_pairs() const { return (uint64_t)t_.cap * 32; }
  /* The minimum key and its payload; the heap must not be empty. (Not
   * const: when the minimum waits in the insertion buffer, the buffer is
   * merged into the tree first.) */
  __device__ float top_key() {
    settle_buffer();
    return __shfl_sync(detail::heap_full_mask, r_.k, 0);
  }
  __device__ uint32_t top_value() {
    settle_buffer();
    return __shfl_sync(detail::heap_full_mask, r_.v, 0);
  }

  /* The payload of the root's i-th smallest pair (i < 32): what the coming
   * pops will most likely return, for a caller that prefetches. A hint only:
   * meaningless past size(), and the insertion buffer or later pushes may
   * hold smaller keys. */
  __device__ uint32_t peek_value(unsigned i) const { return __shfl_sync(detail::heap_full_mask, r_.v, i); }

  /* Remove the minimum into key/val; false when empty. */
  __device__ bool pop(float &key, uint32_t &val) {
    return pop(key, val, [](float, uint32_t) {});
  }
  /* The same, calling with_min(key, val) once the minimum is known and
   * before the root is refilled from below: loads that the caller issues
   * there (what it needs of the popped item) are in flight while the refill
   * waits for its own. */
  template <class F>
  __device__ bool pop(float &key, uint32_t &val, F &&with_min) {
    if (empty()) return false;
    settle_buffer();
    key = __shfl_sync(detail::heap_full_mask, r_.k, 0), val = __shfl_sync(detail::heap_full_mask, r_.v, 0);
    with_min(key, val);
    uint32_t old = r_.size--;
    float k = shift_out(r_.k);
    uint32_t v = shift_out(r_.v);
    if (old > 32) t_.pull_up(k, v); /* the root is full and has a non-empty child */
    r_.k = k, r_.v = v;
    return true;
  }

  /* Insert one pair (key, val are warp-uniform). False on overflow. */
  __device__ bool push(float key, uint32_t val) { return push_bulk(t_.lane == 0, key, val); }

  /* Insert the pairs of the lanes with `valid` set (per-lane arguments).
   * False on overflow (see the header comment for what was pushed). */
  __device__ bool push_bulk(bool valid, float key, uint32_t val) {
    unsigned mask = __ballot_sync(detail::heap_full_mask, valid);
    uint32_t k = __popc(mask);
    if (k == 0) return true;
    if (key == 0.0f) key = 0.0f; /* -0 to +0: the sort words order them apart */
    bool fits = (uint64_t)size() + k <= capacity_pairs();
    if (!fits) { /* the lowest lanes that fit go in, as if pushed one by one in lane order */
      overflowed_ = true;
      k = (uint32_t)(capacity_pairs() - size());
      while ((uint32_t)__popc(mask) > k) mask &= ~(0x80000000u >> __clz((int)mask));
      if (k == 0) return false;
    }
    bool mine = (mask >> t_.lane) & 1u;
    uint32_t bw = mine ? detail::heap_word(key) : detail::heap_pad, bv = val;
    if (k <= detail::heap_insert_max) {
      if (r_.size + k <= 32) { /* the root takes them all */
        uint32_t f = r_.size;
        r_.size += k;
        t_.insert_each(r_.k, r_.v, f, mask, key, val);
        return fits;
      }
      /* The root would spill: into the buffer. When the buffer has no room
       * for them, its pairs are taken out as the batch to merge (below). */
      uint32_t at = buf_ + __popc(mask & ((1u << t_.lane) - 1u)), full = buf_ + k > 32 ? buf_ : 0;
      if (full) at -= take_buffer(bw, bv);
      if (mine) t_.nodes[0].pair[at] = warp_heap_pair{key, val};
      uint32_t m = detail::redux_min(mine ? detail::heap_word(key) : detail::heap_pad);
      buf_min_ = m < buf_min_ ? m : buf_min_;
      buf_ += k;
      if (!full) return fits;
      k = full;
    }
    r_ = detail::heap_merge_root(t_, r_, bw, bv, k);
    return fits;
  }

 private:
  detail::heap_tree t_;
  detail::heap_root r_;    /* the root and the tree's pair count */
  uint32_t buf_, buf_min_; /* pairs in the insertion buffer (node 0's slot), their smallest word */
  bool overflowed_;

  template <class T>
  __device__ T shift_out(T x) const { return __shfl_down_sync(detail::heap_full_mask, x, 1); }

  /* Empty the insertion buffer into a batch to merge: sort words and payloads
   * in lanes 0.., pads above. Returns the number of pairs. */
  __device__ uint32_t take_buffer(uint32_t &bw, uint32_t &bv) {
    __syncwarp(); /* the lanes' buffer stores are visible to the warp */
    warp_heap_pair p = {0.0f, 0};
    if (t_.lane < buf_) p = t_.nodes[0].pair[t_.lane];
    bw = t_.lane < buf_ ? detail::heap_word(p.key) : detail::heap_pad;
    bv = p.val;
    __syncwarp(); /* read before the buffer is refilled */
    uint32_t k = buf_;
    buf_ = 0, buf_min_ = detail::heap_pad;
    return k;
  }

  /* When the buffer holds the minimum (or the tree is empty), merge it into
   * the tree, so that the minimum is lane 0 of the root. */
  __device__ void settle_buffer() {
    if (buf_ == 0) return;
    if (r_.size && buf_min_ >= detail::heap_word(__shfl_sync(detail::heap_full_mask, r_.k, 0))) return;
    uint32_t bw, bv, k = take_buffer(bw, bv);
    r_ = detail::heap_merge_root(t_, r_, bw, bv, k);
  }
};

}  // namespace gcol
#endif
