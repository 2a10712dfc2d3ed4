#!/usr/bin/env python3
"""Turn the printed output of gcol's benchmarks into SVG figures (issue 40).

    python3 bench/plot.py --out docs/img LOG [LOG ...] [--gpu "NVIDIA H100 80GB HBM3"]

Each LOG is what a bench printed (one bench, or several in a row as `make
bench` or `scripts/gpu bench` print them); the parser finds the benches by
their header lines, so the names of the files do not matter. Figures, each
titled with the GPU model the log printed (`--gpu` names it for a log that
printed none):

  map_ops.svg       build/bench/bench_map: G ops/s per operation, gcol against
  set_ops.svg       build/bench/bench_set   the peers. The peers are not run by
                    the bench: it prints targets made of cuCollections figures
                    recorded on an H100 (issues 3 and 23) times a factor,
                    scaled by this run's copy bandwidth; the figure divides the
                    factor out again (MAP_FACTORS, SET_FACTORS, as in the
                    sources) and plots the scaled peer figures.
  map_size.svg      G ops/s against the number of keys, from several bench_map
  set_size.svg      (bench_set) runs of different GCOL_BENCH_N. No bench sweeps
                    the size itself; make the runs with e.g.
                      for n in 10000000 30000000 100000000 300000000 1000000000; do
                        GCOL_BENCH_N=$n build/bench/bench_map > map_$n.log; done
                      python3 bench/plot.py --out docs/img map_*.log
                    (1B i64 pairs at load 0.5 take about 72 GB of device
                    memory in bench_map: an H200; on an 80 GB H100 stop at 500M.)
  dist_scaling.svg  build/bench/bench_dist: aggregate G pairs/s against the
                    number of GPUs, with the bound and issue 37's targets (the
                    run with the most GPUs when several logs are given).
  sssp_speedup.svg  build/bench/bench_sssp: GPU speed-up over the CPU's
                    Dijkstra per problem, coloured by graph class.

A script for developers (matplotlib, SVG backend); nothing ships it.
"""
import argparse
import os
import re
import sys

GPU_RE = re.compile(r"^GPU: (?P<name>.+?) \(sm_\d+, \d+ SMs\), device-to-device copy (?P<copy>\d+) GB/s")
GPUS_RE = re.compile(r"^GPUs: (?P<count>\d+) x (?P<name>.+?)(?: and others.*)?$")
HEADERS = {
    "map": re.compile(r"^hash map, (?P<n>\d+) unique random keys"),
    "set": re.compile(r"^set and multiset, (?P<n>\d+) unique random keys"),
    "dist": re.compile(r"^sharded map, i64/i64, (?P<n>\d+) pairs per GPU"),
    "sssp": re.compile(r"^CPU: Dijkstra on a binary heap, (?P<threads>\d+) threads"),
}
_OP = r"^(?P<op>\S.*?)\s+"
_RATE = r"\s+(?P<ms>[\d.]+)\s+(?P<gops>[\d.]+)\s+[\d.]+%(?:\s+(?P<target>[\d.]+) (?:met|MISSED)|\s+-)?"
# issue 38: a row may end with its floor measured in the same run (G ops/s) and its share of it
_FLOOR = r"(?:\s+floor\s+(?P<floor>[\d.]+)\s+[\d.]+% (?:met|MISSED))?"
ROWS = {
    "map": re.compile(_OP + r"(?P<type>[iu]\d+/[iu]\d+)\s+(?P<load>\d\.\d\d)" + _RATE
                      + r"(?:.*issue 23:\s+(?P<target23>[\d.]+)(?: met| MISSED)?)?" + _FLOOR),
    "set": re.compile(_OP + r"(?P<type>[iu]\d+)" + _RATE + _FLOOR + r"\s*$"),
    "dist": re.compile(r"^\s*(?P<gpus>\d+) (?P<op>insert|find)\s+(?P<gops>[\d.]+)\s+(?P<vs>[\d.]+)x\s+"
                       r"(?P<bound>[\d.]+)\s+(?P<by>\S.*?)\s+[\d.]+%\s+(?P<verdict>.*)$"),
    "sssp": re.compile(_OP + r"GPU\s+(?P<gpu_s>[\d.]+) s \((?P<engine>[^)]*)\)\s+CPU\s+(?P<cpu_s>[\d.]+) s"
                       r"(?P<scaled>\*?)\s+speedup\s+(?P<speedup>[\d.]+)x"),
}
ONE_GPU_RE = re.compile(r"^one GPU\s+(?P<op>insert|find)\s+\d+ pairs\s+[\d.]+ ms\s+(?P<gops>[\d.]+) G pairs/s")

