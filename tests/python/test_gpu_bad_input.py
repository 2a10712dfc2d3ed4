"""GPU: bad input to every public function and container call never crashes
the interpreter (issue 39). Each group of calls runs in a child process
(python -c) that makes one good call per entry, then the same call with one
array argument replaced by: the host NumPy array, a strided view, a wrong
dtype, one element fewer (where lengths must match), None, or (with 2 GPUs)
the array on the other GPU. Each must raise a GcolError subclass (not
CudaError: a bad input must be refused before the GPU faults), ValueError or
TypeError, and leave the CUDA context usable; a child killed by a signal
names the case it was in. Variants an argument lists as valid (issue 41:
gcol's functions copy strided views, widen narrow dtypes and promote key
dtypes losslessly) must instead work."""
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import gcol

HERE = pathlib.Path(__file__).resolve().parent
KINDS_ONE_GPU = ("host", "strided", "dtype", "length", "none")


# ---- the child's side -------------------------------------------------------------------
class Arg:
    """A device-array argument of a good call: its host value, the dtypes
    that are wrong for it, whether its length must match another's, and
    whether None is a valid value for it."""

    def __init__(self, host, wrong=("int16",), paired=False, none_ok=False, valid=()):
        self.host, self.wrong, self.paired, self.none_ok = host, wrong, paired, none_ok
        self.valid = valid  # kinds that must be accepted ("strided", "dtype-int16": issue 41's functions)


class Arrays:
    """Device arrays of one library (cupy or torch) on a chosen GPU."""

    def __init__(self, name):
        self.name = name
        if name == "torch":
            import torch
            self.m = torch
        else:
            import cupy
            self.m = cupy

    def dev(self, host, device=0):
        host = np.ascontiguousarray(host)
        if self.name == "torch":
            return self.m.from_numpy(host.copy()).to("cuda:%d" % device)
        with self.m.cuda.Device(device):
            return self.m.asarray(host)

    def strided(self, host):
        """A non-contiguous view holding host's values."""
        return self.dev(np.repeat(host, 2))[::2]

    def sync(self):
        if self.name == "torch":
            self.m.cuda.synchronize()
        else:
            self.m.cuda.Device(0).synchronize()


def _keys(n=8, dtype="int64"):
    return np.arange(n, dtype=dtype)


def _strings():
    off = np.array([0, 1, 3, 3, 6], np.int32)
    return Arg(off, wrong=("int16", "float32")), Arg(np.frombuffer(b"abbccc", np.uint8).copy(),
                                                      wrong=("int16", "float32"))


def _graph(a):
    offsets = np.array([0, 1, 2, 2], np.int32)
    targets = np.array([1, 2], np.int32)
    return gcol.Graph.csr(a.dev(offsets), a.dev(targets), a.dev(np.ones(2, np.float32)))


def function_calls(a):
    """(label, function, args, kwargs) of good calls to gcol's functions."""
    k, v = _keys(), np.ones(8)
    off, chars = _strings()
    # issue 41: the functions copy strided views and widen narrow dtypes (and promote
    # key dtypes losslessly in isin and join): those variants must work; complex ones never
    fk = dict(wrong=("complex64",), valid=("strided", "dtype-int16", "dtype-bool", "dtype-int32"))
    ids = Arg(np.array([0, 1], np.int32), wrong=("int16", "int64", "float32"))
    return {
        "unique": [("unique", gcol.unique, [Arg(k, **fk)], {})],
        "groupby_reduce": [("groupby_reduce", gcol.groupby_reduce, [Arg(k, **fk), Arg(v, paired=True, **fk)], {})],
        "isin": [("isin", gcol.isin, [Arg(k, **fk), Arg(k[:3], **fk)], {})],
        "join": [("join-" + how, gcol.join, [Arg(k, **fk), Arg(k[:5], **fk)], {"how": how})
                 for how in ("inner", "left", "right", "outer", "semi", "anti")],
        "dictionary_encode": [("dictionary_encode", gcol.dictionary_encode, [off, chars], {})],
        "value_counts": [("value_counts", gcol.value_counts, [off, chars], {})],
        "approx_distinct": [("approx_distinct", gcol.approx_distinct, [Arg(k, wrong=("int16", "bool"))], {})],
        "graph": [("Graph.csr", gcol.Graph.csr, [Arg(np.array([0, 1, 2, 2], np.int32), wrong=("int16", "int64")),
                                                 Arg(np.array([1, 2], np.int32), wrong=("int16", "int64")),
                                                 Arg(np.ones(2, np.float32), wrong=("float64", "int32"), paired=True)],
                   {}),
                  ("Graph.grid", gcol.Graph.grid, [Arg(np.ones((3, 4), np.float32), wrong=("float64", "int32"))], {})],
        "shortest_paths": [
            ("shortest_paths", gcol.shortest_paths, [_graph(a), ids], {}),
            ("shortest_paths-targets", gcol.shortest_paths, [_graph(a), ids, Arg(np.array([2, 1], np.int32),
                                                                               wrong=("int16", "int64"), none_ok=True)],
             {}),
            ("shortest_paths_pred", gcol.shortest_paths_pred, [_graph(a), ids], {}),
            ("paths", gcol.paths, [_graph(a), ids, Arg(np.array([2, 0], np.int32), wrong=("int16", "int64"),
                                                       paired=True)], {})],
    }


