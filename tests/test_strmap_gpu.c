/* GPU tests of the string dictionary: randomized differential tests against
 * a CPU model (dense first-seen ids, user values, group-by, shared
 * prefixes, forced equal hashes, lengths 0..70,000, duplicates in a batch,
 * growth, fixed maps), and bad input (every probe refused with a message,
 * nothing stored lost, a good call after it works). */
#include <string.h>
#include "harness.h"
#include "test_util.h"
#include "strmap/strmap_internal.h"

/* ---- the CPU model: strings in first-seen order with their values (copies) ---- */
typedef struct {
  size_t count, cap, table_cap;
  const unsigned char **str;
  uint32_t *len;
  uint64_t *val;
  int64_t *table; /* entry or -1, open addressing on fnv */
} model_t;

static uint64_t fnv(const unsigned char *s, uint32_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (uint32_t i = 0; i < n; ++i) h = (h ^ s[i]) * 1099511628211ULL;
  return h;
}

static void model_init(model_t *m, size_t cap) {
  memset(m, 0, sizeof *m);
  m->cap = cap;
  m->table_cap = 4 * cap + 16;
  m->str = (const unsigned char **)calloc(cap, sizeof *m->str);
  m->len = (uint32_t *)calloc(cap, sizeof *m->len);
  m->val = (uint64_t *)calloc(cap, sizeof *m->val);
  m->table = (int64_t *)malloc(m->table_cap * sizeof *m->table);
  for (size_t i = 0; i < m->table_cap; ++i) m->table[i] = -1;
}
static void model_free(model_t *m) {
  for (size_t e = 0; e < m->count; ++e) free((void *)m->str[e]);
  free(m->str);
  free(m->len);
  free(m->val);
  free(m->table);
}
/* entry of s, or -1; *slot: where it goes */
static int64_t model_find(const model_t *m, const unsigned char *s, uint32_t n, size_t *slot) {
  size_t i = fnv(s, n) % m->table_cap;
  for (;; i = (i + 1) % m->table_cap) {
    int64_t e = m->table[i];
    if (e < 0 || (m->len[e] == n && (n == 0 || memcmp(m->str[e], s, n) == 0))) {
      if (slot) *slot = i;
      return e;
    }
  }
}
static int64_t model_add(model_t *m, const unsigned char *s, uint32_t n, uint64_t v, int *added) {
  size_t slot;
  int64_t e = model_find(m, s, n, &slot);
  *added = e < 0;
  if (e >= 0) return e;
  e = (int64_t)m->count++;
  unsigned char *copy = (unsigned char *)malloc(n + 1); /* the model owns its strings: columns are freed */
  if (n) memcpy(copy, s, n);
  m->str[e] = copy;
  m->len[e] = n;
  m->val[e] = v;
  m->table[slot] = e;
  return e;
}

/* ---- columns ---- */
typedef struct {
  size_t n, bytes;
  unsigned char *chars;
  int64_t *off; /* host, n + 1 */
  void *d_off, *d_chars;
  gcol_type_t ot;
} column_t;

/* A pool of distinct strings sharing prefixes: string k is a prefix family
 * member (k / 8 picks the family, whose stem is long for some), with a tail
 * that makes it unique. Lengths 0.. max_len. */
typedef struct {
  size_t n;
  unsigned char **s;
  uint32_t *len;
} pool_t;

