"""The few array operations gcol's functions (unique, groupby_reduce, isin,
join) need besides the C library, done by the caller's own array library
(PyTorch or CuPy) on its current stream: allocation, sorting, gathers, small
reductions. Inputs of other kinds (Numba, __cuda_array_interface__, DLPack)
are adopted zero-copy by CuPy or PyTorch, and results go back to Numba as
Numba arrays."""
import contextlib
import sys

from . import _arrays
from ._errors import InvalidArgumentError

# Float keys as bits, per width: (all but the sign bit, +inf, the quiet NaN
# that stands for every NaN: NumPy's float32(nan) / nan).
FLOAT_BITS = {32: (0x7FFFFFFF, 0x7F800000, 0x7FC00000),
              64: (0x7FFFFFFFFFFFFFFF, 0x7FF0000000000000, 0x7FF8000000000000)}
# the same for the 16-bit formats, keyed by dtype (their width alone does not tell them apart)
NARROW_FLOAT_BITS = {"float16": (0x7FFF, 0x7C00, 0x7E00), "bfloat16": (0x7FFF, 0x7F80, 0x7FC0)}


class Backend:
    """What PyTorch and CuPy spell alike."""

    name = None

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


class Torch(Backend):
    name = "torch"

    def __init__(self, device):
        import torch
        self.m, self.device = torch, device
        # PyTorch has no gather/scatter kernels for uint32/uint64: those go as their signed bits
        self.signed = {getattr(torch, "uint%d" % b): getattr(torch, "int%d" % b) for b in (16, 32, 64)
                       if hasattr(torch, "uint%d" % b)}

    def context(self):
        return self.m.cuda.device(self.device)

    def take(self, a, idx):
        signed = self.signed.get(a.dtype)
        return a[idx] if signed is None else a.view(signed)[idx].view(a.dtype)

    def stream(self):
        return self.m.cuda.current_stream(self.device)

    def dt(self, name):
        return getattr(self.m, name)

    def empty(self, n, dtype):
        return self.m.empty(n, dtype=self.dt(dtype), device=self.device)

    def full(self, n, value, dtype):
        return self.m.full((n,), value, dtype=self.dt(dtype), device=self.device)

    def arange(self, n, dtype):
        return self.m.arange(n, dtype=self.dt(dtype), device=self.device)

    def astype(self, a, dtype):
        return a.to(self.dt(dtype))

    def bits(self, a, dtype):
        return a.view(self.dt(dtype))

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
        return self.m.div(a.to(self.dt(dtype)), b.to(self.dt(dtype)))

    def dtype_of(self, a):
        return str(a.dtype)[len("torch."):]

    def contiguous(self, a):
        return a if a.is_contiguous() else a.contiguous()

    def select(self, mask, a, b):
        """a where mask is set, else b (arrays or scalars)."""
        return self.m.where(mask, a, b)

    def stack_columns(self, columns):
        return self.m.stack(columns, dim=1)


class Cupy(Backend):
    """CuPy; any NumPy-like module as m (the host tests use NumPy)."""

    name = "cupy"

    def __init__(self, device, module=None):
        if module is None:
            import cupy as module
        self.m, self.device = module, device

    def context(self):
        return self.m.cuda.Device(self.device)

    def stream(self):
        return self.m.cuda.get_current_stream()

    def empty(self, n, dtype):
        return self.m.empty(n, dtype=dtype)

    def full(self, n, value, dtype):
        return self.m.full((n,), value, dtype=dtype)

    def arange(self, n, dtype):
        return self.m.arange(n, dtype=dtype)

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


def _fallback_name():
    for name in [n for n in ("cupy", "torch") if n in sys.modules] + ["cupy", "torch"]:
        try:
            __import__(name)
            return name
        except ImportError:
            continue
    raise InvalidArgumentError("gcol's functions need CuPy or PyTorch to run on Numba, "
                               "__cuda_array_interface__ or DLPack inputs; install one")


class Adopted:
    """An input as an array of its backend (PyTorch or CuPy), its dtype name
    and shape, and how results go back to the caller's kind of array. The
    array may still be strided or of a narrow dtype: the functions copy and
    widen it themselves (_keys.prepare)."""

    __slots__ = ("array", "backend", "back", "dtype", "shape", "n")

    def __init__(self, array, backend, back, dtype=None, shape=None):
        self.array, self.backend, self.back = array, backend, back
        self.dtype = backend.dtype_of(array) if dtype is None else dtype
        self.shape = tuple(array.shape) if shape is None else tuple(shape)
        n = 1
        for d in self.shape:
            n *= d
        self.n = n


def adopt(obj, what):
    """obj as a PyTorch tensor or CuPy array (zero-copy; strided views and
    narrow dtypes pass: the caller copies or widens them), or
    InvalidArgumentError naming `what` for host arrays, masked arrays and
    other objects."""
    lib = _arrays.library_of(obj)
    back = None
    try:
        if isinstance(lib, _arrays.Torch):
            if not obj.is_cuda:
                _arrays.view(obj)  # the host-array message
            arr = obj
        elif isinstance(lib, _arrays.Cupy):
            arr = obj
        elif isinstance(lib, _arrays.CudaArrayInterface):
            if obj.__cuda_array_interface__.get("mask") is not None:
                raise InvalidArgumentError("masked arrays are not supported")
            if _fallback_name() == "cupy":
                import cupy
                arr = cupy.asarray(obj)
            else:
                import torch
                arr = torch.as_tensor(obj, device="cuda")
            if isinstance(lib, _arrays.Numba):
                from numba import cuda
                back = cuda.as_cuda_array
        elif isinstance(lib, _arrays.DLPack):
            # bare capsules: PyTorch reads them best; __dlpack__ objects: either
            name = "torch" if type(obj) is _arrays.CapsuleType and "torch" in sys.modules else _fallback_name()
            if name == "cupy":
                import cupy
                arr = cupy.from_dlpack(obj)
            else:
                from torch.utils import dlpack
                arr = dlpack.from_dlpack(obj)
        else:
            _arrays.view(obj)  # raises the message for host arrays and other objects
            raise InvalidArgumentError("not a device array (%s)" % type(obj).__name__)
    except InvalidArgumentError as e:
        raise InvalidArgumentError("%s: %s" % (what, e)) from None
    if type(arr).__module__.partition(".")[0] == "torch":
        backend = Torch(arr.device)
    else:
        backend = Cupy(arr.device.id)
    return Adopted(arr, backend, back)


@contextlib.contextmanager
def on_device(backend):
    with backend.context():
        yield