def container_calls(a):
    """(label, bound method, args, kwargs) of good calls to every container."""
    k = Arg(_keys(), wrong=("int16", "int32", "float64"))
    v = Arg(np.ones(8, np.int64), wrong=("int16", "int32", "float64"), paired=True)
    out64 = Arg(np.zeros(8, np.int64), wrong=("int16", "int32"), paired=True, none_ok=True)  # None: a new array
    out_bool = Arg(np.zeros(8, bool), wrong=("int16", "int32"), paired=True, none_ok=True)
    m = gcol.Map("int64", "int64", 64)
    mm = gcol.Multimap("int64", "int64", 64)
    s = gcol.Set("int64", 64)
    ms = gcol.Multiset("int64", 64)
    bf = gcol.BloomFilter("int64", size_bytes=1 << 12)
    hll = gcol.HyperLogLog()
    sm = gcol.StringMap("int64")
    off, chars = _strings()
    sv = Arg(np.ones(4, np.int64), wrong=("int16", "int32"), paired=True)  # insert_or_apply needs values
    ids_or_values = Arg(sv.host, sv.wrong, paired=True, none_ok=True)  # insert: None gives dense ids
    return {
        "Map": [("Map.insert", m.insert, [k, v], {}), ("Map.insert_or_assign", m.insert_or_assign, [k, v], {}),
                ("Map.insert_or_apply", m.insert_or_apply, [k, Arg(v.host, v.wrong, True, none_ok=True)], {}),
                ("Map.insert_and_find", m.insert_and_find, [k, v], {}), ("Map.find", m.find, [k], {}),
                ("Map.find-out", m.find, [k, out64], {}), ("Map.contains", m.contains, [k, out_bool], {}),
                ("Map.erase", m.erase, [k], {})],
        "Multimap": [("Multimap.insert", mm.insert, [k, v], {}), ("Multimap.count", mm.count, [k], {}),
                     ("Multimap.retrieve", mm.retrieve, [k], {})],
        "Set": [("Set.insert", s.insert, [k], {}), ("Set.insert_and_contains", s.insert_and_contains, [k], {}),
                ("Set.contains", s.contains, [k, out_bool], {}), ("Set.erase", s.erase, [k], {})],
        "Multiset": [("Multiset.insert", ms.insert, [k], {}), ("Multiset.count", ms.count, [k], {}),
                     ("Multiset.contains", ms.contains, [k], {}), ("Multiset.retrieve", ms.retrieve, [k], {})],
        "BloomFilter": [("BloomFilter.add", bf.add, [k], {}), ("BloomFilter.contains", bf.contains, [k, out_bool],
                                                                  {})],
        "HyperLogLog": [("HyperLogLog.add", hll.add, [Arg(_keys(), wrong=("int16", "bool"))], {})],
        "StringMap": [("StringMap.insert", sm.insert, [off, chars], {}),
                      ("StringMap.insert-values", sm.insert, [off, chars, ids_or_values], {}),
                      ("StringMap.insert_and_find", sm.insert_and_find, [off, chars], {}),
                      ("StringMap.insert_or_apply", sm.insert_or_apply, [off, chars, sv], {}),
                      ("StringMap.find", sm.find, [off, chars], {}),
                      ("StringMap.contains", sm.contains, [off, chars], {})],
    }


def mutations(a, arg, kinds):
    """(kind, bad value) for one argument."""
    for kind in kinds:
        if kind == "host":
            yield "host", arg.host
        elif kind == "strided":
            yield "strided", a.strided(arg.host)
        elif kind == "dtype":
            for dt in arg.wrong + tuple(v[len("dtype-"):] for v in arg.valid if v.startswith("dtype-")):
                yield "dtype-" + dt, a.dev(arg.host.astype(dt))
        elif kind == "length" and arg.paired:
            yield "length", a.dev(arg.host[:-1])
        elif kind == "none" and not arg.none_ok:
            yield "none", None
        elif kind == "other_gpu":
            yield "other_gpu", a.dev(arg.host, device=1)