static void pool_make(pool_t *p, size_t n, uint32_t max_len, tu_rng_t *r) {
  p->n = n;
  p->s = (unsigned char **)calloc(n, sizeof *p->s);
  p->len = (uint32_t *)calloc(n, sizeof *p->len);
  for (size_t k = 0; k < n; ++k) {
    uint64_t x = tu_next(r);
    uint32_t len;
    if (k == 0) len = 0; /* the empty string */
    else if (x % 97 == 0 && max_len > 300) len = 300 + (uint32_t)(tu_next(r) % (max_len - 300)); /* long */
    else len = 8 + (uint32_t)(x % 24);
    if (len < 8 && k) len = 8;
    unsigned char *s = (unsigned char *)malloc(len + 1);
    /* the family stem: same bytes for every k of the family */
    uint64_t fam = k / 8;
    for (uint32_t i = 0; i < len; ++i) s[i] = (unsigned char)('a' + (tu_mix64(fam * 131 + i / 8) >> (8 * (i % 8))) % 26);
    /* unique tail: the index in the last 8 bytes */
    if (k)
      for (int i = 0; i < 8; ++i) s[len - 8 + i] = (unsigned char)((k >> (8 * i)) & 0xff);
    p->s[k] = s;
    p->len[k] = len;
  }
}
static void pool_free(pool_t *p) {
  for (size_t k = 0; k < p->n; ++k) free(p->s[k]);
  free(p->s);
  free(p->len);
}

/* n rows drawn from pool[lo, hi) (duplicates in the batch), on the device. */
static int column_make(column_t *c, const pool_t *p, size_t lo, size_t hi, size_t n, gcol_type_t ot, tu_rng_t *r) {
  memset(c, 0, sizeof *c);
  c->n = n;
  c->ot = ot;
  c->off = (int64_t *)malloc((n + 1) * sizeof *c->off);
  size_t *pick = (size_t *)malloc((n ? n : 1) * sizeof *pick);
  size_t bytes = 3; /* a sliced array: offsets start past 0 */
  for (size_t i = 0; i < n; ++i) {
    pick[i] = lo + tu_next(r) % (hi - lo);
    bytes += p->len[pick[i]];
  }
  c->bytes = bytes + 5;
  c->chars = (unsigned char *)malloc(c->bytes);
  memset(c->chars, 'z', c->bytes);
  c->off[0] = 3;
  for (size_t i = 0; i < n; ++i) {
    memcpy(c->chars + c->off[i], p->s[pick[i]], p->len[pick[i]]);
    c->off[i + 1] = c->off[i] + p->len[pick[i]];
  }
  free(pick);
  if (ot == GCOL_I32) {
    int32_t *o32 = (int32_t *)malloc((n + 1) * 4);
    for (size_t i = 0; i <= n; ++i) o32[i] = (int32_t)c->off[i];
    c->d_off = tu_to_device(o32, (n + 1) * 4);
    free(o32);
  } else {
    c->d_off = tu_to_device(c->off, (n + 1) * 8);
  }
  c->d_chars = tu_to_device(c->chars, c->bytes);
  return c->d_off && c->d_chars;
}
static void column_free(column_t *c) {
  free(c->off);
  free(c->chars);
  tu_free(c->d_off);
  tu_free(c->d_chars);
}
static gcol_strings_t strings_of(const column_t *c) {
  gcol_strings_t k = {c->d_off, c->ot, c->d_chars, c->bytes, c->n};
  return k;
}

