"""Host-only: the ctypes mirrors of gcol.h's structs match the C compiler's
layout, and calls that need no device answer through them."""
import os
import pathlib
import shutil
import subprocess

import pytest

from gcol import _lib

ROOT = pathlib.Path(__file__).resolve().parents[2]
CUDA_HOME = os.environ.get("CUDA_HOME", "/usr/local/cuda")
STRUCTS = {"gcol_map_config_t": _lib.MapConfig, "gcol_multimap_config_t": _lib.MultimapConfig,
           "gcol_allocator_t": _lib.Allocator}


def c_layout(tmp_path):
    """{(struct, field or None): offset or size} as the C compiler lays them out."""
    cc = shutil.which(os.environ.get("CC", "cc"))
    if cc is None or not (pathlib.Path(CUDA_HOME) / "include" / "cuda_runtime_api.h").exists():
        pytest.skip("needs a C compiler and the CUDA headers")
    lines = ['#include <stddef.h>', '#include <stdio.h>', '#include "gcol/gcol.h"', "int main(void) {",
             'printf("enum %zu\\n", sizeof(gcol_type_t));']
    for struct, mirror in STRUCTS.items():
        lines.append('printf("%s %%zu\\n", sizeof(%s));' % (struct, struct))
        lines += ['printf("%s.%s %%zu\\n", offsetof(%s, %s));' % (struct, f, struct, f)
                  for f, _ in mirror._fields_]
    lines.append("return 0; }")
    src, exe = tmp_path / "layout.c", tmp_path / "layout"
    src.write_text("\n".join(lines))
    subprocess.run([cc, "-std=c11", "-I", str(ROOT / "include"), "-I", CUDA_HOME + "/include", str(src), "-o",
                    str(exe)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return dict(line.rsplit(" ", 1) for line in out.splitlines())


def test_struct_layouts_match_the_header(tmp_path):
    import ctypes
    layout = c_layout(tmp_path)
    assert int(layout["enum"]) == ctypes.sizeof(ctypes.c_int)
    for struct, mirror in STRUCTS.items():
        assert int(layout[struct]) == ctypes.sizeof(mirror), struct
        for field, _ in mirror._fields_:
            assert int(layout["%s.%s" % (struct, field)]) == getattr(mirror, field).offset, (struct, field)


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
