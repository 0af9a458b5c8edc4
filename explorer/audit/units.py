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

from .columns import DEFAULT_HORIZON, HORIZON
from .constants import UNIT_WARNING_MOTION

#: Where the horizon of the rows came from, as ``summary.json`` names it.
FROM_COLUMN, FROM_OPTION, FROM_DEFAULT = "column", "--horizon", "default"


def least_motion(a_velocity, b_velocity, a_radius, b_radius, horizon) -> float:
    """The smallest relative motion over the horizon, in contact distances, of the pairs that move.

    Parameters
    ----------
    a_velocity, b_velocity : (m, 3) float64
    a_radius, b_radius, horizon : (m,) float64

    Returns
    -------
    float
        ``min |vB - vA| h / (rA + rB)`` over the pairs with ``vB != vA`` (an overflow counts as the
        largest float); ``inf`` when none moves.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        relative = np.asarray(b_velocity) - np.asarray(a_velocity)
        speed = np.sqrt(np.einsum("ij,ij->i", relative, relative))
        moving = speed > 0
        if not moving.any():
            return math.inf
        motion = speed[moving] * horizon[moving] / (a_radius[moving] + b_radius[moving])
    return float(min(np.nanmin(motion), np.finfo(np.float64).max))


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
        :func:`least_motion` over the log.

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
