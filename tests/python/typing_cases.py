"""What a type checker sees of gcol's functions (issue 41, item 7): checked by
``mypy --strict`` in test_host_typing.py, never run. Arr stands for any
device array type (torch.Tensor, cupy.ndarray): the functions return the
caller's array type, and the tuple lengths follow the return_* flags of
unique and the how of join."""
from typing import Any, List, Tuple, Union

from typing_extensions import assert_type

import gcol


class Arr:
    """A device array type."""


def unique_cases(x: Arr) -> None:
    assert_type(gcol.unique(x), Arr)
    assert_type(gcol.unique(x, sorted=False), Arr)
    assert_type(gcol.unique(x, return_counts=True), Tuple[Arr, Arr])
    assert_type(gcol.unique(x, return_index=True), Tuple[Arr, Arr])
    assert_type(gcol.unique(x, return_inverse=True, return_counts=True), Tuple[Arr, Arr, Arr])
    assert_type(gcol.unique(x, return_index=True, return_inverse=True, return_counts=True),
                Tuple[Arr, Arr, Arr, Arr])
    values, counts = gcol.unique(x, return_counts=True)
    assert_type(values, Arr)
    flag: bool = bool(values)
    assert_type(gcol.unique(x, return_counts=flag), Any)  # a flag known only at run time
    columns: Tuple[Arr, Arr] = (x, x)
    assert_type(gcol.unique(columns), Tuple[Any, ...])


def isin_join_cases(x: Arr, t: Arr) -> None:
    assert_type(gcol.isin(x, t), Arr)
    assert_type(gcol.isin(x, t, invert=True), Arr)
    assert_type(gcol.join(x, t), Tuple[Arr, Arr])
    assert_type(gcol.join(x, t, how="left"), Tuple[Arr, Arr, Arr])
    assert_type(gcol.join(x, t, how="outer"), Tuple[Arr, Arr, Arr, Arr])
    assert_type(gcol.join(x, t, how="anti"), Arr)


def groupby_cases(k: Arr, v: Arr) -> None:
    keys, sums = gcol.groupby_reduce(k, v, op="sum", dtype="int32")
    several: Union[Any, List[Any]] = gcol.groupby_reduce(k, [v, v], op=["sum", "mean"])[1]
    del keys, sums, several


def container_cases(k: Arr) -> None:
    with gcol.Map("int64", "float64", capacity=10) as m:
        assert_type(m, gcol.Map)
        m.insert_or_apply(k, k, gcol.ADD)
        assert_type(len(m), int)
        m2 = m.copy()
        assert_type(m2, gcol.Map)


def other_public_names(k: Arr, off: Arr, chars: Arr) -> None:
    """Every public name is annotated (issue 41, item 7): strict mode would
    flag a call to an unannotated one."""
    assert_type(gcol.version(), Tuple[int, int, int])
    assert_type(gcol.library_path(), str)
    with gcol.Set("int64") as s, gcol.Multiset("int64", capacity=10) as ms:
        s.insert(k)
        assert_type(s.copy(), gcol.Set)
        assert_type(ms.count(k), Any)
        assert_type(s.size(), int)
    mm = gcol.Multimap("int64", "int64", 10, engine="chained")
    values, query = mm.retrieve(k)
    bloom = gcol.BloomFilter(expected_keys=100)
    assert_type(bloom.copy(), gcol.BloomFilter)
    assert_type(gcol.BloomFilter.from_bytes(bloom.to_bytes()), gcol.BloomFilter)
    hll = gcol.HyperLogLog(precision=12)
    hll.merge(gcol.HyperLogLog.from_bytes(hll.to_bytes()))
    assert_type(hll.estimate(), float)
    assert_type(gcol.approx_distinct(k), float)
    graph = gcol.Graph.csr(off, k, k)
    assert_type(graph, gcol.Graph)
    assert_type(gcol.shortest_paths_pred(graph, k), Tuple[Any, Any])
    assert_type(gcol.paths(graph, k, k), Tuple[Any, Any, Any])
    with gcol.StringMap("int32") as sm:
        sm.insert(off, chars)
        assert_type(sm.retrieve_all(), Tuple[Any, Any, Any])
    assert_type(gcol.strings_to_list(off, chars), List[str])
    ids, d_off, d_chars = gcol.dictionary_encode(off, chars)
    dm = gcol.DistMap("int64", "int64", 10, devices=[0])
    assert_type(dm.size(), int)
    del values, query, ids, d_off, d_chars