# target = peer x factor (x copy / reference copy, already applied by the bench): bench_map.c, bench_set.c
MAP_FACTORS = {"insert": 1.15, "find (hits)": 1.05, "find (misses)": 2.0, "contains": 1.05,
               "apply(ADD)": 11.0 / 10.19}
MAP_FACTOR_23 = 1.1  # issue 23: 1.1x the best-tuned peer
SET_FACTORS = {"growable insert x10": 2.0, "growable x10, factor 4": 2.0}  # 2x dynamic_map; others 1.1x
NEEDS = {"map_ops.svg": "a bench_map run", "set_ops.svg": "a bench_set run",
         "map_size.svg": "bench_map runs of two or more GCOL_BENCH_N", "set_size.svg": "bench_set runs of two or more "
         "GCOL_BENCH_N", "dist_scaling.svg": "a bench_dist run", "sssp_speedup.svg": "a bench_sssp run"}
SIZE_OPS = ("insert", "find (hits)", "find (misses)", "contains", "contains (hits)", "contains (misses)", "erase")


def _number(text):
    return int(text) if re.fullmatch(r"\d+", text) else float(text)


def parse(text):
    """The bench runs in a log: a list of {bench, gpu, copy_gbs, n | threads, rows, ...}."""
    runs, run, gpu, copy = [], None, None, None
    for line in text.splitlines():
        m = GPU_RE.match(line)
        if m:
            gpu, copy, run = m["name"], float(m["copy"]), None
            continue
        m = GPUS_RE.match(line)
        if m:
            gpu = f"{m['count']} x {m['name']}"
            continue
        for bench, header in HEADERS.items():
            m = header.match(line)
            if m:
                run = {"bench": bench, "gpu": gpu, "copy_gbs": copy, "rows": [],
                       **{k: int(v) for k, v in m.groupdict().items()}}
                if bench == "dist":
                    run["one_gpu"] = {}
                runs.append(run)
                break
        else:
            if run is None:
                continue
            m = ROWS[run["bench"]].match(line)
            if m and m["op"] != "retrieve_all":
                row = {k: (v if k in ("op", "type", "by", "verdict", "engine", "scaled") else _number(v))
                       for k, v in m.groupdict().items() if v is not None}
                run["rows"].append(row)
            elif run["bench"] == "dist" and ONE_GPU_RE.match(line):
                one = ONE_GPU_RE.match(line)
                run["one_gpu"][one["op"]] = float(one["gops"])
    return [r for r in runs if r["rows"]]


def peers(run):
    """Per row of a map or set run, the scaled peer figures the targets were made of (None: none)."""
    out = []
    for row in run["rows"]:
        target = row.get("target")
        if run["bench"] == "map":
            factor = MAP_FACTORS.get(row["op"])
            cuco = target / factor if target and factor else None
            best = row["target23"] / MAP_FACTOR_23 if row.get("target23") else None
            out.append({"cuCollections": cuco, "best-tuned peer (issue 23)": best})
        else:
            out.append({"cuCollections": target / SET_FACTORS.get(row["op"], 1.1) if target else None})
    return out


def dist_targets(run):
    """{(gpus, op): issue 37's target in G pairs/s} from the verdicts (x times one GPU's rate)."""
    out = {}
    for row in run["rows"]:
        m = re.search(r"([\d.]+)x", row["verdict"])
        local = run["one_gpu"].get(row["op"]) or row["gops"] / row["vs"]
        if m and "no target" not in row["verdict"]:
            out[(row["gpus"], row["op"])] = float(m[1]) * local
    return out


