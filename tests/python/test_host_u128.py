"""Host: the u128 key dtype's spellings and rules (issue 25); no GPU needed."""
import pytest

import gcol
from gcol import _dtypes


def test_u128_is_a_key_type_only():
    assert _dtypes.dtype_name("u128") == "u128" == _dtypes.dtype_name("uint128")
    assert _dtypes.key_type_code("u128") == 6  # GCOL_U128, appended to gcol_type_t
    with pytest.raises(gcol.InvalidArgumentError, match="key type only"):
        _dtypes.type_code("u128")
    with pytest.raises(gcol.InvalidArgumentError, match="key type only"):
        gcol.Map("int64", "u128", capacity=8)


def test_u128_sentinels_are_64_bit_words():
    assert _dtypes.to_bits(2**64 - 1, "u128") == 2**64 - 1
    assert _dtypes.from_bits(2**64 - 2, "u128") == 2**64 - 2
    with pytest.raises(gcol.InvalidArgumentError):
        _dtypes.to_bits(2**64, "u128")
