"""Deterministic generators of *hard* sweep configurations.

Every family is a function ``family(n=..., seed=...) -> list[(a, b, horizon)]``
of ``solver.Body`` triples (``b`` is the container for the ``inside`` families,
see :data:`FAMILIES`).  The configurations sit on or within a few ulps of a
decision boundary: a tangent graze, contact exactly at the horizon, spheres
exactly touching at t = 0, ...  Geometry is chosen first, then the boundary is
hit exactly with the help of exact arithmetic (e.g. a radius is solved for from
the *exact* closest approach of the float centres), then a coordinate, radius or
horizon is nudged by ``k`` ulps with :func:`math.nextafter` (``k = 0`` included).

The truth is always decided by :mod:`reference`, never by the construction:
construction only aims near the boundary.
"""

from __future__ import annotations

import decimal
import functools
import math
import random
from fractions import Fraction

import reference as ref
from core import raw_body

from solver import Body

F = Fraction
_CTX = ref._CTX


# -- small helpers ---------------------------------------------------------------


def ulps(x: float, k: int) -> float:
    """``x`` moved by ``k`` ulps (towards +inf for k > 0)."""
    direction = math.inf if k > 0 else -math.inf
    for _ in range(abs(k)):
        x = math.nextafter(x, direction)
    return x


def log_uniform(rng: random.Random, lo: float, hi: float) -> float:
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def unit(rng: random.Random) -> tuple[float, float, float]:
    while True:
        x, y, z = rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)
        n = math.sqrt(x * x + y * y + z * z)
        if n > 1e-3:
            return (x / n, y / n, z / n)


def perp_unit(rng: random.Random, u) -> tuple[float, float, float]:
    while True:
        w = unit(rng)
        d = w[0] * u[0] + w[1] * u[1] + w[2] * u[2]
        w = (w[0] - d * u[0], w[1] - d * u[1], w[2] - d * u[2])
        n = math.sqrt(w[0] ** 2 + w[1] ** 2 + w[2] ** 2)
        if n > 1e-3:
            return (w[0] / n, w[1] / n, w[2] / n)


def lin(*terms) -> tuple[float, float, float]:
    """Float ``sum(k_i * x_i)`` of (scalar, vector) pairs (rounded, that is fine)."""
    out = [0.0, 0.0, 0.0]
    for k, x in terms:
        for i in range(3):
            out[i] += k * x[i]
    return (out[0], out[1], out[2])


def add(x, y):
    return (x[0] + y[0], x[1] + y[1], x[2] + y[2])


def rand_vec(rng: random.Random, scale: float):
    return (rng.uniform(-scale, scale), rng.uniform(-scale, scale), rng.uniform(-scale, scale))


def nudge_vec(x, i: int, k: int):
    out = list(x)
    out[i] = ulps(out[i], k)
    return tuple(out)


def to_float(d: decimal.Decimal) -> float:
    try:
        return float(d)
    except OverflowError:  # pragma: no cover
        return math.inf if d > 0 else -math.inf


def _fvec(x):
    return (F(x[0]), F(x[1]), F(x[2]))


def _fdot(x, y):
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]


def exact_closest(ca, cb, va, vb) -> tuple[decimal.Decimal, Fraction]:
    """Exact (to ~90 digits) closest distance of the centres' lines, and the
    exact time of closest approach, for float centres and velocities."""
    p = [a - b for a, b in zip(_fvec(cb), _fvec(ca))]
    v = [a - b for a, b in zip(_fvec(vb), _fvec(va))]
    vv = _fdot(v, v)
    pv = _fdot(p, v)
    d2 = _fdot(p, p) - pv * pv / vv
    return _CTX.sqrt(ref._dec(d2)), -pv / vv


def exact_distance(ca, cb) -> decimal.Decimal:
    p = [a - b for a, b in zip(_fvec(cb), _fvec(ca))]
    return _CTX.sqrt(ref._dec(_fdot(p, p)))


def body(c, v=(0.0, 0.0, 0.0), r=1.0) -> Body:
    """A body for the certified core: any finite floats (see :mod:`core`)."""
    return raw_body(c, v, r)


def tuned_pair(ca, cb, va, vb, ra, k, target=None):
    """(a, b) with rB solved so that rA + rB equals ``target`` (default: the
    exact closest approach of the centres' lines) to within half an ulp of rB,
    then nudged by ``k`` ulps.  None when rB would not be positive."""
    if target is None:
        target, _ = exact_closest(ca, cb, va, vb)
    rb = to_float(_CTX.subtract(target, decimal.Decimal(ra)))
    if not rb > 0.0:
        return None
    rb = ulps(rb, k)
    if not (rb > 0.0 and math.isfinite(rb)):
        return None
    return body(ca, va, ra), body(cb, vb, rb)


