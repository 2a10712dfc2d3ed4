"""Exceptions: one subclass of GcolError per gcol_status_t, each carrying the status."""
import enum


class Status(enum.IntEnum):
    """gcol_status_t, value for value."""

    SUCCESS = 0
    INVALID_ARGUMENT = 1
    OUT_OF_MEMORY = 2
    NO_DEVICE = 3
    CUDA = 4
    FULL = 5
    RESERVED_KEY = 6


class GcolError(Exception):
    """A gcol call failed. ``status`` is the Status (None for a library that
    could not be loaded); ``cuda_error`` the cudaError_t behind CUDA and
    NO_DEVICE, else 0."""

    status = None

    def __init__(self, message, cuda_error=0):
        super().__init__(message)
        self.cuda_error = cuda_error


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


class LibraryNotFoundError(GcolError):
    """libgcol.so could not be found or loaded (see gcol.library_path)."""


ERROR_FOR_STATUS = {cls.status: cls for cls in
                    (InvalidArgumentError, OutOfMemoryError, NoDeviceError, CudaError,
                     FullError, ReservedKeyError)}