/* retrieve_all equals the model exactly (entry order, bytes, values). */
static test_result_t check_retrieve(gcol_strmap_t *m, const model_t *md, size_t vb, gcol_type_t ot) {
  size_t count = 0, bytes = 0;
  CHECK_OK(gcol_strmap_retrieve_all(m, NULL, ot, NULL, NULL, &count, &bytes, 0));
  CHECK(count == md->count);
  size_t want_bytes = 0;
  for (size_t e = 0; e < md->count; ++e) want_bytes += md->len[e];
  CHECK(bytes == want_bytes);
  size_t ow = ot == GCOL_I32 ? 4 : 8;
  void *d_off = tu_poisoned((count + 1) * ow), *d_chars = tu_poisoned(bytes), *d_val = tu_poisoned(count * vb + 8);
  CHECK(d_off && d_chars && d_val);
  size_t c2 = 0, b2 = 0;
  CHECK_OK(gcol_strmap_retrieve_all(m, d_off, ot, bytes ? d_chars : NULL, d_val, &c2, &b2, 0));
  CHECK(c2 == count && b2 == bytes);
  unsigned char *h_chars = (unsigned char *)malloc(bytes + 1);
  void *h_off = malloc((count + 1) * ow), *h_val = malloc(count * vb + 8);
  CHECK(tu_to_host(h_chars, d_chars, bytes) == 0 && tu_to_host(h_off, d_off, (count + 1) * ow) == 0 &&
        tu_to_host(h_val, d_val, count * vb) == 0);
  int ok = tu_get(h_off, 0, ow) == 0 && tu_get(h_off, count, ow) == bytes;
  for (size_t e = 0; e < count && ok; ++e) {
    uint64_t a = tu_get(h_off, e, ow), b = tu_get(h_off, e + 1, ow);
    ok = b - a == md->len[e] && (md->len[e] == 0 || memcmp(h_chars + a, md->str[e], md->len[e]) == 0) &&
         tu_get(h_val, e, vb) == md->val[e];
    if (!ok) fprintf(stderr, "    retrieve_all: entry %zu differs\n", e);
  }
  free(h_chars);
  free(h_off);
  free(h_val);
  tu_free(d_off);
  tu_free(d_chars);
  tu_free(d_val);
  CHECK(ok);
  return TEST_PASS;
}

/* find and contains of col against the model. */
static test_result_t check_lookups(gcol_strmap_t *m, const model_t *md, const column_t *col, size_t vb,
                                   uint64_t empty) {
  gcol_strings_t k = strings_of(col);
  void *d_v = tu_poisoned(col->n * vb + 8), *d_f = tu_poisoned(col->n + 8);
  CHECK(d_v && d_f);
  CHECK_OK(gcol_strmap_find(m, &k, d_v, 0));
  CHECK_OK(gcol_strmap_contains(m, &k, (uint8_t *)d_f, 0));
  void *h_v = malloc(col->n * vb + 8);
  uint8_t *h_f = (uint8_t *)malloc(col->n + 8);
  CHECK(tu_to_host(h_v, d_v, col->n * vb) == 0 && tu_to_host(h_f, d_f, col->n) == 0);
  int ok = 1;
  for (size_t i = 0; i < col->n && ok; ++i) {
    int64_t e = model_find(md, col->chars + col->off[i], (uint32_t)(col->off[i + 1] - col->off[i]), NULL);
    ok = h_f[i] == (e >= 0) && tu_get(h_v, i, vb) == (e >= 0 ? md->val[e] : empty);
    if (!ok) fprintf(stderr, "    lookup row %zu: found %d value %llu, model entry %lld\n", i, h_f[i],
                     (unsigned long long)tu_get(h_v, i, vb), (long long)e);
  }
  free(h_v);
  free(h_f);
  tu_free(d_v);
  tu_free(d_f);
  CHECK(ok);
  return TEST_PASS;
}

