/* cuCollections measured as a peer in the same GPU run as gcol's benches
 * (issue 38). Our own harness: it includes cuco's public headers from a
 * snapshot outside the repository and copies none of its code.
 *
 * Build (not part of make test or make bench):
 *   git --git-dir=<cuCollections git dir> archive HEAD include | tar -x -C /work/cuco-snapshot
 *   make peer-cuco CUCO_INCLUDE=/work/cuco-snapshot/include
 * Run: build/bench/peer_cuco (or scripts/gpu floor with CUCO_INCLUDE set).
 * Checked with nvcc 13.0 (CCCL 3.0), sm_90, against cuCollections dc0f9fc
 * (2024-10-21). That snapshot predates CCCL 3.0: it names thrust::identity
 * (gone in CCCL 3) and its HyperLogLog finalizer is a constexpr function
 * calling cuda::std::round (not constexpr; g++ refuses it), so two shims
 * below stand in for them; -DPEER_CUCO_NO_SHIMS drops them for a cuco that
 * needs neither.
 *
 * 100M unique random keys (GCOL_BENCH_N; the keys bench_map and bench_set
 * use), median of REPS runs, G ops/s:
 *  - static_map<int64, int64>: insert, find (hits), find (misses), contains
 *    at load 0.5 and 0.8, for linear probing and double hashing, cooperative
 *    groups of 1 and 2 threads, buckets (windows) of 1 and 2 slots;
 *  - static_set<uint64> at load 0.5: insert, contains, erase, same sweep;
 *  - static_multiset<int64>: n keys over n/4 distinct (4 copies) at load
 *    0.5: insert, count of n probes (half hit), its default probing;
 *  - hyperloglog<uint64> add of GCOL_BENCH_HLL_N (1e9) distinct items at
 *    precisions 15..18 (sketch of 4 * 2^p bytes). */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <cuda/std/version>

#if !defined(PEER_CUCO_NO_SHIMS)
#include <thrust/functional.h>
#if defined(CCCL_MAJOR_VERSION) && CCCL_MAJOR_VERSION >= 3
namespace thrust { /* CCCL 3 removed thrust::identity; cuco of 2024 still names it */
template <class T = void>
struct identity {
  template <class U>
  __host__ __device__ constexpr U &&operator()(U &&x) const noexcept {
    return static_cast<U &&>(x);
  }
};
}  // namespace thrust
#endif
/* cuco's HLL finalizer: a constexpr round in its place (g++ refuses the
 * constexpr function that calls cuda::std::round); the finalizer's own
 * includes come first so that the macro touches only its text */
#include <cuco/detail/hyperloglog/tuning.cuh>
#include <cuda/functional>
#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <cstddef>
namespace cuda {
namespace std {
__host__ __device__ constexpr double peer_cuco_round(double x) noexcept {
  return x >= 0 ? static_cast<double>(static_cast<long long>(x + 0.5))
                : -static_cast<double>(static_cast<long long>(0.5 - x));
}
}  // namespace std
}  // namespace cuda
#define round peer_cuco_round
#include <cuco/detail/hyperloglog/finalizer.cuh>
#undef round
#endif

#include <cuco/hyperloglog.cuh>
#include <cuco/static_map.cuh>
#include <cuco/static_multiset.cuh>
#include <cuco/static_set.cuh>

#include "bench_common.h"

#ifndef PEER_CUCO_INCLUDE
#define PEER_CUCO_INCLUDE "?"
#endif

#define REPS 5

using i64 = int64_t;
using u64 = uint64_t;

static bench_gpu_t gpu;
static bench_timer_t timer;
static cudaStream_t stream;

/* Median ms of REPS runs of op, each after prep (untimed). */
template <class Prep, class Op>
static double median_ms(Prep prep, Op op) {
  double ms[REPS];
  for (int r = 0; r < REPS; ++r) {
    prep();
    BENCH_CUDA(cudaStreamSynchronize(stream));
    bench_timer_start(&timer, stream);
    op();
    ms[r] = bench_timer_stop_ms(&timer, stream);
  }
  BENCH_CUDA(cudaGetLastError());
  return bench_median(ms, REPS);
}

