"""Deterministic generators of motions to check: random and adversarial families.

Each family is ``family(n, seed) -> list of Case``.  The adversarial ones put
bodies on a decision boundary: exactly touching (Newton's cradle, a rack),
exactly on a container wall, exactly tangent, jammed between fixed spheres,
then nudged by a few ulps either way; others move everything far from the
origin or to extreme scales.  The truth is always decided by
:mod:`motion_reference`, never by the construction.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from solver import Body

INF = math.inf


@dataclass(frozen=True)
class Case:
    bodies: tuple
    container: Body | None
    horizon: float
    restitution: float
    max_events: int = 40


def ulps(x: float, k: int) -> float:
    d = math.inf if k > 0 else -math.inf
    for _ in range(abs(k)):
        x = math.nextafter(x, d)
    return x


def unit(rng):
    while True:
        v = [rng.gauss(0, 1) for _ in range(3)]
        n = math.sqrt(sum(x * x for x in v))
        if n > 1e-3:
            return tuple(x / n for x in v)


def axis_or_random(rng):
    """A unit direction: along an axis (exact arithmetic) or random (rounding everywhere)."""
    if rng.random() < 0.4:
        k = rng.randrange(3)
        s = rng.choice((-1.0, 1.0))
        return tuple(s if i == k else 0.0 for i in range(3))
    return unit(rng)


def add(a, b, k=1.0):
    return tuple(x + k * y for x, y in zip(a, b))


def restitution(rng):
    return rng.choice((1.0, 1.0, 0.9, 0.5, 0.0))


def mass(rng):
    return rng.choice((1.0, 1.0, 2.0, 0.25, 10.0 ** rng.uniform(-3, 3)))


def shift(case: Case, offset, scale=1.0, speed=1.0) -> Case | None:
    """The case moved by ``offset`` and scaled (lengths by ``scale``, velocities by ``speed``)."""

    def body(b):
        return Body(
            add(tuple(scale * x for x in b.center), offset),
            tuple(speed * x for x in b.velocity),
            scale * b.radius,
            b.mass,
        )

    try:
        bodies = tuple(body(b) for b in case.bodies)
        box = None if case.container is None else body(case.container)
        return Case(
            bodies, box, case.horizon * scale / speed if speed else case.horizon, case.restitution, case.max_events
        )
    except ValueError:
        return None


# -- random families ---------------------------------------------------------------


def _place(rng, count, radius_of, inside_radius, box):
    """Non-overlapping centres for ``count`` balls (in a container of ``inside_radius`` or a cube ``box``)."""
    out = []
    for _ in range(count):
        r = radius_of()
        for _ in range(200):
            if inside_radius:
                c = tuple(rng.uniform(-1, 1) * (inside_radius - r) for _ in range(3))
                if math.dist(c, (0, 0, 0)) > inside_radius - r:
                    continue
            else:
                c = tuple(rng.uniform(-box, box) for _ in range(3))
            if all(math.dist(c, oc) > r + orr for oc, orr in out):
                out.append((c, r))
                break
    return out


def gas(n: int, seed: int = 1) -> list[Case]:
    """2 to 5 balls in a container (fixed, or moving with a finite mass)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        rc = rng.uniform(2.0, 20.0)
        placed = _place(rng, rng.randint(1, 5), lambda: rc * rng.uniform(0.05, 0.3), rc, 0)  # noqa: B023 (used in this pass)
        bodies = tuple(Body(c, tuple(rng.gauss(0, rc) for _ in range(3)), r, mass(rng)) for c, r in placed)
        if rng.random() < 0.2:
            box = Body((0.0, 0.0, 0.0), tuple(rng.gauss(0, rc / 4) for _ in range(3)), rc, rng.choice((5.0, 50.0)))
        else:
            box = Body((0.0, 0.0, 0.0), radius=rc, mass=INF)
        out.append(Case(bodies, box, rng.uniform(0.3, 2.0), restitution(rng), 20))
    return out


