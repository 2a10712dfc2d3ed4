"""gcol.BloomFilter, gcol.HyperLogLog and gcol.approx_distinct: the C
library's gcol_bloom_t and gcol_hll_t for CuPy, PyTorch and other device
arrays.

    f = gcol.BloomFilter("uint64", expected_keys=10**8, fpr=0.01)
    f.add(keys)
    maybe = f.contains(queries)                 # bool array, False: certainly absent
    n = gcol.approx_distinct(column, precision=14)

The config structs and C signatures of these calls are in _abi (BloomConfig,
HllConfig, SKETCH), bound to the same loaded library on first use.
"""
import ctypes
import struct
from ctypes import c_double, c_int, c_size_t, c_void_p
from typing import Any, Optional, TypeVar

from . import _abi, _arrays, _dtypes, _lib
from ._errors import InvalidArgumentError
from ._handle import Handle, non_negative, typed
from ._persist import Persistent, build_filled
from ._typing import DTypeLike, StreamLike

_S = TypeVar("_S", bound="_Sketch")


def _sketch_functions():
    """The library's functions with the sketches' bound (once)."""
    return _lib.bind(_lib.functions(), _abi.SKETCH)


def _check(status):
    if status:
        raise _lib.error(status)


def _creation_stream(stream):
    """stream given: its handle. None: the current stream of PyTorch or CuPy
    (whichever is in use), so later calls on that stream are ordered after
    the initialization; 0 without either."""
    if stream is None:
        try:
            stream = _arrays.fallback_library().default_stream()
        except (InvalidArgumentError, RuntimeError):
            # no array library, or one that sees no GPU (PyTorch and CuPy raise
            # RuntimeError kinds): the C call then reports the bad argument or
            # GCOL_ERROR_NO_DEVICE itself
            return 0
    return stream if stream.__class__ is int else _arrays.stream_handle(stream)


class _Sketch(Persistent, Handle):
    def __init__(self) -> None:
        super().__init__()
        self._f = _sketch_functions()

    def _same_kind(self, other):
        if not isinstance(other, type(self)):
            raise InvalidArgumentError("expected a %s, not %r" % (type(self).__name__, other))
        return other._handle()

    # ---- copies (merge into an empty twin, on the device) and pickles (bytes) ----
    def copy(self: _S, stream: StreamLike = None) -> _S:
        """A new sketch with the same settings and contents (asynchronous).

        An empty twin merged with this one, on the device.

        Parameters
        ----------
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Returns
        -------
        a sketch of this one's type
        """
        self._handle()  # a closed sketch raises here
        s = self._own_stream(stream)
        twin = type(self)(stream=s, **self._settings())
        try:
            twin.merge(self, stream=s)
        except BaseException:
            twin.close()
            raise
        return twin

    def _contents(self, stream):
        return (self.to_bytes(stream),)


