"""Host-only: finding and loading libgcol.so, and its version."""
import os
import pathlib
import re

import pytest

import gcol
from gcol import _lib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def header_version():
    text = (ROOT / "include" / "gcol" / "gcol.h").read_text()
    return tuple(int(re.search(r"#define GCOL_VERSION_%s (\d+)" % part, text).group(1))
                 for part in ("MAJOR", "MINOR", "PATCH"))


def test_loads_the_library_named_by_GCOL_LIBRARY():
    from conftest import INSTALLED
    if INSTALLED and "GCOL_LIBRARY" not in os.environ:  # pip install .: the package's own copy
        assert os.path.dirname(gcol.library_path()) == os.path.dirname(os.path.abspath(gcol.__file__))
        assert os.path.basename(gcol.library_path()) == _lib.SONAME
    else:
        assert os.path.samefile(gcol.library_path(), os.environ["GCOL_LIBRARY"])


def test_library_and_package_versions_follow_the_header():
    assert gcol.version() == header_version()
    assert gcol.__version__ == "%d.%d.%d" % header_version()


def test_missing_library_raises_library_not_found():
    with pytest.raises(gcol.LibraryNotFoundError, match="cannot load"):
        _lib.load("/nonexistent/libgcol.so")


def test_a_library_without_gcol_is_refused():
    with pytest.raises(gcol.LibraryNotFoundError):
        _lib.load("libm.so.6")


def test_GCOL_LIBRARY_alone_is_tried(monkeypatch):
    monkeypatch.setenv("GCOL_LIBRARY", "/somewhere/libgcol.so")
    assert list(_lib.candidates()) == ["/somewhere/libgcol.so"]


def test_an_install_prefix_is_searched(monkeypatch, tmp_path):
    (tmp_path / "lib").mkdir()
    soname = tmp_path / "lib" / _lib.SONAME
    soname.symlink_to(os.path.abspath(gcol.library_path()))
    monkeypatch.delenv("GCOL_LIBRARY", raising=False)
    monkeypatch.setenv("GCOL_PREFIX", str(tmp_path))
    found = next(p for p in _lib.candidates() if p.startswith(str(tmp_path)))
    assert found == str(soname)
    major, minor, patch = gcol.version()
    assert _lib.load(found).version() == major * 10000 + minor * 100 + patch


def test_status_strings_come_from_the_library():
    f = _lib.functions()
    for status in gcol.Status:
        assert f.status_string(status).decode().startswith("GCOL_" + ("SUCCESS" if status == 0 else "ERROR_"))
