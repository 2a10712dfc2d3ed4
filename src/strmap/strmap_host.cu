/* Host side of the string dictionary once a public call has checked its
 * arguments (strmap.cu): tables and entries, growth, the insert pipeline
 * (probe, number the new strings, commit, finish), lookups, retrieval.
 *
 * Growth follows the map's rule (src/map/map_grow.cu, gcol_map_growth_target):
 * before an insert-type call of n rows, stored + n must fit under
 * max_load_factor * slots, else one rebuild into at least growth_factor
 * times the slots. The host knows the stored count exactly (every call reads
 * its totals back), so the check itself never synchronizes. Entries are
 * allocated for max_load_factor * slots, so they never overflow between
 * growths; the arena grows by doubling to the exact bytes a call adds,
 * after its probe pass. Every allocation of a growth comes before anything
 * changes: on OUT_OF_MEMORY the strmap is as it was. */
#include <cub/device/device_scan.cuh>
#include <string.h>
#include "core/api_scope.h"
#include "core/device_alloc.h"
#include "core/grid_fill.cuh"
#include "core/test_hooks.h"
#include "map/map_internal.h"
#include "strmap_kernels.cuh"
#include "strmap_object.h"

namespace gcol {
namespace detail {
namespace {

constexpr int kBlock = 256;

gcol_status_t alloc(const gcol_strmap *m, void **p, size_t bytes, cudaStream_t s) {
  return gcol_device_alloc(&m->cfg.allocator, p, bytes, s);
}
void release(const gcol_strmap *m, void *p, size_t bytes, cudaStream_t s) {
  (void)gcol_device_free(&m->cfg.allocator, p, bytes, s); /* nothing to report to: a failed free leaks */
}

template <class K>
unsigned grid(const gcol_strmap *m, K k, size_t threads) {
  return grid_fill(k, kBlock, m->num_sms, threads);
}

/* Entries a table of num_slots slots may hold. */
size_t entry_cap(const gcol_strmap *m, size_t num_slots) {
  size_t c = m->cfg.growable ? gcol_map_load_limit(num_slots, m->cfg.max_load_factor) : num_slots;
  return c < GCOL_STRMAP_MAX_ROWS ? c : GCOL_STRMAP_MAX_ROWS;
}

uint32_t buckets_for(size_t capacity) {
  size_t want = (capacity + GCOL_STRMAP_BUCKET - 1) / GCOL_STRMAP_BUCKET;
  if (want < 2) want = 2;
  return want < 0x7fffffffULL ? gcol_next_prime((uint32_t)want) : 0;
}

gcol_status_t entries_alloc(const gcol_strmap *m, size_t cap, str_entries *e, cudaStream_t s) {
  str_entries x = {};
  x.cap = cap;
  x.bytes = cap * 28 + 64;
  GCOL_TRY(alloc(m, &x.block, x.bytes, s));
  char *b = static_cast<char *>(x.block);
  x.off = reinterpret_cast<unsigned long long *>(b);
  x.hash = x.off + cap;
  x.val = x.hash + cap;
  x.len = reinterpret_cast<unsigned *>(x.val + cap);
  *e = x;
  return GCOL_SUCCESS;
}

/* Copy the first count entries of a into b. */
cudaError_t entries_copy(const str_entries &a, const str_entries &b, size_t count, cudaStream_t s) {
  if (count == 0) return cudaSuccess;
  cudaError_t e = cudaMemcpyAsync(b.off, a.off, count * 8, cudaMemcpyDeviceToDevice, s);
  if (e == cudaSuccess) e = cudaMemcpyAsync(b.hash, a.hash, count * 8, cudaMemcpyDeviceToDevice, s);
  if (e == cudaSuccess) e = cudaMemcpyAsync(b.val, a.val, count * 8, cudaMemcpyDeviceToDevice, s);
  if (e == cudaSuccess) e = cudaMemcpyAsync(b.len, a.len, count * 4, cudaMemcpyDeviceToDevice, s);
  return e;
}

str::table table_of(const gcol_strmap *m) {
  str::table t;
  t.slots = m->slots;
  t.nb = m->num_buckets;
  t.seed = m->cfg.seed;
#ifdef GCOL_TESTING
  t.mask = GCOL_HOOKS.strmap_masked == m ? GCOL_HOOKS.strmap_hash_mask : ~0ULL;
#endif
  t.ent_off = m->ent.off;
  t.ent_hash = m->ent.hash;
  t.ent_val = m->ent.val;
  t.ent_len = m->ent.len;
  t.arena = m->arena;
  t.arena_bytes = m->arena_cap;
  return t;
}

/* A table of nb buckets with entries for it, the stored ones moved in.
 * Allocations first: on failure nothing changed. */
gcol_status_t rebuild(gcol_strmap *m, uint32_t nb, cudaStream_t s) {
  nvtx_range r("gcol_strmap_grow");
  size_t num_slots = (size_t)nb * GCOL_STRMAP_BUCKET, slot_bytes = num_slots * 8;
  void *slots = NULL;
  GCOL_TRY(alloc(m, &slots, slot_bytes, s));
  str_entries ne;
  gcol_status_t st = entries_alloc(m, entry_cap(m, num_slots), &ne, s);
  if (st != GCOL_SUCCESS) {
    release(m, slots, slot_bytes, s);
    return st;
  }
  cudaError_t e = cudaMemsetAsync(slots, 0xff, slot_bytes, s);
  if (e == cudaSuccess) e = entries_copy(m->ent, ne, m->count, s);
  if (e == cudaSuccess && m->count) {
    auto k = str::rehash_kernel;
    k<<<grid(m, k, m->count), kBlock, 0, s>>>((unsigned long long *)slots, nb, ne.hash, m->count);
    e = cudaGetLastError();
  }
  if (e != cudaSuccess) {
    release(m, slots, slot_bytes, s);
    release(m, ne.block, ne.bytes, s);
    return gcol_from_cuda(e);
  }
  release(m, m->slots, m->num_slots * 8, s);
  release(m, m->ent.block, m->ent.bytes, s);
  m->slots = (unsigned long long *)slots;
  m->num_buckets = nb;
  m->num_slots = num_slots;
  m->ent = ne;
  return GCOL_SUCCESS;
}

/* Room for n more strings (growable strmaps; fixed ones skip what does not fit). */
gcol_status_t make_room(gcol_strmap *m, size_t n, cudaStream_t s) {
  if (m->count + n > GCOL_STRMAP_MAX_ROWS)
    return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "%zu stored strings and %zu rows pass the limit of %zu strings",
                     m->count, n, (size_t)GCOL_STRMAP_MAX_ROWS);
  if (!m->cfg.growable) return GCOL_SUCCESS;
  size_t target = gcol_map_growth_target(m->num_slots, m->cfg.max_load_factor, m->cfg.growth_factor, m->count,
                                         m->count, n);
  if (target == 0) return GCOL_SUCCESS;
  uint32_t nb = target == SIZE_MAX ? 0 : buckets_for(target);
  if (nb == 0) return gcol_fail(GCOL_ERROR_OUT_OF_MEMORY, "no table size holds %zu more strings", n);
  return rebuild(m, nb, s);
}

/* Arena room for `more` bytes (doubling); the stored bytes are copied over. */
gcol_status_t arena_room(gcol_strmap *m, size_t more, cudaStream_t s) {
  size_t need = m->arena_used + more;
  if (need <= m->arena_cap) return GCOL_SUCCESS;
  size_t cap = m->arena_cap * 2 > need ? m->arena_cap * 2 : need;
  if (cap < 4096) cap = 4096;
  void *a = NULL;
  GCOL_TRY(alloc(m, &a, cap, s));
  cudaError_t e = m->arena_used ? cudaMemcpyAsync(a, m->arena, m->arena_used, cudaMemcpyDeviceToDevice, s) : cudaSuccess;
  if (e != cudaSuccess) {
    release(m, a, cap, s);
    return gcol_from_cuda(e);
  }
  release(m, m->arena, m->arena_cap, s);
  m->arena = (unsigned char *)a;
  m->arena_cap = cap;
  return GCOL_SUCCESS;
}

/* The message of a refused column (head.bad = row << 3 | kind). */
gcol_status_t bad_rows(unsigned long long bad, const gcol_strings_t &k) {
  unsigned long long row = bad >> 3;
  switch ((unsigned)(bad & 7)) {
    case str::BAD_NEGATIVE:
      return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "d_offsets[%llu] is negative (row %llu)", row, row);
    case str::BAD_DECREASING:
      return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT,
                       "d_offsets[%llu] > d_offsets[%llu]: offsets must be non-decreasing (row %llu)", row, row + 1,
                       row);
    case str::BAD_BEYOND:
      return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "d_offsets[%llu] is past chars_bytes %zu (row %llu)", row + 1,
                       k.chars_bytes, row);
    default:
      return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "row %llu is longer than GCOL_STRMAP_MAX_KEY_BYTES (%zu bytes)",
                       row, (size_t)GCOL_STRMAP_MAX_KEY_BYTES);
  }
}

