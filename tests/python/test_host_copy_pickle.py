"""Host-only: copies and pickles never leave two owners of one native handle
(a fake handle whose destroy is counted stands in for a device), the
settings behind them, Map/Set growth without a capacity, the thread rule in
every container's docstring."""
import copy
import pickle

import pytest

import gcol
from conftest import HAVE_GPU
from gcol import _dtypes, _persist
from gcol._map import growable_default

no_gpu_only = pytest.mark.skipif(HAVE_GPU, reason="checks the behaviour without a GPU")
CONTAINERS = [gcol.Map, gcol.Set, gcol.Multiset, gcol.Multimap, gcol.StringMap, gcol.BloomFilter,
              gcol.HyperLogLog]


class FakeFunctions:
    """Counts destroys of fake handles: a double free would count two."""

    def __init__(self, name):
        self.destroyed = []
        setattr(self, name, self.destroyed.append)


def fake(cls, handle=0xDEAD0000):
    """An object of cls that owns a fake handle (no device, no C create)."""
    obj = object.__new__(cls)
    obj._h, obj._stream_ref, obj._last_lib = handle, None, None
    obj._f = FakeFunctions(cls._destroy_name)
    return obj


def test_every_container_copies_through_a_new_handle():
    for cls in CONTAINERS:
        assert cls.__copy__ is _persist.Persistent.__copy__, cls
        assert cls.__deepcopy__ is _persist.Persistent.__deepcopy__, cls
        assert cls.__reduce__ is _persist.Persistent.__reduce__, cls
        for method in ("_settings", "_contents", "_fill", "copy"):
            assert callable(getattr(cls, method)), (cls, method)


def test_a_graph_refuses_copy_and_pickle_and_is_freed_once():
    g = fake(gcol.Graph)
    with pytest.raises(TypeError, match="cannot be copied"):
        copy.copy(g)
    with pytest.raises(TypeError, match="cannot be copied"):
        copy.deepcopy(g)
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(g)
    destroyed = g._f.destroyed
    g.close()
    del g
    assert destroyed == [0xDEAD0000]


@no_gpu_only
@pytest.mark.parametrize("cls, settings", [
    (gcol.Map, dict(key_dtype="int64", value_dtype="float32", capacity=100)),
    (gcol.Set, dict(key_dtype="uint32")),
    (gcol.Multimap, dict(key_dtype="int32", value_dtype="int32", capacity=100)),
    (gcol.StringMap, dict(value_dtype="int32")),
    (gcol.BloomFilter, dict(key_dtype="uint64", size_bytes=1024)),
    (gcol.HyperLogLog, dict(precision=12, seed=3)),
])
def test_a_copy_without_a_device_raises_and_shares_nothing(cls, settings):
    obj = fake(cls)
    obj._settings = lambda: settings  # the twin a copy would build: it needs the device
    for make_copy in (copy.copy, copy.deepcopy, lambda o: o.copy()):
        with pytest.raises(gcol.NoDeviceError):
            make_copy(obj)
    destroyed = obj._f.destroyed
    obj.close()
    obj.close()
    assert destroyed == [0xDEAD0000]


def test_closed_containers_refuse_copies_and_pickles():
    for cls in CONTAINERS:
        c = fake(cls, handle=None)
        for action in (copy.copy, copy.deepcopy, pickle.dumps):
            with pytest.raises(gcol.InvalidArgumentError, match="closed"):
                action(c)


def test_pickles_of_another_format_are_refused():
    with pytest.raises(ValueError, match="format"):
        _persist.restore("Map", 99, {}, ())


def test_sentinel_bits_come_back_bit_for_bit():
    snan = 0x7F800001  # a float32 signalling NaN: a Python float would quiet it
    assert _dtypes.to_bits(_dtypes.Bits(snan), "float32") == snan
    assert _dtypes.to_bits(_dtypes.Bits(2**64 - 1), "u128") == 2**64 - 1
    with pytest.raises(gcol.InvalidArgumentError):
        _dtypes.to_bits(_dtypes.Bits(2**32), "int32")
    assert pickle.loads(pickle.dumps(_dtypes.Bits(5))) == 5


def test_map_and_set_without_a_capacity_grow():
    assert growable_default(gcol.Map, None, None) is True
    assert growable_default(gcol.Map, 100, None) is False
    assert growable_default(gcol.Set, 100, True) is True
    with pytest.raises(TypeError, match="needs a capacity"):
        growable_default(gcol.Set, None, False)
    with pytest.raises(TypeError, match="needs a capacity"):
        gcol.Map("int64", "int64", growable=False)
    with pytest.raises(TypeError, match="needs a capacity"):
        gcol.Set("int64", growable=False)


@no_gpu_only
def test_map_and_set_without_a_capacity_reach_the_device():
    with pytest.raises(gcol.NoDeviceError):
        gcol.Map("int64", "int64")
    with pytest.raises(gcol.NoDeviceError):
        gcol.Set("uint32")


def test_every_container_states_its_thread_rule():
    for cls in CONTAINERS:
        doc = " ".join(cls.__doc__.split())
        assert "one thread at a time" in doc and "lookup" in doc, cls
