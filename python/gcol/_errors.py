"""Exceptions: one subclass of GcolError per gcol_status_t, each carrying the status."""
import enum


class Status(enum.IntEnum):
    """gcol_status_t, value for value.

    Examples
    --------
    >>> gcol.Status(5)
    <Status.FULL: 5>
    >>> gcol.FullError.status is gcol.Status.FULL
    True
    """

    SUCCESS = 0
    INVALID_ARGUMENT = 1
    OUT_OF_MEMORY = 2
    NO_DEVICE = 3
    CUDA = 4
    FULL = 5
    RESERVED_KEY = 6
    NCCL = 7


class GcolError(Exception):
    """A gcol call failed. ``status`` is the Status (None for a library that
    could not be loaded); ``message`` the C library's own words
    (gcol_last_error_message: the call, the argument and the rule it broke),
    or the Python layer's for a refusal made before any C call; ``cuda_error``
    the cudaError_t behind CUDA and NO_DEVICE, else 0. str() holds both the
    status and the message.

    Attributes
    ----------
    status : gcol.Status or None
    message : str
    cuda_error : int

    Examples
    --------
    Refusals made on the host need no GPU:

    >>> try:
    ...     gcol.Map("int64", "int64", capacity=-1)
    ... except gcol.InvalidArgumentError as e:
    ...     print(e.status.name, "|", e.message)
    INVALID_ARGUMENT | capacity must be >= 0, not -1
    >>> issubclass(gcol.InvalidArgumentError, (gcol.GcolError, ValueError))
    True
    """

    status = None

    def __init__(self, text, cuda_error=0, message=None):
        super().__init__(text)
        self.cuda_error = cuda_error
        self.message = text if message is None else message


class InvalidArgumentError(GcolError, ValueError):
    status = Status.INVALID_ARGUMENT


class OutOfMemoryError(GcolError, MemoryError):
    status = Status.OUT_OF_MEMORY


class NoDeviceError(GcolError):
    status = Status.NO_DEVICE


class CudaError(GcolError):
    status = Status.CUDA


class FullError(GcolError):
    """A fixed-capacity container could not take every key (the others are stored)."""

    status = Status.FULL


class ReservedKeyError(GcolError):
    """The input held a sentinel key (skipped; the others were processed)."""

    status = Status.RESERVED_KEY


class NcclError(GcolError):
    """libgcol_nccl: an NCCL call failed (the message carries NCCL's text)."""

    status = Status.NCCL


class LibraryNotFoundError(GcolError):
    """libgcol.so could not be found or loaded (see gcol.library_path)."""


ERROR_FOR_STATUS = {cls.status: cls for cls in
                    (InvalidArgumentError, OutOfMemoryError, NoDeviceError, CudaError,
                     FullError, ReservedKeyError, NcclError)}