def good(a, args):
    return [a.dev(x.host) if isinstance(x, Arg) else x for x in args]


def single_device(args):
    """An array alone on another GPU is a valid input to a function (it runs there)."""
    return sum(isinstance(x, Arg) for x in args) < 2


def child(lib, group, kinds):
    """Run one group's good calls and their bad variants, printing one line per case."""
    a = Arrays(lib)
    is_function = group in FUNCTION_GROUPS
    groups = function_calls(a) if is_function else container_calls(a)
    for label, fn, args, kwargs in groups[group]:
        print("CASE", label, "good", flush=True)
        fn(*good(a, args), **kwargs)  # a spec that fails its good call is a broken spec: the child fails
        a.sync()
        print("GOOD", label, flush=True)
        for i, arg in enumerate(args):
            if not isinstance(arg, Arg):
                continue
            for kind, bad in mutations(a, arg, kinds):
                if kind == "other_gpu" and is_function and single_device(args):
                    continue
                case = "%s arg%d %s" % (label, i, kind)
                print("CASE", case, flush=True)
                call = good(a, args)
                call[i] = bad
                try:
                    fn(*call, **kwargs)
                    a.sync()
                except gcol.CudaError as e:
                    print("WRONG", case, "CudaError", str(e)[:300], flush=True)
                except (gcol.GcolError, ValueError, TypeError) as e:
                    if kind in arg.valid:
                        print("WRONG", case, "a valid input refused:", type(e).__name__, str(e)[:300], flush=True)
                    else:
                        print("REFUSED", case, type(e).__name__, flush=True)
                except BaseException as e:  # noqa: B902 (anything else is a finding)
                    print("WRONG", case, type(e).__name__, str(e)[:300], flush=True)
                else:
                    print("ACCEPTED" if kind in arg.valid else "WRONG", case, "accepted", flush=True)
                a.sync()  # the context still works (a fault would raise here: the child fails)
    print("DONE", flush=True)


# ---- the parent's side ------------------------------------------------------------------
FUNCTION_GROUPS = ("unique", "groupby_reduce", "isin", "join", "dictionary_encode", "value_counts",
                   "approx_distinct", "graph", "shortest_paths")
CONTAINER_GROUPS = ("Map", "Multimap", "Set", "Multiset", "BloomFilter", "HyperLogLog", "StringMap")


def run_child(lib, group, kinds):
    env = dict(os.environ)
    paths = [str(HERE)] + ([] if os.environ.get("GCOL_TEST_INSTALLED") == "1" else [str(HERE.parents[1] / "python")])
    env["PYTHONPATH"] = os.pathsep.join(paths + [env.get("PYTHONPATH", "")])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    code = "import test_gpu_bad_input as t; t.child(%r, %r, %r)" % (lib, group, tuple(kinds))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    lines = proc.stdout.splitlines()
    last = next((ln for ln in reversed(lines) if ln.startswith("CASE")), "before the first case")
    if proc.returncode < 0:
        pytest.fail("the child died by signal %d in %s\n%s" % (-proc.returncode, last, proc.stderr[-3000:]))
    wrong = [ln for ln in lines if ln.startswith("WRONG")]
    assert not wrong, "\n".join(wrong)
    assert proc.returncode == 0 and lines and lines[-1] == "DONE", (
        "the child failed in %s (rc %d)\n%s" % (last, proc.returncode, proc.stderr[-3000:]))
    return lines


def gpu_count(lib):
    if lib == "torch":
        import torch
        return torch.cuda.device_count()
    import cupy
    return cupy.cuda.runtime.getDeviceCount()


@pytest.mark.parametrize("lib", ["cupy", "torch"])
@pytest.mark.parametrize("group", FUNCTION_GROUPS + CONTAINER_GROUPS)
def test_bad_input_is_refused(gpu, lib, group):
    pytest.importorskip(lib)
    lines = run_child(lib, group, KINDS_ONE_GPU)
    assert any(ln.startswith("REFUSED") for ln in lines)


@pytest.mark.parametrize("lib", ["cupy", "torch"])
@pytest.mark.parametrize("group", FUNCTION_GROUPS + CONTAINER_GROUPS)
def test_arrays_on_another_gpu_are_refused(gpu, lib, group):
    pytest.importorskip(lib)
    if gpu_count(lib) < 2:
        pytest.skip("needs 2 GPUs")
    run_child(lib, group, ("other_gpu",))
