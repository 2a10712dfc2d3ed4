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
