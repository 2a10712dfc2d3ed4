"""Copies and pickles of containers: never two owners of one native handle.

Every gcol object owns one C handle and destroys it once. ``copy.copy`` and
``copy.deepcopy`` therefore make a new container (a new handle) holding the
same contents, on the device, through ``copy()``; an object that cannot be
copied (a Graph) raises TypeError instead. Pickling goes through the host:
the state is the container's settings (the arguments that rebuild an empty
twin) and its contents as NumPy arrays or bytes; unpickling builds the twin
on the current device and inserts them. So both need a GPU, and pickles
need NumPy and CuPy or PyTorch (the arrays travel through them).

A container's class supplies:
  _settings()       the keyword arguments that build an empty twin
  _contents(stream) its contents as device arrays (or bytes, for sketches)
  _fill(contents, stream)  insert such contents into an empty twin
"""
import sys
from typing import TypeVar

from . import _arrays
from ._typing import StreamLike

_P = TypeVar("_P")

_FORMAT = 1  # of the pickled state; a later package reads older formats


def to_host(a):
    """A NumPy copy of a device array of CuPy, PyTorch or Numba."""
    if isinstance(a, (bytes, bytearray)):
        return bytes(a)
    if hasattr(a, "cpu") and hasattr(a, "numpy"):  # PyTorch
        name = str(a.dtype).replace("torch.", "")
        if name in ("uint32", "uint64"):  # numpy() may not take them: moved as signed, viewed back
            signed = getattr(sys.modules["torch"], name[1:])
            return a.view(signed).cpu().numpy().view(name)
        return a.cpu().numpy()
    if hasattr(a, "get") and a.__class__.__module__.startswith("cupy"):
        return a.get()
    if hasattr(a, "copy_to_host"):  # Numba
        return a.copy_to_host()
    raise TypeError("cannot bring a %s to the host" % type(a).__name__)


def to_device(a):
    """A device copy of a NumPy array, in CuPy or PyTorch (whichever is in use)."""
    if isinstance(a, bytes):
        return a
    import numpy as np
    return _arrays.fallback_library().from_host(np.ascontiguousarray(a))


def build_filled(cls, settings, contents, stream=None):
    """A new cls(**settings) holding contents() (see _fill); closed again, and
    the error raised, when filling fails: no half-made container escapes.
    contents is called once the new container exists (so a copy without a
    device fails there, before the original is read)."""
    obj = cls(stream=stream, **settings)
    try:
        obj._fill(contents(), stream)
    except BaseException:
        obj.close()
        raise
    return obj


def restore(name, fmt, settings, contents):
    """Unpickle: a container of class gcol.<name> built from settings, filled with contents."""
    if fmt != _FORMAT:
        raise ValueError("a pickled gcol.%s of format %r; this gcol (%s) reads format %d"
                         % (name, fmt, sys.modules["gcol"].__version__, _FORMAT))
    cls = getattr(sys.modules["gcol"], name)
    return build_filled(cls, settings, lambda: tuple(to_device(c) for c in contents))


class Persistent:
    """copy(), copy.copy, copy.deepcopy and pickling from _settings /
    _contents / _fill (see the module's docstring)."""

    def copy(self: _P, stream: StreamLike = None) -> _P:
        """A new container with this one's settings and contents, made on the device.

        The contents are read back and inserted (this waits for the stream); the
        copy owns its own memory and handle. copy.copy and copy.deepcopy do the same.

        Parameters
        ----------
        stream : int or stream object, optional
            The stream to run on (default: the current stream of the library of the
            last input).

        Returns
        -------
        a container of this one's type

        Raises
        ------
        gcol.InvalidArgumentError
            A closed container.
        """
        self._handle()  # a closed container raises here
        return build_filled(type(self), self._settings(), lambda: self._contents(stream), stream)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        self._handle()
        contents = tuple(to_host(c) for c in self._contents(None))
        return (restore, (type(self).__name__, _FORMAT, self._settings(), contents))