/* Batches of dense-id encoding with growth; every output against the model. */
static test_result_t ids_run(uint64_t mask, size_t pool_n, uint32_t max_len, size_t batch, int batches,
                             gcol_type_t vt, int growable) {
  REQUIRE_GPU();
  if (batch > test_max_n()) batch = test_max_n();
  tu_rng_t r = {test_seed() ^ mask ^ pool_n};
  pool_t p;
  pool_make(&p, pool_n, max_len, &r);
  model_t md;
  model_init(&md, pool_n);
  gcol_strmap_config_t cfg = gcol_strmap_config_default(vt);
  cfg.capacity = growable ? 16 : 2 * pool_n;
  cfg.growable = growable;
  gcol_strmap_t *m = NULL;
  CHECK_OK(gcol_strmap_create(&m, &cfg, 0));
  CHECK_OK(gcol_strmap_set_hash_mask_for_testing(m, mask));
  size_t vb = gcol_type_size(vt);
  for (int b = 0; b < batches; ++b) {
    column_t col;
    gcol_type_t ot = b % 2 ? GCOL_I64 : GCOL_I32;
    /* each batch reaches a little further into the pool: old and new strings */
    size_t hi = pool_n * (size_t)(b + 1) / (size_t)batches;
    CHECK(column_make(&col, &p, 0, hi > 1 ? hi : 1, batch, ot, &r));
    gcol_strings_t k = strings_of(&col);
    void *d_ids = tu_poisoned(batch * vb + 8), *d_ins = tu_poisoned(batch + 8);
    CHECK(d_ids && d_ins);
    CHECK_OK(gcol_strmap_insert_and_find(m, &k, NULL, d_ids, (uint8_t *)d_ins, 0));
    void *h_ids = malloc(batch * vb + 8);
    uint8_t *h_ins = (uint8_t *)malloc(batch + 8);
    CHECK(tu_to_host(h_ids, d_ids, batch * vb) == 0 && tu_to_host(h_ins, d_ins, batch) == 0);
    int ok = 1;
    for (size_t i = 0; i < batch && ok; ++i) {
      int added = 0;
      int64_t e = model_add(&md, col.chars + col.off[i], (uint32_t)(col.off[i + 1] - col.off[i]), md.count, &added);
      ok = tu_get(h_ids, i, vb) == (uint64_t)e && h_ins[i] == added;
      if (!ok)
        fprintf(stderr, "    batch %d row %zu: id %llu inserted %d, model %lld %d\n", b, i,
                (unsigned long long)tu_get(h_ids, i, vb), h_ins[i], (long long)e, added);
    }
    free(h_ids);
    free(h_ins);
    tu_free(d_ids);
    tu_free(d_ins);
    CHECK(ok);
    size_t size = 0;
    CHECK_OK(gcol_strmap_size(m, &size, 0));
    CHECK(size == md.count);
    column_free(&col);
  }
  RUN(check_retrieve(m, &md, vb, GCOL_I64));
  RUN(check_retrieve(m, &md, vb, GCOL_I32));
  /* lookups over the whole pool: present and absent strings */
  column_t q;
  CHECK(column_make(&q, &p, 0, pool_n, pool_n < 4096 ? 4096 : pool_n, GCOL_I64, &r));
  RUN(check_lookups(m, &md, &q, vb, cfg.empty_value));
  column_free(&q);
  /* clear: ids restart at 0 */
  CHECK_OK(gcol_strmap_clear(m, 0));
  model_free(&md);
  model_init(&md, pool_n);
  column_t c2;
  CHECK(column_make(&c2, &p, 0, pool_n, 64, GCOL_I32, &r));
  gcol_strings_t k2 = strings_of(&c2);
  CHECK_OK(gcol_strmap_insert(m, &k2, NULL, NULL, 0));
  for (size_t i = 0; i < c2.n; ++i) {
    int added;
    model_add(&md, c2.chars + c2.off[i], (uint32_t)(c2.off[i + 1] - c2.off[i]), md.count, &added);
  }
  RUN(check_retrieve(m, &md, vb, GCOL_I32));
  column_free(&c2);
  gcol_strmap_destroy(m);
  model_free(&md);
  pool_free(&p);
  return TEST_PASS;
}

TEST(strmap_ids_growth_random) { return ids_run(~0ULL, 20000, 64, 50000, 4, GCOL_U32, 1); }
TEST(strmap_ids_u64_fixed) { return ids_run(~0ULL, 5000, 64, 20000, 3, GCOL_I64, 0); }
TEST(strmap_ids_few_hashes) { return ids_run(0x3, 1500, 64, 4000, 3, GCOL_U32, 1); }
TEST(strmap_ids_one_hash) { return ids_run(0, 300, 64, 1000, 2, GCOL_U64, 1); }
TEST(strmap_ids_long_strings) { return ids_run(~0ULL, 3000, 70000, 6000, 2, GCOL_U32, 1); }
TEST(strmap_ids_long_one_hash) { return ids_run(0, 200, 70000, 600, 2, GCOL_U32, 1); }

