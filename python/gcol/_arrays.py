"""One adapter per array library: how gcol reads the caller's arrays,
allocates outputs of their kind, runs on their streams and, for gcol's
functions (unique, groupby_reduce, isin, join), does the few array
operations they need besides the C library.

Each input type is matched once (library_of) to its adapter, a singleton:
  Torch, Cupy          PyTorch CUDA tensors, CuPy arrays (read through their
                       own attributes: fastest); the two libraries gcol's
                       functions compute with
  CudaArrayInterface   any other __cuda_array_interface__ producer (Numba:
                       its subclass Numba, which allocates Numba arrays)
  DLPack               __dlpack__ producers and bare DLPack capsules
                       (torch.utils.dlpack)
  Host, Refuse         host arrays and anything else: refused

Every adapter has the same facets, in this order in each class:
  recognise  view(obj): the input as a View (pointer, count, dtype, shape),
             nothing copied and no element touched; stream(view): the stream
             to run on when the caller names none; device_of(view)
  adopt      adopt(obj): the input as a PyTorch tensor or CuPy array (zero
             copy) for gcol's functions, and how their results go back to
             the caller's kind; from_host(a): a device copy of a NumPy array
  allocate   empty(shape, dtype, like, stream): outputs of this kind (those
             that cannot allocate ask fallback_library()); full, arange
  streams    default_stream(), on_stream(stream, like), on_device(device),
             stream_object(handle, device)
  compute    Torch and Cupy only, on the adapter bound to the adopted
             inputs' device (bound): sorts, gathers, small reductions, and
             the float key rule on the bits
"""
import contextlib
import copy
import ctypes
import datetime
import math
import sys

from . import _abi, _torch_ops
from ._abi import DLManagedTensor, DLManagedTensorVersioned
from ._dtypes import ITEM_SIZE, dtype_name
from ._errors import InvalidArgumentError

# Float keys as bits, per width: (all but the sign bit, +inf, the quiet NaN
# that stands for every NaN: NumPy's float32(nan) / nan).
FLOAT_BITS = {32: (0x7FFFFFFF, 0x7F800000, 0x7FC00000),
              64: (0x7FFFFFFFFFFFFFFF, 0x7FF0000000000000, 0x7FF8000000000000)}
# the same for the 16-bit formats, keyed by dtype (their width alone does not tell them apart)
NARROW_FLOAT_BITS = {"float16": (0x7FFF, 0x7C00, 0x7E00), "bfloat16": (0x7FFF, 0x7F80, 0x7FC0)}


class View:
    """A C-contiguous device array: pointer, element count, dtype name, shape,
    its Library, and the object it came from (kept alive with the view)."""

    __slots__ = ("ptr", "n", "dtype", "shape", "lib", "obj", "stream_hint")

    def __init__(self, ptr, n, dtype, shape, lib, obj, stream_hint=None):
        self.ptr, self.n, self.dtype, self.shape = ptr, n, dtype, shape
        self.lib, self.obj, self.stream_hint = lib, obj, stream_hint


