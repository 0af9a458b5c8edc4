"""What the textbook formula answers for many pairs, in float32 and in float64.

For logs without engine columns the audit reports what the common textbook
test would have got wrong.  It is the formula of the precision lab
(:func:`explorer.model.derived.precision.textbook`, pair mode, ``"relative"`` variant),
compiled over arrays: every input rounded to the type first, then, in that type
and in this order (no fused multiply-add)::

    v = vB - vA,  p = cB - cA,  R = rA + rB
    a = v.v,  b = 2 p.v,  c = p.p - R^2,  disc = b^2 - 4 a c
    hit  <=>  c <= 0 (toi 0)  or  a != 0 and disc >= 0 and 0 <= t0 <= h,
              t0 = (-b - sqrt(disc)) / (2 a)

``tests/explorer/audit/decision/test_textbook.py`` checks the two agree on every pair of a
sample of hard cases, bit for bit.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..log.columns import read_only

#: The types compared, in the order the summary lists them.
DTYPES = ("float64", "float32")


@njit(cache=True, inline="always")
def _one(acx, acy, acz, avx, avy, avz, ar, bcx, bcy, bcz, bvx, bvy, bvz, br, h, zero, two, four):
    """(hit, toi) of one pair; every argument of the same float type (toi as float64, NaN without a hit)."""
    vx = bvx - avx
    vy = bvy - avy
    vz = bvz - avz
    r = ar + br
    a = vx * vx + vy * vy + vz * vz
    px = bcx - acx
    py = bcy - acy
    pz = bcz - acz
    b = two * (px * vx + py * vy + pz * vz)
    c = (px * px + py * py + pz * pz) - r * r
    disc = b * b - four * a * c
    if c <= zero:
        return True, 0.0
    if a == zero:
        return False, math.nan
    if disc < zero:
        return False, math.nan
    t0 = (-b - np.sqrt(disc)) / (two * a)
    if zero <= t0 and t0 <= h:
        return True, float(t0)
    return False, math.nan


#: Rows of the tile :func:`_many` copies its columns into, and the length of each of the tile's rows (padded).
TILE = 2048
_ROW = TILE + 8


@njit(cache=True, inline="always")
def _load(tile, k, column, start, m):
    """Row ``k`` of the tile: ``column[start : start + m]``."""
    row = k * _ROW
    for j in range(m):
        tile[row + j] = column[start + j]


@njit(cache=True, nogil=True)
def _many(acx, acy, acz, avx, avy, avz, ar, bcx, bcy, bcz, bvx, bvy, bvz, br, h, tile, hit64, toi64, hit32, toi32):
    """Both types' answers for every pair, :data:`TILE` rows at a time.

    A log's decoded columns all start at the same offset within a memory page, so row ``i`` of the fifteen
    columns falls in one set of the first-level cache, which holds eight lines: read row by row, the columns
    evict each other's lines before their next rows are read (twice the time, measured).  Each column's next
    :data:`TILE` values are copied into ``tile`` (``(15 * _ROW,)`` float64, rows starting at different
    offsets) instead, and the pairs are read from there.
    """
    f = np.float32
    z32, two32, four32 = f(0.0), f(2.0), f(4.0)
    n = h.shape[0]
    for start in range(0, n, TILE):
        m = min(TILE, n - start)
        _load(tile, 0, acx, start, m)
        _load(tile, 1, acy, start, m)
        _load(tile, 2, acz, start, m)
        _load(tile, 3, avx, start, m)
        _load(tile, 4, avy, start, m)
        _load(tile, 5, avz, start, m)
        _load(tile, 6, ar, start, m)
        _load(tile, 7, bcx, start, m)
        _load(tile, 8, bcy, start, m)
        _load(tile, 9, bcz, start, m)
        _load(tile, 10, bvx, start, m)
        _load(tile, 11, bvy, start, m)
        _load(tile, 12, bvz, start, m)
        _load(tile, 13, br, start, m)
        _load(tile, 14, h, start, m)
        for j in range(m):
            i = start + j
            x0, x1, x2, x3, x4, x5, x6 = tile[j], tile[_ROW + j], tile[2 * _ROW + j], tile[3 * _ROW + j], \
                tile[4 * _ROW + j], tile[5 * _ROW + j], tile[6 * _ROW + j]  # fmt: skip
            x7, x8, x9, x10, x11, x12, x13, x14 = tile[7 * _ROW + j], tile[8 * _ROW + j], tile[9 * _ROW + j], \
                tile[10 * _ROW + j], tile[11 * _ROW + j], tile[12 * _ROW + j], tile[13 * _ROW + j], tile[14 * _ROW + j]  # fmt: skip
            hit64[i], toi64[i] = _one(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, 0.0, 2.0, 4.0)
            hit32[i], toi32[i] = _one(
                f(x0), f(x1), f(x2), f(x3), f(x4), f(x5), f(x6), f(x7), f(x8), f(x9), f(x10), f(x11), f(x12), f(x13),
                f(x14), z32, two32, four32,
            )  # fmt: skip


def textbook_columns(columns) -> dict:
    """The textbook answers for every pair, in both types, from the log's columns as they are.

    Parameters
    ----------
    columns : sequence of 15 (n,) float64
        The :data:`~explorer.audit.log.columns.GEOMETRY` columns in that order, then ``horizon``.

    Returns
    -------
    dict
        ``{"float64": (hit, toi), "float32": (hit, toi)}`` with ``hit`` ``(n,) bool``
        and ``toi`` ``(n,) float64`` (NaN without a hit).
    """
    columns = [read_only(np.ascontiguousarray(x, dtype=np.float64)) for x in columns]
    n = columns[-1].shape[0]
    hit64, hit32 = np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.bool_)
    toi64, toi32 = np.empty(n), np.empty(n)
    with np.errstate(all="ignore"):
        _many(*columns, np.empty(15 * _ROW), hit64, toi64, hit32, toi32)
    return {"float64": (hit64, toi64), "float32": (hit32, toi32)}


def textbook_many(a_center, a_velocity, a_radius, b_center, b_velocity, b_radius, horizon) -> dict:
    """:func:`textbook_columns` for pairs held as vectors.

    Parameters
    ----------
    a_center, a_velocity, b_center, b_velocity : (n, 3) float64
    a_radius, b_radius, horizon : (n,) float64

    Returns
    -------
    dict
        As :func:`textbook_columns`.
    """
    columns = []
    for vectors, radius in ((a_center, None), (a_velocity, a_radius), (b_center, None), (b_velocity, b_radius)):
        vectors = np.asarray(vectors, dtype=np.float64)
        columns += [vectors[:, k] for k in range(3)] + ([] if radius is None else [radius])
    return textbook_columns([*columns, horizon])