def free(n: int, seed: int = 2) -> list[Case]:
    """2 to 5 balls aimed at a common point; some fixed; masses over six decades."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        placed = _place(rng, rng.randint(2, 5), lambda: rng.uniform(0.2, 2.0), 0, 8.0)
        target = tuple(rng.uniform(-1, 1) for _ in range(3))
        bodies = []
        for c, r in placed:
            fixed = rng.random() < 0.2
            aim = add(target, c, -1.0)
            speed = rng.uniform(0.5, 4.0)
            v = (
                (0.0, 0.0, 0.0)
                if fixed and rng.random() < 0.7
                else add(tuple(speed * x for x in aim), tuple(rng.gauss(0, 0.3) for _ in range(3)))
            )
            bodies.append(Body(c, v, r, INF if fixed else mass(rng)))
        out.append(Case(tuple(bodies), None, rng.uniform(1.0, 4.0), restitution(rng), 30))
    return out


# -- adversarial families ---------------------------------------------------------------


def cradle(n: int, seed: int = 3) -> list[Case]:
    """Newton's cradle: a row of balls touching (exactly along an axis, to rounding otherwise,
    or nudged by ulps), struck at one end."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        u = axis_or_random(rng)
        r = rng.choice((1.0, 0.5, 0.1, rng.uniform(0.1, 2.0)))
        k = rng.randint(2, 6)
        origin = tuple(rng.choice((0.0, rng.uniform(-5, 5))) for _ in range(3))
        bodies = []
        for m in range(k):
            c = add(origin, u, 2.0 * r * m)
            if m and rng.random() < 0.3:
                i = rng.randrange(3)
                c = tuple(ulps(x, rng.randint(-3, 3)) if q == i else x for q, x in enumerate(c))
            bodies.append(Body(c, (0.0, 0.0, 0.0), r, rng.choice((1.0, 1.0, mass(rng)))))
        striker = Body(
            add(origin, u, -2.0 * r - rng.choice((0.0, r, 3.0 * r))),
            tuple(rng.uniform(0.5, 3.0) * x for x in u),
            r,
            1.0,
        )
        # one case in twenty-five may run long enough for the jam rule (16 impulses per body at one instant)
        out.append(Case((striker, *bodies), None, rng.uniform(1.0, 3.0), rng.choice((1.0, 1.0, 0.5, 0.0)),
                        150 if rng.random() < 0.04 else 16))  # fmt: skip
    return out


def rack(n: int, seed: int = 4, rows: int = 2) -> list[Case]:
    """A break: a triangle of ``rows`` rows (touching, or gaps of 1e-15 .. 1e-3 either way) and a cue ball."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        r = 1.0
        gap = rng.choice((0.0, 0.0, 1e-15, -1e-15, 1e-9, 1e-3))
        d = 2.0 * r * (1.0 + gap)
        bodies = [
            Body(
                (-6.0, rng.uniform(-0.3, 0.3), rng.choice((0.0, 0.01))),
                (rng.uniform(5, 30), rng.gauss(0, 0.5), 0.0),
                r,
                1.0,
            )
        ]
        for row in range(rows):
            for k in range(row + 1):
                bodies.append(Body((row * d * math.sqrt(3) / 2, (k - row / 2) * d, 0.0), (0.0, 0.0, 0.0), r, 1.0))
        out.append(Case(tuple(bodies), None, 1.0, rng.choice((1.0, 1.0, 0.9)), 60))
    return out


def wall_start(n: int, seed: int = 5) -> list[Case]:
    """A ball on (or a few ulps from) its container's wall, moving in, along, out or anyhow."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        rc = rng.choice((2.0, 3.0, 10.0, rng.uniform(1.0, 10.0)))
        r = rng.choice((0.5, 1.0, rc * rng.uniform(0.05, 0.9)))
        u = axis_or_random(rng)
        c = tuple((rc - r) * x for x in u)
        if rng.random() < 0.4:
            i = rng.randrange(3)
            c = tuple(ulps(x, rng.randint(-4, 4)) if q == i else x for q, x in enumerate(c))
        how = rng.randrange(4)
        speed = rng.uniform(0.2, 5.0)
        if how == 0:
            v = tuple(-speed * x for x in u)
        elif how == 1:
            w = unit(rng)
            dot = sum(a * b for a, b in zip(w, u))
            v = tuple(speed * (a - dot * b) for a, b in zip(w, u))
        elif how == 2:
            v = tuple(speed * x for x in u)
        else:
            v = tuple(rng.gauss(0, speed) for _ in range(3))
        box = Body((0.0, 0.0, 0.0), radius=rc, mass=INF)
        out.append(Case((Body(c, v, r, 1.0),), box, rng.uniform(1.0, 12.0), rng.choice((1.0, 1.0, 0.5, 0.0)), 40))
    return out


