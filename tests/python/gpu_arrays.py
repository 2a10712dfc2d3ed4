"""The few array operations the GPU tests need, for CuPy and for PyTorch, so
that each test is written once and runs on both."""
import numpy as np
import pytest


class Cupy:
    name = "cupy"

    def __init__(self):
        import cupy
        self.m = cupy

    def dev(self, host):
        return self.m.asarray(np.ascontiguousarray(host))

    def host(self, a):
        return self.m.asnumpy(a)

    def is_native(self, a):
        return isinstance(a, self.m.ndarray)

    def dtype_name(self, a):
        return a.dtype.name

    def stream(self):
        return self.m.cuda.Stream(non_blocking=True)

    def using(self, stream):
        return stream  # a cupy Stream is its own context manager

    def synchronize(self, stream):
        stream.synchronize()

    def sync_all(self):
        self.m.cuda.Device().synchronize()


class Torch:
    name = "torch"

    def __init__(self):
        import torch
        self.m = torch

    def dev(self, host):
        host = np.ascontiguousarray(host)
        if host.dtype.kind == "u" and host.dtype.itemsize >= 4:  # moved as signed, viewed back on the GPU
            bits = 8 * host.dtype.itemsize
            if not hasattr(self.m, "uint%d" % bits):
                pytest.skip("this PyTorch has no torch.uint%d" % bits)
            signed = self.m.from_numpy(host.view("int%d" % bits)).to("cuda")
            return signed.view(getattr(self.m, "uint%d" % bits))
        return self.m.from_numpy(host).to("cuda")

    def host(self, t):
        if t.dtype in (getattr(self.m, "uint32", None), getattr(self.m, "uint64", None)):
            bits = 8 * t.element_size()  # numpy() may not take them: move as signed
            return t.view(getattr(self.m, "int%d" % bits)).cpu().numpy().view("uint%d" % bits)
        return t.cpu().numpy()

    def is_native(self, t):
        return isinstance(t, self.m.Tensor) and t.is_cuda

    def dtype_name(self, t):
        return str(t.dtype).replace("torch.", "")

    def stream(self):
        return self.m.cuda.Stream()

    def using(self, stream):
        return self.m.cuda.stream(stream)

    def synchronize(self, stream):
        stream.synchronize()

    def sync_all(self):
        self.m.cuda.synchronize()


def random_keys(rng, dtype, n, distinct):
    """n keys of dtype drawn from `distinct` random values over the dtype's
    whole range (floats: normal), so sentinel-like values may be among them."""
    if dtype.startswith("float"):
        pool = rng.standard_normal(distinct).astype(dtype)
    else:
        info = np.iinfo(dtype)
        pool = rng.integers(info.min, info.max, distinct, dtype=dtype, endpoint=True)
    return pool[rng.integers(0, distinct, n)]


def helpers(name):
    return {"cupy": Cupy, "torch": Torch}[name]()
