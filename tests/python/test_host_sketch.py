"""Host-only: gcol.BloomFilter / HyperLogLog argument checks, the FPR
formula, malformed sketch bytes, and NoDeviceError without a GPU."""
import ctypes

import pytest

import gcol
from conftest import HAVE_GPU
from gcol import _sketch

no_gpu_only = pytest.mark.skipif(HAVE_GPU, reason="checks the behaviour without a GPU")


def test_config_structs_match_the_c_defaults():
    f = _sketch._sketch_functions()
    b = f.bloom_config_default(1)
    assert b.header.size == ctypes.sizeof(_sketch.BloomConfig) and b.header.magic == 0x6C6F6367
    assert b.key_type == 1 and b.size_bytes == 0 and b.target_fpr == 0.01
    h = f.hll_config_default()
    assert h.header.size == ctypes.sizeof(_sketch.HllConfig) and h.precision == 13


def test_expected_fpr_formula():
    size = 1 << 20
    assert 0.0095 < _sketch.expected_fpr(size, int(size * 8 / 10.5)) < 0.0105
    assert _sketch.expected_fpr(size, 0) == 0.0
    with pytest.raises(gcol.InvalidArgumentError):
        _sketch.expected_fpr(0, 10)


def test_bad_arguments_come_before_the_device():
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.BloomFilter("uint64")  # neither size_bytes nor expected_keys
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.BloomFilter("uint64", size_bytes=1 << 20, expected_keys=10)
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


@no_gpu_only
def test_sketches_without_a_gpu_raise_no_device():
    with pytest.raises(gcol.NoDeviceError):
        gcol.BloomFilter("uint64", size_bytes=1024)
    with pytest.raises(gcol.NoDeviceError):
        gcol.HyperLogLog(12)