def _pyplot():
    import matplotlib
    matplotlib.use("svg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"svg.hashsalt": "gcol", "svg.fonttype": "none", "font.size": 9})
    return plt


def _note(fig, text):
    """A footnote under the figure (the tight bounding box takes it in)."""
    fig.text(0.01, 0, text, fontsize=7, va="top")


def _save(fig, path):
    fig.savefig(path, format="svg", metadata={"Date": None}, bbox_inches="tight")
    _pyplot().close(fig)
    return path


def plot_ops(run, path, gpu):
    """Horizontal bars: gcol and the (scaled) peers per operation of one map or set run."""
    plt = _pyplot()
    rows, prs = run["rows"], peers(run)
    labels = [f"{r['op']}  {r['type']}" + (f" @{r['load']:.1f}" if "load" in r else "") for r in rows]
    series = [("gcol", [r["gops"] for r in rows])] + [(k, [p[k] for p in prs]) for k in prs[0]]
    series = [(name, vals) for name, vals in series if any(v is not None for v in vals)]
    fig, ax = plt.subplots(figsize=(7.5, 0.28 * len(rows) * len(series) / 2 + 1.6))
    h = 0.8 / len(series)
    for i, (name, vals) in enumerate(series):
        ys = [j + (i - (len(series) - 1) / 2) * h for j in range(len(rows))]
        ax.barh(ys, [v or 0 for v in vals], height=h, label=name)
    ax.set_yticks(range(len(rows)), labels)
    ax.invert_yaxis()
    ax.set_xlabel("G ops/s (higher is better)")
    what = "hash map" if run["bench"] == "map" else "set and multiset"
    ax.set_title(f"gcol {what}, {run['n']:,} keys: throughput against the peers\n{gpu}")
    _note(fig, "peers: cuCollections figures recorded on an H100 (the bench's targets over their factors), scaled by "
          f"this run's copy bandwidth ({run['copy_gbs']:.0f} GB/s)")
    ax.legend(loc="lower right", fontsize=7)
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path)


def plot_sizes(runs, path, gpu):
    """G ops/s against the key count, one line per operation and type, from runs of one bench."""
    plt = _pyplot()
    by_n = {r["n"]: r for r in runs}  # the last run of each size
    lines = {}
    for n in sorted(by_n):
        for row in by_n[n]["rows"]:
            if row["op"] in SIZE_OPS and row.get("load", 0.5) == 0.5:
                lines.setdefault((row["op"], row["type"]), []).append((n, row["gops"]))
    ops, types = list(dict.fromkeys(k[0] for k in lines)), list(dict.fromkeys(k[1] for k in lines))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for (op, kind), pts in lines.items():  # colour: operation; line style: key type
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=f"{op}  {kind}",
                color=colors[ops.index(op) % len(colors)], linestyle=("-", "--", ":")[types.index(kind) % 3])
    ax.set_xscale("log")
    ax.set_xlabel("keys (GCOL_BENCH_N)")
    ax.set_ylabel("G ops/s")
    what = "hash map (load 0.5)" if runs[0]["bench"] == "map" else "set (load 0.5)"
    ax.set_title(f"gcol {what}: throughput against table size\n{gpu}")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    return _save(fig, path)


def plot_dist(run, path, gpu):
    """Aggregate G pairs/s against GPUs for insert and find, with the bound and the targets."""
    plt = _pyplot()
    targets = dist_targets(run)
    fig, ax = plt.subplots(figsize=(6, 4.2))
    for op, color in (("insert", "tab:blue"), ("find", "tab:orange")):
        rows = [r for r in run["rows"] if r["op"] == op]
        xs = [r["gpus"] for r in rows]
        ax.plot(xs, [r["gops"] for r in rows], marker="o", color=color, label=f"{op} (sharded map)")
        for r in rows:
            ax.annotate(f"{r['vs']:.2f}x", (r["gpus"], r["gops"]), textcoords="offset points", xytext=(6, -10),
                        fontsize=7, color=color)
        ax.plot(xs, [r["bound"] for r in rows], linestyle=":", color=color, label=f"{op} bound")
        tx = [x for x in xs if (x, op) in targets]
        if tx:
            ax.plot(tx, [targets[(x, op)] for x in tx], linestyle="none", marker="x", markersize=8, color=color,
                    label=f"{op} target (issue 37)")
    ax.set_xticks(sorted({r["gpus"] for r in run["rows"]}))
    ax.set_xlabel("GPUs")
    ax.set_ylabel("G pairs/s, all GPUs together")
    ax.set_title(f"gcol sharded map, {run['n']:,} i64 pairs per GPU: scaling\n{gpu}")
    _note(fig, "labels: multiple of one GPU's gcol_map rate; bound: the slower of R x one GPU and the all-to-all")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return _save(fig, path)


