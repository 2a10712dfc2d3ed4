"""Every ctypes struct and C signature the package uses, in one place.

gcol.h's structs (mirrored field by field: tests/python/test_host_abi.py
compares each with the C compiler's layout) and the signatures of every
libgcol call, grouped by when they are bound:

    VERSION  gcol_version alone, bound first (_lib.load): it tells a library
             of another major version before the rest is bound
    CORE     bound when libgcol.so is loaded (_lib.load); VERSION among them
    SET, SKETCH, STRMAP
             bound on first use by their module (_lib.bind), so a library
             without them still serves maps
    DIST     libgcol_nccl.so's calls (_dist, when a DistMap is made)
    NCCL     libnccl.so.2's calls (_dist; names as NCCL spells them)
    CAPSULE  CPython's capsule API (ctypes.pythonapi), for DLPack (_arrays)

Signatures are {name: (restype, argtypes)}; libgcol names are given without
"gcol_" and bound as attributes of that name (bind). Statuses are ints.
The structs of the other ABIs read here (DLPack, NCCL's unique id) follow.
"""
import ctypes
from ctypes import POINTER, c_char_p, c_double, c_int, c_size_t, c_uint, c_uint32, c_uint64, c_void_p

# ---- gcol.h structs -------------------------------------------------------------


class Allocator(ctypes.Structure):
    """gcol_allocator_t (alloc and free hold ALLOC_FN / FREE_FN pointers)."""
    _fields_ = [("alloc", c_void_p), ("free", c_void_p), ("ctx", c_void_p)]


# gcol_allocator_t's callbacks: alloc(ctx, bytes, stream), free(ctx, ptr, bytes, stream)
ALLOC_FN = ctypes.CFUNCTYPE(c_void_p, c_void_p, c_size_t, c_void_p)
FREE_FN = ctypes.CFUNCTYPE(None, c_void_p, c_void_p, c_size_t, c_void_p)

# GCOL_CONFIG_HEADER: size, magic, version. Only the C _default functions fill
# it (a config is always one of theirs with fields changed), so a library of
# another version sees the struct this package was written against.
CONFIG_HEADER = [("size", c_size_t), ("magic", c_uint32), ("version", c_uint32)]


class ConfigHeader(ctypes.Structure):
    """GCOL_CONFIG_HEADER as one field ("header") of the sketches' configs."""
    _fields_ = CONFIG_HEADER


class MapConfig(ctypes.Structure):
    """gcol_map_config_t."""
    _fields_ = CONFIG_HEADER + [("key_type", c_int), ("value_type", c_int), ("capacity", c_size_t),
                                ("max_load_factor", c_double), ("growable", c_int), ("empty_key", c_uint64),
                                ("erased_key", c_uint64), ("empty_value", c_uint64), ("seed", c_uint64),
                                ("allocator", Allocator), ("growth_factor", c_int)]


class MultimapConfig(ctypes.Structure):
    """gcol_multimap_config_t."""
    _fields_ = CONFIG_HEADER + [("engine", c_int), ("num_buckets", c_size_t), ("map", MapConfig)]


class SetConfig(ctypes.Structure):
    """gcol_set_config_t (sets and multisets)."""
    _fields_ = CONFIG_HEADER + [("key_type", c_int), ("capacity", c_size_t), ("max_load_factor", c_double),
                                ("growable", c_int), ("empty_key", c_uint64), ("erased_key", c_uint64),
                                ("seed", c_uint64), ("allocator", Allocator), ("growth_factor", c_int)]


class BloomConfig(ctypes.Structure):
    """gcol_bloom_config_t."""
    _fields_ = [("header", ConfigHeader), ("key_type", c_int), ("size_bytes", c_size_t),
                ("expected_keys", c_size_t), ("target_fpr", c_double), ("seed", c_uint64), ("allocator", Allocator)]


class HllConfig(ctypes.Structure):
    """gcol_hll_config_t."""
    _fields_ = [("header", ConfigHeader), ("precision", c_int), ("seed", c_uint64), ("allocator", Allocator)]


