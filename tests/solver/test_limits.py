"""The one validation rule (solver.limits): what Body, sweep_many and the helpers
accept, and that every number they promise is finite over the whole accepted range."""

from __future__ import annotations

import itertools
import math
import random

import families as fam
import numpy as np
import pytest
from core import core_sweep

from solver import (
    Body,
    Status,
    collide,
    impact,
    limits,
    ray_sphere,
    reflect,
    ricochet_angle,
    sweep,
    sweep_inside,
    sweep_many,
)

L = limits.MAX_COORDINATE


# -- the rule -------------------------------------------------------------------


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("center", (1e13, 0.0, 0.0), "1e+12"),
        ("center", (0.0, -1.0000001e12, 0.0), "1e+12"),
        ("center", (True, 0.0, 0.0), "number"),
        ("velocity", (0.0, 0.0, 2e12), "1e+12"),
        ("velocity", (1e-200, 0.0, 0.0), "1e-100"),
        ("velocity", (5e-324, 0.0, 0.0), "1e-100"),
        ("velocity", (0.0, False, 0.0), "number"),
        ("radius", 1e-13, "1e-12"),
        ("radius", 2e12, "1e+12"),
        ("radius", True, "number"),
        ("radius", np.bool_(True), "number"),
        ("mass", 1e-13, "1e-12"),
        ("mass", 1e13, "1e+12"),
        ("mass", -math.inf, "finite"),
        ("mass", True, "number"),
        ("mass", "1", "number"),
    ],
)
def test_body_refuses_out_of_range_naming_field_and_range(field, value, words):
    kwargs = {"center": (0.0, 0.0, 0.0), "velocity": (1.0, 0.0, 0.0), "radius": 1.0}
    kwargs[field] = value
    with pytest.raises(ValueError, match=field) as err:
        Body(**kwargs)
    assert words in str(err.value)


def test_the_range_edges_are_accepted():
    b = Body((L, -L, 0.0), (L, -limits.MIN_VELOCITY_COMPONENT, 0.0), limits.MAX_RADIUS, limits.MAX_MASS)
    assert b.center == (L, -L, 0.0)
    assert Body((0.0, 0.0, 0.0), radius=limits.MIN_RADIUS, mass=limits.MIN_MASS).radius == 1e-12
    assert Body((0.0, 0.0, 0.0), mass=math.inf).immovable


@pytest.mark.parametrize("h", [0.0, -1.0, 1e6 * (1 + 1e-15), 1e300, math.inf, True])
def test_horizon_range(h):
    with pytest.raises(ValueError, match="horizon"):
        sweep(Body((0.0, 0.0, 0.0)), Body((5.0, 0.0, 0.0)), h)


def test_check_functions_return_floats():
    assert limits.check_vector([1, 2, 3], "c") == (1.0, 2.0, 3.0)
    assert limits.check_velocity(np.array([0.0, 1e-100, -1e12]), "v") == (0.0, 1e-100, -1e12)
    assert limits.check_radius(np.float32(2.0), "r") == 2.0
    assert limits.check_mass(math.inf, "m") == math.inf
    assert limits.check_horizon(1e6, "h") == 1e6
    assert limits.check_restitution(0, "e") == 0.0
    for fn, bad in ((limits.check_restitution, 1.5), (limits.check_restitution, -0.1), (limits.check_horizon, -0.0)):
        with pytest.raises(ValueError, match="fld"):
            fn(bad, "fld")


# -- sweep_many refuses what Body refuses ------------------------------------------------

GOOD = {
    "a_center": [[0.0, 0.0, 0.0]],
    "a_velocity": [[1.0, 0.0, 0.0]],
    "a_radius": [1.0],
    "b_center": [[5.0, 0.0, 0.0]],
    "b_velocity": [[0.0, 0.0, 0.0]],
    "b_radius": [1.0],
    "horizon": [10.0],
}
BAD_VECTORS = [
    [[1e13, 0.0, 0.0]],
    [[True, 0.0, 0.0]],
    [["1", 0.0, 0.0]],
    np.array([[True, False, True]]),
    [[math.nan, 0.0, 0.0]],
]
BAD_SCALARS = [[1e-13], [True], ["1.0"], np.array([True]), [math.inf], [2e12], "1.0", True, None]


@pytest.mark.parametrize(
    "field, value",
    [(f, v) for f in ("a_center", "b_center", "a_velocity", "b_velocity") for v in BAD_VECTORS]
    + [(f, [[1e-200, 0.0, 0.0]]) for f in ("a_velocity", "b_velocity")]
    + [(f, v) for f in ("a_radius", "b_radius") for v in BAD_SCALARS]
    + [("horizon", v) for v in ([0.0], [2e6], [True], ["1"], [-1.0])],
)
def test_sweep_many_refuses_what_body_refuses(field, value):
    kwargs = dict(GOOD)
    kwargs[field] = value
    with pytest.raises(ValueError, match=field):
        sweep_many(**kwargs)
    body_field = {"center": "center", "velocity": "velocity", "radius": "radius"}.get(field[2:])
    if body_field and not isinstance(value, np.ndarray):  # the same value, given to Body, is refused too
        item = value if not isinstance(value, list) else value[0]
        with pytest.raises(ValueError):
            Body(**{"center": (0.0, 0.0, 0.0), body_field: item})


