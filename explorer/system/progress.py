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
    interval : float
        Seconds between redraws, at least (0: at each update, for a site's pages).
    out_of : bool
        Show the count as done out of the total (``3/30 pages``), not alone.
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
        interval: float = INTERVAL,
        out_of: bool = False,
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(enabled and isatty is not None and isatty())
        self.total = total
        self.label, self.unit, self.per_second = label, unit, per_second
        self.interval, self.out_of = interval, out_of
        self.rows = 0
        self.start = time.perf_counter()
        self._drawn = 0.0
        self._detail = ""
        self._width = 0  # of the last line drawn

    def update(self, rows: int, fraction: float | None = None, detail: str = "") -> None:
        """Add ``rows`` done; ``fraction`` in [0, 1] when the total is unknown; ``detail`` ends the line (the
        page just made)."""
        self.rows += rows
        self._detail = detail
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self._drawn < self.interval:
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
        count = f"{self.rows:,}/{self.total:,}" if self.out_of and self.total else f"{self.rows:,}"
        line = f"{self.label} [{bar}] {percent}  {count} {self.unit}  {rate / scale:.1f} {words} {self._detail}"
        self.stream.write(f"\r{line.ljust(self._width)}")  # spaces over the end of a longer line before
        self._width = len(line)
        self.stream.flush()

    def close(self) -> None:
        """End the line (if anything was drawn)."""
        if self.enabled and self._drawn:
            self.stream.write("\n")
            self.stream.flush()