def plot_sssp(run, path, gpu):
    """Speed-up over CPU Dijkstra per problem, coloured by graph class, with the 20x target."""
    plt = _pyplot()
    rows = run["rows"]
    classes = list(dict.fromkeys(r["op"].split(",")[0] for r in rows))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, ax = plt.subplots(figsize=(7.5, 0.3 * len(rows) + 1.6))
    for i, r in enumerate(rows):
        cls = r["op"].split(",")[0]
        ax.barh(i, r["speedup"], color=colors[classes.index(cls) % len(colors)],
                label=cls if i == min(j for j, q in enumerate(rows) if q["op"].split(",")[0] == cls) else None)
        ax.text(r["speedup"], i, f" {r['speedup']:.1f}x ({r['engine']})", va="center", fontsize=7)
    ax.set_yticks(range(len(rows)), [r["op"] + r["scaled"] for r in rows])
    ax.invert_yaxis()
    ax.axvline(20, color="k", linestyle="--", linewidth=1, label="target 20x")
    ax.set_xlabel(f"speed-up over CPU Dijkstra ({run['threads']} threads)")
    ax.set_title(f"gcol shortest paths: speed-up by graph class\n{gpu}")
    if any(r["scaled"] for r in rows):
        _note(fig, "*: CPU timed on a subset of the sources and scaled")
    ax.legend(fontsize=7, loc="lower right")
    ax.set_xlim(0, max(r["speedup"] for r in rows) * 1.3)
    return _save(fig, path)


def gpu_label(runs, fallback):
    """The GPU model(s) the runs printed, else --gpu; an error when neither names one."""
    names = list(dict.fromkeys(r["gpu"] or fallback for r in runs))
    if None in names:
        raise SystemExit("plot.py: a log prints no GPU model: name it with --gpu")
    return ", ".join(names)


def _one_gpu(runs, fallback):
    """The runs of the GPU model with the most distinct sizes (a tie: the one named last)."""
    by_gpu = {}
    for r in runs:
        by_gpu.setdefault(r["gpu"] or fallback, []).append(r)
    best = None
    for name, rs in by_gpu.items():
        if best is None or len({r["n"] for r in rs}) >= len({r["n"] for r in by_gpu[best]}):
            best = name
    return by_gpu.get(best, [])


def make_figures(runs, out, gpu=None):
    """Every figure the runs allow, into out; returns the written paths."""
    os.makedirs(out, exist_ok=True)
    by = {b: [r for r in runs if r["bench"] == b] for b in HEADERS}
    written = []
    for b in ("map", "set"):
        if by[b]:
            written.append(plot_ops(by[b][-1], os.path.join(out, f"{b}_ops.svg"), gpu_label(by[b][-1:], gpu)))
        same = _one_gpu(by[b], gpu)  # sizes compare on one GPU model only
        if len({r["n"] for r in same}) > 1:
            written.append(plot_sizes(same, os.path.join(out, f"{b}_size.svg"), gpu_label(same, gpu)))
    if by["dist"]:
        run = max(reversed(by["dist"]), key=lambda r: max(x["gpus"] for x in r["rows"]))
        written.append(plot_dist(run, os.path.join(out, "dist_scaling.svg"), gpu_label([run], gpu)))
    if by["sssp"]:
        run = by["sssp"][-1]
        written.append(plot_sssp(run, os.path.join(out, "sssp_speedup.svg"), gpu_label([run], gpu)))
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("logs", nargs="+", metavar="LOG", help="printed output of build/bench/bench_*")
    ap.add_argument("--out", default="docs/img", help="folder for the SVG files (default docs/img)")
    ap.add_argument("--gpu", help="GPU model for logs that print none")
    args = ap.parse_args(argv)
    runs = []
    for path in args.logs:
        with open(path, errors="replace") as f:
            found = parse(f.read())
        if not found:
            print(f"plot.py: {path}: no bench_map, bench_set, bench_dist or bench_sssp output", file=sys.stderr)
        runs += found
    if not runs:
        return 1
    written = make_figures(runs, args.out, args.gpu)
    for path in written:
        print(path)
    for name in sorted(set(NEEDS) - {os.path.basename(p) for p in written}):
        print(f"plot.py: no {name}: it needs {NEEDS[name]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