def test_sweep_many_accepts_what_body_accepts():
    out = sweep_many(**GOOD)
    s = sweep(Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0), Body((5.0, 0.0, 0.0)), 10.0)
    assert out.status[0] == int(s.status) and out.toi[0] == s.toi == 3.0
    edge = dict(GOOD, a_center=[[L, L, L]], b_center=[[-L, 0.0, 0.0]], a_velocity=[[1e-100, 0.0, L]], a_radius=[1e-12])
    assert sweep_many(**edge).status.shape == (1,)


# -- the public API answers exactly as the certified core, wherever it accepts the input --


def _in_limits(a, b, h) -> bool:
    try:
        Body(a.center, a.velocity, a.radius)
        Body(b.center, b.velocity, b.radius)
        limits.check_horizon(h, "horizon")
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("name", list(fam.FAMILIES))
def test_public_api_equals_core_on_the_accepted_part_of_each_family(name):
    mode = fam.mode(name)
    cases = [c for c in fam.cases(name) if _in_limits(*c)]
    public = sweep if mode == "pair" else sweep_inside
    for a, b, h in cases:
        a2, b2 = Body(a.center, a.velocity, a.radius), Body(b.center, b.velocity, b.radius)
        s, t = public(a2, b2, h), core_sweep(a, b, h, mode)
        assert (s.status, s.toi, s.roots) == (t.status, t.toi, t.roots)
    refused = [c for c in fam.cases(name) if not _in_limits(*c)][:20]
    for a, b, h in refused:
        with pytest.raises(ValueError):
            public(Body(a.center, a.velocity, a.radius), Body(b.center, b.velocity, b.radius), h)


# -- no NaN or inf anywhere, at the edges of the accepted range -------------------------------

EDGE_LENGTHS = (0.0, 1e-300, 1e-12, 1.0, 3.0e11, 1e12)
EDGE_SPEEDS = (0.0, 1e-100, 3e-100, 1e-12, 1.0, 1e12)
EDGE_RADII = (1e-12, 1.0, 1e12)
EDGE_HORIZONS = (5e-324, 1e-12, 1.0, 1e6)


def _edge_case(rng: random.Random):
    def vec(values):
        return tuple(rng.choice((-1.0, 1.0)) * rng.choice(values) for _ in range(3))

    a = Body(vec(EDGE_LENGTHS), vec(EDGE_SPEEDS), rng.choice(EDGE_RADII), rng.choice((1e-12, 1.0, 1e12, math.inf)))
    b = Body(vec(EDGE_LENGTHS), vec(EDGE_SPEEDS), rng.choice(EDGE_RADII), rng.choice((1e-12, 1.0, 1e12)))
    return a, b, rng.choice(EDGE_HORIZONS)


def _finite(x) -> bool:
    if x is None:
        return True
    if isinstance(x, (tuple, list)):
        return all(_finite(y) for y in x)
    return math.isfinite(x)


def _all_numbers(s, restitution: float) -> list:
    c = s.closest
    out = [s.toi, s.roots, s.coefficients, s.discriminant, s.gap_at_horizon, s.vertex_test, s.t_min,
           c.time, c.distance, c.gap, s.outside_gap, s.f(0.0), s.f(s.horizon)]  # fmt: skip
    for t in (*(s.roots or ()), *([s.t_min] if s.t_min is not None else [])):
        out.append(s.f(t))
        out.append(s.positions(t))
    if s.contact is not None:
        out += [s.contact.point, s.contact.normal, s.contact.time]
        imp = impact(s, restitution)
        out += [
            imp.time,
            imp.distance,
            imp.normal,
            imp.incoming,
            imp.reflected,
            imp.ricochet_angle,
            imp.a_after,
            imp.b_after,
        ]
    out += [step.value for step in s.trace]
    return out


def test_every_promised_number_is_finite_at_the_edges_of_the_range():
    rng = random.Random(9)
    checked = 0
    for _ in range(3000):
        a, b, h = _edge_case(rng)
        for mode in ("pair", "inside"):
            if mode == "inside":
                if a.radius == b.radius:
                    continue
                ball, box = (a, b) if a.radius < b.radius else (b, a)
                s = sweep_inside(ball, box, h)
            else:
                s = sweep(a, b, h)
            numbers = _all_numbers(s, rng.choice((0.0, 0.5, 1.0)))
            assert all(_finite(x) for x in numbers), f"{s!r}: {numbers}"
            checked += 1
    assert checked > 4000


