#!/usr/bin/env python3
"""The kernels a CUDA binary carries, per SASS target, and the budget check.

    scripts/kernel_count.py build/libgcol.so
        prints "kernels in build/libgcol.so: sm_80 238, sm_90 238" (one count per
        SASS target: every __global__ function of every cubin of that target)
    scripts/kernel_count.py --budget src/kernel_budget.txt build/libgcol.so
        the same, then fails (exit 1) where a target's count is more than 10%
        over its budget line ("sm_90 238"); targets without a line are named
        and not checked
    scripts/kernel_count.py --list sm_90 build/libgcol.so
        the kernels' (mangled) names for one target, one per line

Why not cuobjdump: the toolkit on the build machines (and in CI) has nvcc
without cuobjdump. This reads what cuobjdump --list-elf would: the fat
binaries (magic 0xBA55ED50) in the file's bytes, their ELF entries (kinds
0x02 and 0x10, one per SASS target; LZ4-compressed ones are decompressed
here, zstd ones with compression.zstd or zstandard when present), and in each
cubin's symbol table the functions marked STO_CUDA_ENTRY (0x10 in st_other),
which are the kernels (`cuobjdump -res-usage` lists the same "Function" names
with .text sections). PTX entries (kind 1) are JIT input, not SASS: not
counted. Works on .so, .o and .a files alike. (nvcc 13.0 as the Makefile
calls it writes them uncompressed.)
"""
import argparse
import struct
import sys

FATBIN_MAGIC = 0xBA55ED50
ENTRY_ELF = (0x02, 0x10)  # cubins (0x01 is PTX)
FLAG_COMPRESSED = 0x2000  # the entry's payload is an LZ4 block
FLAG_ZSTD = 0x8000  # the entry's payload is a zstd frame (newer toolkits' compression)
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
STO_CUDA_ENTRY = 0x10
STT_FUNC = 2
SHT_SYMTAB = 2
TOLERANCE = 1.10  # a count may grow 10% over its budget


def lz4_length(src, i, n):
    """An LZ4 length field: its 4-bit nibble n, plus the bytes at src[i:]
    that extend it when the nibble is 15 (each adds itself; 255 means more).
    Returns (length, the index after it)."""
    if n == 15:
        while True:
            b = src[i]
            i += 1
            n += b
            if b != 255:
                break
    return n, i


def lz4_block(src, size):
    """Decompress one LZ4 block (no frame) of `size` bytes."""
    out = bytearray()
    i = 0
    while i < len(src):
        token = src[i]
        i += 1
        n, i = lz4_length(src, i, token >> 4)
        out += src[i:i + n]
        i += n
        if i >= len(src) or len(out) >= size:
            break
        offset = src[i] | src[i + 1] << 8
        i += 2
        m, i = lz4_length(src, i, token & 15)
        m += 4
        start = len(out) - offset
        if offset <= 0 or start < 0:
            raise ValueError("corrupt LZ4 block")
        for k in range(m):  # byte by byte: a match may overlap what it copies
            out.append(out[start + k])
    if len(out) != size:
        raise ValueError("LZ4 block gave %d bytes, not %d" % (len(out), size))
    return bytes(out)


def zstd_frame(src):
    """Decompress a zstd frame: Python 3.14's compression.zstd or the
    zstandard package, whichever is there."""
    try:
        from compression import zstd
        return zstd.decompress(src)
    except ImportError:
        pass
    try:
        import zstandard
    except ImportError:
        raise ValueError("a SASS entry is zstd-compressed: count with Python >= 3.14 or the zstandard package, "
                         "or build with nvcc -compress-mode=none") from None
    return zstandard.ZstdDecompressor().decompress(src, max_output_size=1 << 31)


def cubins(data):
    """(sm, cubin bytes) of every SASS entry of every fat binary in data."""
    at = 0
    magic = struct.pack("<I", FATBIN_MAGIC)
    while True:
        at = data.find(magic, at)
        if at < 0:
            return
        _, version, header_size, fat_size = struct.unpack_from("<IHHQ", data, at)
        if version != 1 or header_size != 16 or at + header_size + fat_size > len(data):
            at += 4  # these bytes only look like a fat binary
            continue
        p, end = at + header_size, at + header_size + fat_size
        while p < end:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", data, p)
            compressed_size, = struct.unpack_from("<I", data, p + 16)
            sm, = struct.unpack_from("<I", data, p + 28)
            flags, = struct.unpack_from("<Q", data, p + 40)
            body = data[p + entry_header:p + entry_header + payload]
            if kind in ENTRY_ELF:
                if flags & FLAG_ZSTD or body[:4] == ZSTD_MAGIC:
                    body = zstd_frame(body[:compressed_size or len(body)])
                elif flags & FLAG_COMPRESSED:
                    full, = struct.unpack_from("<Q", data, p + 56)
                    body = lz4_block(body[:compressed_size], full)
                if body[:4] != b"\x7fELF":
                    raise ValueError("a SASS entry for sm_%d at byte %d is not an ELF file (flags %#x)"
                                     % (sm, p, flags))
                yield sm, body
            p += entry_header + payload
        at = end


def entry_names(elf):
    """Names of the kernels (STO_CUDA_ENTRY functions) of one cubin."""
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + k * shentsize) for k in range(shnum)]
    names = []
    for _, sh_type, _, _, offset, size, link, _, _, entsize in sections:
        if sh_type != SHT_SYMTAB:
            continue
        strtab = sections[link][4]
        for k in range(size // (entsize or 24)):
            st_name, st_info, st_other = struct.unpack_from("<IBB", elf, offset + k * (entsize or 24))
            if st_info & 15 == STT_FUNC and st_other & STO_CUDA_ENTRY:
                end = elf.index(b"\0", strtab + st_name)
                names.append(elf[strtab + st_name:end].decode())
    return names


def kernels_per_target(path):
    """{sm: [kernel names]} of the binary at path."""
    with open(path, "rb") as f:
        data = f.read()
    found = {}
    for sm, elf in cubins(data):
        found.setdefault(sm, []).extend(entry_names(elf))
    return found


def read_budget(path):
    """{sm: budget} from lines "sm_90 238" (# comments)."""
    budget = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                budget[int(line[0].replace("sm_", ""))] = int(line[1])
    return budget


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--budget", help="file of 'sm_XX N' lines: fail where a count exceeds N by more than 10%%")
    ap.add_argument("--list", metavar="SM", help="print the kernel names of one target (e.g. sm_90)")
    a = ap.parse_args()
    found = kernels_per_target(a.binary)
    if a.list:
        for name in sorted(found.get(int(a.list.replace("sm_", "")), [])):
            print(name)
        return 0
    counts = ", ".join("sm_%d %d" % (sm, len(found[sm])) for sm in sorted(found)) or "none"
    print("kernels in %s: %s" % (a.binary, counts))
    if not a.budget:
        return 0
    budget = read_budget(a.budget)
    bad = []
    for sm in sorted(found):
        n = len(found[sm])
        if sm not in budget:
            print("  sm_%d: no budget in %s (not checked)" % (sm, a.budget))
            continue
        limit = int(budget[sm] * TOLERANCE)
        verdict = "over the budget" if n > limit else "within the budget"
        print("  sm_%d: %d kernels, budget %d (at most %d): %s" % (sm, n, budget[sm], limit, verdict))
        if n > limit:
            bad.append(sm)
    if bad:
        print("kernel budget exceeded for %s: fewer instantiations, or a new budget in %s with the reason "
              "in its commit" % (", ".join("sm_%d" % sm for sm in bad), a.budget))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
