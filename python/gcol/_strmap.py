"""gcol.StringMap and the string functions (gcol_strmap_t, issue 25).

Strings are Arrow-style columns on the device: ``offsets`` (int32 or int64,
n + 1 entries; string i is ``chars[offsets[i]:offsets[i + 1]]``) and
``chars`` (uint8 or int8). Helpers (in _arrow) convert from and to a host
``pyarrow.StringArray`` / ``LargeStringArray`` and a list of ``str``.

The config and column structs and the C signatures are in _abi
(StrmapConfig, Strings, STRMAP), bound to the loaded library on first use."""
import ctypes
from typing import Any, Optional, Tuple, Union

from . import _abi, _arrays, _dtypes, _lib
from ._arrow import strings_from_arrow, strings_from_list, strings_to_arrow, strings_to_list  # noqa: F401
from ._errors import InvalidArgumentError
from ._handle import Handle, non_negative, raise_unless_latched
from ._map import ADD, Op, sentinel_bits
from ._persist import Persistent
from ._typing import DTypeLike, StreamLike


_OFFSET_TYPES = {"int32": 2, "int64": 3}  # GCOL_I32, GCOL_I64


def _bind(f):
    """The library's functions with the strmap's bound (once)."""
    return _lib.bind(f, _abi.STRMAP)


def _chars_ptr(chars):
    """(device pointer, bytes) of a contiguous 1-byte device array."""
    if hasattr(chars, "data_ptr"):  # PyTorch
        if not chars.is_cuda:
            raise InvalidArgumentError("chars is a host tensor; move it to the GPU")
        if chars.element_size() != 1 or not chars.is_contiguous():
            raise InvalidArgumentError("chars must be a contiguous uint8 or int8 tensor")
        return chars.data_ptr(), chars.numel()
    cai = getattr(chars, "__cuda_array_interface__", None)
    if cai is None:
        raise InvalidArgumentError("chars must be a CUDA array (CuPy, PyTorch or __cuda_array_interface__), not %s"
                                   % type(chars).__name__)
    if cai["typestr"][1:] not in ("u1", "i1"):
        raise InvalidArgumentError("chars must hold uint8 or int8, not %s" % cai["typestr"])
    if cai.get("strides") not in (None, (1,)):
        raise InvalidArgumentError("chars must be contiguous")
    n = 1
    for d in cai["shape"]:
        n *= d
    return cai["data"][0], n


