"""Host-only: statuses become GcolError subclasses; argument errors come
before the device check; without a GPU, creation raises NoDeviceError."""
import pytest

import gcol
from conftest import HAVE_GPU
from test_host_arrays import FakeDeviceArray

no_gpu_only = pytest.mark.skipif(HAVE_GPU, reason="checks the behaviour without a GPU")


def test_every_status_has_its_exception():
    pairs = {gcol.InvalidArgumentError: 1, gcol.OutOfMemoryError: 2, gcol.NoDeviceError: 3,
             gcol.CudaError: 4, gcol.FullError: 5, gcol.ReservedKeyError: 6, gcol.NcclError: 7}
    for cls, status in pairs.items():
        assert issubclass(cls, gcol.GcolError) and cls.status == status == gcol.Status(status)
    assert issubclass(gcol.InvalidArgumentError, ValueError)
    assert issubclass(gcol.OutOfMemoryError, MemoryError)


@no_gpu_only
def test_map_without_a_gpu_raises_no_device():
    with pytest.raises(gcol.NoDeviceError) as info:
        gcol.Map("int64", "float64", capacity=1000)
    assert info.value.status == gcol.Status.NO_DEVICE
    assert "GCOL_ERROR_NO_DEVICE" in str(info.value)
    assert info.value.cuda_error != 0


@no_gpu_only
def test_multimap_and_graph_without_a_gpu_raise_no_device():
    with pytest.raises(gcol.NoDeviceError):
        gcol.Multimap("uint32", "uint32", capacity=10, engine="chained")
    with pytest.raises(gcol.NoDeviceError):
        gcol.Graph.grid(FakeDeviceArray((4, 4), "<f4"), connectivity=26)


def test_the_c_librarys_argument_checks_come_first():
    with pytest.raises(gcol.InvalidArgumentError) as info:
        gcol.Map("int64", "int64", capacity=0)  # refused by gcol_map_create itself
    assert "GCOL_ERROR_INVALID_ARGUMENT" in str(info.value)
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.Map("int32", "int32", capacity=10, max_load_factor=1.5)
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.Map("int64", "int64", capacity=10, growable=True, growth_factor=3)
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.Multimap("int64", "int64", capacity=10, engine="open", num_buckets=5)
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.Graph.grid(FakeDeviceArray((4, 4), "<f4"), connectivity=7)


def test_python_side_argument_checks():
    with pytest.raises(gcol.InvalidArgumentError, match="keys must be"):
        gcol.Map("float32", "int32", capacity=10)
    with pytest.raises(gcol.InvalidArgumentError, match="capacity"):
        gcol.Map("int32", "int32", capacity=-1)
    with pytest.raises(gcol.InvalidArgumentError, match="engine"):
        gcol.Multimap("int32", "int32", capacity=10, engine="robin_hood")
    with pytest.raises(gcol.InvalidArgumentError, match="does not fit"):
        gcol.Map("int32", "int32", capacity=10, empty_key=2**40)
    with pytest.raises(gcol.InvalidArgumentError, match="op must be"):
        gcol._map.op_code("mul")
    assert [gcol._map.op_code(op) for op in (gcol.ADD, "min", "MAX", 0)] == [0, 1, 2, 0]


def test_graph_inputs_are_checked_before_any_device_work():
    with pytest.raises(gcol.InvalidArgumentError, match="float32"):
        gcol.Graph.grid(FakeDeviceArray((4, 4), "<f8"))
    with pytest.raises(gcol.InvalidArgumentError, match="shape"):
        gcol.Graph.grid(FakeDeviceArray((16,), "<f4"))
    with pytest.raises(gcol.InvalidArgumentError, match="contiguous"):
        gcol.Graph.grid(FakeDeviceArray((4, 4), "<f4", strides=(32, 4)))
    with pytest.raises(gcol.InvalidArgumentError, match="host array"):
        gcol.Graph.csr(bytearray(8), FakeDeviceArray((0,), "<u4"), FakeDeviceArray((0,), "<f4"))
    with pytest.raises(gcol.InvalidArgumentError, match="vertex ids"):
        gcol.Graph.csr(FakeDeviceArray((3,), "<i8"), FakeDeviceArray((0,), "<u4"),
                       FakeDeviceArray((0,), "<f4"))


