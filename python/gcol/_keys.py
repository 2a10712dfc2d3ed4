"""Keys of gcol's functions as the C hash map takes them, and the map's size.

The map compares keys as bits and takes 32- or 64-bit integers, so every key
dtype is seen as the signed integer of its width: unsigned keys as their bits,
float keys as their bits with -0.0 made 0.0 and every NaN made the one quiet
NaN (the key rule: -0.0 and 0.0 are one key, every NaN is one key, every
other bit pattern, subnormals included, is its own key). That is done on the
bits with integer operations (canonical_float_bits of _arrays), never with float
arithmetic, which the array libraries' kernels flush to zero.

Two bit patterns are the map's sentinels (empty and erased slot); a key equal
to one is skipped by the C library and reported (RESERVED_KEY). gcol's
functions take every value as a key: they start with the top two values of
the width, and when the keys hold one, choose two values the keys do not hold
and run again. Likewise the map's size: an estimate of the distinct keys from
a sample (Chao1: d + f1^2 / 2 f2), with margin; a map that fills up (FULL) is
made again larger. Both only ever cost a second run; results never depend on
them.

Inputs (issue 41): strided arrays are copied to contiguous ones; several key
columns given as a tuple are one key per row, packed into one 32-, 64- or
128-bit key (GCOL_U128 for the last); narrow dtypes (bool, int8, int16,
uint8, uint16, float16, bfloat16) are packed at their own width, alone or
beside others, and come back in their own dtype. Keys of more than 128 bits
in all are refused. Two inputs of different dtypes (isin, join) are compared
in a common dtype that holds every value of both exactly (by their types, or
else by their values); if none does, they are refused.
"""
import math
import random

from ._arrays import NARROW_FLOAT_BITS, adopt
from ._errors import FullError, InvalidArgumentError, ReservedKeyError
from ._map import Map
from ._set import Set

KEY_DTYPES = ("int32", "uint32", "int64", "uint64", "float32", "float64")  # keys the map takes as they are
WIDTH = {"bool": 8, "int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "float16": 16, "bfloat16": 16,
         "int32": 32, "uint32": 32, "float32": 32, "int64": 64, "uint64": 64, "float64": 64}
FUNCTION_DTYPES = tuple(WIDTH)  # what gcol's functions take (narrow ones are widened or packed)
MAX_KEY_BITS = 128
_BITS = {"int32": "int32", "uint32": "int32", "float32": "int32",
         "int64": "int64", "uint64": "int64", "float64": "int64"}
_MANTISSA = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}  # integers exact up to 2^m
LOAD = 0.5  # share of the slots the distinct keys are meant to fill
SAMPLE = 1 << 18  # keys sampled to estimate the distinct count
_STEP_PRIMES = (2**31 - 1, 1_000_000_007)  # sample i reads key (i * p) % n


def is_float(dtype):
    return dtype in _MANTISSA


def prepare(adopted, what, allowed=FUNCTION_DTYPES):
    """The adopted input's array, C-contiguous (a strided view is copied on
    the device), after checking its dtype is one gcol's functions take."""
    if adopted.dtype not in allowed:
        raise InvalidArgumentError("%s: unsupported dtype %s: gcol's functions take %s"
                                   % (what, adopted.dtype, ", ".join(allowed)))
    return adopted.lib.contiguous(adopted.array)


# ---- a common dtype for keys of two inputs (isin, join) ---------------------------
def _int_range(dtype):
    w = WIDTH[dtype]
    if dtype == "bool":
        return 0, 1
    return (0, 2**w - 1) if dtype.startswith("uint") else (-(2 ** (w - 1)), 2 ** (w - 1) - 1)


def holds_by_type(target, source):
    """Every value of dtype source is exactly a value of dtype target."""
    if target == source:
        return True
    if is_float(source):
        return is_float(target) and target in ("float32", "float64") and WIDTH[target] > WIDTH[source]
    lo, hi = _int_range(source)
    if is_float(target):
        return max(-lo, hi) <= 2 ** _MANTISSA[target]
    tlo, thi = _int_range(target)
    return target != "bool" and tlo <= lo and hi <= thi


