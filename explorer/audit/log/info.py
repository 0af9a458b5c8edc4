"""A log once opened: what :func:`~explorer.audit.log.reading.inspect` found, and the words of its refusals.

:class:`LogInfo` is what every reader is given; :func:`printable` and
:func:`unreadable` word a refusal that quotes the file or the library's own
message on one line; :func:`shrunk` tells a log cut short while it was read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .columns import LogError


@dataclass(frozen=True)
class LogInfo:
    """A log that has been opened and found to have the required columns.

    Attributes
    ----------
    path : Path
    format : {"parquet", "csv", "npz"}
    columns : tuple of str
        The known columns present (geometry first, then the optional ones), in
        the order of :data:`~explorer.audit.log.columns.KNOWN`.
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


def unreadable(what: str, err: Exception) -> LogError:
    """A :class:`LogError` saying ``what``, with the first line of ``err``'s message (or its type) in brackets."""
    detail = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return LogError(f"{what} ({printable(detail)})")


def shrunk(info: LogInfo) -> bool:
    """Whether the log is now shorter than when :func:`~explorer.audit.log.reading.inspect` opened it
    (False when it cannot be looked at: a log removed while it was read has been read whole from the
    file still open)."""
    try:
        return os.stat(info.path).st_size < info.size
    except OSError:
        return False