def scale_case(a: Body, b: Body, h: float, e_len: int, e_vel: int):
    """Exactly scale lengths by 2**e_len, velocities by 2**e_vel and the horizon
    by 2**(e_len - e_vel) (exact unless something leaves the normal range; the
    reference judges the scaled floats anyway).  None when out of range."""

    def s(x, e):
        return math.ldexp(x, e)

    def sv(x, e):
        return (s(x[0], e), s(x[1], e), s(x[2], e))

    try:
        a2 = body(sv(a.center, e_len), sv(a.velocity, e_vel), s(a.radius, e_len))
        b2 = body(sv(b.center, e_len), sv(b.velocity, e_vel), s(b.radius, e_len))
        h2 = s(h, e_len - e_vel)
    except (OverflowError, ValueError):  # out of the float range, or a radius underflowed to 0
        return None
    if not h2 > 0.0:
        return None
    return a2, b2, h2


# Pythagorean quadruples a^2 + b^2 + c^2 = d^2 (c = 0: triples).
QUADS = [
    (1, 2, 2, 3),
    (2, 3, 6, 7),
    (1, 4, 8, 9),
    (4, 4, 7, 9),
    (2, 6, 9, 11),
    (6, 6, 7, 11),
    (3, 4, 12, 13),
    (2, 5, 14, 15),
    (2, 10, 11, 15),
    (1, 12, 12, 17),
    (8, 9, 12, 17),
    (3, 4, 0, 5),
    (5, 12, 0, 13),
    (8, 15, 0, 17),
    (7, 24, 0, 25),
    (20, 21, 0, 29),
    (0, 0, 1, 1),
]


def signed_perm(rng: random.Random, xyz):
    x = list(xyz)
    rng.shuffle(x)
    return tuple(v * rng.choice((-1, 1)) for v in x)


def icross(u, w):
    return (u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0])


