"""Host-only: gcol.BloomFilter / HyperLogLog argument checks, the FPR
formula, malformed sketch bytes, and NoDeviceError without a GPU."""
import ctypes

import pytest

import gcol
from conftest import HAVE_GPU
from gcol import _abi, _sketch

no_gpu_only = pytest.mark.skipif(HAVE_GPU, reason="checks the behaviour without a GPU")


def test_config_structs_match_the_c_defaults():
    f = _sketch._sketch_functions()
    b = f.bloom_config_default(1)
    assert b.header.size == ctypes.sizeof(_abi.BloomConfig) and b.header.magic == 0x6C6F6367
    assert b.key_type == 1 and b.size_bytes == 0 and b.target_fpr == 0.01
    h = f.hll_config_default()
    assert h.header.size == ctypes.sizeof(_abi.HllConfig) and h.precision == 13


def test_expected_fpr_formula():
    size = 1 << 20
    assert 0.0095 < _sketch.expected_fpr(size, int(size * 8 / 10.5)) < 0.0105
    assert _sketch.expected_fpr(size, 0) == 0.0
    with pytest.raises(gcol.InvalidArgumentError):
        _sketch.expected_fpr(0, 10)


def test_bloom_filter_takes_exactly_one_size():
    for kwargs in ({}, {"size_bytes": 1 << 20, "expected_keys": 10}):
        with pytest.raises(TypeError, match="exactly one of size_bytes"):
            gcol.BloomFilter("uint64", **kwargs)
    with pytest.raises(TypeError, match="neither"):
        gcol.BloomFilter()


def test_bad_arguments_come_before_the_device():
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.BloomFilter("float32", size_bytes=1024)
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.BloomFilter("uint64", size_bytes=1 << 41)
    for p in (3, 19, "x"):
        with pytest.raises(gcol.InvalidArgumentError):
            gcol.HyperLogLog(p)


def test_malformed_bytes_are_refused():
    for data in (b"", b"GHLL", b"XXXX" + bytes(12 + 16)):
        with pytest.raises(gcol.InvalidArgumentError):
            gcol.HyperLogLog.from_bytes(data)
    header = b"GBLM" + bytes([1, 8, 0, 0]) + (7).to_bytes(8, "little")
    for data in (b"", b"GBLM", b"XXXX" + bytes(28 + 32), header + (0).to_bytes(8, "little") + bytes(8)):
        with pytest.raises(gcol.InvalidArgumentError):
            gcol.BloomFilter.from_bytes(data)


def test_bloom_export_calls_check_their_arguments_first():
    f = _sketch._sketch_functions()
    n = ctypes.c_size_t()
    buf = ctypes.create_string_buffer(64)
    assert f.bloom_export_size(None, ctypes.byref(n)) == gcol.Status.INVALID_ARGUMENT
    assert f.bloom_export(None, buf, 64, ctypes.byref(n), 0) == gcol.Status.INVALID_ARGUMENT
    assert f.bloom_import(None, buf, 64, 0) == gcol.Status.INVALID_ARGUMENT
    assert b"gcol_bloom_import" in f.last_error_message()


@no_gpu_only
def test_sketches_without_a_gpu_raise_no_device():
    with pytest.raises(gcol.NoDeviceError):
        gcol.BloomFilter("uint64", size_bytes=1024)
    with pytest.raises(gcol.NoDeviceError):
        gcol.HyperLogLog(12)
