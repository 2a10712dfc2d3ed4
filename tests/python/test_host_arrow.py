"""Host-only: pyarrow string columns to and from (offsets, chars) (issue 39):
slices (array.offset) give their own rows with offsets from 0 and only their
chars, ChunkedArrays one column, large_string / binary types their offsets,
nulls are refused; the way back rebases offsets and cuts the chars."""
import pytest

np = pytest.importorskip("numpy")
pa = pytest.importorskip("pyarrow")
pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

import gcol  # noqa: E402
from gcol import _arrow  # noqa: E402

TYPES = {"string": pa.string(), "large_string": pa.large_string(), "binary": pa.binary(),
         "large_binary": pa.large_binary()}
words = st.lists(st.text(max_size=12), max_size=40)


def as_bytes(strs):
    return [s.encode() for s in strs]


def rows(offsets, chars):
    return [chars[offsets[i]:offsets[i + 1]].tobytes() for i in range(len(offsets) - 1)]


def check_column(offsets, chars, want, large):
    assert offsets.dtype == (np.int64 if large else np.int32)
    assert offsets[0] == 0 and offsets[-1] == chars.size  # rebased, chars cut to the rows
    assert rows(offsets, chars) == want


@pytest.mark.parametrize("kind", sorted(TYPES))
@given(strs=words, data=st.data())
def test_a_slice_gives_its_rows(kind, strs, data):
    arr = pa.array(as_bytes(strs) if "binary" in kind else strs, type=TYPES[kind])
    start = data.draw(st.integers(0, len(strs)))
    stop = data.draw(st.integers(start, len(strs)))
    offsets, chars = _arrow.host_columns(arr[start:stop])
    check_column(offsets, chars, as_bytes(strs[start:stop]), kind.startswith("large"))


@pytest.mark.parametrize("kind", ["string", "large_string"])
@given(chunks=st.lists(words, max_size=5), data=st.data())
def test_a_chunked_array_of_slices_is_one_column(kind, chunks, data):
    pieces = []
    for c in chunks:
        start = data.draw(st.integers(0, len(c)))
        pieces.append(pa.array(c, type=TYPES[kind])[start:])
    arr = pa.chunked_array(pieces, type=TYPES[kind])
    offsets, chars = _arrow.host_columns(arr)
    check_column(offsets, chars, as_bytes([s for p in pieces for s in p.to_pylist()]), kind == "large_string")


@pytest.mark.parametrize("kind", ["string", "large_string"])
@given(strs=words, data=st.data())
def test_the_round_trip_of_a_slice(kind, strs, data):
    """Issue 39: strings_to_arrow(strings_from_arrow(arr[a:b])) on the host halves."""
    arr = pa.array(strs, type=TYPES[kind])
    start = data.draw(st.integers(0, len(strs)))
    stop = data.draw(st.integers(start, len(strs)))
    back = _arrow.host_array(*_arrow.host_columns(arr[start:stop]))
    assert back.type == TYPES[kind] and back.to_pylist() == strs[start:stop]


@given(strs=words, data=st.data())
def test_the_way_back_rebases_offsets_and_cuts_chars(strs, data):
    """A device column's offsets need not start at 0 (a slice of the offsets array)."""
    offsets, chars = _arrow.host_columns(pa.array(strs, pa.string()))
    start = data.draw(st.integers(0, len(strs)))
    stop = data.draw(st.integers(start, len(strs)))
    back = gcol.strings_to_arrow(offsets[start:stop + 1], chars)
    assert back.to_pylist() == strs[start:stop]
    assert gcol.strings_to_list(offsets[start:stop + 1], chars) == strs[start:stop]


def test_the_issue_slice():
    strs = ["w%d" % i + "é" * (i % 7) for i in range(6000)]
    arr = pa.array(strs)[1234:4321]
    assert _arrow.host_array(*_arrow.host_columns(arr)).to_pylist() == strs[1234:4321]


def test_empty_arrays_and_empty_strings():
    for arr in (pa.array([], pa.string()), pa.array(["", ""])[1:], pa.chunked_array([], pa.large_string()),
                pa.array(["a", "b"])[2:]):
        offsets, chars = _arrow.host_columns(arr)
        assert offsets.tolist() == [0] * (len(arr) + 1) and chars.size == 0


def test_nulls_and_other_types_are_refused():
    with pytest.raises(gcol.InvalidArgumentError, match="1 nulls"):
        _arrow.host_columns(pa.array(["a", None, "b"])[1:])
    _arrow.host_columns(pa.array(["a", None, "b"])[2:])  # the slice holds no null
    with pytest.raises(gcol.InvalidArgumentError, match="nulls"):
        _arrow.host_columns(pa.chunked_array([pa.array(["a"]), pa.array([None], pa.string())]))
    with pytest.raises(gcol.InvalidArgumentError, match="string"):
        _arrow.host_columns(pa.array([1, 2]))
    with pytest.raises(gcol.InvalidArgumentError, match="pyarrow"):
        _arrow.host_columns(["a", "b"])
    with pytest.raises(gcol.InvalidArgumentError, match="like"):
        gcol.strings_from_arrow(pa.array(["a"]), like="numpy")


def test_bad_columns_are_refused_on_the_way_back():
    chars = np.frombuffer(b"abcdef", np.uint8)
    for offsets in ([0, 3, 2], [0, 7], [-1, 2], []):
        with pytest.raises(gcol.InvalidArgumentError, match="offsets"):
            gcol.strings_to_arrow(np.array(offsets, np.int32), chars)
    with pytest.raises(gcol.InvalidArgumentError, match="UTF-8"):
        gcol.strings_to_arrow(np.array([0, 1], np.int32), np.frombuffer(b"\xff", np.uint8))
    with pytest.raises(gcol.InvalidArgumentError, match="chars"):
        gcol.strings_to_arrow(np.array([0, 1], np.int32), np.zeros(1, np.int32))
    with pytest.raises(gcol.InvalidArgumentError, match="offsets must be"):
        gcol.strings_to_arrow([0, 1], chars)