class StrmapConfig(ctypes.Structure):
    """gcol_strmap_config_t (its allocator's three fields inline: alloc, free, ctx)."""
    _fields_ = CONFIG_HEADER + [("value_type", c_int), ("capacity", c_size_t), ("max_load_factor", c_double),
                                ("growable", c_int), ("empty_value", c_uint64), ("seed", c_uint64),
                                ("alloc", c_void_p), ("free", c_void_p), ("ctx", c_void_p),
                                ("growth_factor", c_int)]


class Strings(ctypes.Structure):
    """gcol_strings_t."""
    _fields_ = [("d_offsets", c_void_p), ("offset_type", c_int), ("d_chars", c_void_p), ("chars_bytes", c_size_t),
                ("n", c_size_t)]


# C type name -> mirror, for the layout test
GCOL_STRUCTS = {"gcol_allocator_t": Allocator, "gcol_map_config_t": MapConfig,
                "gcol_multimap_config_t": MultimapConfig, "gcol_set_config_t": SetConfig,
                "gcol_bloom_config_t": BloomConfig, "gcol_hll_config_t": HllConfig,
                "gcol_strmap_config_t": StrmapConfig, "gcol_strings_t": Strings}

# ---- libgcol signatures -----------------------------------------------------------

_P, _N, _E, _SP = c_void_p, c_size_t, c_int, POINTER(c_size_t)  # pointer, count, enum, size_t*
_H = POINTER(c_void_p)  # where a create call writes the handle

VERSION = {"version": (c_uint, ())}

CORE = {
    **VERSION,
    "status_string": (c_char_p, (_E,)),
    "last_cuda_error": (c_int, ()),
    "last_error_message": (c_char_p, ()),
    "type_size": (c_size_t, (_E,)),
    "map_config_default": (MapConfig, (_E, _E)),
    "map_create": (c_int, (_H, POINTER(MapConfig), _P)),
    "map_destroy": (None, (_P,)),
    "map_insert": (c_int, (_P, _P, _P, _N, _P, _P)),
    "map_insert_or_assign": (c_int, (_P, _P, _P, _N, _P)),
    "map_insert_and_find": (c_int, (_P, _P, _P, _N, _P, _P, _P)),
    "map_insert_or_apply": (c_int, (_P, _P, _P, _N, _E, _P)),
    "map_find": (c_int, (_P, _P, _N, _P, _P)),
    "map_contains": (c_int, (_P, _P, _N, _P, _P)),
    "map_erase": (c_int, (_P, _P, _N, _P, _P)),
    "map_retrieve_all": (c_int, (_P, _P, _P, _SP, _P)),
    "map_size": (c_int, (_P, _SP, _P)),
    "map_capacity": (c_int, (_P, _SP)),
    "map_clear": (c_int, (_P, _P)),
    "map_reserve": (c_int, (_P, _N, _P)),
    "map_status": (c_int, (_P, _P)),
    "multimap_config_default": (MultimapConfig, (_E, _E, _E)),
    "multimap_create": (c_int, (_H, POINTER(MultimapConfig), _P)),
    "multimap_destroy": (None, (_P,)),
    "multimap_insert": (c_int, (_P, _P, _P, _N, _P, _P)),
    "multimap_count": (c_int, (_P, _P, _N, _P, _P, _P)),
    "multimap_retrieve": (c_int, (_P, _SP, _P, _P, _N, _P, _P, _P, _N, _P, _P)),
    "multimap_retrieve_all": (c_int, (_P, _P, _P, _SP, _P)),
    "multimap_size": (c_int, (_P, _SP, _P)),
    "multimap_capacity": (c_int, (_P, _SP)),
    "multimap_clear": (c_int, (_P, _P)),
    "multimap_status": (c_int, (_P, _P)),
    "graph_create_csr": (c_int, (_H, _N, _N, _P, _P, _P, _P)),
    "graph_create_grid3d": (c_int, (_H, c_uint, c_uint, c_uint, _P, c_int, _P)),
    "graph_destroy": (None, (_P,)),
    "sssp_many_to_many": (c_int, (_P, _P, _N, _P, _N, _P, _P)),
    "sssp_many_to_many_pred": (c_int, (_P, _P, _N, _P, _N, _P, _P, _P)),
    "sssp_paths": (c_int, (_P, _P, _P, _N, _P, _P, _N, _P, _P)),
}

