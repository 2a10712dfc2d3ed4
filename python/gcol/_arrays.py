"""Device arrays from the caller's library, seen as (pointer, count, dtype).

Nothing is copied and no element is touched on the host. Each input type is
matched once to a Library that knows how to read it, which stream is current
for it, and how to allocate outputs of the same kind:
  PyTorch CUDA tensors, CuPy arrays (their own attributes: fastest),
  Numba and any other __cuda_array_interface__ producer,
  any __dlpack__ producer, and bare DLPack capsules (torch.utils.dlpack).
"""
import contextlib
import ctypes
import datetime
import math
import sys

from . import _abi, _torch_ops
from ._abi import DLManagedTensor, DLManagedTensorVersioned
from ._dtypes import ITEM_SIZE, dtype_name
from ._errors import InvalidArgumentError


class View:
    """A C-contiguous device array: pointer, element count, dtype name, shape,
    its Library, and the object it came from (kept alive with the view)."""

    __slots__ = ("ptr", "n", "dtype", "shape", "lib", "obj", "stream_hint")

    def __init__(self, ptr, n, dtype, shape, lib, obj, stream_hint=None):
        self.ptr, self.n, self.dtype, self.shape = ptr, n, dtype, shape
        self.lib, self.obj, self.stream_hint = lib, obj, stream_hint


def _refuse_host(obj):
    raise InvalidArgumentError(
        "gcol needs device arrays (CuPy, PyTorch CUDA tensors, __cuda_array_interface__ or DLPack "
        "on a CUDA device), not the host array %s; copy it to the GPU first" % type(obj).__name__)


def _refuse_strided(obj):
    raise InvalidArgumentError("gcol needs C-contiguous arrays; %s is strided (make a contiguous "
                               "copy on the device)" % type(obj).__name__)


def _c_contiguous(shape, strides, itemsize):
    """Strides (in units where one element is itemsize) describe a dense C-order array."""
    if 0 in shape:
        return True
    expected = itemsize
    for dim, stride in zip(reversed(shape), reversed(strides)):
        if dim != 1 and stride != expected:
            return False
        expected *= dim
    return True


def wide(shape, dtype):
    """The array to allocate for shape elements of dtype: u128 keys are rows of
    two uint64 words."""
    if dtype == "u128":
        return tuple(shape) + (2,), "uint64"
    return shape, dtype


class Library:
    """How one kind of array is read, which stream is current for it, and how
    outputs are allocated. The base allocates through CuPy or PyTorch."""

    name = "array"

    def view(self, obj):
        raise NotImplementedError

    def stream(self, view):
        """The stream to run on when the caller names none (an int or a stream object)."""
        return view.stream_hint or 0

    def default_stream(self):
        return 0

    def empty(self, shape, dtype, like, stream=None):
        """A new array of shape and dtype on like's device (like: a View or
        None, the current device), from the pool of `stream` (a
        cudaStream_t; None: the current stream), so that the pool reuses it
        only after the work queued on that stream (issue 41, item 6)."""
        return fallback_library().empty(shape, dtype, None, stream)

    def on_stream(self, stream, like):
        """A context in which `stream` (a cudaStream_t, or None: no change) is
        this library's current stream: its allocations come from that
        stream's pool and its reads (int(a[i])) wait for that stream."""
        return contextlib.nullcontext()


class Torch(Library):
    name = "torch"

    def __init__(self):
        import torch
        self.torch = torch
        self.dtypes = {getattr(torch, n): n for n in ITEM_SIZE if hasattr(torch, n)}
        _torch_ops.register_if_imported()  # gcol's operators for torch.compile, before any tracing
        # the raw handle without building a Stream object: much cheaper per call
        self.raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)

    def view(self, t):
        if not t.is_cuda:
            _refuse_host(t)
        if not t.is_contiguous():
            _refuse_strided(t)
        dtype = self.dtypes.get(t.dtype)
        if dtype is None:
            dtype_name(t.dtype)  # raises the unsupported-dtype error
        return View(t.data_ptr(), t.numel(), dtype, tuple(t.shape), self, t)

    def stream(self, view):
        if self.raw_stream is not None:
            return self.raw_stream(view.obj.get_device())
        return self.torch.cuda.current_stream(view.obj.device)

    def default_stream(self):
        return self.torch.cuda.current_stream()

    def empty(self, shape, dtype, like, stream=None):
        shape, dtype = wide(shape, dtype)
        t = getattr(self.torch, dtype, None)
        if t is None:
            raise InvalidArgumentError("this PyTorch has no torch.%s" % dtype)
        device = like.obj.device if like is not None else self.torch.device("cuda", self.torch.cuda.current_device())
        with self._on_stream(stream, device):
            return self.torch.empty(shape, dtype=t, device=device)

    def on_stream(self, stream, like):
        return self._on_stream(stream, like.obj.device if like is not None else self.torch.device("cuda"))

    def _on_stream(self, stream, device):
        """PyTorch's caching allocator gives a block to the stream current at
        its allocation and, freed, only to later allocations on that stream."""
        if stream is None:
            return contextlib.nullcontext()
        index = device.index if device.index is not None else self.torch.cuda.current_device()
        current = (self.raw_stream(index) if self.raw_stream is not None
                   else self.torch.cuda.current_stream(index).cuda_stream)
        if stream == current:
            return contextlib.nullcontext()
        return self.torch.cuda.stream(torch_stream(self.torch, stream, index))