class BloomFilter(_Sketch):
    """A GPU Bloom filter of 32/64-bit integer keys (gcol_bloom_t): one
    32-byte block per key, two bits in each of its four words. Give exactly
    one of size_bytes, or expected_keys with fpr (the smallest filter whose
    expected false-positive rate for that many distinct keys is at most fpr).

    Inputs are C-contiguous device arrays of exactly key_dtype; calls run on
    ``stream`` (default: the input library's current stream) and do not wait
    for the GPU. Filters merge or intersect only with filters of the same
    size, seed and key width.

    to_bytes / from_bytes move a filter between processes and GPUs (gcol.h's
    export format); pickling uses them. copy() (also copy.copy and
    copy.deepcopy) is a new filter merged with this one on the device.
    Threads: use a filter from one thread at a time, unless every call that
    overlaps is a lookup (contains). Adds from several streams are safe.

    Parameters
    ----------
    key_dtype : {"uint64", "int64", "uint32", "int32"}
    size_bytes : int, optional
        The filter's bytes.
    expected_keys : int, optional
        With fpr: size the filter for that many distinct keys.
    fpr : float
        The target false-positive rate (with expected_keys).
    seed : int, optional
    stream : int or stream object, optional
        Initialize on it (default: the current stream of PyTorch or CuPy).

    Raises
    ------
    TypeError
        Neither or both of size_bytes and expected_keys.
    gcol.InvalidArgumentError, gcol.OutOfMemoryError, gcol.NoDeviceError
    """

    _destroy_name = "bloom_destroy"

    def __init__(self, key_dtype: DTypeLike = "uint64", size_bytes: Optional[int] = None,
                 expected_keys: Optional[int] = None, fpr: float = 0.01, seed: Optional[int] = None,
                 stream: StreamLike = None) -> None:
        if (size_bytes is None) == (expected_keys is None):
            raise TypeError("BloomFilter() takes exactly one of size_bytes= (the filter's bytes) or expected_keys= "
                            "(with fpr=, the target false-positive rate); %s"
                            % ("both were given" if size_bytes is not None else "neither was given"))
        super().__init__()
        self.key_dtype = _dtypes.dtype_name(key_dtype)
        cfg = self._f.bloom_config_default(_dtypes.key_type_code(self.key_dtype))
        if size_bytes is not None:
            cfg.size_bytes = non_negative(size_bytes, "size_bytes")
        if expected_keys is not None:
            cfg.expected_keys = non_negative(expected_keys, "expected_keys")
        cfg.target_fpr = float(fpr)
        if seed is not None:
            cfg.seed = non_negative(seed, "seed") & (2**64 - 1)
        self.seed = cfg.seed
        handle = c_void_p()
        _check(self._f.bloom_create(ctypes.byref(handle), ctypes.byref(cfg), _creation_stream(stream)))
        self._h = handle.value

    def __repr__(self):
        state = "closed" if self._h is None else "%d bytes" % self.size_bytes
        return "gcol.BloomFilter(%s, %s)" % (self.key_dtype, state)

    @property
    def size_bytes(self) -> int:
        n = c_size_t()
        _check(self._f.bloom_size(self._handle(), ctypes.byref(n)))
        return n.value

    @property
    def bits(self) -> int:
        n = c_size_t()
        _check(self._f.bloom_bits(self._handle(), ctypes.byref(n)))
        return n.value

    def expected_fpr(self, n: int) -> float:
        """The false-positive rate expected with n distinct keys added.

        Parameters
        ----------
        n : int

        Returns
        -------
        float

        Examples
        --------
        >>> gcol.BloomFilter(expected_keys=1000, fpr=0.01).expected_fpr(1000) < 0.011  # doctest: +SKIP
        True
        """
        return expected_fpr(self.size_bytes, n)

    def add(self, keys: Any, stream: StreamLike = None) -> None:
        """Add keys.

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
            Host or strided arrays, another dtype, a closed sketch.

        Examples
        --------
        >>> f = gcol.BloomFilter(expected_keys=1000)  # doctest: +SKIP
        >>> f.add(torch.arange(1000, device="cuda").to(torch.uint64))  # doctest: +SKIP
        >>> bool(f.contains(torch.tensor([7], device="cuda").to(torch.uint64))[0])  # doctest: +SKIP
        True
        """
        k = typed(keys, self.key_dtype, "keys")
        _check(self._f.bloom_add(self._handle(), k.ptr, k.n, self._stream(stream, k)))

    def contains(self, keys: Any, out: Any = None, stream: StreamLike = None) -> Any:
        """Whether each key may have been added.

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
            False where a key is certainly absent, True where it may be present.

        Raises
        ------
        gcol.InvalidArgumentError
            Host or strided arrays, another dtype, a closed sketch.
        """
        k = typed(keys, self.key_dtype, "keys")
        s = self._stream(stream, k)
        if out is None:
            out = k.lib.empty(k.shape, "bool", k, s)
        o = typed(out, "bool", "out", k.n)
        _check(self._f.bloom_contains(self._handle(), k.ptr, k.n, o.ptr, s))
        return out

    def clear(self, stream: StreamLike = None) -> None:
        """Remove every key (asynchronous).

        Parameters
        ----------
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).
        """
        _check(self._f.bloom_clear(self._handle(), self._own_stream(stream)))

    def merge(self, other: "BloomFilter", stream: StreamLike = None) -> None:
        """self |= other: self then holds both filters' keys.

        Parameters
        ----------
        other : gcol.BloomFilter
            Of the same size, key width and seed.
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Raises
        ------
        gcol.InvalidArgumentError
            Another kind of object, or a filter of other settings.
        """
        _check(self._f.bloom_merge(self._handle(), self._same_kind(other), self._own_stream(stream)))

    def intersect(self, other: "BloomFilter", stream: StreamLike = None) -> None:
        """self &= other: keys added to both are still found.

        Parameters
        ----------
        other : gcol.BloomFilter
            Of the same size, key width and seed.
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Raises
        ------
        gcol.InvalidArgumentError
            Another kind of object, or a filter of other settings.
        """
        _check(self._f.bloom_intersect(self._handle(), self._same_kind(other), self._own_stream(stream)))

    def to_bytes(self, stream: StreamLike = None) -> bytes:
        """The filter as bytes (a 32-byte header, then its bits). Waits for the stream.

        Parameters
        ----------
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Returns
        -------
        bytes
            What ``gcol_bloom_export`` writes; from_bytes reads it back.
        """
        n = c_size_t()
        _check(self._f.bloom_export_size(self._handle(), ctypes.byref(n)))
        buf = ctypes.create_string_buffer(n.value)
        got = c_size_t()
        _check(self._f.bloom_export(self._handle(), buf, n.value, ctypes.byref(got), self._own_stream(stream)))
        return buf.raw[:got.value]

    @classmethod
    def from_bytes(cls, data: bytes, key_dtype: Optional[DTypeLike] = None,
                   stream: StreamLike = None) -> "BloomFilter":
        """A new filter holding exported bytes. Waits for the stream.

        Parameters
        ----------
        data : bytes
            From to_bytes (or gcol_bloom_export).
        key_dtype : optional
            Of the bytes' key width (default: uint64 or uint32).
        stream : int or stream object, optional

        Returns
        -------
        gcol.BloomFilter

        Raises
        ------
        gcol.InvalidArgumentError
            Malformed bytes, a key_dtype of another width.
        """
        data = bytes(data)
        if len(data) < _BLOOM_HEADER.size:
            raise InvalidArgumentError("%d bytes are shorter than the 32-byte header" % len(data))
        magic, _, width, _, seed, blocks, _ = _BLOOM_HEADER.unpack_from(data)
        if magic != b"GBLM":
            raise InvalidArgumentError("the bytes do not start with b'GBLM' (not an exported filter)")
        if key_dtype is None:
            key_dtype = "uint32" if width == 4 else "uint64"
        if not 0 < blocks <= (1 << 40) // 32:
            raise InvalidArgumentError("the bytes' header names %d blocks" % blocks)
        settings = dict(key_dtype=key_dtype, size_bytes=blocks * 32, seed=seed)
        return build_filled(cls, settings, lambda: (data,), stream)

    # ---- copies and pickles --------------------------------------------------
    def _settings(self):
        return dict(key_dtype=self.key_dtype, size_bytes=self.size_bytes, seed=self.seed)

    def _fill(self, contents, stream):
        data = contents[0]
        _check(self._f.bloom_import(self._handle(), data, len(data), self._own_stream(stream)))