class Adopted:
    """An input as an array of the library gcol's functions compute with
    (PyTorch or CuPy), that library's adapter bound to the array's device,
    the dtype name and shape, and how results go back to the caller's kind
    of array (back: None, or a function of a result). The array may still
    be strided or of a narrow dtype: the functions copy and widen it
    themselves (_keys.prepare)."""

    __slots__ = ("array", "lib", "back", "dtype", "shape", "n")

    def __init__(self, array, lib, back, dtype=None, shape=None):
        self.array, self.lib, self.back = array, lib, back
        self.dtype = lib.dtype_of(array) if dtype is None else dtype
        self.shape = tuple(array.shape) if shape is None else tuple(shape)
        n = 1
        for d in self.shape:
            n *= d
        self.n = n


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
    """An array library's adapter. The base is what a library answers that
    has no allocator or streams of its own."""

    name = "array"

    # ---- recognise -------------------------------------------------------------
    def view(self, obj):
        raise NotImplementedError

    def stream(self, view):
        """The stream to run on when the caller names none (an int or a stream object)."""
        return view.stream_hint or 0

    def device_of(self, view):
        """The CUDA device ordinal of view, or None where this library does not tell it."""
        return None

    # ---- adopt -----------------------------------------------------------------
    def adopt(self, obj):
        """obj as an Adopted PyTorch tensor or CuPy array, or InvalidArgumentError."""
        raise NotImplementedError

    # ---- allocate --------------------------------------------------------------
    def empty(self, shape, dtype, like=None, stream=None):
        """A new array of shape and dtype on like's device (like: a View;
        None: the bound device, else the current one), from the pool of
        `stream` (a cudaStream_t; None: the current stream), so that the
        pool reuses it only after the work queued on that stream (issue 41,
        item 6)."""
        return fallback_library().empty(shape, dtype, None, stream)

    # ---- streams ---------------------------------------------------------------
    def default_stream(self):
        """The current stream, for calls without an input array."""
        return 0

    def on_stream(self, stream, like):
        """A context in which `stream` (a cudaStream_t, or None: no change) is
        this library's current stream: its allocations come from that
        stream's pool and its reads (int(a[i])) wait for that stream."""
        return contextlib.nullcontext()

    def on_device(self, device):
        """A context in which `device` is this library's current device (its
        allocations and the streams it names are that device's)."""
        return contextlib.nullcontext()


class _Compute(Library):
    """What PyTorch and CuPy, the libraries gcol's functions compute with,
    spell alike. Their array operations run on an adapter bound to the
    adopted inputs' device (bound); library_of's singletons are unbound."""

    device = None

    # ---- adopt -----------------------------------------------------------------
    def bound(self, device):
        """This adapter, its array operations on device."""
        lib = copy.copy(self)
        lib.device = device
        return lib

    # ---- compute ---------------------------------------------------------------
    def reshape(self, a, shape):
        return a.reshape(shape)

    def take(self, a, idx):
        return a[idx]

    def unique_counts(self, a):
        """How often each distinct value of a small array occurs (the library's sort)."""
        return self.m.unique(a, return_counts=True)[1]

    def count_profile(self, counts):
        """[f1, f2]: how many counts are 1 and 2 (one sync)."""
        return self.m.stack(((counts == 1).sum(), (counts == 2).sum())).tolist()

    def holds_either(self, a, x, y):
        return bool(((a == x) | (a == y)).any())

    def scatter_arange(self, index, n, dtype):
        """out[index[i]] = i, for a permutation index of n."""
        out = self.empty(n, dtype)
        out[index] = self.arange(n, dtype)
        return out

    def equal(self, a, value):
        return a == value

    def dtype_of(self, a):
        """The dtype's name ("int8", "bfloat16", ...)."""
        return a.dtype.name

    def logical_not(self, mask):
        return ~mask

    def column(self, a, j):
        """Column j of a 2-D array (a strided view)."""
        return a[:, j]

    def canonical_float_bits(self, bits, width, patterns=None):
        """The bits of float keys (an int32/int64 view) with -0.0 as 0.0 and
        every NaN as the one quiet NaN; every other pattern, subnormals
        included, is kept. Integer operations only: float kernels of the
        array libraries flush subnormals to zero (a + 0.0 made 1e-45 and
        0.0 one key, issue 39). patterns: (magnitude mask, +inf, quiet NaN)
        for other formats (float16, bfloat16: their bits as non-negative
        int64 values)."""
        magnitude, inf, nan = FLOAT_BITS[width] if patterns is None else patterns
        mag = bits & magnitude
        return self.where(mag > inf, nan, self.where(mag == 0, 0, bits))