template <class F>
cudaError_t with_offsets(const gcol_strings_t &k, F f) {
  if (k.offset_type == GCOL_I32) {
    str::rows_in<int32_t> in = {(const int32_t *)k.d_offsets, (const uint8_t *)k.d_chars, k.chars_bytes, k.n};
    return f(in);
  }
  str::rows_in<int64_t> in = {(const int64_t *)k.d_offsets, (const uint8_t *)k.d_chars, k.chars_bytes, k.n};
  return f(in);
}

/* f(T) with the value type's C type. */
template <class F>
cudaError_t with_value(gcol_type_t t, F f) {
  switch (t) {
    case GCOL_U32: return f(uint32_t());
    case GCOL_I32: return f(int32_t());
    case GCOL_U64: return f((unsigned long long)0);
    case GCOL_I64: return f((long long)0);
    case GCOL_F32: return f(0.0f);
    default: return f(0.0);
  }
}

gcol_status_t read_head(const str::call_head *d, str::call_head *h, cudaStream_t s) {
  GCOL_CUDA_TRY(cudaMemcpyAsync(h, d, sizeof *h, cudaMemcpyDeviceToHost, s));
  GCOL_CUDA_TRY(cudaStreamSynchronize(s));
  return GCOL_SUCCESS;
}

/* One allocation for an insert call's temporaries. */
struct tmp_block {
  void *p = NULL;
  size_t bytes = 0;
};

