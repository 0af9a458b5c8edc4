"""Reading engine logs: Parquet and CSV with pyarrow, ``.npz`` with numpy alone, in chunks of rows.

:func:`inspect` opens a log, checks its columns and says how to read it;
:func:`chunks` streams it for the single-process runner.  The Dask runner reads
the same files through Dask (:mod:`explorer.audit.distributed`) but converts
every piece with the functions here (:func:`arrow_values`, :func:`frame_columns`,
:func:`read_csv_block`, :class:`NpzLog`), so both runs see the same numbers
and refuse the same things with the same words.

Memory: one chunk of rows at a time (a Parquet row group is decoded whole; a
CSV block is about ``chunk_rows`` rows; ``.npz`` members are read by byte range,
stored or compressed, never loaded whole).  Nothing is ever unpickled.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np

from ..system import files
from .columns import (
    ENGINE_HIT,
    EXACT_INT,
    KNOWN,
    LABELS,
    LogError,
    check_exact_integers,
    inexact,
    missing_columns,
    not_a_label,
)
from .mapping import MappedLog, column_bytes, mapped
from .needs import ARROW, require

#: Formats by file name suffix.
SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".npz": "npz"}
#: Formats as messages name them.
FORMAT_NAMES = {"parquet": "Parquet", "csv": "CSV", "npz": ".npz"}
#: CSV cells read as true or false in ``engine_hit`` (empty means missing).
TRUE_VALUES = ["1", "1.0", "true", "True", "TRUE"]
FALSE_VALUES = ["0", "0.0", "false", "False", "FALSE"]


@dataclass(frozen=True)
class LogInfo:
    """A log that has been opened and found to have the required columns.

    Attributes
    ----------
    path : Path
    format : {"parquet", "csv", "npz"}
    columns : tuple of str
        The known columns present (geometry first, then the optional ones), in
        the order of :data:`~explorer.audit.columns.KNOWN`.
    rows : int or None
        Rows in the log; None for CSV (unknown until read).
    size : int
        Bytes on disk.
    header : tuple of str
        Every column name of the file, in file order.
    """

    path: Path
    format: str
    columns: tuple[str, ...]
    rows: int | None
    size: int
    header: tuple[str, ...]


def printable(text: str, limit: int = 160) -> str:
    """``text`` on one line of printable characters, cut to ``limit`` (for messages quoting a file)."""
    text = "".join(ch if ch.isprintable() else "?" for ch in " ".join(text.split()))
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: Compression of a CSV log by its last suffix, in any case (pyarrow's own guess goes by lower case only).
CSV_COMPRESSION = {".gz": "gzip", ".bz2": "bz2"}


def csv_compression(path: Path) -> str | None:
    """``"gzip"`` or ``"bz2"`` for a compressed CSV log (by its suffix, any case), else None."""
    return CSV_COMPRESSION.get(Path(path).suffix.lower())


def open_text(path: Path):
    """The bytes of a CSV log, decompressed: a pyarrow input stream (for pyarrow's CSV reader)."""
    import pyarrow as pa

    return pa.input_stream(str(path), compression=csv_compression(path))


def _unreadable(what: str, err: Exception) -> LogError:
    detail = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return LogError(f"{what} ({printable(detail)})")


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
        raise _unreadable("cannot read", err) from None
    if fmt in ("parquet", "csv"):
        require(ARROW, f"reading {FORMAT_NAMES[fmt]}")
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            meta = pq.ParquetFile(path).metadata
            header = tuple(meta.schema.to_arrow_schema().names)
            rows = meta.num_rows
        except (pa.ArrowException, OSError) as err:
            raise _unreadable("not a readable Parquet file, or a truncated one", err) from None
    elif fmt == "csv":
        header = _csv_header(path)
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


def shrunk(info: LogInfo) -> bool:
    """Whether the log is now shorter than when :func:`inspect` opened it (False when it cannot be looked at:
    a log removed while it was read has been read whole from the file still open)."""
    try:
        return os.stat(info.path).st_size < info.size
    except OSError:
        return False


def _check_columns(header: tuple[str, ...]) -> None:
    missing_columns(header)
    dupes = sorted({name for name in header if name in KNOWN and header.count(name) > 1})
    if dupes:
        raise LogError("appears more than once", dupes[0])


# -- Arrow and pandas columns to numpy -------------------------------------------------------


def arrow_values(name: str, array, text_labels: bool = False) -> np.ndarray:
    """A pyarrow column (Array or ChunkedArray) as a numpy array, nulls as NaN (or None for non-numbers).

    Label columns (``step``, ``a_id``, ``b_id``) keep what :func:`~explorer.audit.columns.label_floats`
    needs to refuse what is not a label (booleans stay booleans, decimals are converted exactly); with
    ``text_labels`` (a CSV block) they are text, read exactly (:func:`_text_labels`).

    Raises
    ------
    LogError
        For integers that float64 cannot hold exactly, or label text that is not an integer within
        ±2**53, naming the column and the row.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = array.type
    if pa.types.is_null(kind):
        return np.full(len(array), np.nan)
    if name in LABELS:
        if text_labels and (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
            return _text_labels(name, array)
        if pa.types.is_decimal(kind):  # exactly, or as Decimal objects for label_floats to refuse by row
            try:
                array, kind = pc.cast(array, pa.int64(), safe=True), pa.int64()
            except pa.ArrowInvalid:
                return array.to_numpy(zero_copy_only=False)
        if pa.types.is_boolean(kind):  # refused by label_floats, naming the row: not cast to 0/1
            return array.to_numpy(zero_copy_only=False)
    numeric = any(test(kind) for test in (pa.types.is_integer, pa.types.is_boolean, pa.types.is_floating,
                                          pa.types.is_decimal))  # fmt: skip
    if pa.types.is_integer(kind):  # the one rule of as_float64, with the row named
        check_exact_integers(name, array.fill_null(0).to_numpy(zero_copy_only=False))
    if numeric and (kind != pa.float64() or array.null_count):
        try:
            array = pc.cast(array, pa.float64(), safe=True)
        except pa.ArrowInvalid as err:
            raise LogError(f"values that float64 cannot hold exactly ({printable(str(err))})", name) from None
    return array.to_numpy(zero_copy_only=False)  # text and the like: as_float64 refuses it, naming the row


#: A label cell of a CSV log: an integer, optionally with a ``.0`` tail (as pandas writes a whole float).
_LABEL_TEXT = r"^\s*[+-]?[0-9]+(\.0*)?\s*$"
#: Digits of the largest label, 2**53.
_LABEL_DIGITS = len(str(EXACT_INT))


def _text_labels(name: str, array) -> np.ndarray:
    """A label column of a CSV block, read as text, as exact ``(n,) float64`` (missing cells NaN).

    A cell is an integer within ±2**53 written in decimal digits, optionally signed, surrounded by
    spaces or ending in ``.0`` (``7``, ``-3``, `` 12 ``, ``4.0``); anything else (``1.5``, ``1e3``,
    ``inf``, ``0x10``, a number beyond 2**53) is refused, naming the row.  So a label is read as the
    integer it says, never rounded through float64 (``9007199254740993`` is refused, not read as
    ``...992``).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if not pc.any(pc.match_substring(array, "x", ignore_case=True)).as_py():  # pyarrow reads 0x10 as hex
        try:  # plain integers, the usual case: one cast
            return arrow_values(name, pc.cast(array, pa.int64()))
        except pa.ArrowInvalid:
            pass
    valid = pc.fill_null(pc.match_substring_regex(array, _LABEL_TEXT), True).to_numpy(zero_copy_only=False)
    if not valid.all():
        row = int(np.flatnonzero(~valid)[0])
        raise not_a_label(name, array[row].as_py(), row)
    digits = pc.replace_substring_regex(pc.utf8_trim_whitespace(array), r"^\+|\.0*$", "")
    long = pc.greater(pc.utf8_length(pc.replace_substring_regex(digits, r"^-?0*", "")), _LABEL_DIGITS)
    long = pc.fill_null(long, False).to_numpy(zero_copy_only=False)
    if long.any():  # more digits than any int64 may have: refused before the cast fails
        row = int(np.flatnonzero(long)[0])
        raise inexact(name, digits[row].as_py(), row)
    return arrow_values(name, pc.cast(digits, pa.int64()))


def batch_columns(batch, text_labels: bool = False) -> dict[str, np.ndarray]:
    """A pyarrow RecordBatch or Table as ``{name: (n,) array}`` (``text_labels``: a CSV block, see
    :func:`arrow_values`)."""
    return {name: arrow_values(name, batch.column(i), text_labels) for i, name in enumerate(batch.schema.names)}


def frame_columns(frame) -> dict[str, np.ndarray]:
    """A pandas DataFrame (a Dask partition) as ``{name: (n,) array}``, missing values as NaN or None."""
    out = {}
    for name in frame.columns:
        series = frame[name]
        if isinstance(series.dtype, np.dtype):
            out[name] = series.to_numpy()
        elif name in LABELS and str(series.dtype) == "boolean":  # not 0/1: label_floats refuses it by row
            out[name] = series.to_numpy(dtype=object)
        elif str(series.dtype).startswith(("Int", "UInt", "Float", "boolean")):  # nullable numbers
            if str(series.dtype).startswith(("Int", "UInt")):
                check_exact_integers(name, series.to_numpy(dtype=series.dtype.numpy_dtype, na_value=0))
            out[name] = series.to_numpy(dtype=np.float64, na_value=np.nan)
        else:  # text and other extension types: refused row by row by as_float64
            out[name] = series.to_numpy(dtype=object)
    return out


# -- CSV -----------------------------------------------------------------------------------


def _csv_header(path: Path) -> tuple[str, ...]:
    """The column names of a CSV log.  A malformed row in the first block is passed over here (the reader
    refuses it later, naming its line), so that it is not taken for a file without a header."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    block = 1 << 16
    while True:
        try:
            with open_text(path) as text:
                reader = pcsv.open_csv(
                    text,
                    read_options=pcsv.ReadOptions(block_size=block, use_threads=False),
                    parse_options=pcsv.ParseOptions(invalid_row_handler=lambda row: "skip"),
                )
                names = tuple(reader.schema.names)
                reader.close()
            return names
        except (pa.ArrowException, OSError, UnicodeDecodeError) as err:
            block = _block_for_long_lines(err, path, block)  # a first line longer than the block
            if block is None:
                raise _unreadable("not a readable CSV file with a header row", err) from None


def csv_options(columns: tuple[str, ...], block_size: int, names: list[str] | None = None, skip_rows: int = 0):
    """The pyarrow (read, parse, convert) options both runners use, and the list the invalid-row handler fills."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    invalid: list = []

    def on_invalid(row) -> str:
        invalid.append(row)
        return "error"

    # labels as text, read exactly by arrow_values (float64 would round 2**53 + 1 to 2**53)
    types = {name: pa.bool_() if name == ENGINE_HIT else pa.string() if name in LABELS else pa.float64()
             for name in columns}  # fmt: skip
    read = pcsv.ReadOptions(block_size=block_size, column_names=names, skip_rows=skip_rows)
    parse = pcsv.ParseOptions(invalid_row_handler=on_invalid)
    convert = pcsv.ConvertOptions(
        include_columns=list(columns), column_types=types, true_values=TRUE_VALUES, false_values=FALSE_VALUES,
        strings_can_be_null=True,  # an empty label cell (or NaN, NA...) is missing, as in a number column
    )  # fmt: skip
    return read, parse, convert, invalid


_CONVERSION = re.compile(r"In CSV column #(\d+): .*?conversion error to (\w+): invalid value '(.*)'", re.S)


def csv_error(path: Path, header: tuple[str, ...], err: Exception, invalid: list) -> LogError:
    """A pyarrow CSV error as a one-line :class:`LogError` naming the column and the line."""
    if invalid:
        row = invalid[0]
        line = _locate_line(path, row.text)
        reason = f"{row.actual_columns} fields where the header has {row.expected_columns}: {row.text[:60]!r}"
        return LogError(reason + " (a truncated or malformed line)", None, None, line)
    match = _CONVERSION.search(str(err))
    if match:
        index, kind, value = int(match.group(1)), match.group(2), match.group(3)
        column = header[index] if index < len(header) else None
        wanted = "true/false or 1/0" if kind == "bool" else "a number"
        line = _locate_line(path, value, header.index(column) if column in header else None)
        return LogError(f"expected {wanted}, got {value[:40]!r}", column, None, line)
    return _unreadable("CSV file unreadable", err)


def _locate_line(path: Path, text: str, field: int | None = None) -> int | None:
    """1-based line of the first line equal to ``text`` (or, with ``field``, whose field ``field`` is ``text``)
    after the header (the first line that is not empty: pyarrow passes over empty lines).

    A byte search of the file read in blocks (never mapped: a file cut short meanwhile is only read
    shorter); None when not found or the file is compressed.  Used only to word an error.
    """
    import csv

    needle = text.encode("utf-8", "replace")
    if not needle or csv_compression(path):
        return None
    try:
        with open(path, "rb") as handle:
            number = 0
            while True:  # the header: the first line that is not empty
                line = handle.readline()
                number += 1
                if not line.endswith(b"\n"):  # the header is the last line, or there is none
                    return None
                if line.strip(b"\r\n"):
                    break
            for found, raw in _lines_holding(handle, needle, number + 1):
                line_text = raw.rstrip(b"\r").decode("utf-8", "replace")
                if field is None:
                    if line_text == text:
                        return found
                else:
                    cells = next(csv.reader([line_text]), [])
                    if field < len(cells) and cells[field] == text:
                        return found
    except (OSError, ValueError):
        return None
    return None


def _lines_holding(handle, needle: bytes, first: int, block: int = 1 << 24) -> Iterator[tuple[int, bytes]]:
    """``(line number, line without its line break)`` of each line from ``handle``'s position on that
    holds ``needle``; ``first`` is the number of the line at that position.  Read ``block`` bytes at a time."""
    number, rest = first, b""
    while True:
        piece = handle.read(block)
        data = rest + piece
        cut = data.rfind(b"\n") + 1 if piece else len(data)  # whole lines only, until the end
        whole, rest = data[:cut], data[cut:]
        at = 0
        while (hit := whole.find(needle, at)) >= 0:
            start = whole.rfind(b"\n", 0, hit) + 1
            end = whole.find(b"\n", hit)
            end = len(whole) if end < 0 else end
            yield number + whole.count(b"\n", 0, start), whole[start:end]
            at = end + 1
        number += whole.count(b"\n")
        if not piece:
            return


def csv_block_size(info: LogInfo, chunk_rows: int) -> int:
    """Bytes per CSV block for about ``chunk_rows`` rows (estimated from the first 64 kB; both runners use it)."""
    with open_text(info.path) as handle:  # decompressed: pyarrow's blocks are of the text
        sample = handle.read(1 << 16)
    lines = max(sample.count(b"\n") - 1, 1)
    per_row = max(len(sample) // (lines + 1), 16)
    return int(min(max(per_row * chunk_rows, 1 << 16), 1 << 29))


def read_csv_block(path: str, data: bytes, header: tuple[str, ...], columns: tuple[str, ...], first: bool):
    """Parse one block of a CSV file (whole lines; the first block starts with the header) like :func:`chunks`.

    Returns
    -------
    dict of str to (n,) array

    Raises
    ------
    LogError
        As :func:`chunks` does, the line found by searching the file at ``path``.
    """
    import pyarrow as pa
    import pyarrow.csv as pcsv

    read, parse, convert, invalid = csv_options(columns, 1 << 30, list(header), 1 if first else 0)
    read.use_threads = False
    try:
        table = pcsv.read_csv(io.BytesIO(data), read_options=read, parse_options=parse, convert_options=convert)
    except (pa.ArrowException, UnicodeDecodeError) as err:
        raise csv_error(Path(path), header, err, invalid) from None
    return batch_columns(table, text_labels=True)


# -- .npz ----------------------------------------------------------------------------------


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
            raise _unreadable("not a complete .npz file (truncated?)", err) from None
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


# -- the single-process stream ------------------------------------------------------------


def _parquet_chunks(info: LogInfo, chunk_rows: int) -> Iterator[dict[str, np.ndarray]]:
    """A Parquet log by row group; by batches when row groups are large.

    A row group is read whole in one call (a call per column took 40 % longer: 58 against 41 ms for 1M
    rows of 16 columns), from a map of the file (:mod:`explorer.audit.mapping`), and the pages of its
    column chunks are given back once decoded: besides the chunk itself, only one row group's pages are
    ever in memory.  (pyarrow's batch reader holds several row groups' worth: 760 MB against 210 MB
    measured for 1M-row groups of 14 columns.)  Row groups of more than twice ``chunk_rows`` rows are read
    in batches of ``chunk_rows`` instead, so memory stays bounded whatever the writer chose.
    """
    import pyarrow.parquet as pq

    meta = pq.read_metadata(info.path)
    groups = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
    if groups and max(groups) > 2 * chunk_rows:
        with pq.ParquetFile(info.path, pre_buffer=False) as handle:
            for batch in handle.iter_batches(batch_size=chunk_rows, columns=list(info.columns), use_threads=False):
                yield batch_columns(batch)
        return
    with mapped(info.path) as log, pq.ParquetFile(log.source, pre_buffer=False) as handle:
        leaves = [
            k for k in range(handle.metadata.num_columns) if handle.metadata.schema.column(k).path in info.columns
        ]
        for i in range(len(groups)):
            yield _parquet_group(handle, log, i, info.columns, leaves)


def _parquet_group(handle, log: MappedLog, group: int, names: tuple[str, ...], leaves: list[int]) -> dict:
    """Columns ``names`` of row group ``group`` as numpy; then the pages of the file's column chunks
    ``leaves`` (those of these columns that are not nested) are given back."""
    log.check()
    # The first group with pyarrow's threads: nothing is decided while it is read (2 cores: 26 against 41 ms);
    # later ones in this thread alone, the other core deciding the previous chunk.  (Speed only.)
    threads = group == 0  # pragma: no mutate
    table = handle.read_row_group(group, columns=list(names), use_threads=threads)
    log.check()  # a writer held back during the read: what was read is whole, but the log is being changed
    values = {name: arrow_values(name, table.column(name)) for name in names}
    meta = handle.metadata.row_group(group)
    for leaf in leaves:
        log.release(*column_bytes(meta.column(leaf)))
    return values


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
            yield from _parquet_chunks(info, chunk_rows)
        except (pa.ArrowException, OSError) as err:
            raise _unreadable("Parquet data unreadable (truncated or corrupt?)", err) from None
        return
    yield from _csv_chunks(info, chunk_rows)


def _csv_chunks(info: LogInfo, chunk_rows: int) -> Iterator[dict[str, np.ndarray]]:
    """A CSV log in blocks of about ``chunk_rows`` rows.

    pyarrow's reader refuses a line longer than its block; then the file is read again from the start
    with blocks twice its longest line, the rows already handed out passed over."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    block = csv_block_size(info, chunk_rows)
    given = 0  # rows handed out so far
    while True:
        read, parse, convert, invalid = csv_options(info.columns, block)
        seen = 0
        try:
            with open_text(info.path) as text:
                reader = pcsv.open_csv(text, read_options=read, parse_options=parse, convert_options=convert)
                for batch in reader:
                    skip = given - seen
                    seen += batch.num_rows
                    if seen > given:
                        yield batch_columns(batch.slice(skip) if skip > 0 else batch, text_labels=True)
                        given = seen
            return
        except (pa.ArrowException, OSError, UnicodeDecodeError) as err:
            block = _block_for_long_lines(err, info.path, block)
            if block is None:
                raise csv_error(info.path, info.header, err, invalid) from None


#: pyarrow's words for a line longer than its CSV block.
_STRADDLING = "straddling object"
#: The largest CSV block: a longer line is refused (in pyarrow's words).
MAX_CSV_BLOCK = 1 << 30


def _block_for_long_lines(err: Exception, path: Path, block: int) -> int | None:
    """A block twice the file's longest line when ``err`` is pyarrow refusing a line longer than ``block``
    (at least twice ``block``, at most :data:`MAX_CSV_BLOCK`); None for any other error, or at the cap."""
    if _STRADDLING not in str(err) or block >= MAX_CSV_BLOCK:
        return None
    return min(max(2 * longest_line(path), 2 * block), MAX_CSV_BLOCK)


def longest_line(path: Path) -> int:
    """Bytes of the longest line of a text file (gzip or bzip2 too), its line break included."""
    longest = run = 0  # run: bytes of the line still open at the end of the last piece read
    with open_text(path) as stream:
        while piece := stream.read(1 << 24):
            ends = np.flatnonzero(np.frombuffer(piece, np.uint8) == ord("\n"))
            if ends.size == 0:
                run += len(piece)
                continue
            longest = max(longest, run + int(ends[0]) + 1, int(np.diff(ends).max(initial=0)))
            run = len(piece) - int(ends[-1]) - 1
    return max(longest, run)