class Torch(_Compute):
    name = "torch"

    def __init__(self):
        import torch
        self.m = torch
        self.dtypes = {getattr(torch, n): n for n in ITEM_SIZE if hasattr(torch, n)}
        # PyTorch has no gather/scatter kernels for uint32/uint64: those go as their signed bits
        self.signed = {getattr(torch, "uint%d" % b): getattr(torch, "int%d" % b) for b in (16, 32, 64)
                       if hasattr(torch, "uint%d" % b)}
        _torch_ops.register_if_imported()  # gcol's operators for torch.compile, before any tracing
        # the raw handle without building a Stream object: much cheaper per call
        self.raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)

    # ---- recognise -------------------------------------------------------------
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
        return self.m.cuda.current_stream(view.obj.device)

    def device_of(self, view):
        return view.obj.get_device()

    # ---- adopt -----------------------------------------------------------------
    def adopt(self, t):
        if not t.is_cuda:
            _refuse_host(t)
        return self.adopted(t)

    def adopted(self, t):
        """A tensor (a caller's, or made from a foreign input) as Adopted."""
        return Adopted(t, self.bound(t.device), None)

    def wrap(self, obj):
        """A tensor on the memory of a __cuda_array_interface__ producer."""
        return self.m.as_tensor(obj, device="cuda")

    def from_dlpack(self, obj):
        from torch.utils import dlpack
        return dlpack.from_dlpack(obj)

    def from_host(self, a):
        """A device copy of a C-contiguous NumPy array."""
        if a.dtype.kind == "u" and a.dtype.itemsize >= 4:  # from_numpy may not take them: as signed
            signed = "int%d" % (8 * a.dtype.itemsize)
            return self.m.from_numpy(a.view(signed).copy()).cuda().view(getattr(self.m, a.dtype.name))
        return self.m.from_numpy(a.copy()).cuda()

    # ---- allocate --------------------------------------------------------------
    def empty(self, shape, dtype, like=None, stream=None):
        shape, dtype = wide(shape, dtype)
        t = getattr(self.m, dtype, None)
        if t is None:
            raise InvalidArgumentError("this PyTorch has no torch.%s" % dtype)
        if like is not None:
            device = like.obj.device
        elif self.device is not None:
            device = self.device
        else:
            device = self.m.device("cuda", self.m.cuda.current_device())
        with self._on_stream(stream, device):
            return self.m.empty(shape, dtype=t, device=device)

    def full(self, n, value, dtype):
        return self.m.full((n,), value, dtype=getattr(self.m, dtype), device=self.device)

    def arange(self, n, dtype):
        return self.m.arange(n, dtype=getattr(self.m, dtype), device=self.device)

    # ---- streams ---------------------------------------------------------------
    def default_stream(self):
        return self.m.cuda.current_stream(self.device)

    def on_stream(self, stream, like):
        return self._on_stream(stream, like.obj.device if like is not None else self.m.device("cuda"))

    def _on_stream(self, stream, device):
        """PyTorch's caching allocator gives a block to the stream current at
        its allocation and, freed, only to later allocations on that stream."""
        if stream is None:
            return contextlib.nullcontext()
        index = device.index if device.index is not None else self.m.cuda.current_device()
        current = (self.raw_stream(index) if self.raw_stream is not None
                   else self.m.cuda.current_stream(index).cuda_stream)
        if stream == current:
            return contextlib.nullcontext()
        return self.m.cuda.stream(self.stream_object(stream, index))

    def on_device(self, device):
        return self.m.cuda.device(device)

    def stream_object(self, handle, device=None):
        """A torch.cuda stream object for a cudaStream_t (0: the default stream)."""
        if handle == 0:
            return self.m.cuda.default_stream(device)
        return self.m.cuda.ExternalStream(handle, device=device)

    # ---- compute ---------------------------------------------------------------
    def take(self, a, idx):
        signed = self.signed.get(a.dtype)
        return a[idx] if signed is None else a.view(signed)[idx].view(a.dtype)

    def astype(self, a, dtype):
        return a.to(getattr(self.m, dtype))

    def bits(self, a, dtype):
        return a.view(getattr(self.m, dtype))

    def where(self, mask, value, a):
        """A copy of a with value where mask is set."""
        return a.masked_fill(mask, value)

    def min_max(self, a):
        lo, hi = self.m.aminmax(a)
        return self.m.stack((lo, hi)).tolist()

    def argsort(self, a):
        return self.m.argsort(a, stable=True)

    def sort(self, a):
        return self.m.sort(a).values

    def nonzero(self, mask):
        return self.m.nonzero(mask).reshape(-1)

    def cat(self, arrays):
        return self.m.cat(arrays)

    def divide(self, a, b, dtype):
        return self.m.div(a.to(getattr(self.m, dtype)), b.to(getattr(self.m, dtype)))

    def dtype_of(self, a):
        return str(a.dtype)[len("torch."):]

    def contiguous(self, a):
        return a if a.is_contiguous() else a.contiguous()

    def select(self, mask, a, b):
        """a where mask is set, else b (arrays or scalars)."""
        return self.m.where(mask, a, b)

    def stack_columns(self, columns):
        return self.m.stack(columns, dim=1)


