"""Graphs and many-to-many shortest paths (gcol_graph_t, gcol_sssp_many_to_many,
_pred and gcol_sssp_paths)."""
import ctypes
from typing import Any, Tuple

from . import _arrays
from ._errors import InvalidArgumentError
from ._handle import Handle, non_negative, typed
from ._typing import StreamLike

_IDS = ("uint32", "int32")  # vertex ids: uint32, or int32 read as the same bits


def _ids(obj, what):
    v = _arrays.view(obj)
    if v.dtype not in _IDS:
        raise InvalidArgumentError("%s must be uint32 (or int32) vertex ids, not %s" % (what, v.dtype))
    return v


def _graph(graph):
    if not isinstance(graph, Graph):
        raise InvalidArgumentError("graph must be a gcol.Graph, not %s" % type(graph).__name__)
    return graph


class Graph(Handle):
    """A directed graph with float32 weights >= 0 on the GPU: build it with
    Graph.csr or Graph.grid. Its arrays are copied; creation waits for the
    stream once (the GPU checks them)."""

    _destroy_name = "graph_destroy"

    def __init__(self) -> None:
        super().__init__()
        self.num_vertices = 0

    def _created(self, status, handle, num_vertices):
        self._check(status)
        self._h, self.num_vertices = handle.value, num_vertices
        return self

    @classmethod
    def csr(cls, offsets: Any, targets: Any, weights: Any, stream: StreamLike = None) -> "Graph":
        """A graph from a CSR adjacency.

        Parameters
        ----------
        offsets : uint32 or int32 device array
            num_vertices + 1 entries: the arcs of u are ``targets[offsets[u]:offsets[u + 1]]``.
        targets : device array of offsets' dtype
        weights : float32 device array, one per arc
        stream : int or stream object, optional
            The stream to build it on (default: the current one of offsets' library).

        Returns
        -------
        gcol.Graph

        Raises
        ------
        gcol.InvalidArgumentError
            Host arrays, other dtypes, weights of another length.
        gcol.OutOfMemoryError
        """
        g = cls()
        off = _ids(offsets, "offsets")
        tgt = _ids(targets, "targets")
        w = typed(weights, "float32", "weights", tgt.n)
        s = g._stream(stream, off)
        handle = ctypes.c_void_p()
        n = max(off.n - 1, 0)
        return g._created(g._f.graph_create_csr(ctypes.byref(handle), n, tgt.n, off.ptr, tgt.ptr, w.ptr, s),
                          handle, n)

    @classmethod
    def grid(cls, cost: Any, connectivity: int = 26, stream: StreamLike = None) -> "Graph":
        """A voxel grid graph from a cost array.

        Parameters
        ----------
        cost : float32 device array of shape (nz, ny, nx) or (ny, nx)
            Voxel (x, y, z) is vertex ``x + nx * (y + ny * z)``; arc u -> v weighs
            ``0.5 * (cost[u] + cost[v]) * step``; INFINITY is an obstacle.
        connectivity : {6, 18, 26}
            Neighbours in 3D (2D grids are 8-connected).
        stream : int or stream object, optional
            The stream to build it on (default: the current one of cost's library).

        Returns
        -------
        gcol.Graph

        Raises
        ------
        gcol.InvalidArgumentError
            Host arrays, another dtype or shape, another connectivity.
        gcol.OutOfMemoryError

        Examples
        --------
        >>> g = gcol.Graph.grid(torch.ones((64, 64), device="cuda"))  # doctest: +SKIP
        >>> g.num_vertices  # doctest: +SKIP
        4096
        """
        g = cls()
        c = typed(cost, "float32", "cost")
        if len(c.shape) not in (2, 3):
            raise InvalidArgumentError("cost must have shape (nz, ny, nx) or (ny, nx), not %s" % (c.shape,))
        nz, ny, nx = ((1,) + tuple(c.shape))[-3:]
        if max(nx, ny, nz) >= 2**32:
            raise InvalidArgumentError("grid side too long: %s" % (c.shape,))
        s = g._stream(stream, c)
        handle = ctypes.c_void_p()
        connectivity = non_negative(connectivity, "connectivity")
        return g._created(g._f.graph_create_grid3d(ctypes.byref(handle), nx, ny, nz, c.ptr, connectivity, s),
                          handle, c.n)


def shortest_paths(graph: Graph, sources: Any, targets: Any = None, out: Any = None,
                   stream: StreamLike = None) -> Any:
    """Distances from every source to every target (asynchronous).

    Parameters
    ----------
    graph : gcol.Graph
    sources : uint32 or int32 device array
        Vertex ids.
    targets : device array of the sources' dtype, optional
        Default: every vertex, in id order.
    out : float32 device array, optional
        ``len(sources) * len(targets)`` elements, written and returned.
    stream : int or stream object, optional
        The stream to run on (default: the current one of sources' library);
        new outputs come from that stream's pool.

    Returns
    -------
    float32 array of shape (len(sources), len(targets))
        INFINITY where unreachable, NaN in the row (column) of an invalid
        source (target) id.

    Raises
    ------
    gcol.InvalidArgumentError
        Host arrays, other dtypes, outputs of another size, a closed graph.
    gcol.OutOfMemoryError

    Examples
    --------
    >>> g = gcol.Graph.grid(torch.ones((4, 4), device="cuda"))  # 8-connected  # doctest: +SKIP
    >>> gcol.shortest_paths(g, torch.tensor([0], device="cuda", dtype=torch.int32))[0, 15]  # doctest: +SKIP
    tensor(4.2426, device='cuda:0')
    """
    _graph(graph)
    src = _ids(sources, "sources")
    tgt = _ids(targets, "targets") if targets is not None else None
    nt = tgt.n if tgt is not None else graph.num_vertices
    s = graph._stream(stream, src)
    if out is None:
        out = src.lib.empty((src.n, nt), "float32", src, s)
    dist = typed(out, "float32", "out")
    if dist.n != src.n * nt:
        raise InvalidArgumentError("out has %d elements, %d x %d needed" % (dist.n, src.n, nt))
    if src.n == 0 or (tgt is not None and tgt.n == 0):  # an empty table (an empty array may have no pointer)
        graph._handle()  # a closed graph is still refused
        return out
    graph._check(graph._f.sssp_many_to_many(graph._handle(), src.ptr, src.n, tgt.ptr if tgt else None, nt,
                                            dist.ptr, s))
    return out


