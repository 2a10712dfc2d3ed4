"""gcol.Set and gcol.Multiset: keys only (gcol_set_t, gcol_multiset_t).

The set's config struct and C signatures are in _abi (SetConfig, SET), bound
to the loaded library on first use."""
import ctypes
from typing import Any, Optional

from . import _abi, _dtypes, _lib
from ._container import Container, Sentinels
from ._handle import non_negative, raise_unless_latched, typed
from ._map import growable_default, sentinel_bits
from ._persist import Persistent
from ._typing import DTypeLike, StreamLike


def _bind(f):
    """The library's functions with the set's bound (once)."""
    return _lib.bind(f, _abi.SET)


def set_config(f, key_dtype, capacity, growable, max_load_factor, empty_key, erased_key, seed, growth_factor):
    """(key dtype name, a filled gcol_set_config_t)."""
    key_dtype = _dtypes.dtype_name(key_dtype)
    cfg = f.set_config_default(_dtypes.key_type_code(key_dtype))
    if capacity is not None:  # None: the default's 1024 slots (a set that grows)
        cfg.capacity = non_negative(capacity, "capacity")
    cfg.growable = 1 if growable else 0
    if max_load_factor is not None:
        cfg.max_load_factor = float(max_load_factor)
    for field, value in (("empty_key", empty_key), ("erased_key", erased_key)):
        if value is not None:
            setattr(cfg, field, _dtypes.to_bits(value, key_dtype))
    if seed is not None:
        cfg.seed = non_negative(seed, "seed") & (2**64 - 1)
    if growth_factor is not None:
        cfg.growth_factor = int(growth_factor)
    return key_dtype, cfg


class _Keys(Persistent, Sentinels, Container):
    """What Set and Multiset share: keys only, so retrieve_all gives one array."""

    value_dtype = None

    # ---- copies and pickles (_persist.Persistent) ----------------------------
    def _settings(self):
        cfg = self._cfg
        return dict(key_dtype=self.key_dtype, capacity=cfg.capacity, max_load_factor=cfg.max_load_factor,
                    seed=cfg.seed, allocator=self._allocator, **sentinel_bits(cfg, ("empty_key", "erased_key")))

    def _contents(self, stream):
        return (self.retrieve_all(stream=stream),)

    def _fill(self, contents, stream):
        self.insert(contents[0], stream=stream)

    def __repr__(self):
        state = "closed" if self._h is None else "capacity %d" % self.capacity
        return "gcol.%s(%s, %s)" % (type(self).__name__, self.key_dtype, state)

    def _flags(self, name, keys, out, stream):
        k, s = self._keys(keys, stream)
        if out is None:
            out = k.lib.empty(k.shape, "bool", k, s)
        self._check(self._c(name)(self._handle(), k.ptr, k.n, typed(out, "bool", "out", k.n).ptr, s))
        return out

    def retrieve_all(self, like: Any = None, stream: StreamLike = None) -> Any:
        """Every stored key, in no particular order. Waits for the stream.

        Parameters
        ----------
        like : {"cupy", "torch"} or array, optional
            The library of the result (default: that of the last input).
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Returns
        -------
        array of key_dtype

        Raises
        ------
        gcol.FullError, gcol.ReservedKeyError
            Latched on the device: raised by the next waiting call.
        """
        lib = self._output_library(like)
        s = self._own_stream(stream)
        size = ctypes.c_size_t()
        size_status = raise_unless_latched(self._c("size")(self._handle(), ctypes.byref(size), s),
                                           self._call_name("size"))
        keys = lib.empty((max(size.value, 1),), self.key_dtype, None, s)
        got = ctypes.c_size_t()
        status = self._c("retrieve_all")(self._handle(), typed(keys, self.key_dtype, "keys").ptr, ctypes.byref(got), s)
        result = keys[:got.value]
        self._synced(status or size_status, result, self._call_name("retrieve_all" if status else "size"))
        return result


