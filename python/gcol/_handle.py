"""What Map, Multimap and Graph share: the C handle and its destroy, status
checks, and the stream and array plumbing of every call."""
import operator
from typing import TypeVar

from . import _arrays, _dtypes, _lib
from ._errors import InvalidArgumentError, Status

_H = TypeVar("_H", bound="Handle")

_LATCHED = (Status.FULL, Status.RESERVED_KEY)


class Handle:
    _destroy_name = None  # the C destroy function, without "gcol_"

    def __init__(self):
        self._h = None
        self._f = _lib.functions()
        self._last_lib = None  # Library of the last input: outputs of array-less calls
        self._stream_ref = None  # the last stream object: alive until the C side is done with it

    # ---- lifetime: destroy frees on the stream of the last call -------------
    def close(self) -> None:
        """Free the device memory now (also done when the object is collected).

        Closing twice is harmless; any other call on a closed object raises
        gcol.InvalidArgumentError.
        """
        if self._h is not None:
            getattr(self._f, self._destroy_name)(self._h)
            self._h = None
            self._stream_ref = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may be gone already
            pass

    def __enter__(self: _H) -> _H:
        return self

    # ---- one owner per handle: copies and pickles ----------------------------
    # Containers override these (_persist.Persistent: a new handle with the same
    # contents); anything else refuses, since a copy sharing self._h would
    # destroy it twice.
    def __copy__(self):
        raise TypeError("a gcol.%s owns one native handle and cannot be copied (the copy would free it twice); "
                        "build another from the same inputs" % type(self).__name__)

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __reduce__(self):
        raise TypeError("a gcol.%s cannot be pickled (it owns device memory through a native handle); "
                        "build another from the same inputs" % type(self).__name__)

    def __exit__(self, *exc):
        self.close()

    # ---- per call ------------------------------------------------------------
    def _check(self, status, latched_by=None):
        """Raise the error of a C call's status; latched_by: the C call's name
        when it returns device-latched errors (status, size, retrieve_all)."""
        if status:
            raise _lib.error(status, latched_by)

    def _handle(self):
        if self._h is None:
            raise InvalidArgumentError("%s is closed" % type(self).__name__)
        return self._h

    def _stream(self, stream, view):
        """The cudaStream_t for a call on view: the given one, else the current
        stream of the view's library."""
        if stream is None:
            stream = view.lib.stream(view)
        self._stream_ref, self._last_lib = stream, view.lib
        return stream if stream.__class__ is int else _arrays.stream_handle(stream)

    def _own_stream(self, stream):
        """The cudaStream_t for a call without input arrays: the current stream
        of the library last used with this object (0 if none yet)."""
        if stream is None:
            stream = self._last_lib.default_stream() if self._last_lib is not None else 0
        self._stream_ref = stream
        return stream if stream.__class__ is int else _arrays.stream_handle(stream)

    def _output_library(self, like):
        if like is None:
            return self._last_lib or _arrays.fallback_library()
        if isinstance(like, str):
            return _arrays.library(like)
        return _arrays.view(like).lib

    def _synced(self, status, result, call):
        """A synchronizing call's status: a latched FULL / RESERVED_KEY is raised
        with the call's result attached (as .result), other errors plainly."""
        if status:
            err = _lib.error(status, call)
            if status in _LATCHED:
                err.result = result
            raise err


def raise_unless_latched(status, call):
    """status if it is 0 or a latched FULL / RESERVED_KEY (to raise after the
    call's result is made), else raise it now."""
    if status and status not in _LATCHED:
        raise _lib.error(status, call)
    return status


def typed(obj, dtype, what, n=None):
    """The View of obj, checked to hold dtype (and n elements when given).
    u128: an (n, 2) array of 64-bit words, viewed as n 16-byte keys."""
    v = _arrays.view(obj)
    if dtype == _dtypes.U128:
        if v.dtype not in _dtypes.U128_WORDS or len(v.shape) != 2 or v.shape[1] != 2:
            raise InvalidArgumentError("%s must be an (n, 2) uint64 or int64 array of u128 keys (low, high words), "
                                       "not %s of shape %s" % (what, v.dtype, tuple(v.shape)))
        v = _arrays.View(v.ptr, v.shape[0], dtype, (v.shape[0],), v.lib, v.obj, v.stream_hint)
    if v.dtype != dtype:
        raise InvalidArgumentError("%s must be %s, not %s" % (what, dtype, v.dtype))
    if n is not None and v.n != n:
        raise InvalidArgumentError("%s has %d elements, the keys %d" % (what, v.n, n))
    return v


def non_negative(value, what):
    """A non-negative Python int."""
    try:
        n = operator.index(value)
    except TypeError:
        raise InvalidArgumentError("%s must be an integer, not %r" % (what, value)) from None
    if n < 0:
        raise InvalidArgumentError("%s must be >= 0, not %d" % (what, n))
    return n
