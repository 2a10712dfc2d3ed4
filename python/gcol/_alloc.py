"""Device memory of a container from PyTorch's caching allocator or CuPy's
memory pool (gcol_allocator_t callbacks), instead of cudaMallocAsync.

A container then takes its table from the memory the array library already
holds, so creating one costs no driver allocation, and what it frees goes
back to that library's pool (where PyTorch or CuPy can use it). The C library
calls alloc/free on the thread making the call, stream-ordered on the call's
stream: exactly what both pools expect.
"""
import ctypes

from ._abi import ALLOC_FN, FREE_FN
from ._errors import InvalidArgumentError


class _Hook:
    """The two callbacks (kept alive as long as the container) and what they hold."""

    def __init__(self):
        self.alloc, self.free = ALLOC_FN(self._alloc), FREE_FN(self._free)

    def install(self, cfg):
        """Point a gcol_map_config_t's allocator at these callbacks."""
        cfg.allocator.alloc = ctypes.cast(self.alloc, ctypes.c_void_p)
        cfg.allocator.free = ctypes.cast(self.free, ctypes.c_void_p)
        cfg.allocator.ctx = None

    def _alloc(self, ctx, nbytes, stream):
        try:
            return self.take(nbytes, stream or 0)
        except Exception:  # out of memory (or the library is gone): NULL, which gcol reports
            return None

    def _free(self, ctx, ptr, nbytes, stream):
        try:
            self.give(ptr, stream or 0)
        except Exception:  # interpreter shutdown: nothing left to return it to
            pass


class TorchHook(_Hook):
    def __init__(self):
        super().__init__()
        import torch
        self.torch = torch

    def take(self, nbytes, stream):
        return self.torch.cuda.caching_allocator_alloc(nbytes, self.torch.cuda.current_device(), stream)

    def give(self, ptr, stream):
        self.torch.cuda.caching_allocator_delete(ptr)


class CupyHook(_Hook):
    def __init__(self):
        super().__init__()
        import cupy
        self.cupy, self.live = cupy, {}

    def take(self, nbytes, stream):
        memory = self.cupy.cuda.alloc(nbytes)
        self.live[memory.ptr] = memory
        return memory.ptr

    def give(self, ptr, stream):
        del self.live[ptr]  # the MemoryPointer goes back to CuPy's pool


def hook(allocator):
    """The _Hook for allocator: None (cudaMallocAsync), "torch" or "cupy"."""
    if allocator is None:
        return None
    if allocator == "torch":
        return TorchHook()
    if allocator == "cupy":
        return CupyHook()
    raise InvalidArgumentError("allocator must be None, 'torch' or 'cupy', not %r" % (allocator,))