class Set(_Keys):
    """A GPU hash set of key_dtype (32/64-bit integers) on gcol_set_t: a Map
    without values (half its bytes), with Map's sentinels, growth, streams and
    errors. len(), size(), retrieve_all() and status() wait for the stream.
    allocator: None, "torch" or "cupy", as Map's.

    Without a capacity the set is growable (1024 slots to start); with one it
    is fixed unless growable=True. copy() (also copy.copy / copy.deepcopy)
    makes a new set with the same settings and keys on the device; pickling
    goes through the host (settings and retrieve_all's keys). Threads: use a
    set from one thread at a time, unless every call that overlaps is a
    lookup (contains).

    Parameters
    ----------
    key_dtype : {"int32", "uint32", "int64", "uint64", "u128"} or a dtype object
    capacity, growable, max_load_factor, empty_key, erased_key, seed, stream, growth_factor,
    allocator
        As for gcol.Map.

    Raises
    ------
    gcol.InvalidArgumentError, gcol.OutOfMemoryError, gcol.NoDeviceError
    """

    _destroy_name, _prefix = "set_destroy", "set_"

    def __init__(self, key_dtype: DTypeLike, capacity: Optional[int] = None, growable: Optional[bool] = None,
                 max_load_factor: Optional[float] = None, empty_key: Any = None, erased_key: Any = None,
                 seed: Optional[int] = None, stream: StreamLike = None, growth_factor: Optional[int] = None,
                 allocator: Optional[str] = None) -> None:
        super().__init__()
        growable = growable_default(type(self), capacity, growable)
        self._f = _bind(self._f)
        self.key_dtype, self._cfg = set_config(self._f, key_dtype, capacity, growable, max_load_factor, empty_key,
                                               erased_key, seed, growth_factor)
        self._use_allocator(self._cfg, allocator)
        self._create(self._cfg, stream)

    @property
    def growable(self) -> bool:
        return bool(self._cfg.growable)

    def _settings(self):
        settings = super()._settings()
        cfg = self._cfg
        settings.update(capacity=self.capacity if cfg.growable else cfg.capacity, growable=bool(cfg.growable),
                        growth_factor=cfg.growth_factor or None)
        return settings

    def insert(self, keys: Any, stream: StreamLike = None) -> None:
        """Insert keys (duplicates and present keys are kept once).

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed object.
        gcol.FullError, gcol.ReservedKeyError
            Latched on the device: raised by the next waiting call.

        Examples
        --------
        >>> s = gcol.Set("int64")  # doctest: +SKIP
        >>> s.insert(torch.tensor([4, 4, 9], device="cuda"))  # doctest: +SKIP
        >>> len(s), s.contains(torch.tensor([9, 5], device="cuda"))  # doctest: +SKIP
        (2, tensor([ True, False], device='cuda:0'))
        """
        k, s = self._keys(keys, stream)
        self._check(self._f.set_insert(self._handle(), k.ptr, k.n, None, s))

    def insert_and_contains(self, keys: Any, out: Any = None, stream: StreamLike = None) -> Any:
        """Insert keys and say which inputs added theirs.

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        out : bool device array, optional
            Written and returned (default: a new array of keys' library).
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Returns
        -------
        bool array, keys' shape
            True for the one input that added each new key.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed object.
        gcol.FullError, gcol.ReservedKeyError
            Latched on the device: raised by the next waiting call.
        """
        return self._flags("insert_and_contains", keys, out, stream)

    def contains(self, keys: Any, out: Any = None, stream: StreamLike = None) -> Any:
        """Which keys are in the set.

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        out : bool device array, optional
            Written and returned (default: a new array of keys' library).
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Returns
        -------
        bool array, keys' shape

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed object.
        """
        return self._flags("contains", keys, out, stream)

    def erase(self, keys: Any, stream: StreamLike = None) -> None:
        """Remove keys (absent ones are ignored).

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed object.
        """
        k, s = self._keys(keys, stream)
        self._check(self._f.set_erase(self._handle(), k.ptr, k.n, None, s))

    def reserve(self, capacity: int, stream: StreamLike = None) -> None:
        """Make room for capacity keys: a growable set grows now.

        Parameters
        ----------
        capacity : int
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Raises
        ------
        gcol.FullError
            A fixed set with fewer slots.
        gcol.OutOfMemoryError
        """
        self._check(self._f.set_reserve(self._handle(), non_negative(capacity, "capacity"), self._own_stream(stream)))