def jam(n: int, seed: int = 6) -> list[Case]:
    """A ball between two fixed spheres, touching both (exactly along an axis, to rounding
    otherwise, or a few ulps apart), moving along the line or obliquely."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        u = axis_or_random(rng)
        r, rb = rng.choice((1.0, 0.5)), rng.choice((1.0, 2.0))
        c = tuple(rng.choice((0.0, rng.uniform(-3, 3))) for _ in range(3))
        b1 = add(c, u, r + rb)
        b2 = add(c, u, -(r + rb))
        if rng.random() < 0.5:
            i = rng.randrange(3)
            b1 = tuple(ulps(x, rng.randint(-3, 3)) if q == i else x for q, x in enumerate(b1))
        speed = rng.uniform(0.1, 3.0)
        v = (
            tuple(speed * x for x in u)
            if rng.random() < 0.5
            else add(tuple(speed * x for x in u), unit(rng), rng.uniform(0, 1))
        )
        bodies = (Body(c, v, r, 1.0), Body(b1, radius=rb, mass=INF), Body(b2, radius=rb, mass=INF))
        out.append(
            Case(bodies, None, rng.uniform(0.5, 2.0), rng.choice((1.0, 0.5, 0.0)), 100 if rng.random() < 0.1 else 16)
        )
    return out


def grazes(n: int, seed: int = 7) -> list[Case]:
    """Two balls whose relative path is exactly tangent (integer geometry), or a few ulps off."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        # A at the origin moving along x at speed L; B at (L/2, R, 0) for R = rA + rB: exactly tangent
        ra, rb = rng.randint(1, 5) * 0.5, rng.randint(1, 5) * 0.5
        L = float(rng.randint(4, 40))
        y = ra + rb
        if rng.random() < 0.6:
            y = ulps(y, rng.randint(-3, 3))
        perm = rng.sample(range(3), 3)

        def place(x, perm=perm):
            return tuple(x[perm[i]] for i in range(3))

        a = Body(place((0.0, 0.0, 0.0)), place((L, 0.0, 0.0)), ra, 1.0)
        b = Body(place((L / 2, y, 0.0)), place((rng.choice((0.0, -L / 4)), 0.0, 0.0)), rb, rng.choice((1.0, INF)))
        out.append(Case((a, b), None, rng.choice((1.0, 0.5, 2.0)), rng.choice((1.0, 0.0)), 10))
    return out


def far(n: int, seed: int = 8) -> list[Case]:
    """The gas and free families moved far from the origin (1e6 .. 1e11)."""
    rng = random.Random(seed)
    base = gas(n, seed + 100) + free(n, seed + 200)
    rng.shuffle(base)
    out = []
    for case in base:
        moved = shift(case, tuple(rng.choice((1.0, -1.0)) * 10.0 ** rng.uniform(6, 11) for _ in range(3)))
        if moved is not None:
            out.append(moved)
    return out[:n]


def scales(n: int, seed: int = 9) -> list[Case]:
    """The gas and free families scaled: lengths by 1e-9 .. 1e9, velocities by their own factor."""
    rng = random.Random(seed)
    base = gas(n, seed + 100) + free(n, seed + 200)
    rng.shuffle(base)
    out = []
    for case in base:
        s = rng.choice((2.0 ** rng.randint(-30, 30), 10.0 ** rng.uniform(-9, 9)))
        moved = shift(case, (0.0, 0.0, 0.0), s, rng.choice((s, s * 10.0 ** rng.uniform(-3, 3))))
        if moved is not None and moved.horizon <= 1e6:
            out.append(moved)
    return out[:n]


FAMILIES = {
    "gas": gas,
    "free": free,
    "cradle": cradle,
    "rack": rack,
    "wall_start": wall_start,
    "jam": jam,
    "grazes": grazes,
    "far": far,
    "scales": scales,
}