class StringMap(Persistent, Handle):
    """A GPU dictionary of byte strings (gcol_strmap_t) to values: dense ids
    in first-seen order (``values=None``) or values of any gcol dtype.

        m = gcol.StringMap("int32")
        ids = m.insert_and_find(offsets, chars)          # dictionary encoding
        dict_offsets, dict_chars, dict_ids = m.retrieve_all()

    Growable by default (``growable=False``: a fixed table of ``capacity``
    slots that skips what does not fit and raises FullError from status()).
    Every call that takes strings waits for its stream once (the offsets are
    checked on the device; a bad row raises InvalidArgumentError naming it,
    with the map unchanged).

    copy() (also copy.copy / copy.deepcopy) makes a new map with the same
    settings and entries, in the same order (so dense ids carry on alike), on
    the device; pickling goes through the host (settings and retrieve_all's
    strings and values). Threads: use a map from one thread at a time, unless
    every call that overlaps is a lookup (find, contains).

    Parameters
    ----------
    value_dtype : {"int32", "uint32", "int64", "uint64", "float32", "float64"}
    capacity : int
        Slots to start with.
    growable : bool
    max_load_factor : float, optional
    empty_value : optional
        What find returns for absent strings.
    seed : int, optional
    growth_factor : {2, 4, 8}, optional
    stream : int or stream object, optional

    Raises
    ------
    gcol.InvalidArgumentError, gcol.OutOfMemoryError, gcol.NoDeviceError
    """

    _destroy_name = "strmap_destroy"

    def __init__(self, value_dtype: DTypeLike = "int32", capacity: int = 1024, growable: bool = True,
                 max_load_factor: Optional[float] = None, empty_value: Any = None, seed: Optional[int] = None,
                 growth_factor: Optional[int] = None, stream: StreamLike = None) -> None:
        super().__init__()
        self._f = _bind(self._f)
        self.value_dtype = _dtypes.dtype_name(value_dtype)
        cfg = self._f.strmap_config_default(_dtypes.type_code(self.value_dtype))
        cfg.capacity = non_negative(capacity, "capacity")
        cfg.growable = 1 if growable else 0
        if max_load_factor is not None:
            cfg.max_load_factor = float(max_load_factor)
        if empty_value is not None:
            cfg.empty_value = _dtypes.to_bits(empty_value, self.value_dtype)
        if seed is not None:
            cfg.seed = non_negative(seed, "seed") & (2**64 - 1)
        if growth_factor is not None:
            cfg.growth_factor = int(growth_factor)
        self._cfg = cfg
        handle = ctypes.c_void_p()
        self._check(self._f.strmap_create(ctypes.byref(handle), ctypes.byref(cfg), self._own_stream(stream)))
        self._h = handle.value
        if stream is None:
            self._check(self._f.strmap_status(self._h, 0), "gcol_strmap_status")

    def __repr__(self):
        state = "closed" if self._h is None else "capacity %d" % self.capacity
        return "gcol.StringMap(-> %s, %s)" % (self.value_dtype, state)

    # ---- copies and pickles (_persist.Persistent) ----------------------------
    def _settings(self):
        cfg = self._cfg
        return dict(value_dtype=self.value_dtype, capacity=self.capacity if cfg.growable else cfg.capacity,
                    growable=bool(cfg.growable), max_load_factor=cfg.max_load_factor, seed=cfg.seed,
                    growth_factor=cfg.growth_factor or None, **sentinel_bits(cfg, ("empty_value",)))

    def _contents(self, stream):
        return self.retrieve_all("int64", stream=stream)

    def _fill(self, contents, stream):
        offsets, chars, values = contents  # entry order: inserted so, the entries keep it
        self.insert(offsets, chars, values, stream=stream)

    # ---- inputs ---------------------------------------------------------------
    def _column(self, offsets, chars, stream):
        """(gcol_strings_t, offsets view, n, cudaStream_t) of a call."""
        v = _arrays.view(offsets)
        if v.dtype not in _OFFSET_TYPES:
            raise InvalidArgumentError("offsets must be int32 or int64, not %s" % v.dtype)
        if v.n < 1:
            raise InvalidArgumentError("offsets needs n + 1 >= 1 entries")
        ptr, nbytes = _chars_ptr(chars)
        col = _abi.Strings(v.ptr, _OFFSET_TYPES[v.dtype], ptr if nbytes else None, nbytes, v.n - 1)
        self._chars_ref = chars  # alive until the call is done with it
        return col, v, v.n - 1, self._stream(stream, v)

    def _values(self, values, n, what="values"):
        if values is None:
            return None
        v = _arrays.view(values)
        if v.dtype != self.value_dtype or v.n != n:
            raise InvalidArgumentError("%s must be %d %s, not %d %s" % (what, n, self.value_dtype, v.n, v.dtype))
        return v.ptr

    def _out(self, v, n, dtype, s):
        a = v.lib.empty((max(n, 1),), dtype, v, s)
        return a, _arrays.view(a).ptr

    # ---- calls ----------------------------------------------------------------
    def insert(self, offsets: Any, chars: Any, values: Any = None, stream: StreamLike = None) -> None:
        """Insert strings; present ones keep their value.

        New strings take dense ids (values None) or their first row's value.

        Parameters
        ----------
        offsets : int32 or int64 device array
            n + 1 entries: string i is ``chars[offsets[i]:offsets[i + 1]]``.
        chars : uint8 or int8 device array
        values : device array of value_dtype, optional
            One per string.
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Raises
        ------
        gcol.InvalidArgumentError
            Host arrays, other dtypes, offsets that do not describe chars, a closed map.
        gcol.FullError
            Latched: a map that does not grow is full.

        Examples
        --------
        >>> m = gcol.StringMap("int32")  # doctest: +SKIP
        >>> m.insert(*gcol.strings_from_list(["x", "yy", "x"], like="torch"))  # doctest: +SKIP
        >>> len(m)  # doctest: +SKIP
        2
        """
        col, v, n, s = self._column(offsets, chars, stream)
        self._check(self._f.strmap_insert(self._handle(), ctypes.byref(col), self._values(values, n), None, s))

    def insert_and_find(self, offsets: Any, chars: Any, values: Any = None, return_inserted: bool = False,
                        stream: StreamLike = None) -> Any:
        """Insert, and return the value now stored for each row.

        With values None that is each string's id: dictionary encoding.

        Parameters
        ----------
        offsets : int32 or int64 device array
            n + 1 entries: string i is ``chars[offsets[i]:offsets[i + 1]]``.
        chars : uint8 or int8 device array
        values : device array of value_dtype, optional
        return_inserted : bool
            Also return the bool array marking the first row of each new string.
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Returns
        -------
        stored : array of value_dtype, one per row
        inserted : bool array (if return_inserted)

        Raises
        ------
        gcol.InvalidArgumentError
            Host arrays, other dtypes, offsets that do not describe chars, a closed map.
        """
        col, v, n, s = self._column(offsets, chars, stream)
        out, po = self._out(v, n, self.value_dtype, s)
        ins, pi = self._out(v, n, "bool", s) if return_inserted else (None, None)
        self._check(self._f.strmap_insert_and_find(self._handle(), ctypes.byref(col), self._values(values, n), po,
                                                   pi, s))
        return (out[:n], ins[:n]) if return_inserted else out[:n]

    def insert_or_apply(self, offsets: Any, chars: Any, values: Any, op: Union[Op, str, int] = ADD,
                        stream: StreamLike = None) -> None:
        """String group-by: stored = op(stored, value) per row.

        A new string starts from its first row's value.

        Parameters
        ----------
        offsets : int32 or int64 device array
            n + 1 entries: string i is ``chars[offsets[i]:offsets[i + 1]]``.
        chars : uint8 or int8 device array
        values : device array of value_dtype, one per row
        op : gcol.ADD, gcol.MIN or gcol.MAX
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Raises
        ------
        gcol.InvalidArgumentError
            Host arrays, other dtypes, offsets that do not describe chars, a closed map.
        """
        col, v, n, s = self._column(offsets, chars, stream)
        self._check(self._f.strmap_insert_or_apply(self._handle(), ctypes.byref(col), self._values(values, n),
                                                   int(Op(op)), s))

    def find(self, offsets: Any, chars: Any, stream: StreamLike = None) -> Any:
        """The stored value of each row's string (empty_value where absent).

        Parameters
        ----------
        offsets : int32 or int64 device array
            n + 1 entries: string i is ``chars[offsets[i]:offsets[i + 1]]``.
        chars : uint8 or int8 device array
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Returns
        -------
        array of value_dtype, one per row

        Raises
        ------
        gcol.InvalidArgumentError
            Host arrays, other dtypes, offsets that do not describe chars, a closed map.
        """
        col, v, n, s = self._column(offsets, chars, stream)
        out, po = self._out(v, n, self.value_dtype, s)
        self._check(self._f.strmap_find(self._handle(), ctypes.byref(col), po, s))
        return out[:n]

    def contains(self, offsets: Any, chars: Any, stream: StreamLike = None) -> Any:
        """Whether each row's string is stored.

        Parameters
        ----------
        offsets : int32 or int64 device array
            n + 1 entries: string i is ``chars[offsets[i]:offsets[i + 1]]``.
        chars : uint8 or int8 device array
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Returns
        -------
        bool array, one per row

        Raises
        ------
        gcol.InvalidArgumentError
            Host arrays, other dtypes, offsets that do not describe chars, a closed map.
        """
        col, v, n, s = self._column(offsets, chars, stream)
        out, po = self._out(v, n, "bool", s)
        self._check(self._f.strmap_contains(self._handle(), ctypes.byref(col), po, s))
        return out[:n]

    def retrieve_all(self, offset_dtype: str = "int32", like: Any = None,
                     stream: StreamLike = None) -> Tuple[Any, Any, Any]:
        """Every stored string, in entry order (for dense ids, string i has id i).

        Waits for the stream.

        Parameters
        ----------
        offset_dtype : {"int32", "int64"}
        like : {"cupy", "torch"} or array, optional
            The library of the results (default: that of the last input).
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Returns
        -------
        offsets : array of offset_dtype
        chars : uint8 array
        values : array of value_dtype

        Raises
        ------
        gcol.FullError
            Latched by an earlier call.
        """
        if offset_dtype not in _OFFSET_TYPES:
            raise InvalidArgumentError("offset_dtype must be int32 or int64, not %r" % (offset_dtype,))
        lib = self._output_library(like)
        s = self._own_stream(stream)
        count, nbytes = ctypes.c_size_t(), ctypes.c_size_t()
        ot = _OFFSET_TYPES[offset_dtype]
        self._check(self._f.strmap_retrieve_all(self._handle(), None, ot, None, None, ctypes.byref(count),
                                                ctypes.byref(nbytes), s))
        k, b = count.value, nbytes.value
        off = lib.empty((k + 1,), offset_dtype, None, s)
        chars = lib.empty((max(b, 1),), "uint8", None, s)
        vals = lib.empty((max(k, 1),), self.value_dtype, None, s)
        status = self._f.strmap_retrieve_all(self._handle(), _arrays.view(off).ptr, ot, _chars_ptr(chars)[0],
                                             _arrays.view(vals).ptr, ctypes.byref(count), ctypes.byref(nbytes), s)
        result = (off, chars[:b], vals[:k])
        self._synced(raise_unless_latched(status, "gcol_strmap_retrieve_all"), result, "gcol_strmap_retrieve_all")
        return result

    @property
    def capacity(self) -> int:
        n = ctypes.c_size_t()
        self._check(self._f.strmap_capacity(self._handle(), ctypes.byref(n)))
        return n.value

    def size(self, stream: StreamLike = None) -> int:
        """Stored strings. Waits for the stream.

        Parameters
        ----------
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Returns
        -------
        int
        """
        n = ctypes.c_size_t()
        self._synced(self._f.strmap_size(self._handle(), ctypes.byref(n), self._own_stream(stream)), n.value,
                     "gcol_strmap_size")
        return n.value

    def __len__(self):
        return self.size()

    def clear(self, stream: StreamLike = None) -> None:
        """Remove every string (ids restart at 0).

        Parameters
        ----------
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).
        """
        self._check(self._f.strmap_clear(self._handle(), self._own_stream(stream)))

    def status(self, stream: StreamLike = None) -> None:
        """Wait for the stream; raise the latched error, if any.

        Parameters
        ----------
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Raises
        ------
        gcol.FullError
        """
        self._check(self._f.strmap_status(self._handle(), self._own_stream(stream)), "gcol_strmap_status")