SET = {
    "set_config_default": (SetConfig, (_E,)),
    "set_create": (c_int, (_H, POINTER(SetConfig), _P)),
    "set_destroy": (None, (_P,)),
    "set_insert": (c_int, (_P, _P, _N, _P, _P)),
    "set_insert_and_contains": (c_int, (_P, _P, _N, _P, _P)),
    "set_contains": (c_int, (_P, _P, _N, _P, _P)),
    "set_erase": (c_int, (_P, _P, _N, _P, _P)),
    "set_retrieve_all": (c_int, (_P, _P, _SP, _P)),
    "set_size": (c_int, (_P, _SP, _P)),
    "set_capacity": (c_int, (_P, _SP)),
    "set_clear": (c_int, (_P, _P)),
    "set_reserve": (c_int, (_P, _N, _P)),
    "set_status": (c_int, (_P, _P)),
    "multiset_create": (c_int, (_H, POINTER(SetConfig), _P)),
    "multiset_destroy": (None, (_P,)),
    "multiset_insert": (c_int, (_P, _P, _N, _P, _P)),
    "multiset_count": (c_int, (_P, _P, _N, _P, _P, _P)),
    "multiset_contains": (c_int, (_P, _P, _N, _P, _P)),
    "multiset_retrieve": (c_int, (_P, _SP, _P, _P, _N, _P, _P, _N, _P, _P)),
    "multiset_retrieve_all": (c_int, (_P, _P, _SP, _P)),
    "multiset_size": (c_int, (_P, _SP, _P)),
    "multiset_capacity": (c_int, (_P, _SP)),
    "multiset_clear": (c_int, (_P, _P)),
    "multiset_status": (c_int, (_P, _P)),
}

SKETCH = {
    "bloom_config_default": (BloomConfig, (_E,)),
    "bloom_expected_fpr": (c_int, (_N, _N, POINTER(c_double))),
    "bloom_size_for": (c_int, (_N, c_double, _SP)),
    "bloom_create": (c_int, (_H, POINTER(BloomConfig), _P)),
    "bloom_destroy": (None, (_P,)),
    "bloom_add": (c_int, (_P, _P, _N, _P)),
    "bloom_contains": (c_int, (_P, _P, _N, _P, _P)),
    "bloom_clear": (c_int, (_P, _P)),
    "bloom_merge": (c_int, (_P, _P, _P)),
    "bloom_intersect": (c_int, (_P, _P, _P)),
    "bloom_bits": (c_int, (_P, _SP)),
    "bloom_size": (c_int, (_P, _SP)),
    "bloom_export_size": (c_int, (_P, _SP)),
    "bloom_export": (c_int, (_P, c_void_p, _N, _SP, _P)),
    "bloom_import": (c_int, (_P, c_void_p, _N, _P)),
    "hll_config_default": (HllConfig, ()),
    "hll_create": (c_int, (_H, POINTER(HllConfig), _P)),
    "hll_destroy": (None, (_P,)),
    "hll_add": (c_int, (_P, _P, _N, _E, _P)),
    "hll_merge": (c_int, (_P, _P, _P)),
    "hll_estimate": (c_int, (_P, POINTER(c_double), _P)),
    "hll_clear": (c_int, (_P, _P)),
    "hll_export_size": (c_int, (_P, _SP)),
    "hll_export": (c_int, (_P, c_void_p, _N, _SP, _P)),
    "hll_import": (c_int, (_P, c_void_p, _N, _P)),
    "hll_import_merge": (c_int, (_P, c_void_p, _N, _P)),
    "hll_precision": (c_int, (_P, POINTER(c_int))),
}

