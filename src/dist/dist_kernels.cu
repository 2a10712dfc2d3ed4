/* Grouping a batch by owner rank with warp-aggregated atomics: lanes of a
 * warp that go to the same rank elect one leader (match_any), which makes
 * one shared-memory atomic for all of them; each block then reserves one
 * range per rank in global memory with one atomic. */
#include <type_traits>

#include <cooperative_groups.h>

#include "dist/dist_kernels.h"
#include "dist/dist_plan.h"
#include "gcol/device/map.cuh"

namespace {

constexpr int kBlock = 256, kItems = 4;

template <int KB>
struct key_word {
  typedef typename std::conditional<KB == 4, uint32_t, uint64_t>::type type;
};

/* This lane's rank among the warp's active lanes with the same owner, and
 * one shared atomic per owner per warp: returns the slot inside the block's
 * range of `owner`. */
__device__ __forceinline__ unsigned warp_claim(unsigned *s_hist, uint32_t owner) {
  unsigned active = __activemask();
  unsigned peers = __match_any_sync(active, owner);
  unsigned lane = threadIdx.x & 31, leader = __ffs(peers) - 1;
  unsigned base = 0;
  if (lane == leader) base = atomicAdd(&s_hist[owner], (unsigned)__popc(peers));
  base = __shfl_sync(peers, base, leader);
  return base + __popc(peers & ((1u << lane) - 1));
}

template <int KB>
__global__ void __launch_bounds__(kBlock) count_kernel(const void *keys, size_t n, uint32_t nranks,
                                                        unsigned long long *counts) {
  extern __shared__ unsigned s_hist[];
  typedef typename key_word<KB>::type K;
  for (uint32_t p = threadIdx.x; p < nranks; p += blockDim.x) s_hist[p] = 0;
  __syncthreads();
  const K *k = static_cast<const K *>(keys);
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    warp_claim(s_hist, gcol_dist_owner_of((uint64_t)k[i], nranks));
  __syncthreads();
  for (uint32_t p = threadIdx.x; p < nranks; p += blockDim.x)
    if (s_hist[p]) atomicAdd(&counts[p], (unsigned long long)s_hist[p]);
}

__global__ void starts_kernel(const uint64_t *counts, uint32_t nranks, uint32_t skip, unsigned long long *cursor) {
  unsigned long long sum = 0;
  for (uint32_t p = 0; p < nranks; ++p) cursor[p] = sum, sum += p == skip ? 0 : counts[p];
}

template <int KB, int VB>
__global__ void __launch_bounds__(kBlock) group_kernel(const void *keys, const void *values, size_t n,
                                                        uint32_t nranks, uint32_t skip, unsigned long long *cursor,
                                                        void *keys_out, void *values_out,
                                                        uint32_t *origin_out) {
  extern __shared__ unsigned s_hist[]; /* nranks counts, then nranks 64-bit bases */
  unsigned long long *s_base = reinterpret_cast<unsigned long long *>(s_hist + ((nranks + 1) & ~1u));
  typedef typename key_word<KB>::type K;
  typedef typename key_word<VB>::type V;
  const K *k = static_cast<const K *>(keys);
  const V *v = static_cast<const V *>(values);
  for (size_t tile = (size_t)blockIdx.x * kBlock * kItems; tile < n; tile += (size_t)gridDim.x * kBlock * kItems) {
    for (uint32_t p = threadIdx.x; p < nranks; p += blockDim.x) s_hist[p] = 0;
    __syncthreads();
    K key[kItems];
    uint32_t owner[kItems];
    unsigned slot[kItems];
#pragma unroll
    for (int it = 0; it < kItems; ++it) {
      size_t i = tile + (size_t)it * kBlock + threadIdx.x;
      owner[it] = skip; /* past the end: not written */
      if (i < n) {
        key[it] = k[i];
        owner[it] = gcol_dist_owner_of((uint64_t)key[it], nranks);
        if (owner[it] != skip) slot[it] = warp_claim(s_hist, owner[it]);
      }
    }
    __syncthreads();
    for (uint32_t p = threadIdx.x; p < nranks; p += blockDim.x)
      s_base[p] = s_hist[p] ? atomicAdd(&cursor[p], (unsigned long long)s_hist[p]) : 0;
    __syncthreads();
#pragma unroll
    for (int it = 0; it < kItems; ++it) {
      size_t i = tile + (size_t)it * kBlock + threadIdx.x;
      if (owner[it] != skip) {
        size_t o = s_base[owner[it]] + slot[it];
        static_cast<K *>(keys_out)[o] = key[it];
        if (values_out) static_cast<V *>(values_out)[o] = v[i];
        if (origin_out) origin_out[o] = (uint32_t)i;
      }
    }
    __syncthreads(); /* s_hist is reset for the next tile */
  }
}

template <typename E>
__global__ void scatter_kernel(const E *grouped, const uint32_t *origin, size_t n, E *out) {
  for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < n; j += (size_t)gridDim.x * blockDim.x)
    out[origin[j]] = grouped[j];
}

