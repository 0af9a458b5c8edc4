"""What the audit's tests share: the formats each planted log is written in, the rows per chunk, the summary
an audit writes, and a head-on shot as a log row."""

from __future__ import annotations

import json
from pathlib import Path

#: Formats each planted log is written in (``-z.npz``: compressed members).
FORMATS = ("log.parquet", "log.csv", "log.npz", "log-z.npz")
#: Rows per chunk in the tests: several chunks (and Parquet row groups) per log.
CHUNK = 1000


def read_summary(outdir: Path) -> dict:
    """OUTDIR/summary.json."""
    return json.loads((Path(outdir) / "summary.json").read_text(encoding="utf-8"))


def comparable(summary: dict) -> dict:
    """A summary without what differs between runs of the same log (the ``run`` timings and the log's path)."""
    return {k: v for k, v in summary.items() if k not in ("run", "log")}


def head_on_shot(gap: float, speed: float = 1.0) -> list[float]:
    """A (r 0.5) at the origin moving along x at ``speed``; B (r 0.5) still at x = ``gap``: R = 1."""
    return [0.0, 0.0, 0.0, speed, 0.0, 0.0, 0.5, gap, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5]