def dictionary_encode(offsets: Any, chars: Any, *, id_dtype: DTypeLike = "int32",
                      stream: StreamLike = None) -> Tuple[Any, Any, Any]:
    """Dictionary encoding of a device string column, as
    ``pyarrow.compute.dictionary_encode``.

    Parameters
    ----------
    offsets : device array of int32 or int64
        n + 1 entries; string i is ``chars[offsets[i]:offsets[i + 1]]``.
    chars : device array of uint8 or int8
    id_dtype : keyword-only, default "int32"
        The ids' dtype (int32, uint32, int64 or uint64).
    stream : keyword-only
        The stream to run on (default: the current one of the inputs' library).

    Returns
    -------
    ids : array of id_dtype, n entries
    dict_offsets, dict_chars : arrays
        The dictionary, in first-seen order (the same dictionary and ids as
        pyarrow's for the same column); dict_offsets has offsets' dtype.
        Arrays of the inputs' library.

    Raises
    ------
    gcol.InvalidArgumentError
        Host arrays, other dtypes, offsets that do not describe chars.

    Examples
    --------
    >>> off, chars = gcol.strings_from_list(["a", "bb", "a"], like="torch")  # doctest: +SKIP
    >>> ids, d_off, d_chars = gcol.dictionary_encode(off, chars)  # doctest: +SKIP
    >>> ids  # doctest: +SKIP
    tensor([0, 1, 0], device='cuda:0', dtype=torch.int32)
    """
    off_dtype = _arrays.view(offsets).dtype
    with StringMap(id_dtype, stream=stream) as m:
        ids = m.insert_and_find(offsets, chars, stream=stream)
        d_off, d_chars, _ = m.retrieve_all(off_dtype if off_dtype in _OFFSET_TYPES else "int64", stream=stream)
    return ids, d_off, d_chars


