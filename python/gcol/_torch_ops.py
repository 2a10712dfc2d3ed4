"""torch.compile support (issue 41, item 8): gcol.isin, gcol.unique and
Map.find / Map.contains as PyTorch custom operators (``torch.ops.gcol.*``,
``torch.library.custom_op``) with fake implementations, so that a function
compiled with ``fullgraph=True`` keeps them in its graph.

Nothing here imports PyTorch: the operators are registered once, when gcol
is imported after PyTorch, or else at gcol's first call on a PyTorch tensor
(_arrays.Torch). While torch.compile traces, the public calls see a tensor
and go to the operator (``traced``); run eagerly they take their usual path.
Only single tensors go through the operators (a tuple of key columns, out=
or stream= is a graph break, as any other Python call gcol makes).
"""
import sys

_torch = None  # the torch module, once the operators are registered
_is_compiling = None  # torch.compiler.is_compiling, likewise


def traced(*tensors):
    """Whether torch.compile is tracing a call on these PyTorch tensors."""
    if _is_compiling is None or not _is_compiling():
        return False
    for t in tensors:
        if not isinstance(t, _torch.Tensor):
            return False
    return True


def register():
    """Define gcol's operators in PyTorch (once; PyTorch must be imported)."""
    global _torch, _is_compiling
    if _torch is not None:
        return
    import torch
    from torch import Tensor

    from . import _arrays, _handle, _isin, _lib, _unique

    def fresh(results, inputs):
        """results with every one that shares memory with an input or an
        earlier result copied: an operator's outputs alias nothing."""
        seen = {t.untyped_storage().data_ptr() for t in inputs}
        out = []
        for r in results:
            if r.untyped_storage().data_ptr() in seen:
                r = r.clone()
            seen.add(r.untyped_storage().data_ptr())
            out.append(r)
        return out

    @torch.library.custom_op("gcol::isin", mutates_args=())
    def isin_op(x: Tensor, test_values: Tensor, invert: bool, assume_unique: bool) -> Tensor:
        found = _isin.isin(x, test_values, invert=invert, assume_unique=assume_unique)
        return fresh([found], [x, test_values])[0]

    @isin_op.register_fake
    def _(x, test_values, invert, assume_unique):
        return x.new_empty(x.shape, dtype=torch.bool)

    @torch.library.custom_op("gcol::unique", mutates_args=())
    def unique_op(x: Tensor, sorted: bool, return_index: bool, return_inverse: bool,
                  return_counts: bool) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        results = _unique.unique(x, sorted=sorted, return_index=return_index, return_inverse=return_inverse,
                                 return_counts=return_counts)
        results = list(results) if isinstance(results, tuple) else [results]
        values = results.pop(0)
        none = x.new_empty((0,), dtype=torch.int64)  # an operator returns all four: those not asked for are empty
        index = results.pop(0) if return_index else none
        inverse = results.pop(0) if return_inverse else none
        counts = results.pop(0) if return_counts else none
        values, index, inverse, counts = fresh([values, index, inverse, counts], [x])
        return values, index, inverse, counts

    @unique_op.register_fake
    def _(x, sorted, return_index, return_inverse, return_counts):
        k = torch.library.get_ctx().new_dynamic_size()  # how many distinct values: known when it has run
        int64 = torch.int64
        return (x.new_empty((k,)), x.new_empty((k if return_index else 0,), dtype=int64),
                x.new_empty(x.shape if return_inverse else (0,), dtype=int64),
                x.new_empty((k if return_counts else 0,), dtype=int64))

    def lookup(name, handle, keys, key_dtype, out_dtype):
        """gcol_map_find / gcol_map_contains on the map `handle`, on the current stream."""
        k = _handle.typed(keys, key_dtype, "keys")
        out = k.lib.empty(k.shape, out_dtype, k)
        status = getattr(_lib.functions(), name)(handle, k.ptr, k.n, _arrays.view(out).ptr, k.lib.stream(k))
        if status:
            raise _lib.error(status, "gcol_" + name)
        return out

    def lookup_fake(keys, key_dtype, out_dtype):
        shape = keys.shape[:-1] if key_dtype == "u128" else keys.shape  # u128 keys: (n, 2) words
        return keys.new_empty(shape, dtype=getattr(torch, out_dtype))

    @torch.library.custom_op("gcol::map_find", mutates_args=())
    def map_find_op(handle: int, keys: Tensor, key_dtype: str, value_dtype: str) -> Tensor:
        return lookup("map_find", handle, keys, key_dtype, value_dtype)

    @map_find_op.register_fake
    def _(handle, keys, key_dtype, value_dtype):
        return lookup_fake(keys, key_dtype, value_dtype)

    @torch.library.custom_op("gcol::map_contains", mutates_args=())
    def map_contains_op(handle: int, keys: Tensor, key_dtype: str) -> Tensor:
        return lookup("map_contains", handle, keys, key_dtype, "bool")

    @map_contains_op.register_fake
    def _(handle, keys, key_dtype):
        return lookup_fake(keys, key_dtype, "bool")

    _torch, _is_compiling = torch, torch.compiler.is_compiling


def register_if_imported():
    """register() when PyTorch is already imported (gcol's import): never imports it."""
    if "torch" in sys.modules and _torch is None:
        try:
            register()
        except Exception:  # a PyTorch without torch.library.custom_op (< 2.4): no torch.compile support
            pass


# ---- what the public calls run while torch.compile traces ---------------------
def isin(x, test_values, invert, assume_unique):
    return _torch.ops.gcol.isin(x, test_values, invert, assume_unique)


def unique(x, sorted, return_index, return_inverse, return_counts):
    values, index, inverse, counts = _torch.ops.gcol.unique(x, sorted, return_index, return_inverse,
                                                            return_counts)
    results = [values]
    if return_index:
        results.append(index)
    if return_inverse:
        results.append(inverse)
    if return_counts:
        results.append(counts)
    return results[0] if len(results) == 1 else tuple(results)


def map_find(m, keys):
    return _torch.ops.gcol.map_find(m._handle(), keys, m.key_dtype, m.value_dtype)


def map_contains(m, keys):
    return _torch.ops.gcol.map_contains(m._handle(), keys, m.key_dtype)
