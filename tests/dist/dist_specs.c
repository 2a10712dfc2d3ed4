#include "dist_specs.h"

#include <string.h>

static ds_spec_t base(gcol_type_t kt, gcol_type_t vt, gcol_op_t op) {
  ds_spec_t s;
  memset(&s, 0, sizeof s);
  s.key_type = kt, s.value_type = vt, s.apply_op = op;
  return s;
}

static void step(ds_spec_t *s, ds_kind_t kind, size_t n0, size_t n1) {
  ds_step_t *st = &s->steps[s->nsteps++];
  st->kind = kind, st->n[0] = n0, st->n[1] = n1;
}

ds_spec_t dspec_one_rank(gcol_type_t kt, gcol_type_t vt, gcol_op_t op, size_t n) {
  ds_spec_t s = base(kt, vt, op);
  s.pool = n * 3 / 4 + 1, s.absent = n / 10, s.capacity = 2 * n + 1;
  step(&s, DS_INSERT, n, 0);
  step(&s, DS_INSERT, n / 2, 0);
  step(&s, DS_ASSIGN, n / 2, 0);
  step(&s, DS_APPLY, n / 2, 0);
  step(&s, DS_ERASE, n / 3, 0);
  step(&s, DS_INSERT, n / 4, 0);
  return s;
}

/* Rank 0's batch and the others' of each step, in 30ths of n; rank r > 0
 * takes (r % 3 + 1) / 2 of the others' share, so that with 4 ranks the
 * batches are n, b, 1.5 b and b / 2. */
ds_spec_t dspec_ranks(int nranks, gcol_type_t kt, gcol_type_t vt, gcol_op_t op, size_t n) {
  static const struct {
    ds_kind_t kind;
    size_t first, others;
  } t[] = {{DS_INSERT, 30, 7}, {DS_INSERT, 0, 6}, {DS_ASSIGN, 5, 2},
           {DS_APPLY, 4, 4},   {DS_ERASE, 3, 0},  {DS_INSERT, 1, 2}};
  ds_spec_t s = base(kt, vt, op);
  s.pool = n * 2 / 3 + 1, s.absent = n / 15;
  s.capacity = s.pool; /* a shard holds about pool / nranks */
  for (size_t i = 0; i < sizeof t / sizeof t[0]; ++i) {
    ds_step_t *st = &s.steps[s.nsteps++];
    st->kind = t[i].kind;
    st->n[0] = n * t[i].first / 30;
    for (int r = 1; r < nranks && r < DS_MAX_RANKS; ++r) st->n[r] = n * t[i].others * (size_t)(r % 3 + 1) / 60;
  }
  return s;
}

ds_spec_t dspec_skewed(int nranks, size_t n) {
  ds_spec_t s = base(GCOL_U64, GCOL_I64, GCOL_OP_ADD);
  s.pool = n, s.absent = 1000, s.capacity = 2 * n;
  size_t few[3] = {n / 1000 + 1, 0, n / 500 + 1};
  ds_kind_t kind[3] = {DS_INSERT, DS_APPLY, DS_INSERT};
  for (int i = 0; i < 3; ++i) {
    ds_step_t *st = &s.steps[s.nsteps++];
    st->kind = kind[i];
    st->n[0] = i == 2 ? 0 : n; /* the last step: rank 0 empty, the others few */
    for (int r = 1; r < nranks && r < DS_MAX_RANKS; ++r) st->n[r] = few[i];
  }
  return s;
}

ds_spec_t dspec_growable(int nranks, size_t total) {
  ds_spec_t s = base(GCOL_U64, GCOL_U64, GCOL_OP_ADD);
  s.pool = total, s.absent = 10000, s.capacity = 1024, s.growable = 1, s.slices = 1;
  for (int t = 0; t < 4; ++t) {
    ds_step_t *st = &s.steps[s.nsteps++];
    st->kind = DS_INSERT;
    for (int r = 0; r < nranks; ++r) st->n[r] = total / 4 / (size_t)nranks;
  }
  return s;
}

int dspec_too_large(const ds_spec_t *s) {
  size_t most = s->pool + s->absent;
  for (int t = 0; t < s->nsteps; ++t) {
    size_t call = 0;
    for (int r = 0; r < DS_MAX_RANKS; ++r) call += s->steps[t].n[r];
    if (call > most) most = call;
  }
  return most > test_max_n();
}
