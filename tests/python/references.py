"""CPU references for gcol's functions, written from their documented
contracts in plain Python (no gcol code): the float key rule, group-by
reductions, isin, join pairs in pandas' order, Dijkstra, and checks of
predecessor tables and paths. The host tests check these references against
NumPy, pandas and SciPy; the GPU tests check gcol against them."""
import heapq
import math
import struct

import numpy as np

QUIET_NAN_BITS = {"float32": 0x7FC00000, "float64": 0x7FF8000000000000}


def canonical_results(values, dtype):
    """Returned float keys (a NumPy array) are +0.0 and the quiet NaN, never -0.0 or another NaN."""
    if dtype.startswith("float"):
        w = np.dtype(dtype).itemsize * 8
        bits = values.view("uint%d" % w).tolist()
        assert all(b != 1 << (w - 1) for b in bits), "a -0.0 key came back"
        assert all(b == QUIET_NAN_BITS[dtype] for b, v in zip(bits, values.tolist()) if v != v)


def key_of(v):
    """What a key is under the key rule: -0.0 and 0.0 are one key, every NaN
    is one key, every other value (as a Python float: exact, so subnormals
    stay apart from zero) is its own key."""
    if isinstance(v, float):
        if v != v:
            return "nan"
        if v == 0.0:
            return 0.0
    return v


def float_bits_rule(bits, width):
    """The key rule on one bit pattern (an unsigned int), by unpacking it to a
    Python float: the canonical pattern that stands for its key."""
    fmt = ("<I", "<f") if width == 32 else ("<Q", "<d")
    v = struct.unpack(fmt[1], struct.pack(fmt[0], bits))[0]
    if v != v:
        return QUIET_NAN_BITS["float%d" % width]
    return 0 if v == 0.0 else bits


def keys_list(a):
    return [key_of(v) for v in np.asarray(a).reshape(-1).tolist()]


def unique(x):
    """{key: count} of x under the key rule, and each element's key."""
    keys = keys_list(x)
    counts = {}
    for k in keys:
        counts[k] = counts.get(k, 0) + 1
    return counts, keys


def isin(x, test_values):
    present = set(keys_list(test_values))
    return np.array([k in present for k in keys_list(x)], dtype=bool).reshape(np.shape(x))


def join(left, right, how):
    """gcol.join's result as Python lists under its documented contract:
    inner / left / right / outer: (left_index, right_index) pairs, -1 on the
    side a row lacks (inner and left: left row order, then right row order;
    right: right row order, then left row order; outer: left's pairs, then
    the right rows without a match); semi / anti: left row indices."""
    rows = {}
    for j, k in enumerate(keys_list(right)):
        rows.setdefault(k, []).append(j)
    lkeys = keys_list(left)
    if how in ("semi", "anti"):
        return [i for i, k in enumerate(lkeys) if (k in rows) == (how == "semi")]
    if how == "right":
        lrows = {}
        for i, k in enumerate(lkeys):
            lrows.setdefault(k, []).append(i)
        return [(i, j) for j, k in enumerate(keys_list(right)) for i in lrows.get(k, [-1])]
    pairs = []
    for i, k in enumerate(lkeys):
        matches = rows.get(k, [])
        pairs += [(i, j) for j in matches] or ([(i, -1)] if how in ("left", "outer") else [])
    if how == "outer":
        present = set(lkeys)
        pairs += [(-1, j) for j, k in enumerate(keys_list(right)) if k not in present]
    return pairs


# ---- group-by ---------------------------------------------------------------------
def wrap(total, dtype):
    """An exact integer sum as the dtype's wrapped value."""
    bits = np.dtype(dtype).itemsize * 8
    return np.array([total % 2**bits], dtype="uint%d" % bits).view(dtype)[0]


def float_sum(values):
    """The exact sum of floats: NaN with a NaN or with both infinities, the infinity if one."""
    if any(v != v for v in values) or (math.inf in values and -math.inf in values):
        return math.nan
    if math.inf in values or -math.inf in values:
        return math.inf if math.inf in values else -math.inf
    return math.fsum(values)


def reduce(values, op, dtype):
    """One group's result under groupby_reduce's documented rules (as a
    Python number): integer sums and means' sums are taken in int64 / uint64
    (wrapping there), float min/max skip NaN."""
    floats = dtype.startswith("float")
    if op == "count":
        return len(values)
    if op in ("min", "max"):
        numbers = [v for v in values if v == v]
        return (min if op == "min" else max)(numbers) if numbers else math.nan
    wide = dtype if floats or dtype.endswith("64") else ("uint64" if dtype.startswith("uint") else "int64")
    if op == "sum":  # issue 41: integer sums in 64 bits
        return float_sum(values) if floats else int(wrap(sum(values), wide))
    total = float_sum(values) if floats else int(wrap(sum(values), wide))
    return total / len(values)


def groupby(keys, values, op, dtype):
    """{key: reduced value} under the key rule."""
    groups = {}
    for k, v in zip(keys_list(keys), np.asarray(values).reshape(-1).tolist()):
        groups.setdefault(k, []).append(v)
    return {k: reduce(vs, op, dtype) for k, vs in groups.items()}, groups


def sum_tolerance(values, dtype):
    """How far a float sum taken in any order (in dtype) may lie from the exact one."""
    eps = float(np.finfo(dtype).eps)
    finite = [abs(v) for v in values if math.isfinite(v)]
    return len(values) * eps * math.fsum(finite) + float(np.finfo(dtype).tiny)


# ---- shortest paths -----------------------------------------------------------------
def dijkstra(n, arcs, source):
    """Distances (float64) from source over arcs [(u, v, w)]; inf where unreachable."""
    out = {}
    for u, v, w in arcs:
        out.setdefault(u, []).append((v, w))
    dist = [math.inf] * n
    dist[source] = 0.0
    heap = [(0.0, source)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in out.get(u, ()):
            if d + w < dist[v]:
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    return dist


def lightest_arcs(arcs):
    """{(u, v): the least weight of an arc u -> v}."""
    best = {}
    for u, v, w in arcs:
        best[(u, v)] = min(w, best.get((u, v), math.inf))
    return best


def path_error(path, source, target, dist, lightest):
    """Why path (vertex list) is not a shortest source -> target path of
    length dist (None when it is one): ends, arcs, and total weight."""
    if not path or path[0] != source or path[-1] != target:
        return "path %s does not run from %d to %d" % (path, source, target)
    total = 0.0
    for u, v in zip(path, path[1:]):
        if (u, v) not in lightest:
            return "path %s uses %d -> %d, which is no arc" % (path, u, v)
        total += lightest[(u, v)]
    if not math.isclose(total, dist, rel_tol=1e-5 * len(path), abs_tol=1e-5 * len(path)):
        return "path %s weighs %r, the distance is %r" % (path, total, dist)
    return None


def path_from_pred(pred_row, source, target, n):
    """Follow a predecessor row (indexed by vertex) back from target: the path, or None if it loops."""
    path = [target]
    while path[-1] != source:
        p = pred_row[path[-1]]
        if not 0 <= p < n or len(path) > n:
            return None
        path.append(p)
    return path[::-1]
