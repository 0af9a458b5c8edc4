"""Independent exact reference for the sphere-sweep queries.

Everything here is derived from the mathematics alone, never from the solver's
source.  Every finite float is a rational number, so ``fractions.Fraction(x)``
represents an input *exactly*; the relative position ``p``, velocity ``v`` and
contact radius ``R`` are then exact rationals and

    f(t) = |p + v t|^2 - R^2 = A t^2 + 2 B t + C,
    A = v.v,  B = p.v,  C = p.p - R^2,  D = B^2 - A C  (a quarter discriminant)

are exact too.  Every verdict is decided from the *signs* of exact rationals
(no square root is ever needed for a verdict: a comparison with a square root
is squared after checking signs).  The roots ``(-B -/+ sqrt(D)) / A`` are
evaluated in ``decimal`` at :data:`PRECISION` significant digits, from the
exact rational coefficients, with the cancellation-free pairing
``Q = -(B + sign(B) sqrt(D))``, roots ``Q / A`` and ``C / Q``; each of the few
Decimal operations has relative error below 10**-PRECISION, so the reference
roots are good to ~10**-(PRECISION - 2) relative, for any input magnitude.

Statuses (same names as ``solver.Status``) -- pair mode, contact while f <= 0:

    C <= 0                      OVERLAPPING        (toi = 0)
    A == 0                      NO_RELATIVE_MOTION
    B >= 0                      SEPARATING         (f only grows for t > 0)
    D <  0                      MISS
    t0 = (-B - sqrt D)/A <= h   HIT                (toi = t0, which is > 0 here)
    otherwise                   LATER

inside mode (a ball of radius rA in a container of radius rC, R = rC - rA),
contact once f >= 0:

    C >= 0 and |p| > rA + rC    OUTSIDE            (the ball is entirely outside)
    C >= 0                      OVERLAPPING
    A == 0                      NO_RELATIVE_MOTION
    t1 = (-B + sqrt D)/A <= h   HIT                (toi = t1; D > 0 since C < 0)
    otherwise                   LATER
"""

from __future__ import annotations

import decimal
import math
from dataclasses import dataclass
from fractions import Fraction

#: Significant decimal digits of the reference roots.
PRECISION = 90

#: Status names, as in ``solver.Status``.
OVERLAPPING = "OVERLAPPING"
NO_RELATIVE_MOTION = "NO_RELATIVE_MOTION"
SEPARATING = "SEPARATING"
MISS = "MISS"
HIT = "HIT"
LATER = "LATER"
OUTSIDE = "OUTSIDE"

HIT_STATUSES = (OVERLAPPING, HIT)

_CTX = decimal.Context(prec=PRECISION, Emax=10**9, Emin=-(10**9), rounding=decimal.ROUND_HALF_EVEN)

#: Smallest positive normal float; root errors are measured relative to
#: ``max(|exact root|, TINY)`` (a subnormal result cannot carry 1e-10 relative).
TINY = 2.0**-1022
DBL_MAX = 1.7976931348623157e308


def frac(x: float) -> Fraction:
    """The exact rational value of a finite float (or int)."""
    return Fraction(x)


def _vec(values) -> tuple[Fraction, Fraction, Fraction]:
    x, y, z = values
    return (frac(x), frac(y), frac(z))


def _dot(u, w) -> Fraction:
    return u[0] * w[0] + u[1] * w[1] + u[2] * w[2]


def _dec(q: Fraction) -> decimal.Decimal:
    """Decimal nearest (at PRECISION digits) to the rational ``q``."""
    return _CTX.divide(decimal.Decimal(q.numerator), decimal.Decimal(q.denominator))


@dataclass(frozen=True)
class Reference:
    """Exact outcome of one query.

    Attributes
    ----------
    status : str
        One of the status names above.
    toi : decimal.Decimal or None
        Exact (to PRECISION digits) first-contact time; 0 for OVERLAPPING.
    roots : (Decimal, Decimal) or None
        Both real roots of f in increasing order (None when A == 0 or D < 0).
    p, v : tuple of Fraction
    R, A, B, C, D : Fraction
        ``D = B^2 - A C``.
    fh : Fraction
        ``f(h)``.
    ve : Fraction
        ``v.(p + v h) = B + A h``: f'(h) / 2.
    C_out : Fraction
        ``|p|^2 - (rA + rB)^2``: > 0 when the two spheres are disjoint.
    """

    status: str
    toi: decimal.Decimal | None
    roots: tuple[decimal.Decimal, decimal.Decimal] | None
    p: tuple
    v: tuple
    R: Fraction
    A: Fraction
    B: Fraction
    C: Fraction
    D: Fraction
    fh: Fraction
    ve: Fraction
    h: Fraction
    C_out: Fraction = Fraction(0)

    @property
    def hit(self) -> bool:
        return self.status in HIT_STATUSES


def _roots(A: Fraction, B: Fraction, C: Fraction, D: Fraction):
    """Both real roots of A t^2 + 2 B t + C, increasing, to PRECISION digits."""
    if A == 0 or D < 0:
        return None
    sqrt_d = _CTX.sqrt(_dec(D))
    b = _dec(B)
    if B > 0:
        q = _CTX.minus(_CTX.add(b, sqrt_d))
    else:
        q = _CTX.subtract(sqrt_d, b)  # -(B - sqrt D) >= 0, no cancellation
    if q == 0:  # B == 0 and D == 0, hence C == 0: double root at 0
        zero = decimal.Decimal(0)
        return (zero, zero)
    r1 = _CTX.divide(q, _dec(A))
    r2 = _CTX.divide(_dec(C), q)
    return (r1, r2) if r1 <= r2 else (r2, r1)


