"""The pytest time limit (timeout_plugin) ends a test that runs too long."""
import os
import pathlib
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent


def test_timeout_fails_a_slow_test(tmp_path):
    (tmp_path / "test_slow.py").write_text("import time\n\ndef test_sleeps():\n    time.sleep(60)\n")
    env = dict(os.environ, GCOL_TEST_TIMEOUT="1", PYTHONPATH=str(HERE))
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "timeout_plugin", "-p", "no:cacheprovider",
                        str(tmp_path)], env=env, capture_output=True, text=True, timeout=50)
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    assert "FAILED " in r.stderr and "test_slow.py::test_sleeps (timed out after 1 s" in r.stderr, r.stderr
    assert time.monotonic() - t0 < 30
