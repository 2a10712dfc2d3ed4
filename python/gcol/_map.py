"""gcol.Map: the GPU hash map (gcol_map_t) for CuPy, PyTorch and other device arrays."""
import enum
from typing import Any, Optional, Tuple, Union

from . import _dtypes, _torch_ops
from ._errors import InvalidArgumentError
from ._container import Container, Sentinels
from ._handle import non_negative, typed
from ._persist import Persistent
from ._typing import DTypeLike, StreamLike


class Op(enum.IntEnum):
    """gcol_op_t, for insert_or_apply; the strings "add", "min" and "max" are
    accepted as well.

    Examples
    --------
    >>> gcol.MIN is gcol.Op.MIN, int(gcol.MIN)
    (True, 1)
    """

    ADD = 0
    MIN = 1
    MAX = 2


ADD, MIN, MAX = Op.ADD, Op.MIN, Op.MAX
_OPS = dict({op: int(op) for op in Op}, **{op.name.lower(): int(op) for op in Op})


def op_code(op):
    code = _OPS.get(op.lower() if isinstance(op, str) else op)
    if code is None:
        raise InvalidArgumentError("op must be gcol.ADD, MIN or MAX (or 'add', 'min', 'max'), not %r" % (op,))
    return code


def map_types(key_dtype, value_dtype):
    """(key dtype name, value dtype name, key gcol_type_t, value gcol_type_t)."""
    key_dtype, value_dtype = _dtypes.dtype_name(key_dtype), _dtypes.dtype_name(value_dtype)
    return key_dtype, value_dtype, _dtypes.key_type_code(key_dtype), _dtypes.type_code(value_dtype)


def fill_map_config(cfg, key_dtype, value_dtype, capacity, growable, max_load_factor, empty_key, erased_key,
                    empty_value, seed, growth_factor=None):
    """Set the given fields of cfg, a gcol_map_config_t from the C _default
    function (its header and the other fields stay the library's). capacity
    None keeps the default's (1024 slots, for a map that grows)."""
    if capacity is not None:
        cfg.capacity = non_negative(capacity, "capacity")
    cfg.growable = 1 if growable else 0
    if max_load_factor is not None:
        cfg.max_load_factor = float(max_load_factor)
    for field, value, dtype in (("empty_key", empty_key, key_dtype), ("erased_key", erased_key, key_dtype),
                                ("empty_value", empty_value, value_dtype)):
        if value is not None:
            setattr(cfg, field, _dtypes.to_bits(value, dtype))
    if seed is not None:
        cfg.seed = non_negative(seed, "seed") & (2**64 - 1)
    if growth_factor is not None:
        cfg.growth_factor = int(growth_factor)  # 2, 4 or 8: gcol_map_create checks


def growable_default(cls, capacity, growable):
    """growable as given; None: a map or set made without a capacity grows, one
    given a capacity is fixed. A fixed one without a capacity is a TypeError."""
    if growable is None:
        return capacity is None
    if capacity is None and not growable:
        raise TypeError("%s(growable=False) needs a capacity: a fixed table never grows past it" % cls.__name__)
    return bool(growable)


def sentinel_bits(cfg, fields):
    """{field: its bits as _dtypes.Bits} of a config's sentinels, for copies and pickles."""
    return {field: _dtypes.Bits(getattr(cfg, field)) for field in fields}


