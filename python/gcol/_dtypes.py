"""Element types: any dtype spelling to a canonical name and its gcol_type_t.

Accepted spellings: NumPy/CuPy dtypes and scalar types, PyTorch dtypes,
strings ("int64", "i8", "<i8"), and the builtins int (int64) and float
(float64). Only the gcol_type_t types map; others are refused.

"u128" (also "uint128"): 16-byte keys (GCOL_U128), a key type only. A
column of them is a C-contiguous (n, 2) uint64 or int64 device array, row i
= key i's (low, high) 64-bit words; returned keys come back as (n, 2)
uint64. Its sentinels (empty_key, erased_key) are 64-bit words: a key with
the sentinel in both words is reserved."""
import operator
import struct

from ._errors import InvalidArgumentError

TYPE_CODES = {"uint32": 0, "uint64": 1, "int32": 2, "int64": 3, "float32": 4, "float64": 5}  # gcol_type_t
KEY_TYPES = ("uint32", "int32", "uint64", "int64")
ITEM_SIZE = {"uint32": 4, "uint64": 8, "int32": 4, "int64": 8, "float32": 4, "float64": 8, "bool": 1}
# issue 25: 16-byte keys, as (n, 2) arrays of 64-bit words (see the top)
U128 = "u128"
TYPE_CODES[U128] = 6
KEY_TYPES += (U128,)
U128_WORDS = ("uint64", "int64")  # dtypes of the (n, 2) arrays

_ALIASES = {"i4": "int32", "u4": "uint32", "i8": "int64", "u8": "uint64", "f4": "float32",
            "f8": "float64", "int": "int64", "float": "float64", "double": "float64",
            "b1": "bool", "bool_": "bool"}
_STRUCT = {"float32": ("<f", "<I"), "float64": ("<d", "<Q")}


def dtype_name(dtype):
    """The canonical name ("int32", ...) of a dtype-like, or InvalidArgumentError."""
    if isinstance(dtype, str):
        text = dtype
    elif isinstance(dtype, type):
        text = dtype.__name__  # numpy.int32, int, float
    else:
        text = getattr(dtype, "name", None) or str(dtype)  # numpy dtype; torch.int32 prints so
    if text.startswith("torch."):
        text = text[len("torch."):]
    if len(text) == 3 and text[0] in "<|=":  # array-interface typestr, native order
        text = text[1:]
    name = _ALIASES.get(text, text)
    if name in (U128, "uint128"):
        return U128
    if name not in ITEM_SIZE:
        raise InvalidArgumentError("unsupported dtype %r: gcol takes int32, uint32, int64, uint64, "
                                   "float32 or float64" % (dtype,))
    return name


def type_code(dtype):
    """gcol_type_t of a value dtype."""
    name = dtype_name(dtype)
    if name == U128:
        raise InvalidArgumentError("u128 is a key type only: values are 4- or 8-byte types")
    if name not in TYPE_CODES:
        raise InvalidArgumentError("dtype %s has no gcol_type_t" % name)
    return TYPE_CODES[name]


def key_type_code(dtype):
    """gcol_type_t of a key dtype: 32- or 64-bit integers only."""
    name = dtype_name(dtype)
    if name not in KEY_TYPES:
        raise InvalidArgumentError("keys must be 32- or 64-bit integers or u128, not %s" % name)
    return TYPE_CODES[name]


class Bits(int):
    """A sentinel given as its bit pattern rather than its value: what copies
    and pickles pass, so that every float sentinel (a signalling NaN
    included, which a Python float would quiet) comes back bit for bit."""

    __slots__ = ()


def to_bits(value, name):
    """The bit pattern (as a uint64) of value stored as type name, for sentinels."""
    if isinstance(value, Bits):
        width = 64 if name == U128 else 8 * ITEM_SIZE[name]
        if not 0 <= value < 1 << width:
            raise InvalidArgumentError("bits 0x%x do not fit in %s" % (value, name))
        return int(value)
    if name == U128:
        name = "uint64"  # a u128 sentinel is one 64-bit word, used in both
    if name in _STRUCT:
        packed, unpacked = _STRUCT[name]
        return struct.unpack(unpacked, struct.pack(packed, float(value)))[0]
    bits = 8 * ITEM_SIZE[name]
    try:
        v = operator.index(value)
    except TypeError:
        raise InvalidArgumentError("%r is not an integer" % (value,)) from None
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if name.startswith("int") else (0, (1 << bits) - 1)
    if not lo <= v <= hi:
        raise InvalidArgumentError("%d does not fit in %s" % (v, name))
    return v & ((1 << bits) - 1)


def from_bits(bits, name):
    """The value of type name whose bit pattern is bits (the inverse of to_bits)."""
    if name == U128:
        name = "uint64"
    if name in _STRUCT:
        packed, unpacked = _STRUCT[name]
        return struct.unpack(packed, struct.pack(unpacked, bits))[0]
    width = 8 * ITEM_SIZE[name]
    bits &= (1 << width) - 1
    return bits - (1 << width) if name.startswith("int") and bits >> (width - 1) else bits
