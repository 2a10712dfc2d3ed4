"""GPU: gcol.shortest_paths on grids and CSR graphs against a CPU Dijkstra."""
import math

import numpy as np
import pytest

import gcol
import references


def dijkstra(num_vertices, arcs, source):
    """arcs: {u: [(v, w)]}; distances from source (inf where unreachable)."""
    return references.dijkstra(num_vertices, [(u, v, w) for u, out in arcs.items() for v, w in out], source)


def grid_arcs(cost):
    ny, nx = cost.shape
    arcs = {}
    for y in range(ny):
        for x in range(nx):
            if math.isinf(cost[y, x]):
                continue
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    yy, xx = y + dy, x + dx
                    if (dy or dx) and 0 <= yy < ny and 0 <= xx < nx and not math.isinf(cost[yy, xx]):
                        step = math.sqrt(abs(dy) + abs(dx))
                        arcs.setdefault(x + nx * y, []).append(
                            (xx + nx * yy, 0.5 * (float(cost[y, x]) + float(cost[yy, xx])) * step))
    return arcs


def test_grid_distances_match_dijkstra(xp, rng):
    cost = rng.uniform(1, 5, (12, 10)).astype(np.float32)
    cost[4, 1:9] = np.inf  # a wall
    graph = gcol.Graph.grid(xp.dev(cost), connectivity=26)  # 2D: 8-connected
    assert graph.num_vertices == 120
    sources = np.array([0, 57, 119], dtype=np.int32)
    dist = gcol.shortest_paths(graph, xp.dev(sources))
    assert xp.is_native(dist) and xp.host(dist).shape == (3, 120)
    arcs = grid_arcs(cost)
    expect = np.array([dijkstra(120, arcs, int(s)) for s in sources])
    np.testing.assert_allclose(xp.host(dist), expect, rtol=1e-5)


def test_csr_distances_to_chosen_targets(xp, rng):
    n, m = 300, 1500
    tails = np.sort(rng.integers(0, n, m))
    heads = rng.integers(0, n, m).astype(np.int32)
    weights = rng.uniform(0, 10, m).astype(np.float32)
    offsets = np.searchsorted(tails, np.arange(n + 1)).astype(np.int32)
    graph = gcol.Graph.csr(xp.dev(offsets), xp.dev(heads), xp.dev(weights))
    sources = rng.integers(0, n, 20).astype(np.int32)
    targets = rng.integers(0, n, 30).astype(np.int32)
    dist = xp.host(gcol.shortest_paths(graph, xp.dev(sources), xp.dev(targets)))
    arcs = {}
    for u, v, w in zip(tails.tolist(), heads.tolist(), weights.tolist()):
        arcs.setdefault(u, []).append((v, w))
    expect = np.array([[dijkstra(n, arcs, int(s))[t] for t in targets] for s in sources])
    np.testing.assert_allclose(dist, expect, rtol=1e-5)


def test_invalid_csr_contents_are_refused(xp):
    offsets = xp.dev(np.array([0, 2, 1], dtype=np.int32))  # decreasing
    with pytest.raises(gcol.InvalidArgumentError):
        gcol.Graph.csr(offsets, xp.dev(np.zeros(1, np.int32)), xp.dev(np.ones(1, np.float32)))


def test_predecessors_and_paths(xp, rng):
    n, m = 200, 900
    tails = np.sort(rng.integers(0, n, m))
    heads = rng.integers(0, n, m).astype(np.int32)
    weights = rng.integers(0, 3, m).astype(np.float32)  # ties and zero-weight cycles
    offsets = np.searchsorted(tails, np.arange(n + 1)).astype(np.int32)
    graph = gcol.Graph.csr(xp.dev(offsets), xp.dev(heads), xp.dev(weights))
    arcs = {}
    for u, v, w in zip(tails.tolist(), heads.tolist(), weights.tolist()):
        arcs.setdefault(u, []).append((v, w))

    def tight(u, v, dist):
        return any(x == v and np.float32(dist[u]) + np.float32(w) == np.float32(dist[v]) for x, w in arcs.get(u, ()))

    sources = rng.integers(0, n, 5).astype(np.int32)
    dist, pred = gcol.shortest_paths_pred(graph, xp.dev(sources))
    dist, pred = xp.host(dist), xp.host(pred)
    assert pred.dtype == np.int32
    for i, s in enumerate(sources.tolist()):
        np.testing.assert_allclose(dist[i], dijkstra(n, arcs, s), rtol=1e-5)
        for v in range(n):
            if v == s or math.isinf(dist[i, v]):
                assert pred[i, v] == -1
                continue
            x, steps = v, 0
            while x != s:
                assert tight(int(pred[i, x]), x, dist[i]) and steps <= n
                x, steps = int(pred[i, x]), steps + 1

    targets = rng.integers(0, n, 5).astype(np.int32)
    targets[0] = sources[0]
    off, verts, pd = gcol.paths(graph, xp.dev(sources), xp.dev(targets))
    off, verts, pd = xp.host(off), xp.host(verts), xp.host(pd)
    assert off[0] == 0 and off[-1] == len(verts)
    for k, (s, t) in enumerate(zip(sources.tolist(), targets.tolist())):
        path = verts[off[k]:off[k + 1]].tolist()
        assert pd[k] == dist[k, t]
        if math.isinf(pd[k]):
            assert path == []
            continue
        assert path[0] == s and path[-1] == t
        assert all(tight(a, b, dist[k]) for a, b in zip(path, path[1:]))
    assert verts[off[0]:off[1]].tolist() == [int(sources[0])]