static void row(const char *container, const char *op, const char *probing, int cg, int bucket, double load,
                size_t n, double ms) {
  printf("| %-22s | %-13s | %-14s | %d | %d | %4.2f | %8.3f | %7.2f |\n", container, op, probing, cg, bucket, load, ms,
         (double)n / (ms * 1e-3) / 1e9);
  fflush(stdout);
}

__global__ void make_pairs(const i64 *keys, const i64 *vals, size_t n, cuco::pair<i64, i64> *out) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    out[i] = cuco::pair<i64, i64>{keys[i], vals[i]};
}

__device__ __forceinline__ u64 mix64(u64 x) {
  x ^= x >> 33, x *= 0xff51afd7ed558ccdULL, x ^= x >> 33, x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

/* multiset data: key i the index i for i < d, else a hashed one of the d;
 * probe i: odd, a stored key; even, one never stored (index d + i) */
__global__ void make_multiset(i64 *keys, i64 *probes, size_t n, size_t d) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    u64 j = i < d ? i : mix64(i ^ 0x243f6a8885a308d3ULL) % d;
    keys[i] = (i64)(mix64(7000 + j) >> 1);
    u64 q = (i & 1) ? mix64(i ^ 0x13198a2e03707344ULL) % d : d + i;
    probes[i] = (i64)(mix64(7000 + q) >> 1);
  }
}

/* distinct items for the HyperLogLog (a bijection of the index) */
__global__ void make_items(u64 *items, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    items[i] = mix64(i + 1);
}

struct data_t {
  size_t n;
  i64 *keys, *misses, *vals, *found;
  cuco::pair<i64, i64> *pairs;
  bool *flags;
};

template <int CG>
using linear = cuco::linear_probing<CG, cuco::default_hash_function<i64>>;
template <int CG>
using dhash = cuco::double_hashing<CG, cuco::default_hash_function<i64>>;
template <int CG>
using linear_u = cuco::linear_probing<CG, cuco::default_hash_function<u64>>;
template <int CG>
using dhash_u = cuco::double_hashing<CG, cuco::default_hash_function<u64>>;

template <class Probe, int CG, int B>
static void map_variant(const data_t &d, const char *probing) {
  using map_t = cuco::static_map<i64, i64, cuco::extent<size_t>, cuda::thread_scope_device, thrust::equal_to<i64>,
                                 Probe, cuco::cuda_allocator<cuco::pair<i64, i64>>, cuco::storage<B>>;
  const double loads[2] = {0.5, 0.8};
  for (double want : loads) {
    map_t m{cuco::extent<size_t>{(size_t)((double)d.n / want)}, cuco::empty_key<i64>{-1}, cuco::empty_value<i64>{-1},
            {}, {}, {}, {}, {}, cuda::stream_ref{stream}};
    const double load = (double)d.n / (double)m.capacity();
    const size_t n = d.n;
    auto clear = [&] { m.clear_async(cuda::stream_ref{stream}); };
    auto none = [] {};
    double ms = median_ms(clear, [&] { m.insert_async(d.pairs, d.pairs + n, cuda::stream_ref{stream}); });
    row("static_map i64/i64", "insert", probing, CG, B, load, n, ms);
    ms = median_ms(none, [&] { m.find_async(d.keys, d.keys + n, d.found, cuda::stream_ref{stream}); });
    row("static_map i64/i64", "find (hits)", probing, CG, B, load, n, ms);
    ms = median_ms(none, [&] { m.find_async(d.misses, d.misses + n, d.found, cuda::stream_ref{stream}); });
    row("static_map i64/i64", "find (misses)", probing, CG, B, load, n, ms);
    ms = median_ms(none, [&] { m.contains_async(d.keys, d.keys + n, d.flags, cuda::stream_ref{stream}); });
    row("static_map i64/i64", "contains", probing, CG, B, load, n, ms);
    ms = median_ms(none, [&] { m.contains_async(d.misses, d.misses + n, d.flags, cuda::stream_ref{stream}); });
    row("static_map i64/i64", "contains (miss)", probing, CG, B, load, n, ms);
  }
}

