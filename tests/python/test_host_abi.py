"""Host-only: the ctypes mirrors of gcol.h's structs match the C compiler's
layout, and calls that need no device answer through them."""
import ctypes
import os
import pathlib
import shutil
import subprocess

import pytest

from gcol import _abi, _lib

ROOT = pathlib.Path(__file__).resolve().parents[2]
CUDA_HOME = os.environ.get("CUDA_HOME", "/usr/local/cuda")
STRUCTS = _abi.GCOL_STRUCTS  # every gcol.h struct the package mirrors
# Python fields that gather or spread C members: the sketches' "header" is
# GCOL_CONFIG_HEADER's three members, the strmap config's alloc / free / ctx
# are its allocator's.
C_MEMBER = {("header", "size"): "size", ("header", "magic"): "magic", ("header", "version"): "version"}
C_MEMBER_OF = {_abi.StrmapConfig: {("alloc",): "allocator.alloc", ("free",): "allocator.free",
                                   ("ctx",): "allocator.ctx"}}


def leaves(mirror, base=0, path=(), top=None):
    """(C member designator, offset, size) of every leaf field of a ctypes struct,
    nested structs flattened ("allocator.alloc", "map.seed")."""
    top = top or mirror
    for name, ftype in mirror._fields_:
        field = getattr(mirror, name)
        p = path + (name,)
        if isinstance(ftype, type) and issubclass(ftype, ctypes.Structure):
            yield from leaves(ftype, base + field.offset, p, top)
        else:
            member = C_MEMBER_OF.get(top, {}).get(p) or C_MEMBER.get(p, ".".join(p))
            yield member, base + field.offset, field.size


def c_layout(tmp_path):
    """{"struct" or "struct.member": offset or size} as the C compiler lays them out."""
    cc = shutil.which(os.environ.get("CC", "cc"))
    if cc is None or not (pathlib.Path(CUDA_HOME) / "include" / "cuda_runtime_api.h").exists():
        pytest.skip("needs a C compiler and the CUDA headers")
    lines = ['#include <stddef.h>', '#include <stdio.h>', '#include "gcol/gcol.h"', "int main(void) {",
             'printf("enum %zu\\n", sizeof(gcol_type_t));']
    for struct, mirror in STRUCTS.items():
        lines.append('printf("%s %%zu\\n", sizeof(%s));' % (struct, struct))
        for member, _, _ in leaves(mirror):
            lines.append('printf("%s.%s %%zu %%zu\\n", offsetof(%s, %s), sizeof(((%s *)0)->%s));'
                         % (struct, member, struct, member, struct, member))
    lines.append("return 0; }")
    src, exe = tmp_path / "layout.c", tmp_path / "layout"
    src.write_text("\n".join(lines))
    subprocess.run([cc, "-std=c11", "-I", str(ROOT / "include"), "-I", CUDA_HOME + "/include", str(src), "-o",
                    str(exe)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return dict(line.split(" ", 1) for line in out.splitlines())


def test_struct_layouts_match_the_header(tmp_path):
    layout = c_layout(tmp_path)
    assert int(layout["enum"]) == ctypes.sizeof(ctypes.c_int)
    for struct, mirror in STRUCTS.items():
        assert int(layout[struct]) == ctypes.sizeof(mirror), struct
        for member, offset, size in leaves(mirror):
            assert layout["%s.%s" % (struct, member)] == "%d %d" % (offset, size), (struct, member)


def test_every_signature_names_a_mirrored_struct_or_a_plain_type():
    """Struct arguments and results of every group are _abi's own classes."""
    mirrors = set(STRUCTS.values()) | {_abi.NcclUniqueId}
    for group in (_abi.CORE, _abi.SET, _abi.SKETCH, _abi.STRMAP, _abi.DIST, _abi.NCCL):
        for name, (restype, argtypes) in group.items():
            for t in (restype,) + tuple(argtypes):
                t = getattr(t, "_type_", t)  # POINTER(struct) -> struct
                if isinstance(t, type) and issubclass(t, ctypes.Structure):
                    assert t in mirrors, (name, t)


def test_config_defaults_come_back_by_value():
    f = _lib.functions()
    cfg = f.map_config_default(3, 5)  # GCOL_I64 keys, GCOL_F64 values
    assert (cfg.key_type, cfg.value_type, cfg.growable) == (3, 5, 0)
    assert cfg.max_load_factor == pytest.approx(0.8)
    assert (cfg.empty_key, cfg.erased_key, cfg.empty_value) == (2**64 - 1, 2**64 - 2, 2**64 - 1)
    cfg32 = f.map_config_default(0, 0)  # 32-bit sentinels
    assert (cfg32.empty_key, cfg32.erased_key) == (2**32 - 1, 2**32 - 2)
    mm = f.multimap_config_default(2, 2, 1)
    assert (mm.map.key_type, mm.engine, mm.num_buckets) == (2, 1, 0)


def test_type_sizes_come_from_the_library():
    f = _lib.functions()
    assert [f.type_size(t) for t in range(6)] == [4, 8, 4, 8, 4, 8]
    assert f.type_size(99) == 0
