"""The per-test time limit of every suite, for pytest: GCOL_TEST_TIMEOUT
seconds (default 300; 0: none). A test still running then may be stuck
inside a CUDA or NCCL call, which Python cannot interrupt, so a watchdog
thread names the test as FAILED and ends the run with status 1."""
import os
import sys
import threading

import pytest

LIMIT = float(os.environ.get("GCOL_TEST_TIMEOUT", "300") or 0)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    timer = None
    if LIMIT > 0:
        def expire():
            capture = item.config.pluginmanager.getplugin("capturemanager")
            if capture is not None:  # the message goes to the real stderr
                capture.suspend_global_capture(in_=False)
            sys.stdout.flush()
            sys.stderr.write("\nFAILED %s (timed out after %g s: GCOL_TEST_TIMEOUT)\n" % (item.nodeid, LIMIT))
            sys.stderr.flush()
            os._exit(1)

        timer = threading.Timer(LIMIT, expire)
        timer.daemon = True
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()