/* User values (first row wins) and group-by under each op and type. */
static test_result_t values_run(gcol_type_t vt, gcol_op_t op, uint64_t mask) {
  REQUIRE_GPU();
  size_t n = 30000 < test_max_n() ? 30000 : test_max_n(), pool_n = 3000, vb = gcol_type_size(vt);
  tu_rng_t r = {test_seed() + (uint64_t)vt * 7 + (uint64_t)op};
  pool_t p;
  pool_make(&p, pool_n, 2000, &r);
  model_t md;
  model_init(&md, pool_n);
  gcol_strmap_config_t cfg = gcol_strmap_config_default(vt);
  cfg.capacity = 64;
  gcol_strmap_t *m = NULL;
  CHECK_OK(gcol_strmap_create(&m, &cfg, 0));
  CHECK_OK(gcol_strmap_set_hash_mask_for_testing(m, mask));
  for (int b = 0; b < 3; ++b) {
    column_t col;
    CHECK(column_make(&col, &p, 0, pool_n * (size_t)(b + 1) / 3, n, b % 2 ? GCOL_I64 : GCOL_I32, &r));
    void *hv = malloc(n * vb);
    for (size_t i = 0; i < n; ++i) {
      int64_t x = (int64_t)(tu_next(&r) % 1000) - 300; /* small integers: float sums are exact */
      uint64_t bits = vt == GCOL_F32 || vt == GCOL_F64 ? tu_double_to_bits(vt, (double)x) : (uint64_t)x;
      if (vb == 4) bits &= 0xffffffffULL;
      tu_put(hv, i, vb, bits);
    }
    void *dv = tu_to_device(hv, n * vb);
    gcol_strings_t k = strings_of(&col);
    if (b == 0) CHECK_OK(gcol_strmap_insert(m, &k, dv, NULL, 0)); /* plain insert: first row's value */
    else CHECK_OK(gcol_strmap_insert_or_apply(m, &k, dv, op, 0));
    for (size_t i = 0; i < n; ++i) {
      int added;
      uint64_t v = tu_get(hv, i, vb);
      int64_t e = model_add(&md, col.chars + col.off[i], (uint32_t)(col.off[i + 1] - col.off[i]), v, &added);
      if (added || b == 0) continue;
      double a = tu_bits_to_double(vt, md.val[e]), c = tu_bits_to_double(vt, v), res;
      if (vt == GCOL_F32 || vt == GCOL_F64) {
        res = op == GCOL_OP_ADD ? a + c : op == GCOL_OP_MIN ? (c < a ? c : a) : (c > a ? c : a);
        md.val[e] = tu_double_to_bits(vt, res);
      } else {
        int sgn = vt == GCOL_I32 || vt == GCOL_I64;
        uint64_t s1 = md.val[e], s2 = v, out;
        if (op == GCOL_OP_ADD) out = s1 + s2;
        else {
          int less;
          if (sgn) less = vb == 4 ? (int32_t)s2 < (int32_t)s1 : (int64_t)s2 < (int64_t)s1;
          else less = s2 < s1;
          out = (op == GCOL_OP_MIN) == (less != 0) ? s2 : s1;
        }
        md.val[e] = vb == 4 ? out & 0xffffffffULL : out;
      }
    }
    free(hv);
    tu_free(dv);
    column_free(&col);
  }
  RUN(check_retrieve(m, &md, vb, GCOL_I32));
  gcol_strmap_destroy(m);
  model_free(&md);
  pool_free(&p);
  return TEST_PASS;
}

TEST(strmap_apply_add_u32) { return values_run(GCOL_U32, GCOL_OP_ADD, ~0ULL); }
TEST(strmap_apply_add_i64) { return values_run(GCOL_I64, GCOL_OP_ADD, ~0ULL); }
TEST(strmap_apply_min_i32) { return values_run(GCOL_I32, GCOL_OP_MIN, ~0ULL); }
TEST(strmap_apply_max_u64) { return values_run(GCOL_U64, GCOL_OP_MAX, 0xf); }
TEST(strmap_apply_add_f64) { return values_run(GCOL_F64, GCOL_OP_ADD, ~0ULL); }
TEST(strmap_apply_min_f32) { return values_run(GCOL_F32, GCOL_OP_MIN, ~0ULL); }

