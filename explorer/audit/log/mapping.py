"""A log file memory-mapped for pyarrow, held safe from a truncation, each column's pages given back once decoded.

Reading a Parquet log through a map instead of ``read`` calls saves pyarrow
a copy of every byte from the page cache.  A map alone would count every page
of the file touched so far in the process's resident memory, the whole log by
the end; so after each row group is decoded its pages are dropped from the map
(``MADV_DONTNEED``: the file's pages stay in the page cache, the process no
longer holds them).

A mapped file cut shorter under the reader would kill the process (``SIGBUS``)
when a page past its new end is touched, and no check of the file's size
before a read can close that window.  So the file is mapped only under a read
*lease* (Linux, ``fcntl(F_SETLEASE)``): the system then holds back any program
that opens the file for writing or truncates it until the lease is let go (up
to ``/proc/sys/fs/lease-break-time``, 45 s by default), and marks the lease
broken.  The reader checks the lease before and after each row group, and a
broken one is refused in words (:data:`CHANGED`); the map is then closed, which
lets the waiting program go on.  A lease is granted only on a file that no one
has open for writing, that this user owns (or to a process with
``CAP_LEASE``), on a file system that has leases; otherwise (and on other
systems) the file is not mapped, pyarrow reads it with ``read`` calls, and a
file cut short gives pyarrow a short read, refused with the same words by
the runner.  Decoded columns are pyarrow's own memory, never views of the map.
"""

from __future__ import annotations

import contextlib
import fcntl
import mmap
import os
from pathlib import Path
from typing import Iterator

from .columns import LogError

#: The refusal of a log that a program opened for writing, or cut shorter, while it was read.
CHANGED = "the log changed while it was being read (opened for writing or cut short: is something still writing it?)"
#: ``fcntl`` commands of Linux's leases (``F_LINUX_SPECIFIC_BASE`` + 0 and + 1), where Python names none.
F_SETLEASE = getattr(fcntl, "F_SETLEASE", 1024)
F_GETLEASE = getattr(fcntl, "F_GETLEASE", 1025)


def take_lease(fd: int) -> bool:
    """Take a read lease on the file open (read-only) as ``fd``; False where none can be had.

    The lease's break is sent to no process (``F_SETOWN`` 0): by default it comes as ``SIGIO``, which
    would end the process; the reader asks :func:`lease_held` instead.
    """
    try:
        fcntl.fcntl(fd, F_SETLEASE, fcntl.F_RDLCK)
    except (OSError, ValueError):  # open for writing somewhere, not ours, no leases here, not Linux
        return False
    try:
        fcntl.fcntl(fd, fcntl.F_SETOWN, 0)
    except OSError:  # pragma: no cover - F_SETOWN on a file just leased does not fail
        fcntl.fcntl(fd, F_SETLEASE, fcntl.F_UNLCK)
        return False
    return True


def lease_held(fd: int) -> bool:
    """Whether the read lease on ``fd`` is still whole (not broken, nor being broken, by a writer)."""
    try:
        return fcntl.fcntl(fd, F_GETLEASE) == fcntl.F_RDLCK
    except OSError:  # pragma: no cover - the descriptor is ours and open
        return False


class MappedLog:
    """A read-only map of a file under a read lease, handed to pyarrow as a ``BufferReader``.

    Attributes
    ----------
    source : pyarrow.BufferReader or str
        What to give :class:`pyarrow.parquet.ParquetFile`: the map, or the
        path when the file cannot be mapped safely (no lease: see the module
        notes; an empty or special file).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        import pyarrow as pa

        self.source = str(path)
        self._file = open(path, "rb")  # noqa: SIM115 - closed by close()
        self._map = None
        self._size = 0
        try:
            self._size = os.fstat(self._file.fileno()).st_size
            if not take_lease(self._file.fileno()):
                raise OSError("no lease")
            self._map = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):  # no lease, empty, or not a regular file: read the path
            self._file.close()
            return
        self.source = pa.BufferReader(pa.py_buffer(self._map))

    @property
    def mapped(self) -> bool:
        """Whether pyarrow reads the file from the map (under the lease)."""
        return self._map is not None

    def check(self) -> None:
        """Refuse a mapped file that a program opened for writing or cut (its lease broken, or being broken:
        the program waits), before touching more of the map and after each row group read from it."""
        if self._map is not None and not lease_held(self._file.fileno()):
            raise LogError(CHANGED)

    def release(self, start: int, length: int) -> None:
        """Give back the pages of the bytes ``[start, start + length)`` (a column chunk decoded)."""
        if self._map is None or not hasattr(self._map, "madvise"):
            return
        first = max(start - start % mmap.PAGESIZE, 0)
        end = min(start + length, self._size)
        if end > first:
            self._map.madvise(mmap.MADV_DONTNEED, first, end - first)

    def close(self) -> None:
        """Unmap and close the file, letting go of the lease (a map still exported to pyarrow is left to the
        garbage collector)."""
        self.source = None
        if self._map is not None:
            # Let go of the lease first: a map still exported holds the file open until it is collected.
            with contextlib.suppress(OSError):
                fcntl.fcntl(self._file.fileno(), F_SETLEASE, fcntl.F_UNLCK)
            with contextlib.suppress(BufferError):
                self._map.close()
            self._file.close()
            self._map = None


@contextlib.contextmanager
def mapped(path: str | os.PathLike[str]) -> Iterator[MappedLog]:
    """:class:`MappedLog` of ``path``, closed at the end of the block."""
    log = MappedLog(Path(path))
    try:
        yield log
    finally:
        log.close()


def column_bytes(column) -> tuple[int, int]:
    """Where a Parquet column chunk's pages are in the file: ``(start, length)``.

    ``column`` is a :class:`pyarrow.parquet.ColumnChunkMetaData`; the chunk
    starts at its dictionary page when it has one, else at its first data page.
    """
    start = column.dictionary_page_offset if column.has_dictionary_page else column.data_page_offset
    return start, column.total_compressed_size
