"""Device memory of a container from PyTorch's caching allocator or CuPy's
memory pool (gcol_allocator_t callbacks), instead of cudaMallocAsync.

A container then takes its table from the memory the array library already
holds, so creating one costs no driver allocation, and what it frees goes
back to that library's pool (where PyTorch or CuPy can use it). The C library
calls alloc/free on the thread making the call, each with the call's stream.

What the hooks rely on (issue 41, item 6): both pools are stream-ordered by
the stream a block was allocated on. PyTorch's caching allocator records it
(``caching_allocator_alloc(nbytes, device, stream)``) and, once the block is
freed, hands it only to later allocations on that stream; CuPy's memory pool
keeps one arena per stream (the stream current at ``cupy.cuda.alloc``) and
does the same. So a block is allocated with the call's stream current, and a
free on another stream (a table allocated on one stream, grown or destroyed
on another) first makes the allocation stream wait for the freeing stream
(an event: ``wait_stream``), so that whatever the pool hands out next on the
allocation stream runs after the last work that used the block. Neither
pool's free waits for the GPU.
"""
import ctypes

from . import _arrays
from ._abi import ALLOC_FN, FREE_FN
from ._errors import InvalidArgumentError


class _Hook:
    """The two callbacks (kept alive as long as the container) and what they hold."""

    def __init__(self):
        self.alloc, self.free = ALLOC_FN(self._alloc), FREE_FN(self._free)
        self.streams = {}  # pointer -> the stream it was allocated on

    def install(self, cfg):
        """Point a gcol_map_config_t's allocator at these callbacks."""
        cfg.allocator.alloc = ctypes.cast(self.alloc, ctypes.c_void_p)
        cfg.allocator.free = ctypes.cast(self.free, ctypes.c_void_p)
        cfg.allocator.ctx = None

    def _alloc(self, ctx, nbytes, stream):
        try:
            ptr = self.take(nbytes, stream or 0)
            self.streams[ptr] = stream or 0
            return ptr
        except Exception:  # out of memory (or the library is gone): NULL, which gcol reports
            return None

    def _free(self, ctx, ptr, nbytes, stream):
        try:
            owner = self.streams.pop(ptr, 0)
            if (stream or 0) != owner:
                self.order(owner, stream or 0)
            self.give(ptr, owner)
        except Exception:  # interpreter shutdown (or no event: then the block stays out of the pool)
            pass


class TorchHook(_Hook):
    def __init__(self):
        super().__init__()
        self.lib = _arrays.library("torch")
        self.torch = self.lib.m

    def take(self, nbytes, stream):
        return self.torch.cuda.caching_allocator_alloc(nbytes, self.torch.cuda.current_device(), stream)

    def order(self, owner, stream):
        """owner (the allocation stream) waits for the work queued on stream."""
        device = self.torch.cuda.current_device()
        self.lib.stream_object(owner, device).wait_stream(self.lib.stream_object(stream, device))

    def give(self, ptr, stream):
        self.torch.cuda.caching_allocator_delete(ptr)  # back to the block's stream


class CupyHook(_Hook):
    def __init__(self):
        super().__init__()
        self.lib = _arrays.library("cupy")
        self.cupy, self.live = self.lib.m, {}

    def take(self, nbytes, stream):
        with self.lib.stream_object(stream):  # the pool's arena of the call's stream
            memory = self.cupy.cuda.alloc(nbytes)
        self.live[memory.ptr] = memory
        return memory.ptr

    def order(self, owner, stream):
        """owner (the allocation stream) waits for the work queued on stream."""
        self.lib.stream_object(owner).wait_event(self.lib.stream_object(stream).record())

    def give(self, ptr, stream):
        del self.live[ptr]  # the MemoryPointer goes back to its stream's arena of CuPy's pool


def hook(allocator):
    """The _Hook for allocator: None (cudaMallocAsync), "torch" or "cupy"."""
    if allocator is None:
        return None
    if allocator == "torch":
        return TorchHook()
    if allocator == "cupy":
        return CupyHook()
    raise InvalidArgumentError("allocator must be None, 'torch' or 'cupy', not %r" % (allocator,))