size_t align_up(size_t x) { return (x + 255) & ~(size_t)255; }

}  // namespace

gcol_status_t str_init(gcol_strmap *m, cudaStream_t s) {
  uint32_t nb = buckets_for(m->cfg.capacity);
  if (nb == 0) return gcol_fail(GCOL_ERROR_INVALID_ARGUMENT, "capacity %zu needs more than 2^31 buckets", m->cfg.capacity);
  size_t num_slots = (size_t)nb * GCOL_STRMAP_BUCKET;
  void *slots = NULL;
  GCOL_TRY(alloc(m, &slots, num_slots * 8, s));
  m->slots = (unsigned long long *)slots;
  m->num_buckets = nb;
  m->num_slots = num_slots;
  GCOL_TRY(entries_alloc(m, entry_cap(m, num_slots), &m->ent, s));
  return gcol_from_cuda(cudaMemsetAsync(m->slots, 0xff, num_slots * 8, s));
}

void str_release(gcol_strmap *m) {
  m->magic = 0;
#ifdef GCOL_TESTING
  if (gcol_test_hooks.strmap_masked == m) gcol_test_hooks.strmap_masked = NULL; /* not a later strmap there */
#endif
  release(m, m->slots, m->num_slots * 8, m->last);
  release(m, m->ent.block, m->ent.bytes, m->last);
  release(m, m->arena, m->arena_cap, m->last);
}

