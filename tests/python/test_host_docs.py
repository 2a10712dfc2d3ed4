"""Host-only checks of the documentation (issue 40): every relative link in
README.md and docs/ resolves (the file, and a #anchor to a heading of a
Markdown file), and the README's Python example runs up to its first GPU call,
which without a GPU must raise gcol.NoDeviceError. (The README's C example is
built and run by tests/consumers/check.sh.)"""
import os
import pathlib
import re
import subprocess
import sys
import textwrap
import urllib.parse

import pytest

from conftest import HAVE_GPU, INSTALLED

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`+[^`]*`+")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")  # [text](target "title")
REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")  # [name]: target
HTML = re.compile(r"<(?:a|img)\s[^>]*?(?:href|src)=\"([^\"]+)\"", re.IGNORECASE)
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    fenced = None
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m:
            fenced = None if fenced == m.group(1) else (fenced or m.group(1))
            continue
        if fenced is None:
            yield number, line


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation other than - and _
    dropped (code ticks, links' targets and emphasis marks with it), spaces to -."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(path):
    """The anchors a Markdown file's headings give, duplicates numbered as GitHub does."""
    seen, out = {}, set()
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else "%s-%d" % (base, n))
    return out


def links(text):
    """(line number, target) of every link in the prose: Markdown inline and
    reference links and images, and HTML a/img tags; not inside code."""
    for number, line in prose_lines(text):
        bare = INLINE_CODE.sub("", line)
        for pattern in (LINK, HTML):
            for m in pattern.finditer(bare):
                yield number, m.group(1)
        m = REF_DEF.match(bare)
        if m:
            yield number, m.group(1)


def broken_links(page, root=ROOT):
    """'page:line: target: why' for each relative link of page that does not resolve."""
    problems = []
    for number, target in links(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//", target):  # http:, mailto:, ...: not ours to check
            continue
        path_part, _, anchor = target.partition("#")
        dest = page if not path_part else (page.parent / urllib.parse.unquote(path_part)).resolve()
        where = "%s:%d: %s" % (page.relative_to(root), number, target)
        if root.resolve() not in dest.parents and dest != root.resolve():
            problems.append(where + ": leaves the repository")
        elif not dest.exists():
            problems.append(where + ": no such file")
        elif anchor and dest.suffix == ".md" and urllib.parse.unquote(anchor) not in anchors(dest):
            problems.append(where + ": no heading with this anchor in %s" % dest.name)
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page):
    assert not broken_links(page), "\n".join(broken_links(page))


def test_link_check_catches_what_is_broken(tmp_path):
    """The checker itself: a missing file, a missing anchor and a link out of
    the tree are reported; good links, links in code and URLs are not."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other page\n\n## A `code` heading: (x -> y)\n")
    page = tmp_path / "README.md"
    page.write_text(textwrap.dedent("""\
        # Title
        [ok](docs/other.md) [ok](docs/other.md#a-code-heading-x---y) [ok](#title) <https://example.com>
        [web](https://example.com/missing) `[code](missing.md)`
        ```
        [fenced](missing.md)
        ```
        [gone](docs/missing.md) [anchor](docs/other.md#nothing) ![img](../outside.svg)
        [self](#no-such-heading)
        """))
    problems = broken_links(page, root=tmp_path)
    assert [p.split(": ", 2)[1:] for p in problems] == [
        ["docs/missing.md", "no such file"],
        ["docs/other.md#nothing", "no heading with this anchor in other.md"],
        ["../outside.svg", "leaves the repository"],
        ["#no-such-heading", "no heading with this anchor in README.md"],
    ], problems


def fenced_blocks(text, lang):
    """The bodies of the ```lang blocks of a Markdown text, in order."""
    blocks, body = [], None
    for line in text.splitlines():
        if body is None and line.strip() == "```" + lang:
            body = []
        elif body is not None and line.strip().startswith("```"):
            blocks.append("\n".join(body) + "\n")
            body = None
        elif body is not None:
            body.append(line)
    return blocks


# Stand-ins for the GPU array libraries: importing them works, using them before
# gcol's first call fails with a message that says so.
STUB = '''\
class UsedBeforeGcol(AttributeError):
    pass


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise UsedBeforeGcol("the README's example used %s.%s before its first gcol call" % (__name__, name))
'''

# Runs the example as the file "README-example"; on NoDeviceError prints the line
# of the example it surfaced on.
DRIVER = '''\
import sys, traceback
import gcol
code = open(sys.argv[1]).read()
try:
    exec(compile(code, "README-example", "exec"), {"__name__": "__main__"})
except gcol.NoDeviceError as e:
    lines = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "README-example"]
    print("NoDeviceError at line", lines[-1])
    sys.exit(0)
print("no NoDeviceError")
sys.exit(1)
'''


def test_readme_python_example(tmp_path):
    blocks = fenced_blocks((ROOT / "README.md").read_text(encoding="utf-8"), "python")
    assert blocks, "README.md has no ```python block"
    example = blocks[0]
    (tmp_path / "example.py").write_text(example)
    path = [] if INSTALLED else [str(ROOT / "python")]
    if HAVE_GPU:  # the example itself, where its array library is installed
        arrays = re.findall(r"^\s*import (cupy|torch)\b", example, re.M)
        for name in arrays:
            pytest.importorskip(name)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in path + [os.environ.get("PYTHONPATH", "")] if p))
        run = subprocess.run([sys.executable, str(tmp_path / "example.py")], env=env, capture_output=True,
                             text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        return
    for name in ("cupy", "torch"):
        (tmp_path / "stubs" / name).mkdir(parents=True)
        (tmp_path / "stubs" / name / "__init__.py").write_text(STUB)
    (tmp_path / "driver.py").write_text(DRIVER)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path / "stubs")] + path))
    run = subprocess.run([sys.executable, str(tmp_path / "driver.py"), str(tmp_path / "example.py")], env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    first_call = next(n for n, line in enumerate(example.splitlines(), 1) if re.search(r"\bgcol\.\w+\(", line))
    assert run.stdout.strip() == "NoDeviceError at line %d" % first_call, run.stdout