def value_range(xp, a, dtype):
    """(min, max) of an integer array as Python ints (one sync); for uint64
    values of 2^63 and more the max is given as 2^64 - 1."""
    if dtype == "uint64":
        lo, hi = xp.min_max(xp.bits(a, "int64"))
        return (0, 2**64 - 1) if lo < 0 else (lo, hi)
    if dtype.startswith("uint"):
        w = WIDTH[dtype]
        a = xp.astype(xp.bits(a, "int%d" % w), "int64") & (2**w - 1)
    elif dtype != "int64":
        a = xp.astype(a, "int64")
    return tuple(xp.min_max(a))


def _holds_values(xp, target, array, dtype):
    if holds_by_type(target, dtype):
        return True
    if is_float(dtype) or target == "bool":
        return False  # floats go to wider floats only; nothing narrows into bool
    if array.shape[0] == 0:
        return True
    lo, hi = value_range(xp, array, dtype)
    if is_float(target):
        return max(-lo, hi) <= 2 ** _MANTISSA[target]
    tlo, thi = _int_range(target)
    return tlo <= lo and hi <= thi


_WIDER = ("int16", "int32", "int64", "float32", "float64")


def common_dtype(xp, entries):
    """The dtype in which the arrays of entries [(flat array, dtype, what)]
    (one key column of each input) are compared: their own if they share
    one; else the narrowest of theirs or of int16/int32/int64/float32/
    float64 that holds every value of each by its type; else one of theirs
    that holds the others' values (checked on the device: one sync);
    else InvalidArgumentError."""
    dtypes = [d for _, d, _ in entries]
    if len(set(dtypes)) == 1:
        return dtypes[0]
    candidates = sorted(set(dtypes) | set(_WIDER), key=lambda d: (WIDTH[d], d not in dtypes, is_float(d)))
    for target in candidates:
        if all(holds_by_type(target, d) for d in dtypes):
            return target
    for target in sorted(set(dtypes), key=lambda d: (is_float(d), d.startswith("uint"))):
        if all(_holds_values(xp, target, a, d) for a, d, _ in entries):
            return target
    (_, d0, w0), (_, d1, w1) = entries[0], next(e for e in entries if e[1] != entries[0][1])
    raise InvalidArgumentError(
        "%s is %s but %s is %s, and no dtype holds every value of both exactly (%s): cast one of them"
        % (w1, d1, w0, d0, "floats and integers are compared only where the integers are exact in the float"
           if is_float(d0) != is_float(d1) else "uint64 values of 2^63 and more beside negative int64 ones"))


# ---- several key columns packed into one key ------------------------------------
def pack_plan(dtypes, what):
    """(key dtype, [[(column, bit offset, width)] per 64-bit word]): columns
    placed widest first, each whole in one word (widths are powers of two,
    so whatever fits in 128 bits fits so)."""
    widths = [WIDTH[d] for d in dtypes]
    total = sum(widths)
    if total > MAX_KEY_BITS:
        raise InvalidArgumentError(
            "%s: %d key columns of %d bits in all (%s); gcol packs keys of up to %d bits (16-byte keys): "
            "fewer or narrower columns, or make a narrower key first (e.g. ids from gcol.unique(..., "
            "return_inverse=True) of some columns)" % (what, len(dtypes), total, ", ".join(dtypes), MAX_KEY_BITS))
    words, used = [[], []], [0, 0]
    for j in sorted(range(len(dtypes)), key=lambda j: -widths[j]):
        k = 0 if used[0] + widths[j] <= 64 else 1
        words[k].append((j, used[k], widths[j]))
        used[k] += widths[j]
    kdtype = "int32" if total <= 32 else "int64" if total <= 64 else "u128"
    return kdtype, [w for w in words if w]


def column_bits(xp, a, dtype):
    """A key column's bits under the key rule as int64: non-negative values
    below 2^width for narrower columns, the column's own bits for 64-bit ones."""
    w = WIDTH[dtype]
    if w == 64:
        bits = xp.bits(a, "int64")
        return xp.canonical_float_bits(bits, 64) if dtype == "float64" else bits
    if is_float(dtype):
        bits = xp.astype(xp.bits(a, "int%d" % w), "int64") & (2**w - 1)
        return xp.canonical_float_bits(bits, w, NARROW_FLOAT_BITS.get(dtype))
    if dtype.startswith("uint"):  # through the signed view: PyTorch converts few unsigned types
        return xp.astype(xp.bits(a, "int%d" % w), "int64") & (2**w - 1)
    return xp.astype(a, "int64") & (2**w - 1)


