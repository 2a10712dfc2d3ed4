#include "dist_model.h"
#include "../test_util.h"

#include <stdlib.h>
#include <string.h>

static uint64_t slot_hash(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  return k;
}

static int alloc_table(dm_model_t *m, size_t cap) {
  m->cap = cap;
  m->keys = malloc(cap * sizeof *m->keys);
  m->values = malloc(cap * sizeof *m->values);
  m->state = calloc(cap, 1);
  return m->keys && m->values && m->state ? 0 : -1;
}

int dm_init(dm_model_t *m, gcol_type_t key_type, gcol_type_t value_type, uint64_t empty_value) {
  memset(m, 0, sizeof *m);
  m->key_type = key_type, m->value_type = value_type, m->empty_value = empty_value;
  if (alloc_table(m, 1024)) {
    dm_free(m);
    return -1;
  }
  return 0;
}

void dm_free(dm_model_t *m) {
  free(m->keys), free(m->values), free(m->state);
  m->keys = m->values = NULL, m->state = NULL, m->cap = 0;
}

/* Index of key's slot, or of the free slot where it would go. */
static size_t probe(const dm_model_t *m, uint64_t key) {
  size_t i = (size_t)slot_hash(key) & (m->cap - 1);
  while (m->state[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
  return i;
}

/* Keep the table at most half taken (dead slots included). */
static int make_room(dm_model_t *m) {
  if (2 * (m->used + 1) <= m->cap) return 0;
  dm_model_t old = *m;
  if (alloc_table(m, old.cap * 2)) {
    dm_free(m);
    *m = old;
    return -1;
  }
  for (size_t i = 0; i < old.cap; ++i) {
    if (!old.state[i]) continue;
    size_t j = probe(m, old.keys[i]);
    m->keys[j] = old.keys[i], m->values[j] = old.values[i], m->state[j] = old.state[i];
  }
  dm_free(&old);
  return 0;
}

/* The slot of key, taken (live) if it was not; *was_live says if it was. */
static long take(dm_model_t *m, uint64_t key, int *was_live) {
  if (make_room(m)) return -1;
  size_t i = probe(m, key);
  *was_live = m->state[i] == 1;
  if (!m->state[i]) ++m->used, m->keys[i] = key;
  if (!*was_live) ++m->live, m->state[i] = 1;
  return (long)i;
}

int dm_insert(dm_model_t *m, uint64_t key, uint64_t value) {
  int was_live;
  long i = take(m, key, &was_live);
  if (i < 0) return -1;
  if (!was_live) m->values[i] = value;
  return !was_live;
}

int dm_assign(dm_model_t *m, uint64_t key, uint64_t value) {
  int was_live;
  long i = take(m, key, &was_live);
  if (i < 0) return -1;
  m->values[i] = value;
  return 0;
}

int dm_apply(dm_model_t *m, uint64_t key, uint64_t value, gcol_op_t op) {
  int was_live;
  long i = take(m, key, &was_live);
  if (i < 0) return -1;
  m->values[i] = was_live ? dm_combine(m->value_type, op, m->values[i], value) : value;
  return 0;
}

int dm_erase(dm_model_t *m, uint64_t key) {
  size_t i = probe(m, key);
  if (m->state[i] != 1) return 0;
  m->state[i] = 2, --m->live;
  return 1;
}

int dm_find(const dm_model_t *m, uint64_t key, uint64_t *value) {
  size_t i = probe(m, key);
  int live = m->state[i] == 1;
  *value = live ? m->values[i] : m->empty_value;
  return live;
}

size_t dm_size(const dm_model_t *m) { return m->live; }

int dm_slot(const dm_model_t *m, size_t i, uint64_t *key, uint64_t *value) {
  if (m->state[i] != 1) return 0;
  *key = m->keys[i], *value = m->values[i];
  return 1;
}

/* -1, 0, 1 as a compares to b in type t. */
static int compare(gcol_type_t t, uint64_t a, uint64_t b) {
  switch (t) {
    case GCOL_I32: return ((int32_t)(uint32_t)a > (int32_t)(uint32_t)b) - ((int32_t)(uint32_t)a < (int32_t)(uint32_t)b);
    case GCOL_I64: return ((int64_t)a > (int64_t)b) - ((int64_t)a < (int64_t)b);
    case GCOL_F32:
    case GCOL_F64: return (tu_bits_to_double(t, a) > tu_bits_to_double(t, b)) - (tu_bits_to_double(t, a) < tu_bits_to_double(t, b));
    default: return (a > b) - (a < b);
  }
}

uint64_t dm_combine(gcol_type_t t, gcol_op_t op, uint64_t a, uint64_t b) {
  int is_float = t == GCOL_F32 || t == GCOL_F64;
  uint64_t mask = gcol_type_size(t) == 4 ? 0xffffffffULL : ~0ULL;
  switch (op) {
    case GCOL_OP_ADD:
      if (t == GCOL_F32) return tu_double_to_bits(t, (double)((float)tu_bits_to_double(t, a) + (float)tu_bits_to_double(t, b)));
      if (is_float) return tu_double_to_bits(t, tu_bits_to_double(t, a) + tu_bits_to_double(t, b));
      return (a + b) & mask;
    case GCOL_OP_MIN: return compare(t, b, a) < 0 ? b : a;
    case GCOL_OP_MAX: return compare(t, b, a) > 0 ? b : a;
  }
  return a;
}