def test_typed_checks_dtype_and_length():
    from gcol._handle import typed
    with pytest.raises(gcol.InvalidArgumentError, match="keys must be int64, not int32"):
        typed(FakeDeviceArray((3,), "<i4"), "int64", "keys")
    with pytest.raises(gcol.InvalidArgumentError, match="values has 4 elements, the keys 3"):
        typed(FakeDeviceArray((4,), "<i8"), "int64", "values", 3)


# ---- issue 22: gcol_last_error_message reaches every exception -------------
def _raised(fn, cls=gcol.InvalidArgumentError):
    with pytest.raises(cls) as info:
        fn()
    err = info.value
    assert err.message and err.message in str(err), (err.message, str(err))
    return err


def test_config_refusals_carry_the_c_message():
    err = _raised(lambda: gcol.Map("int64", "int64", capacity=0))
    assert err.message.startswith("gcol_map_create: ") and "capacity" in err.message
    err = _raised(lambda: gcol.Map("int32", "int32", capacity=10, max_load_factor=1.5))
    assert err.message.startswith("gcol_map_create: ") and "max_load_factor 1.5" in err.message
    err = _raised(lambda: gcol.Multimap("int64", "int64", capacity=10, engine="open", num_buckets=5))
    assert err.message.startswith("gcol_multimap_create: ") and "num_buckets" in err.message
    err = _raised(lambda: gcol.Map("int64", "int64", capacity=10, growable=True, growth_factor=3))
    assert err.message.startswith("gcol_map_create: ") and "growth_factor" in err.message


def test_null_pointers_and_foreign_configs_carry_the_c_message():
    import ctypes
    from gcol import _lib
    f = _lib.functions()
    err = _lib.error(f.map_insert(None, None, None, 5, None, 0))
    assert isinstance(err, gcol.InvalidArgumentError)
    assert err.message.startswith("gcol_map_insert: ") and "NULL" in err.message
    handle = ctypes.c_void_p()
    err = _lib.error(f.map_create(ctypes.byref(handle), None, 0))
    assert err.message.startswith("gcol_map_create: ") and "cfg" in err.message and "NULL" in err.message
    cfg = f.map_config_default(3, 3)
    cfg.magic = 0  # not made by gcol_map_config_default
    err = _lib.error(f.map_create(ctypes.byref(handle), ctypes.byref(cfg), 0))
    assert "magic" in err.message and handle.value is None
    mm = f.multimap_config_default(3, 3, 0)
    mm.version = 99 * 10000  # another major version
    err = _lib.error(f.multimap_create(ctypes.byref(handle), ctypes.byref(mm), 0))
    assert err.message.startswith("gcol_multimap_create: ") and "version" in err.message


def test_configs_come_from_the_default_functions():
    from gcol import _abi, _lib
    f = _lib.functions()
    cfg, mm = f.map_config_default(3, 5), f.multimap_config_default(3, 5, 1)
    for c in (cfg, mm, mm.map):
        assert c.magic == 0x6C6F6367 and c.version == f.version()
    assert cfg.size == ctypes_sizeof(_abi.MapConfig) and mm.size == ctypes_sizeof(_abi.MultimapConfig)


def ctypes_sizeof(t):
    import ctypes
    return ctypes.sizeof(t)


def test_latched_errors_say_they_were_latched():
    from gcol import _lib
    err = _lib.error(gcol.Status.FULL, "gcol_map_size")
    assert isinstance(err, gcol.FullError)
    assert err.message.startswith("gcol_map_size: ") and "latched" in err.message


def test_python_side_refusals_have_a_message_too():
    err = _raised(lambda: gcol.Map("float32", "int32", capacity=10))
    assert "keys must be" in err.message