class Map(Persistent, Sentinels, Container):
    """A GPU hash map from key_dtype (32/64-bit integers) to value_dtype (also
    float32/float64), on the C library's gcol_map_t.

    Inputs are device arrays (CuPy, PyTorch CUDA tensors, anything with
    __cuda_array_interface__ or DLPack), C-contiguous, of exactly the map's
    dtypes; outputs come from the input's library on its device. Every call
    runs on ``stream`` (an int handle or a CuPy/PyTorch/Numba stream), by
    default the current stream of the input's library, and does not wait for
    the GPU except len(), size(), retrieve_all() and status(), which also raise
    a latched FullError or ReservedKeyError (an earlier insert's) after their
    result is written (as the exception's ``result``). Use a map with the
    device current that it was created on.

    stream at creation: given, the map is initialized on it asynchronously;
    None, on the legacy default stream, waited for, so any stream may use it.
    allocator: None (device memory from cudaMallocAsync), "torch" (PyTorch's
    caching allocator) or "cupy" (CuPy's memory pool): where the table and
    its growths come from and go back to.

    capacity: slots (at least; rounded up). Without one the map is growable
    (it starts at 1024 slots and grows as keys arrive); with one it is fixed
    unless growable=True.

    Copies: copy() (also copy.copy and copy.deepcopy) makes a new map with the
    same settings and pairs, on the device. Pickling goes through the host
    (settings and retrieve_all's pairs; unpickled on the current device with
    CuPy or PyTorch). Threads: use a map from one thread at a time, unless
    every call that overlaps is a lookup (find, contains), as gcol.h's rule
    for const handles says.

    Parameters
    ----------
    key_dtype : {"int32", "uint32", "int64", "uint64", "u128"} or a dtype object
    value_dtype : {"int32", "uint32", "int64", "uint64", "float32", "float64"} or a dtype object
    capacity : int, optional
        Slots (at least; rounded up). Without one the map grows.
    growable : bool, optional
        Default: True without a capacity, False with one.
    max_load_factor : float, optional
        In (0, 1]; the library's default otherwise.
    empty_key, erased_key : optional
        The two sentinel keys (never stored); the library's defaults otherwise.
    empty_value : optional
        What find returns for absent keys.
    seed : int, optional
        The hash seed.
    stream : int or stream object, optional
        Initialize on it, asynchronously (None: on the legacy default stream, waited for).
    growth_factor : {2, 4, 8}, optional
    allocator : {None, "torch", "cupy"}
        Where the table comes from: cudaMallocAsync, PyTorch's caching allocator
        or CuPy's memory pool (allocated on the call's stream).

    Raises
    ------
    gcol.InvalidArgumentError
        Unsupported dtypes or settings (the message names the field).
    gcol.OutOfMemoryError, gcol.NoDeviceError
    TypeError
        growable=False without a capacity.

    Examples
    --------
    >>> m = gcol.Map("int64", "float64", capacity=1 << 20)  # doctest: +SKIP
    >>> keys = torch.randint(0, 100, (1000,), device="cuda")  # doctest: +SKIP
    >>> m.insert_or_apply(keys, torch.ones(1000, device="cuda", dtype=torch.float64))  # doctest: +SKIP
    >>> group_keys, sums = m.retrieve_all()  # doctest: +SKIP
    """

    _destroy_name, _prefix = "map_destroy", "map_"

    def __init__(self, key_dtype: DTypeLike, value_dtype: DTypeLike, capacity: Optional[int] = None,
                 growable: Optional[bool] = None, max_load_factor: Optional[float] = None,
                 empty_key: Any = None, erased_key: Any = None, empty_value: Any = None, seed: Optional[int] = None,
                 stream: StreamLike = None, growth_factor: Optional[int] = None,
                 allocator: Optional[str] = None) -> None:
        super().__init__()
        growable = growable_default(type(self), capacity, growable)
        self.key_dtype, self.value_dtype, key_code, value_code = map_types(key_dtype, value_dtype)
        self._cfg = self._f.map_config_default(key_code, value_code)
        fill_map_config(self._cfg, self.key_dtype, self.value_dtype, capacity, growable, max_load_factor,
                        empty_key, erased_key, empty_value, seed, growth_factor)
        self._use_allocator(self._cfg, allocator)
        self._create(self._cfg, stream)

    # ---- copies and pickles (_persist.Persistent) ----------------------------
    def _settings(self):
        cfg = self._cfg
        return dict(key_dtype=self.key_dtype, value_dtype=self.value_dtype,
                    capacity=self.capacity if cfg.growable else cfg.capacity, growable=bool(cfg.growable),
                    max_load_factor=cfg.max_load_factor, seed=cfg.seed,
                    growth_factor=cfg.growth_factor or None, allocator=self._allocator,
                    **sentinel_bits(cfg, ("empty_key", "erased_key", "empty_value")))

    def _contents(self, stream):
        return self.retrieve_all(stream=stream)

    def _fill(self, contents, stream):
        keys, values = contents
        self.insert(keys, values, stream=stream)

    # ---- sentinels (host-side) ---------------------------------------------
    @property
    def growable(self) -> bool:
        return bool(self._cfg.growable)

    @property
    def empty_value(self) -> Any:
        """What find returns for absent keys."""
        return _dtypes.from_bits(self._cfg.empty_value, self.value_dtype)

    # ---- inserts -------------------------------------------------------------
    def insert(self, keys: Any, values: Any, stream: StreamLike = None) -> None:
        """Insert pairs; a key already present keeps its value (the first wins).

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        values : device array of value_dtype
            As many as keys.
        stream : int or stream object, optional
            The stream to run on (default: the current one of keys' library);
            outputs come from that stream's pool.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed map.
        gcol.FullError, gcol.ReservedKeyError
            Latched on the device: raised by the next waiting call (size,
            retrieve_all, status).

        Examples
        --------
        >>> m = gcol.Map("int64", "float32", capacity=1024)  # doctest: +SKIP
        >>> m.insert(torch.tensor([1, 2], device="cuda"), torch.tensor([0.5, 1.5], device="cuda"))  # doctest: +SKIP
        >>> m.find(torch.tensor([2, 3], device="cuda"))  # doctest: +SKIP
        tensor([1.5000,    nan], device='cuda:0')
        """
        k, v, s = self._pairs(keys, values, stream)
        self._check(self._f.map_insert(self._handle(), k.ptr, v.ptr, k.n, None, s))

    def insert_or_assign(self, keys: Any, values: Any, stream: StreamLike = None) -> None:
        """Insert pairs; a key already present takes the new value.

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        values : device array of value_dtype
            As many as keys.
        stream : int or stream object, optional
            The stream to run on (default: the current one of keys' library);
            outputs come from that stream's pool.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed map.
        gcol.FullError, gcol.ReservedKeyError
            Latched on the device: raised by the next waiting call (size,
            retrieve_all, status).
        """
        k, v, s = self._pairs(keys, values, stream)
        self._check(self._f.map_insert_or_assign(self._handle(), k.ptr, v.ptr, k.n, s))

    def insert_or_apply(self, keys: Any, values: Any, op: Union[Op, str, int] = Op.ADD,
                        stream: StreamLike = None) -> None:
        """Reduce by key: absent keys are stored, present ones become
        op(stored, value) for every occurrence (a group-by in one call).

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        values : device array of value_dtype, or None
            As many as keys; None with ADD counts (every key adds one).
        op : gcol.ADD, gcol.MIN or gcol.MAX (or "add", "min", "max")
        stream : int or stream object, optional
            The stream to run on (default: the current one of keys' library);
            outputs come from that stream's pool.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed map.
        gcol.FullError, gcol.ReservedKeyError
            Latched on the device: raised by the next waiting call (size,
            retrieve_all, status).

        Examples
        --------
        >>> m = gcol.Map("int64", "int64")  # doctest: +SKIP
        >>> m.insert_or_apply(torch.tensor([7, 7, 8], device="cuda"), None)  # doctest: +SKIP
        >>> m.find(torch.tensor([7, 8], device="cuda"))  # doctest: +SKIP
        tensor([2, 1], device='cuda:0')
        """
        code = op_code(op)
        if values is None:
            (k, s), ptr = self._keys(keys, stream), 0
        else:
            k, v, s = self._pairs(keys, values, stream)
            ptr = v.ptr
        self._check(self._f.map_insert_or_apply(self._handle(), k.ptr, ptr, k.n, code, s))

    def insert_and_find(self, keys: Any, values: Any, stream: StreamLike = None) -> Tuple[Any, Any]:
        """Insert like insert, and say what each input found.

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        values : device array of value_dtype
            As many as keys.
        stream : int or stream object, optional
            The stream to run on (default: the current one of keys' library);
            outputs come from that stream's pool.

        Returns
        -------
        stored : array of value_dtype, keys' shape
            The value now stored for each key.
        inserted : bool array, keys' shape
            True where this input inserted its key.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed map.
        gcol.FullError, gcol.ReservedKeyError
            Latched on the device: raised by the next waiting call (size,
            retrieve_all, status).
        """
        k, v, s = self._pairs(keys, values, stream)
        stored = k.lib.empty(k.shape, self.value_dtype, k, s)
        inserted = k.lib.empty(k.shape, "bool", k, s)
        self._check(self._f.map_insert_and_find(self._handle(), k.ptr, v.ptr, k.n,
                                                typed(stored, self.value_dtype, "out").ptr,
                                                typed(inserted, "bool", "out").ptr, s))
        return stored, inserted

    # ---- queries -------------------------------------------------------------
    def find(self, keys: Any, out: Any = None, stream: StreamLike = None) -> Any:
        """The value of each key.

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        out : device array of value_dtype, optional
            Written and returned (default: a new array of keys' library).
        stream : int or stream object, optional
            The stream to run on (default: the current one of keys' library);
            outputs come from that stream's pool.

        Returns
        -------
        array of value_dtype, keys' shape
            empty_value where a key is absent. Asynchronous.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed map.

        Notes
        -----
        Inside ``torch.compile`` (PyTorch tensors, no out or stream) this is
        the ``gcol::map_find`` operator.
        """
        if out is None and stream is None and _torch_ops.traced(keys):  # torch.compile: gcol::map_find
            return _torch_ops.map_find(self, keys)
        k, s = self._keys(keys, stream)
        if out is None:
            out = k.lib.empty(k.shape, self.value_dtype, k, s)
        o = typed(out, self.value_dtype, "out", k.n)
        self._check(self._f.map_find(self._handle(), k.ptr, k.n, o.ptr, s))
        return out

    def contains(self, keys: Any, out: Any = None, stream: StreamLike = None) -> Any:
        """Which keys are present.

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        out : bool device array, optional
            Written and returned (default: a new array of keys' library).
        stream : int or stream object, optional
            The stream to run on (default: the current one of keys' library);
            outputs come from that stream's pool.

        Returns
        -------
        bool array, keys' shape
            Asynchronous.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed map.

        Notes
        -----
        Inside ``torch.compile`` this is the ``gcol::map_contains`` operator.
        """
        if out is None and stream is None and _torch_ops.traced(keys):  # torch.compile: gcol::map_contains
            return _torch_ops.map_contains(self, keys)
        k, s = self._keys(keys, stream)
        if out is None:
            out = k.lib.empty(k.shape, "bool", k, s)
        o = typed(out, "bool", "out", k.n)
        self._check(self._f.map_contains(self._handle(), k.ptr, k.n, o.ptr, s))
        return out

    def erase(self, keys: Any, stream: StreamLike = None) -> None:
        """Remove keys (absent ones are ignored).

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        stream : int or stream object, optional
            The stream to run on (default: the current one of keys' library);
            outputs come from that stream's pool.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed map.
        """
        k, s = self._keys(keys, stream)
        self._check(self._f.map_erase(self._handle(), k.ptr, k.n, None, s))

    # ---- whole map (size, len, retrieve_all, clear, status: Container) -------
    def reserve(self, capacity: int, stream: StreamLike = None) -> None:
        """Make room for capacity keys: a growable map grows now.

        Parameters
        ----------
        capacity : int
            Keys to hold within max_load_factor.
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the
            library of this map's last input).

        Raises
        ------
        gcol.FullError
            A fixed map with fewer slots.
        gcol.OutOfMemoryError
        """
        n = non_negative(capacity, "capacity")
        self._check(self._f.map_reserve(self._handle(), n, self._own_stream(stream)))
