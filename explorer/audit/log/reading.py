"""Reading engine logs: Parquet and CSV with pyarrow, ``.npz`` with numpy alone, in chunks of rows.

:func:`inspect` opens a log, checks its columns and says how to read it;
:func:`chunks` streams it for the single-process runner, each format by its own
reader (:mod:`~explorer.audit.log.parquet_reader`,
:mod:`~explorer.audit.log.csv_reader`, :mod:`~explorer.audit.log.npz_reader`).
The Dask runner reads the same files through Dask
(:mod:`explorer.audit.runners.distributed`) but converts every piece with the
same functions (:func:`~explorer.audit.log.values.arrow_values`,
:func:`~explorer.audit.log.values.frame_columns`,
:func:`~explorer.audit.log.csv_reader.read_csv_block`,
:class:`~explorer.audit.log.npz_reader.NpzLog`), so both runs see the same
numbers and refuse the same things with the same words.

Memory: one chunk of rows at a time (a Parquet row group is decoded whole; a
CSV block is about ``chunk_rows`` rows; ``.npz`` members are read by byte range,
stored or compressed, never loaded whole).  Nothing is ever unpickled.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import numpy as np

from ...system import files
from ..needs import ARROW, require
from .columns import KNOWN, LogError, missing_columns
from .csv_reader import CSV_COMPRESSION, csv_chunks, csv_header
from .info import LogInfo, printable, unreadable
from .npz_reader import NpzLog
from .parquet_reader import parquet_chunks, parquet_header

#: Formats by file name suffix.
SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".npz": "npz"}
#: Formats as messages name them.
FORMAT_NAMES = {"parquet": "Parquet", "csv": "CSV", "npz": ".npz"}


def _format(path: Path) -> str:
    fmt = SUFFIXES.get(path.suffix.lower())
    if fmt:
        return fmt
    if path.name.lower().endswith(tuple(".csv" + suffix for suffix in CSV_COMPRESSION)):
        return "csv"
    with open(path, "rb") as handle:
        magic = handle.read(4)
    if magic == b"PAR1":
        return "parquet"
    if magic == b"PK\x03\x04":
        return "npz"
    return "csv"


def inspect(path: str | os.PathLike[str]) -> LogInfo:
    """Open a log and check that it has the geometry columns.

    Raises
    ------
    LogError
        One line: a missing or unreadable file, the temporary file of a write
        that has not finished (:func:`explorer.system.files.temporary_for`), a
        file that is not (or no longer, when truncated) Parquet, CSV or ``.npz``, missing columns,
        ``.npz`` arrays that are not one-dimensional, of different lengths or
        of object type.
    """
    path = Path(path)
    target = files.temporary_for(path)
    if target is not None:
        raise LogError(f"not a log but the temporary file of an unfinished write (its writer is still running or "
                       f"was killed); the log appears as {printable(target)!r} when its writer closes it")  # fmt: skip
    try:
        if not path.is_file():
            raise LogError("no such file" if not path.exists() else "not a file")
        size = path.stat().st_size
        fmt = _format(path)
    except OSError as err:
        raise unreadable("cannot read", err) from None
    if fmt in ("parquet", "csv"):
        require(ARROW, f"reading {FORMAT_NAMES[fmt]}")
    if fmt == "parquet":
        header, rows = parquet_header(path)
    elif fmt == "csv":
        header = csv_header(path)
        rows = None
    else:
        with NpzLog(path) as log:
            header = log.names
    _check_columns(header)
    present = tuple(name for name in KNOWN if name in header)
    if fmt == "npz":
        with NpzLog(path, present) as log:  # checks the dtypes and lengths of the arrays used
            rows = log.rows
    return LogInfo(path, fmt, present, rows, size, header)


def _check_columns(header: tuple[str, ...]) -> None:
    missing_columns(header)
    dupes = sorted({name for name in header if name in KNOWN and header.count(name) > 1})
    if dupes:
        raise LogError("appears more than once", dupes[0])


def chunks(info: LogInfo, chunk_rows: int) -> Iterator[dict[str, np.ndarray]]:
    """Stream the log's known columns in chunks of about ``chunk_rows`` rows, in file order.

    Raises
    ------
    LogError
        For data that cannot be read; rows named are chunk-relative (the
        runner shifts them), lines of a CSV file absolute.
    """
    if info.format == "npz":  # numpy only: no pyarrow needed
        with NpzLog(info.path, info.columns) as log:
            yield from log.chunks(chunk_rows)
        return
    import pyarrow as pa

    if info.format == "parquet":
        try:
            yield from parquet_chunks(info, chunk_rows)
        except (pa.ArrowException, OSError) as err:
            raise unreadable("Parquet data unreadable (truncated or corrupt?)", err) from None
        return
    yield from csv_chunks(info, chunk_rows)