/* f(kw, vw) with the key and value widths (4 or 8 bytes) as compile-time
 * constants; a value width other than 4 (0: no values) counts as 8. */
template <class F>
cudaError_t with_widths(int key_bytes, int value_bytes, F f) {
  typedef std::integral_constant<int, 4> w4;
  typedef std::integral_constant<int, 8> w8;
  if (key_bytes == 4) return value_bytes == 4 ? f(w4(), w4()) : f(w4(), w8());
  return value_bytes == 4 ? f(w8(), w4()) : f(w8(), w8());
}

unsigned grid_for(size_t items) {
  size_t g = (items + kBlock - 1) / kBlock;
  return (unsigned)(g < 1 ? 1 : g > 65535 * 8 ? 65535 * 8 : g);
}

template <int KB, int VB>
void launch_group(const void *keys, const void *values, size_t n, uint32_t nranks, uint32_t skip,
                  unsigned long long *cursor, void *keys_out, void *values_out, uint32_t *origin_out, size_t shmem,
                  cudaStream_t s) {
  group_kernel<KB, VB><<<grid_for((n + kItems - 1) / kItems), kBlock, shmem, s>>>(
      keys, values, n, nranks, skip, cursor, keys_out, values_out, origin_out);
}

/* Lookups on the shard through its device view, a key per thread and a block
 * per 256 keys: blocks end often, so the NCCL blocks of the rounds in flight
 * (a stream of higher priority) get SMs as soon as some free up, where a
 * full-grid kernel would hold every SM to its end. Probing as the map's bulk
 * find: the warp splits into the bucket's worker tiles. */
template <class K, class V>
__device__ __forceinline__ void lookup_one(const gcol::map_view<K, V> &view, bool active, K k, void *out, size_t i,
                                           bool contains) {
  auto warp = cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block());
  V v = view.empty_value();
  bool found = view.find_each(warp, active, k, &v);
  if (!active) return;
  if (contains) static_cast<uint8_t *>(out)[i] = found;
  else static_cast<V *>(out)[i] = v;
}

/* A received round: every key is this rank's. */
template <class K, class V>
__global__ void __launch_bounds__(kBlock) lookup_kernel(gcol::map_view<K, V> view, const K *keys, size_t n, void *out,
                                                         bool contains) {
  const size_t i = (size_t)blockIdx.x * kBlock + threadIdx.x;
  lookup_one(view, i < n, i < n ? keys[i] : K(), out, i, contains);
}

/* The batch's own keys where they stand: about one key in nranks is rank
 * me's, so a block reads nranks * 256 keys and packs its own into shared
 * memory (warp ballots, in batch order) before probing, 256 at a time, with
 * every lane busy; probing them in place left (nranks - 1) / nranks of the
 * lanes idle. */
template <class K, class V>
__global__ void __launch_bounds__(kBlock) own_lookup_kernel(gcol::map_view<K, V> view, const K *keys, size_t n,
                                                             uint32_t me, uint32_t nranks, void *out, bool contains) {
  __shared__ K s_key[2 * kBlock];
  __shared__ uint32_t s_at[2 * kBlock]; /* offset in the block's window */
  __shared__ unsigned s_count;
  const size_t base = (size_t)blockIdx.x * kBlock * nranks;
  const unsigned lane = threadIdx.x & 31;
  if (threadIdx.x == 0) s_count = 0;
  __syncthreads();
  for (uint32_t chunk = 0; chunk < nranks; ++chunk) {
    const uint32_t at = chunk * kBlock + threadIdx.x;
    const size_t i = base + at;
    K k = i < n ? keys[i] : K();
    bool mine = i < n && gcol_dist_owner_of((uint64_t)k, nranks) == me;
    unsigned ballot = __ballot_sync(0xffffffffu, mine), first = 0;
    if (lane == 0 && ballot) first = atomicAdd(&s_count, (unsigned)__popc(ballot));
    first = __shfl_sync(0xffffffffu, first, 0);
    if (mine) {
      unsigned pos = first + __popc(ballot & ((1u << lane) - 1));
      s_key[pos] = k, s_at[pos] = at;
    }
    __syncthreads();
    const unsigned count = s_count;
    __syncthreads(); /* every thread has read s_count before it changes */
    if (count >= kBlock) { /* a full block of own keys: probe them, keep the rest */
      lookup_one(view, true, s_key[threadIdx.x], out, base + s_at[threadIdx.x], contains);
      K rest_key = K();
      uint32_t rest_at = 0;
      const bool rest = threadIdx.x < count - kBlock;
      if (rest) rest_key = s_key[kBlock + threadIdx.x], rest_at = s_at[kBlock + threadIdx.x];
      __syncthreads();
      if (rest) s_key[threadIdx.x] = rest_key, s_at[threadIdx.x] = rest_at;
      if (threadIdx.x == 0) s_count = count - kBlock;
      __syncthreads();
    }
  }
  const unsigned count = s_count;
  const bool left = threadIdx.x < count;
  lookup_one(view, left, left ? s_key[threadIdx.x] : K(), out, left ? base + s_at[threadIdx.x] : 0, contains);
}