def expected_fpr(size_bytes: int, n: int) -> float:
    """Expected false-positive rate of a size_bytes filter holding n distinct keys (host-only)."""
    f = c_double()
    _check(_sketch_functions().bloom_expected_fpr(non_negative(size_bytes, "size_bytes"), non_negative(n, "n"),
                                                  ctypes.byref(f)))
    return f.value


_BLOOM_HEADER = struct.Struct("<4sBBHQQQ")  # gcol.h: "GBLM", format, key width, reserved, seed, blocks, reserved
_HEADER = struct.Struct("<4sBBHQ")  # gcol.h: "GHLL", format, precision, reserved, seed


class HyperLogLog(_Sketch):
    """A GPU HyperLogLog sketch (gcol_hll_t) of 2**precision registers
    (precision 4..18; standard error about 1.04 / sqrt(2**precision)).

    add takes C-contiguous device arrays of any gcol dtype (int32, uint32,
    int64, uint64, float32, float64; floats count -0.0 as 0.0 and all NaNs as
    one value). estimate() and to_bytes() wait for the stream; to_bytes /
    from_bytes / merge_bytes move sketches between processes and GPUs, and
    pickling uses them. copy() (also copy.copy and copy.deepcopy) is a new
    sketch merged with this one on the device. Threads: use a sketch from one
    thread at a time, unless every call that overlaps is a lookup (estimate,
    to_bytes).

    Parameters
    ----------
    precision : int, 4 to 18
    seed : int, optional
    stream : int or stream object, optional
        Initialize on it (default: the current stream of PyTorch or CuPy).

    Raises
    ------
    gcol.InvalidArgumentError, gcol.OutOfMemoryError, gcol.NoDeviceError
    """

    _destroy_name = "hll_destroy"

    def __init__(self, precision: int = 13, seed: Optional[int] = None, stream: StreamLike = None) -> None:
        super().__init__()
        cfg = self._f.hll_config_default()
        try:
            cfg.precision = int(precision)
        except (TypeError, ValueError):
            raise InvalidArgumentError("precision must be an integer, not %r" % (precision,)) from None
        if seed is not None:
            cfg.seed = non_negative(seed, "seed") & (2**64 - 1)
        self.seed = cfg.seed
        handle = c_void_p()
        _check(self._f.hll_create(ctypes.byref(handle), ctypes.byref(cfg), _creation_stream(stream)))
        self._h = handle.value

    def __repr__(self):
        state = "closed" if self._h is None else "precision %d" % self.precision
        return "gcol.HyperLogLog(%s)" % state

    @property
    def precision(self) -> int:
        p = c_int()
        _check(self._f.hll_precision(self._handle(), ctypes.byref(p)))
        return p.value

    def add(self, items: Any, stream: StreamLike = None) -> None:
        """Add items (equal bits are one item).

        Parameters
        ----------
        items : device array of int32, uint32, int64, uint64, float32 or float64
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Raises
        ------
        gcol.InvalidArgumentError
            Host or strided arrays, another dtype, a closed sketch.

        Examples
        --------
        >>> h = gcol.HyperLogLog(precision=14)  # doctest: +SKIP
        >>> h.add(torch.arange(100_000, device="cuda") % 5000)  # doctest: +SKIP
        >>> round(h.estimate(), -2)  # doctest: +SKIP
        5000.0
        """
        v = _arrays.view(items)
        code = _dtypes.type_code(v.dtype)
        _check(self._f.hll_add(self._handle(), v.ptr, v.n, code, self._stream(stream, v)))

    def merge(self, other: "HyperLogLog", stream: StreamLike = None) -> None:
        """Registers become the maximum of both: self then estimates the union.

        Parameters
        ----------
        other : gcol.HyperLogLog
            Of the same precision and seed.
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Raises
        ------
        gcol.InvalidArgumentError
            Another kind of object, or other settings.
        """
        _check(self._f.hll_merge(self._handle(), self._same_kind(other), self._own_stream(stream)))

    def estimate(self, stream: StreamLike = None) -> float:
        """Estimated number of distinct items added. Waits for the stream.

        Parameters
        ----------
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Returns
        -------
        float
        """
        e = c_double()
        _check(self._f.hll_estimate(self._handle(), ctypes.byref(e), self._own_stream(stream)))
        return e.value

    def clear(self, stream: StreamLike = None) -> None:
        """Forget every item (asynchronous).

        Parameters
        ----------
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).
        """
        _check(self._f.hll_clear(self._handle(), self._own_stream(stream)))

    def to_bytes(self, stream: StreamLike = None) -> bytes:
        """The sketch as bytes (a 16-byte header, one byte per register). Waits for the stream.

        Parameters
        ----------
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Returns
        -------
        bytes
        """
        n = c_size_t()
        _check(self._f.hll_export_size(self._handle(), ctypes.byref(n)))
        buf = ctypes.create_string_buffer(n.value)
        got = c_size_t()
        _check(self._f.hll_export(self._handle(), buf, n.value, ctypes.byref(got), self._own_stream(stream)))
        return buf.raw[:got.value]

    def merge_bytes(self, data: bytes, stream: StreamLike = None) -> None:
        """Merge exported bytes (same precision and seed) into this sketch.

        Parameters
        ----------
        data : bytes
            From to_bytes.
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Raises
        ------
        gcol.InvalidArgumentError
            Malformed bytes or other settings.
        """
        data = bytes(data)
        _check(self._f.hll_import_merge(self._handle(), data, len(data), self._own_stream(stream)))

    @classmethod
    def from_bytes(cls, data: bytes, stream: StreamLike = None) -> "HyperLogLog":
        """A new sketch holding exported bytes.

        Parameters
        ----------
        data : bytes
            From to_bytes.
        stream : int or stream object, optional

        Returns
        -------
        gcol.HyperLogLog

        Raises
        ------
        gcol.InvalidArgumentError
            Malformed bytes.
        """
        data = bytes(data)
        if len(data) < _HEADER.size:
            raise InvalidArgumentError("%d bytes are shorter than the 16-byte header" % len(data))
        magic, _, precision, _, seed = _HEADER.unpack_from(data)
        if magic != b"GHLL":
            raise InvalidArgumentError("the bytes do not start with b'GHLL' (not an exported sketch)")
        return build_filled(cls, dict(precision=precision, seed=seed), lambda: (data,), stream)

    # ---- copies and pickles --------------------------------------------------
    def _settings(self):
        return dict(precision=self.precision, seed=self.seed)

    def _fill(self, contents, stream):
        data = contents[0]
        _check(self._f.hll_import(self._handle(), data, len(data), self._own_stream(stream)))


def approx_distinct(x: Any, precision: int = 13, seed: Optional[int] = None, stream: StreamLike = None) -> float:
    """Estimated number of distinct values in a device array (one HyperLogLog pass).

    Parameters
    ----------
    x : device array
        Of the dtypes HyperLogLog.add takes.
    precision : int, default 13
        2**precision registers: the relative standard error is about
        ``1.04 / sqrt(2**precision)`` (1.15% at 13).
    seed : int, optional
        The hash seed.
    stream : optional
        The stream to run on (default: the current one of x's library).

    Returns
    -------
    float
        Waits for the stream.

    Raises
    ------
    gcol.InvalidArgumentError
        Host arrays, another dtype, a precision out of range.

    Examples
    --------
    >>> gcol.approx_distinct(torch.arange(1_000_000, device="cuda") % 1000)  # doctest: +SKIP
    1000.6...
    """
    with HyperLogLog(precision, seed=seed, stream=stream) as h:
        h.add(x, stream=stream)
        return h.estimate(stream=stream)
