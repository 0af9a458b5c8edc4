"""The per-partition jobs a Dask worker runs: read one piece of the log, audit it.

Each returns the :class:`~explorer.audit.decision.tally.Tally` of its rows (counted from
the start of the piece); the client folds them in file order.  These functions
import no Dask: the worker only needs the project installed.
"""

from __future__ import annotations

from pathlib import Path

from ..decision.deciding import Settings, audit_chunk
from ..decision.tally import Tally
from ..log.csv_reader import read_csv_block
from ..log.npz_reader import NpzLog
from ..log.values import frame_columns


def audit_frame(frame, settings: Settings) -> Tally:
    """Audit one partition of :func:`dask.dataframe.read_parquet` (a pandas DataFrame)."""
    return audit_chunk(frame_columns(frame), settings)


def audit_csv_block(path: str, data: bytes, header: tuple[str, ...], columns: tuple[str, ...], first: bool,
                    settings: Settings) -> Tally:  # fmt: skip
    """Audit one block of whole lines from :func:`dask.bytes.read_bytes` (the first holds the header)."""
    return audit_chunk(read_csv_block(path, data, header, columns, first), settings)


def audit_npz_range(path: str, columns: tuple[str, ...], start: int, stop: int, settings: Settings) -> Tally:
    """Audit rows ``start`` to ``stop`` of a ``.npz`` log."""
    with NpzLog(Path(path), columns) as log:
        return audit_chunk(log.read(start, stop), settings)
