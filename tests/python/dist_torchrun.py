"""gcol.DistMap under torchrun, one process per GPU, checked against a CPU model:

    torchrun --nproc-per-node 2 tests/python/dist_torchrun.py

Every rank derives every rank's batches from one seed (GCOL_TEST_SEED), so
each keeps the whole model. Exits 0 when every check passed on this rank."""
import os
import sys

import numpy as np
import torch
import torch.distributed as dist

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import gcol  # noqa: E402


def batch(seed, step, rank, n, pool):
    rng = np.random.default_rng([seed, step, rank])
    return pool[rng.integers(0, len(pool), n)], rng.integers(1, 1000, n).astype(np.int64)


def main():
    dist.init_process_group("gloo")  # carries the NCCL id; gcol moves the keys itself
    rank, nranks = dist.get_rank(), dist.get_world_size()
    local = int(os.environ.get("LOCAL_RANK", rank))
    torch.cuda.set_device(local)
    seed = int(os.environ.get("GCOL_TEST_SEED", "12345"))
    pool = np.unique(np.random.default_rng(seed).integers(-2**62, 2**62, 50000)).astype(np.int64)
    m = gcol.DistMap.from_torch("int64", "int64", capacity=len(pool))
    model = {}
    sizes = [20000, 0, 7000, 1]
    for step, kind in enumerate(["insert", "apply", "assign", "erase"]):
        batches = [batch(seed, step, r, sizes[(r + step) % 4] if r else 15000, pool) for r in range(nranks)]
        k, v = (torch.from_numpy(a).cuda() for a in batches[rank])
        if kind == "insert":
            m.insert(k, v)
        elif kind == "apply":
            m.insert_or_apply(k, v, "add")
        elif kind == "assign":
            m.insert_or_assign(k, v)
        else:
            m.erase(k)
        pending = {}  # key -> the values the call may have stored (insert of a new key, assign)
        for keys, vals in batches:
            for key, val in zip(keys.tolist(), vals.tolist()):
                if kind == "insert" and key not in model:
                    pending.setdefault(key, set()).add(val)
                elif kind == "apply":
                    model[key] = model[key] + val if key in model else val
                elif kind == "assign":
                    pending.setdefault(key, set()).add(val)
                elif kind == "erase":
                    model.pop(key, None)
        q = torch.from_numpy(pool).cuda()
        found, there = m.find(q).cpu().numpy(), m.contains(q).cpu().numpy()
        for key, f, t in zip(pool.tolist(), found.tolist(), there.tolist()):
            if key in pending:
                assert f in pending[key], (rank, step, key, f)
                model[key] = f  # every rank must then agree (all_gather below)
            assert t == (key in model), (rank, step, key)
            if key in model:
                assert f == model[key], (rank, step, key, f, model[key])
        assert m.size() == len(model), (m.size(), len(model))
        agreed = [None] * nranks
        dist.all_gather_object(agreed, sorted(model.items()))
        assert all(a == agreed[0] for a in agreed), "ranks disagree on the stored values"
    keys, vals = m.retrieve_all()
    total = [None] * nranks
    dist.all_gather_object(total, dict(zip(keys.cpu().tolist(), vals.cpu().tolist())))
    union = {}
    for part in total:
        assert not set(part) & set(union), "a key on two shards"
        union.update(part)
    assert union == model
    m.close()
    dist.destroy_process_group()
    print("dist_torchrun: rank %d of %d OK (%d keys)" % (rank, nranks, len(model)))


if __name__ == "__main__":
    main()
