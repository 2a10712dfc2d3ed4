"""pytest setup: the gcol package of this tree (python/) and the library of
the build (GCOL_LIBRARY, default build/libgcol.so), or with
GCOL_TEST_INSTALLED=1 the gcol that Python imports (a `pip install .`, with
the library inside it); GPU fixtures that skip without a CUDA device or
without the array library; the hypothesis profile of the property tests
(GCOL_HYPOTHESIS_PROFILE: "gcol", derandomized, or "gcol-random";
GCOL_HYPOTHESIS_EXAMPLES: examples per test, default 40)."""
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
INSTALLED = os.environ.get("GCOL_TEST_INSTALLED") == "1"
if not INSTALLED:
    sys.path.insert(0, str(ROOT / "python"))
    os.environ.setdefault("GCOL_LIBRARY", str(ROOT / "build" / "libgcol.so"))

import gcol  # noqa: E402

pytest_plugins = ["timeout_plugin"]  # GCOL_TEST_TIMEOUT, as in the C suites

try:  # the property tests' profile: a fixed seed, and as many examples as GCOL_HYPOTHESIS_EXAMPLES asks
    from hypothesis import HealthCheck, settings
except ImportError:
    pass
else:
    settings.register_profile(
        "gcol", derandomize=True, database=None, deadline=None,
        max_examples=int(os.environ.get("GCOL_HYPOTHESIS_EXAMPLES", "40")),
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                               HealthCheck.data_too_large])
    settings.register_profile("gcol-random", settings.get_profile("gcol"), derandomize=False)  # new examples per run
    settings.load_profile(os.environ.get("GCOL_HYPOTHESIS_PROFILE", "gcol"))
    import tempfile
    from hypothesis import configuration  # its caches go to the temp directory, not .hypothesis/ in the tree
    getattr(configuration, "set_hypothesis_home_dir", lambda d: None)(os.path.join(tempfile.gettempdir(),
                                                                                  "gcol-hypothesis"))


def _have_gpu():
    try:
        gcol.Map("int32", "int32", 1).close()
        return True
    except gcol.NoDeviceError:
        return False


HAVE_GPU = _have_gpu()


@pytest.fixture
def gpu():
    if not HAVE_GPU:
        pytest.skip("no CUDA device")


@pytest.fixture(params=["cupy", "torch"])
def xp(request, gpu):
    """Array helpers (gpu_arrays) for CuPy or PyTorch; skips if it is absent."""
    pytest.importorskip(request.param)
    import gpu_arrays  # needs numpy, which the host-only tests do not
    return gpu_arrays.helpers(request.param)


@pytest.fixture
def rng():
    np = pytest.importorskip("numpy")
    seed = int(os.environ.get("GCOL_TEST_SEED", np.random.SeedSequence().entropy % 2**32))
    print("seed", seed)
    return np.random.default_rng(seed)
