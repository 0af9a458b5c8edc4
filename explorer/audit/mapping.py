"""A log file memory-mapped for pyarrow, each column's pages given back once it is decoded.

Reading a Parquet log through a map instead of ``read`` calls saves pyarrow
a copy of every byte from the page cache (a fifth of the reading time on the
benchmark's log).  A map alone would count every page of the file touched so
far in the process's resident memory, the whole log by the end; so after each
column chunk is decoded its pages are dropped from the map (``MADV_DONTNEED``:
the file's pages stay in the page cache, the process no longer holds them).

A mapped file that shrinks under the reader would kill the process
(``SIGBUS``) when a page past its new end is touched: the file's size is
checked before each column is read, and a shorter file is refused in words
(only a file cut in the instant between that check and the read escapes it).
Where a map cannot be made (an empty or special file), the path is read as
before.
"""

from __future__ import annotations

import contextlib
import mmap
import os
from pathlib import Path
from typing import Iterator

from .columns import LogError

#: A message for a log that got shorter while it was read.
SHRUNK = "the log got shorter while it was being read (is something still writing it?)"


class MappedLog:
    """A read-only map of a file, handed to pyarrow as a ``BufferReader``.

    Attributes
    ----------
    source : pyarrow.BufferReader or str
        What to give :class:`pyarrow.parquet.ParquetFile`: the map, or the
        path when the file cannot be mapped.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        import pyarrow as pa

        self.source = str(path)
        self._file = open(path, "rb")  # noqa: SIM115 - closed by close()
        self._map = None
        self._size = 0
        try:
            self._size = os.fstat(self._file.fileno()).st_size
            self._map = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):  # empty, or not a regular file: read the path
            self._file.close()
            return
        self.source = pa.BufferReader(pa.py_buffer(self._map))

    def check(self) -> None:
        """Refuse a file now shorter than when it was mapped (before touching more of the map)."""
        if self._map is not None and os.fstat(self._file.fileno()).st_size < self._size:
            raise LogError(SHRUNK)

    def release(self, start: int, length: int) -> None:
        """Give back the pages of the bytes ``[start, start + length)`` (a column chunk decoded)."""
        if self._map is None or not hasattr(self._map, "madvise"):
            return
        first = max(start - start % mmap.PAGESIZE, 0)
        end = min(start + length, self._size)
        if end > first:
            self._map.madvise(mmap.MADV_DONTNEED, first, end - first)

    def close(self) -> None:
        """Unmap and close the file (a map still exported to pyarrow is left to the garbage collector)."""
        self.source = None
        if self._map is not None:
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