def integer_tangent(rng: random.Random, coord: int = 1000):
    """An integer configuration whose closest approach equals R *exactly*
    (discriminant exactly 0), tangent at integer time L.

    Returns (ca, cb, va, vb, ra, rb, L) as floats (all exactly representable).
    """
    while True:
        *w3, d = rng.choice(QUADS)
        k = rng.randint(1, 12)
        w = tuple(k * x for x in signed_perm(rng, w3))
        R = k * d
        m = tuple(rng.randint(-4, 4) for _ in range(3))
        v = icross(w, m)
        g = math.gcd(*v)
        if g == 0:
            continue
        mult = rng.randint(1, 3)
        v = tuple(x // g * mult for x in v)
        L = rng.randint(1, 9)
        p = tuple(w[i] - L * v[i] for i in range(3))
        if R >= 2:
            ra = rng.randint(1, R - 1)
        else:
            ra = 0.5
        rb = R - ra
        ca = tuple(rng.randint(-coord, coord) for _ in range(3))
        cb = tuple(ca[i] + p[i] for i in range(3))
        va = tuple(rng.randint(-20, 20) for _ in range(3))
        vb = tuple(va[i] + v[i] for i in range(3))
        fl = lambda t: tuple(float(x) for x in t)  # noqa: E731
        return fl(ca), fl(cb), fl(va), fl(vb), float(ra), float(rb), float(L)


def float_graze(rng: random.Random, r_lo=0.1, r_hi=10.0, dist=(2.0, 50.0), coord=100.0, vel=5.0):
    """Geometry of a float graze: (ca, cb, va, vb, ra, t_closest); rB is to be
    solved for by :func:`tuned_pair`."""
    ra = log_uniform(rng, r_lo, r_hi)
    rb0 = log_uniform(rng, r_lo, r_hi)
    R0 = ra + rb0
    u = unit(rng)
    w = perp_unit(rng, u)
    L = R0 * log_uniform(rng, *dist)
    tc = rng.uniform(0.2, 0.9)
    s = L / tc
    ca = rand_vec(rng, coord)
    cb = add(ca, lin((-L, u), (R0, w)))
    va = rand_vec(rng, vel)
    vb = add(
        va,
        lin(
            (s, u),
        ),
    )
    return ca, cb, va, vb, ra, tc


# -- the families ------------------------------------------------------------------


def graze(n: int = 1500, seed: int = 101):
    """Near-tangent grazes: closest approach = R exactly, or R +- a few ulps."""
    rng = random.Random(seed)
    out = []
    # the textbook exactly-tangent sample: p = (5, 3, 0), v = (-1, 0, 0), R = 3
    a, b = body((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0), body((5.0, 3.0, 0.0), (-1.0, 0.0, 0.0), 2.0)
    out += [(a, b, 5.0), (a, b, 10.0), (a, b, ulps(5.0, -1)), (a, b, ulps(5.0, 1))]
    while len(out) < n:
        kind = rng.random()
        if kind < 0.35:  # integer exact tangents, optionally nudged and power-of-two scaled
            ca, cb, va, vb, ra, rb, L = integer_tangent(rng)
            h = rng.choice((L, L, 2 * L, L + 0.5, 100.0, L / 2))
            r = rng.random()
            if r < 0.4:
                pass  # exactly tangent
            elif r < 0.6:
                rb = ulps(rb, rng.choice((-2, -1, 1, 2)))
            elif r < 0.8:
                cb = nudge_vec(cb, rng.randrange(3), rng.choice((-2, -1, 1, 2)))
            else:
                va = nudge_vec(va, rng.randrange(3), rng.choice((-1, 1)))
            a, b = body(ca, va, ra), body(cb, vb, rb)
            scaled = scale_case(a, b, h, rng.randint(-30, 30), rng.randint(-30, 30))
            if scaled and rng.random() < 0.3:
                a, b, h = scaled
            out.append((a, b, h))
        elif kind < 0.75:  # float geometry, radius solved from the exact closest approach
            ca, cb, va, vb, ra, tc = float_graze(rng)
            pair = tuned_pair(ca, cb, va, vb, ra, rng.randint(-4, 4))
            if pair:
                out.append((*pair, rng.choice((1.0, 2.0 * tc, 1e6, 0.5 * tc))))
        else:  # float geometry, then a coordinate nudged by k ulps
            ca, cb, va, vb, ra, tc = float_graze(rng)
            pair = tuned_pair(ca, cb, va, vb, ra, 0)
            if not pair:
                continue
            a, b = pair
            k = rng.choice((-8, -4, -2, -1, 1, 2, 4, 8))
            which = rng.randrange(4)
            i = rng.randrange(3)
            if which == 0:
                b = body(nudge_vec(b.center, i, k), b.velocity, b.radius)
            elif which == 1:
                a = body(nudge_vec(a.center, i, k), a.velocity, a.radius)
            elif which == 2:
                b = body(b.center, nudge_vec(b.velocity, i, k), b.radius)
            else:
                a = body(a.center, a.velocity, ulps(a.radius, k))
            out.append((a, b, 1.0))
    return out[:n]


def long_shot(n: int = 1500, seed: int = 202):
    """Small spheres (r ~ 1e-3..1) travelling 1e3..1e7 radii per frame, aimed to
    hit or miss the target by a tiny margin."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        ra = log_uniform(rng, 1e-3, 1.0)
        rb0 = log_uniform(rng, 1e-3, 1.0)
        R0 = ra + rb0
        travel = R0 * 10 ** rng.uniform(3, 7)
        tc = rng.uniform(0.05, 0.95)
        u = unit(rng)
        w = perp_unit(rng, u)
        L = travel * tc
        ca = rand_vec(rng, 10.0)
        va = lin(
            (travel, u),
        )
        if rng.random() < 0.5:  # target at rest
            vb = (0.0, 0.0, 0.0)
        else:  # target drifting too
            vb = rand_vec(rng, R0)
            va = add(va, vb)
        cb = add(ca, lin((L, u), (R0, w)))
        mode = rng.random()
        if mode < 0.6:
            pair = tuned_pair(ca, cb, va, vb, ra, rng.randint(-3, 3))
        elif mode < 0.85:  # margin of a relative 1e-12 .. 1e-16 either way
            d, _ = exact_closest(ca, cb, va, vb)
            eps = rng.choice((-1, 1)) * 10 ** rng.uniform(-16, -12)
            pair = tuned_pair(ca, cb, va, vb, ra, 0, target=_CTX.multiply(d, decimal.Decimal(1 + eps)))
        else:  # tuned, then the target's centre nudged by k ulps
            pair = tuned_pair(ca, cb, va, vb, ra, 0)
            if pair:
                a, b = pair
                pair = (
                    a,
                    body(nudge_vec(b.center, rng.randrange(3), rng.choice((-2, -1, 1, 2))), b.velocity, b.radius),
                )
        if pair:
            out.append((*pair, 1.0))
    return out[:n]


def tiny_gap(n: int = 1000, seed: int = 303):
    """Gaps |p| - R of 1e-12 .. 1e-15 relative (and exactly touching), with tiny
    approach speeds, so that t = 0 contact, HIT, LATER and SEPARATING all meet."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        kind = rng.random()
        ra = log_uniform(rng, 1e-2, 1e2)
        if kind < 0.2:  # exact integer touching, then nudged
            *w3, d = rng.choice(QUADS)
            k = rng.randint(1, 50)
            p = tuple(float(k * x) for x in signed_perm(rng, w3))
            R = k * d
            ra = float(rng.randint(1, R - 1)) if R >= 2 else 0.5
            rb = float(R) - ra
            ca = tuple(float(rng.randint(-100, 100)) for _ in range(3))
            cb = add(ca, p)
            dirn = rng.choice((-1.0, 1.0))
            s = 10 ** rng.uniform(-12, -3)
            va = rand_vec(rng, 1.0)
            vb = add(
                va,
                lin(
                    (dirn * s / d / k, p),
                ),
            )
            r = rng.random()
            if r < 0.3:
                pass
            elif r < 0.65:
                rb = ulps(rb, rng.choice((-3, -1, 1, 3)))
            else:
                cb = nudge_vec(cb, rng.randrange(3), rng.choice((-2, -1, 1, 2)))
            out.append((body(ca, va, ra), body(cb, vb, rb), 1.0))
            continue
        u = unit(rng)
        ca = rand_vec(rng, 10.0)
        cb = add(
            ca,
            lin(
                (ra * rng.uniform(2, 4), u),
            ),
        )
        dist = exact_distance(ca, cb)
        g = 10 ** rng.uniform(-15, -12)
        if rng.random() < 0.15:
            g = -g
        target = _CTX.divide(dist, decimal.Decimal(1 + g))
        speed = float(dist) * abs(g) * 10 ** rng.uniform(-1, 1)  # reaches the gap in ~0.1 .. 10 frames
        va = rand_vec(rng, 1e-3) if rng.random() < 0.5 else (0.0, 0.0, 0.0)
        if kind < 0.6:  # head-on, approaching or receding
            vb = add(
                va,
                lin(
                    (-speed * rng.choice((1, 1, 1, -1)), u),
                ),
            )
        else:  # mostly tangential with a tiny inward component
            w = perp_unit(rng, u)
            vt = speed * 10 ** rng.uniform(0, 4)
            vb = add(va, lin((vt, w), (-speed, u)))
        pair = tuned_pair(ca, cb, va, vb, ra, rng.randint(-2, 2), target=target)
        if pair:
            out.append((*pair, rng.choice((1.0, 0.5, 4.0))))
    return out[:n]


def far(n: int = 1500, seed: int = 404):
    """Grazes and long shots far from the origin (offsets 1e5 .. 1e7 and 1e15),
    where cB - cA and vB - vA are not representable in float."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        offset = rng.choice((1e5, 1e6, 1e7, 1e7, 1e15))
        u0 = unit(rng)
        base = lin(
            (offset * rng.uniform(1, 9), u0),
        )
        kind = rng.random()
        if kind < 0.5:
            ca, cb, va, vb, ra, tc = float_graze(
                rng, r_lo=1e-3 if offset < 1e15 else 1.0, r_hi=10.0 if offset < 1e15 else 1e3
            )
            h = 1.0
        else:  # long shot
            ra = log_uniform(rng, 1e-3, 1.0) if offset < 1e15 else log_uniform(rng, 1.0, 100.0)
            R0 = ra + ra * rng.uniform(0.1, 10)
            travel = R0 * 10 ** rng.uniform(3, 6)
            tc = rng.uniform(0.1, 0.9)
            u = unit(rng)
            w = perp_unit(rng, u)
            ca = (0.0, 0.0, 0.0)
            cb = lin((travel * tc, u), (R0, w))
            vb = (0.0, 0.0, 0.0)
            va = lin(
                (travel, u),
            )
            h = 1.0
        # move everything far away; the bodies' own velocities get a big common part
        ca = add(ca, base)
        cb = add(cb, add(base, rand_vec(rng, 1.0) if rng.random() < 0.2 else (0.0, 0.0, 0.0)))
        if rng.random() < 0.5:
            common = rand_vec(rng, offset * 1e-3)
            va, vb = add(va, common), add(vb, common)
        pair = tuned_pair(ca, cb, va, vb, ra, rng.randint(-3, 3))
        if not pair:
            continue
        a, b = pair
        if rng.random() < 0.25:  # then a coordinate nudged by k ulps
            b = body(nudge_vec(b.center, rng.randrange(3), rng.choice((-1, 1))), b.velocity, b.radius)
        out.append((a, b, h))
    return out[:n]


def at_horizon(n: int = 1000, seed: int = 505):
    """Contact right at the horizon: h = t0 (rounded), then +- k ulps; and the
    contact ending right at the horizon (h = t1 +- k ulps)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        kind = rng.random()
        if kind < 0.2:  # a graze tangent right at the horizon: D ~ 0, t* = h +- ulps
            ca, cb, va, vb, ra, tc = float_graze(rng, coord=rng.choice((10.0, 1e6)))
            pair = tuned_pair(ca, cb, va, vb, ra, rng.randint(-3, 3))
            if not pair:
                continue
            _, t_star = exact_closest(ca, cb, va, vb)
            h = ulps(float(t_star), rng.randint(-3, 3))
            out.append((*pair, h))
            continue
        kind = rng.random()
        if kind < 0.25:  # integer head-on, t0 = (D - R) / s exactly representable
            R = rng.randint(2, 40)
            D = R + rng.randint(1, 200)
            s = 2 ** rng.randint(-4, 6) * rng.choice((1, 3, 5))
            u = signed_perm(rng, (1.0, 0.0, 0.0))
            ra = float(rng.randint(1, R - 1))
            ca = tuple(float(rng.randint(-100, 100)) for _ in range(3))
            cb = add(
                ca,
                lin(
                    (float(D), u),
                ),
            )
            va = tuple(float(rng.randint(-9, 9)) for _ in range(3))
            vb = add(
                va,
                lin(
                    (-float(s), u),
                ),
            )
            a, b = body(ca, va, ra), body(cb, vb, float(R) - ra)
        elif kind < 0.5:  # oblique, moderate
            ca, cb, va, vb, ra, tc = float_graze(rng)
            d, _ = exact_closest(ca, cb, va, vb)
            pair = tuned_pair(ca, cb, va, vb, ra, 0, target=_CTX.multiply(d, decimal.Decimal(rng.uniform(1.05, 3.0))))
            if not pair:
                continue
            a, b = pair
        elif kind < 0.75:  # long shot
            ra = log_uniform(rng, 1e-3, 1.0)
            R0 = ra * rng.uniform(1.5, 5)
            travel = R0 * 10 ** rng.uniform(3, 7)
            u = unit(rng)
            w = perp_unit(rng, u)
            ca = rand_vec(rng, 10.0)
            cb = add(ca, lin((travel * rng.uniform(0.3, 0.9), u), (R0 * rng.uniform(0, 0.99), w)))
            a, b = (
                body(
                    ca,
                    lin(
                        (travel, u),
                    ),
                    ra,
                ),
                body(cb, (0.0, 0.0, 0.0), R0 - ra),
            )
        else:  # far from the origin
            ca, cb, va, vb, ra, tc = float_graze(rng, coord=1e7, vel=1e3)
            d, _ = exact_closest(ca, cb, va, vb)
            pair = tuned_pair(ca, cb, va, vb, ra, 0, target=_CTX.multiply(d, decimal.Decimal(rng.uniform(1.01, 2.0))))
            if not pair:
                continue
            a, b = pair
        r = ref.reference(a, b, 1.0)
        if r.roots is None or not r.roots[0] > 0:
            continue
        # mostly the first contact at the horizon; sometimes the *end* of the
        # contact (the exit root t1) at the horizon, where f(h) ~ 0 but t0 < h
        h0 = to_float(r.roots[0] if rng.random() < 0.75 else r.roots[1])
        if not (0.0 < h0 < math.inf):
            continue
        h = ulps(h0, 0 if rng.random() < 0.3 else rng.randint(-4, 4))
        if h > 0:
            out.append((a, b, h))
    return out[:n]


def bullets(n: int = 1000, seed: int = 606):
    """Fast small spheres through thin gaps and past tiny targets (tunnelling:
    apart at both ends of the frame, in contact mid-frame), hit and miss."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        kind = rng.random()
        rbul = log_uniform(rng, 1e-4, 1e-1)
        speed = rbul * 10 ** rng.uniform(2, 5)
        if kind < 0.4:  # through the gap between two huge walls (one wall per case)
            rw = rbul * 10 ** rng.uniform(2, 6)
            half_gap = ulps(rbul, rng.randint(-3, 3))
            side = rng.choice((-1.0, 1.0))
            y = side * (rw + half_gap)
            x0 = -speed * rng.uniform(0.2, 0.8)
            bullet = body((x0, 0.0, 0.0), (speed, 0.0, 0.0), rbul)
            wall = body((0.0, y, 0.0), (0.0, 0.0, 0.0), rw)
            if rng.random() < 0.5:  # solve the wall radius exactly instead
                pair = tuned_pair(bullet.center, wall.center, bullet.velocity, wall.velocity, rbul, rng.randint(-2, 2))
                if not pair:
                    continue
                bullet, wall = pair
            out.append((bullet, wall, 1.0))
        else:  # a tiny (thin) target, crossed entirely within the frame
            rt = log_uniform(rng, 1e-6, 1e-3)
            u = unit(rng)
            w = perp_unit(rng, u)
            ct = rand_vec(rng, 50.0)
            tc = rng.uniform(0.3, 0.7)
            cbul = add(ct, lin((-speed * tc, u), ((rbul + rt), w)))
            vt = rand_vec(rng, rt) if rng.random() < 0.3 else (0.0, 0.0, 0.0)
            vbul = add(
                lin(
                    (speed, u),
                ),
                vt,
            )
            if kind < 0.8:
                pair = tuned_pair(cbul, ct, vbul, vt, rbul, rng.randint(-3, 3))
            else:
                d, _ = exact_closest(cbul, ct, vbul, vt)
                eps = rng.choice((-1, 1)) * 10 ** rng.uniform(-15, -9)
                pair = tuned_pair(cbul, ct, vbul, vt, rbul, 0, target=_CTX.multiply(d, decimal.Decimal(1 + eps)))
            if pair:
                out.append((*pair, 1.0))
    return out[:n]


def equal_velocity(n: int = 400, seed: int = 707):
    """Both bodies moving with the same velocity (NO_RELATIVE_MOTION unless in
    contact), and velocities one ulp apart."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        mag = 10.0 ** rng.choice((-300, -20, 0, 0, 3, 8, 100, 300))
        vel = rand_vec(rng, mag)
        ca = rand_vec(rng, 10 ** rng.choice((0, 2, 7)))
        u = unit(rng)
        ra = log_uniform(rng, 1e-3, 10)
        rb = log_uniform(rng, 1e-3, 10)
        gap = rng.choice((1.5, 1.0 + 1e-12, 1.0, 1.0 - 1e-12, 0.5, 0.0))
        cb = add(
            ca,
            lin(
                ((ra + rb) * gap, u),
            ),
        )
        vb = vel
        if rng.random() < 0.25:
            vb = nudge_vec(vel, rng.randrange(3), rng.choice((-1, 1)))
        out.append((body(ca, vel, ra), body(cb, vb, rb), rng.choice((1.0, 1e300))))
    return out[:n]


def containers(n: int = 1500, seed: int = 808):
    """A ball inside a container (``sweep_inside``): exit at the horizon +- ulps,
    touching the wall exactly or by ulps, tiny containers, an inexact rC - rA,
    no relative motion, far from the origin."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        kind = rng.random()
        if kind < 0.3:  # exit near the horizon
            rc = log_uniform(rng, 1e-3, 1e3)
            ra = rc * rng.uniform(0.01, 0.95)
            R = rc - ra
            off = rng.choice((0.0, 0.0, 1e5, 1e7))
            cc = add(
                rand_vec(rng, 10.0),
                lin(
                    (off, unit(rng)),
                ),
            )
            cb = add(
                cc,
                lin(
                    (R * rng.uniform(0, 0.99), unit(rng)),
                ),
            )
            vc = rand_vec(rng, R * 10) if rng.random() < 0.5 else (0.0, 0.0, 0.0)
            vb = add(
                vc,
                lin(
                    (R * 10 ** rng.uniform(-2, 4), unit(rng)),
                ),
            )
            ball, cont = body(cb, vb, ra), body(cc, vc, rc)
            r = ref.reference(ball, cont, 1.0, "inside")
            if r.roots is None:
                continue
            h = ulps(to_float(r.roots[1]), rng.randint(-3, 3))
            if h > 0:
                out.append((ball, cont, h))
        elif kind < 0.5:  # touching the wall at t = 0 (exactly, or by ulps)
            *w3, d = rng.choice(QUADS)
            k = rng.randint(1, 40)
            p = tuple(float(k * x) for x in signed_perm(rng, w3))
            ra = float(rng.randint(1, 100)) / rng.choice((1, 2, 4, 1024))
            rc = float(k * d) + ra
            cc = tuple(float(rng.randint(-1000, 1000)) for _ in range(3))
            cb = add(cc, p)
            r = rng.random()
            if r < 0.35:
                pass
            elif r < 0.65:
                ra = ulps(ra, rng.choice((-2, -1, 1, 2)))
            else:
                cb = nudge_vec(cb, rng.randrange(3), rng.choice((-2, -1, 1, 2)))
            vb = rand_vec(rng, 10 ** rng.uniform(-12, 1))
            vc = rand_vec(rng, 1.0) if rng.random() < 0.3 else (0.0, 0.0, 0.0)
            if rc > ra:
                out.append((body(cb, vb, ra), body(cc, vc, rc), 1.0))
        elif kind < 0.65:  # tiny containers, R of a few ulps
            rc = 10 ** rng.uniform(-300, -5)
            ra = ulps(rc, -rng.randint(1, 64)) if rng.random() < 0.5 else rc * rng.uniform(0.5, 0.999)
            R = rc - ra
            cc = rand_vec(rng, rng.choice((rc, 1.0, 1e7)))
            cb = (
                add(
                    cc,
                    lin(
                        (R * rng.uniform(0, 0.9), unit(rng)),
                    ),
                )
                if rng.random() < 0.5
                else cc
            )
            vb = lin(
                (10 ** rng.uniform(math.log10(R) - 3, math.log10(R) + 3), unit(rng)),
            )
            h = rng.choice((1.0, 1e-3))
            if rc > ra:
                out.append((body(cb, vb, ra), body(cc, (0.0, 0.0, 0.0), rc), h))
        elif kind < 0.8:  # rC - rA not representable, ball right at |p| ~ rC - rA
            e = rng.randint(-20, 20)
            rc = math.ldexp(1.0, e) * rng.choice((1.0, 1.5, 3.0))
            ra = math.ldexp(rng.randint(1, 2**20 - 1), e - rng.randint(55, 80))
            u = unit(rng)
            cc = rand_vec(rng, 1.0)
            cb0 = add(
                cc,
                lin(
                    (rc - ra, u),
                ),
            )
            cb = nudge_vec(cb0, rng.randrange(3), rng.randint(-2, 2))
            vb = lin(
                (math.ldexp(1.0, e) * rng.uniform(-1, 1), unit(rng)),
            )
            out.append((body(cb, vb, ra), body(cc, (0.0, 0.0, 0.0), rc), 1.0))
        elif kind < 0.88:  # integer exit exactly at the horizon: t1 = (R - |p| ...) representable
            *v3, speed = rng.choice(QUADS)
            v = tuple(float(x) for x in signed_perm(rng, v3))
            R = speed * rng.randint(1, 20)
            frac_ = rng.choice((0.0, 0.25, 0.5))
            p = tuple(frac_ * R / speed * x for x in v)  # along v: t1 = (R - frac R) / speed
            ra = float(rng.randint(1, 50))
            rc = float(R) + ra
            cc = tuple(float(rng.randint(-1000, 1000)) for _ in range(3))
            cb = add(cc, p)
            vc = tuple(float(rng.randint(-5, 5)) for _ in range(3))
            vb = add(vc, v)
            t1 = (R - frac_ * R) / speed
            h = rng.choice((t1, t1, ulps(t1, -1), ulps(t1, 1)))
            out.append((body(cb, vb, ra), body(cc, vc, rc), h))
        else:  # no relative motion / zero velocity
            rc = log_uniform(rng, 1e-2, 1e2)
            ra = rc * rng.uniform(0.1, 0.9)
            cc = rand_vec(rng, 100.0)
            cb = add(
                cc,
                lin(
                    ((rc - ra) * rng.choice((0.0, 0.5, 1.0, 1.0 - 1e-15, 1.0 + 1e-15)), unit(rng)),
                ),
            )
            vel = rand_vec(rng, 10 ** rng.choice((-300, 0, 300))) if rng.random() < 0.7 else (0.0, 0.0, 0.0)
            vb = vel if rng.random() < 0.8 else nudge_vec(vel, rng.randrange(3), 1)
            out.append((body(cb, vb, ra), body(cc, vel, rc), 1.0))
    return out[:n]


def seed004():
    """The seed-004 sample and a few textbook cases."""
    s = 3.0 / math.sqrt(3.0)  # 3 units/frame towards (4, 4, 4)
    ball = body((0.0, 0.0, 0.0), (s, s, s), 4.0)
    sphere = body((4.0, 4.0, 0.0), (0.0, 0.0, 0.0), 4.0)
    return [
        (ball, sphere, 1.0),
        (sphere, ball, 1.0),
        (body((0.0, 0.0, 0.0), (10.0, 0.0, 0.0), 1.0), body((5.0, 0.0, 0.0)), 1.0),  # docstring: HIT at 0.3
        (body((0.0, 0.0, 0.0)), body((5.0, 3.0, 0.0), (-1.0, 0.0, 0.0), 2.0), 5.0),  # tangent at the horizon
    ]


def zero_and_perpendicular(n: int = 600, seed: int = 909):
    """Zero velocities, motion exactly perpendicular to p (p.v = 0), and nearly
    perpendicular by an ulp, next to touching so that the sign of p.v decides."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        kind = rng.random()
        p = tuple(float(rng.randint(-50, 50)) for _ in range(3))
        if rng.random() < 0.2:  # axis-aligned: every product p_i v_i is zero
            i, j = rng.sample(range(3), 2)
            p = tuple(float(rng.randint(1, 50)) * rng.choice((-1, 1)) if k == i else 0.0 for k in range(3))
            m = tuple(0.0 if k == i else (1.0 if k == j else float(rng.randint(-3, 3))) for k in range(3))
            if kind >= 0.15:
                kind = 0.3  # exactly perpendicular, p.v = 0
        if p == (0.0, 0.0, 0.0):
            continue
        ca = tuple(float(rng.randint(-100, 100)) for _ in range(3))
        cb = add(ca, p)
        pn = math.sqrt(sum(x * x for x in p))
        R = pn * rng.choice((0.5, 1.0 - 1e-13, 1.0 - 1e-15, 1.0 + 1e-15, 1.0 + 1e-13, 2.0))
        ra = R * rng.uniform(0.1, 0.9)
        rb = R - ra
        if kind < 0.15:  # nobody moves
            va = vb = (0.0, 0.0, 0.0)
        else:
            if not any(x == 0.0 for x in p) or kind != 0.3:
                m = tuple(float(rng.randint(-5, 5)) for _ in range(3))
            v = icross(p, m) if kind != 0.3 else m
            if v == (0.0, 0.0, 0.0):
                continue
            va = tuple(float(rng.randint(-10, 10)) for _ in range(3))
            vb = add(va, v)
            if kind > 0.5:  # then nearly perpendicular
                vb = nudge_vec(vb, rng.randrange(3), rng.choice((-2, -1, 1, 2)))
        if rb > 0:
            out.append((body(ca, va, ra), body(cb, vb, rb), rng.choice((1.0, 100.0))))
        if rng.random() < 0.5:  # float p and v, perpendicular up to rounding: p.v ~ +-u |p||v|
            scale = 10.0 ** rng.uniform(-3, 3)
            p = lin(
                (scale, unit(rng)),
            )
            v = icross(
                p,
                lin(
                    (10.0 ** rng.uniform(-3, 3), unit(rng)),
                ),
            )
            ca = rand_vec(rng, rng.choice((1.0, 1e4, 1e7)))
            cb = add(ca, p)
            va = rand_vec(rng, rng.choice((0.0, 1.0, 1e3)))
            vb = add(va, v)
            dist = float(exact_distance(ca, cb))
            R = dist * rng.choice((0.5, 0.999, 1.001, 2.0))
            ra = R * rng.uniform(0.1, 0.9)
            out.append((body(ca, va, ra), body(cb, vb, R - ra), 1.0))
    return out[:n]


def extreme(n: int = 1500, seed: int = 1010):
    """Extreme magnitudes: grazes scaled to 1e-150 and 1e150, subnormal
    velocities, coordinates near 1e300 (p, v and R overflow in float), roots
    beyond the float range, tiny and huge horizons."""
    rng = random.Random(seed)
    out = []
    base = graze(200, seed + 1) + tiny_gap(100, seed + 2) + at_horizon(100, seed + 3)
    while len(out) < n:
        kind = rng.random()
        if kind < 0.4:  # hard configurations, scaled by powers of two (exact)
            a, b, h = rng.choice(base)
            e_len = rng.choice((-500, -498, 498, 500, -1000, 950)) + rng.randint(-3, 3)
            e_vel = rng.choice((e_len, e_len, -500, 500, 0)) + rng.randint(-3, 3)
            scaled = scale_case(a, b, h, e_len, e_vel)
            if scaled:
                out.append(scaled)
        elif kind < 0.55:  # subnormal velocities against tiny geometry
            sub = 2.0**-1074
            v = tuple(sub * rng.randint(-(2**20), 2**20) for _ in range(3))
            ra = math.ldexp(rng.uniform(1, 2), -1040 + rng.randint(-20, 20))
            rb = ra * rng.uniform(0.1, 3)
            u = unit(rng)
            gap = rng.choice((1.0, 1.001, 1.5, 10.0))
            ca = rand_vec(rng, ra)
            cb = add(
                ca,
                lin(
                    ((ra + rb) * gap, u),
                ),
            )
            if rng.random() < 0.5:  # aim the subnormal velocity at the target
                v = lin(
                    (-math.ldexp(rng.uniform(1, 2), -1050), u),
                )
            out.append((body(ca, (0.0, 0.0, 0.0), ra), body(cb, v, rb), rng.choice((1.0, 1e10, 1e300))))
        elif kind < 0.75:  # near the top of the float range
            big = 10.0 ** rng.uniform(300, 308.2)
            ca = tuple(-big * rng.uniform(0.5, 1.0) for _ in range(3))
            cb = tuple(big * rng.uniform(0.5, 1.0) * rng.choice((1, 1, -1)) for _ in range(3))
            ra = 10.0 ** rng.uniform(300, 308.25)
            rb = 10.0 ** rng.uniform(300, 308.25)
            va = tuple(10.0 ** rng.uniform(290, 308.2) * rng.choice((-1, 1)) for _ in range(3))
            vb = tuple(-x * rng.uniform(0.5, 1.0) for x in va)
            h = rng.choice((1.0, 1e-300, 5e-324, 1e300))
            if rng.random() < 0.5:  # aim at a graze
                pair = tuned_pair(ca, cb, va, vb, ra, rng.randint(-2, 2))
                if not pair:
                    continue
                a, b = pair
            else:
                a, b = body(ca, va, ra), body(cb, vb, rb)
            out.append((a, b, h))
        elif kind < 0.9:  # roots far beyond the float range, or tiny
            ca = rand_vec(rng, 10.0 ** rng.uniform(-300, 300))
            u = unit(rng)
            R = 10.0 ** rng.uniform(-300, 300)
            cb = add(
                ca,
                lin(
                    (R * rng.uniform(1.001, 3), u),
                ),
            )
            vb = lin((-(10.0 ** rng.uniform(-320, 300)), u), (10.0 ** rng.uniform(-320, 300), perp_unit(rng, u)))
            out.append((body(ca, (0.0, 0.0, 0.0), R / 2), body(cb, vb, R / 2), 10.0 ** rng.uniform(-320, 300)))
        else:  # subnormal radii, positions and horizon
            sub = 2.0**-1074
            ca = tuple(sub * rng.randint(-50, 50) for _ in range(3))
            cb = tuple(sub * rng.randint(-50, 50) for _ in range(3))
            vb = tuple(sub * rng.randint(-50, 50) for _ in range(3))
            out.append(
                (
                    body(ca, (0.0, 0.0, 0.0), sub * rng.randint(1, 30)),
                    body(cb, vb, sub * rng.randint(1, 30)),
                    rng.choice((1.0, 0.5, 3.0)),
                )
            )
    return out[:n]


#: name -> (generator, mode); the generators take no required arguments.
FAMILIES = {
    "graze": (graze, "pair"),
    "long_shot": (long_shot, "pair"),
    "tiny_gap": (tiny_gap, "pair"),
    "far": (far, "pair"),
    "at_horizon": (at_horizon, "pair"),
    "bullets": (bullets, "pair"),
    "equal_velocity": (equal_velocity, "pair"),
    "containers": (containers, "inside"),
    "seed004": (seed004, "pair"),
    "zero_and_perpendicular": (zero_and_perpendicular, "pair"),
    "extreme": (extreme, "pair"),
}


@functools.lru_cache(maxsize=None)
def cases(name: str) -> tuple:
    """The (cached) cases of family ``name``."""
    return tuple(FAMILIES[name][0]())


def mode(name: str) -> str:
    return FAMILIES[name][1]
