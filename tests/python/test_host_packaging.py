"""Host-only: the distribution's metadata (name, licence, Python, extras), the
manylinux tag of the built library and scripts/check_wheel.py on wheels made
here from it, and the editable install's search of the build tree."""
import itertools
import os
import pathlib
import subprocess
import sys
import zipfile

import pytest

import gcol
from gcol import _lib

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
import wheel_tag  # noqa: E402

tomllib = pytest.importorskip("tomllib")  # Python 3.11+
LIBRARY = pathlib.Path(os.environ.get("GCOL_LIBRARY", ROOT / "build" / "libgcol.so"))
needs_library = pytest.mark.skipif(not LIBRARY.is_file(), reason="no built libgcol.so")


def project():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_the_distribution_is_gcol_cuda13x_under_apache_2():
    p = project()
    assert p["name"] == "gcol-cuda13x"
    assert p["license"] == "Apache-2.0" and p["license-files"] == ["LICENSE"]
    assert p["requires-python"] == ">=3.10"
    assert set(p["optional-dependencies"]) == {"torch", "cupy", "arrow", "test"}
    assert {"pytest", "numpy", "hypothesis", "pandas"} <= set(p["optional-dependencies"]["test"])
    assert not any(c.startswith("License ::") for c in p["classifiers"])  # PEP 639: the expression alone
    assert (ROOT / p["readme"]).is_file()
    text = (ROOT / "LICENSE").read_text()
    assert text.lstrip().startswith("Apache License") and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
    manifest = (ROOT / "MANIFEST.in").read_text()
    assert "LICENSE" in manifest and "python/README.md" in manifest and "packaging/wheel_tag.py" in manifest


def test_the_docs_say_which_distribution_to_install():
    for page in ("README.md", "python/README.md"):
        text = (ROOT / page).read_text()
        assert "pip install gcol-cuda13x" in text, page
        assert "graph-colouring" in text, page  # the unrelated `gcol` on PyPI


@needs_library
def library_tag():
    """The library's manylinux tag; skips where the build machine's C++ runtime
    is newer than every policy wheel_tag knows (no honest tag exists there:
    release wheels are built in the manylinux_2_28 image)."""
    try:
        return wheel_tag.manylinux_tag(str(LIBRARY))
    except ValueError as e:
        if "newer than any manylinux policy" in str(e):
            pytest.skip(str(e))
        raise


def test_the_library_has_a_manylinux_tag():
    tag = library_tag()
    major, minor = wheel_tag.manylinux_glibc(str(LIBRARY))
    assert tag == "manylinux_%d_%d_x86_64" % (major, minor) and (major, minor) >= (2, 28)
    machine, needed, versions = wheel_tag.dependencies(str(LIBRARY))
    assert "libc.so.6" in needed and not any("cudart" in n for n in needed)  # the runtime is static


def make_wheel(tmp_path, platform, library, license_file=True, name="gcol_cuda13x"):
    """A wheel like setup.py's, holding library, with the given platform tag."""
    version = gcol.__version__
    path = tmp_path / ("%s-%s-py3-none-%s.whl" % (name, version, platform))
    info = "gcol_cuda13x-%s.dist-info/" % version
    with zipfile.ZipFile(path, "w") as z:
        z.write(library, "gcol/libgcol.so.%d" % gcol.version()[0])
        z.writestr("gcol/__init__.py", "")
        z.writestr(info + "WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: py3-none-%s\n" % platform)
        z.writestr(info + "METADATA", "Metadata-Version: 2.4\nName: gcol-cuda13x\nVersion: %s\n"
                                      "License-Expression: Apache-2.0\n" % version)
        if license_file:
            z.writestr(info + "licenses/LICENSE", (ROOT / "LICENSE").read_text())
    return path


def check_wheel(*args):
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "check_wheel.py"), *map(str, args)],
                          capture_output=True, text=True)


@needs_library
def test_check_wheel_passes_an_honest_wheel_and_fails_the_others(tmp_path):
    tag = library_tag()
    (tmp_path / "a").mkdir()
    good = check_wheel(make_wheel(tmp_path / "a", tag, LIBRARY))
    assert good.returncode == 0 and good.stdout.startswith("PASS"), good.stdout + good.stderr
    for sub, platform, kwargs, why in [
            ("b", "linux_x86_64", {}, "is not py3-none-manylinux"),
            ("c", "manylinux_2_17_x86_64", {}, "the tag promises"),  # older than CUDA 13's glibc
            ("d", tag, {"license_file": False}, "licenses/LICENSE"),
            ("e", tag, {"name": "gcol"}, "not named gcol_cuda13x")]:
        (tmp_path / sub).mkdir()
        bad = check_wheel(make_wheel(tmp_path / sub, platform, LIBRARY, **kwargs))
        assert bad.returncode != 0 and why in bad.stderr, (sub, bad.stdout, bad.stderr)
    (tmp_path / "f").mkdir()
    other = "manylinux_2_99_x86_64" if tag != "manylinux_2_99_x86_64" else "manylinux_2_98_x86_64"
    required = check_wheel("--require", other, make_wheel(tmp_path / "f", tag, LIBRARY))
    assert required.returncode != 0 and "not the required" in required.stderr


def test_a_source_checkout_finds_its_build_tree(monkeypatch, tmp_path):
    package = ROOT / "python" / "gcol"
    assert _lib._source_build_dir(str(package)) == str(ROOT / "build")
    assert _lib._source_build_dir(str(tmp_path / "site-packages" / "gcol")) is None
    monkeypatch.delenv("GCOL_LIBRARY", raising=False)
    monkeypatch.setattr(_lib, "__file__", str(package / "_lib.py"))
    assert list(itertools.islice(_lib._dirs(), 2)) == [str(package), str(ROOT / "build")]
    if (ROOT / "build" / "libgcol.so").is_file():
        assert str(ROOT / "build" / "libgcol.so") in list(_lib.candidates())