def test_helpers_are_finite_at_the_edges_and_refuse_beyond():
    rng = random.Random(4)
    speeds = (0.0, 1e-100, 1.0, 1e12)
    for _ in range(2000):
        va = tuple(rng.choice((-1, 1)) * rng.choice(speeds) for _ in range(3))
        vb = tuple(rng.choice((-1, 1)) * rng.choice(speeds) for _ in range(3))
        n = tuple(rng.choice((-1, 1)) * rng.choice((0.0, 5e-324, 1.0, 1.7e308)) for _ in range(3))
        if n == (0.0, 0.0, 0.0) or n == (-0.0, -0.0, -0.0) or not any(n):
            continue
        masses = [rng.choice((1e-12, 1.0, 1e12, math.inf)) for _ in range(2)]
        if masses == [math.inf, math.inf]:
            continue
        out = [reflect(va, n), *collide(va, vb, n, masses[0], masses[1], rng.choice((0.0, 1.0)))]
        if any(va):
            out.append(ricochet_angle(va, n))
        assert all(_finite(x) for x in out), (va, vb, n, masses, out)
    with pytest.raises(ValueError, match="velocity.*1e\\+12"):
        reflect((1e308, 0.0, 0.0), (1.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="a_mass"):
        collide((1.0, 0.0, 0.0), (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1e300, 1.0)
    with pytest.raises(ValueError, match="velocity"):
        sweep(Body((0.0, 0.0, 0.0), (1e155, 0.0, 0.0)), Body((1e155, 1.0, 0.0)))


def test_reflect_keeps_huge_and_tiny_normals():
    assert reflect((3.0, -4.0, 1.0), (0.0, 1e308, 0.0)) == (3.0, 4.0, 1.0)
    assert reflect((3.0, -4.0, 1.0), (0.0, 5e-324, 0.0)) == (3.0, 4.0, 1.0)


def test_ray_sphere_with_a_subnormal_direction():
    hit = ray_sphere((0.0, 0.0, 0.0), (5e-324, 0.0, 0.0), (10.0, 0.0, 0.0), 1.0)
    assert (hit.entry, hit.exit) == (9.0, 11.0)
    hit = ray_sphere((0.0, 0.0, 0.0), (1.7e308, 1.7e308, 0.0), (1e300, 1e300, 0.0), 1.0)
    assert math.isfinite(hit.entry) and hit.exit == pytest.approx(math.sqrt(2) * 1e300 + 1.0, rel=1e-15)
    with pytest.raises(ValueError, match="origin"):
        ray_sphere((1e301, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0)


def test_f_refuses_times_beyond_its_range():
    s = sweep(Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0)), Body((5.0, 0.0, 0.0)))
    assert s.f(1e140) > 0
    for bad in (1e141, math.inf, math.nan, "1"):
        with pytest.raises(ValueError, match="t"):
            s.f(bad)


def test_tiny_relative_velocity_keeps_roots_finite():
    """The smallest accepted velocities, and two of them one ulp apart: roots up to ~1e128."""
    v = limits.MIN_VELOCITY_COMPONENT
    s = sweep(Body((-L, 0.0, 0.0), (v, 0.0, 0.0), 1e-12), Body((L, 0.0, 0.0), (-v, 0.0, 0.0), 1e-12), 1e6)
    assert s.status is Status.LATER and s.roots[0] == pytest.approx(1e112, rel=1e-9)
    s = sweep(
        Body((-L, 0.0, 0.0), (math.nextafter(v, 1.0), 0.0, 0.0), 1e-12), Body((L, 0.0, 0.0), (v, 0.0, 0.0), 1e-12), 1e6
    )
    assert s.status is Status.LATER and 1e127 < s.roots[0] < 1e129
    assert all(_finite(x) for x in _all_numbers(s, 1.0))


# -- a ball entirely outside its container ----------------------------------------------------


def test_ball_entirely_outside_the_container_is_not_a_wall_contact():
    box = Body((0.0, 0.0, 0.0), radius=5.0, mass=math.inf)
    s = sweep_inside(Body((10.0, 0.0, 0.0), (-1.0, 0.0, 0.0), 1.0), box, 1.0)
    assert s.status is Status.OUTSIDE and not s.hit and s.toi is None and s.contact is None
    assert "outside" in s.trace[-1].answer
    # touching the wall from outside, or straddling it: still a contact with the wall at t = 0
    for x in (6.0, 5.5, 4.0):
        s = sweep_inside(Body((x, 0.0, 0.0), (-1.0, 0.0, 0.0), 1.0), box, 1.0)
        assert s.status is Status.OVERLAPPING and s.toi == 0.0
    out = sweep_many(
        [[10.0, 0.0, 0.0], [6.0, 0.0, 0.0]], [-1.0, 0.0, 0.0], 1.0, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], 5.0, inside=True
    )
    assert out.status.tolist() == [int(Status.OUTSIDE), int(Status.OVERLAPPING)] and out.hit.tolist() == [False, True]


def test_outside_is_decided_exactly_one_ulp_from_touching():
    box = Body((0.0, 0.0, 0.0), radius=2.0)
    for x, status in ((3.0, Status.OVERLAPPING), (math.nextafter(3.0, 4.0), Status.OUTSIDE)):
        for axes in itertools.permutations((x, 0.0, 0.0)):
            assert sweep_inside(Body(axes, (0.0, 1.0, 0.0), 1.0), box).status is status