gcol_status_t str_upsert(gcol_strmap *m, const gcol_strings_t &k, const void *values, str_upsert_mode mode, int op,
                         void *values_out, uint8_t *inserted_out, size_t *d_count, cudaStream_t s) {
  m->last = s;
  const size_t n = k.n;
  if (n == 0) {
    if (d_count) GCOL_CUDA_TRY(cudaMemsetAsync(d_count, 0, sizeof *d_count, s));
    return GCOL_SUCCESS;
  }
  GCOL_TRY(make_room(m, n, s));
  /* temporaries: head | pairs | scan | hrow | slotpos | rep | first | owner | cub */
  size_t cub_bytes = 0;
  GCOL_CUDA_TRY(cub::DeviceScan::ExclusiveScan(NULL, cub_bytes, (ulonglong2 *)NULL, (ulonglong2 *)NULL, str::pair_add(),
                                               make_ulonglong2(0, 0), (int)n, s));
  size_t o_pairs = 256, o_scan = o_pairs + align_up(16 * n), o_hrow = o_scan + align_up(16 * n),
         o_slot = o_hrow + align_up(8 * n), o_rep = o_slot + align_up(8 * n), o_first = o_rep + align_up(4 * n),
         o_owner = o_first + align_up(4 * n), o_cub = o_owner + align_up(4 * n), total = o_cub + align_up(cub_bytes);
  void *tp = NULL;
  GCOL_TRY(alloc(m, &tp, total, s));
  char *b = static_cast<char *>(tp);
  str::call_tmp c;
  c.head = reinterpret_cast<str::call_head *>(b);
  c.pairs = reinterpret_cast<ulonglong2 *>(b + o_pairs);
  c.scan = reinterpret_cast<ulonglong2 *>(b + o_scan);
  c.hrow = reinterpret_cast<unsigned long long *>(b + o_hrow);
  c.slotpos = reinterpret_cast<unsigned long long *>(b + o_slot);
  c.rep = reinterpret_cast<uint32_t *>(b + o_rep);
  c.first = reinterpret_cast<uint32_t *>(b + o_first);
  c.owner = reinterpret_cast<uint32_t *>(b + o_owner);
  str::table t = table_of(m);
  str::call_head h = {};
  bool claimed = false; /* slots hold this call's rows: release them on failure */
  gcol_status_t st = GCOL_SUCCESS;
  cudaError_t e = cudaMemsetAsync(c.head, 0, sizeof *c.head, s);
  if (e == cudaSuccess) e = cudaMemsetAsync(&c.head->bad, 0xff, sizeof c.head->bad, s);
  if (e == cudaSuccess) e = cudaMemsetAsync(c.pairs, 0, 16 * n, s);
  if (e == cudaSuccess) e = cudaMemsetAsync(c.owner, 0, 4 * n, s);
  if (e == cudaSuccess) {
    claimed = true;
    e = with_offsets(k, [&](auto in) {
      typedef typename std::remove_pointer<decltype(in.off)>::type OffT;
      auto probe = str::rows_kernel<str::ROWS_INSERT, typename std::remove_const<OffT>::type>;
      probe<<<grid(m, probe, n), kBlock, 0, s>>>(t, in, c, NULL, m->vb, m->cfg.empty_value);
      auto mark = str::mark_kernel<typename std::remove_const<OffT>::type>;
      mark<<<grid(m, mark, n), kBlock, 0, s>>>(in, c);
      return cudaGetLastError();
    });
  }
  if (e == cudaSuccess)
    e = cub::DeviceScan::ExclusiveScan(b + o_cub, cub_bytes, c.pairs, c.scan, str::pair_add(), make_ulonglong2(0, 0),
                                       (int)n, s);
  if (e == cudaSuccess) {
    str::totals_kernel<<<1, 1, 0, s>>>(c, n);
    e = cudaGetLastError();
  }
  if (e != cudaSuccess) st = gcol_from_cuda(e);
  if (st == GCOL_SUCCESS) st = read_head(c.head, &h, s);
  if (st == GCOL_SUCCESS && h.bad != ~0ULL) st = bad_rows(h.bad, k);
  if (st == GCOL_SUCCESS) st = arena_room(m, (size_t)h.new_bytes, s);
  if (st == GCOL_SUCCESS) {
    t = table_of(m); /* the arena may have moved */
    str::commit_args a = {m->ent.off, m->ent.hash, m->ent.val, m->ent.len, m->arena, m->count, m->arena_used,
                          mode == STR_IDS ? NULL : values, m->vb};
    e = with_offsets(k, [&](auto in) {
      typedef typename std::remove_const<typename std::remove_pointer<decltype(in.off)>::type>::type OffT;
      auto commit = str::commit_kernel<OffT>;
      commit<<<grid(m, commit, n), kBlock, 0, s>>>(t, in, c, a);
      return cudaGetLastError();
    });
    claimed = false; /* the slots now hold entries */
    if (e == cudaSuccess && (values_out || inserted_out || mode == STR_APPLY)) {
      e = with_value(m->cfg.value_type, [&](auto zero) {
        typedef decltype(zero) T;
        if (mode == STR_APPLY) {
          auto fin = str::finish_kernel<T>;
          fin<<<grid(m, fin, n), kBlock, 0, s>>>(t, c, n, values_out, inserted_out, (const T *)values, op,
                                                 m->cfg.empty_value);
        } else {
          typedef typename std::conditional<sizeof(T) == 4, uint32_t, unsigned long long>::type W;
          auto fin = str::finish_kernel<W>;
          fin<<<grid(m, fin, n), kBlock, 0, s>>>(t, c, n, values_out, inserted_out, NULL, op, m->cfg.empty_value);
        }
        return cudaGetLastError();
      });
    }
    if (e == cudaSuccess && d_count) {
      str::store_count_kernel<<<1, 1, 0, s>>>((unsigned long long *)d_count, h.new_count);
      e = cudaGetLastError();
    }
    m->count += (size_t)h.new_count;
    m->arena_used += (size_t)h.new_bytes;
    if (h.full_rows) m->latched_full = 1;
    if (e != cudaSuccess) st = gcol_from_cuda(e);
  }
  if (claimed) {
    auto rb = str::rollback_kernel;
    rb<<<grid(m, rb, n), kBlock, 0, s>>>(t, c, n);
  }
  release(m, tp, total, s);
  return st;
}

