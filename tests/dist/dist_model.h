/* A CPU model of the (distributed) map: key -> value with gcol_map's
 * semantics, to check GPU results against. Keys and values are bits,
 * zero-extended to 64 as the library compares them. One open-addressing
 * table; an erased key keeps its slot (marked dead) so it may come back. */
#ifndef GCOL_TESTS_DIST_DIST_MODEL_H
#define GCOL_TESTS_DIST_DIST_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "gcol/gcol.h"

typedef struct {
  gcol_type_t key_type, value_type;
  uint64_t empty_value; /* what find gives for an absent key */
  size_t cap, used, live; /* slots (a power of two), slots taken, live keys */
  uint64_t *keys, *values;
  uint8_t *state; /* 0 free, 1 live, 2 erased */
} dm_model_t;

/* 0 on success, -1 when memory ran out (for every int-returning call). */
int dm_init(dm_model_t *m, gcol_type_t key_type, gcol_type_t value_type, uint64_t empty_value);
void dm_free(dm_model_t *m);

/* First wins: 1 if the key was new (stored), 0 if present (kept), -1 no memory. */
int dm_insert(dm_model_t *m, uint64_t key, uint64_t value);
/* Store value whether or not the key is present. */
int dm_assign(dm_model_t *m, uint64_t key, uint64_t value);
/* Absent: store value; present: stored = op(stored, value) in value_type. */
int dm_apply(dm_model_t *m, uint64_t key, uint64_t value, gcol_op_t op);
/* 1 if the key was present. */
int dm_erase(dm_model_t *m, uint64_t key);
/* 1 if present; *value = its value, or empty_value when absent. */
int dm_find(const dm_model_t *m, uint64_t key, uint64_t *value);
size_t dm_size(const dm_model_t *m);
/* Slot i < m->cap: 1 and its pair if it holds a live key (to iterate). */
int dm_slot(const dm_model_t *m, size_t i, uint64_t *key, uint64_t *value);

/* op(a, b) with the arithmetic of type t on bits of t's width: integer ADD
 * wraps, MIN/MAX compare signed, unsigned or as floats (with <). */
uint64_t dm_combine(gcol_type_t t, gcol_op_t op, uint64_t a, uint64_t b);

#endif
