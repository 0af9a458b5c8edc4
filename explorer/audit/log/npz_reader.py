"""``.npz`` logs with numpy alone: each array read by row range, stored or compressed, never loaded
whole, and never unpickled."""

from __future__ import annotations

import os
import zipfile
import zlib
from pathlib import Path
from typing import Iterator

import numpy as np

from .columns import LogError
from .info import unreadable


def _npy_header(stream) -> tuple[tuple[int, ...], bool, np.dtype]:
    """Read the header of a ``.npy`` stream: (shape, fortran order, dtype); the stream is left at the data."""
    version = np.lib.format.read_magic(stream)
    if version == (1, 0):
        return np.lib.format.read_array_header_1_0(stream)
    return np.lib.format.read_array_header_2_0(stream)  # versions 2.0 and 3.0 share the layout


class NpzLog:
    """The arrays of a ``.npz`` file, read by row range without loading them whole.

    Parameters
    ----------
    path : Path
    names : tuple of str, optional
        Members to read (without ``.npy``); all are only listed without it.

    Raises
    ------
    LogError
        A file that is not a complete zip archive, arrays that are not
        one-dimensional, of different lengths, or of object type (pickles are
        never loaded).
    """

    def __init__(self, path: str | os.PathLike[str], names: tuple[str, ...] = ()) -> None:
        self.path = Path(path)
        try:
            self._zip = zipfile.ZipFile(self.path)
        except (zipfile.BadZipFile, OSError, EOFError) as err:
            raise unreadable("not a complete .npz file (truncated?)", err) from None
        members = [m for m in self._zip.infolist() if m.filename.endswith(".npy")]
        self.names = tuple(m.filename[:-4] for m in members)
        self._members = {m.filename[:-4]: m for m in members}
        self._arrays: dict[str, tuple[np.dtype, int, int | None]] = {}
        self.rows = 0
        lengths = {}
        for name in names:
            self._arrays[name] = self._header(name)
            lengths[name] = self._arrays[name][1]
        if len(set(lengths.values())) > 1:
            sizes = ", ".join(f"{k} {v}" for k, v in lengths.items())
            self.close()
            raise LogError(f"arrays of different lengths ({sizes})")
        if lengths:
            self.rows = next(iter(lengths.values()))

    def _header(self, name: str) -> tuple[np.dtype, int, int | None]:
        """(dtype, length, offset of the data in the file or None when compressed) of a member."""
        member = self._members[name]
        try:
            with self._zip.open(member) as stream:
                shape, _, dtype = _npy_header(stream)
                header_len = stream.tell()
        except (ValueError, OSError, EOFError, zipfile.BadZipFile, zlib.error) as err:
            self.close()
            raise LogError(f"not a readable array ({err})", name) from None
        if dtype.hasobject:
            self.close()
            raise LogError("an array of Python objects (pickles are never loaded)", name)
        if len(shape) != 1:
            self.close()
            raise LogError(f"expected one value per row, got an array of shape {shape}", name)
        stored = (
            member.file_size
            if member.compress_type != zipfile.ZIP_STORED
            else min(member.file_size, member.compress_size)
        )
        if stored < header_len + int(shape[0]) * dtype.itemsize:  # read by offset, it would run into what follows
            have = max(stored - header_len, 0) // dtype.itemsize
            self.close()
            raise LogError(f"the array ends early: {int(shape[0])} values declared, {have} stored (truncated file?)",
                           name)  # fmt: skip
        offset = None
        if member.compress_type == zipfile.ZIP_STORED:
            with open(self.path, "rb") as handle:
                handle.seek(member.header_offset)
                local = handle.read(30)
            name_len = int.from_bytes(local[26:28], "little")
            extra_len = int.from_bytes(local[28:30], "little")
            offset = member.header_offset + 30 + name_len + extra_len + header_len
        return dtype, int(shape[0]), offset

    def read(self, start: int, stop: int) -> dict[str, np.ndarray]:
        """Rows ``start`` to ``stop`` of every member read, as ``{name: (stop - start,) array}``."""
        out = {}
        for name, (dtype, _, offset) in self._arrays.items():
            count = stop - start
            try:
                if offset is not None:
                    with open(self.path, "rb") as handle:
                        handle.seek(offset + start * dtype.itemsize)
                        raw = handle.read(count * dtype.itemsize)
                else:
                    with self._zip.open(self._members[name]) as stream:
                        _npy_header(stream)
                        stream.seek(stream.tell() + start * dtype.itemsize)
                        raw = stream.read(count * dtype.itemsize)
            except (OSError, EOFError, zipfile.BadZipFile, zlib.error) as err:
                # row 0 is ``start``: the caller adds the rows before the piece
                raise LogError(f"data unreadable ({err})", name, 0) from None
            if len(raw) != count * dtype.itemsize:
                raise LogError("the array ends early (truncated file?)", name, 0)
            out[name] = np.frombuffer(raw, dtype=dtype)
        return out

    def chunks(self, chunk_rows: int) -> Iterator[dict[str, np.ndarray]]:
        """Every row in chunks, sequentially (compressed members are decompressed once)."""
        streams = {}
        try:
            for name, (dtype, _, offset) in self._arrays.items():
                if offset is None:
                    stream = self._zip.open(self._members[name])
                    _npy_header(stream)
                else:
                    stream = open(self.path, "rb")
                    stream.seek(offset)
                streams[name] = (stream, dtype)
            for start in range(0, self.rows, chunk_rows):
                count = min(chunk_rows, self.rows - start)
                out = {}
                for name, (stream, dtype) in streams.items():
                    try:
                        raw = stream.read(count * dtype.itemsize)
                    except (OSError, EOFError, zipfile.BadZipFile, zlib.error) as err:
                        # row 0 is the chunk's first row: the caller adds the rows before the chunk
                        raise LogError(f"data unreadable ({err})", name, 0) from None
                    if len(raw) != count * dtype.itemsize:
                        raise LogError("the array ends early (truncated file?)", name, 0)
                    out[name] = np.frombuffer(raw, dtype=dtype)
                yield out
        finally:
            for stream, _ in streams.values():
                stream.close()

    def close(self) -> None:
        """Close the archive."""
        self._zip.close()

    def __enter__(self) -> "NpzLog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
