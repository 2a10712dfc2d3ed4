"""gcol.DistMap (libgcol_nccl) against a CPU model: one process driving every
GPU (pytest, below), and one process per GPU under torchrun (the script
dist_torchrun.py, started from here). Skipped below two GPUs or without
libgcol_nccl.so / NCCL; the error without NCCL is a host test."""
import copy
import os
import pathlib
import pickle
import shutil
import subprocess

import pytest

import gcol
from gcol import _dist

HERE = pathlib.Path(__file__).resolve().parent


def _gpus():
    try:
        import torch
        return torch.cuda.device_count()
    except ImportError:
        return 0


def _have_dist():
    try:
        _dist._libs()
        return True
    except gcol.LibraryNotFoundError:
        return False


@pytest.fixture
def two_gpus(gpu):
    pytest.importorskip("torch")
    if _gpus() < 2:
        pytest.skip("needs 2 GPUs")
    if not _have_dist():
        pytest.skip("libgcol_nccl.so or NCCL not found")
    return [0, 1]


def test_no_nccl_names_what_it_looked_for(monkeypatch, tmp_path):
    monkeypatch.setattr(_dist._Nccl, "_nccl_candidates", staticmethod(lambda: iter([str(tmp_path / "libnccl.so.2")])))
    with pytest.raises(gcol.LibraryNotFoundError) as e:
        _dist._Nccl()
    assert "NCCL not found" in str(e.value) and "nvidia-nccl" in str(e.value) and "NCCL_HOME" in str(e.value)
    assert str(tmp_path) in str(e.value)


def _batches(torch, rng, pool, sizes, devices):
    out = []
    for n, d in zip(sizes, devices):
        k = pool[rng.integers(0, len(pool), n)]
        v = rng.integers(1, 1 << 20, n)
        out.append((torch.from_numpy(k).to(f"cuda:{d}"), torch.from_numpy(v).to(f"cuda:{d}")))
    return out


def test_one_process_matches_model(two_gpus, rng):
    import numpy as np
    import torch
    pool = np.unique(rng.integers(-2**62, 2**62, 40000)).astype(np.int64)
    m = gcol.DistMap("int64", "int64", capacity=len(pool), devices=two_gpus)
    model = {}
    for step, (kind, sizes) in enumerate([("insert", [30000, 0]), ("apply", [5000, 12000]),
                                          ("assign", [0, 3000]), ("erase", [4000, 1])]):
        batches = _batches(torch, rng, pool, sizes, two_gpus)
        keys, vals = [b[0] for b in batches], [b[1] for b in batches]
        pending = {}
        if kind == "insert":
            m.insert(keys, vals)
        elif kind == "apply":
            m.insert_or_apply(keys, vals, gcol.ADD)
        elif kind == "assign":
            m.insert_or_assign(keys, vals)
        else:
            m.erase(keys)
        for k, v in batches:
            for key, val in zip(k.cpu().tolist(), v.cpu().tolist()):
                if kind in ("insert", "assign") and (kind == "assign" or key not in model):
                    pending.setdefault(key, set()).add(val)
                elif kind == "apply":
                    model[key] = model[key] + val if key in model else val
                elif kind == "erase":
                    model.pop(key, None)
        queries = [torch.from_numpy(pool).to(f"cuda:{d}") for d in two_gpus]
        found, there = m.find(queries), m.contains(queries)
        assert [f.device.index for f in found] == two_gpus
        answers = [f.cpu().tolist() for f in found]
        for j, key in enumerate(pool.tolist()):
            if key in pending:
                assert answers[0][j] in pending[key]
                model[key] = answers[0][j]
            for r in range(2):
                assert bool(there[r][j]) == (key in model), (step, r, key)
                if key in model:
                    assert answers[r][j] == model[key], (step, r, key)
                else:
                    assert answers[r][j] == m.empty_value
        assert m.size() == len(model) == len(m)
    parts = m.retrieve_all()
    union = {}
    for k, v in parts:
        part = dict(zip(k.cpu().tolist(), v.cpu().tolist()))
        assert not set(part) & set(union)
        union.update(part)
    assert union == model
    m.close()


def test_one_process_faults_are_collective(two_gpus):
    import torch
    m = gcol.DistMap("int64", "int64", capacity=64, devices=two_gpus)
    keys = [torch.arange(1, 5000, device=f"cuda:{d}", dtype=torch.int64) for d in two_gpus]
    with pytest.raises(gcol.FullError):
        m.insert(keys, keys)
    with pytest.raises(gcol.InvalidArgumentError):  # an array on the wrong device
        m.insert([keys[1], keys[0]], [keys[1], keys[0]])
    m.close()
    m = gcol.DistMap("int64", "int64", capacity=1 << 16, devices=two_gpus)
    bad = [torch.tensor([5, -1, 7], device="cuda:0"), torch.tensor([8], device="cuda:1")]  # -1: empty_key
    with pytest.raises(gcol.ReservedKeyError):
        m.insert(bad, bad)
    assert m.size() == 3  # every other key was stored
    found = m.find([torch.tensor([5, 7, 8], device=f"cuda:{d}") for d in two_gpus])
    assert [f.cpu().tolist() for f in found] == [[5, 7, 8]] * 2
    with pytest.raises(TypeError):
        copy.copy(m)
    with pytest.raises(TypeError):
        pickle.dumps(m)
    m.close()


def test_one_device_is_one_rank(gpu):
    torch = pytest.importorskip("torch")
    if not _have_dist():
        pytest.skip("libgcol_nccl.so or NCCL not found")
    m = gcol.DistMap("int32", "float32", capacity=1000, devices=[0])
    k = torch.arange(100, device="cuda:0", dtype=torch.int32)
    m.insert([k], [k.float() * 2])
    assert m.find([k])[0].cpu().tolist() == [2.0 * i for i in range(100)]
    m.close()


def test_torchrun_two_processes(two_gpus):
    torchrun = shutil.which("torchrun")
    if torchrun is None:
        pytest.skip("torchrun not found")
    env = dict(os.environ, NCCL_NVLS_ENABLE="0", PYTHONDONTWRITEBYTECODE="1")
    r = subprocess.run([torchrun, "--standalone", "--nproc-per-node", "2", str(HERE / "dist_torchrun.py")],
                       env=env, capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert r.stdout.count("OK (") == 2, r.stdout
