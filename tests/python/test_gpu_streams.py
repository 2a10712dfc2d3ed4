"""GPU (issue 41, item 6): calls given ``stream=`` on a side stream.

1. Results are right when the call runs on a non-default stream with work
   queued before it (a long spin kernel, then the copy that writes the
   inputs): a call that ran on another stream would read the inputs unwritten.
2. Outputs come from that stream's pool: PyTorch's memory snapshot names the
   stream of the output's segment; and, on both libraries, an output freed
   at once while the side stream is still busy is not handed to an
   allocation on the default stream (which would be overwritten when the
   side stream catches up).
3. The allocator hooks (allocator="torch" / "cupy"): a table allocated on one
   stream and last used (then freed) on another is not handed out again on
   its own stream before that other stream's work is done.

Each test fails when the behaviour is wrong. Runs under compute-sanitizer:

    compute-sanitizer --tool memcheck python -m pytest tests/python/test_gpu_streams.py -q

(the pools' reuse is what is checked, so keep PyTorch's caching allocator on:
the tests that need it skip under PYTORCH_NO_CUDA_MEMORY_CACHING=1).
"""
import os

import numpy as np
import pytest

import gcol

N = 1 << 20
SPIN_CYCLES = 300_000_000  # about 150-200 ms of one spinning thread: the host runs far ahead


class _Torch:
    name = "torch"

    def __init__(self):
        import torch
        self.m = torch

    def new_stream(self):
        return self.m.cuda.Stream()

    def on(self, s):
        return self.m.cuda.stream(s)

    def spin(self):
        """Queue a kernel that runs for SPIN_CYCLES on the current stream."""
        self.m.cuda._sleep(SPIN_CYCLES)

    def arange(self, n):
        return self.m.arange(n, dtype=self.m.int64, device="cuda")

    def zeros(self, n):
        return self.m.zeros(n, dtype=self.m.int64, device="cuda")

    def full(self, n, value, dtype="int64"):
        return self.m.full((n,), value, dtype=getattr(self.m, dtype), device="cuda")

    def copy(self, dst, src):
        dst.copy_(src)

    def host(self, a):
        return a.cpu().numpy()

    def ptr(self, a):
        return a.data_ptr()

    def sync(self):
        self.m.cuda.synchronize()

    def empty_bytes(self, nbytes):
        return self.m.empty(nbytes, dtype=self.m.uint8, device="cuda")

    def fill(self, a, value):
        a.fill_(value)

    def caching(self):
        return os.environ.get("PYTORCH_NO_CUDA_MEMORY_CACHING") != "1"


class _Cupy:
    name = "cupy"

    def __init__(self):
        import cupy
        self.m = cupy
        self._spin = cupy.RawKernel(r"""
extern "C" __global__ void gcol_test_spin(long long cycles) {
    long long t0 = clock64();
    while (clock64() - t0 < cycles) { }
}""", "gcol_test_spin")

    def new_stream(self):
        return self.m.cuda.Stream(non_blocking=True)  # as PyTorch's: no implicit sync with stream 0

    def on(self, s):
        return s

    def spin(self):
        self._spin((1,), (1,), (np.int64(SPIN_CYCLES),))

    def arange(self, n):
        return self.m.arange(n, dtype=self.m.int64)

    def zeros(self, n):
        return self.m.zeros(n, dtype=self.m.int64)

    def full(self, n, value, dtype="int64"):
        return self.m.full((n,), value, dtype=dtype)

    def copy(self, dst, src):
        dst[...] = src

    def host(self, a):
        return self.m.asnumpy(a)

    def ptr(self, a):
        return a.data.ptr

    def sync(self):
        self.m.cuda.Device().synchronize()

    def empty_bytes(self, nbytes):
        return self.m.empty(nbytes, dtype=self.m.uint8)

    def fill(self, a, value):
        a.fill(value)

    def caching(self):
        return True


@pytest.fixture(params=["torch", "cupy"])
def lib(request, gpu):
    pytest.importorskip(request.param)
    return _Torch() if request.param == "torch" else _Cupy()


def _late_inputs(lib, s):
    """(keys, values) that side stream s writes after a long spin: until s
    gets there they hold zeros. Returned with s still busy."""
    keys, values = lib.zeros(N), lib.zeros(N)
    src = lib.arange(N)
    lib.sync()  # everything so far is done; what follows is queued on s only
    with lib.on(s):
        lib.spin()
        lib.copy(keys, src)
        lib.copy(values, src + 1)
    return keys, values


