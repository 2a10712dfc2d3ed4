"""String columns between the host and the device: pyarrow string and binary
arrays (sliced, chunked, large) and lists of str to and from Arrow-style
``(offsets, chars)`` device arrays.

The host halves (host_columns, host_array) are NumPy and pyarrow only, so
they are tested without a GPU. A pyarrow array's buffers are those of the
array it was sliced from: its rows are offsets[array.offset : array.offset +
len + 1] and the chars those offsets name, so both are cut to the rows and
the offsets rebased to start at 0 (issue 39: the chars were not cut)."""
from typing import Any, List, Sequence, Tuple

from . import _arrays
from ._errors import InvalidArgumentError

LIKE = ("cupy", "torch")


def _is_large(typ):
    """Whether a pyarrow string/binary type has int64 offsets; refuses other types."""
    import pyarrow as pa
    if pa.types.is_large_string(typ) or pa.types.is_large_binary(typ):
        return True
    if pa.types.is_string(typ) or pa.types.is_binary(typ):
        return False
    raise InvalidArgumentError("a string, large_string, binary or large_binary array is needed, not %s" % typ)


def _chunk(array, large):
    """(offsets from 0, chars of these rows only) of one pyarrow array."""
    import numpy as np
    odt = np.int64 if large else np.int32
    n = len(array)
    if n == 0:  # its offsets buffer may be empty or absent
        return np.zeros(1, odt), np.zeros(0, np.uint8)
    bufs = array.buffers()
    off = np.frombuffer(bufs[1], dtype=odt)[array.offset:array.offset + n + 1]
    if bufs[2] is None:  # only empty strings
        return np.zeros(n + 1, odt), np.zeros(0, np.uint8)
    chars = np.frombuffer(bufs[2], dtype=np.uint8)[off[0]:off[-1]]
    return off - off[0], chars


def host_columns(array):
    """(offsets, chars) as NumPy arrays of a host pyarrow StringArray,
    LargeStringArray, BinaryArray, LargeBinaryArray or a ChunkedArray of
    one of them: offsets from 0, int32 (int64 for the large types, and for
    chunks holding 2 GiB or more of chars in all), chars (uint8) the bytes
    of these rows only. Slices (array.offset) are honoured; nulls are refused."""
    import numpy as np
    import pyarrow as pa
    if not isinstance(array, (pa.Array, pa.ChunkedArray)):
        raise InvalidArgumentError("a pyarrow Array or ChunkedArray is needed, not %s" % type(array).__name__)
    large = _is_large(array.type)
    if array.null_count:
        raise InvalidArgumentError("the array has %d nulls; fill or drop them first" % array.null_count)
    if isinstance(array, pa.Array):
        return _chunk(array, large)
    parts = [_chunk(c, large) for c in array.chunks]
    total = sum(len(chars) for _, chars in parts)
    odt = np.int64 if large or total >= 2**31 else np.int32
    offsets = np.zeros(len(array) + 1, odt)
    row = base = 0
    for off, chars in parts:  # each chunk's offsets from 0, shifted by the chars before it
        offsets[row + 1:row + len(off)] = off[1:].astype(odt) + base
        row, base = row + len(off) - 1, base + len(chars)
    chars = np.concatenate([c for _, c in parts]) if parts else np.zeros(0, np.uint8)
    return offsets, chars


def host_array(offsets, chars):
    """A pyarrow StringArray (int32 offsets) or LargeStringArray (int64) of
    host offsets and chars: the rows offsets names, with the offsets rebased
    to 0 and the chars cut to them. Offsets that decrease or leave chars,
    and chars that are not UTF-8, raise InvalidArgumentError."""
    import numpy as np
    import pyarrow as pa
    off = np.asarray(offsets)
    ch = np.asarray(chars).reshape(-1)
    if off.ndim != 1 or off.size < 1 or off.dtype not in (np.int32, np.int64):
        raise InvalidArgumentError("offsets must be a 1-D int32 or int64 array of n + 1 >= 1 entries")
    if ch.dtype.itemsize != 1:
        raise InvalidArgumentError("chars must hold uint8 or int8, not %s" % ch.dtype)
    first, last = int(off[0]), int(off[-1])
    if not 0 <= first <= last <= ch.size or (off.size > 1 and bool((np.diff(off) < 0).any())):
        raise InvalidArgumentError("offsets must be non-decreasing and within the %d chars" % ch.size)
    off = off - off[0]
    typ = pa.large_string() if off.dtype.itemsize == 8 else pa.string()
    arr = pa.Array.from_buffers(typ, off.size - 1, [None, pa.py_buffer(off.tobytes()),
                                                    pa.py_buffer(ch[first:last].view(np.uint8).tobytes())])
    try:
        arr.validate(full=True)  # UTF-8: a bad string fails here, not in a later to_pylist
    except pa.ArrowInvalid as e:
        raise InvalidArgumentError("the chars are not valid UTF-8 strings: %s" % e) from None
    return arr


