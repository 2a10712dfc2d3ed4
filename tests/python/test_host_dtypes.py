"""Host-only: dtype spellings to gcol_type_t, and sentinel bit patterns."""
import math

import pytest

import gcol
from gcol import _dtypes

# gcol_type_t: GCOL_U32, GCOL_U64, GCOL_I32, GCOL_I64, GCOL_F32, GCOL_F64
CODES = {"uint32": 0, "uint64": 1, "int32": 2, "int64": 3, "float32": 4, "float64": 5}


@pytest.mark.parametrize("spelling,name", [
    ("int32", "int32"), ("<i4", "int32"), ("i4", "int32"), ("uint32", "uint32"), ("|u4", "uint32"),
    ("int64", "int64"), ("=i8", "int64"), (int, "int64"), ("uint64", "uint64"), ("u8", "uint64"),
    ("float32", "float32"), ("<f4", "float32"), ("float64", "float64"), (float, "float64"),
    ("double", "float64"), ("torch.int64", "int64"), ("torch.float32", "float32")])
def test_spellings(spelling, name):
    assert _dtypes.dtype_name(spelling) == name
    assert _dtypes.type_code(spelling) == CODES[name]


def test_numpy_dtypes_and_scalar_types():
    np = pytest.importorskip("numpy")
    for name, code in CODES.items():
        assert _dtypes.type_code(np.dtype(name)) == code
        assert _dtypes.type_code(getattr(np, name)) == code


@pytest.mark.parametrize("bad", ["int16", "float16", ">i8", "complex64", "uint8", object])
def test_unsupported_dtypes_are_refused(bad):
    with pytest.raises(gcol.InvalidArgumentError):
        _dtypes.type_code(bad)


@pytest.mark.parametrize("value_only", ["float32", "float64"])
def test_keys_must_be_integers(value_only):
    with pytest.raises(gcol.InvalidArgumentError, match="keys"):
        _dtypes.key_type_code(value_only)
    assert _dtypes.type_code(value_only) == CODES[value_only]


@pytest.mark.parametrize("value,name,bits", [
    (-1, "int64", 2**64 - 1), (-2, "int32", 2**32 - 2), (7, "uint32", 7), (2**64 - 1, "uint64", 2**64 - 1),
    (1.0, "float32", 0x3F800000), (-2.0, "float64", 0xC000000000000000)])
def test_sentinel_bits_round_trip(value, name, bits):
    assert _dtypes.to_bits(value, name) == bits
    assert _dtypes.from_bits(bits, name) == value


def test_nan_sentinel_and_range_checks():
    assert math.isnan(_dtypes.from_bits(_dtypes.to_bits(float("nan"), "float32"), "float32"))
    for value, name in ((2**31, "int32"), (-1, "uint64"), (2**32, "uint32"), (1.5, "int64")):
        with pytest.raises(gcol.InvalidArgumentError):
            _dtypes.to_bits(value, name)
