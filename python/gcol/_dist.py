"""gcol.DistMap: the hash map sharded over GPUs (libgcol_nccl), in two forms.

One process drives every GPU (``DistMap(..., devices=[0, 1])``): each call
takes one array per device, in the order of ``devices``, and runs the ranks
together in one gcol_dist_group_start/end group. Or one process per GPU under
``torchrun`` (``DistMap.from_torch(...)``): each call takes this rank's array,
and every rank makes the same calls in the same order (they are collective).

NCCL is loaded at run time from what the user already has: $NCCL_HOME/lib,
else the ``nvidia-nccl`` wheel PyTorch installs (``nvidia.nccl``), else the
dynamic loader's search. libgcol_nccl.so is looked for at $GCOL_NCCL_LIBRARY,
else next to the libgcol.so in use. Their signatures are _abi.NCCL and _abi.DIST.
"""
import ctypes
import os
from ctypes import byref, c_int, c_size_t, c_void_p
from typing import Any, Optional, Sequence, Union

from . import _abi, _arrays, _dtypes, _lib
from ._errors import ERROR_FOR_STATUS, GcolError, InvalidArgumentError, LibraryNotFoundError
from ._handle import typed
from ._map import fill_map_config, map_types, op_code
from ._typing import DTypeLike, StreamLike


class _Nccl:
    """libnccl.so.2 and libgcol_nccl.so, loaded once (NCCL first, globally, so
    that libgcol_nccl.so binds to the same copy)."""

    def __init__(self):
        self.nccl_path = self._load_nccl()
        self.path = self._load_dist()

    @staticmethod
    def _nccl_candidates():
        home = os.environ.get("NCCL_HOME")
        if home:
            for sub in ("lib", "lib64"):
                yield os.path.join(home, sub, "libnccl.so.2")
        try:
            import nvidia.nccl as wheel  # PyTorch's NCCL
            for d in list(getattr(wheel, "__path__", [])):
                yield os.path.join(d, "lib", "libnccl.so.2")
        except ImportError:
            pass
        yield "libnccl.so.2"

    def _load_nccl(self):
        tried = []
        for path in self._nccl_candidates():
            if os.path.sep in path and not os.path.exists(path):
                tried.append(path + " (absent)")
                continue
            try:
                dll = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
            except OSError as e:
                tried.append("%s (%s)" % (path, e))
                continue
            _abi.bind(self, dll, _abi.NCCL, prefix="")
            return path
        raise LibraryNotFoundError("NCCL not found: gcol.DistMap needs libnccl.so.2. Install PyTorch (its "
                                   "nvidia-nccl wheel) or set NCCL_HOME to an NCCL install. Tried:\n  "
                                   + "\n  ".join(tried))

    def _load_dist(self):
        f = _lib.functions()  # libgcol.so first: libgcol_nccl.so needs it
        explicit = os.environ.get("GCOL_NCCL_LIBRARY")
        here = os.path.dirname(f.path)
        paths = [explicit] if explicit else [os.path.join(here, "libgcol_nccl.so.%d" % _lib.MAJOR),
                                             os.path.join(here, "libgcol_nccl.so")]
        tried = []
        for path in paths:
            try:
                dll = ctypes.CDLL(path)
            except OSError as e:
                tried.append("%s (%s)" % (path, e))
                continue
            _abi.bind(self, dll, _abi.DIST)
            return path
        raise LibraryNotFoundError("libgcol_nccl.so not found (gcol.DistMap needs it: `make` builds it where "
                                   "NCCL is found; set GCOL_NCCL_LIBRARY to its path). Tried:\n  "
                                   + "\n  ".join(tried))

    def check_nccl(self, result, what):
        if result:
            raise GcolError("%s failed: NCCL error %d: %s" % (what, result,
                                                             self.ncclGetErrorString(result).decode()))

    def error(self, status):
        message = (self.dist_last_error_message() or b"").decode(errors="replace")
        text = _lib.functions().status_string(status).decode() + (" -- " + message if message else "")
        cls = ERROR_FOR_STATUS.get(status, GcolError)
        err = cls(text, 0, message)
        if cls is GcolError:
            err.status = status
        return err


_nccl = None


def _libs():
    global _nccl
    if _nccl is None:
        _nccl = _Nccl()
    return _nccl


def _device_of(view):
    """The CUDA device ordinal of a View."""
    device = view.lib.device_of(view)
    if device is None:
        raise InvalidArgumentError("DistMap takes CuPy arrays or PyTorch tensors")
    return device


