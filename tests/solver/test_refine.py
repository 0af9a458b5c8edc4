"""The compiled exact stage (floating-point expansions) agrees with the integer path.

Every verdict it gives must be the integer path's, and its times within twice the
proved accuracy (TIME_RTOL) of the correctly rounded ones: its roots are the filter's
proved ones where they exist, else from quantities good to a few ulps.  What it
hands on must be the exception.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import families as fam
import motion_families as mf
import numpy as np
import pytest
from core import refine_inputs

from solver import simulate
from solver._compile import compiling
from solver._events import event_exact
from solver._exact import classify_exact
from solver._expansion import CO, DISC, FH, PV, VE, VV, C, in_exact_range, quantity, scratch
from solver._filter import finish
from solver._refine import refine_events, refine_sweeps
from solver.tolerances import TIME_RTOL

pytestmark = pytest.mark.skipif(not compiling(), reason="the expansion stage runs compiled only")

RTOL = 2 * TIME_RTOL


def _close(x: float, y: float) -> bool:
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return x == y or abs(x - y) <= RTOL * max(abs(x), abs(y), 2.0**-1022)


@pytest.mark.parametrize("name", list(fam.FAMILIES))
def test_sweep_verdicts_and_times_equal_the_integer_path(name):
    cases = fam.cases(name)
    inside = fam.mode(name) == "inside"
    n = len(cases)
    ca, va, ra, cb, vb, rb, h = refine_inputs(cases)
    hit, toi, lo, hi = np.empty(n, bool), np.empty(n), np.empty(n), np.empty(n)
    status, left = np.empty(n, np.int8), np.empty(n, bool)
    refine_sweeps(ca, va, ra, cb, vb, rb, h, inside, np.arange(n), hit, toi, lo, hi, status, left)
    decided = 0
    for i, (a, b, hh) in enumerate(cases):
        if left[i]:
            continue
        decided += 1
        out = classify_exact(*a.center, *a.velocity, a.radius, *b.center, *b.velocity, b.radius, hh, inside)
        assert status[i] == out[0], f"{name} case {i}: status {status[i]}, integers {out[0]}"
        t, t_lo, t_hi = finish(out[0], out[1], out[2], hh, inside)
        for got, want in ((toi[i], t), (lo[i], t_lo), (hi[i], t_hi)):
            assert _close(got, want), f"{name} case {i}: times {(toi[i], lo[i], hi[i])}, integers {(t, t_lo, t_hi)}"
    in_range = sum(
        all(
            x == 0 or 2.0**-200 <= abs(x) <= 2.0**200
            for x in (*a.center, *a.velocity, a.radius, *b.center, *b.velocity, b.radius, hh)
        )
        for a, b, hh in cases
    )
    assert decided >= in_range * 0.99, f"{name}: decided {decided} of {in_range} in range"


def test_motion_events_equal_the_integer_path():
    """Every pair of every frame of the adversarial motion families; only inputs outside
    the expansions' range (the ulp-nudged zeros of these families: subnormal offsets) are handed on."""
    checked = handed_on = 0
    for case in mf.cradle(150, seed=41) + mf.wall_start(150, seed=42) + mf.jam(100, seed=43) + mf.grazes(100, seed=44):
        m = simulate(case.bodies, case.horizon, case.restitution, case.container, max_events=case.max_events)
        n = len(m.bodies)
        pairs = [(i, j, False) for i in range(n) for j in range(i + 1, n)]
        if m.container is not None:
            pairs += [(i, n, True) for i in range(n)]
        I = np.array([p[0] for p in pairs], dtype=np.int64)
        J = np.array([p[1] for p in pairs], dtype=np.int64)
        inside = np.array([p[2] for p in pairs], dtype=np.bool_)
        R = np.array([b.radius for b in m.bodies] + ([m.container.radius] if m.container else []))
        for f in m.frames:
            left = m.horizon - f.t_start
            if left <= 0:
                continue
            kind, dt, still = np.zeros(len(pairs), np.int8), np.zeros(len(pairs)), np.zeros(len(pairs), bool)
            X, V = np.array(f.centers), np.array(f.velocities)
            refine_events(X, V, R, I, J, inside, left, np.arange(len(pairs)), kind, dt, still)
            for p, (i, j, wall) in enumerate(pairs):
                args = (*f.centers[i], *f.velocities[i], float(R[i]), *f.centers[j], *f.velocities[j], float(R[j]),
                        left, wall)  # fmt: skip
                if still[p]:
                    handed_on += bool(in_exact_range(np.array(args[:-1] + (0.0,))))
                    continue
                k, t = event_exact(*args)
                assert (kind[p], True) == (k, _close(dt[p], t)), (
                    f"{case}: pair {(i, j)} refine {(kind[p], dt[p])}, integers {(k, t)}"
                )
                checked += 1
    assert checked > 10_000 and handed_on == 0


def _exact_quantities(x):
    cax, cay, caz, vax, vay, vaz, ra, cbx, cby, cbz, vbx, vby, vbz, rb, h = map(Fraction, x[:15])
    inside = x[15]
    p = (cbx - cax, cby - cay, cbz - caz)
    v = (vbx - vax, vby - vay, vbz - vaz)
    R = rb - ra if inside else ra + rb
    dot = lambda a, b: a[0] * b[0] + a[1] * b[1] + a[2] * b[2]  # noqa: E731
    w = (p[1] * v[2] - p[2] * v[1], p[2] * v[0] - p[0] * v[2], p[0] * v[1] - p[1] * v[0])
    e = tuple(p[k] + v[k] * h for k in range(3))
    return {
        C: dot(p, p) - R * R,
        CO: dot(p, p) - (ra + rb) ** 2,
        PV: dot(p, v),
        VV: dot(v, v),
        DISC: dot(v, v) * R * R - dot(w, w),
        FH: dot(e, e) - R * R,
        VE: dot(v, e),
    }


def test_expansion_quantities_are_exact_on_cancelling_inputs():
    """Inputs built so that the quantities cancel (exact touching, tangents, contact at
    the horizon, then a few ulps off): the sign is the exact one, the value within a few ulps."""
    rng = random.Random(5)
    buf, lengths, _ = scratch()
    for _ in range(3000):
        scale = 2.0 ** rng.randint(-60, 60)
        a = tuple(rng.choice((0.0, rng.uniform(-10, 10))) * scale for _ in range(3))
        d = tuple(rng.uniform(-3, 3) * scale for _ in range(3))
        b = tuple(x + y for x, y in zip(a, d))
        ra = rng.uniform(0.1, 1.0) * scale
        rb = math.dist(a, b) - ra if rng.random() < 0.5 else rng.uniform(0.1, 2.0) * scale
        if rb <= 0:
            continue
        rb = fam.ulps(rb, rng.randint(-2, 2))
        va = tuple(rng.choice((0.0, rng.gauss(0, 1))) for _ in range(3))
        vb = tuple(rng.choice((0.0, rng.gauss(0, 1))) for _ in range(3))
        h = rng.choice((1.0, 0.5, rng.uniform(0.1, 3.0)))
        x = (*a, *va, ra, *b, *vb, rb, h, rng.random() < 0.3)
        exact = _exact_quantities(x)
        for which, value in exact.items():
            sign, near, ok = quantity(which, buf, lengths, np.array(x, dtype=np.float64))
            assert ok
            assert sign == (value > 0) - (value < 0), (which, x)
            assert near == float(value) or abs(near - float(value)) <= 1e-15 * abs(float(value)), (
                which,
                x,
                near,
                float(value),
            )
