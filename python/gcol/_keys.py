"""Keys of gcol's functions as the C hash map takes them, and the map's size.

The map compares keys as bits and takes 32- or 64-bit integers, so every key
dtype is seen as the signed integer of its width: unsigned keys as their bits,
float keys as their bits with -0.0 made 0.0 and every NaN made the one quiet
NaN (the key rule: -0.0 and 0.0 are one key, every NaN is one key, every
other bit pattern, subnormals included, is its own key). That is done on the
bits with integer operations (Backend.canonical_float_bits), never with float
arithmetic, which the array libraries' kernels flush to zero.

Two bit patterns are the map's sentinels (empty and erased slot); a key equal
to one is skipped by the C library and reported (RESERVED_KEY). gcol's
functions take every value as a key: they start with the top two values of
the width, and when the keys hold one, choose two values the keys do not hold
and run again. Likewise the map's size: an estimate of the distinct keys from
a sample (Chao1: d + f1^2 / 2 f2), with margin; a map that fills up (FULL) is
made again larger. Both only ever cost a second run; results never depend on
them.
"""
import math
import random

from ._errors import FullError, InvalidArgumentError, ReservedKeyError
from ._map import Map
from ._set import Set
from ._xp import adopt

KEY_DTYPES = ("int32", "uint32", "int64", "uint64", "float32", "float64")
_BITS = {"int32": "int32", "uint32": "int32", "float32": "int32",
         "int64": "int64", "uint64": "int64", "float64": "int64"}
LOAD = 0.5  # share of the slots the distinct keys are meant to fill
SAMPLE = 1 << 18  # keys sampled to estimate the distinct count
_STEP_PRIMES = (2**31 - 1, 1_000_000_007)  # sample i reads key (i * p) % n


class Keys:
    """Key arrays of one dtype and one array library, as flat signed-integer
    bit views (.flat), with the sentinels in use."""

    def __init__(self, inputs):
        adopted = [adopt(obj, what) for obj, what in inputs]
        first, view = adopted[0]
        self.backend, self.back = first.backend, first.back
        self.dtype = view.dtype
        for (a, v), (_, what) in zip(adopted, inputs):
            if a.backend.name != self.backend.name:
                raise InvalidArgumentError("%s is a %s array but %s a %s one: pass arrays of one library"
                                           % (what, a.backend.name, inputs[0][1], self.backend.name))
            if a.backend.device != self.backend.device:  # the map lives on one GPU
                raise InvalidArgumentError("%s is on device %s but %s on %s: pass arrays of one device"
                                           % (what, a.backend.device, inputs[0][1], self.backend.device))
            if v.dtype != self.dtype:
                raise InvalidArgumentError("%s is %s but %s is %s: key arrays must have one dtype"
                                           % (what, v.dtype, inputs[0][1], self.dtype))
        if self.dtype not in KEY_DTYPES:
            raise InvalidArgumentError("%s: keys must be int32, uint32, int64, uint64, float32 or float64, not %s"
                                       % (inputs[0][1], self.dtype))
        self.kdtype = _BITS[self.dtype]
        self.width = 32 if self.kdtype == "int32" else 64
        self.shapes = [v.shape for _, v in adopted]
        self.sizes = [v.n for _, v in adopted]
        be = self.backend
        self.flat = []
        for a, _ in adopted:
            bits = be.bits(be.reshape(a.array, (-1,)), self.kdtype)
            if self.dtype.startswith("float"):
                # canonical NaNs lie below the default sentinels (NaN patterns 0x7f..ff, 0x7f..fe): never a retry
                bits = be.canonical_float_bits(bits, self.width)
            self.flat.append(bits)
        top = 2 ** (self.width - 1) - 1
        self.sentinels = (top, top - 1)

    def map(self, value_dtype, capacity, stream):
        """A fixed-capacity gcol.Map from these keys' bits to value_dtype."""
        return Map(self.kdtype, value_dtype, capacity, empty_key=self.sentinels[0],
                   erased_key=self.sentinels[1], stream=stream, allocator=self.backend.name)

    def set(self, capacity, stream):
        """A fixed-capacity gcol.Set of these keys' bits (no values: half a map's bytes)."""
        return Set(self.kdtype, capacity, empty_key=self.sentinels[0], erased_key=self.sentinels[1],
                   stream=stream, allocator=self.backend.name)

    def values(self, bits):
        """Bits of keys (from a map) as an array of the keys' dtype."""
        return self.backend.bits(bits, self.dtype)

    def sort_key(self, values):
        """What orders values as their dtype does (unsigned: bits with the top bit flipped)."""
        if self.dtype.startswith("uint"):
            bits = self.backend.bits(values, self.kdtype)
            return bits ^ -(2 ** (self.width - 1))
        return values

    def output(self, array):
        """A result in the caller's kind of array (Numba arrays go back as Numba arrays)."""
        return array if self.back is None else self.back(array)

    # ---- sentinels and size -------------------------------------------------
    def _choose_sentinels(self, inserted):
        """Two values none of the inserted key arrays holds (one sync)."""
        be = self.backend
        top, bottom = 2 ** (self.width - 1) - 1, -(2 ** (self.width - 1))
        bounds = [be.min_max(self.flat[i]) for i in inserted if self.sizes[i]]
        lo, hi = min(b[0] for b in bounds), max(b[1] for b in bounds)
        if hi < top - 1:
            return (top, top - 1)
        if lo > bottom + 1:
            return (bottom, bottom + 1)
        pick = random.Random(sum(self.sizes))
        for _ in range(16):
            a = pick.randrange(bottom, top)
            if not any(be.holds_either(self.flat[i], a, a + 1) for i in inserted):
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
        be = self.backend
        step = next(p for p in _STEP_PRIMES if n % p)
        sample = be.take(self.flat[i], (be.arange(SAMPLE, "int64") * step) % n)
        counts = be.unique_counts(sample)  # the array library's sort of a small sample: no map to make
        d = int(counts.shape[0])
        f1, f2 = be.count_profile(counts)
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
