"""Exact decisions and correctly rounded roots from integer arithmetic.

Every finite float is an integer times a power of two, so after scaling each
group of inputs (lengths, velocities, the horizon) by a common power of two all
the polynomials of :mod:`solver._filter` become exact Python integers: their
signs are decided without any rounding.  The roots need one square root, taken
with :func:`math.isqrt` on the integer discriminant shifted left by
:data:`~solver.tolerances.EXACT_SQRT_BITS` bits, and one correctly rounded
integer division.  This path costs tens of microseconds and runs only where the
float filter cannot prove its answer.
"""

from __future__ import annotations

import math

from .status import HIT, LATER, MISS, NO_RELATIVE_MOTION, OUTSIDE, OVERLAPPING, SEPARATING
from .tolerances import EXACT_SQRT_BITS

NAN = math.nan


def scaled_integers(values: tuple[float, ...]) -> tuple[list[int], int]:
    """Write floats as integers over one power of two.

    Parameters
    ----------
    values : tuple of float, shape (n,)
        Finite floats.

    Returns
    -------
    ints : list of int, shape (n,)
    shift : int
        ``values[i] == ints[i] / 2**shift`` exactly.
    """
    ratios = [x.as_integer_ratio() for x in values]
    shifts = [d.bit_length() - 1 for _, d in ratios]
    shift = max(shifts)
    return [n << (shift - k) for (n, _), k in zip(ratios, shifts)], shift


def ratio_to_float(num: int, den: int, shift: int = 0) -> float:
    """Correctly rounded float of ``num * 2**shift / den`` (±inf beyond the float range)."""
    if shift >= 0:
        num <<= shift
    else:
        den <<= -shift
    if den < 0:
        num, den = -num, -den
    try:
        return num / den
    except OverflowError:
        return math.inf if num > 0 else -math.inf


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def exact_quantities(cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside):
    """The tested polynomials of :mod:`solver._filter` as exact scaled integers.

    Same parameters as :func:`classify_exact`.

    Returns
    -------
    c, co, pv, vv, disc, fh, ve : int
        ``c``, ``|p|^2 - (rA + rB)^2``, ``p.v``, ``|v|^2``, the quarter
        discriminant, ``f(h)`` and ``v.(p + v h)``, each an integer multiple
        of a power of two (below); only their signs and ratios are used.
    kl, kv, kh : int
        The scales: lengths are integers over ``2^kl``, velocities over
        ``2^kv``, the horizon over ``2^kh``.  ``c`` and ``co`` carry
        ``2^(2 kl)``, ``pv`` ``2^(kl + kv)``, ``vv`` ``2^(2 kv)``, ``disc``
        ``2^(2 kl + 2 kv)``, ``fh`` ``2^(2 es)`` and ``ve`` ``2^(es + kv)``
        with ``es = kl + kv + kh``.
    """
    lengths, kl = scaled_integers((cax, cay, caz, cbx, cby, cbz, ra, rb))
    speeds, kv = scaled_integers((vax, vay, vaz, vbx, vby, vbz))
    (hn,), kh = scaled_integers((h,))
    ax, ay, az, bx, by, bz, ira, irb = lengths
    px, py, pz = bx - ax, by - ay, bz - az
    r = irb - ira if inside else ira + irb
    vx, vy, vz = speeds[3] - speeds[0], speeds[4] - speeds[1], speeds[5] - speeds[2]

    rr = r * r
    pp = px * px + py * py + pz * pz
    c = pp - rr  # scale 2^(2 kl)
    co = pp - (ira + irb) ** 2
    vv = vx * vx + vy * vy + vz * vz  # scale 2^(2 kv)
    pv = px * vx + py * vy + pz * vz  # scale 2^(kl + kv)
    wx, wy, wz = py * vz - pz * vy, pz * vx - px * vz, px * vy - py * vx
    disc = vv * rr - (wx * wx + wy * wy + wz * wz)  # scale 2^(2 kl + 2 kv)
    pshift = kv + kh
    vshift = kl
    # e = p + v h at scale 2^(kl + kv + kh)
    ex = (px << pshift) + ((vx * hn) << vshift)
    ey = (py << pshift) + ((vy * hn) << vshift)
    ez = (pz << pshift) + ((vz * hn) << vshift)
    fh = ex * ex + ey * ey + ez * ez - (rr << (2 * pshift))  # scale 2^(2 (kl + kv + kh))
    ve = vx * ex + vy * ey + vz * ez  # scale 2^(kl + 2 kv + kh)
    return c, co, pv, vv, disc, fh, ve, kl, kv, kh


def classify_exact(cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside):
    """Exact counterpart of :func:`solver._filter.classify`.

    Same parameters and the same tuple followed by ``fh, ve`` (f at the
    horizon and ``pv + vv h``), with ``flags`` always 0, the status and
    ``by_vertex`` decided exactly, the roots correctly rounded from their exact
    values and the tested quantities correctly rounded (their signs are
    therefore exact unless they underflow to zero).
    """
    c, co, pv, vv, disc, fh, ve, kl, kv, kh = exact_quantities(
        cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h, inside
    )
    if inside:
        if c >= 0:
            status = OUTSIDE if co > 0 else OVERLAPPING
        elif vv == 0:
            status = NO_RELATIVE_MOTION
        else:
            status = HIT if fh >= 0 else LATER
    elif c <= 0:
        status = OVERLAPPING
    elif vv == 0:
        status = NO_RELATIVE_MOTION
    elif pv >= 0:
        status = SEPARATING
    elif disc < 0:
        status = MISS
    elif fh <= 0 or ve >= 0:
        status = HIT
    else:
        status = LATER

    t_lo = t_hi = NAN
    if vv > 0 and disc >= 0:
        t_lo, t_hi = roots(c, pv, vv, disc, kl, kv)
    es = kl + kv + kh
    return (
        status,
        t_lo,
        t_hi,
        0,
        ratio_to_float(c, 1, -2 * kl),
        ratio_to_float(pv, 1, -(kl + kv)),
        ratio_to_float(vv, 1, -2 * kv),
        ratio_to_float(disc, 1, -2 * (kl + kv)),
        not inside and ve >= 0,
        ratio_to_float(fh, 1, -2 * es),
        ratio_to_float(ve, 1, -(es + kv)),
    )


def roots(c: int, pv: int, vv: int, disc: int, kl: int, kv: int) -> tuple[float, float]:
    """Correctly rounded roots ``(t_lo, t_hi)`` of ``vv t^2 + 2 pv t + c`` from scaled integers.

    ``c``, ``pv``, ``vv`` and ``disc = pv^2 - vv c`` carry the scales of
    :func:`classify_exact`; ``vv > 0`` and ``disc >= 0``.
    """
    m = max(0, EXACT_SQRT_BITS - disc.bit_length() // 2)
    s = math.isqrt(disc << (2 * m))  # floor(sqrt(disc) * 2^m)
    q = -((pv << m) + s) if pv > 0 else s - (pv << m)  # q * 2^-(m + kl + kv)
    if q == 0:  # pv = disc = 0, hence c = 0: a double root at t = 0
        return 0.0, 0.0
    q_over_vv = ratio_to_float(q, vv << (m + kl), kv)
    c_over_q = ratio_to_float(c, q, m + kv - kl)
    return (q_over_vv, c_over_q) if q_over_vv <= c_over_q else (c_over_q, q_over_vv)
