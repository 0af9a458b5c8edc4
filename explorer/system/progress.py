"""A one-line progress bar on stderr, drawn only for a person watching (a terminal, no ``--quiet``): the
audit's rows, a site's pages.  Standard library only."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Rows (or pages...) done out of a total (or bytes of a CSV file, whose rows are unknown until read).

    Parameters
    ----------
    total : int or None
        Rows in the log, or None when unknown (then ``fraction`` drives the bar).
    enabled : bool
        Draw at all; pass ``not quiet``.  Nothing is drawn unless ``stream`` is a terminal.
    stream : file, optional
        Default ``sys.stderr``.
    label : str
        What starts the line (the command).
    unit : str
        What is counted, plural.
    per_second : (float, str)
        The rate's scale and its words: ``(1e6, "M rows/s")`` shows millions of rows a second.
    """

    #: Seconds between redraws.
    INTERVAL = 0.2

    def __init__(
        self,
        total: int | None,
        enabled: bool = True,
        stream: TextIO | None = None,
        label: str = "audit",
        unit: str = "rows",
        per_second: tuple[float, str] = (1e6, "M rows/s"),
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(enabled and isatty is not None and isatty())
        self.total = total
        self.label, self.unit, self.per_second = label, unit, per_second
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
        scale, words = self.per_second
        self.stream.write(f"\r{self.label} [{bar}] {percent}  {self.rows:,} {self.unit}  {rate / scale:.1f} {words} ")
        self.stream.flush()

    def close(self) -> None:
        """End the line (if anything was drawn)."""
        if self.enabled and self._drawn:
            self.stream.write("\n")
            self.stream.flush()
