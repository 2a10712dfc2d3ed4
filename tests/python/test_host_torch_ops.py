"""Host-only (issue 41, item 8): gcol's torch.compile operators are optional.
Importing gcol does not import PyTorch, and without PyTorch nothing routes
to the operators (the calls take their usual path)."""
import os
import subprocess
import sys

import gcol
from gcol import _torch_ops


def test_importing_gcol_does_not_import_torch():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    code = "import sys, gcol; assert 'torch' not in sys.modules, 'gcol imported torch'"
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


def test_nothing_is_traced_before_registration():
    if _torch_ops._torch is None:
        assert not _torch_ops.traced(object())
    assert gcol.version() >= (1, 0, 0)