NO_PRED = 0xFFFFFFFF  # GCOL_SSSP_NO_PRED: no predecessor (-1 in an int32 array)


def shortest_paths_pred(graph: Graph, sources: Any, targets: Any = None, out: Any = None, pred_out: Any = None,
                        stream: StreamLike = None) -> Tuple[Any, Any]:
    """shortest_paths plus predecessors (asynchronous).

    Parameters
    ----------
    graph : gcol.Graph
    sources : uint32 or int32 device array
        Vertex ids.
    targets : device array of the sources' dtype, optional
        Default: every vertex, in id order (both tables are then
        len(sources) x num_vertices, 4 bytes a cell each).
    out, pred_out : device arrays, optional
        float32 and the sources' dtype, written and returned.
    stream : int or stream object, optional
        The stream to run on (default: the current one of sources' library);
        new outputs come from that stream's pool.

    Returns
    -------
    dist : float32 array (len(sources), len(targets))
    pred : array of the sources' dtype, same shape
        pred[i, j] is the vertex before targets[j] on the shortest path from
        sources[i]; NO_PRED (-1 as int32) for the source itself, unreachable
        targets and invalid ids. Ties: the first arc, in settle order, that
        reached the final distance, so following pred from any vertex
        reaches the source.

    Raises
    ------
    gcol.InvalidArgumentError
        Host arrays, other dtypes, outputs of another size, a closed graph.
    gcol.OutOfMemoryError
    """
    _graph(graph)
    src = _ids(sources, "sources")
    tgt = _ids(targets, "targets") if targets is not None else None
    nt = tgt.n if tgt is not None else graph.num_vertices
    s = graph._stream(stream, src)
    if out is None:
        out = src.lib.empty((src.n, nt), "float32", src, s)
    if pred_out is None:
        pred_out = src.lib.empty((src.n, nt), src.dtype, src, s)
    dist = typed(out, "float32", "out")
    pred = _ids(pred_out, "pred_out")
    for v, name in ((dist, "out"), (pred, "pred_out")):
        if v.n != src.n * nt:
            raise InvalidArgumentError("%s has %d elements, %d x %d needed" % (name, v.n, src.n, nt))
    if src.n == 0 or (tgt is not None and tgt.n == 0):  # empty tables (an empty array may have no pointer)
        graph._handle()
        return out, pred_out
    graph._check(graph._f.sssp_many_to_many_pred(graph._handle(), src.ptr, src.n, tgt.ptr if tgt else None, nt,
                                                 dist.ptr, pred.ptr, s))
    return out, pred_out


def paths(graph: Graph, sources: Any, targets: Any, stream: StreamLike = None) -> Tuple[Any, Any, Any]:
    """The shortest path from sources[k] to targets[k], for every k, as vertex lists.

    Parameters
    ----------
    graph : gcol.Graph
    sources, targets : uint32 or int32 device arrays of one length
        The pairs.
    stream : int or stream object, optional
        The stream to run on (default: the current one of sources' library);
        the outputs come from that stream's pool.

    Returns
    -------
    offsets : int64 array of len(sources) + 1 (``[0]`` for no pairs)
    vertices : array of the sources' dtype
        Pair k's path is ``vertices[offsets[k]:offsets[k + 1]]``, source
        first, target last; empty where there is none (unreachable, or an
        invalid id).
    dist : float32 array, one per pair
        INFINITY where unreachable, NaN for an invalid id.

    Raises
    ------
    gcol.InvalidArgumentError
        Host arrays, other dtypes, sources and targets of different lengths,
        a closed graph.
    gcol.OutOfMemoryError

    Notes
    -----
    One search per distinct source. Waits for the stream once: the searches
    run twice, first to size the vertex array, then to fill it.
    """
    _graph(graph)
    src = _ids(sources, "sources")
    tgt = _ids(targets, "targets")
    if tgt.n != src.n:
        raise InvalidArgumentError("sources has %d ids and targets %d; pairs need as many" % (src.n, tgt.n))
    s = graph._stream(stream, src)
    offsets = src.lib.empty((src.n + 1,), "int64", src, s)
    dist = src.lib.empty((src.n,), "float32", src, s)
    if src.n == 0:  # no pairs: no C call writes the offsets, so [0] is written here (issue 39)
        offsets[0] = 0
        return offsets, src.lib.empty((0,), src.dtype, src, s), dist
    off = typed(offsets, "int64", "offsets")
    d = typed(dist, "float32", "dist")
    f, h = graph._f, graph._handle()
    graph._check(f.sssp_paths(h, src.ptr, tgt.ptr, src.n, off.ptr, None, 0, None, s))
    with src.lib.on_stream(s, src):
        total = int(offsets[-1])  # waits for the size query (on s: the read waits for s)
    vertices = src.lib.empty((max(total, 1),), src.dtype, src, s)
    verts = _ids(vertices, "vertices")
    graph._check(f.sssp_paths(h, src.ptr, tgt.ptr, src.n, off.ptr, verts.ptr, verts.n, d.ptr, s))
    return offsets, vertices[:total], dist
