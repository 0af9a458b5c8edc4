"""Auditing one chunk of a log: check the rows, decide every pair exactly, compare, tally.

:func:`audit_chunk` is the whole per-chunk job, the same function whether the
single-process runner or a Dask worker calls it; it knows nothing of files.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import njit

from ..constants import SKIPPED_EXAMPLES, TOI_TOL, WORST
from ..log.columns import (
    DEFAULT_HORIZON,
    ENGINE_HIT,
    ENGINE_TOI,
    GEOMETRY,
    HORIZON,
    KNOWN,
    LABELS,
    LogError,
    as_float64,
    label_floats,
)
from ..log.units import horizons_and_least_motion
from .judging import FALSE_MISS, Verdicts, judge
from .rows import REASON_COLUMNS, Decided, decide, skip_reason
from .tally import N_STATUS, Skipped, Tally
from .textbook import DTYPES, textbook_columns
from .worst import select

#: The source of answers of a log with engine columns.
ENGINE = "engine"


@dataclass(frozen=True)
class Settings:
    """What the user chose (``--toi-tol``, ``--worst``, ``--horizon``).

    Attributes
    ----------
    toi_tol : float
    worst : int
    horizon : float or None
        The horizon of every row of a log without a ``horizon`` column (``--horizon``); None for the
        default, :data:`~explorer.audit.log.columns.DEFAULT_HORIZON`.
    """

    toi_tol: float = TOI_TOL
    worst: int = WORST
    horizon: float | None = None


def sources(columns: tuple[str, ...] | list[str]) -> dict[str, Verdicts]:
    """The sources of answers a log with these columns is checked for (the engine, or the textbook
    formula in each type), each with no verdicts yet."""
    if ENGINE_HIT in columns or ENGINE_TOI in columns:
        return {ENGINE: Verdicts(checks_toi=ENGINE_TOI in columns)}
    return {name: Verdicts() for name in DTYPES}


@lru_cache(maxsize=2)
def _constant_horizon(n: int, value: float) -> np.ndarray:
    """A read-only ``(n,)`` array of one horizon, shared by the chunks of one size."""
    out = np.full(n, value)
    out.flags.writeable = False
    return out


def _columns(raw: dict[str, np.ndarray], settings: Settings) -> tuple[dict[str, np.ndarray], int, int, bool]:
    """The chunk's known columns as float64, the horizon filled in; its rows, ``hit_mode`` (see
    :func:`explorer.audit.decision.rows.decide`), and whether the answers' times are checked."""
    columns = {
        name: (label_floats if name in LABELS else as_float64)(name, values)
        for name, values in raw.items()
        if name in KNOWN
    }
    lengths = {values.shape[0] for values in columns.values()}
    if len(lengths) != 1:
        sizes = ", ".join(f"{name} {values.shape[0]}" for name, values in columns.items())
        raise LogError(f"columns of different lengths ({sizes})")
    n = lengths.pop()
    if HORIZON not in columns:
        columns[HORIZON] = _constant_horizon(n, DEFAULT_HORIZON if settings.horizon is None else settings.horizon)
    hit_mode = 1 if ENGINE_HIT in columns else 2 if ENGINE_TOI in columns else 0
    checks_toi = ENGINE_TOI in columns or hit_mode == 0
    if hit_mode == 1 and ENGINE_TOI not in columns:
        columns[ENGINE_TOI] = np.full(n, math.nan)
    return columns, n, hit_mode, checks_toi


def audit_chunk(raw: dict[str, np.ndarray], settings: Settings) -> Tally:
    """Audit one chunk of rows.

    Parameters
    ----------
    raw : dict of str to (n,) array
        The chunk's columns as read (any numeric, boolean or object dtype);
        the geometry columns are required, the optional ones used when present,
        others ignored.  Float64 columns are decided where they are, never copied.
    settings : Settings

    Returns
    -------
    Tally
        With rows counted from the start of the chunk.

    Raises
    ------
    LogError
        For a value that is not a number, an invalid ``engine_hit``, or columns
        of different lengths, naming the column and the chunk-relative row.
    """
    columns, n, hit_mode, checks_toi = _columns(raw, settings)
    decided = decide(columns, n, hit_mode)
    result = decided.result
    tally = Tally(rows=n, pairs=decided.pairs, exact_path=int(np.count_nonzero(result.exact)))
    tally.status = np.zeros(N_STATUS, dtype=np.int64)
    _count_status(result.status, decided.kept, tally.status)
    tally.skipped_by_column, tally.skipped_examples = _skipped(decided, columns, n)
    _time_unit(tally, decided)
    answers = _answers(decided, hit_mode)
    kinds = {}
    for name, (said_hit, said_toi) in answers.items():
        kinds[name], tally.verdicts[name] = judge(
            result.hit, result.toi, said_hit, said_toi, settings.toi_tol, checks_toi, decided.kept
        )
    if ENGINE in kinds:
        tally.misses_at_end = _misses_at_end(kinds[ENGINE], result, decided.columns[HORIZON])
    labels = {name: columns[name] for name in LABELS if name in columns}
    tally.cases = select(decided, answers, kinds, settings.worst, labels)
    return tally


@njit(cache=True, nogil=True)
def _count_status(status, kept, counts):
    """``counts[s]`` += the kept rows of status code ``s``."""
    for i in range(status.shape[0]):
        if kept[i]:
            counts[status[i]] += 1


def _misses_at_end(kind: np.ndarray, result, horizon: np.ndarray) -> int:
    """False misses still in contact at the end of the horizon, ``t_enter <= horizon <= t_exit`` (the roots'
    float64 values: a count for a hint, not a verdict)."""
    rows = np.flatnonzero(kind == FALSE_MISS)
    with np.errstate(invalid="ignore"):
        at_end = (result.t_enter[rows] <= horizon[rows]) & (horizon[rows] <= result.t_exit[rows])
    return int(np.count_nonzero(at_end))


def _answers(decided: Decided, hit_mode: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each source's ``(hit, toi)`` per row: the engine's, or the textbook formula's in each type."""
    if hit_mode:
        return {ENGINE: (decided.engine_hit, decided.engine_toi)}
    return textbook_columns([decided.columns[name] for name in GEOMETRY + (HORIZON,)])


def _time_unit(tally: Tally, decided: Decided) -> None:
    """The decided pairs' horizon range and least relative motion (see :mod:`explorer.audit.log.units`)."""
    c = decided.columns
    tally.horizon_low, tally.horizon_high, tally.least_motion = horizons_and_least_motion(
        (c["a_vx"], c["a_vy"], c["a_vz"]), (c["b_vx"], c["b_vy"], c["b_vz"]), c["a_r"], c["b_r"], c[HORIZON],
        decided.kept,
    )  # fmt: skip


def _skipped(decided: Decided, columns: dict[str, np.ndarray], n: int) -> tuple[dict[str, int], list[Skipped]]:
    """The chunk's skipped rows counted by the column that made them skipped, and the first few with their values."""
    if decided.pairs == n:
        return {}, []
    counts = np.bincount(decided.reason, minlength=len(REASON_COLUMNS) + 1)
    by_column = {REASON_COLUMNS[k - 1]: int(c) for k, c in enumerate(counts) if k and c}
    examples = []
    for row in np.flatnonzero(decided.reason)[:SKIPPED_EXAMPLES].tolist():
        column = REASON_COLUMNS[int(decided.reason[row]) - 1]
        examples.append(Skipped(row, column, skip_reason(column, float(columns[column][row]))))
    return by_column, examples