def quantities(a, b, horizon, mode: str = "pair"):
    """Exact ``p, v, R, A, B, C, D, f(h), v.(p+vh), h`` for bodies with
    ``.center``, ``.velocity``, ``.radius`` (A is the ball in inside mode)."""
    ca, cb = _vec(a.center), _vec(b.center)
    va, vb = _vec(a.velocity), _vec(b.velocity)
    ra, rb = frac(a.radius), frac(b.radius)
    h = frac(horizon)
    p = (cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2])
    v = (vb[0] - va[0], vb[1] - va[1], vb[2] - va[2])
    if mode == "pair":
        R = ra + rb
    elif mode == "inside":
        R = rb - ra
    else:  # pragma: no cover - programming error in a test
        raise ValueError(mode)
    A = _dot(v, v)
    B = _dot(p, v)
    C = _dot(p, p) - R * R
    D = B * B - A * C
    e = (p[0] + v[0] * h, p[1] + v[1] * h, p[2] + v[2] * h)
    fh = _dot(e, e) - R * R
    ve = _dot(v, e)
    return p, v, R, A, B, C, D, fh, ve, h


def _first_root_at_most(A, B, D, h) -> bool:
    """(-B - sqrt D) / A <= h, for A > 0, D >= 0, decided exactly."""
    x = -B - h * A  # need x <= sqrt(D)
    return x <= 0 or x * x <= D


def _second_root_at_most(A, B, D, h) -> bool:
    """(-B + sqrt D) / A <= h, for A > 0, D >= 0, decided exactly."""
    y = B + h * A  # need sqrt(D) <= y
    return y >= 0 and D <= y * y


def reference(a, b, horizon, mode: str = "pair") -> Reference:
    """Exact verdict and high-precision roots of one sweep query."""
    p, v, R, A, B, C, D, fh, ve, h = quantities(a, b, horizon, mode)
    C_out = _dot(p, p) - (frac(a.radius) + frac(b.radius)) ** 2
    roots = _roots(A, B, C, D)
    toi = None
    if mode == "pair":
        if C <= 0:
            status, toi = OVERLAPPING, decimal.Decimal(0)
        elif A == 0:
            status = NO_RELATIVE_MOTION
        elif B >= 0:
            status = SEPARATING
        elif D < 0:
            status = MISS
        elif _first_root_at_most(A, B, D, h):
            status, toi = HIT, roots[0]
        else:
            status = LATER
    else:
        if C >= 0 and C_out > 0:
            status = OUTSIDE
        elif C >= 0:
            status, toi = OVERLAPPING, decimal.Decimal(0)
        elif A == 0:
            status = NO_RELATIVE_MOTION
        elif _second_root_at_most(A, B, D, h):
            status, toi = HIT, roots[1]
        else:
            status = LATER
    return Reference(status, toi, roots, p, v, R, A, B, C, D, fh, ve, h, C_out)


# -- comparing floats with the reference --------------------------------------


def rel_error(x: float | None, exact: decimal.Decimal) -> float:
    """Relative error of float ``x`` against ``exact``, measured against
    ``max(|exact|, TINY)``.  An infinite ``x`` of the right sign counts as exact
    when ``exact`` itself lies beyond the float range.  ``None``/NaN -> inf."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return math.inf
    if math.isinf(x):
        if abs(exact) > decimal.Decimal(DBL_MAX) and (x > 0) == (exact > 0):
            return 0.0
        return math.inf
    err = abs(_CTX.subtract(decimal.Decimal(x), exact))
    scale = max(abs(exact), decimal.Decimal(TINY))
    return float(_CTX.divide(err, scale))


def exact_float(q: Fraction) -> float:
    """Correctly rounded float of an exact rational (+-inf beyond the range)."""
    try:
        return float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def describe(a, b, horizon, mode: str = "pair") -> str:
    """A copy-pasteable repro of one query."""
    fn = "sweep" if mode == "pair" else "sweep_inside"
    return f"{fn}({_body(a)}, {_body(b)}, horizon={horizon!r})"


def _body(x) -> str:
    return f"Body(center={tuple(x.center)!r}, velocity={tuple(x.velocity)!r}, radius={x.radius!r})"


# -- the naive textbook formula, to prove that the families are hard ---------


def naive_hit(a, b, horizon, mode: str = "pair") -> bool:
    """Float64 textbook verdict: a = v.v, b = 2 p.v, c = p.p - R^2,
    t = (-b - sqrt(b^2 - 4ac)) / 2a (the larger root in inside mode)."""
    p = [b.center[i] - a.center[i] for i in range(3)]
    v = [b.velocity[i] - a.velocity[i] for i in range(3)]
    R = a.radius + b.radius if mode == "pair" else b.radius - a.radius
    qa = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
    qb = 2.0 * (p[0] * v[0] + p[1] * v[1] + p[2] * v[2])
    qc = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] - R * R
    if mode == "pair":
        if qc <= 0.0:
            return True
    elif qc >= 0.0:
        return True
    if qa == 0.0:
        return False
    disc = qb * qb - 4.0 * qa * qc
    if not disc >= 0.0:  # also NaN
        return False
    sq = math.sqrt(disc)
    t = (-qb - sq) / (2.0 * qa) if mode == "pair" else (-qb + sq) / (2.0 * qa)
    return bool(0.0 <= t <= horizon)
