"""``OUTDIR/summary.json``: what the audit found, as plain JSON.

Keys (``DESIGN.md`` promises the first six):

``pairs``
    Pairs decided (rows minus skipped rows).
``hits``
    Pairs that truly touch within their horizon (exact).
``engine_false_hits``, ``engine_false_misses``, ``engine_toi_errors``
    The engine's wrong answers (see :mod:`explorer.audit.judging`); ``null``
    for a log without engine columns, and ``engine_toi_errors`` is ``null``
    for a log with ``engine_hit`` but no ``engine_toi``.
``skipped_rows``
    Rows not decided (missing or out-of-range values), with
    ``skipped_by_column`` and the first ``skipped_examples``.

and ``rows``, ``status_counts`` (exact outcomes by :class:`solver.Status`
label), ``exact_path``, ``engine_toi_missing``, ``toi_tol``, ``answers`` (per
source of answers: the counts, ``toi_exact``, ``toi_error_max`` and the
histogram of relative TOI errors), ``textbook`` (for a log without engine
columns: what the textbook formula in float32 and float64 got wrong),
``histogram_edges``, ``worst`` (the case files, worst first), ``plot``, and
``run`` (how it ran and how long it took: the only key that differs between a
single-process and a Dask run of the same log).
"""

from __future__ import annotations

import json
from pathlib import Path

from solver import Status

from .deciding import ENGINE, sources
from .judging import Verdicts, histogram_edges
from .staging import create
from .tally import Tally
from .textbook import DTYPES


def _verdicts(v: Verdicts) -> dict:
    return {
        "false_hits": v.false_hits,
        "false_misses": v.false_misses,
        "toi_errors": v.toi_errors if v.checks_toi else None,
        "toi_missing": v.toi_missing if v.checks_toi else None,
        "toi_exact": v.toi_exact if v.checks_toi else None,
        "toi_error_max": v.toi_error_max if v.checks_toi else None,
        "toi_error_histogram": [int(x) for x in v.histogram] if v.checks_toi else None,
    }


def build(log: str, fmt: str, columns: tuple[str, ...], tally: Tally, toi_tol: float, files: list[str], plot: str,
          run: dict) -> dict:  # fmt: skip
    """The summary as a JSON-ready dict."""
    status = {Status(code).label: int(count) for code, count in enumerate(tally.status)}
    answers = {name: _verdicts(tally.verdicts.get(name, empty)) for name, empty in sources(columns).items()}
    engine = answers.get(ENGINE)
    out = {
        "log": log,
        "format": fmt,
        "columns": list(columns),
        "rows": tally.rows,
        "pairs": tally.pairs,
        "hits": status.get("overlapping", 0) + status.get("hit", 0),
        "engine_false_hits": engine["false_hits"] if engine else None,
        "engine_false_misses": engine["false_misses"] if engine else None,
        "engine_toi_errors": engine["toi_errors"] if engine else None,
        "engine_toi_missing": engine["toi_missing"] if engine else None,
        "skipped_rows": tally.skipped,
        "skipped_by_column": dict(sorted(tally.skipped_by_column.items())),
        "skipped_examples": [{"row": s.row, "column": s.column, "reason": s.reason} for s in tally.skipped_examples],
        "toi_tol": toi_tol,
        "status_counts": status,
        "exact_path": tally.exact_path,
        "answers": answers,
        "textbook": {name: answers[name] for name in DTYPES} if engine is None and answers else None,
        "histogram_edges": histogram_edges(),
        "worst": [
            {
                "file": f"cases/{name}",
                "row": case.row,
                "source": case.source,
                "kind": case.kind,
                "severity": case.severity,
                "said": case.said[case.source],
                "status": case.status,
                "hit": case.hit,
                "toi": case.toi,
            }
            for name, case in zip(files, tally.cases)
        ],
        "plot": plot,
        "run": run,
    }
    return _finite(out)


def _finite(value):
    """JSON has no inf or NaN: infinite errors are written as the string "inf"."""
    if isinstance(value, float) and value != value:
        return None
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def write(summary: dict, path: Path) -> None:
    """Write the summary as indented JSON (a new file, never through a link)."""
    with create(path) as handle:
        handle.write((json.dumps(summary, indent=2, allow_nan=False) + "\n").encode("utf-8"))


def one_line(summary: dict) -> str:
    """The summary as the one line the command prints."""
    text = f"{summary['pairs']:,} pairs decided, {summary['hits']:,} hits"
    if summary["engine_false_hits"] is not None:
        toi = summary["engine_toi_errors"]
        text += (
            f"; engine: {summary['engine_false_hits']:,} false hits, {summary['engine_false_misses']:,} false misses"
            + (f", {toi:,} TOI errors" if toi is not None else "")
        )
    elif summary["textbook"]:
        for name, v in summary["textbook"].items():
            text += f"; textbook {name}: {v['false_hits']:,} false hits, {v['false_misses']:,} false misses, {v['toi_errors']:,} TOI errors"
    if summary["skipped_rows"]:
        text += f"; {summary['skipped_rows']:,} rows skipped"
    return text
