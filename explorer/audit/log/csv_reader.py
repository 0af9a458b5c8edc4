"""CSV logs with pyarrow: the header, the options both runners read with, blocks of rows and the
one-line refusals naming the line.

A log may be gzip or bzip2 compressed (by its suffix, any case).  pyarrow's reader refuses a line
longer than its block: the block then grows to twice the file's longest line (at most
:data:`MAX_CSV_BLOCK`).  Label columns are read as text, exactly
(:func:`~explorer.audit.log.values.arrow_values`).
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Iterator

import numpy as np

from .columns import ENGINE_HIT, LABELS, LogError
from .info import LogInfo, unreadable
from .values import batch_columns

#: CSV cells read as true or false in ``engine_hit`` (empty means missing).
TRUE_VALUES = ["1", "1.0", "true", "True", "TRUE"]
FALSE_VALUES = ["0", "0.0", "false", "False", "FALSE"]

#: Compression of a CSV log by its last suffix, in any case (pyarrow's own guess goes by lower case only).
CSV_COMPRESSION = {".gz": "gzip", ".bz2": "bz2"}


def csv_compression(path: Path) -> str | None:
    """``"gzip"`` or ``"bz2"`` for a compressed CSV log (by its suffix, any case), else None."""
    return CSV_COMPRESSION.get(Path(path).suffix.lower())


def open_text(path: Path):
    """The bytes of a CSV log, decompressed: a pyarrow input stream (for pyarrow's CSV reader)."""
    import pyarrow as pa

    return pa.input_stream(str(path), compression=csv_compression(path))


def csv_header(path: Path) -> tuple[str, ...]:
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
                raise unreadable("not a readable CSV file with a header row", err) from None


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
    return unreadable("CSV file unreadable", err)


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
    """Parse one block of a CSV file (whole lines; the first block starts with the header) like :func:`csv_chunks`.

    Returns
    -------
    dict of str to (n,) array

    Raises
    ------
    LogError
        As :func:`csv_chunks` does, the line found by searching the file at ``path``.
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


def csv_chunks(info: LogInfo, chunk_rows: int) -> Iterator[dict[str, np.ndarray]]:
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
