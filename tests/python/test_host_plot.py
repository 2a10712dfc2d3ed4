"""Host-only: bench/plot.py (issue 40) parses the benches' printed output and
writes SVG figures labelled with the GPU. data/bench_dist_2gpu.log and
data/bench_dist_4gpu.log are real bench_dist runs (2 and 4 H200s);
data/bench_map.log, bench_set.log and bench_sssp.log were made with the
benches' printf formats from figures in bench/RESULTS.md (no raw log of those
was kept). The figure tests skip without matplotlib; the parser needs none."""
import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = pathlib.Path(__file__).resolve().parent / "data"
spec = importlib.util.spec_from_file_location("bench_plot", ROOT / "bench" / "plot.py")
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)


def runs_of(name):
    return plot.parse((DATA / name).read_text())


def needs_matplotlib():
    pytest.importorskip("matplotlib", reason="matplotlib is not installed: bench/plot.py's figures need it")


def test_map_rows_and_peers():
    (run,) = runs_of("bench_map.log")
    assert (run["bench"], run["gpu"], run["copy_gbs"], run["n"]) == ("map", "NVIDIA H100 80GB HBM3", 3004.0, 100000000)
    assert len(run["rows"]) == 22  # 4 x (insert, find x2, contains, erase), apply x2; no retrieve_all
    first = run["rows"][0]
    assert first == {"op": "insert", "type": "i64/i64", "load": 0.5, "ms": 10.04, "gops": 9.96, "target": 9.16,
                     "target23": 11.63}
    miss = run["rows"][2]
    assert miss["op"] == "find (misses)" and "target" not in miss and miss["target23"] == 24.01
    peers = plot.peers(run)
    assert peers[0]["cuCollections"] == pytest.approx(9.16 / 1.15)
    assert peers[0]["best-tuned peer (issue 23)"] == pytest.approx(11.63 / 1.1)
    assert peers[2]["cuCollections"] is None
    erase = run["rows"][4]
    assert erase["op"] == "erase" and "target" not in erase and peers[4] == {"cuCollections": None,
                                                                             "best-tuned peer (issue 23)": None}
    assert [r["op"] for r in run["rows"][-2:]] == ["apply(ADD)", "apply, kept"]
    assert peers[-2]["cuCollections"] == pytest.approx(10.92 * 10.19 / 11.0)


def test_set_rows_and_peers():
    (run,) = runs_of("bench_set.log")
    assert run["bench"] == "set" and run["n"] == 100000000
    ops = [(r["op"], r["type"]) for r in run["rows"]]
    assert len(ops) == 13 and ("erase", "u32") in ops and ("insert, 10 copies each", "u64") in ops
    assert ("growable x10, factor 4", "u64") in ops and ("multiset count", "i64") in ops
    assert run["rows"][0] == {"op": "insert", "type": "u64", "ms": 8.45, "gops": 11.84, "target": 11.5}
    peers = dict(zip(ops, plot.peers(run)))
    assert peers[("insert", "u64")]["cuCollections"] == pytest.approx(11.5 / 1.1)
    assert peers[("growable insert x10", "u64")]["cuCollections"] == pytest.approx(6.85 / 2)
    assert peers[("erase", "u32")]["cuCollections"] is None


def test_floor_columns():
    """Issue 38: bench_map and bench_set end a row with its floor and its share of it."""
    text = """GPU: NVIDIA H200 (sm_90, 132 SMs), device-to-device copy 4100 GB/s (read + write)

hash map, 100000000 unique random keys, median of 5 runs
operation      pairs    load         ms   G ops/s of copy   target
insert         i64/i64  0.50       7.80     12.83   68.4%    10.90 met    issue 23:  15.87 MISSED  floor  14.62  87.8% MISSED
erase          i64/i64  0.50       7.17     13.95   37.2%        -         floor  14.62  95.4% met

set and multiset, 100000000 unique random keys in 200000000 slots, median of 5 runs
operation              keys         ms   G ops/s of copy   target
erase                  u64        16.00      6.25   16.3%    16.44 MISSED  floor  15.02  41.6% MISSED
insert, 10 copies each u64         3.43     29.15   76.0%        -
"""
    runs = plot.parse(text)
    assert [r["bench"] for r in runs] == ["map", "set"]
    insert, erase = runs[0]["rows"]
    assert insert["floor"] == 14.62 and insert["target23"] == 15.87 and insert["gops"] == 12.83
    assert erase["floor"] == 14.62 and "target" not in erase
    assert runs[1]["rows"][0]["floor"] == 15.02 and runs[1]["rows"][0]["target"] == 16.44
    assert "floor" not in runs[1]["rows"][1]