class Cupy(_Compute):
    """CuPy; any NumPy-like module in its place (module: the host tests' model uses NumPy)."""

    name = "cupy"

    def __init__(self, module=None):
        if module is None:
            import cupy as module
        self.m = module
        self.dtypes = {}  # numpy dtype -> name, filled as seen

    # ---- recognise -------------------------------------------------------------
    def view(self, a):
        if not a.flags.c_contiguous:
            _refuse_strided(a)
        dtype = self.dtypes.get(a.dtype)
        if dtype is None:
            dtype = self.dtypes[a.dtype] = dtype_name(a.dtype)
        return View(a.data.ptr, a.size, dtype, a.shape, self, a)

    def stream(self, view):
        return self.m.cuda.get_current_stream()

    def device_of(self, view):
        return view.obj.device.id

    # ---- adopt -----------------------------------------------------------------
    def adopt(self, a):
        return self.adopted(a)

    def adopted(self, a):
        """An array (a caller's, or made from a foreign input) as Adopted."""
        return Adopted(a, self.bound(a.device.id), None)

    def wrap(self, obj):
        """An array on the memory of a __cuda_array_interface__ producer."""
        return self.m.asarray(obj)

    from_host = wrap  # cupy.asarray copies a NumPy array to the device

    def from_dlpack(self, obj):
        return self.m.from_dlpack(obj)

    # ---- allocate --------------------------------------------------------------
    def empty(self, shape, dtype, like=None, stream=None):
        shape, dtype = wide(shape, dtype)
        with self.on_stream(stream, like):
            return self.m.empty(shape, dtype=dtype)

    def full(self, n, value, dtype):
        return self.m.full((n,), value, dtype=dtype)

    def arange(self, n, dtype):
        return self.m.arange(n, dtype=dtype)

    # ---- streams ---------------------------------------------------------------
    def default_stream(self):
        return self.m.cuda.get_current_stream()

    def on_stream(self, stream, like):
        """CuPy's memory pool keeps an arena per stream: a block goes back to
        the arena of the stream current at its allocation."""
        if stream is None or stream == self.m.cuda.get_current_stream().ptr:
            return contextlib.nullcontext()
        return self.stream_object(stream)

    def on_device(self, device):
        return self.m.cuda.Device(device)

    def stream_object(self, handle, device=None):
        """A cupy.cuda stream object for a cudaStream_t (0: the null stream)."""
        return self.m.cuda.Stream.null if handle == 0 else self.m.cuda.ExternalStream(handle)

    # ---- compute ---------------------------------------------------------------
    def astype(self, a, dtype):
        return a.astype(dtype)

    def bits(self, a, dtype):
        return a.view(dtype)

    def where(self, mask, value, a):
        return self.m.where(mask, a.dtype.type(value), a)

    def min_max(self, a):
        return self.m.stack((a.min(), a.max())).tolist()

    def argsort(self, a):
        return self.m.argsort(a, kind="stable")

    def sort(self, a):
        return self.m.sort(a)

    def nonzero(self, mask):
        return self.m.nonzero(mask)[0]

    def cat(self, arrays):
        return self.m.concatenate(arrays)

    def divide(self, a, b, dtype):
        return self.m.divide(a.astype(dtype), b.astype(dtype))

    def contiguous(self, a):
        return a if a.flags.c_contiguous else self.m.ascontiguousarray(a)

    def select(self, mask, a, b):
        return self.m.where(mask, a, b)

    def stack_columns(self, columns):
        return self.m.stack(columns, axis=1)