# ---- device side ----------------------------------------------------------------
def strings_from_arrow(array: Any, like: Any = "cupy") -> Tuple[Any, Any]:
    """A device string column from a host pyarrow array.

    Parameters
    ----------
    array : pyarrow StringArray, LargeStringArray, BinaryArray, LargeBinaryArray or ChunkedArray
        Sliced arrays give their rows only (offsets from 0, chars cut to
        them); a ChunkedArray gives one column (int64 offsets once its chars
        reach 2 GiB).
    like : {"cupy", "torch"}
        The library of the results.

    Returns
    -------
    offsets : int32 (int64 for the large types) device array, n + 1 entries
    chars : uint8 device array

    Raises
    ------
    gcol.InvalidArgumentError
        Nulls, another array type, another ``like``.

    Examples
    --------
    >>> off, chars = gcol.strings_from_arrow(pyarrow.array(["a", "bb"]), like="torch")  # doctest: +SKIP
    >>> off  # doctest: +SKIP
    tensor([0, 1, 3], device='cuda:0', dtype=torch.int32)
    """
    _check_like(like)
    offsets, chars = host_columns(array)
    lib = _arrays.library(like)
    return lib.from_host(offsets), lib.from_host(chars)


def strings_from_list(strs: Sequence[str], like: Any = "cupy", large: bool = False) -> Tuple[Any, Any]:
    """A device string column from a list of str (UTF-8) or bytes.

    Parameters
    ----------
    strs : list of str or bytes
    like : {"cupy", "torch"}
        The library of the results.
    large : bool
        int64 offsets instead of int32.

    Returns
    -------
    offsets : int32 (int64 if large) device array, ``len(strs) + 1`` entries
    chars : uint8 device array

    Raises
    ------
    gcol.InvalidArgumentError
        Something other than a list of str or bytes, another ``like``.

    Examples
    --------
    >>> off, chars = gcol.strings_from_list(["a", "bb"], like="torch")  # doctest: +SKIP
    >>> gcol.strings_to_list(off, chars)  # doctest: +SKIP
    ['a', 'bb']
    """
    import numpy as np
    _check_like(like)
    if isinstance(strs, (str, bytes)) or not hasattr(strs, "__iter__"):
        raise InvalidArgumentError("strs must be a list of str or bytes, not %s" % type(strs).__name__)
    enc = []
    for s in strs:
        if not isinstance(s, (str, bytes, bytearray)):
            raise InvalidArgumentError("strs must hold str or bytes, not %s" % type(s).__name__)
        enc.append(s.encode() if isinstance(s, str) else bytes(s))
    off = np.zeros(len(enc) + 1, dtype=np.int64 if large else np.int32)
    np.cumsum([len(e) for e in enc], out=off[1:])
    chars = np.frombuffer(b"".join(enc), dtype=np.uint8)
    lib = _arrays.library(like)
    return lib.from_host(off), lib.from_host(chars)


def strings_to_arrow(offsets: Any, chars: Any) -> Any:
    """A host pyarrow array of a string column.

    Parameters
    ----------
    offsets : int32 or int64 array (CuPy, PyTorch, Numba or NumPy)
    chars : uint8 array of the same kinds

    Returns
    -------
    pyarrow.StringArray (int32 offsets) or pyarrow.LargeStringArray (int64)
        The column's rows only, offsets from 0.

    Raises
    ------
    gcol.InvalidArgumentError
        Other array types or dtypes, offsets that do not describe chars.

    Examples
    --------
    >>> import numpy as np
    >>> gcol.strings_to_arrow(np.array([0, 1, 3], np.int32), np.frombuffer(b"abb", np.uint8)).to_pylist()
    ['a', 'bb']
    """
    return host_array(_to_host(offsets, "offsets"), _to_host(chars, "chars"))


def strings_to_list(offsets: Any, chars: Any) -> List[str]:
    """A list of the str of a string column (UTF-8, errors replaced).

    Parameters
    ----------
    offsets : int32 or int64 array (CuPy, PyTorch, Numba or NumPy), n + 1 entries
    chars : uint8 array of the same kinds

    Returns
    -------
    list of str

    Raises
    ------
    gcol.InvalidArgumentError
        Other array types.

    Examples
    --------
    >>> import numpy as np
    >>> gcol.strings_to_list(np.array([0, 1, 3]), np.frombuffer(b"abb", np.uint8))
    ['a', 'bb']
    """
    off, ch = _to_host(offsets, "offsets"), _to_host(chars, "chars").tobytes()
    return [ch[off[i]:off[i + 1]].decode("utf-8", "replace") for i in range(len(off) - 1)]


def _check_like(like):
    if like not in LIKE:
        raise InvalidArgumentError("like must be 'cupy' or 'torch', not %r" % (like,))


def _to_host(a, what):
    """A NumPy copy of a PyTorch, CuPy or Numba array (a NumPy array as it is)."""
    import numpy as np
    module = type(a).__module__
    if module.startswith("torch"):
        return a.detach().cpu().numpy()
    if module.startswith("cupy"):
        return a.get()
    if hasattr(a, "copy_to_host"):  # Numba
        return a.copy_to_host()
    if isinstance(a, np.ndarray):
        return a
    raise InvalidArgumentError("%s must be a CuPy, PyTorch, Numba or NumPy array, not %s" % (what, type(a).__name__))