class Cupy(Library):
    name = "cupy"

    def __init__(self):
        import cupy
        self.cupy = cupy
        self.dtypes = {}  # numpy dtype -> name, filled as seen

    def view(self, a):
        if not a.flags.c_contiguous:
            _refuse_strided(a)
        dtype = self.dtypes.get(a.dtype)
        if dtype is None:
            dtype = self.dtypes[a.dtype] = dtype_name(a.dtype)
        return View(a.data.ptr, a.size, dtype, a.shape, self, a)

    def stream(self, view):
        return self.cupy.cuda.get_current_stream()

    def default_stream(self):
        return self.cupy.cuda.get_current_stream()

    def empty(self, shape, dtype, like, stream=None):
        shape, dtype = wide(shape, dtype)
        with self.on_stream(stream, like):
            return self.cupy.empty(shape, dtype=dtype)

    def on_stream(self, stream, like):
        """CuPy's memory pool keeps an arena per stream: a block goes back to
        the arena of the stream current at its allocation."""
        if stream is None or stream == self.cupy.cuda.get_current_stream().ptr:
            return contextlib.nullcontext()
        return cupy_stream(self.cupy, stream)


class CudaArrayInterface(Library):
    """__cuda_array_interface__ (v2/v3): the producer's stream, when it names
    one, is the stream to run on."""

    name = "cuda_array_interface"

    def view(self, obj):
        cai = obj.__cuda_array_interface__
        if cai.get("mask") is not None:
            raise InvalidArgumentError("masked arrays are not supported")
        shape = tuple(cai["shape"])
        dtype = dtype_name(cai["typestr"])
        strides = cai.get("strides")
        if strides is not None and not _c_contiguous(shape, strides, ITEM_SIZE[dtype]):
            _refuse_strided(obj)
        return View(cai["data"][0], math.prod(shape), dtype, shape, self, obj, cai.get("stream"))


class Numba(CudaArrayInterface):
    name = "numba"

    def empty(self, shape, dtype, like, stream=None):
        from numba import cuda
        shape, dtype = wide(shape, dtype)  # Numba's own memory is cudaMalloc'd: no pool, no stream
        return cuda.device_array(shape, dtype=dtype)


# ---- DLPack (its structs: _abi) ------------------------------------------------
# (name, name once consumed, layout). PyCapsule_SetName keeps the char pointer,
# so the new names must live as long as the capsules: module constants do.
_CAPSULE_LAYOUTS = ((b"dltensor", b"used_dltensor", DLManagedTensor),
                    (b"dltensor_versioned", b"used_dltensor_versioned", DLManagedTensorVersioned))
_DL_CUDA_TYPES = (2, 13)  # kDLCUDA, kDLCUDAManaged
_DL_DTYPES = {(0, 32): "int32", (0, 64): "int64", (1, 32): "uint32", (1, 64): "uint64",
              (2, 32): "float32", (2, 64): "float64", (1, 8): "bool", (6, 8): "bool"}
_capsule_api = ctypes.pythonapi
_abi.bind(_capsule_api, _capsule_api, _abi.CAPSULE, prefix="")
CapsuleType = type(datetime.datetime_CAPI)


class _DLPackOwner:
    """Owns a consumed DLPack tensor: calls its deleter when the view is dropped."""

    __slots__ = ("address", "deleter", "source")

    def __init__(self, address, deleter, source):
        self.address, self.deleter, self.source = address, deleter, source

    def __del__(self):
        if self.deleter:
            self.deleter(self.address)