class CudaArrayInterface(Library):
    """__cuda_array_interface__ (v2/v3): the producer's stream, when it names
    one, is the stream to run on."""

    name = "cuda_array_interface"

    # ---- recognise -------------------------------------------------------------
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

    # ---- adopt -----------------------------------------------------------------
    def adopt(self, obj):
        if obj.__cuda_array_interface__.get("mask") is not None:
            raise InvalidArgumentError("masked arrays are not supported")
        lib = _compute_library()
        return lib.adopted(lib.wrap(obj))


class Numba(CudaArrayInterface):
    name = "numba"

    # ---- adopt -----------------------------------------------------------------
    def adopt(self, obj):
        adopted = super().adopt(obj)
        from numba import cuda
        adopted.back = cuda.as_cuda_array  # results go back as Numba arrays
        return adopted

    # ---- allocate --------------------------------------------------------------
    def empty(self, shape, dtype, like=None, stream=None):
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

    # ---- recognise -------------------------------------------------------------
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

    # ---- adopt -----------------------------------------------------------------
    def adopt(self, obj):
        # bare capsules: PyTorch reads them best; __dlpack__ objects: either
        lib = _one(Torch) if type(obj) is CapsuleType and "torch" in sys.modules else _compute_library()
        return lib.adopted(lib.from_dlpack(obj))


class Refuse(Library):
    """Anything that is not a device array."""

    # ---- recognise -------------------------------------------------------------
    def view(self, obj):
        try:
            memoryview(obj)
        except TypeError:
            raise InvalidArgumentError("expected a device array, got %s" % type(obj).__name__) from None
        _refuse_host(obj)

    # ---- adopt -----------------------------------------------------------------
    def adopt(self, obj):
        return self.view(obj)  # raises: the message of view


class Host(Refuse):
    def view(self, obj):
        _refuse_host(obj)


# ---- the adapter of an input, or of a library by name ------------------------------
_singletons = {}
_library_by_type = {}
_COMPUTE = {"cupy": Cupy, "torch": Torch}


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


def adopt(obj, what):
    """obj as an Adopted PyTorch tensor or CuPy array (zero-copy; strided
    views and narrow dtypes pass: the caller copies or widens them), or
    InvalidArgumentError naming `what` for host arrays, masked arrays and
    other objects."""
    try:
        return library_of(obj).adopt(obj)
    except InvalidArgumentError as e:
        raise InvalidArgumentError("%s: %s" % (what, e)) from None


def _first_importable(order, need):
    """The adapter of the first library of order already imported, else of
    the first that imports; InvalidArgumentError (need) if neither does."""
    for name in [n for n in order if n in sys.modules] + list(order):
        try:
            return _one(_COMPUTE[name])
        except ImportError:
            continue
    raise InvalidArgumentError(need + "; install one")


def fallback_library():
    """The library outputs come from when the input's own cannot allocate
    (bare DLPack capsules, unknown producers): PyTorch or CuPy, whichever is
    already imported (PyTorch first: torch.utils.dlpack makes capsules), else
    whichever imports."""
    return _first_importable(("torch", "cupy"), "outputs need CuPy or PyTorch to allocate them")


def _compute_library():
    """The library gcol's functions compute in for Numba,
    __cuda_array_interface__ and DLPack inputs: CuPy or PyTorch, whichever is
    already imported (CuPy first), else whichever imports."""
    return _first_importable(("cupy", "torch"), "gcol's functions need CuPy or PyTorch to run on Numba, "
                                                "__cuda_array_interface__ or DLPack inputs")


def library(name):
    """A Library by name ("cupy" or "torch"), for calls without an input array."""
    if name not in _COMPUTE:
        raise InvalidArgumentError("like= takes 'cupy', 'torch' or an array, not %r" % (name,))
    return _one(_COMPUTE[name])


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
