"""Host-only (issue 41, item 7): the examples in gcol's docstrings that need
no GPU run as doctests (version, library_path, the errors, Status, Op, the
host side of the string converters). Examples on device arrays need a GPU
and PyTorch: they are marked ``# doctest: +SKIP`` in the docstrings, and the
test_gpu_* files check what they show."""
import doctest
import io

import pytest

import gcol


def _examples():
    finder = doctest.DocTestFinder(exclude_empty=True)
    seen = {}
    for name in ["__init__"] + sorted(gcol.__all__):
        obj = gcol if name == "__init__" else getattr(gcol, name)
        if isinstance(obj, (str, int)):
            continue
        for test in finder.find(obj, "gcol" if obj is gcol else "gcol." + name, globs={"gcol": gcol}):
            if test.examples:
                seen.setdefault(test.name, test)
    return list(seen.values())


EXAMPLES = _examples()


def _runs_on_the_host(test):
    return any(not e.options.get(doctest.SKIP) for e in test.examples)


def test_host_examples_are_found():
    names = {t.name for t in EXAMPLES if _runs_on_the_host(t)}
    assert {"gcol.version", "gcol.library_path", "gcol.GcolError", "gcol.Status", "gcol.Op"} <= names, names


@pytest.mark.parametrize("test", EXAMPLES, ids=lambda t: t.name)
def test_docstring_examples(test):
    if "numpy" in test.docstring and not _has("numpy") or "pyarrow" in test.docstring and not _has("pyarrow"):
        pytest.skip("the example needs numpy and pyarrow")
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()


def _has(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False
