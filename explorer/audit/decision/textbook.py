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


@njit(cache=True, nogil=True)
def _many(ca, va, ra, cb, vb, rb, h, hit64, toi64, hit32, toi32):
    f = np.float32
    z32, two32, four32 = f(0.0), f(2.0), f(4.0)
    for i in range(ra.shape[0]):
        k = 3 * i
        hit64[i], toi64[i] = _one(
            ca[k], ca[k + 1], ca[k + 2], va[k], va[k + 1], va[k + 2], ra[i],
            cb[k], cb[k + 1], cb[k + 2], vb[k], vb[k + 1], vb[k + 2], rb[i], h[i], 0.0, 2.0, 4.0,
        )  # fmt: skip
        hit32[i], toi32[i] = _one(
            f(ca[k]), f(ca[k + 1]), f(ca[k + 2]), f(va[k]), f(va[k + 1]), f(va[k + 2]), f(ra[i]),
            f(cb[k]), f(cb[k + 1]), f(cb[k + 2]), f(vb[k]), f(vb[k + 1]), f(vb[k + 2]), f(rb[i]), f(h[i]),
            z32, two32, four32,
        )  # fmt: skip


def textbook_many(a_center, a_velocity, a_radius, b_center, b_velocity, b_radius, horizon) -> dict:
    """The textbook answers for every pair, in both types.

    Parameters
    ----------
    a_center, a_velocity, b_center, b_velocity : (n, 3) float64, C-contiguous
    a_radius, b_radius, horizon : (n,) float64

    Returns
    -------
    dict
        ``{"float64": (hit, toi), "float32": (hit, toi)}`` with ``hit`` ``(n,) bool``
        and ``toi`` ``(n,) float64`` (NaN without a hit).
    """
    n = a_radius.shape[0]
    hit64, hit32 = np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.bool_)
    toi64, toi32 = np.empty(n), np.empty(n)
    flat = [np.ascontiguousarray(x).reshape(-1) for x in (a_center, a_velocity, b_center, b_velocity)]
    with np.errstate(all="ignore"):
        _many(flat[0], flat[1], a_radius, flat[2], flat[3], b_radius, horizon, hit64, toi64, hit32, toi32)
    return {"float64": (hit64, toi64), "float32": (hit32, toi32)}
