"""gcol.StringMap, dictionary_encode and value_counts against pyarrow.compute
(same dictionary, ids consistent), on CuPy and PyTorch; bad offsets refused."""
import random

import numpy as np
import pytest

import gcol

pa = pytest.importorskip("pyarrow")
pc = pytest.importorskip("pyarrow.compute")


def _words(n, distinct, seed):
    rng = random.Random(seed)
    pool = [""] + ["w%d%s" % (i, "x" * rng.randrange(0, 40)) for i in range(distinct - 1)]
    pool += ["long%d" % i + "y" * 70000 for i in range(3)]
    return [rng.choice(pool) for _ in range(n)]


@pytest.mark.parametrize("lib", ["cupy", "torch"])
@pytest.mark.parametrize("large", [False, True])
def test_dictionary_encode_matches_pyarrow(gpu, lib, large):
    pytest.importorskip(lib)
    words = _words(20000, 3000, 7 + large)
    arr = pa.array(words, type=pa.large_string() if large else pa.string())
    off, chars = gcol.strings_from_arrow(arr, like=lib)
    ids, d_off, d_chars = gcol.dictionary_encode(off, chars)
    want = pc.dictionary_encode(arr)
    got_dict = gcol.strings_to_arrow(d_off, d_chars)
    # pyarrow's dictionary is in first-seen order too: equal, and equal ids
    assert got_dict.to_pylist() == want.dictionary.to_pylist()
    got_ids = ids.cpu().numpy() if lib == "torch" else ids.get()
    assert np.array_equal(got_ids, want.indices.to_numpy())


@pytest.mark.parametrize("lib", ["cupy", "torch"])
def test_value_counts_matches_pyarrow(gpu, lib):
    pytest.importorskip(lib)
    words = _words(30000, 500, 3)
    off, chars = gcol.strings_from_list(words, like=lib)
    d_off, d_chars, counts = gcol.value_counts(off, chars)
    got = dict(zip(gcol.strings_to_list(d_off, d_chars), (counts.cpu().numpy() if lib == "torch" else counts.get())))
    want = {d["values"]: d["counts"] for d in pc.value_counts(pa.array(words)).to_pylist()}
    assert got == want


def test_string_map_calls(gpu):
    cupy = pytest.importorskip("cupy")
    m = gcol.StringMap("int64", capacity=8)
    off, chars = gcol.strings_from_list(["a", "bb", "a", "", "ccc"])
    ids, ins = m.insert_and_find(off, chars, return_inserted=True)
    assert ids.get().tolist() == [0, 1, 0, 2, 3] and ins.get().tolist() == [True, True, False, True, True]
    q_off, q_chars = gcol.strings_from_list(["ccc", "zz", ""])
    assert m.find(q_off, q_chars).get().tolist() == [3, -1, 2]
    assert m.contains(q_off, q_chars).get().tolist() == [True, False, True]
    assert len(m) == 4
    o, c, v = m.retrieve_all()
    assert gcol.strings_to_list(o, c) == ["a", "bb", "", "ccc"] and v.get().tolist() == [0, 1, 2, 3]
    # a bad column: refused, nothing changed, a good call after works
    bad = cupy.asarray(np.array([0, 2, 1, 3], dtype=np.int32))
    with pytest.raises(gcol.InvalidArgumentError, match="non-decreasing"):
        m.insert(bad, chars)
    assert len(m) == 4
    m.insert(*gcol.strings_from_list(["dd"]))
    assert m.find(*gcol.strings_from_list(["dd"])).get().tolist() == [4]
    m.clear()
    assert len(m) == 0
    g = gcol.StringMap("float64")
    g.insert_or_apply(off, chars, cupy.asarray([1.0, 2.0, 3.0, 4.0, 5.0]), gcol.MAX)
    o, c, v = g.retrieve_all()
    assert dict(zip(gcol.strings_to_list(o, c), v.get().tolist())) == {"a": 3.0, "bb": 2.0, "": 4.0, "ccc": 5.0}