gcol_status_t str_lookup(const gcol_strmap *m, const gcol_strings_t &k, void *out, bool contains, cudaStream_t s) {
  if (k.n == 0) return GCOL_SUCCESS;
  void *hp = NULL;
  GCOL_TRY(alloc(m, &hp, sizeof(str::call_head), s));
  str::call_tmp c = {};
  c.head = static_cast<str::call_head *>(hp);
  str::table t = table_of(m);
  cudaError_t e = cudaMemsetAsync(c.head, 0xff, sizeof *c.head, s);
  if (e == cudaSuccess)
    e = with_offsets(k, [&](auto in) {
      typedef typename std::remove_const<typename std::remove_pointer<decltype(in.off)>::type>::type OffT;
      auto kf = contains ? str::rows_kernel<str::ROWS_CONTAINS, OffT> : str::rows_kernel<str::ROWS_FIND, OffT>;
      kf<<<grid(m, kf, k.n), kBlock, 0, s>>>(t, in, c, out, m->vb, m->cfg.empty_value);
      return cudaGetLastError();
    });
  str::call_head h = {};
  gcol_status_t st = e == cudaSuccess ? read_head(c.head, &h, s) : gcol_from_cuda(e);
  release(m, hp, sizeof(str::call_head), s);
  if (st == GCOL_SUCCESS && h.bad != ~0ULL) st = bad_rows(h.bad, k);
  return st;
}

gcol_status_t str_retrieve(gcol_strmap *m, void *offsets_out, gcol_type_t offset_type, void *chars_out,
                           void *values_out, cudaStream_t s) {
  m->last = s;
  if (m->arena_used) GCOL_CUDA_TRY(cudaMemcpyAsync(chars_out, m->arena, m->arena_used, cudaMemcpyDeviceToDevice, s));
  auto launch = [&](auto *off) {
    typedef typename std::remove_pointer<decltype(off)>::type OffT;
    auto k = str::retrieve_kernel<OffT>;
    k<<<grid(m, k, m->count + 1), kBlock, 0, s>>>(m->ent.off, m->ent.val, m->count, m->arena_used, off, values_out,
                                                  m->vb);
    return cudaGetLastError();
  };
  GCOL_CUDA_TRY(offset_type == GCOL_I32 ? launch((int32_t *)offsets_out) : launch((int64_t *)offsets_out));
  return str_take_latched(m, s);
}

gcol_status_t str_clear(gcol_strmap *m, cudaStream_t s) {
  m->last = s;
  m->count = 0;
  m->arena_used = 0;
  m->latched_full = 0;
  return gcol_from_cuda(cudaMemsetAsync(m->slots, 0xff, m->num_slots * 8, s));
}

gcol_status_t str_take_latched(gcol_strmap *m, cudaStream_t s) {
  m->last = s;
  GCOL_CUDA_TRY(cudaStreamSynchronize(s));
  if (!m->latched_full) return GCOL_SUCCESS;
  m->latched_full = 0;
  return gcol_fail(GCOL_ERROR_FULL, "an earlier insert found no free slot for some strings (latched; they were skipped)");
}

}  // namespace detail
}  // namespace gcol