template <class Probe, int CG, int B>
static void set_variant(const data_t &d, const char *probing) {
  using set_t = cuco::static_set<u64, cuco::extent<size_t>, cuda::thread_scope_device, thrust::equal_to<u64>, Probe,
                                 cuco::cuda_allocator<u64>, cuco::storage<B>>;
  set_t s{cuco::extent<size_t>{2 * d.n}, cuco::empty_key<u64>{~0ULL}, cuco::erased_key<u64>{~0ULL - 1},
          {}, {}, {}, {}, {}, cuda::stream_ref{stream}};
  const double load = (double)d.n / (double)s.capacity();
  const size_t n = d.n;
  const u64 *keys = reinterpret_cast<const u64 *>(d.keys), *misses = reinterpret_cast<const u64 *>(d.misses);
  auto clear = [&] { s.clear_async(cuda::stream_ref{stream}); };
  auto none = [] {};
  auto refill = [&] { s.insert_async(keys, keys + n, cuda::stream_ref{stream}); };
  double ms = median_ms(clear, [&] { s.insert_async(keys, keys + n, cuda::stream_ref{stream}); });
  row("static_set u64", "insert", probing, CG, B, load, n, ms);
  ms = median_ms(none, [&] { s.contains_async(keys, keys + n, d.flags, cuda::stream_ref{stream}); });
  row("static_set u64", "contains", probing, CG, B, load, n, ms);
  ms = median_ms(none, [&] { s.contains_async(misses, misses + n, d.flags, cuda::stream_ref{stream}); });
  row("static_set u64", "contains (miss)", probing, CG, B, load, n, ms);
  ms = median_ms(refill, [&] { s.erase_async(keys, keys + n, cuda::stream_ref{stream}); });
  row("static_set u64", "erase", probing, CG, B, load, n, ms);
}

static void bench_multiset(size_t n) {
  size_t d = n / 4 ? n / 4 : 1;
  i64 *keys = NULL, *probes = NULL;
  BENCH_CUDA(cudaMalloc((void **)&keys, n * 8));
  BENCH_CUDA(cudaMalloc((void **)&probes, n * 8));
  make_multiset<<<1024, 256, 0, stream>>>(keys, probes, n, d);
  BENCH_CUDA(cudaGetLastError());
  {
    cuco::static_multiset<i64> m{cuco::extent<size_t>{2 * n}, cuco::empty_key<i64>{-1}, {}, {}, {}, {}, {},
                                 cuda::stream_ref{stream}};
    const double load = (double)n / (double)m.capacity();
    size_t total = 0;
    double ms = median_ms([&] { m.clear_async(cuda::stream_ref{stream}); },
                          [&] { m.insert_async(keys, keys + n, cuda::stream_ref{stream}); });
    row("static_multiset i64", "insert x4", "double hashing", 4, 2, load, n, ms); /* its defaults */
    ms = median_ms([] {}, [&] { total = m.count(probes, probes + n, cuda::stream_ref{stream}); });
    row("static_multiset i64", "count", "double hashing", 4, 2, load, n, ms);
    printf("| static_multiset i64 | count gave %zu matches for %zu probes | | | | | | |\n", total, n);
  }
  BENCH_CUDA(cudaFree(keys));
  BENCH_CUDA(cudaFree(probes));
}

