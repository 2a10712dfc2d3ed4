"""Types of gcol's public signatures (issue 41, item 7).

gcol takes the device arrays of several libraries (CuPy, PyTorch, Numba,
``__cuda_array_interface__`` and DLPack producers) and depends on none of
them, so an array is a type variable: a function typed ``(x: Array) ->
Array`` returns arrays of the caller's type (torch.Tensor in, torch.Tensor
out), as it does for CuPy, PyTorch and Numba inputs. (DLPack inputs come
back as CuPy or PyTorch arrays: type such calls with the library you get.)
"""
from typing import Any, Literal, Sequence, Tuple, TypeVar, Union

Array = TypeVar("Array")  # a device array type: results come in the caller's
KeyColumns = Tuple[Any, ...]  # several key columns, one key per row
DTypeLike = Any  # "int64", numpy.int64, torch.int64, ...
StreamLike = Any  # an int handle, or a CuPy, PyTorch or Numba stream
How = Literal["inner", "left", "right", "outer", "semi", "anti"]
OpName = Literal["sum", "min", "max", "count", "mean"]
Ops = Union[OpName, Sequence[OpName]]

__all__ = ["Array", "KeyColumns", "DTypeLike", "StreamLike", "How", "OpName", "Ops"]
