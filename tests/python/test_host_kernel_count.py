"""Host-only: scripts/kernel_count.py (the kernel budget of issue 42) reads the
fat binaries of a file as cuobjdump would, and fails only past budget + 10%."""
import importlib.util
import os
import pathlib
import struct
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "kernel_count.py"
spec = importlib.util.spec_from_file_location("kernel_count", SCRIPT)
kc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kc)


def cubin(symbols):
    """A minimal ELF64 cubin: sections null, .strtab, .symtab; symbols are
    (name, st_info, st_other)."""
    strtab = b"\0" + b"".join(n.encode() + b"\0" for n, _, _ in symbols) + b".strtab\0.symtab\0"
    names, at = [], 1
    for n, _, _ in symbols:
        names.append(at)
        at += len(n) + 1
    sym_strtab_name, sym_symtab_name = at, at + len(".strtab") + 1
    symtab = b"\0" * 24 + b"".join(struct.pack("<IBBHQQ", names[i], info, other, 1, 0, 0)
                                   for i, (_, info, other) in enumerate(symbols))
    header_size = 64
    strtab_off = header_size
    symtab_off = strtab_off + len(strtab)
    shoff = symtab_off + len(symtab)
    sections = [struct.pack("<IIQQQQIIQQ", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                struct.pack("<IIQQQQIIQQ", sym_strtab_name, 3, 0, 0, strtab_off, len(strtab), 0, 0, 1, 0),
                struct.pack("<IIQQQQIIQQ", sym_symtab_name, 2, 0, 0, symtab_off, len(symtab), 1, 1, 8, 24)]
    ehdr = bytearray(b"\x7fELF\x02\x01\x01" + b"\0" * 57)
    struct.pack_into("<Q", ehdr, 0x28, shoff)
    struct.pack_into("<HHH", ehdr, 0x3A, 64, len(sections), 0)  # shentsize, shnum, shstrndx (unused)
    return bytes(ehdr) + strtab + symtab + b"".join(sections)


def lz4_literals(data):
    """data as one LZ4 block of literals only (what any LZ4 decoder must read)."""
    n = len(data)
    if n < 15:
        return bytes([n << 4]) + data
    rest, out = n - 15, bytearray([0xF0])
    while rest >= 255:
        out.append(255)
        rest -= 255
    out.append(rest)
    return bytes(out) + data


def fatbin(entries):
    """A fat binary of (kind, sm, payload, compressed_from) entries."""
    body = b""
    for kind, sm, payload, original in entries:
        header = bytearray(64)
        struct.pack_into("<HHIQ", header, 0, kind, 0x0101, 64, len(payload))
        struct.pack_into("<I", header, 16, len(payload) if original else 0)
        struct.pack_into("<I", header, 28, sm)
        struct.pack_into("<Q", header, 40, 0x11 | (kc.FLAG_COMPRESSED if original else 0))
        struct.pack_into("<Q", header, 56, len(original) if original else 0)
        body += bytes(header) + payload
    return struct.pack("<IHHQ", kc.FATBIN_MAGIC, 1, 16, len(body)) + body


ENTRY, FUNC = kc.STO_CUDA_ENTRY, kc.STT_FUNC
KERNELS = [("_Z6kernelv", FUNC, ENTRY), ("_Z6helperv", FUNC, 0), ("_Z5otherv", FUNC, ENTRY), ("data", 1, 0)]


def binary(tmp_path):
    elf = cubin(KERNELS)
    blob = fatbin([(0x10, 80, elf, None), (1, 90, b"// ptx .entry x", None), (2, 90, lz4_literals(elf), elf)])
    path = tmp_path / "lib.so"
    path.write_bytes(b"\0" * 100 + struct.pack("<I", kc.FATBIN_MAGIC) + b"junk" + blob + b"\0" * 10)
    return path


def test_entries_per_sass_target_compressed_or_not(tmp_path):
    found = kc.kernels_per_target(str(binary(tmp_path)))
    assert sorted(found) == [80, 90]  # the PTX entry is not a SASS target
    for sm in (80, 90):
        assert sorted(found[sm]) == ["_Z5otherv", "_Z6kernelv"]  # device functions and data are not kernels


def test_lz4_matches_overlap():
    # literal "ab", then a match of 6 at offset 2: "abababab"
    block = bytes([0x22]) + b"ab" + struct.pack("<H", 2) + bytes([0x00])
    assert kc.lz4_block(block, 8) == b"abababab"


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True)


def test_budget_passes_within_ten_percent_and_fails_past_it(tmp_path):
    lib = binary(tmp_path)
    budget = tmp_path / "budget.txt"
    budget.write_text("# kernels per target\nsm_80 2\nsm_90 1  # 2 > 1.1\n")
    r = run("--budget", budget, lib)
    assert r.returncode == 1 and "sm_90" in r.stdout.splitlines()[-1] and "exceeded" in r.stdout
    budget.write_text("sm_80 2\n")  # sm_90 has no line: named, not checked
    r = run("--budget", budget, lib)
    assert r.returncode == 0, r.stdout
    assert "kernels in %s: sm_80 2, sm_90 2" % lib in r.stdout and "sm_90: no budget" in r.stdout
    assert run("--list", "sm_80", lib).stdout.split() == ["_Z5otherv", "_Z6kernelv"]


def test_the_budget_file_is_tracked_and_names_the_default_targets():
    budget = kc.read_budget(str(ROOT / "src" / "kernel_budget.txt"))
    assert set(budget) == {80, 90} and all(n > 0 for n in budget.values())
    assert "scripts/kernel_count.py" in (ROOT / "MANIFEST.in").read_text()  # make libgcol.so from an sdist runs it


def test_the_built_library_carries_kernels():
    lib = pathlib.Path(os.environ.get("GCOL_LIBRARY") or ROOT / "build" / "libgcol.so")
    if not lib.exists():
        pytest.skip("no built libgcol.so")
    found = kc.kernels_per_target(str(lib))
    assert found and all(len(names) > 0 for names in found.values())
