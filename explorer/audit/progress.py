"""A one-line progress bar on stderr, drawn only for a person watching (a terminal, no ``--quiet``)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Rows done out of a total (or bytes of a CSV file, whose rows are unknown until read).

    Parameters
    ----------
    total : int or None
        Rows in the log, or None when unknown (then ``fraction`` drives the bar).
    enabled : bool
        Draw at all; pass ``not quiet``.  Nothing is drawn unless ``stream`` is a terminal.
    stream : file, optional
        Default ``sys.stderr``.
    """

    #: Seconds between redraws.
    INTERVAL = 0.2

    def __init__(self, total: int | None, enabled: bool = True, stream: TextIO | None = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(enabled and isatty is not None and isatty())
        self.total = total
        self.rows = 0
        self.start = time.perf_counter()
        self._drawn = 0.0

    def update(self, rows: int, fraction: float | None = None) -> None:
        """Add ``rows`` done; ``fraction`` in [0, 1] when the total is unknown."""
        self.rows += rows
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self._drawn < self.INTERVAL:
            return
        if self.total:
            fraction = self.rows / self.total
        self._draw(now, fraction)

    def finish(self) -> None:
        """Draw the bar full, whenever the last drawing was: the whole log is read (a CSV log's total was only
        estimated, from its size)."""
        if self.enabled:
            self._draw(time.perf_counter(), 1.0)

    def _draw(self, now: float, fraction: float | None) -> None:
        self._drawn = now
        rate = self.rows / max(now - self.start, 1e-9)
        width = 30
        done = int(width * min(max(fraction or 0.0, 0.0), 1.0))
        bar = "#" * done + "-" * (width - done)
        percent = f"{100 * fraction:5.1f}%" if fraction is not None else "  ?  "
        self.stream.write(f"\raudit [{bar}] {percent}  {self.rows:,} rows  {rate / 1e6:.1f} M rows/s ")
        self.stream.flush()

    def close(self) -> None:
        """End the line (if anything was drawn)."""
        if self.enabled and self._drawn:
            self.stream.write("\n")
            self.stream.flush()