/* A fixed strmap: rows past its slots are skipped, FULL is latched once. */
TEST(strmap_fixed_full) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed()};
  pool_t p;
  pool_make(&p, 400, 32, &r);
  gcol_strmap_config_t cfg = gcol_strmap_config_default(GCOL_U32);
  cfg.capacity = 16;
  cfg.growable = 0;
  gcol_strmap_t *m = NULL;
  CHECK_OK(gcol_strmap_create(&m, &cfg, 0));
  size_t slots = 0;
  CHECK_OK(gcol_strmap_capacity(m, &slots));
  column_t col;
  CHECK(column_make(&col, &p, 0, 400, 2000, GCOL_I32, &r));
  gcol_strings_t k = strings_of(&col);
  uint32_t *d_ids = (uint32_t *)tu_poisoned(2000 * 4);
  CHECK_OK(gcol_strmap_insert_and_find(m, &k, NULL, d_ids, NULL, 0));
  size_t size = 0;
  CHECK_STATUS(gcol_strmap_size(m, &size, 0), GCOL_ERROR_FULL);
  CHECK(size == slots);
  CHECK_OK(gcol_strmap_status(m, 0)); /* cleared */
  uint32_t *h = (uint32_t *)malloc(2000 * 4);
  CHECK(tu_to_host(h, d_ids, 2000 * 4) == 0);
  size_t skipped = 0;
  for (size_t i = 0; i < 2000; ++i) {
    CHECK(h[i] == 0xffffffffu || h[i] < slots);
    skipped += h[i] == 0xffffffffu;
  }
  CHECK(skipped > 0);
  free(h);
  tu_free(d_ids);
  column_free(&col);
  gcol_strmap_destroy(m);
  pool_free(&p);
  return TEST_PASS;
}

/* Bad input: each probe refused with a message; the map keeps what it had
 * and answers a good call after. */
