"""The log's time unit: where the horizon came from, and a check that the velocities fit it.

A log states its time unit once, through ``horizon``: per row (a ``horizon``
column) or for the whole log (``--horizon H``); velocities are per that unit
(an engine stepping at dt = 1/60 s logs m/s and ``horizon = 1/60``).  A log with
neither gets the default horizon, 1: velocities per frame.

The check: when every pair that moves at all (relative velocity not zero) moves
more than :data:`~explorer.audit.constants.UNIT_WARNING_MOTION` contact
distances ``rA + rB`` within its horizon, the velocities are almost surely in
another unit than the horizon (m/s with a horizon of 1 frame, or millimetres
per second with metres); the audit says so in one line, and still decides every
pair as logged.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..constants import UNIT_WARNING_MOTION
from .columns import DEFAULT_HORIZON, HORIZON, read_only

#: Where the horizon of the rows came from, as ``summary.json`` names it.
FROM_COLUMN, FROM_OPTION, FROM_DEFAULT = "column", "--horizon", "default"


def horizons_and_least_motion(
    a_velocity, b_velocity, a_radius, b_radius, horizon, kept=None
) -> tuple[float, float, float]:
    """The smallest and largest horizon, and the smallest relative motion over the horizon in contact
    distances of the pairs that move, in one compiled pass (the GIL released).

    Parameters
    ----------
    a_velocity, b_velocity : sequence of 3 (m,) float64
        The x, y and z columns.
    a_radius, b_radius, horizon : (m,) float64
        Pairs the solver accepts (finite, within :mod:`solver.limits`), where ``kept``.
    kept : (m,) bool, optional
        The pairs to count (the rows of a chunk that were decided); every pair when None.

    Returns
    -------
    low, high : float
        ``min`` and ``max`` of ``horizon``; ``inf`` and ``-inf`` when no pair is counted.
    least : float
        ``min |vB - vA| h / (rA + rB)`` over the pairs with ``vB != vA``; ``inf`` when none moves.
    """
    columns = [*a_velocity, *b_velocity, a_radius, b_radius, horizon]
    columns = [read_only(np.ascontiguousarray(x, dtype=np.float64)) for x in columns]
    if kept is None:
        kept = np.ones(columns[-1].shape[0], dtype=np.bool_)
    low, high, least = _scan(*columns, kept)
    return float(low), float(high), float(least)


@njit(cache=True, nogil=True)
def _scan(avx, avy, avz, bvx, bvy, bvz, ar, br, h, kept):
    low, high, least = np.inf, -np.inf, np.inf
    for i in range(h.shape[0]):
        if kept[i]:
            low = min(low, h[i])
            high = max(high, h[i])
            dx = bvx[i] - avx[i]
            dy = bvy[i] - avy[i]
            dz = bvz[i] - avz[i]
            squared = dx * dx + dy * dy + dz * dz
            if squared > 0.0:
                least = min(least, math.sqrt(squared) * h[i] / (ar[i] + br[i]))
    return low, high, least


def source(columns: tuple[str, ...], option: float | None) -> str:
    """Where the rows' horizon comes from: the log's column, ``--horizon``, or the default."""
    if HORIZON in columns:
        return FROM_COLUMN
    return FROM_OPTION if option is not None else FROM_DEFAULT


def describe(origin: str, option: float | None, low: float, high: float, least: float) -> dict:
    """``summary.json``'s ``time_unit``.

    Parameters
    ----------
    origin : str
        :func:`source`'s answer.
    option : float or None
        ``--horizon``.
    low, high : float
        The smallest and largest horizon of the decided pairs (``inf``, ``-inf`` when none).
    least : float
        :func:`horizons_and_least_motion` over the log.

    Returns
    -------
    dict
        ``source``; ``horizon`` (the one horizon of every row, or None when they differ or no
        pair was decided); ``horizon_range`` ([low, high] of the decided pairs, or None);
        ``least_motion`` (contact distances, None when no pair moves); ``unit_warning`` (one
        line, or None).
    """
    if origin == FROM_COLUMN:
        decided = low <= high
        horizon = low if decided and low == high else None
        span = [low, high] if decided else None
    else:
        horizon = option if origin == FROM_OPTION else DEFAULT_HORIZON
        span = [horizon, horizon]
    moving = math.isfinite(least)
    return {
        "source": origin,
        "horizon": horizon,
        "horizon_range": span,
        "least_motion": least if moving else None,
        "unit_warning": warning(origin, least) if moving and least > UNIT_WARNING_MOTION else None,
    }


def warning(origin: str, least: float) -> str:
    """The one line about velocities that do not fit the horizon's time unit."""
    where = {
        FROM_COLUMN: "the log's horizon column",
        FROM_OPTION: "--horizon",
        FROM_DEFAULT: "the default horizon 1 (the log has no horizon column)",
    }[origin]
    return (
        f"every moving pair moves more than {UNIT_WARNING_MOTION:g} contact distances (rA + rB) within its horizon "
        f"(at least {least:.3g}): are the velocities per the time unit of {where}? "
        "Velocities are per horizon's unit: an engine stepping at dt = 1/60 s logs m/s and horizon = 1/60"
    )