class Multiset(_Keys):
    """A GPU multiset of key_dtype on gcol_multiset_t: every inserted key kept,
    duplicates included (fixed capacity). count(), retrieve(), len(),
    retrieve_all() and status() wait for the stream. copy() and pickling as
    Set's (every copy of a key is kept). Threads: one thread at a time, unless
    every call that overlaps is a lookup (count, contains; not retrieve, which
    reads and clears the latched errors).

    Parameters
    ----------
    key_dtype : {"int32", "uint32", "int64", "uint64", "u128"} or a dtype object
    capacity : int
        Slots: every copy of a key takes one.
    max_load_factor, empty_key, erased_key, seed, stream, allocator
        As for gcol.Map.

    Raises
    ------
    gcol.InvalidArgumentError, gcol.OutOfMemoryError, gcol.NoDeviceError
    """

    _destroy_name, _prefix = "multiset_destroy", "multiset_"

    def __init__(self, key_dtype: DTypeLike, capacity: int, max_load_factor: Optional[float] = None,
                 empty_key: Any = None, erased_key: Any = None, seed: Optional[int] = None, stream: StreamLike = None,
                 allocator: Optional[str] = None) -> None:
        super().__init__()
        self._f = _bind(self._f)
        self.key_dtype, self._cfg = set_config(self._f, key_dtype, capacity, False, max_load_factor, empty_key,
                                               erased_key, seed, None)
        self._use_allocator(self._cfg, allocator)
        self._create(self._cfg, stream)

    def insert(self, keys: Any, stream: StreamLike = None) -> None:
        """Insert keys, every copy kept.

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed object.
        gcol.FullError, gcol.ReservedKeyError
            Latched on the device: raised by the next waiting call.
        """
        k, s = self._keys(keys, stream)
        self._check(self._f.multiset_insert(self._handle(), k.ptr, k.n, None, s))

    def count(self, keys: Any, stream: StreamLike = None) -> Any:
        """How many copies of each key are stored.

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Returns
        -------
        int64 array, keys' shape

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed object.
        """
        k, s = self._keys(keys, stream)
        counts = k.lib.empty(k.shape, "int64", k, s)
        self._check(self._f.multiset_count(self._handle(), k.ptr, k.n, typed(counts, "int64", "out").ptr, None, s))
        return counts

    def contains(self, keys: Any, out: Any = None, stream: StreamLike = None) -> Any:
        """Which keys have at least one copy.

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        out : bool device array, optional
            Written and returned (default: a new array of keys' library).
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Returns
        -------
        bool array, keys' shape

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed object.
        """
        return self._flags("contains", keys, out, stream)

    def retrieve(self, keys: Any, stream: StreamLike = None) -> Any:
        """Every stored copy of every key. Waits for the stream.

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Returns
        -------
        query_index : int64 array
            One per match, in no particular order: match j is a copy of
            ``keys[query_index[j]]``.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed object.
        gcol.FullError, gcol.ReservedKeyError
            Latched on the device: raised by the next waiting call.
        """
        k, s = self._keys(keys, stream)
        h = self._handle()
        total = k.lib.empty((1,), "int64", k, s)
        total_ptr = typed(total, "int64", "total").ptr
        self._check(self._f.multiset_count(h, k.ptr, k.n, None, total_ptr, s))
        self._check(self._f.multiset_status(h, s))  # waits: total is readable
        n = int(total[0])
        query = k.lib.empty((max(n, 1),), "int64", k, s)
        temp_bytes = ctypes.c_size_t()
        args = [h, k.ptr, k.n, None, typed(query, "int64", "query").ptr, n, total_ptr, s]
        self._check(self._f.multiset_retrieve(None, ctypes.byref(temp_bytes), *args))
        temp = k.lib.empty((temp_bytes.value,), "bool", k, s)
        self._check(self._f.multiset_retrieve(typed(temp, "bool", "temp").ptr, ctypes.byref(temp_bytes), *args))
        return query[:n]
