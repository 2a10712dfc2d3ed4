"""GPU (issue 41, item 8): gcol.isin, gcol.unique, Map.find and Map.contains
inside ``torch.compile(fullgraph=True)`` (a graph break would raise), against
the same function run eagerly. Skips without PyTorch, without
torch.library.custom_op (PyTorch < 2.4) or without a GPU."""
import pytest

import gcol

torch = pytest.importorskip("torch", reason="torch.compile support needs PyTorch")
if not hasattr(torch.library, "custom_op"):
    pytest.skip("torch.library.custom_op needs PyTorch 2.4 or later", allow_module_level=True)


@pytest.fixture
def data(gpu):
    torch._dynamo.reset()
    gen = torch.Generator(device="cuda").manual_seed(41)
    x = torch.randint(0, 5000, (100_000,), device="cuda", generator=gen)
    test_values = torch.randint(0, 5000, (700,), device="cuda", generator=gen, dtype=torch.int32)
    m = gcol.Map("int64", "float32", capacity=8192)
    stored = torch.arange(0, 5000, 3, device="cuda")
    m.insert(stored, stored.float() / 2)
    return x, test_values, m


def _same(a, b):
    if isinstance(a, (tuple, list)):
        assert type(a) is type(b) and len(a) == len(b)
        for u, v in zip(a, b):
            _same(u, v)
    else:
        assert a.dtype == b.dtype and a.shape == b.shape and a.device == b.device
        # bit-equal, where a miss's NaN fill counts as equal to itself
        torch.testing.assert_close(a, b, rtol=0, atol=0, equal_nan=True)


def test_operators_are_registered(data):  # data: gcol has met PyTorch
    assert hasattr(torch.ops.gcol, "isin") and hasattr(torch.ops.gcol, "unique")
    assert hasattr(torch.ops.gcol, "map_find") and hasattr(torch.ops.gcol, "map_contains")


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
def test_compiled_fullgraph_matches_eager(data, backend):
    x, test_values, m = data

    def f(x, test_values):
        mask = gcol.isin(x, test_values)
        absent = gcol.isin(x, test_values, invert=True)
        values, index, inverse, counts = gcol.unique(x, return_index=True, return_inverse=True,
                                                     return_counts=True)
        found = m.find(x)
        present = m.contains(x)
        return mask, absent, values, index, inverse, counts, found, present, (present.long() * 2 + 1).sum()

    compiled = torch.compile(f, fullgraph=True, backend=backend)
    got = compiled(x, test_values)
    _same(got, f(x, test_values))
    x2 = torch.flip(x, (0,))  # another input of the same shape: the same graph, new results
    _same(compiled(x2, test_values), f(x2, test_values))


def test_unique_of_one_flag_and_data_dependent_sizes(data):
    x, _, _ = data

    def f(x):
        values = gcol.unique(x)
        values2, counts = gcol.unique(x, return_counts=True)
        return values, values2.sum(), counts.sum(), values.shape[0] * 2

    compiled = torch.compile(f, fullgraph=True, backend="aot_eager")
    got, want = compiled(x), f(x)
    _same(got[:3], want[:3])
    assert got[3] == want[3] == 2 * torch.unique(x).numel()
    small = x[:1000].contiguous()  # another number of distinct values
    _same(compiled(small)[:3], f(small)[:3])


def test_eager_calls_do_not_use_the_operators(data):
    x, test_values, m = data
    with torch.autograd.profiler.profile() as prof:
        gcol.isin(x, test_values)
        m.find(x)
    assert not [e for e in prof.function_events if e.name.startswith("gcol::")]


def test_first_call_inside_compile_when_torch_came_first(gpu):
    """import torch, then gcol: the operators are registered at gcol's import,
    so a compiled function may be the first to call gcol."""
    import os
    import subprocess
    import sys
    code = ("import torch\nimport gcol\n"
            "f = torch.compile(lambda x, t: (gcol.isin(x, t), gcol.unique(x)), fullgraph=True, backend='aot_eager')\n"
            "x = torch.tensor([3, 1, 3, 7], device='cuda')\n"
            "mask, values = f(x, torch.tensor([3, 4], device='cuda'))\n"
            "assert mask.tolist() == [True, False, True, False], mask\n"
            "assert values.tolist() == [1, 3, 7], values\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