def test_sizes_from_one_gpu_model():
    """The size figure compares runs of one GPU model: the one with the most sizes."""
    runs = [{"gpu": "H100", "n": 100}, {"gpu": "H200", "n": 10}, {"gpu": "H200", "n": 100}, {"gpu": "H200", "n": 1000}]
    assert plot._one_gpu(runs, None) == runs[1:]
    assert plot._one_gpu([{"gpu": None, "n": 1}, {"gpu": None, "n": 2}], "A100") == [{"gpu": None, "n": 1},
                                                                                       {"gpu": None, "n": 2}]
    assert plot._one_gpu([], None) == []


def test_dist_rows_and_targets():
    (run,) = runs_of("bench_dist_2gpu.log")
    assert (run["bench"], run["gpu"], run["copy_gbs"], run["n"]) == ("dist", "2 x NVIDIA H200", 4228.0, 100000000)
    assert run["one_gpu"] == {"insert": 13.11, "find": 25.79}
    assert [(r["gpus"], r["op"], r["gops"], r["vs"], r["bound"]) for r in run["rows"]] == [
        (1, "insert", 11.27, 0.86, 13.11), (1, "find", 20.56, 0.80, 25.79),
        (2, "insert", 17.15, 1.31, 26.22), (2, "find", 26.20, 1.02, 51.58)]
    targets = plot.dist_targets(run)
    assert targets == pytest.approx({(2, "insert"): 1.85 * 13.11, (2, "find"): 1.60 * 25.79})
    assert targets[(2, "insert")] == pytest.approx(24.26, abs=0.01)  # what the bench printed
    (run4,) = runs_of("bench_dist_4gpu.log")
    assert run4["gpu"] == "4 x NVIDIA H200" and [r["gpus"] for r in run4["rows"]] == [1, 1, 2, 2, 4, 4]
    assert plot.dist_targets(run4)[(4, "find")] == pytest.approx(74.80, abs=0.01)


def test_sssp_rows():
    (run,) = runs_of("bench_sssp.log")
    assert (run["bench"], run["gpu"], run["threads"]) == ("sssp", "NVIDIA H100 80GB HBM3", 16)
    names = [r["op"] for r in run["rows"]]  # variant, predecessor and paths rows are not speed-ups
    assert len(names) == 9 and names[0] == "voxel 64^3 26-conn 10% obst, 1024 -> all"
    assert run["rows"][0] == {"op": names[0], "gpu_s": 0.148, "engine": "near-far", "cpu_s": 5.51, "scaled": "*",
                              "speedup": 37.2}
    helsinki = run["rows"][-1]
    assert helsinki["op"] == "Helsinki OSM, 4096 -> 4096" and helsinki["scaled"] == "" and helsinki["speedup"] == 12.5


def test_one_log_of_several_benches_and_none():
    text = "".join((DATA / n).read_text() for n in ("bench_map.log", "bench_sssp.log", "bench_set.log"))
    assert [r["bench"] for r in plot.parse(text)] == ["map", "sssp", "set"]
    assert plot.parse("make: nothing to be done\n") == []


def test_figures_are_written(tmp_path):
    needs_matplotlib()
    logs = [str(DATA / n) for n in ("bench_map.log", "bench_set.log", "bench_dist_2gpu.log", "bench_sssp.log")]
    assert plot.main(["--out", str(tmp_path)] + logs) == 0
    names = {"map_ops.svg", "set_ops.svg", "dist_scaling.svg", "sssp_speedup.svg"}
    assert {p.name for p in tmp_path.iterdir()} == names
    for name in names:
        svg = (tmp_path / name).read_text()
        assert svg.lstrip().startswith("<?xml") and "</svg>" in svg
    assert "2 x NVIDIA H200" in (tmp_path / "dist_scaling.svg").read_text()
    assert "NVIDIA H100 80GB HBM3" in (tmp_path / "map_ops.svg").read_text()


def test_size_figure_from_several_runs(tmp_path):
    needs_matplotlib()
    text = (DATA / "bench_map.log").read_text()
    small = tmp_path / "map_10M.log"
    small.write_text(text.replace("hash map, 100000000 unique", "hash map, 10000000 unique"))
    runs = plot.parse(small.read_text()) + runs_of("bench_map.log")
    assert [r["n"] for r in runs] == [10000000, 100000000]
    written = plot.make_figures(runs, str(tmp_path / "img"))
    assert sorted(pathlib.Path(p).name for p in written) == ["map_ops.svg", "map_size.svg"]


def test_gpu_from_the_command_line(tmp_path):
    needs_matplotlib()
    text = "".join(line for line in (DATA / "bench_sssp.log").read_text().splitlines(True)
                   if not line.startswith("GPU: "))
    log = tmp_path / "sssp.log"
    log.write_text(text)
    with pytest.raises(SystemExit, match="--gpu"):
        plot.main(["--out", str(tmp_path / "a"), str(log)])
    assert plot.main(["--out", str(tmp_path / "b"), "--gpu", "Test GPU 9000", str(log)]) == 0
    assert "Test GPU 9000" in (tmp_path / "b" / "sssp_speedup.svg").read_text()