class DLPack(Library):
    """Bare DLPack capsules and __dlpack__ producers. The capsule is consumed
    (renamed "used_...") and its deleter runs when the view goes away."""

    name = "dlpack"

    def view(self, obj):
        capsule = obj if type(obj) is CapsuleType else obj.__dlpack__()
        for name, used_name, layout in _CAPSULE_LAYOUTS:
            if _capsule_api.PyCapsule_IsValid(capsule, name):
                break
        else:
            raise InvalidArgumentError("not an unused DLPack capsule (each can be consumed once)")
        address = _capsule_api.PyCapsule_GetPointer(capsule, name)
        managed = layout.from_address(address)
        t = managed.dl_tensor
        owner = _DLPackOwner(address, managed.deleter, obj)
        _capsule_api.PyCapsule_SetName(capsule, used_name)
        if t.device.device_type not in _DL_CUDA_TYPES:
            _refuse_host(obj)
        dtype = _DL_DTYPES.get((t.dtype.code, t.dtype.bits)) if t.dtype.lanes == 1 else None
        if dtype is None:
            raise InvalidArgumentError("unsupported DLPack dtype (code %d, %d bits, %d lanes)"
                                       % (t.dtype.code, t.dtype.bits, t.dtype.lanes))
        shape = tuple(t.shape[i] for i in range(t.ndim))
        if t.strides and not _c_contiguous(shape, [t.strides[i] for i in range(t.ndim)], 1):
            _refuse_strided(obj)
        return View((t.data or 0) + t.byte_offset, math.prod(shape), dtype, shape, self, owner)


class Refuse(Library):
    """Anything that is not a device array."""

    def view(self, obj):
        try:
            memoryview(obj)
        except TypeError:
            raise InvalidArgumentError("expected a device array, got %s" % type(obj).__name__) from None
        _refuse_host(obj)


class Host(Refuse):
    def view(self, obj):
        _refuse_host(obj)


_singletons = {}
_library_by_type = {}


def _one(cls):
    lib = _singletons.get(cls)
    if lib is None:
        lib = _singletons[cls] = cls()
    return lib


def _library_for(tp):
    root = tp.__module__.partition(".")[0]
    if root == "torch" and hasattr(tp, "data_ptr"):
        return _one(Torch)
    if root == "cupy" and hasattr(tp, "__cuda_array_interface__"):
        return _one(Cupy)
    if hasattr(tp, "__cuda_array_interface__"):
        return _one(Numba if root == "numba" else CudaArrayInterface)
    if hasattr(tp, "__array_interface__"):  # NumPy and friends, before their __dlpack__
        return _one(Host)
    if tp is CapsuleType or hasattr(tp, "__dlpack__"):
        return _one(DLPack)
    return _one(Refuse)


def library_of(obj):
    """The Library that reads obj (without reading it: a DLPack capsule stays unused)."""
    lib = _library_by_type.get(type(obj))
    if lib is None:
        lib = _library_by_type[type(obj)] = _library_for(type(obj))
    return lib


def view(obj):
    """The View of a device array, or InvalidArgumentError."""
    return library_of(obj).view(obj)


def fallback_library():
    """The library outputs come from when the input's own cannot allocate
    (bare DLPack capsules, unknown producers): PyTorch or CuPy, whichever is
    already imported (PyTorch first: torch.utils.dlpack makes capsules), else
    whichever imports."""
    order = [n for n in ("torch", "cupy") if n in sys.modules] + ["torch", "cupy"]
    for name in order:
        try:
            return _one(Cupy if name == "cupy" else Torch)
        except ImportError:
            continue
    raise InvalidArgumentError("outputs need CuPy or PyTorch to allocate them; install one")


def library(name):
    """A Library by name ("cupy" or "torch"), for calls without an input array."""
    classes = {"cupy": Cupy, "torch": Torch}
    if name not in classes:
        raise InvalidArgumentError("like= takes 'cupy', 'torch' or an array, not %r" % (name,))
    return _one(classes[name])


def torch_stream(torch, handle, device):
    """A torch.cuda stream object for a cudaStream_t (0: the default stream)."""
    if handle == 0:
        return torch.cuda.default_stream(device)
    return torch.cuda.ExternalStream(handle, device=device)


def cupy_stream(cupy, handle):
    """A cupy.cuda stream object for a cudaStream_t (0: the null stream)."""
    return cupy.cuda.Stream.null if handle == 0 else cupy.cuda.ExternalStream(handle)


def stream_handle(stream):
    """The cudaStream_t value of an int or a CuPy, PyTorch, Numba or
    __cuda_stream__ stream object."""
    if stream.__class__ is int:
        return stream
    for attr in ("cuda_stream", "ptr"):  # torch.cuda.Stream, cupy.cuda.Stream
        handle = getattr(stream, attr, None)
        if handle.__class__ is int:
            return handle
    protocol = getattr(stream, "__cuda_stream__", None)  # CUDA Python: (version, handle)
    if protocol is not None:
        return int(protocol()[1])
    handle = getattr(stream, "handle", None)  # numba.cuda stream: a ctypes c_void_p
    if isinstance(handle, ctypes.c_void_p):
        return handle.value or 0
    raise InvalidArgumentError("stream must be an int handle or a CuPy, PyTorch or Numba stream, "
                               "not %s" % type(stream).__name__)
