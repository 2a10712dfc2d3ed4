"""What Map and Multimap share: their whole-container calls, which differ only
in the C prefix (gcol_map_* / gcol_multimap_*)."""
import ctypes
from typing import Any

from . import _alloc, _dtypes
from ._handle import Handle, raise_unless_latched, typed
from ._typing import StreamLike


class Sentinels:
    """empty_key / erased_key of a container whose config holds them (Map,
    Set, Multiset), as values of its key dtype; host-side."""

    @property
    def empty_key(self) -> Any:
        return _dtypes.from_bits(self._cfg.empty_key, self.key_dtype)

    @property
    def erased_key(self) -> Any:
        return _dtypes.from_bits(self._cfg.erased_key, self.key_dtype)


class Container(Handle):
    _prefix = None  # "map_" or "multimap_"

    def _c(self, name):
        return getattr(self._f, self._prefix + name)

    def _call_name(self, name):
        return "gcol_" + self._prefix + name

    def _keys(self, keys, stream):
        """The typed keys of a call that takes keys only, and its stream."""
        k = typed(keys, self.key_dtype, "keys")
        return k, self._stream(stream, k)

    def _pairs(self, keys, values, stream):
        """The typed inputs of a call that takes pairs, and its stream."""
        k = typed(keys, self.key_dtype, "keys")
        v = typed(values, self.value_dtype, "values", k.n)
        return k, v, self._stream(stream, k)

    def _use_allocator(self, map_config, allocator):
        """Route the container's device memory through allocator (see _alloc);
        the callbacks live as long as the container."""
        self._allocator = allocator  # copies and pickles take the same kind of memory
        self._hook = _alloc.hook(allocator)
        if self._hook is not None:
            self._hook.install(map_config)

    def _create(self, config, stream):
        """gcol_*_create with config; with no stream given, wait until it is
        initialized (on the legacy default stream) so that any stream may use it."""
        handle = ctypes.c_void_p()
        self._check(self._c("create")(ctypes.byref(handle), ctypes.byref(config), self._own_stream(stream)))
        self._h = handle.value
        if stream is None:
            self._check(self._c("status")(self._h, 0), self._call_name("status"))

    def __repr__(self):
        state = "closed" if self._h is None else "capacity %d" % self.capacity
        return "gcol.%s(%s -> %s, %s)" % (type(self).__name__, self.key_dtype, self.value_dtype, state)

    @property
    def capacity(self) -> int:
        """Slots (Map, open Multimap) or pool nodes (chained Multimap); host-side."""
        n = ctypes.c_size_t()
        self._check(self._c("capacity")(self._handle(), ctypes.byref(n)))
        return n.value

    def size(self, stream: StreamLike = None) -> int:
        """Number of stored pairs (keys, for a set). Waits for the stream.

        Parameters
        ----------
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library
            of the last input).

        Returns
        -------
        int

        Raises
        ------
        gcol.FullError, gcol.ReservedKeyError
            Latched by an earlier call; the size is the exception's ``result``.
        """
        n = ctypes.c_size_t()
        self._synced(self._c("size")(self._handle(), ctypes.byref(n), self._own_stream(stream)), n.value,
                     self._call_name("size"))
        return n.value

    def __len__(self) -> int:
        return self.size()

    def retrieve_all(self, like: Any = None, stream: StreamLike = None) -> Any:
        """Every stored pair, in no particular order. Waits for the stream.

        Parameters
        ----------
        like : {"cupy", "torch"} or array, optional
            The library of the results (default: that of the last input).
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library
            of the last input).
            The results come from that stream's pool.

        Returns
        -------
        keys, values : arrays of key_dtype and value_dtype

        Raises
        ------
        gcol.FullError, gcol.ReservedKeyError
            Latched by an earlier call; ``(keys, values)`` is the exception's
            ``result``.
        """
        lib = self._output_library(like)
        s = self._own_stream(stream)
        size = ctypes.c_size_t()
        size_status = raise_unless_latched(self._c("size")(self._handle(), ctypes.byref(size), s),
                                           self._call_name("size"))
        keys = lib.empty((max(size.value, 1),), self.key_dtype, None, s)  # the C call wants non-NULL outputs
        values = lib.empty((max(size.value, 1),), self.value_dtype, None, s)
        got = ctypes.c_size_t()
        status = self._c("retrieve_all")(self._handle(), typed(keys, self.key_dtype, "keys").ptr,
                                         typed(values, self.value_dtype, "values").ptr, ctypes.byref(got), s)
        result = (keys[:got.value], values[:got.value])
        self._synced(status or size_status, result, self._call_name("retrieve_all" if status else "size"))
        return result

    def clear(self, stream: StreamLike = None) -> None:
        """Remove every pair and clear latched errors (asynchronous).

        Parameters
        ----------
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library
            of the last input).
        """
        self._check(self._c("clear")(self._handle(), self._own_stream(stream)))

    def status(self, stream: StreamLike = None) -> None:
        """Wait for the stream; raise the latched error, if any.

        Parameters
        ----------
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library
            of the last input).

        Raises
        ------
        gcol.FullError
            A fixed-capacity container could not take every key.
        gcol.ReservedKeyError
            An input held a sentinel key.
        """
        self._check(self._c("status")(self._handle(), self._own_stream(stream)), self._call_name("status"))