TEST(strmap_bad_input) {
  REQUIRE_GPU();
  tu_rng_t r = {test_seed() + 99};
  pool_t p;
  pool_make(&p, 500, 64, &r);
  gcol_strmap_config_t cfg = gcol_strmap_config_default(GCOL_U32);
  gcol_strmap_t *m = NULL;
  CHECK_OK(gcol_strmap_create(&m, &cfg, 0));
  model_t md;
  model_init(&md, 500);
  column_t good;
  CHECK(column_make(&good, &p, 0, 250, 1000, GCOL_I32, &r));
  gcol_strings_t gk = strings_of(&good);
  CHECK_OK(gcol_strmap_insert(m, &gk, NULL, NULL, 0));
  for (size_t i = 0; i < good.n; ++i) {
    int added;
    model_add(&md, good.chars + good.off[i], (uint32_t)(good.off[i + 1] - good.off[i]), md.count, &added);
  }
  /* a column of new strings (pool 250..500) with one bad row in the middle */
  column_t fresh;
  CHECK(column_make(&fresh, &p, 250, 500, 600, GCOL_I64, &r));
  int64_t *bad = (int64_t *)malloc(601 * 8);
  uint32_t *d_ids = (uint32_t *)tu_poisoned(4096);
  void *d_tmp_off = NULL;
#define REFUSED(call)                                                      \
  do {                                                                     \
    CHECK_STATUS((call), GCOL_ERROR_INVALID_ARGUMENT);                     \
    CHECK(strstr(gcol_last_error_message(), "gcol_strmap_") != NULL);      \
    RUN(check_retrieve(m, &md, 4, GCOL_I32));                              \
  } while (0)
#define BAD_OFFSETS(edit)                                                  \
  do {                                                                     \
    memcpy(bad, fresh.off, 601 * 8);                                       \
    edit;                                                                  \
    d_tmp_off = tu_to_device(bad, 601 * 8);                                \
    gcol_strings_t bk = {d_tmp_off, GCOL_I64, fresh.d_chars, fresh.bytes, 600}; \
    REFUSED(gcol_strmap_insert(m, &bk, NULL, NULL, 0));                    \
    REFUSED(gcol_strmap_insert_and_find(m, &bk, NULL, d_ids, NULL, 0));    \
    REFUSED(gcol_strmap_find(m, &bk, d_ids, 0));                           \
    tu_free(d_tmp_off);                                                    \
  } while (0)
  BAD_OFFSETS(bad[300] = bad[299] - 1);               /* decreasing */
  BAD_OFFSETS(bad[600] = (int64_t)fresh.bytes + 1);   /* past the chars */
  BAD_OFFSETS(bad[0] = -5);                           /* negative */
  BAD_OFFSETS(bad[450] = bad[451] + 1);               /* decreasing (the next row) */
  {
    gcol_strings_t k = gk;
    k.d_offsets = (const char *)gk.d_offsets + 2; /* misaligned */
    REFUSED(gcol_strmap_insert(m, &k, NULL, NULL, 0));
    k = gk;
    k.d_offsets = NULL;
    REFUSED(gcol_strmap_insert(m, &k, NULL, NULL, 0));
    k = gk;
    k.d_chars = NULL; /* with non-empty strings */
    REFUSED(gcol_strmap_insert(m, &k, NULL, NULL, 0));
    k = gk;
    k.offset_type = GCOL_U64;
    REFUSED(gcol_strmap_insert(m, &k, NULL, NULL, 0));
    k = gk;
    k.n = GCOL_STRMAP_MAX_ROWS + 1;
    REFUSED(gcol_strmap_insert(m, &k, NULL, NULL, 0));
    int pageable = 0; /* HMM/ATS systems read pageable host memory: accepted there */
    cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0);
    int32_t host_off[2] = {0, 0};
    k = gk;
    k.d_offsets = host_off; /* host memory */
    k.n = 1;
    if (!pageable) REFUSED(gcol_strmap_insert(m, &k, NULL, NULL, 0));
    REFUSED(gcol_strmap_insert(m, NULL, NULL, NULL, 0));
    REFUSED(gcol_strmap_insert_and_find(m, &gk, NULL, NULL, NULL, 0)); /* no output */
    REFUSED(gcol_strmap_insert_or_apply(m, &gk, d_ids, (gcol_op_t)7, 0));
    size_t c, b;
    REFUSED(gcol_strmap_retrieve_all(m, d_ids, GCOL_F32, NULL, NULL, &c, &b, 0));
    /* chars_bytes 0 and NULL chars: only empty strings pass */
    k = gk;
    k.d_chars = NULL;
    k.chars_bytes = 0;
    REFUSED(gcol_strmap_insert(m, &k, NULL, NULL, 0));
    /* a string longer than the limit */
    size_t big = GCOL_STRMAP_MAX_KEY_BYTES + 16;
    void *d_big = NULL;
    CHECK(cudaMalloc(&d_big, big) == cudaSuccess);
    int32_t lo[2] = {0, (int32_t)(GCOL_STRMAP_MAX_KEY_BYTES + 1)};
    void *d_lo = tu_to_device(lo, 8);
    gcol_strings_t lk = {d_lo, GCOL_I32, d_big, big, 1};
    REFUSED(gcol_strmap_insert(m, &lk, NULL, NULL, 0));
    CHECK(strstr(gcol_last_error_message(), "GCOL_STRMAP_MAX_KEY_BYTES") != NULL);
    tu_free(d_lo);
    cudaFree(d_big);
  }
  /* a float map refuses dense ids */
  gcol_strmap_config_t fc = gcol_strmap_config_default(GCOL_F32);
  gcol_strmap_t *fm = NULL;
  CHECK_OK(gcol_strmap_create(&fm, &fc, 0));
  CHECK_STATUS(gcol_strmap_insert(fm, &gk, NULL, NULL, 0), GCOL_ERROR_INVALID_ARGUMENT);
  gcol_strmap_destroy(fm);
  /* the good call after: the fresh strings go in with the next ids */
  gcol_strings_t fk = strings_of(&fresh);
  uint32_t *d_out = (uint32_t *)tu_poisoned(600 * 4);
  CHECK_OK(gcol_strmap_insert_and_find(m, &fk, NULL, d_out, NULL, 0));
  uint32_t *h_out = (uint32_t *)malloc(600 * 4);
  CHECK(tu_to_host(h_out, d_out, 600 * 4) == 0);
  for (size_t i = 0; i < 600; ++i) {
    int added;
    int64_t e = model_add(&md, fresh.chars + fresh.off[i], (uint32_t)(fresh.off[i + 1] - fresh.off[i]), md.count, &added);
    CHECK(h_out[i] == (uint32_t)e);
  }
  RUN(check_retrieve(m, &md, 4, GCOL_I64));
  free(h_out);
  tu_free(d_out);
  free(bad);
  tu_free(d_ids);
  column_free(&good);
  column_free(&fresh);
  gcol_strmap_destroy(m);
  model_free(&md);
  pool_free(&p);
  return TEST_PASS;
