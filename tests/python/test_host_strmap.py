"""gcol.StringMap without a GPU: the ctypes structs match the C library's,
and bad arguments are refused before any device work."""
import ctypes

import pytest

import gcol
from gcol import _abi, _strmap


def test_config_struct_matches_the_library():
    f = _strmap._bind(gcol._lib.functions())
    cfg = f.strmap_config_default(1)  # GCOL_U64
    assert cfg.size == ctypes.sizeof(_abi.StrmapConfig)
    assert cfg.growable == 1 and cfg.capacity == 1024 and cfg.empty_value == 2**64 - 1
    assert ctypes.sizeof(_abi.Strings) == 40


def test_refusals_before_the_device():
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.StringMap("float16")
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.StringMap("int32", capacity=-1)
    with pytest.raises(gcol.InvalidArgumentError):
        _strmap._chars_ptr([1, 2, 3])