static void bench_hll(size_t n) {
  u64 *items = NULL;
  BENCH_CUDA(cudaMalloc((void **)&items, n * 8));
  make_items<<<4096, 256, 0, stream>>>(items, n);
  BENCH_CUDA(cudaGetLastError());
  printf("\ncuCollections hyperloglog<u64>, %zu distinct items, median of %d runs\n", n, REPS);
  printf("| precision | sketch | ms | G items/s | estimate error |\n|---|---|---|---|---|\n");
  for (int p = 15; p <= 18; ++p) {
    const double kb = 4.0 * (double)(1u << p) / 1024.0; /* int registers */
    cuco::hyperloglog<u64> h{cuco::sketch_size_kb{kb}, {}, {}, cuda::stream_ref{stream}};
    double ms = median_ms([&] { h.clear_async(cuda::stream_ref{stream}); },
                          [&] { h.add_async(items, items + n, cuda::stream_ref{stream}); });
    size_t est = h.estimate(cuda::stream_ref{stream});
    printf("| %d | %.0f KB | %.3f | %.1f | %+.3f%% |\n", p, kb, ms, (double)n / (ms * 1e-3) / 1e9,
           100.0 * ((double)est - (double)n) / (double)n);
    fflush(stdout);
  }
  BENCH_CUDA(cudaFree(items));
}

int main() {
  if (bench_init(&gpu)) return 0;
  bench_timer_init(&timer);
  BENCH_CUDA(cudaStreamCreate(&stream));
  const size_t n = bench_size("GCOL_BENCH_N", 100000000);
  data_t d;
  d.n = n;
  d.keys = (i64 *)bench_unique_keys(n, 8, 1000); /* bench_map's and bench_set's keys */
  d.misses = (i64 *)bench_unique_keys(n, 8, 1000 + 2 * n);
  d.vals = (i64 *)bench_unique_keys(n, 8, 77);
  BENCH_CUDA(cudaMalloc((void **)&d.found, n * 8));
  BENCH_CUDA(cudaMalloc((void **)&d.flags, n));
  BENCH_CUDA(cudaMalloc((void **)&d.pairs, n * sizeof(cuco::pair<i64, i64>)));
  make_pairs<<<1024, 256, 0, stream>>>(d.keys, d.vals, n, d.pairs);
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaStreamSynchronize(stream));

  printf("\ncuCollections peer, %zu unique random keys, median of %d runs (cuco headers: %s; G ops/s; cg: threads "
         "per key, bucket: slots per window)\n", n, REPS, PEER_CUCO_INCLUDE);
  printf("| container | operation | probing | cg | bucket | load | ms | G ops/s |\n|---|---|---|---|---|---|---|---|\n");
  map_variant<linear<1>, 1, 1>(d, "linear");
  map_variant<linear<1>, 1, 2>(d, "linear");
  map_variant<linear<2>, 2, 1>(d, "linear");
  map_variant<linear<2>, 2, 2>(d, "linear");
  map_variant<dhash<1>, 1, 1>(d, "double hashing");
  map_variant<dhash<1>, 1, 2>(d, "double hashing");
  map_variant<dhash<2>, 2, 1>(d, "double hashing");
  map_variant<dhash<2>, 2, 2>(d, "double hashing");
  BENCH_CUDA(cudaFree(d.pairs));
  BENCH_CUDA(cudaFree(d.vals));
  set_variant<linear_u<1>, 1, 1>(d, "linear");
  set_variant<linear_u<1>, 1, 2>(d, "linear");
  set_variant<linear_u<2>, 2, 1>(d, "linear");
  set_variant<linear_u<2>, 2, 2>(d, "linear");
  set_variant<dhash_u<1>, 1, 1>(d, "double hashing");
  set_variant<dhash_u<1>, 1, 2>(d, "double hashing");
  set_variant<dhash_u<2>, 2, 1>(d, "double hashing");
  set_variant<dhash_u<2>, 2, 2>(d, "double hashing");
  BENCH_CUDA(cudaFree(d.keys));
  BENCH_CUDA(cudaFree(d.misses));
  BENCH_CUDA(cudaFree(d.found));
  BENCH_CUDA(cudaFree(d.flags));
  bench_multiset(n);
  bench_hll(bench_size("GCOL_BENCH_HLL_N", 1000000000));
  return 0;
}