#undef REFUSED
#undef BAD_OFFSETS
}

/* Empty strings, an all-empty column without chars, n == 0. */
TEST(strmap_empty_strings) {
  REQUIRE_GPU();
  gcol_strmap_config_t cfg = gcol_strmap_config_default(GCOL_U32);
  gcol_strmap_t *m = NULL;
  CHECK_OK(gcol_strmap_create(&m, &cfg, 0));
  int32_t off[5] = {0, 0, 0, 0, 0};
  void *d_off = tu_to_device(off, sizeof off);
  gcol_strings_t k = {d_off, GCOL_I32, NULL, 0, 4};
  uint32_t *d_ids = (uint32_t *)tu_poisoned(16);
  uint8_t *d_ins = (uint8_t *)tu_poisoned(4);
  CHECK_OK(gcol_strmap_insert_and_find(m, &k, NULL, d_ids, d_ins, 0));
  uint32_t h[4];
  uint8_t ins[4];
  CHECK(tu_to_host(h, d_ids, 16) == 0 && tu_to_host(ins, d_ins, 4) == 0);
  CHECK(h[0] == 0 && h[1] == 0 && h[2] == 0 && h[3] == 0);
  CHECK(ins[0] == 1 && ins[1] == 0 && ins[2] == 0 && ins[3] == 0);
  gcol_strings_t none = {NULL, GCOL_I64, NULL, 0, 0};
  size_t *d_cnt = (size_t *)tu_poisoned(8);
  CHECK_OK(gcol_strmap_insert(m, &none, NULL, d_cnt, 0));
  size_t cnt = 1;
  CHECK(tu_to_host(&cnt, d_cnt, 8) == 0 && cnt == 0);
  size_t size = 0, c = 0, b = 1;
  CHECK_OK(gcol_strmap_size(m, &size, 0));
  CHECK(size == 1);
  int64_t *d_o = (int64_t *)tu_poisoned(16);
  CHECK_OK(gcol_strmap_retrieve_all(m, d_o, GCOL_I64, NULL, NULL, &c, &b, 0));
  int64_t ho[2];
  CHECK(tu_to_host(ho, d_o, 16) == 0);
  CHECK(c == 1 && b == 0 && ho[0] == 0 && ho[1] == 0);
  tu_free(d_o);
  tu_free(d_cnt);
  tu_free(d_off);
  tu_free(d_ids);
  tu_free(d_ins);
  gcol_strmap_destroy(m);
  return TEST_PASS;
}
