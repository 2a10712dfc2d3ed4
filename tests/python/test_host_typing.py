"""Host-only (issue 41, item 7): the typed surface of gcol. ``mypy --strict``
passes over examples/python and typing_cases.py (what a type checker sees
of unique's return_* overloads, join's how, isin and the Map API), and the
function modules' overloads agree with their implementations. Skips where
mypy is not installed (.ci/run installs it)."""
import os
import pathlib
import subprocess
import sys
import tempfile

import pytest

pytest.importorskip("mypy")

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent


def mypy(*args):
    env = dict(os.environ)
    if os.environ.get("GCOL_TEST_INSTALLED") != "1":
        env["MYPYPATH"] = str(ROOT / "python")
    with tempfile.TemporaryDirectory() as cache:  # no .mypy_cache in the tree
        run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", cache, "--follow-imports=silent",
                              "--no-error-summary", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr


def test_examples_and_typing_cases_pass_mypy_strict():
    mypy("--strict", str(ROOT / "examples" / "python"), str(HERE / "typing_cases.py"))


def test_function_overloads_match_their_implementations():
    if os.environ.get("GCOL_TEST_INSTALLED") == "1":
        pytest.skip("checks the tree's sources")
    gcol_dir = ROOT / "python" / "gcol"
    mypy(*[str(gcol_dir / f) for f in ("_typing.py", "_unique.py", "_isin.py", "_join.py", "_groupby.py")])
