#!/usr/bin/env python3
"""Check a built gcol wheel the way PyPI and pip will meet it:

  - the file name is gcol_cuda13x-<version>-py3-none-manylinux_2_N_<arch>.whl
    (a platform tag PyPI takes: not linux_<arch>);
  - its WHEEL file says Root-Is-Purelib: false and carries that one tag;
  - METADATA names the distribution gcol-cuda13x, License-Expression
    Apache-2.0, and the wheel holds the licence (dist-info/licenses/LICENSE);
  - the library inside (gcol/libgcol.so.MAJOR) needs no newer glibc and C++
    runtime than the tag promises, and no shared library outside the
    manylinux set (packaging/wheel_tag.py, auditwheel's rules);
  - with --require manylinux_2_28: the tag is exactly that one (release wheels).

    python3 scripts/check_wheel.py [--require TAG] WHEEL...
Prints one line per wheel; exits 1 on the first broken rule.
"""
import argparse
import os
import re
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "packaging"))
import wheel_tag  # noqa: E402

DIST = "gcol_cuda13x"
NAME = re.compile(r"^%s-(?P<version>[^-]+)-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<plat>[^-]+)\.whl$" % DIST)
MANYLINUX = re.compile(r"^manylinux_(\d+)_(\d+)_(x86_64|aarch64)$")


def fail(wheel, why):
    sys.exit("FAIL %s: %s" % (os.path.basename(wheel), why))


def check(wheel, require=None):
    m = NAME.match(os.path.basename(wheel))
    if not m:
        fail(wheel, "not named %s-VERSION-PY-ABI-PLATFORM.whl" % DIST)
    plat = m.group("plat")
    tag = MANYLINUX.match(plat)
    if (m.group("py"), m.group("abi")) != ("py3", "none") or not tag:
        fail(wheel, "tag %s-%s-%s is not py3-none-manylinux_2_N_<arch>" % (m.group("py"), m.group("abi"), plat))
    if require and plat != require:
        fail(wheel, "tag %s, not the required %s" % (plat, require))
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        info = "%s-%s.dist-info/" % (DIST, m.group("version"))
        wheel_file = z.read(info + "WHEEL").decode()
        metadata = z.read(info + "METADATA").decode()
        if "Root-Is-Purelib: false" not in wheel_file:
            fail(wheel, "WHEEL does not say Root-Is-Purelib: false")
        tags = re.findall(r"^Tag: (.*)$", wheel_file, re.M)
        if tags != ["py3-none-" + plat]:
            fail(wheel, "WHEEL's tags %s are not [py3-none-%s]" % (tags, plat))
        if not re.search(r"^Name: gcol-cuda13x$", metadata, re.M):
            fail(wheel, "METADATA does not name the distribution gcol-cuda13x")
        if not re.search(r"^License-Expression: Apache-2.0$", metadata, re.M):
            fail(wheel, "METADATA has no License-Expression: Apache-2.0")
        if info + "licenses/LICENSE" not in names:
            fail(wheel, "no %slicenses/LICENSE" % info)
        libraries = [n for n in names if re.match(r"^gcol/libgcol\.so\.\d+$", n)]
        if len(libraries) != 1:
            fail(wheel, "holds %s, not one gcol/libgcol.so.MAJOR" % (libraries or "no library"))
        with tempfile.TemporaryDirectory() as tmp:
            library = z.extract(libraries[0], tmp)
            try:
                need = wheel_tag.manylinux_glibc(library)
                machine = wheel_tag.dependencies(library)[0]
            except ValueError as e:
                fail(wheel, str(e))
    promised = (int(tag.group(1)), int(tag.group(2)))
    if need > promised or machine != tag.group(3):
        fail(wheel, "the library needs manylinux_%d_%d_%s; the tag promises %s" % (need + (machine, plat)))
    print("PASS %s: %s, the library needs glibc %d.%d" % (os.path.basename(wheel), plat, need[0], need[1]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--require", help="the exact platform tag, e.g. manylinux_2_28_x86_64")
    parser.add_argument("wheels", nargs="+")
    args = parser.parse_args()
    for wheel in args.wheels:
        check(wheel, args.require)


if __name__ == "__main__":
    main()