def value_counts(offsets: Any, chars: Any, *, stream: StreamLike = None) -> Tuple[Any, Any, Any]:
    """Each distinct string of a device string column once, with its number
    of rows, as ``pyarrow.compute.value_counts``.

    Parameters
    ----------
    offsets : device array of int32 or int64 (n + 1 entries)
    chars : device array of uint8 or int8
    stream : keyword-only
        The stream to run on (default: the current one of the inputs' library).

    Returns
    -------
    dict_offsets, dict_chars : arrays
        The distinct strings, in first-seen order (offsets' dtype).
    counts : int64 array
        Rows of each.

    Raises
    ------
    gcol.InvalidArgumentError
        Host arrays, other dtypes, offsets with no entry.

    Examples
    --------
    >>> off, chars = gcol.strings_from_list(["a", "bb", "a"], like="torch")  # doctest: +SKIP
    >>> d_off, d_chars, counts = gcol.value_counts(off, chars)  # doctest: +SKIP
    >>> gcol.strings_to_list(d_off, d_chars), counts  # doctest: +SKIP
    (['a', 'bb'], tensor([2, 1], device='cuda:0'))
    """
    v = _arrays.view(offsets)
    if v.dtype not in _OFFSET_TYPES or v.n < 1:  # before the ones are made for n rows
        raise InvalidArgumentError("offsets must be int32 or int64 with n + 1 >= 1 entries, not %d %s"
                                   % (v.n, v.dtype))
    ones = _ones(v, v.n - 1)
    with StringMap("int64", stream=stream) as m:
        m.insert_or_apply(offsets, chars, ones, ADD, stream=stream)
        return m.retrieve_all(v.dtype if v.dtype in _OFFSET_TYPES else "int64", stream=stream)


def _ones(v, n):
    mod = v.obj.__class__.__module__
    if mod.startswith("torch"):
        import torch
        return torch.ones(n, dtype=torch.int64, device=v.obj.device)
    import cupy
    device = getattr(getattr(v.obj, "device", None), "id", None)  # the offsets' GPU, not the current one
    with cupy.cuda.Device(device):
        return cupy.ones(n, dtype=cupy.int64)
