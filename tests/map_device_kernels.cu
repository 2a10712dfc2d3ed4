/* User-style kernels over include/gcol/device/map.cuh for the GPU tests
 * (also the compile test of that header: NVFLAGS carry -std=c++17 and
 * -Werror all-warnings). */
#include <cooperative_groups.h>
#include "gcol/device/map.cuh"
#include "map_device_kernels.h"

namespace cg = cooperative_groups;

namespace {

/* One key per tile of W threads (W == 0: per-thread calls). */
template <int W, class K, class V>
__global__ void per_key_kernel(gcol::map_mutable_view<K, V> m, dev_op_t op, const K *keys, const V *values,
                               size_t n, V *out, uint8_t *flags) {
  constexpr int TW = W ? W : 1;
  const size_t g = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / TW;
  if (g >= n) return; /* whole tiles leave: n is per tile */
  const K k = keys[g];
  const V v = values ? values[g] : V();
  const gcol::map_view<K, V> &ro = m; /* find and contains through the read-only view */
  bool f = false;
  V stored = V();
  if constexpr (W == 0) {
    switch (op) {
      case DEV_INSERT: f = m.insert(k, v); break;
      case DEV_INSERT_AND_FIND: f = m.insert_and_find(k, v, &stored); break;
      case DEV_INSERT_OR_ASSIGN: f = m.insert_or_assign(k, v); break;
      case DEV_INSERT_OR_ADD: f = m.insert_or_apply(k, v, GCOL_OP_ADD); break;
      case DEV_ERASE: f = m.erase(k); break;
      case DEV_FIND: f = ro.find(k, &stored); if (!f) stored = ro.empty_value(); break;
      case DEV_CONTAINS: f = ro.contains(k); break;
    }
    out ? (void)(out[g] = stored) : (void)0;
    if (flags) flags[g] = f;
  } else {
    auto tile = cg::tiled_partition<W>(cg::this_thread_block());
    switch (op) {
      case DEV_INSERT: f = m.insert(tile, k, v); break;
      case DEV_INSERT_AND_FIND: f = m.insert_and_find(tile, k, v, &stored); break;
      case DEV_INSERT_OR_ASSIGN: f = m.insert_or_assign(tile, k, v); break;
      case DEV_INSERT_OR_ADD: f = m.insert_or_apply(tile, k, v, GCOL_OP_ADD); break;
      case DEV_ERASE: f = m.erase(tile, k); break;
      case DEV_FIND: f = ro.find(tile, k, &stored); if (!f) stored = ro.empty_value(); break;
      case DEV_CONTAINS: f = ro.contains(tile, k); break;
    }
    /* every thread got the same answer: the last lane writes it */
    if (tile.thread_rank() == W - 1) {
      if (out) out[g] = stored;
      if (flags) flags[g] = f;
    }
  }
}

/* Bulk: tile g takes keys [g * range, (g + 1) * range). */
template <int W, class K, class V, int C = 0>
__global__ void bulk_kernel(gcol::map_mutable_view<K, V, C> m, dev_op_t op, const K *keys, const V *values,
                            size_t n, size_t range, V *out, bool *found, unsigned long long *count) {
  auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  const size_t g = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / W;
  const size_t first = g * range;
  if (first >= n) return;
  const size_t last = first + range < n ? first + range : n;
  const gcol::map_view<K, V, C> &ro = m;
  size_t c = 0;
  /* an empty range first: it must insert nothing (else the count is off by far) */
  if (op == DEV_INSERT && m.insert(tile, keys + first, keys + first, values + first) != 0) c += 1ULL << 40;
  if (op == DEV_INSERT_OR_ADD && m.insert_or_apply(tile, keys + first, keys + first, values + first, GCOL_OP_ADD) != 0)
    c += 1ULL << 40;
  switch (op) {
    case DEV_INSERT: c += m.insert(tile, keys + first, keys + last, values + first); break;
    case DEV_INSERT_OR_ADD: c += m.insert_or_apply(tile, keys + first, keys + last, values + first, GCOL_OP_ADD); break;
    case DEV_FIND: ro.find(tile, keys + first, keys + last, out + first); break;
    case DEV_CONTAINS: ro.contains(tile, keys + first, keys + last, found + first); break;
    case DEV_INSERT_EACH:
    case DEV_INSERT_OR_ADD_EACH:
    case DEV_FIND_EACH:
      for (size_t base = first; base < last; base += W) { /* every thread of the tile iterates equally */
        size_t i = base + tile.thread_rank();
        bool active = i < last;
        K k = active ? keys[i] : K();
        if (op == DEV_INSERT_EACH) {
          c += m.insert_each(tile, active, k, active ? values[i] : V());
        } else if (op == DEV_INSERT_OR_ADD_EACH) {
          c += m.insert_or_apply_each(tile, active, k, active ? values[i] : V(), GCOL_OP_ADD);
        } else {
          V v = ro.empty_value();
          ro.find_each(tile, active, k, &v);
          if (active) out[i] = v;
        }
      }
      break;
    default: break;
  }
  if (op == DEV_INSERT_EACH || op == DEV_INSERT_OR_ADD_EACH) c = gcol::detail::tile_sum(tile, c); /* each thread counted its own */
  if (tile.thread_rank() == 0 && c) atomicAdd(count, (unsigned long long)c);
}

/* bool outputs of the bulk contains, narrowed to the test's bytes. */
__global__ void bools_to_bytes(const bool *b, uint8_t *out, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    out[i] = b[i];
}

template <int W, class K, class V>
cudaError_t launch(const gcol_map_mutable_view_t *view, dev_op_t op, size_t range, const void *keys,
                   const void *values, size_t n, void *out, uint8_t *flags, unsigned long long *count) {
  gcol::map_mutable_view<K, V> m(*view);
  if (!m.compatible()) return cudaErrorInvalidValue;
  const int block = 128, tw = W ? W : 1;
  const K *k = static_cast<const K *>(keys);
  const V *v = static_cast<const V *>(values);
  const bool each = op == DEV_INSERT_EACH || op == DEV_INSERT_OR_ADD_EACH || op == DEV_FIND_EACH;
  if (range == 0 && each) return cudaErrorInvalidValue;
  if (range == 0) {
    size_t tiles = n;
    if (tiles) per_key_kernel<W, K, V><<<(unsigned)((tiles * tw + block - 1) / block), block>>>(m, op, k, v, n, static_cast<V *>(out), flags);
  } else if constexpr (W > 0) {
    if (op != DEV_INSERT && op != DEV_INSERT_OR_ADD && op != DEV_FIND && op != DEV_CONTAINS && !each)
      return cudaErrorInvalidValue;
    size_t tiles = (n + range - 1) / range;
    bool *found = NULL;
    if (op == DEV_CONTAINS) {
      cudaError_t e = cudaMalloc(&found, n ? n : 1);
      if (e != cudaSuccess) return e;
    }
    if (tiles) bulk_kernel<W, K, V><<<(unsigned)((tiles * W + block - 1) / block), block>>>(m, op, k, v, n, range, static_cast<V *>(out), found, count);
    if (found) {
      if (n) bools_to_bytes<<<256, 256>>>(found, flags, n);
      cudaError_t e = cudaDeviceSynchronize();
      cudaFree(found);
      if (e != cudaSuccess) return e;
    }
  } else {
    return cudaErrorInvalidValue;
  }
  cudaError_t e = cudaGetLastError();
  return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

template <class K, class V>
cudaError_t by_tile(int tile, const gcol_map_mutable_view_t *view, dev_op_t op, size_t range, const void *keys,
                    const void *values, size_t n, void *out, uint8_t *flags, unsigned long long *count) {
  switch (tile) {
    case 0: return launch<0, K, V>(view, op, range, keys, values, n, out, flags, count);
    case 1: return launch<1, K, V>(view, op, range, keys, values, n, out, flags, count);
    case 2: return launch<2, K, V>(view, op, range, keys, values, n, out, flags, count);
    case 4: return launch<4, K, V>(view, op, range, keys, values, n, out, flags, count);
    case 8: return launch<8, K, V>(view, op, range, keys, values, n, out, flags, count);
    case 16: return launch<16, K, V>(view, op, range, keys, values, n, out, flags, count);
    case 32: return launch<32, K, V>(view, op, range, keys, values, n, out, flags, count);
    default: return cudaErrorInvalidValue;
  }
}

/* Bulk insert or find by tiles of 4 through views typed with the map's
 * bucket width, picked on the host. */
template <class K, class V>
cudaError_t run_typed(const gcol_map_mutable_view_t *view, dev_op_t op, size_t range, const void *keys,
                      const void *values, size_t n, void *out, unsigned long long *count) {
  if ((op != DEV_INSERT && op != DEV_FIND) || range == 0) return cudaErrorInvalidValue;
  const int block = 128;
  const size_t tiles = (n + range - 1) / range;
  bool compatible = false;
  gcol::with_bucket_chunks(view->view, [&](auto t) {
    constexpr int C = decltype(t)::value;
    gcol::map_mutable_view<K, V, C> m(*view);
    compatible = m.compatible();
    if (compatible && tiles)
      bulk_kernel<4, K, V, C><<<(unsigned)((tiles * 4 + block - 1) / block), block>>>(
          m, op, static_cast<const K *>(keys), static_cast<const V *>(values), n, range, static_cast<V *>(out), NULL,
          count);
  });
  if (!compatible) return cudaErrorInvalidValue;
  cudaError_t e = cudaGetLastError();
  return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

/* Bits 0-3: compatible() of <int64_t, int64_t> views typed with 1, 2, 4, 8 chunks. */
template <int... C>
int typed_compatibility(const gcol_map_view_t *v) {
  int bits = 0, i = 0;
  ((bits |= (int)gcol::map_view<int64_t, int64_t, C>(*v).compatible() << i++), ...);
  return bits;
}

}  // namespace

extern "C" cudaError_t dev_map_run_typed(const gcol_map_mutable_view_t *view, int wide, dev_op_t op, size_t range,
                                         const void *d_keys, const void *d_values, size_t n, void *d_out,
                                         unsigned long long *d_count) {
  return wide ? run_typed<uint64_t, uint64_t>(view, op, range, d_keys, d_values, n, d_out, d_count)
              : run_typed<uint32_t, uint32_t>(view, op, range, d_keys, d_values, n, d_out, d_count);
}

extern "C" int dev_map_typed_compatibility(const gcol_map_view_t *v) { return typed_compatibility<1, 2, 4, 8>(v); }

extern "C" cudaError_t dev_map_run(const gcol_map_mutable_view_t *view, int wide, dev_op_t op, int tile, size_t range,
                                   const void *d_keys, const void *d_values, size_t n, void *d_out, uint8_t *d_flags,
                                   unsigned long long *d_count) {
  return wide ? by_tile<uint64_t, uint64_t>(tile, view, op, range, d_keys, d_values, n, d_out, d_flags, d_count)
              : by_tile<uint32_t, uint32_t>(tile, view, op, range, d_keys, d_values, n, d_out, d_flags, d_count);
}

extern "C" int dev_map_view_compatibility(const gcol_map_view_t *v) {
  return (int)gcol::map_view<int64_t, double>(*v).compatible() | (int)gcol::map_view<int64_t, int64_t>(*v).compatible() << 1;
}
