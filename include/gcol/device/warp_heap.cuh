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
 *  - Nodes 1 .. capacity-1 live in the caller's global buffer (node 0's slot is
 *    unused), one 256-byte warp_heap_node each: a warp loads or stores a node
 *    with two coalesced 128-byte accesses.
 *  - Per node, a cached top (its smallest key) and the pair count of its
 *    subtree, in two caller-provided arrays of `capacity` entries: in shared
 *    memory for speed (the solver does this), or in global memory for a heap
 *    too large for shared memory (the solver's overflow fallback does this).
 *
 * Operations (every lane of the warp calls each one, with warp-uniform
 * arguments unless stated).
 *  - pop: take lane 0 of the root, shift the root left by one lane (one
 *    __shfl_down), and refill its last lane with the minimum of its children:
 *    one warp-wide argmin over the 32 cached tops picks that child, whose own
 *    front moved up leaves a hole filled the same way, down one path to a node
 *    without non-empty children. Every node on the path stays sorted and full.
 *  - push: insert into a sorted node with one __ballot_sync (lanes <= key),
 *    one __clz for the position and one __shfl_up to open the slot. When the
 *    node was full its largest pair falls to the child whose subtree has the
 *    most free room (argmax over the 32 children's counts), and so on down.
 *    Choosing by free room means a push fails only when all capacity*32 slots
 *    are taken.
 *  - push_bulk (up to 32 pairs, one per lane): the batch is sorted with a warp
 *    bitonic sort and merged into the root with one bitonic merge (the 32
 *    smallest stay, the rest spill as one batch to a child with room for all
 *    of them, merged there the same way, and so on down): one node load and
 *    store per level for the whole batch instead of one per pair.
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
 * Limits: 1 <= capacity <= 2^26 nodes (2^31 pairs).
 */
#ifndef GCOL_DEVICE_WARP_HEAP_CUH
#define GCOL_DEVICE_WARP_HEAP_CUH

#include <stdint.h>

namespace gcol {

struct warp_heap_node {
  float key[32];
  uint32_t val[32];
};

namespace detail {
constexpr unsigned heap_full_mask = 0xffffffffu;

/* Keys as 64-bit sort words: an order-preserving map of the float's bits
 * (so integer compares order floats), and a pad word above every key for lanes
 * that hold no element. */
__device__ __forceinline__ uint64_t heap_word(float k) {
  uint32_t b = __float_as_uint(k);
  return (uint64_t)((b & 0x80000000u) ? ~b : (b | 0x80000000u));
}
__device__ __forceinline__ float heap_unword(uint64_t w) {
  uint32_t b = (uint32_t)w;
  return __uint_as_float((b & 0x80000000u) ? (b & 0x7fffffffu) : ~b);
}
constexpr uint64_t heap_pad = 1ull << 32;

/* One compare-exchange stage of a warp bitonic network: lanes lane and
 * lane^stride swap so that the lower lane holds the smaller word when `up`. */
__device__ __forceinline__ void heap_cmpx(uint64_t &w, uint32_t &v, int stride, bool up) {
  uint64_t ow = __shfl_xor_sync(heap_full_mask, w, stride);
  uint32_t ov = __shfl_xor_sync(heap_full_mask, v, stride);
  bool lower = ((threadIdx.x & 31) & stride) == 0;
  bool take = (lower == up) ? (ow < w) : (ow > w);
  if (take) w = ow, v = ov;
}
/* Sort 32 words ascending across the warp. */
__device__ __forceinline__ void heap_sort32(uint64_t &w, uint32_t &v) {
  unsigned lane = threadIdx.x & 31;
  for (int size = 2; size <= 32; size <<= 1)
    for (int stride = size >> 1; stride > 0; stride >>= 1) heap_cmpx(w, v, stride, (lane & size) == 0);
}
/* Sort a bitonic sequence of 32 words ascending. */
__device__ __forceinline__ void heap_bitonic_merge32(uint64_t &w, uint32_t &v) {
  for (int stride = 16; stride > 0; stride >>= 1) heap_cmpx(w, v, stride, true);
}
/* Merge two sorted 32-lane sequences a and b: a becomes the 32 smallest, b the
 * 32 largest, both sorted (min/max against b reversed gives two bitonic
 * halves). */
__device__ __forceinline__ void heap_merge(uint64_t &aw, uint32_t &av, uint64_t &bw, uint32_t &bv) {
  unsigned lane = threadIdx.x & 31;
  uint64_t rw = __shfl_sync(heap_full_mask, bw, 31 - lane);
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

/* Number of nodes of the subtree rooted at node i in a heap of cap nodes. */
__device__ __forceinline__ uint64_t heap_subtree_nodes(uint64_t i, uint64_t cap) {
  uint64_t lo = i, hi = i, s = 0;
  while (lo < cap) {
    s += (hi < cap ? hi : cap - 1) - lo + 1;
    lo = lo * 32 + 1;
    hi = hi * 32 + 32;
  }
  return s;
}
}  // namespace detail

class warp_heap {
 public:
  /* Bind the heap to its storage and empty it. nodes: `capacity` nodes of
   * global memory (slot 0 unused); tops, counts: `capacity` entries each
   * (shared or global memory), private to this warp. */
  __device__ void init(warp_heap_node *nodes, float *tops, uint32_t *counts, uint32_t capacity) {
    nodes_ = nodes, tops_ = tops, counts_ = counts, cap_ = capacity;
    lane_ = threadIdx.x & 31;
    clear();
  }

  /* Empty the heap (and forget an overflow); O(capacity / 32) per lane. */
  __device__ void clear() {
    size_ = 0, overflowed_ = false;
    rk_ = 0.0f, rv_ = 0;
    __syncwarp();
    for (uint32_t i = lane_; i < cap_; i += 32) counts_[i] = 0;
    __syncwarp();
  }

  __device__ uint32_t size() const { return size_; }
  __device__ bool empty() const { return size_ == 0; }
  __device__ bool overflowed() const { return overflowed_; }
  __device__ uint64_t capacity_pairs() const { return (uint64_t)cap_ * 32; }
  /* The minimum key and its payload; the heap must not be empty. */
  __device__ float top_key() const { return __shfl_sync(detail::heap_full_mask, rk_, 0); }
  __device__ uint32_t top_value() const { return __shfl_sync(detail::heap_full_mask, rv_, 0); }

  /* Remove the minimum into key/val; false when empty. */
  __device__ bool pop(float &key, uint32_t &val) {
    if (size_ == 0) return false;
    key = top_key(), val = top_value();
    uint32_t old = size_--;
    float k = shift_out(rk_);
    uint32_t v = shift_out(rv_);
    uint32_t cur = 0;
    for (;;) {
      if (old <= 32) break; /* no non-empty child: the node just shrinks */
      uint32_t c = min_child(cur);
      float ck;
      uint32_t cv, cold = counts_[c];
      load(c, cold < 32 ? cold : 32, ck, cv);
      float hk = __shfl_sync(detail::heap_full_mask, ck, 0);
      uint32_t hv = __shfl_sync(detail::heap_full_mask, cv, 0);
      if (lane_ == 31) k = hk, v = hv;
      finish(cur, old - 1, k, v);
      __syncwarp();
      k = shift_out(ck), v = shift_out(cv);
      cur = c, old = cold;
    }
    finish(cur, old - 1, k, v);
    __syncwarp();
    return true;
  }

  /* Insert one pair (key, val are warp-uniform). False on overflow. */
  __device__ bool push(float key, uint32_t val) {
    if (key == 0.0f) key = 0.0f; /* -0 to +0: the sort words order them apart */
    if ((uint64_t)size_ >= capacity_pairs()) {
      overflowed_ = true;
      return false;
    }
    uint32_t old = size_++;
    if (old < 32) {
      insert(rk_, rv_, old, key, val);
      return true;
    }
    if (!insert(rk_, rv_, 32, key, val)) return true; /* pushed into the root, its max fell out */
    push_below(0, key, val);
    return true;
  }

  /* Insert the pairs of the lanes with `valid` set (per-lane arguments).
   * False on overflow (see the header comment for what was pushed). */
  __device__ bool push_bulk(bool valid, float key, uint32_t val) {
    unsigned mask = __ballot_sync(detail::heap_full_mask, valid);
    uint32_t k = __popc(mask);
    if (k == 0) return true;
    if (key == 0.0f) key = 0.0f; /* -0 to +0: the sort words order them apart */
    if (k == 1 || (uint64_t)size_ + k > capacity_pairs()) return push_each(mask, key, val);
    uint64_t bw = valid ? detail::heap_word(key) : detail::heap_pad;
    uint32_t bv = val;
    detail::heap_sort32(bw, bv);
    uint32_t old = size_;
    size_ += k;
    uint32_t f = old < 32 ? old : 32;
    uint64_t aw = lane_ < f ? detail::heap_word(rk_) : detail::heap_pad;
    uint32_t av = rv_;
    detail::heap_merge(aw, av, bw, bv);
    rk_ = detail::heap_unword(aw), rv_ = av;
    uint32_t spill = f + k > 32 ? f + k - 32 : 0;
    uint32_t cur = 0;
    while (spill) {
      uint32_t c = most_room_child(cur);
      uint32_t cold = counts_[c];
      if (room(c, cold) < spill) {
        /* no single child takes the whole batch: spread it pair by pair */
        for (uint32_t i = 0; i < spill; ++i)
          push_below(cur, detail::heap_unword(__shfl_sync(detail::heap_full_mask, bw, i)),
                     __shfl_sync(detail::heap_full_mask, bv, i));
        break;
      }
      uint32_t cf = cold < 32 ? cold : 32;
      float ck;
      uint32_t cv;
      load(c, cf, ck, cv);
      aw = lane_ < cf ? detail::heap_word(ck) : detail::heap_pad, av = cv;
      detail::heap_merge(aw, av, bw, bv);
      uint32_t nf = cf + spill < 32 ? cf + spill : 32;
      store(c, nf, detail::heap_unword(aw), av);
      __syncwarp();
      if (lane_ == 0) counts_[c] = cold + spill;
      __syncwarp();
      spill = cf + spill > 32 ? cf + spill - 32 : 0;
      cur = c;
    }
    return true;
  }

 private:
  warp_heap_node *nodes_;
  float *tops_;
  uint32_t *counts_;
  uint32_t cap_, size_, lane_;
  bool overflowed_;
  float rk_;    /* root element of this lane */
  uint32_t rv_;

  template <class T>
  __device__ T shift_out(T x) const { return __shfl_down_sync(detail::heap_full_mask, x, 1); }

  __device__ void load(uint32_t node, uint32_t fill, float &k, uint32_t &v) const {
    if (lane_ < fill) k = nodes_[node].key[lane_], v = nodes_[node].val[lane_];
    else k = 0.0f, v = 0;
  }
  __device__ void store(uint32_t node, uint32_t fill, float k, uint32_t v) {
    if (lane_ < fill) nodes_[node].key[lane_] = k, nodes_[node].val[lane_] = v;
    if (lane_ == 0 && fill) tops_[node] = k;
  }
  /* Write back node cur (the root stays in registers) with `count` pairs left in
   * its subtree. */
  __device__ void finish(uint32_t cur, uint32_t count, float k, uint32_t v) {
    if (cur == 0) {
      rk_ = k, rv_ = v;
      return;
    }
    store(cur, count < 32 ? count : 32, k, v);
    if (lane_ == 0) counts_[cur] = count;
  }

  /* Insert (key, val) into the sorted node (k, v) of `fill` pairs. When the
   * node was full, (key, val) becomes the pair that fell out (possibly the
   * argument itself) and the return is true. */
  __device__ bool insert(float &k, uint32_t &v, uint32_t fill, float &key, uint32_t &val) const {
    unsigned le = __ballot_sync(detail::heap_full_mask, lane_ < fill && k <= key);
    uint32_t pos = 32 - __clz((int)le); /* le is a prefix of lanes: its length */
    float uk = __shfl_up_sync(detail::heap_full_mask, k, 1);
    uint32_t uv = __shfl_up_sync(detail::heap_full_mask, v, 1);
    float lk = __shfl_sync(detail::heap_full_mask, k, 31);
    uint32_t lv = __shfl_sync(detail::heap_full_mask, v, 31);
    if (pos == 32) return true; /* full node, key >= all: key itself falls out */
    if (lane_ == pos) k = key, v = val;
    else if (lane_ > pos) k = uk, v = uv;
    if (fill < 32) return false;
    key = lk, val = lv;
    return true;
  }

  /* Push (key, val) into the subtree below the full node `cur`, whose count
   * already includes it; key >= every key of cur. */
  __device__ void push_below(uint32_t cur, float key, uint32_t val) {
    for (;;) {
      uint32_t c = most_room_child(cur);
      uint32_t cold = counts_[c];
      uint32_t cf = cold < 32 ? cold : 32;
      float ck;
      uint32_t cv;
      load(c, cf, ck, cv);
      bool fell = insert(ck, cv, cf, key, val);
      store(c, cf < 32 ? cf + 1 : 32, ck, cv);
      __syncwarp();
      if (lane_ == 0) counts_[c] = cold + 1;
      __syncwarp();
      if (!fell) return;
      cur = c;
    }
  }

  __device__ bool push_each(unsigned mask, float key, uint32_t val) {
    while (mask) {
      int l = __ffs(mask) - 1;
      mask &= mask - 1;
      if (!push(__shfl_sync(detail::heap_full_mask, key, l), __shfl_sync(detail::heap_full_mask, val, l)))
        return false;
    }
    return true;
  }

  __device__ uint32_t room(uint32_t node, uint32_t count) const {
    return (uint32_t)(detail::heap_subtree_nodes(node, cap_) * 32 - count);
  }

  /* Index of this lane's child of `parent`, or 0 when past the capacity. */
  __device__ uint32_t my_child(uint32_t parent) const {
    uint64_t c = (uint64_t)parent * 32 + 1 + lane_;
    return c < cap_ ? (uint32_t)c : 0;
  }

  /* The child of `parent` with the smallest top (ties: lowest index); the
   * parent must have a non-empty child. */
  __device__ uint32_t min_child(uint32_t parent) const {
    uint32_t c = my_child(parent);
    bool ok = c && counts_[c] > 0;
    uint64_t w = ok ? detail::heap_word(tops_[c]) : detail::heap_pad;
    uint64_t best = (w << 5) | lane_; /* key word, then lane: unique */
    for (int s = 16; s > 0; s >>= 1) {
      uint64_t o = __shfl_xor_sync(detail::heap_full_mask, best, s);
      best = o < best ? o : best;
    }
    return parent * 32 + 1 + (uint32_t)(best & 31);
  }

  /* The child of `parent` with the most free room (ties: lowest index). */
  __device__ uint32_t most_room_child(uint32_t parent) const {
    uint32_t c = my_child(parent);
    uint64_t r = c ? room(c, counts_[c]) : 0;
    uint64_t best = (r << 5) | (31 - lane_);
    for (int s = 16; s > 0; s >>= 1) {
      uint64_t o = __shfl_xor_sync(detail::heap_full_mask, best, s);
      best = o > best ? o : best;
    }
    return parent * 32 + 1 + (31 - (uint32_t)(best & 31));
  }
};

}  // namespace gcol
#endif
