"""Host-only: reading device arrays (with fakes that need no GPU), refusing
host, strided and masked ones, DLPack capsules, and stream handles."""
import array
import ctypes

import pytest

import gcol
from gcol import _abi, _arrays

DEVICE_PTR = 0x7F0000000000  # never dereferenced: views only read pointers


class FakeDeviceArray:
    """Anything exposing __cuda_array_interface__ (as Numba does)."""

    def __init__(self, shape, typestr="<i8", strides=None, ptr=DEVICE_PTR, **extra):
        self.cai = dict(shape=shape, typestr=typestr, strides=strides, data=(ptr, False), version=3, **extra)

    @property
    def __cuda_array_interface__(self):
        return self.cai


def test_cuda_array_interface_is_read_without_copies():
    v = _arrays.view(FakeDeviceArray((4, 5), "<u4"))
    assert (v.ptr, v.n, v.dtype, v.shape) == (DEVICE_PTR, 20, "uint32", (4, 5))


def test_dense_explicit_strides_are_contiguous():
    assert _arrays.view(FakeDeviceArray((4, 5), "<f8", strides=(40, 8))).n == 20


@pytest.mark.parametrize("shape,strides", [((10,), (16,)), ((4, 5), (8, 32)), ((3, 4), (64, 8))])
def test_strided_arrays_are_refused(shape, strides):
    with pytest.raises(gcol.InvalidArgumentError, match="contiguous"):
        _arrays.view(FakeDeviceArray(shape, "<i8", strides=strides))


def test_masked_and_wrongly_typed_arrays_are_refused():
    with pytest.raises(gcol.InvalidArgumentError, match="masked"):
        _arrays.view(FakeDeviceArray((3,), mask=object()))
    with pytest.raises(gcol.InvalidArgumentError, match="unsupported dtype"):
        _arrays.view(FakeDeviceArray((3,), "<i2"))


def test_the_producers_stream_is_the_default():
    v = _arrays.view(FakeDeviceArray((3,), stream=2))
    assert v.lib.stream(v) == 2
    v = _arrays.view(FakeDeviceArray((3,)))
    assert v.lib.stream(v) == 0


def test_empty_arrays_may_have_a_null_pointer():
    v = _arrays.view(FakeDeviceArray((0,), ptr=0))
    assert (v.ptr, v.n) == (0, 0)


@pytest.mark.parametrize("host", [array.array("q", [1, 2, 3]), b"12345678", bytearray(8)])
def test_host_buffers_are_refused(host):
    with pytest.raises(gcol.InvalidArgumentError, match="host array"):
        _arrays.view(host)


def test_numpy_arrays_are_refused_as_host_arrays():
    np = pytest.importorskip("numpy")
    with pytest.raises(gcol.InvalidArgumentError, match="host array"):
        _arrays.view(np.arange(4))


def test_a_numpy_dlpack_capsule_is_seen_on_the_cpu_and_refused():
    np = pytest.importorskip("numpy")
    a = np.arange(4)
    if not hasattr(a, "__dlpack__"):
        pytest.skip("numpy without DLPack")
    with pytest.raises(gcol.InvalidArgumentError, match="host array"):
        _arrays.view(a.__dlpack__())


def test_non_arrays_are_refused():
    for obj in (None, 3, "keys", [1, 2]):
        with pytest.raises(gcol.InvalidArgumentError, match="expected a device array"):
            _arrays.view(obj)


# ---- DLPack capsules made here, as a producer would ----------------------------
_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype = ctypes.py_object
_new_capsule.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)


def dlpack_capsule(shape, device_type=2, code=0, bits=64, strides=None, data=DEVICE_PTR, byte_offset=0):
    """(capsule, deleted, keep): deleted gets the address when gcol releases it."""
    deleted = []
    shape_c = (ctypes.c_int64 * len(shape))(*shape)
    strides_c = (ctypes.c_int64 * len(shape))(*strides) if strides else None
    managed = _abi.DLManagedTensor()
    t = managed.dl_tensor
    t.data, t.ndim, t.byte_offset = data, len(shape), byte_offset
    t.device.device_type, t.dtype.code, t.dtype.bits, t.dtype.lanes = device_type, code, bits, 1
    t.shape = ctypes.cast(shape_c, ctypes.POINTER(ctypes.c_int64))
    if strides_c is not None:
        t.strides = ctypes.cast(strides_c, ctypes.POINTER(ctypes.c_int64))
    deleter = _abi.DL_DELETER(deleted.append)
    managed.deleter = deleter
    capsule = _new_capsule(ctypes.addressof(managed), b"dltensor", None)
    return capsule, deleted, (shape_c, strides_c, managed, deleter)


def test_a_cuda_dlpack_capsule_is_read_and_released():
    capsule, deleted, keep = dlpack_capsule((2, 3), code=2, bits=32, byte_offset=64)
    v = _arrays.view(capsule)
    assert (v.ptr, v.n, v.dtype, v.shape) == (DEVICE_PTR + 64, 6, "float32", (2, 3))
    assert deleted == []
    del v
    assert deleted == [ctypes.addressof(keep[2])]


def test_a_dlpack_capsule_is_consumed_once():
    capsule, _, keep = dlpack_capsule((4,))
    _arrays.view(capsule)
    with pytest.raises(gcol.InvalidArgumentError, match="consumed once"):
        _arrays.view(capsule)


def test_dlpack_host_strided_and_unsupported_are_refused():
    cases = [(dict(device_type=1), "host array"), (dict(strides=(2,)), "contiguous"),
             (dict(code=5, bits=64), "unsupported DLPack dtype")]  # code 5: complex
    for kwargs, message in cases:
        capsule, deleted, keep = dlpack_capsule((4,), **kwargs)
        with pytest.raises(gcol.InvalidArgumentError, match=message):
            _arrays.view(capsule)
        assert len(deleted) == 1  # released even when refused


# ---- streams -----------------------------------------------------------------
class TorchLikeStream:
    cuda_stream = 7


class CupyLikeStream:
    ptr = 9


class CudaPythonStream:
    def __cuda_stream__(self):
        return (0, 11)


class NumbaLikeStream:
    def __init__(self, value):
        self.handle = ctypes.c_void_p(value)


@pytest.mark.parametrize("stream,handle", [(5, 5), (TorchLikeStream(), 7), (CupyLikeStream(), 9),
                                           (CudaPythonStream(), 11), (NumbaLikeStream(13), 13),
                                           (NumbaLikeStream(None), 0)])
def test_stream_objects_give_their_handles(stream, handle):
    assert _arrays.stream_handle(stream) == handle


@pytest.mark.parametrize("bad", ["0", 1.0, True, object()])
def test_other_streams_are_refused(bad):
    with pytest.raises(gcol.InvalidArgumentError, match="stream"):
        _arrays.stream_handle(bad)