def pack(xp, columns, dtypes, kdtype, words):
    """One key per row from the columns' bits (see pack_plan)."""
    packed = []
    for word in words:
        total = None
        for j, offset, w in word:
            b = column_bits(xp, columns[j], dtypes[j])
            if w < 64 and offset + w == 64:  # the word's top column, as signed: no int64 overflow
                b = xp.select(b >= 2 ** (w - 1), b - 2**w, b)
            term = b if offset == 0 else b * (2**offset)
            total = term if total is None else total + term
        packed.append(total)
    if kdtype == "u128":
        return xp.stack_columns(packed)
    if kdtype == "int32":
        top = packed[0]
        return xp.astype(xp.select(top >= 2**31, top - 2**32, top), "int32")
    return packed[0]


def unpack(xp, keys, dtypes, kdtype, words):
    """The key columns, each in its dtype, from packed keys (pack's inverse)."""
    if kdtype == "u128":
        wide = xp.bits(keys, "int64")
        word_arrays = [xp.column(wide, k) for k in range(len(words))]
    else:
        word_arrays = [xp.astype(keys, "int64")]
    columns = [None] * len(dtypes)
    for word, array in zip(words, word_arrays):
        for j, offset, w in word:
            dtype = dtypes[j]
            if w == 64:
                columns[j] = xp.contiguous(xp.bits(array, dtype))
                continue
            u = (array >> offset) & (2**w - 1) if offset else array & (2**w - 1)
            if dtype == "bool":
                columns[j] = u != 0
                continue
            signed = xp.astype(xp.select(u >= 2 ** (w - 1), u - 2**w, u), "int%d" % w)
            columns[j] = signed if dtype.startswith("int") else xp.bits(signed, dtype)
    return columns


def sort_key(xp, values, dtype):
    """What orders values as their dtype does (unsigned 32/64: bits with the
    top bit flipped, as the libraries sort signed integers; narrow integers
    and bool: as int32)."""
    if dtype in ("uint32", "uint64"):
        w = WIDTH[dtype]
        return xp.bits(values, "int%d" % w) ^ -(2 ** (w - 1))
    if dtype in ("uint8", "uint16"):  # through the signed view: PyTorch converts few unsigned types
        w = WIDTH[dtype]
        return xp.astype(xp.bits(values, "int%d" % w), "int32") & (2**w - 1)
    if WIDTH[dtype] < 32 and not is_float(dtype):
        return xp.astype(values, "int32")
    return values


