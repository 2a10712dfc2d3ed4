"""gcol.Multimap: every inserted pair kept, duplicates included (gcol_multimap_t)."""
import ctypes
from typing import Any, Optional, Tuple

from ._errors import InvalidArgumentError, Status
from ._container import Container
from ._handle import non_negative, typed
from ._map import fill_map_config, map_types, sentinel_bits
from ._persist import Persistent
from ._typing import DTypeLike, StreamLike

ENGINES = {"open": 0, "chained": 1, "chained_lockfree": 2}  # gcol_multimap_engine_t


class Multimap(Persistent, Container):
    """A GPU multimap: Map's types, sentinels, streams and errors, with
    duplicate keys kept. engine: 'open' (open addressing, fastest), 'chained'
    or 'chained_lockfree' (bucket heads and a node pool of capacity pairs;
    num_buckets 0 means 2 * capacity; allocator as for Map). count(), retrieve(), len(),
    retrieve_all() and status() wait for the stream.

    copy() (also copy.copy / copy.deepcopy) makes a new multimap with the same
    settings and pairs on the device; pickling goes through the host
    (settings and retrieve_all's pairs). Threads: use a multimap from one
    thread at a time, unless every call that overlaps is a lookup (count;
    not retrieve, which reads and clears the latched errors).

    Parameters
    ----------
    key_dtype, value_dtype
        As for gcol.Map.
    capacity : int
        Pairs (slots, or pool nodes for the chained engines).
    engine : {"open", "chained", "chained_lockfree"}
    num_buckets : int
        Chained engines: bucket heads (0: 2 * capacity).
    max_load_factor, empty_key, erased_key, empty_value, seed, stream, allocator
        As for gcol.Map.

    Raises
    ------
    gcol.InvalidArgumentError, gcol.OutOfMemoryError, gcol.NoDeviceError
    """

    _destroy_name, _prefix = "multimap_destroy", "multimap_"

    def __init__(self, key_dtype: DTypeLike, value_dtype: DTypeLike, capacity: int, engine: str = "open",
                 num_buckets: int = 0, max_load_factor: Optional[float] = None, empty_key: Any = None,
                 erased_key: Any = None, empty_value: Any = None, seed: Optional[int] = None,
                 stream: StreamLike = None, allocator: Optional[str] = None) -> None:
        super().__init__()
        if engine not in ENGINES:
            raise InvalidArgumentError("engine must be one of %s, not %r" % (", ".join(ENGINES), engine))
        self.key_dtype, self.value_dtype, key_code, value_code = map_types(key_dtype, value_dtype)
        self.engine = engine
        cfg = self._f.multimap_config_default(key_code, value_code, ENGINES[engine])
        cfg.num_buckets = non_negative(num_buckets, "num_buckets")
        fill_map_config(cfg.map, self.key_dtype, self.value_dtype, capacity, False, max_load_factor, empty_key,
                        erased_key, empty_value, seed)
        self._use_allocator(cfg.map, allocator)
        self._cfg = cfg
        self._create(cfg, stream)

    # ---- copies and pickles (_persist.Persistent) ----------------------------
    def _settings(self):
        cfg = self._cfg
        return dict(key_dtype=self.key_dtype, value_dtype=self.value_dtype, capacity=cfg.map.capacity,
                    engine=self.engine, num_buckets=cfg.num_buckets, max_load_factor=cfg.map.max_load_factor,
                    seed=cfg.map.seed, allocator=self._allocator,
                    **sentinel_bits(cfg.map, ("empty_key", "erased_key", "empty_value")))

    def _contents(self, stream):
        return self.retrieve_all(stream=stream)

    def _fill(self, contents, stream):
        keys, values = contents
        self.insert(keys, values, stream=stream)

    def insert(self, keys: Any, values: Any, stream: StreamLike = None) -> None:
        """Insert pairs, every one kept (duplicate keys included).

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        values : device array of value_dtype
            As many as keys.
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed object.
        gcol.FullError, gcol.ReservedKeyError
            Latched on the device: raised by the next waiting call.
        """
        k, v, s = self._pairs(keys, values, stream)
        self._check(self._f.multimap_insert(self._handle(), k.ptr, v.ptr, k.n, None, s))

    def count(self, keys: Any, stream: StreamLike = None) -> Any:
        """How many pairs have each key.

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.

        Returns
        -------
        int64 array, keys' shape

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed object.
        """
        k, s = self._keys(keys, stream)
        counts = k.lib.empty(k.shape, "int64", k, s)  # size_t on the C side: same bits
        self._check(self._f.multimap_count(self._handle(), k.ptr, k.n, typed(counts, "int64", "out").ptr,
                                           None, s))
        return counts

    def retrieve(self, keys: Any, stream: StreamLike = None,
                 sentinel_queries_match_nothing: bool = False) -> Tuple[Any, Any]:
        """The inner join of keys with the stored pairs.

        Waits for the stream (to size the outputs).

        Parameters
        ----------
        keys : device array of key_dtype
            C-contiguous, any shape (read as flat).
        stream : int or stream object, optional
            The stream to run on (default: the current one of the input's library);
            new outputs come from that stream's pool.
        sentinel_queries_match_nothing : bool
            A query key equal to a sentinel matches nothing (the multimap's latched
            RESERVED_KEY is then cleared) instead of raising ReservedKeyError.

        Returns
        -------
        values : array of value_dtype
        query_index : int64 array
            Match j is the pair ``(keys[query_index[j]], values[j])``; no particular order.

        Raises
        ------
        gcol.InvalidArgumentError
            Host, strided or differently typed arrays; a closed object.
        gcol.FullError, gcol.ReservedKeyError
            Latched on the device: raised by the next waiting call.

        Examples
        --------
        >>> mm = gcol.Multimap("int64", "int64", capacity=16)  # doctest: +SKIP
        >>> k = torch.tensor([1, 1, 2], device="cuda")  # doctest: +SKIP
        >>> mm.insert(k, k * 10 + torch.tensor([0, 1, 0], device="cuda"))  # doctest: +SKIP
        >>> values, query = mm.retrieve(torch.tensor([1, 3], device="cuda"))  # doctest: +SKIP
        >>> sorted(values.tolist()), query.tolist()  # doctest: +SKIP
        ([10, 11], [0, 0])
        """
        k, s = self._keys(keys, stream)
        h = self._handle()
        total = k.lib.empty((1,), "int64", k, s)
        total_ptr = typed(total, "int64", "total").ptr
        self._check(self._f.multimap_count(h, k.ptr, k.n, None, total_ptr, s))
        status = self._f.multimap_status(h, s)  # waits: total is readable
        if not (sentinel_queries_match_nothing and status == Status.RESERVED_KEY):
            self._check(status, "gcol_multimap_status")
        n = int(total[0])
        values = k.lib.empty((n,), self.value_dtype, k, s)
        query = k.lib.empty((n,), "int64", k, s)
        temp_bytes = ctypes.c_size_t()
        args = [h, k.ptr, k.n, None, typed(values, self.value_dtype, "values").ptr,
                typed(query, "int64", "query").ptr, n, total_ptr, s]
        self._check(self._f.multimap_retrieve(None, ctypes.byref(temp_bytes), *args))
        temp = k.lib.empty((temp_bytes.value,), "bool", k, s)
        temp_ptr = typed(temp, "bool", "temp").ptr
        self._check(self._f.multimap_retrieve(temp_ptr, ctypes.byref(temp_bytes), *args))
        return values, query