class DistMap:
    """A hash map from key_dtype (32/64-bit integers) to value_dtype sharded
    over GPUs: every key has one owner rank (a partition hash), and each
    rank's shard is a gcol map of ``capacity`` slots (per shard) built from
    the same settings as gcol.Map. Calls are collective and blocking; a
    failure on any rank (a full shard, a reserved key, out of memory, a bad
    array) raises the same error on every rank, and the next call works.

    ``devices`` (one process driving several GPUs): the CUDA devices, one
    rank each (default: every visible one). Each call then takes one array
    per device, in this order, each on its device, and returns one array
    per device. One device works as one rank.

    Use ``DistMap.from_torch`` under ``torchrun`` instead (one process per
    GPU). Not copyable or picklable: it spans GPUs (and processes).

    Parameters
    ----------
    key_dtype, value_dtype
        As for gcol.Map (32/64-bit integer keys).
    capacity : int
        Slots per shard.
    devices : sequence of int, optional
        One rank per device (default: every visible one).
    growable, max_load_factor, empty_key, erased_key, empty_value, seed
        As for gcol.Map.

    Raises
    ------
    gcol.InvalidArgumentError, gcol.NcclError
    gcol.LibraryNotFoundError
        libgcol_nccl or NCCL could not be loaded.
    """

    def __init__(self, key_dtype: DTypeLike, value_dtype: DTypeLike, capacity: int, *,
                 devices: Optional[Sequence[int]] = None, growable: bool = False,
                 max_load_factor: Optional[float] = None, empty_key: Any = None, erased_key: Any = None,
                 empty_value: Any = None, seed: Optional[int] = None, _comms: Any = None) -> None:
        self._maps, self._comms = [], []
        self._libs = _libs()
        f = _lib.functions()
        self.key_dtype, self.value_dtype, key_code, value_code = map_types(key_dtype, value_dtype)
        cfg = f.map_config_default(key_code, value_code)
        fill_map_config(cfg, self.key_dtype, self.value_dtype, capacity, growable, max_load_factor, empty_key,
                        erased_key, empty_value, seed)
        self._cfg = cfg
        if _comms is None:
            self.devices = list(range(_device_count())) if devices is None else [int(d) for d in devices]
            if not self.devices:
                raise InvalidArgumentError("devices is empty")
            comms = (c_void_p * len(self.devices))()
            devs = (c_int * len(self.devices))(*self.devices)
            self._libs.check_nccl(self._libs.ncclCommInitAll(comms, len(self.devices), devs), "ncclCommInitAll")
            self._comms = list(comms)
            self._single = False
        else:
            self.devices, self._comms, self._single = _comms
        handles = [c_void_p() for _ in self._comms]
        self._group(lambda i: self._libs.dist_map_create(byref(handles[i]), byref(cfg), self._comms[i], 0))
        self._maps = [h.value for h in handles]

    @classmethod
    def from_torch(cls, key_dtype: DTypeLike, value_dtype: DTypeLike, capacity: int, *, group: Any = None,
                   **settings: Any) -> "DistMap":
        """One rank per process under torchrun.

        Parameters
        ----------
        key_dtype, value_dtype, capacity
            As for DistMap (capacity per rank).
        group : torch.distributed group, optional
            Default: the world.
        **settings
            DistMap's other settings.

        Returns
        -------
        gcol.DistMap
            Its calls take and return this rank's arrays.

        Raises
        ------
        gcol.InvalidArgumentError
            torch.distributed is not initialized.
        gcol.NcclError

        Notes
        -----
        torch.distributed must be initialized and ``torch.cuda.set_device(local_rank)``
        called; the NCCL unique id travels through torch.distributed.
        """
        import torch
        import torch.distributed as dist
        if not dist.is_initialized():
            raise InvalidArgumentError("DistMap.from_torch needs torch.distributed.init_process_group first")
        libs = _libs()
        rank, nranks = dist.get_rank(group), dist.get_world_size(group)
        uid = _abi.NcclUniqueId()
        if rank == 0:
            libs.check_nccl(libs.ncclGetUniqueId(byref(uid)), "ncclGetUniqueId")
        box = [ctypes.string_at(ctypes.addressof(uid), ctypes.sizeof(uid)) if rank == 0 else None]
        src = dist.get_global_rank(group, 0) if group is not None else 0
        dist.broadcast_object_list(box, src=src, group=group)
        ctypes.memmove(ctypes.addressof(uid), box[0], ctypes.sizeof(uid))
        device = torch.cuda.current_device()
        comm = c_void_p()
        libs.check_nccl(libs.ncclCommInitRank(byref(comm), nranks, uid, rank), "ncclCommInitRank")
        return cls(key_dtype, value_dtype, capacity, _comms=([device], [comm.value], True), **settings)

    @property
    def empty_value(self) -> Any:
        """What find returns for absent keys."""
        return _dtypes.from_bits(self._cfg.empty_value, self.value_dtype)

    # ---- plumbing --------------------------------------------------------------
    def _group(self, call):
        """call(i) for every local rank inside one group; raise the collective status."""
        libs = self._libs
        st = libs.dist_group_start()
        first = 0
        if st == 0:
            for i in range(len(self._comms)):
                s = call(i)
                first = first or s
            st = libs.dist_group_end()
        if first or st:
            raise libs.error(first or st)

    def _typed(self, arrays, dtype, what, counts=None):
        """The typed Views of a call's arrays, one per local rank (counts[i]
        elements each, when given), each checked to be on its rank's device."""
        if self._single:
            arrays = [arrays]
        elif not isinstance(arrays, (list, tuple)) or len(arrays) != len(self.devices):
            raise InvalidArgumentError("%s must be a list of %d arrays, one per device %s" %
                                       (what, len(self.devices), self.devices))
        views = [typed(a, dtype, what, None if counts is None else counts[i]) for i, a in enumerate(arrays)]
        for v, d in zip(views, self.devices):
            if _device_of(v) != d:
                raise InvalidArgumentError("%s: an array on device %d was given for device %d" % (what, _device_of(v), d))
        return views

    def _stream(self, view, stream, i):
        if stream is not None:
            s = stream[i] if isinstance(stream, (list, tuple)) else stream
            return _arrays.stream_handle(s)
        with view.lib.on_device(self.devices[i]):
            return _arrays.stream_handle(view.lib.stream(view))

    def _out(self, results):
        return results[0] if self._single else results

    def _handle(self, i):
        if not self._maps:
            raise InvalidArgumentError("DistMap is closed")
        return self._maps[i]

    # ---- calls ------------------------------------------------------------------
    def _pairs_call(self, name, keys, values, stream, *extra):
        k = self._typed(keys, self.key_dtype, "keys")
        v = self._typed(values, self.value_dtype, "values", [x.n for x in k])
        fn = getattr(self._libs, name)
        self._group(lambda i: fn(self._handle(i), k[i].ptr, v[i].ptr, k[i].n, *extra, self._stream(k[i], stream, i)))

    def insert(self, keys: Any, values: Any, stream: StreamLike = None) -> None:
        """Insert pairs; a key already present keeps its value (the first wins, across ranks too).

        Parameters
        ----------
        keys : device array, or one per device
            Of key_dtype; each rank's (device's) keys on its device.
        values : device array, or one per device
        stream : stream, or one per device, optional
            Default: the current stream of each array's library.

        Raises
        ------
        gcol.InvalidArgumentError, gcol.NcclError
        """
        self._pairs_call("dist_map_insert", keys, values, stream)

    def insert_or_assign(self, keys: Any, values: Any, stream: StreamLike = None) -> None:
        """Insert pairs; a key already present takes one of the new values.

        Parameters
        ----------
        keys : device array, or one per device
            Of key_dtype; each rank's (device's) keys on its device.
        values : device array, or one per device
        stream : stream, or one per device, optional
            Default: the current stream of each array's library.

        Raises
        ------
        gcol.InvalidArgumentError, gcol.NcclError
        """
        self._pairs_call("dist_map_insert_or_assign", keys, values, stream)

    def insert_or_apply(self, keys: Any, values: Any, op: Union[str, int] = "add", stream: StreamLike = None) -> None:
        """Reduce by key over every rank: op for every occurrence.

        Parameters
        ----------
        keys : device array, or one per device
            Of key_dtype; each rank's (device's) keys on its device.
        values : device array, or one per device
        op : "add", "min" or "max" (or gcol.ADD, MIN, MAX)
        stream : stream, or one per device, optional
            Default: the current stream of each array's library.

        Raises
        ------
        gcol.InvalidArgumentError, gcol.NcclError
        """
        self._pairs_call("dist_map_insert_or_apply", keys, values, stream, op_code(op))

    def _query(self, name, keys, dtype, stream):
        k = self._typed(keys, self.key_dtype, "keys")
        outs = []
        for i, view in enumerate(k):
            with view.lib.on_device(self.devices[i]):
                outs.append(view.lib.empty(view.shape, dtype, view, self._stream(view, stream, i)))
        o = [typed(x, dtype, "out", k[i].n) for i, x in enumerate(outs)]
        fn = getattr(self._libs, name)
        self._group(lambda i: fn(self._handle(i), k[i].ptr, k[i].n, o[i].ptr, self._stream(k[i], stream, i)))
        return self._out(outs)

    def find(self, keys: Any, stream: StreamLike = None) -> Any:
        """The value of each key (empty_value where absent).

        Parameters
        ----------
        keys : device array, or one per device
            Of key_dtype; each rank's (device's) keys on its device.
        stream : stream, or one per device, optional
            Default: the current stream of each array's library.

        Returns
        -------
        array, or one per device
            Each rank's answers on its device.

        Raises
        ------
        gcol.InvalidArgumentError, gcol.NcclError
        """
        return self._query("dist_map_find", keys, self.value_dtype, stream)

    def contains(self, keys: Any, stream: StreamLike = None) -> Any:
        """Which keys are present.

        Parameters
        ----------
        keys : device array, or one per device
            Of key_dtype; each rank's (device's) keys on its device.
        stream : stream, or one per device, optional
            Default: the current stream of each array's library.

        Returns
        -------
        bool array, or one per device

        Raises
        ------
        gcol.InvalidArgumentError, gcol.NcclError
        """
        return self._query("dist_map_contains", keys, "bool", stream)

    def erase(self, keys: Any, stream: StreamLike = None) -> None:
        """Remove keys (absent ones are ignored).

        Parameters
        ----------
        keys : device array, or one per device
            Of key_dtype; each rank's (device's) keys on its device.
        stream : stream, or one per device, optional
            Default: the current stream of each array's library.

        Raises
        ------
        gcol.InvalidArgumentError, gcol.NcclError
        """
        k = self._typed(keys, self.key_dtype, "keys")
        self._group(lambda i: self._libs.dist_map_erase(self._handle(i), k[i].ptr, k[i].n, self._stream(k[i], stream, i)))

    def size(self) -> int:
        """Number of pairs on every shard together (waits).

        Returns
        -------
        int
        """
        sizes = [c_size_t() for _ in self._comms]
        self._group(lambda i: self._libs.dist_map_size(self._handle(i), byref(sizes[i]), 0))
        return sizes[0].value

    def __len__(self):
        return self.size()

    def retrieve_all(self, like: Any = "torch") -> Any:
        """Each local rank's shard; the union over the ranks is the whole map.

        Parameters
        ----------
        like : {"torch", "cupy"}
            The library of the results.

        Returns
        -------
        (keys, values), or one such pair per device
            This rank's under from_torch.
        """
        lib = _arrays.library(like)
        f = _lib.functions()
        room, outs = [], []
        for i, d in enumerate(self.devices):
            n = c_size_t()
            with lib.on_device(d):  # gcol_map_* on a shard needs its device current
                status = f.map_size(self._libs.dist_map_shard(self._handle(i)), byref(n), 0)
                if status:
                    raise _lib.error(status, "gcol_map_size")
                room.append(n.value)
                outs.append((lib.empty((max(n.value, 1),), self.key_dtype, None),
                             lib.empty((max(n.value, 1),), self.value_dtype, None)))
        counts = [c_size_t() for _ in self._comms]
        views = [(typed(k, self.key_dtype, "keys"), typed(v, self.value_dtype, "values")) for k, v in outs]
        self._group(lambda i: self._libs.dist_map_retrieve_all(self._handle(i), views[i][0].ptr, views[i][1].ptr,
                                                               byref(counts[i]), 0))
        return self._out([(k[:c.value], v[:c.value]) for (k, v), c in zip(outs, counts)])

    # ---- lifetime ---------------------------------------------------------------
    def close(self) -> None:
        """Free the shards and the communicators this object made."""
        libs = self._libs if hasattr(self, "_libs") else None
        for h in getattr(self, "_maps", []):
            libs.dist_map_destroy(h)
        self._maps = []
        for c in getattr(self, "_comms", []):
            if c:
                libs.ncclCommDestroy(c)
        self._comms = []

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __copy__(self):
        raise TypeError("a DistMap spans GPUs and cannot be copied; make a new one and insert retrieve_all()")

    def __deepcopy__(self, memo):
        self.__copy__()

    def __reduce__(self):
        raise TypeError("a DistMap spans GPUs (and processes) and cannot be pickled; save retrieve_all() instead")

    def __repr__(self):
        return "gcol.DistMap(%s -> %s, %d rank%s here, devices %s)" % (
            self.key_dtype, self.value_dtype, len(self._comms), "" if len(self._comms) == 1 else "s", self.devices)


def _device_count():
    for name in ("torch", "cupy"):
        try:
            if name == "torch":
                import torch
                return torch.cuda.device_count()
            import cupy
            return cupy.cuda.runtime.getDeviceCount()
        except ImportError:
            continue
    raise InvalidArgumentError("DistMap needs PyTorch or CuPy (or devices= given)")