class Keys:
    """Key inputs of one array library: each an array, or a tuple of key
    columns (one key per row). .flat holds each input's keys as the C
    containers take them (flat int32/int64 bit views, or (n, 2) words of
    16-byte keys), .kdtype their dtype, .sentinels the two in use.

    promote: inputs of different dtypes are compared in a common one
    (common_dtype); else they are refused."""

    def __init__(self, inputs, promote=False):
        multi = isinstance(inputs[0][0], tuple)
        adopted = []  # per input: [(Adopted, what)] per column
        for obj, what in inputs:
            if isinstance(obj, tuple) != multi:
                raise InvalidArgumentError("%s is %s but %s is %s: give both as arrays or both as tuples of "
                                           "key columns" % (what, _kind(obj), inputs[0][1], _kind(inputs[0][0])))
            if multi:
                if not obj:
                    raise InvalidArgumentError("%s is an empty tuple: give at least one key column" % what)
                cols = [(adopt(c, "%s[%d]" % (what, j)), "%s[%d]" % (what, j)) for j, c in enumerate(obj)]
                if len(cols) != len(inputs[0][0]):
                    raise InvalidArgumentError("%s has %d key columns but %s has %d"
                                               % (what, len(cols), inputs[0][1], len(inputs[0][0])))
            else:
                cols = [(adopt(obj, what), what)]
            adopted.append(cols)
        first = adopted[0][0][0]
        xp = self.lib = first.lib
        self.back = first.back
        for cols in adopted:
            for a, what in cols:
                if a.lib.name != xp.name:
                    raise InvalidArgumentError("%s is a %s array but %s a %s one: pass arrays of one library"
                                               % (what, a.lib.name, adopted[0][0][1], xp.name))
                if a.lib.device != xp.device:  # the map lives on one GPU
                    raise InvalidArgumentError("%s is on device %s but %s on %s: pass arrays of one device"
                                               % (what, a.lib.device, adopted[0][0][1], xp.device))
                if a.dtype not in FUNCTION_DTYPES:
                    raise InvalidArgumentError("%s: keys must be %s, not %s"
                                               % (what, ", ".join(FUNCTION_DTYPES), a.dtype))
            for a, what in cols[1:]:
                if a.n != cols[0][0].n:
                    raise InvalidArgumentError("%s has %d elements but %s has %d: key columns have one length"
                                               % (what, a.n, cols[0][1], cols[0][0].n))
        self.multi = multi
        self.shapes = [cols[0][0].shape for cols in adopted]
        self.sizes = [cols[0][0].n for cols in adopted]
        flat = [[xp.reshape(prepare(a, what), (-1,)) for a, what in cols] for cols in adopted]
        self.dtypes = []
        for j in range(len(adopted[0])):
            entries = [(flat[i][j], adopted[i][j][0].dtype, adopted[i][j][1]) for i in range(len(adopted))]
            if not promote:
                for _, d, what in entries[1:]:
                    if d != entries[0][1]:
                        raise InvalidArgumentError("%s is %s but %s is %s: key arrays must have one dtype"
                                                   % (what, d, entries[0][2], entries[0][1]))
            target = common_dtype(xp, entries)
            self.dtypes.append(target)
            for i, (a, d, _) in enumerate(entries):
                if d != target:
                    flat[i][j] = xp.astype(a, target)
        self.dtype = self.dtypes[0]
        if not multi and self.dtype in KEY_DTYPES:  # the map's own widths: bit views, no copy
            self.kdtype, self.words = _BITS[self.dtype], None
            width = 32 if self.kdtype == "int32" else 64
            self.flat = []
            for cols in flat:
                bits = xp.bits(cols[0], self.kdtype)
                if is_float(self.dtype):
                    # canonical NaNs lie below the default sentinels (NaN patterns 0x7f..ff, 0x7f..fe): no retry
                    bits = xp.canonical_float_bits(bits, width)
                self.flat.append(bits)
        else:
            what = inputs[0][1]
            self.kdtype, self.words = pack_plan(self.dtypes, what)
            self.flat = [pack(xp, cols, self.dtypes, self.kdtype, self.words) for cols in flat]
        self.width = {"int32": 32, "int64": 64, "u128": 64}[self.kdtype]  # of a sentinel word
        top = 2 ** (self.width - 1) - 1
        self.sentinels = (top, top - 1)

    def sentinel_args(self):
        """empty_key / erased_key for a container of these keys (16-byte keys:
        a 64-bit word, given unsigned, that marks a slot in both words)."""
        e, r = self.sentinels
        if self.kdtype == "u128":
            e, r = e & (2**64 - 1), r & (2**64 - 1)
        return dict(empty_key=e, erased_key=r)

    def map(self, value_dtype, capacity, stream):
        """A fixed-capacity gcol.Map from these keys' bits to value_dtype."""
        return Map(self.kdtype, value_dtype, capacity, stream=stream, allocator=self.lib.name,
                   **self.sentinel_args())

    def set(self, capacity, stream):
        """A fixed-capacity gcol.Set of these keys' bits (no values: half a map's bytes)."""
        return Set(self.kdtype, capacity, stream=stream, allocator=self.lib.name, **self.sentinel_args())

    def values(self, bits):
        """Keys (from a container) as the inputs gave them: an array of the
        keys' dtype, or a tuple of columns."""
        xp = self.lib
        if self.words is None:
            return xp.bits(bits, self.dtype)
        columns = unpack(xp, bits, self.dtypes, self.kdtype, self.words)
        return tuple(columns) if self.multi else columns[0]

    def order(self, values):
        """The permutation that sorts values (values()'s result) ascending,
        several columns lexicographically (the first column first)."""
        xp = self.lib
        if not self.multi:
            return xp.argsort(sort_key(xp, values, self.dtype))
        perm = None
        for col, dtype in reversed(list(zip(values, self.dtypes))):
            key = sort_key(xp, col if perm is None else xp.take(col, perm), dtype)
            step = xp.argsort(key)
            perm = step if perm is None else xp.take(perm, step)
        return perm

    def take(self, values, idx):
        """values (an array or a tuple of columns) at idx."""
        if self.multi:
            return tuple(self.lib.take(c, idx) for c in values)
        return self.lib.take(values, idx)

    def output(self, array):
        """A result in the caller's kind of array (Numba arrays go back as
        Numba arrays); tuples of columns element by element."""
        if isinstance(array, tuple):
            return tuple(self.output(a) for a in array)
        return array if self.back is None else self.back(array)

    def _word0(self, i):
        """The keys of flat[i] as one signed integer per key (16-byte keys: the low word)."""
        a = self.flat[i]
        return self.lib.column(a, 0) if self.kdtype == "u128" else a

    # ---- sentinels and size -------------------------------------------------
    def _choose_sentinels(self, inserted):
        """Two values none of the inserted key arrays holds (one sync)."""
        xp = self.lib
        top, bottom = 2 ** (self.width - 1) - 1, -(2 ** (self.width - 1))
        # 16-byte keys: a word w is reserved only as (w, w), so a value no low word holds is free
        bounds = [xp.min_max(self._word0(i)) for i in inserted if self.sizes[i]]
        lo, hi = min(b[0] for b in bounds), max(b[1] for b in bounds)
        if hi < top - 1:
            return (top, top - 1)
        if lo > bottom + 1:
            return (bottom, bottom + 1)
        pick = random.Random(sum(self.sizes))
        for _ in range(16):
            a = pick.randrange(bottom, top)
            if not any(xp.holds_either(self._word0(i), a, a + 1) for i in inserted):
                return (a, a + 1)
        raise InvalidArgumentError("the keys hold nearly every %d-bit value: gcol finds no two values they "
                                   "lack to mark empty slots with" % self.width)

    def estimate_capacity(self, i, stream):
        """Slots for the distinct keys of flat[i]: all of them for up to
        4 * SAMPLE keys, else Chao1's estimate from a sample with margin
        (d distinct in the sample, f1 of them once, f2 twice: d + f1^2 / 2 f2)."""
        n = self.sizes[i]
        if n <= 4 * SAMPLE:
            return max(1, math.ceil(n / LOAD))
        xp = self.lib
        step = next(p for p in _STEP_PRIMES if n % p)
        sample = xp.take(self.flat[i], (xp.arange(SAMPLE, "int64") * step) % n)
        if self.kdtype == "u128":  # one number per key (a collision only lowers the estimate)
            sample = xp.column(sample, 0) * 1000003 + xp.column(sample, 1)
        counts = xp.unique_counts(sample)  # the array library's sort of a small sample: no map to make
        d = int(counts.shape[0])
        f1, f2 = xp.count_profile(counts)
        chao1 = d + f1 * (f1 - 1) / (2.0 * (f2 + 1))
        return max(1, math.ceil(min(n, 1.25 * max(d, chao1)) / LOAD))

    def run(self, work, inserted, stream, capacity=None):
        """work(capacity) -> result, again with other sentinels when the
        inserted key arrays (indices into flat) hold one, and again larger
        when the map fills up (FullError / ReservedKeyError from work)."""
        most = max(1, math.ceil(max(self.sizes[i] for i in inserted) / LOAD))
        chosen = False
        for _ in range(12):
            try:
                if capacity is None:
                    capacity = self.estimate_capacity(inserted[0], stream)
                return work(capacity)
            except ReservedKeyError:
                if chosen:
                    raise
                self.sentinels, chosen = self._choose_sentinels(inserted), True
            except FullError:
                if capacity >= most:
                    raise
                capacity = min(most, 4 * capacity)
        raise InvalidArgumentError("gcol could not size its hash map")  # not reached: each retry grows


def _kind(obj):
    return "a tuple of %d key columns" % len(obj) if isinstance(obj, tuple) else "an array"
