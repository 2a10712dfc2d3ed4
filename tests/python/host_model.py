"""The host model of gcol's functions: NumPy standing in for the array
library (gcol's CuPy adapter with NumPy as its module) and dicts standing in
for the C map, set and multimap, with their contracts (fixed capacity,
sentinels latch RESERVED_KEY, a full table latches FULL). install() puts
them in place of the real ones for one test."""
import random

import numpy as np

import gcol
from gcol import _arrays, _groupby, _join, _keys


class NumpyLibrary(_arrays.Cupy):
    """gcol's CuPy adapter with NumPy in its place, and no device or stream."""

    name = "numpy"

    def __init__(self):
        super().__init__(np)

    def on_device(self, device):
        import contextlib
        return contextlib.nullcontext()

    def default_stream(self):
        return 0


def fake_adopt(obj, what):
    """_arrays.adopt on the host: NumPy arrays (strided ones and narrow dtypes
    pass, as they do on the device: the functions copy and widen them)."""
    if not isinstance(obj, np.ndarray):
        raise gcol.InvalidArgumentError("%s: not an array" % what)
    return _arrays.Adopted(obj, NumpyLibrary(), None)


CREATED = []  # (kind, capacity) of every fake map or set made


class FakeMap:
    """gcol.Map's contract on the host: fixed capacity, sentinels latch
    RESERVED_KEY, a full map latches FULL, latched errors raise from
    retrieve_all and status."""

    def __init__(self, key_dtype, value_dtype, capacity, empty_key=None, erased_key=None, stream=None,
                 allocator=None):
        self.kd, self.vd, self.capacity = key_dtype, value_dtype, capacity
        if key_dtype == "u128":  # 16-byte keys: a sentinel word in both words is reserved
            assert 0 <= empty_key < 2**64 and 0 <= erased_key < 2**64, "u128 sentinels are unsigned words"
            self.sentinels = {(empty_key, empty_key), (erased_key, erased_key)}
        else:
            self.sentinels = {empty_key, erased_key}
        self.d, self.latched = {}, set()
        CREATED.append(("map", capacity))

    def __enter__(self):
        return self

    def _rows(self, keys):
        """Keys as hashable Python values: 16-byte keys as (low, high) unsigned words."""
        if self.kd != "u128":
            assert keys.ndim == 1
            return keys.tolist()
        assert keys.ndim == 2 and keys.shape[1] == 2 and keys.dtype in (np.int64, np.uint64)
        return [tuple(w & (2**64 - 1) for w in row) for row in keys.tolist()]

    def _key_array(self, keys):
        if self.kd == "u128":
            return np.array(keys, dtype=np.uint64).reshape(-1, 2)
        return np.array(keys, dtype=self.kd)

    def __exit__(self, *exc):
        pass

    def _put(self, k, v, combine):
        if k in self.sentinels:
            self.latched.add(gcol.ReservedKeyError)
        elif k in self.d:
            self.d[k] = combine(self.d[k], v)
        elif len(self.d) >= self.capacity:
            self.latched.add(gcol.FullError)
        else:
            self.d[k] = v

    def insert(self, keys, values, stream=None):
        for k, v in zip(self._rows(keys), values.tolist()):
            self._put(k, v, lambda old, new: old)

    def insert_or_assign(self, keys, values, stream=None):
        for k, v in zip(self._rows(keys), values.tolist()):
            self._put(k, v, lambda old, new: new)

    def insert_or_apply(self, keys, values, op, stream=None):
        fn = {gcol.ADD: lambda a, b: self._wrap(a + b), gcol.MIN: lambda a, b: b if b < a or a != a else a,
              gcol.MAX: lambda a, b: b if b > a or a != a else a}[op]
        if values is None:  # counting, as the C map does: every key adds one
            assert op == gcol.ADD
            values = np.ones(len(keys), dtype=self.vd)
        for k, v in zip(self._rows(keys), values.tolist()):
            self._put(k, v, fn)

    def _wrap(self, v):
        """An integer sum as the C map leaves it: wrapped to the value dtype."""
        dt = np.dtype(self.vd)
        if dt.kind not in "iu":
            return v
        bits = 8 * dt.itemsize
        v %= 2**bits
        return v - 2**bits if dt.kind == "i" and v >= 2**(bits - 1) else v

    def _raise_latched(self):
        for cls in (gcol.FullError, gcol.ReservedKeyError):
            if cls in self.latched:
                self.latched.clear()
                raise cls("latched")

    def retrieve_all(self, stream=None):
        items = list(self.d.items())
        random.shuffle(items)
        keys = self._key_array([k for k, _ in items])
        values = np.array([v for _, v in items], dtype=self.vd)
        self._raise_latched()
        return keys, values

    def status(self, stream=None):
        self._raise_latched()

    def find(self, keys, stream=None):
        return np.array([self.d.get(k, 0) for k in self._rows(keys)], dtype=self.vd)

    def contains(self, keys, stream=None):
        return np.array([k in self.d for k in self._rows(keys)], dtype=bool)


class FakeSet(FakeMap):
    """gcol.Set's contract: FakeMap's without values."""

    def __init__(self, key_dtype, capacity, empty_key=None, erased_key=None, stream=None, allocator=None):
        super().__init__(key_dtype, "int64", capacity, empty_key, erased_key, stream)
        CREATED[-1] = ("set", capacity)

    def insert(self, keys, stream=None):
        super().insert(keys, np.zeros(len(keys), "int64"))

    def retrieve_all(self, stream=None):
        return super().retrieve_all()[0]


class FakeMultimap(FakeMap):
    def __init__(self, key_dtype, value_dtype, capacity, engine="open", empty_key=None, erased_key=None,
                 stream=None, allocator=None):
        super().__init__(key_dtype, value_dtype, capacity, empty_key, erased_key, stream)
        self.pairs = []

    def insert(self, keys, values, stream=None):
        for k, v in zip(self._rows(keys), values.tolist()):
            if k in self.sentinels:
                self.latched.add(gcol.ReservedKeyError)
            else:
                self.pairs.append((k, v))

    def retrieve(self, keys, stream=None, sentinel_queries_match_nothing=False):
        out = [(v, i) for i, q in enumerate(self._rows(keys)) for k, v in self.pairs if k == q]
        random.shuffle(out)
        return (np.array([v for v, _ in out], dtype=self.vd), np.array([i for _, i in out], dtype="int64"))

    def count(self, keys, stream=None):
        return np.array([sum(k == q for k, _ in self.pairs) for q in self._rows(keys)], dtype="int64")


def install(monkeypatch):
    """gcol's functions on the model for the rest of the test."""
    monkeypatch.setattr(_keys, "adopt", fake_adopt)
    monkeypatch.setattr(_groupby, "adopt", fake_adopt)
    monkeypatch.setattr(_keys, "Map", FakeMap)
    monkeypatch.setattr(_keys, "Set", FakeSet)
    monkeypatch.setattr(_join, "Multimap", FakeMultimap)
    CREATED.clear()
