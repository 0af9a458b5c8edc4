"""``OUTDIR/summary.json``: what the audit found, as plain JSON.

Keys (``DESIGN.md`` promises the first six):

``pairs``
    Pairs decided (rows minus skipped rows).
``hits``
    Pairs that truly touch within their horizon (exact).
``engine_false_hits``, ``engine_false_misses``, ``engine_toi_errors``
    The engine's wrong answers (see :mod:`explorer.audit.decision.judging`); ``null``
    for a log without engine columns, and ``engine_toi_errors`` is ``null``
    for a log with ``engine_hit`` but no ``engine_toi``.
``skipped_rows``
    Rows not decided (missing or out-of-range values), with
    ``skipped_by_column`` and the first ``skipped_examples``.

``time_unit``
    Where the rows' horizon, the time unit of the velocities, came from:
    ``source`` (``"column"``, ``"--horizon"`` or ``"default"``), ``horizon``
    (``null`` when the rows' horizons differ), ``horizon_range``,
    ``least_motion`` and ``unit_warning`` (see :mod:`explorer.audit.log.units`);
    ``warnings`` lists the one-line warnings (the unit check's, and the step-lag
    hint: see :func:`step_lag_warning`).

and ``rows``, ``status_counts`` (exact outcomes by :class:`solver.Status`
label), ``exact_path``, ``engine_toi_missing``, ``toi_tol``, ``answers`` (per
source of answers: the counts (the engine's with
``false_misses_in_contact_at_end``), ``toi_compared`` -- pairs where both said hit
with a time --, ``toi_exact``, ``toi_error_max`` and the histogram of relative
TOI errors), ``textbook`` (for a log without engine columns: what the textbook
formula in float32 and float64 got wrong), ``histogram_edges``, ``worst`` (the
case files, worst first, with the engine's ``step``, ``a_id`` and ``b_id``),
``plot``, and ``run`` (how it ran and how long it took: the only key that
differs between a single-process and a Dask run of the same log).

A figure that was not measured is ``null``, never 0: the TOI figures of a log
without ``engine_toi``, ``toi_error_max`` when no time was compared, a label
the log does not have.
"""

from __future__ import annotations

import json
from pathlib import Path

from solver import Status

from ..decision.deciding import ENGINE, sources
from ..decision.judging import Verdicts, histogram_edges
from ..decision.tally import Tally
from ..decision.textbook import DTYPES
from ..decision.worst import Case
from ..log.columns import LABELS
from .staging import create


def _verdicts(v: Verdicts) -> dict:
    compared = v.toi_exact + int(v.histogram.sum())  # pairs where both said hit and a time was given
    return {
        "false_hits": v.false_hits,
        "false_misses": v.false_misses,
        "toi_errors": v.toi_errors if v.checks_toi else None,
        "toi_missing": v.toi_missing if v.checks_toi else None,
        "toi_compared": compared if v.checks_toi else None,
        "toi_exact": v.toi_exact if v.checks_toi else None,
        "toi_error_max": v.toi_error_max if v.checks_toi and compared else None,
        "toi_error_histogram": [int(x) for x in v.histogram] if v.checks_toi else None,
    }


def _worst(files: list[str], cases: list[Case]) -> list[dict]:
    """The case files, worst first, each with what it is and the engine's row (``step``, ``a_id``, ``b_id``:
    None where the log has no such column)."""
    return [
        {
            "file": f"cases/{name}",
            "row": case.row,
            **{label: case.labels.get(label) for label in LABELS},
            "source": case.source,
            "kind": case.kind,
            "severity": case.severity,
            "said": case.said[case.source],
            "status": case.status,
            "hit": case.hit,
            "toi": case.toi,
        }
        for name, case in zip(files, cases)
    ]


def build(log: str, fmt: str, columns: tuple[str, ...], tally: Tally, toi_tol: float, files: list[str], plot: str,
          run: dict, time_unit: dict) -> dict:  # fmt: skip
    """The summary as a JSON-ready dict (``time_unit`` from :func:`explorer.audit.log.units.describe`)."""
    status = {Status(code).label: int(count) for code, count in enumerate(tally.status)}
    answers = {name: _verdicts(tally.verdicts.get(name, empty)) for name, empty in sources(columns).items()}
    engine = answers.get(ENGINE)
    if engine is not None:
        engine["false_misses_in_contact_at_end"] = tally.misses_at_end
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
        "time_unit": time_unit,
        "warnings": [w for w in (time_unit.get("unit_warning"), step_lag_warning(engine)) if w],
        "toi_tol": toi_tol,
        "status_counts": status,
        "exact_path": tally.exact_path,
        "answers": answers,
        "textbook": {name: answers[name] for name in DTYPES} if engine is None and answers else None,
        "histogram_edges": histogram_edges(),
        "worst": _worst(files, tally.cases),
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
        handle.write((json.dumps(summary, indent=2, allow_nan=False) + "\n").encode("utf-8"))  # pragma: no mutate


def step_lag_warning(engine: dict | None) -> str | None:
    """The one line saying that most of the engine's false misses look like step lag; None when they do not.

    A false miss still in contact at the end of its step is one a discrete test at the end of that
    step sees: when they are more than half of the false misses, the log most likely pairs each step
    with contacts the engine found before the step moved the bodies.
    """
    if engine is None:
        return None
    at_end, misses = engine["false_misses_in_contact_at_end"], engine["false_misses"]
    if not at_end or 2 * at_end <= misses:
        return None
    return (
        f"{at_end:,} of the engine's {count(misses, 'false miss')} {'is' if at_end == 1 else 'are'} still in contact "
        "at the end of the step, where a discrete test sees them: if the engine reports contacts found before the "
        "step moved the bodies, the log pairs each step with the previous one's contacts (step lag; see the README, "
        "'Logging from a step-based engine')"
    )


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 false miss"``, ``"2 false misses"``, ``"1,024 pairs"``: a count with its noun agreeing."""
    if n == 1:
        return f"1 {noun}"
    return f"{n:,} {plural or noun + ('es' if noun.endswith('s') else 's')}"


def _wrong(v: dict) -> str:
    """A source's wrong answers in words (TOI errors only where times were checked)."""
    text = f"{count(v['false_hits'], 'false hit')}, {count(v['false_misses'], 'false miss')}"
    return text if v["toi_errors"] is None else text + f", {count(v['toi_errors'], 'TOI error')}"


def one_line(summary: dict) -> str:
    """The summary as the one line the command prints."""
    text = f"{count(summary['pairs'], 'pair')} decided, {count(summary['hits'], 'hit')}"
    if summary["engine_false_hits"] is not None:
        text += f"; engine: {_wrong(summary['answers'][ENGINE])}"
    elif summary["textbook"]:
        for name, v in summary["textbook"].items():
            text += f"; textbook {name}: {_wrong(v)}"
    if summary["skipped_rows"]:
        text += f"; {count(summary['skipped_rows'], 'row')} skipped"
    return text