template <class K, class V>
cudaError_t launch_lookup(const gcol_map_view_t &v, const void *keys, size_t n, int me, int nranks, void *out,
                          bool contains, cudaStream_t s) {
  const K *k = static_cast<const K *>(keys);
  if (nranks <= 1) { /* a round (nranks 0): every key is this rank's, nothing to pack */
    lookup_kernel<K, V><<<(unsigned)((n + kBlock - 1) / kBlock), kBlock, 0, s>>>(gcol::map_view<K, V>(v), k, n, out,
                                                                                contains);
  } else {
    size_t window = (size_t)kBlock * (size_t)nranks;
    own_lookup_kernel<K, V><<<(unsigned)((n + window - 1) / window), kBlock, 0, s>>>(
        gcol::map_view<K, V>(v), k, n, (uint32_t)me, (uint32_t)nranks, out, contains);
  }
  return cudaGetLastError();
}

}  // namespace

extern "C" cudaError_t gcol_dist_count_owners(const void *d_keys, size_t n, int key_bytes, int nranks,
                                              uint64_t *d_counts, cudaStream_t s) {
  cudaError_t e = cudaMemsetAsync(d_counts, 0, sizeof(uint64_t) * (size_t)nranks, s);
  if (e != cudaSuccess || n == 0) return e;
  size_t shmem = sizeof(unsigned) * (size_t)nranks;
  unsigned grid = grid_for(n / 8 + 1); /* a few keys per thread: fewer block flushes */
  auto *c = reinterpret_cast<unsigned long long *>(d_counts);
  if (key_bytes == 4) count_kernel<4><<<grid, kBlock, shmem, s>>>(d_keys, n, (uint32_t)nranks, c);
  else count_kernel<8><<<grid, kBlock, shmem, s>>>(d_keys, n, (uint32_t)nranks, c);
  return cudaGetLastError();
}

__global__ void put_count_kernel(uint64_t *d, uint64_t n) { *d = n; }

extern "C" cudaError_t gcol_dist_put_count(uint64_t *d_count, size_t n, cudaStream_t s) {
  put_count_kernel<<<1, 1, 0, s>>>(d_count, (uint64_t)n);
  return cudaGetLastError();
}

extern "C" cudaError_t gcol_dist_group_by_owner(const void *d_keys, const void *d_values, size_t n, int key_bytes,
                                                int value_bytes, int nranks, int skip, const uint64_t *d_counts,
                                                uint64_t *d_cursor, void *d_keys_out, void *d_values_out,
                                                uint32_t *d_origin_out, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  auto *cur = reinterpret_cast<unsigned long long *>(d_cursor);
  const uint32_t P = (uint32_t)nranks, skip_rank = skip < 0 ? P : (uint32_t)skip;
  starts_kernel<<<1, 1, 0, s>>>(d_counts, P, skip_rank, cur);
  size_t shmem = sizeof(unsigned) * (((size_t)nranks + 1) & ~(size_t)1) + sizeof(unsigned long long) * (size_t)nranks;
  const void *v = d_values_out ? d_values : nullptr;
  return with_widths(key_bytes, value_bytes, [&](auto kw, auto vw) {
    launch_group<decltype(kw)::value, decltype(vw)::value>(d_keys, v, n, P, skip_rank, cur, d_keys_out, d_values_out,
                                                           d_origin_out, shmem, s);
    return cudaGetLastError();
  });
}

extern "C" cudaError_t gcol_dist_scatter(const void *d_grouped, const uint32_t *d_origin, size_t n, int elem_bytes,
                                         void *d_out, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  unsigned grid = grid_for(n);
  if (elem_bytes == 1)
    scatter_kernel<<<grid, kBlock, 0, s>>>(static_cast<const uint8_t *>(d_grouped), d_origin, n, static_cast<uint8_t *>(d_out));
  else if (elem_bytes == 4)
    scatter_kernel<<<grid, kBlock, 0, s>>>(static_cast<const uint32_t *>(d_grouped), d_origin, n, static_cast<uint32_t *>(d_out));
  else
    scatter_kernel<<<grid, kBlock, 0, s>>>(static_cast<const uint64_t *>(d_grouped), d_origin, n, static_cast<uint64_t *>(d_out));
  return cudaGetLastError();
}

extern "C" cudaError_t gcol_dist_lookup(const gcol_map_view_t *view, const void *d_keys, size_t n, int me, int nranks,
                                        void *d_out, int contains, cudaStream_t s) {
  if (n == 0) return cudaSuccess;
  return with_widths((int)gcol_type_size((gcol_type_t)view->key_type), (int)gcol_type_size((gcol_type_t)view->value_type),
                     [&](auto kw, auto vw) {
                       typedef typename key_word<decltype(kw)::value>::type K;
                       typedef typename key_word<decltype(vw)::value>::type V;
                       return launch_lookup<K, V>(*view, d_keys, n, me, nranks, d_out, contains, s);
                     });
}
