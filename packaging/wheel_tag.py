"""The manylinux platform tag a built libgcol.so can honestly carry, from its
ELF dynamic section: the libraries it needs (DT_NEEDED) and the symbol
versions it needs from them (.gnu.version_r), as auditwheel judges them.

    python3 packaging/wheel_tag.py build/libgcol.so   # prints e.g. manylinux_2_28_x86_64

The tag is manylinux_2_<N>_<arch> with N the largest of
  - 28: CUDA 13 runs on glibc 2.28 and later (RHEL 8) and no older, so a
    wheel claims nothing below manylinux_2_28;
  - the newest GLIBC_2.N symbol version the library needs: a library linked
    on glibc >= 2.34 needs GLIBC_2.34 (the static CUDA runtime's pthread and dl calls), so
    only a library linked against older glibc's symbol versions (make
    wheel's second link, scripts/link_glibc.py, or a build in a
    quay.io/pypa/manylinux_2_28_* image) gets manylinux_2_28;
  - the glibc of the oldest manylinux policy whose libstdc++ / libgcc_s have
    the GLIBCXX_, CXXABI_ and GCC_ versions it needs.
A library needing any other shared library than the manylinux set, or C++
runtime versions newer than the table below, has no tag (ValueError).
Standard library only: setup.py runs it inside pip's build.
"""
import struct
import sys

# The shared libraries every manylinux system has (PEP 600 / auditwheel).
ALLOWED_NEEDED = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libstdc++.so.6",
                  "libgcc_s.so.1", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1", "libutil.so.1"}
FLOOR = (2, 28)
# glibc of a manylinux policy -> the newest GLIBCXX / CXXABI / GCC versions its
# compiler runtime has (auditwheel's policies: CentOS 7 gcc 4.8, AlmaLinux 8
# gcc 8, AlmaLinux 9 gcc 11).
CXX_POLICIES = [
    ((2, 17), {"GLIBCXX": (3, 4, 19), "CXXABI": (1, 3, 7), "GCC": (4, 8, 0)}),
    ((2, 28), {"GLIBCXX": (3, 4, 25), "CXXABI": (1, 3, 11), "GCC": (7, 0, 0)}),
    ((2, 34), {"GLIBCXX": (3, 4, 29), "CXXABI": (1, 3, 13), "GCC": (7, 0, 0)}),
]
MACHINES = {62: "x86_64", 183: "aarch64"}  # e_machine


def _sections(data):
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file")
    machine = struct.unpack_from("<H", data, 18)[0]
    shoff, = struct.unpack_from("<Q", data, 40)
    shentsize, shnum = struct.unpack_from("<HH", data, 58)
    sections = []
    for i in range(shnum):
        name, kind, _, _, offset, size, link, _, _, entsize = struct.unpack_from("<IIQQQQIIQQ", data,
                                                                                 shoff + i * shentsize)
        sections.append((kind, offset, size, link, entsize))
    return machine, sections


def _string(data, table_offset, at):
    end = data.index(b"\0", table_offset + at)
    return data[table_offset + at:end].decode()


def dependencies(path):
    """(machine name, [DT_NEEDED names], {library: [version names]}) of an ELF shared library."""
    with open(path, "rb") as f:
        data = f.read()
    machine, sections = _sections(data)
    needed, versions = [], {}
    for kind, offset, size, link, entsize in sections:
        strtab = sections[link][1] if link < len(sections) else 0
        if kind == 6:  # SHT_DYNAMIC: DT_NEEDED entries
            for at in range(offset, offset + size, 16):
                tag, value = struct.unpack_from("<qQ", data, at)
                if tag == 0:
                    break
                if tag == 1:
                    needed.append(_string(data, strtab, value))
        elif kind == 0x6ffffffe:  # SHT_GNU_verneed
            at = offset
            while True:
                _, count, file_at, aux, nxt = struct.unpack_from("<HHIII", data, at)
                names = versions.setdefault(_string(data, strtab, file_at), [])
                a = at + aux
                for _ in range(count):
                    _, _, _, name_at, anext = struct.unpack_from("<IHHII", data, a)
                    names.append(_string(data, strtab, name_at))
                    a += anext
                if not nxt:
                    break
                at += nxt
    return MACHINES.get(machine, "machine%d" % machine), needed, versions


def _parse(version_name):
    """("GLIBC", (2, 34)) of "GLIBC_2.34"; None for names like GLIBC_PRIVATE."""
    family, _, number = version_name.partition("_")
    try:
        return family, tuple(int(x) for x in number.split("."))
    except ValueError:
        return None


def required(path):
    """{family: newest version needed} over GLIBC, GLIBCXX, CXXABI and GCC."""
    _, _, versions = dependencies(path)
    newest = {}
    for names in versions.values():
        for name in names:
            parsed = _parse(name)
            if parsed and parsed[0] in ("GLIBC", "GLIBCXX", "CXXABI", "GCC"):
                family, v = parsed
                newest[family] = max(newest.get(family, v), v)
    return newest


def manylinux_glibc(path):
    """The (2, N) of the manylinux tag the library can carry (see the top); ValueError if none."""
    machine, needed, _ = dependencies(path)
    foreign = sorted(set(needed) - ALLOWED_NEEDED)
    if foreign:
        raise ValueError("%s needs %s, outside the manylinux set" % (path, ", ".join(foreign)))
    need = required(path)
    glibc = max(FLOOR, need.get("GLIBC", FLOOR)[:2])
    cxx = {k: v for k, v in need.items() if k != "GLIBC"}
    for policy_glibc, limits in CXX_POLICIES:
        if all(v <= limits[k] for k, v in cxx.items()):
            return max(glibc, policy_glibc)
    raise ValueError("%s needs C++ runtime versions %s, newer than any manylinux policy here knows"
                     % (path, ", ".join("%s_%s" % (k, ".".join(map(str, v))) for k, v in sorted(cxx.items()))))


def manylinux_tag(path):
    """The wheel platform tag, e.g. manylinux_2_28_x86_64."""
    machine = dependencies(path)[0]
    major, minor = manylinux_glibc(path)
    return "manylinux_%d_%d_%s" % (major, minor, machine)


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(manylinux_tag(p))