def test_calls_on_a_busy_side_stream_see_its_earlier_work(lib):
    s = lib.new_stream()
    m = gcol.Map("int64", "int64", capacity=2 * N)  # stream=None: ready for any stream
    keys, values = _late_inputs(lib, s)
    m.insert(keys, values, stream=s)  # the current stream is the default one: stream= decides
    found = m.find(keys, stream=s)
    present = m.contains(keys, stream=s)
    assert m.size(stream=s) == N
    got_keys, got_values = m.retrieve_all(stream=s)
    s.synchronize()
    np.testing.assert_array_equal(lib.host(found), np.arange(N) + 1)
    assert lib.host(present).all()
    order = np.argsort(lib.host(got_keys))
    np.testing.assert_array_equal(lib.host(got_keys)[order], np.arange(N))
    np.testing.assert_array_equal(lib.host(got_values)[order], np.arange(N) + 1)


def test_functions_run_on_the_current_side_stream(lib):
    s = lib.new_stream()
    keys, _ = _late_inputs(lib, s)
    with lib.on(s):  # the functions take no stream=: they run on the current one
        uniq = gcol.unique(keys)
        mask = gcol.isin(keys, keys[: N // 2])
    s.synchronize()
    np.testing.assert_array_equal(lib.host(uniq), np.arange(N))
    assert lib.host(mask)[: N // 2].all() and not lib.host(mask)[N // 2:].any()


def test_outputs_come_from_the_given_streams_pool(lib):
    torch = pytest.importorskip("torch") if lib.name == "torch" else None
    if not lib.caching():
        pytest.skip("PyTorch's caching allocator is off")
    s = lib.new_stream()
    m = gcol.Map("int64", "int64", capacity=2 * N)
    keys = lib.arange(N)
    m.insert(keys, keys + 1)
    lib.sync()
    if torch is not None:
        out = m.find(keys, stream=s)
        segments = [seg for seg in torch.cuda.memory_snapshot()
                    if seg["address"] <= out.data_ptr() < seg["address"] + seg["total_size"]]
        assert [seg["stream"] for seg in segments] == [s.cuda_stream]
        s.synchronize()
        del out

    # the hazard itself: an output freed at once, while s is still busy, must
    # not go to an allocation on the default stream (s writes it later)
    with lib.on(s):
        lib.spin()
    out = m.find(keys, stream=s)
    held = lib.ptr(out)
    del out  # freed on the host while s has not run the find yet: fine for a block of s's pool
    filler = lib.full(N, 7)  # same size, on the default stream
    lib.sync()
    if lib.ptr(filler) == held:
        pytest.fail("the output of find(stream=s) was reused on the default stream while s was busy")
    assert (lib.host(filler) == 7).all()


@pytest.mark.parametrize("allocator", ["torch", "cupy"])
def test_allocator_hook_orders_a_free_on_another_stream(lib, allocator, monkeypatch):
    if allocator != lib.name:
        pytest.skip("one library per case")
    if not lib.caching():
        pytest.skip("PyTorch's caching allocator is off")
    from gcol import _alloc
    sizes = {}
    hook = _alloc.TorchHook if allocator == "torch" else _alloc.CupyHook
    take = hook.take

    def recording_take(self, nbytes, stream):
        ptr = take(self, nbytes, stream)
        sizes[ptr] = nbytes
        return ptr
    monkeypatch.setattr(hook, "take", recording_take)

    s = lib.new_stream()
    m = gcol.Map("int64", "int64", capacity=2 * N, allocator=allocator, stream=s)  # its table: s's
    s.synchronize()
    table = max(sizes, key=sizes.get)
    keys = lib.arange(N)
    lib.sync()
    lib.spin()  # the default stream: busy for SPIN_MS, then the insert writes the table
    m.insert(keys, keys + 1)
    m.close()  # freed on the default stream (the last call's) while it still runs
    with lib.on(s):  # the same size on s: the pool's best fit is the table's block
        reused = lib.empty_bytes(sizes[table])
        if lib.ptr(reused) != table:  # e.g. CuPy merged the block with a free neighbour
            lib.sync()
            pytest.skip("the pool gave another block: nothing to check")
        lib.fill(reused, 7)
    lib.sync()
    assert (lib.host(reused) == 7).all(), "the table was reused on its stream before the insert on the other ended"