_S = POINTER(Strings)
STRMAP = {
    "strmap_config_default": (StrmapConfig, (_E,)),
    "strmap_create": (c_int, (_H, POINTER(StrmapConfig), _P)),
    "strmap_destroy": (None, (_P,)),
    "strmap_insert": (c_int, (_P, _S, _P, _P, _P)),
    "strmap_insert_and_find": (c_int, (_P, _S, _P, _P, _P, _P)),
    "strmap_insert_or_apply": (c_int, (_P, _S, _P, _E, _P)),
    "strmap_find": (c_int, (_P, _S, _P, _P)),
    "strmap_contains": (c_int, (_P, _S, _P, _P)),
    "strmap_retrieve_all": (c_int, (_P, _P, _E, _P, _P, _SP, _SP, _P)),
    "strmap_size": (c_int, (_P, _SP, _P)),
    "strmap_capacity": (c_int, (_P, _SP)),
    "strmap_clear": (c_int, (_P, _P)),
    "strmap_status": (c_int, (_P, _P)),
}

# ---- libgcol_nccl and NCCL ----------------------------------------------------------


class NcclUniqueId(ctypes.Structure):
    """ncclUniqueId (NCCL_UNIQUE_ID_BYTES = 128)."""
    _fields_ = [("internal", ctypes.c_char * 128)]


DIST = {
    "dist_map_create": (c_int, (_H, POINTER(MapConfig), _P, _P)),
    "dist_map_destroy": (None, (_P,)),
    "dist_map_insert": (c_int, (_P, _P, _P, _N, _P)),
    "dist_map_insert_or_assign": (c_int, (_P, _P, _P, _N, _P)),
    "dist_map_insert_or_apply": (c_int, (_P, _P, _P, _N, c_int, _P)),
    "dist_map_find": (c_int, (_P, _P, _N, _P, _P)),
    "dist_map_contains": (c_int, (_P, _P, _N, _P, _P)),
    "dist_map_erase": (c_int, (_P, _P, _N, _P)),
    "dist_map_size": (c_int, (_P, _SP, _P)),
    "dist_map_retrieve_all": (c_int, (_P, _P, _P, _SP, _P)),
    "dist_map_shard": (_P, (_P,)),
    "dist_group_start": (c_int, ()),
    "dist_group_end": (c_int, ()),
    "dist_last_error_message": (c_char_p, ()),
}

NCCL = {
    "ncclGetUniqueId": (c_int, (POINTER(NcclUniqueId),)),
    "ncclCommInitRank": (c_int, (POINTER(c_void_p), c_int, NcclUniqueId, c_int)),
    "ncclCommInitAll": (c_int, (POINTER(c_void_p), c_int, POINTER(c_int))),
    "ncclCommDestroy": (c_int, (_P,)),
    "ncclGetErrorString": (c_char_p, (c_int,)),
}

# ---- DLPack (dlpack.h) and CPython's capsules -------------------------------------------


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", POINTER(ctypes.c_int64)),
                ("strides", POINTER(ctypes.c_int64)), ("byte_offset", c_uint64)]


DL_DELETER = ctypes.CFUNCTYPE(None, c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", c_void_p), ("deleter", DL_DELETER)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", c_uint32 * 2), ("manager_ctx", c_void_p),
                ("deleter", DL_DELETER), ("flags", c_uint64), ("dl_tensor", DLTensor)]


CAPSULE = {
    "PyCapsule_IsValid": (c_int, (ctypes.py_object, c_char_p)),
    "PyCapsule_GetPointer": (c_void_p, (ctypes.py_object, c_char_p)),
    "PyCapsule_SetName": (c_int, (ctypes.py_object, c_char_p)),
}


def bind(obj, dll, signatures, prefix="gcol_"):
    """Set restype and argtypes of dll's prefix + name for every entry of
    signatures, and make each an attribute `name` of obj; returns obj."""
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(dll, prefix + name)
        fn.restype, fn.argtypes = restype, argtypes
        setattr(obj, name, fn)
    return obj
