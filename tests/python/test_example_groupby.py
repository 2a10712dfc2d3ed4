"""examples/python/groupby.py runs and exits 0: it prints groups on a GPU
machine, and says that it needs a GPU elsewhere."""
import os
import pathlib
import subprocess
import sys

from conftest import HAVE_GPU, INSTALLED

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_groupby_example():
    env = dict(os.environ) if INSTALLED else dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "python" / "groupby.py")], env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    if HAVE_GPU and "needs CuPy or PyTorch" not in run.stdout:
        assert "group-by-sum of 10000000 rows" in run.stdout and "key" in run.stdout
    elif not HAVE_GPU:
        assert run.stdout.startswith("no CUDA device")
