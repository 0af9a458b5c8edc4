"""Certified event-driven motion (solver.simulate, bounce_path) against the exact
reference of motion_reference.py, on random and adversarial families, plus the
cases the issue named and the documented rules."""

from __future__ import annotations

import math
import sys
import time

import motion_families as mf
import numpy as np
import pytest
import sizes
from motion_reference import check_motion

from solver import Body, _compile, bounce_path, simulate, sweep
from solver import motion as motion_module
from solver._events import NONE, event_exact, events_kernel

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

INF = math.inf
#: Cases per family: thousands (more in a full run, ``--full``).
CASES = sizes.motion_cases()


def run(case: mf.Case):
    return simulate(case.bodies, case.horizon, case.restitution, case.container, max_events=case.max_events)


def failures(cases) -> list[str]:
    out = []
    for case in cases:
        problems = check_motion(run(case))
        if problems:
            out.append(f"{case}: {problems[:3]}")
    return out


@pytest.mark.parametrize("name", list(mf.FAMILIES))
def test_family_against_the_exact_reference(name):
    cases = mf.FAMILIES[name](CASES)
    assert len(cases) == CASES
    bad = failures(cases)
    assert not bad, f"{len(bad)} of {len(cases)} {name} motions break an invariant; first: {bad[0]}"


def test_full_breaks_against_the_exact_reference():
    """Five-row racks (15 balls and the cue ball), the gaps exact, +-1e-15, 1e-9 or 1e-3."""
    bad = failures(mf.rack(24, seed=11, rows=5))
    assert not bad, bad[0]


def test_bounce_paths_against_the_exact_reference():
    """bounce_path: only A collides; its motion obeys the same invariants."""
    for case in mf.free(200, seed=12) + mf.gas(200, seed=13):
        if case.container is not None:
            path = bounce_path(case.bodies[0], case.container, case.horizon, case.restitution, inside=True)
        else:
            path = bounce_path(case.bodies[0], case.bodies[1:], case.horizon, case.restitution)
        problems = check_motion(path.motion, first_only=True)
        assert not problems, f"{case}: {problems[:3]}"
        assert len(path.segments) == len(path.bounces) + 1 and path.end == path.motion.end


def _summary(motion) -> tuple:
    """Everything a motion decided, as plain values: each event's time, pair, kind, bodies, impulse and
    contact (bitwise, through repr), the frame times, and the stop."""
    events = tuple(
        (
            repr(e.time),
            e.pair,
            e.kind,
            e.bodies,
            repr(np.asarray(e.impulse).tolist()),
            repr(np.asarray(e.point).tolist()),
        )
        for e in motion.events
    )
    return events, tuple(repr(f.t_end) for f in motion.frames), motion.stopped, motion.stop_kind


@pytest.mark.parametrize("name", list(mf.FAMILIES))
def test_the_plain_python_pair_search_decides_the_same_motion(monkeypatch, name):
    """Without numba the motion tests only the pairs an array proof does not rule out, soonest first by a
    lower bound on their time (what the window and ``solve`` run).  Each family's motions must be the
    ones the compiled loop over every pair gives, bit for bit, and pass the exact reference.  Both decide
    the pairs the float filter leaves unsure with integers (the compiled expansion stage is right within
    its proved accuracy, not bit for bit the same: a few ulps, and a chaotic gas then diverges)."""
    cases = mf.FAMILIES[name](max(CASES // 10, 20))
    monkeypatch.setattr(motion_module, "exact_stage", lambda count: None)
    compiled = [_summary(run(case)) for case in cases]
    monkeypatch.setattr(motion_module, "motion_loop", lambda: None)
    for case, expected in zip(cases, compiled):
        motion = run(case)
        assert _summary(motion) == expected, f"{case}: the plain pair search decided another motion"
        assert not check_motion(motion), case


# -- the defects the issue named ------------------------------------------------------------


def test_ball_starting_on_the_wall_moving_inwards_keeps_bouncing():
    path = bounce_path(Body((1.5, 0, 0), (-1, 0, 0), 0.5), Body((0, 0, 0), radius=2.0, mass=INF), 10.0, inside=True)
    assert [b.time for b in path.bounces] == [3.0, 6.0, 9.0]
    assert path.stopped is None and path.positions(10.0)[0] == pytest.approx((-0.5, 0.0, 0.0))
    for ball in (
        Body((1.5, 0, 0), (0, 1, 0), 0.5),
        Body((1.5, 0, 0), (-1, 1e-9, 0), 0.5),
    ):  # along the wall, nearly along
        m = simulate([ball], 10.0, container=Body((0, 0, 0), radius=2.0, mass=INF))
        assert check_motion(m) == []


def test_many_bounces_end_the_path_with_a_reason_and_nothing_unchecked():
    box = Body((0.0, 0.0, 0.0), radius=2.0, mass=INF)
    path = bounce_path(Body((0, 0, 0), (1e4, 3, 0), 0.5), box, 1.0, inside=True)
    assert len(path.bounces) == 256 and path.stopped and "cut short" in path.stopped
    assert path.bounces[-1].time < path.end < 1.0  # known up to the next contact, which is not processed
    for t in np.linspace(0.0, path.end, 2001):
        assert np.linalg.norm(path.positions(t)[0]) <= 1.5 * (1 + 1e-12)
    with pytest.raises(ValueError, match="t"):
        path.motion.positions(path.end * 1.5)
    assert check_motion(path.motion, first_only=True) == []


def test_restitution_zero_is_a_state_not_a_bounce_storm():
    m = simulate([Body((0, 0, 0), (10, 1, 0.3), 1.0), Body((5, 0.7, 0.1), radius=1.0, mass=INF)], 1.0, 0.0)
    assert len(m.events) == 1 and m.stopped is None and check_motion(m) == []
    m = simulate([Body((0, 0, 0), (10, 0, 0), 1.0), Body((5, 0, 0), radius=1.0, mass=INF)], 1.0, 0.0)
    assert len(m.events) == 1 and list(m.velocities(1.0)[0]) == [0.0, 0.0, 0.0]
    assert list(m.positions(1.0)[0]) == [3.0, 0.0, 0.0]  # at rest, touching: a resting contact
    # two balls pushed together move on together
    m = simulate([Body((0, 0, 0), (4, 0, 0), 1.0), Body((3, 0, 0), radius=1.0)], 2.0, 0.0)
    assert len(m.events) == 1 and [v[0] for v in m.velocities(2.0)] == [2.0, 2.0]


def test_ball_jammed_between_fixed_spheres_never_passes_through():
    for u in ((1.0, 0.0, 0.0), (0.6, 0.8, 0.0), (0.36, 0.48, 0.8)):
        for e in (1.0, 0.5, 0.0):
            for speed in ((0.7 * u[0], 0.7 * u[1], 0.7 * u[2]), (0.7 * u[0] + 0.3, 0.7 * u[1], 0.7 * u[2] - 0.2)):
                a = Body((0.3, 0.1, 0.2), speed, 1.0)
                b = Body(tuple(x + 2.0 * k for x, k in zip(a.center, u)), radius=1.0, mass=INF)
                c = Body(tuple(x - 2.0 * k for x, k in zip(a.center, u)), radius=1.0, mass=INF)
                m = simulate([a, b, c], 1.0, e, max_events=2000)
                assert check_motion(m) == [], (u, e, speed)
                for t in np.linspace(0.0, m.end, 101):
                    x = np.asarray(m.positions(t))
                    assert np.linalg.norm(x[0] - x[1]) >= 2.0 - 1e-12 and np.linalg.norm(x[0] - x[2]) >= 2.0 - 1e-12


def test_exactly_jammed_ball_is_resolved_by_the_jam_rule():
    """Touching both fixed spheres exactly, moving along the line: sequential impulses would bounce
    forever at t = 0; the jam rule gives the ball the fixed spheres' velocity."""
    a = Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0)
    m = simulate([a, Body((2.0, 0, 0), radius=1.0, mass=INF), Body((-2.0, 0, 0), radius=1.0, mass=INF)], 1.0, 1.0)
    assert m.stopped is None and m.events[-1].kind == "jam" and m.events[-1].time == 0.0
    assert list(m.velocities(1.0)[0]) == [0.0, 0.0, 0.0]
    assert check_motion(m) == []


def test_a_ball_squeezed_by_a_moving_fixed_sphere_stops_the_motion_jammed():
    """A fixed sphere moving towards a fixed wall sphere with a ball between them: no
    impulse can resolve it; the motion ends at the squeeze with the reason."""
    for e in (1.0, 0.0):
        bodies = [
            Body((0, 0, 0), radius=1.0),
            Body((2.5, 0, 0), (-1, 0, 0), 1.0, INF),
            Body((-2, 0, 0), radius=1.0, mass=INF),
        ]
        m = simulate(bodies, 2.0, e)
        assert m.stop_kind == "jammed" and m.stopped.startswith("jammed") and m.end == 0.5
        assert check_motion(m) == []


def test_stop_reasons_name_the_bodies_as_the_caller_does():
    bodies = [
        Body((0, 0, 0), radius=1.0),
        Body((2.5, 0, 0), (-1, 0, 0), 1.0, INF),
        Body((-2, 0, 0), radius=1.0, mass=INF),
    ]
    assert "fixed bodies body 1, body 2 squeeze" in simulate(bodies, 2.0).stopped
    assert "fixed bodies B, C squeeze" in simulate(bodies, 2.0, names=["A", "B", "C"]).stopped
    box = Body((0, 0, 0), radius=2.0, mass=INF)
    ball = Body((0, 0, 0), (1e4, 3, 0), 0.5)
    assert simulate([ball], 1.0, container=box, max_events=3, names=["A"]).stopped.startswith(
        "cut short after 3 events"
    )
    assert "fixed bodies B, C squeeze" in simulate(bodies, 2.0, names=(x for x in "ABC")).stopped
    for bad in ("AB", ["A", "B"], [1, 2, 3], ["A", "B", "C", "D", "E"], 5, (x for x in "AB")):
        with pytest.raises(ValueError, match="names"):
            simulate(bodies, 2.0, names=bad)


def test_normals_come_from_relative_positions_far_from_the_origin():
    off = 1e12 - 10.0
    a, b = Body((off, off, 0.0), (10.0, 0.0, 0.0), 1.0), Body((off + 5.0, off + 1.0, 0.0), radius=1.0, mass=INF)
    n = sweep(a, b).contact.normal
    assert n == pytest.approx((math.sqrt(3) / 2, 0.5, 0.0), abs=2e-16)
    ev = simulate([a, b], 1.0).events[0]
    assert ev.normal == pytest.approx((math.sqrt(3) / 2, 0.5, 0.0), abs=2e-16)


# -- the documented rules --------------------------------------------------------------------


def test_newtons_cradle_passes_the_velocity_to_the_last_ball():
    bodies = [Body((-5.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0)] + [Body((2.0 * k, 0.0, 0.0), radius=1.0) for k in range(5)]
    m = simulate(bodies, 10.0)
    assert [(e.time, e.pair) for e in m.events] == [
        (3.0, (0, 1)),
        (3.0, (1, 2)),
        (3.0, (2, 3)),
        (3.0, (3, 4)),
        (3.0, (4, 5)),
    ]
    assert [v[0] for v in m.velocities(10.0)] == [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    assert check_motion(m) == []


def test_simultaneous_events_follow_the_pair_order_and_are_deterministic():
    """A ball hits two balls at once (symmetric): (0, 1) before (0, 2), the same every time."""
    s = math.sqrt(2.0)
    bodies = [
        Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0),
        Body((3.0, s, 0.0), radius=1.0),
        Body((3.0, -s, 0.0), radius=1.0),
    ]
    first = simulate(bodies, 3.0)
    assert [e.pair for e in first.events][:2] == [(0, 1), (0, 2)]
    for _ in range(3):
        again = simulate(bodies, 3.0)
        assert [(e.time, e.pair, e.impulse) for e in again.events] == [
            (e.time, e.pair, e.impulse) for e in first.events
        ]


def test_break_conserves_momentum_and_energy_overall():
    case = mf.rack(1, seed=21, rows=5)[0]
    m = run(case)
    masses = np.array([b.mass for b in m.bodies])
    p0 = (masses[:, None] * np.asarray(m.velocities(0.0))).sum(axis=0)
    p1 = (masses[:, None] * np.asarray(m.velocities(m.end))).sum(axis=0)
    e0 = (masses * (np.asarray(m.velocities(0.0)) ** 2).sum(axis=1)).sum()
    e1 = (masses * (np.asarray(m.velocities(m.end)) ** 2).sum(axis=1)).sum()
    assert np.allclose(p0, p1, rtol=0, atol=1e-12 * np.abs(p0).sum()) and (e1 <= e0 * (1 + 1e-12))
    if case.restitution == 1.0:
        assert e1 == pytest.approx(e0, rel=1e-12)
    assert len(m.events) > 10 and check_motion(m) == []


def test_positions_velocities_and_frames():
    m = simulate([Body((0, 0, 0), (10, 0, 0), 1.0), Body((5, 0, 0), radius=1.0)], 1.0)
    assert m.end == 1.0 and m.stopped is None and m.stop_kind is None
    assert [list(row) for row in m.positions(0.3)] == [[3.0, 0.0, 0.0], [5.0, 0.0, 0.0]]
    assert [list(row) for row in m.velocities(0.3)] == [[0.0, 0.0, 0.0], [10.0, 0.0, 0.0]]  # after the event at 0.3
    assert [list(row) for row in m.velocities(0.2999)] == [[10.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    assert [list(row) for row in m.positions(1.0)] == [[3.0, 0.0, 0.0], [12.0, 0.0, 0.0]]
    assert np.shape(m.positions(0.5)) == (2, 3) and m.container_center(0.5) is None
    assert len(m.frames) == len(m.events) + 1 and m.frames[0].t_start == 0.0 and m.frames[-1].t_end == 1.0
    ev = m.events[0]
    assert (
        ev.pair == (0, 1)
        and ev.impulse == (-10.0, 0.0, 0.0)
        and ev.normal == (1.0, 0.0, 0.0)
        and ev.point == (4.0, 0.0, 0.0)
    )
    for bad in (-1e-9, 1.0 + 1e-9, math.nan, "0.5", None):
        with pytest.raises(ValueError, match="t"):
            m.positions(bad)


def test_container_motion_and_wall_events():
    box = Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 3.0, 10.0)
    m = simulate([Body((0.0, 0.0, 0.0), (-4.0, 0.0, 0.0), 1.0)], 2.0, 1.0, box)
    assert m.events[0].pair == (0, -1) and m.events[0].normal == (-1.0, 0.0, 0.0)
    assert m.container_center(2.0)[0] < 2.0  # the wall was pushed back
    assert check_motion(m) == []


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"bodies": [(0, 0, 0)]}, "bodies"),
        ({"bodies": []}, "bodies"),
        ({"horizon": 0.0}, "horizon"),
        ({"horizon": 2e6}, "horizon"),
        ({"restitution": 1.5}, "restitution"),
        ({"container": (0, 0, 0)}, "container"),
        ({"container": Body((0, 0, 0), radius=0.5)}, "bodies"),
        ({"container": Body((10, 0, 0), radius=2.0)}, "outside"),
        ({"max_events": 0}, "max_events"),
        ({"max_events": True}, "max_events"),
    ],
)
def test_simulate_refuses_bad_input_naming_it(kwargs, field):
    args = {"bodies": [Body((0, 0, 0), (1, 0, 0), 1.0)], "horizon": 1.0, "restitution": 1.0, "container": None}
    args.update(kwargs)
    max_events = args.pop("max_events", 100)
    with pytest.raises(ValueError, match=field):
        simulate(**args, max_events=max_events)


# -- the checks can fail ------------------------------------------------------------------------


def _broken(monkeypatch, which):
    if which == "no certified separation":
        monkeypatch.setattr(motion_module, "_not_approaching", lambda *args: True)
    elif which == "no exact stages":
        monkeypatch.setattr(motion_module, "motion_loop", lambda: None)
        monkeypatch.setattr(motion_module, "event_exact", lambda *args: (0, 0.0))
    elif which == "absolute normals":
        original = motion_module.vec.unit
        monkeypatch.setattr(motion_module.vec, "unit", lambda d: original(tuple(x + 1e-3 for x in d)))


@pytest.mark.parametrize("which", ["no certified separation", "no exact stages", "absolute normals"])
def test_the_reference_catches_a_broken_solver(monkeypatch, which):
    """A deliberately broken variant of the motion must fail the same checks."""
    cases = mf.cradle(60, seed=31) + mf.wall_start(60, seed=32) + mf.jam(60, seed=33)
    _broken(monkeypatch, which)
    bad = 0
    for case in cases:
        try:
            bad += bool(check_motion(run(case)))
        except AssertionError:  # the broken solver may also trip its own consistency checks
            bad += 1
    assert bad > 0, f"the broken variant ({which}) passed every check"


def test_bounce_path_of_a_ball_outside_its_container_is_empty_with_a_reason():
    box = Body((0.0, 0.0, 0.0), radius=3.0, mass=INF)
    path = bounce_path(Body((10.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0), box, 1.0, inside=True)
    assert path.stopped.startswith("outside") and path.end == 0.0 and path.bounces == ()
    assert path.positions(0.5) == ((10.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="outside"):
        simulate([Body((10.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0)], 1.0, container=box)


# -- each stop reason in full: its words and its time, derived by hand ---------------------------


def test_a_steady_rattle_is_cut_short_with_the_period_it_kept():
    """A ball (r 1, speed 10) between fixed spheres at x = ±2.5 (r 1) touches them at x = ±0.5: first at
    t = 0.05, then every 1 / 10 = 0.1.  After 100 events the motion is known up to the 101st contact,
    0.05 + 100 x 0.1 = 10.05, and the last 64 events span 63 x 0.1 = 6.3."""
    bodies = [Body((0.0, 0, 0), (10.0, 0, 0), 1.0), Body((-2.5, 0, 0), radius=1.0, mass=INF),
              Body((2.5, 0, 0), radius=1.0, mass=INF)]  # fmt: skip
    m = simulate(bodies, 1e6, 1.0, max_events=100, names=["A", "B", "C"])
    head, _, tail = m.stopped.partition(": the motion is not known beyond ")
    assert head.startswith("cut short after 100 events at t = ")
    assert float(head.rsplit(" ", 1)[1]) == pytest.approx(10.05, rel=1e-12) == m.end
    assert tail == "(the last 64 events took 6.3 time units)"
    assert m.stop_kind == "events" and len(m.events) == 100
    assert [e.pair for e in m.events[:3]] == [(0, 2), (0, 1), (0, 2)]
    short = simulate(bodies, 1e6, 1.0, max_events=40)  # too few events to judge their pace: no word on it
    assert short.stopped == f"cut short after 40 events at t = {short.end!r}: the motion is not known beyond"
    assert short.end == pytest.approx(4.05, rel=1e-12)


def test_a_ball_trapped_by_a_closing_fixed_sphere_is_a_zeno_sequence():
    """B (fixed) closes in on C at speed 1 with A bouncing between them at e = 0.9: A's speed tends
    to 1 / (1 - e) = 10, the gap shrinks by a near-constant factor each round trip, so the bounces
    come ever faster towards t = 1, when the gap (5 - t) - 4 closes."""
    bodies = [Body((0.0, 0, 0), (10.0, 0, 0), 1.0), Body((-2.5, 0, 0), (1.0, 0, 0), 1.0, INF),
              Body((2.5, 0, 0), radius=1.0, mass=INF)]  # fmt: skip
    m = simulate(bodies, 2.0, 0.9, max_events=200, names=["A", "B", "C"])
    assert m.stop_kind == "events"
    assert m.stopped.endswith(": the motion is not known beyond (the events come ever faster: a Zeno sequence)")
    assert 0.999 < m.end <= 1.0
    trips = np.diff([e.time for e in m.events][::2])  # one A-C-A round trip each
    assert (trips[-40:] < trips[-41:-1]).all(), "each round trip shorter than the one before"


def test_the_squeeze_stops_when_the_gap_closes():
    """B (fixed, r 1) at x = 2.5 moves at -1 towards C (fixed, r 1) at -2 with A (r 1) at rest at 0:
    B touches A when 2.5 - t = 2, at t = 0.5, and A already touches C: jammed there."""
    bodies = [Body((0, 0, 0), radius=1.0), Body((2.5, 0, 0), (-1, 0, 0), 1.0, INF),
              Body((-2, 0, 0), radius=1.0, mass=INF)]  # fmt: skip
    m = simulate(bodies, 2.0, 1.0, names=["A", "B", "C"])
    assert m.stopped == "jammed: fixed bodies B, C squeeze a cluster at t = 0.5"
    assert m.end == 0.5 and m.stop_kind == "jammed"


def test_a_ball_gliding_along_its_wall_stops_as_sliding():
    """A ball on the wall of its container (r 3 inside r 5, centre at distance 2) moving tangentially
    leaves the wall with no normal speed at once: sliding at t = 0."""
    box = Body((0, 0, 0), radius=5.0, mass=INF)
    ball = Body((2.0, 0, 0), (0, 1.0, 0), 3.0)
    m = simulate([ball], 1.0, container=box, names=["A"])
    assert m.stopped == ("sliding: A slides along the container wall at t = 0.0 "
                         "(straight segments cannot follow the curved wall)")  # fmt: skip
    assert m.end == 0.0 and m.stop_kind == "sliding"


def test_simultaneous_contacts_on_two_pairs_come_in_pair_order():
    """A (at 0, speed 1) reaches B (at 3, r 1) at t = 1 just as C (at 6, speed -1) does: (0, 1) first,
    then (1, 2), then (0, 1) again as B comes back; A ends at -1, B at rest, C at +1 (equal masses)."""
    bodies = [Body((0.0, 0, 0), (1.0, 0, 0), 1.0), Body((3.0, 0, 0), radius=1.0), Body((6.0, 0, 0), (-1.0, 0, 0), 1.0)]
    m = simulate(bodies, 2.0)
    assert [(e.time, e.pair) for e in m.events] == [(1.0, (0, 1)), (1.0, (1, 2)), (1.0, (0, 1))]
    assert [v[0] for v in m.velocities(2.0)] == [-1.0, 0.0, 1.0]


#: The heavy balls of the jams below, and the velocity a jammed cluster of a light ball (mass 2, speed 1)
#: between two of them takes: its centre of mass's, 2 / (2 + 2 HEAVY).
HEAVY = 1.0e6
CLUSTER_DRIFT = 2.0 / (2.0 + 2.0 * HEAVY)


def _light_between_heavies() -> list[Body]:
    """A light ball (mass 2) moving at +1, touching a heavy free ball on either side (x = +2 and -2)."""
    return [
        Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0, 2.0),
        Body((2.0, 0.0, 0.0), radius=1.0, mass=HEAVY),
        Body((-2.0, 0.0, 0.0), radius=1.0, mass=HEAVY),
    ]


def test_a_jam_among_free_bodies_moves_the_cluster_with_its_centre_of_mass():
    """A light ball touching two heavy free balls on either side, and a bystander far off: each impulse
    passes on a little, so the impulses of t = 0 run past the limit and the jam rule applies.  By hand:
    the cluster takes the centre-of-mass velocity; the impulses on the light ball add up to its change of
    momentum; the jam's point and normal are its pair's."""
    bodies = [
        *_light_between_heavies(),
        Body((0.0, 10.0, 0.0), (0.0, 0.0, 1.0), 1.0),  # a bystander, not in the cluster
    ]
    m = simulate(bodies, 1.0, 1.0)
    assert m.stopped is None
    jam = m.events[-1]
    assert (jam.kind, jam.time, jam.bodies) == ("jam", 0.0, (0, 1, 2))
    common = CLUSTER_DRIFT
    np.testing.assert_allclose(m.velocities(1.0), [[common, 0, 0]] * 3 + [[0, 0, 1]], rtol=1e-12, atol=1e-300)
    assert all(ev.time == 0.0 and ev.pair[0] == 0 for ev in m.events)
    assert len(m.events) == motion_module.MAX_IMPULSES_PER_INSTANT * len(bodies) + 1  # the limit's impulses, the jam
    total = np.sum([ev.impulse for ev in m.events], axis=0)
    np.testing.assert_allclose(total, [2.0 * (common - 1.0), 0.0, 0.0], rtol=1e-12, atol=1e-12)
    side = 1.0 if jam.pair[1] == 1 else -1.0  # B on the +x side, C on the -x side
    assert jam.pair[1] in (1, 2)
    assert jam.normal == pytest.approx((side, 0.0, 0.0), abs=1e-15)
    assert jam.point == pytest.approx((side, 0.0, 0.0), abs=1e-15)
    assert check_motion(m) == []


def test_a_jam_against_a_free_container_wall_names_the_wall():
    """The same jam with the container's wall on one side (the container free, of mass 1e6): the wall is
    named WALL among the cluster's bodies, and its pair's normal points away from the container's centre."""
    ball = Body((2.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0, 2.0)
    other = Body((0.0, 0.0, 0.0), radius=1.0, mass=HEAVY)
    container = Body((0.0, 0.0, 0.0), radius=3.0, mass=HEAVY)
    m = simulate([ball, other], 1.0, 1.0, container=container)
    jam = m.events[-1]
    assert (jam.kind, jam.time, jam.bodies) == ("jam", 0.0, (0, 1, motion_module.WALL))
    np.testing.assert_allclose(m.velocities(1.0), [[CLUSTER_DRIFT, 0, 0]] * 2, rtol=1e-12, atol=1e-300)
    if jam.pair == (0, motion_module.WALL):
        expected_normal, expected_point = (1.0, 0.0, 0.0), (3.0, 0.0, 0.0)
    else:
        assert jam.pair == (0, 1)
        expected_normal, expected_point = (-1.0, 0.0, 0.0), (1.0, 0.0, 0.0)
    assert jam.normal == pytest.approx(expected_normal, abs=1e-15)
    assert jam.point == pytest.approx(expected_point, abs=1e-15)
    assert check_motion(m) == []


def test_a_jam_at_a_later_instant_counts_that_instant_s_impulses_afresh():
    """Two heavy balls close on a light one at rest from either side and touch it together at t = 1 (2.5 - 0.5 t
    = 2): the impulses of that instant run to the limit (counted from that instant, per body) and the jam
    gives the cluster its total momentum, zero; the bystander keeps its velocity."""
    bodies = [
        Body((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0, 2.0),
        Body((2.5, 0.0, 0.0), (-0.5, 0.0, 0.0), 1.0, 1.0e6),
        Body((-2.5, 0.0, 0.0), (0.5, 0.0, 0.0), 1.0, 1.0e6),
        Body((0.0, 10.0, 0.0), (0.0, 0.0, 1.0), 1.0),
    ]
    m = simulate(bodies, 2.0, 1.0)
    assert m.stopped is None
    assert {ev.time for ev in m.events} == {1.0}
    assert len(m.events) == motion_module.MAX_IMPULSES_PER_INSTANT * len(bodies) + 1
    assert (m.events[-1].kind, m.events[-1].bodies) == ("jam", (0, 1, 2))
    np.testing.assert_allclose(m.velocities(2.0), [[0, 0, 0]] * 3 + [[0, 0, 1]], atol=1e-12)
    np.testing.assert_allclose([x[0] for x in m.positions(2.0)[:3]], [0.0, 2.0, -2.0], atol=1e-12)
    assert check_motion(m) == []


def test_simulate_s_defaults_and_what_it_keeps():
    """One Body alone is accepted as the list of bodies; the default horizon is 1; the restitution is kept;
    a moving container far from the origin is where it should be (its centre plus t times its velocity)."""
    m = simulate(Body((5.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0))
    assert m.end == 1.0 and [list(row) for row in m.positions(1.0)] == [[6.0, 0.0, 0.0]]
    container = Body((1.0e6, 0.0, 0.0), (2.0, 1.0, 0.0), 10.0)
    m = simulate([Body((1.0e6, 0.0, 0.0), (2.0, 1.0, 0.0), 1.0)], 3.0, 0.25, container=container)
    assert m.restitution == 0.25
    assert list(m.container_center(2.5)) == [1.0e6 + 5.0, 2.5, 0.0]


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: simulate([]), "bodies: at least one body is needed"),
        (lambda: simulate([Body((0.0, 0.0, 0.0)), 3]), "bodies[1]: expected a solver.Body, got int"),
        (lambda: simulate([Body((0.0, 0.0, 0.0))], container="ring"),
         "container: expected a solver.Body or None, got str"),
        (lambda: simulate([Body((0.0, 0.0, 0.0)), Body((5.0, 0.0, 0.0))], names="ab"),
         "names: expected 2 strings (or one more for the container), got 'ab'"),
        (lambda: simulate([Body((0.0, 0.0, 0.0), radius=2.0)], container=Body((0.0, 0.0, 0.0), radius=2.0)),
         "bodies[0]: radius 2.0 must be smaller than the container's 2.0"),
        (lambda: simulate([Body((3.5, 0.0, 0.0))], container=Body((0.0, 0.0, 0.0), radius=2.0)),
         "bodies[0]: lies entirely outside the container at t = 0"),
    ],
)  # fmt: skip
def test_simulate_s_refusals_name_the_field(call, words):
    with pytest.raises(ValueError) as err:
        call()
    assert str(err.value) == words


@pytest.mark.parametrize("field, value", [("horizon", -1.0), ("restitution", 2.0)])
def test_a_bad_horizon_or_restitution_is_named(field, value):
    with pytest.raises(ValueError, match=f"^{field}"):
        simulate([Body((0.0, 0.0, 0.0))], **{field: value})


def test_a_ball_touching_its_container_from_outside_is_not_entirely_outside():
    """Centres exactly the radii's sum apart share a point: not 'entirely outside' (the motion runs)."""
    ball = Body((3.0, 0.0, 0.0), (-1.0, 0.0, 0.0), 1.0)
    container = Body((0.0, 0.0, 0.0), radius=2.0)
    assert not motion_module.entirely_outside(ball, container)
    assert motion_module.entirely_outside(Body((3.0, 0.0, 1e-9), radius=1.0), container)


def test_the_container_is_named_in_a_squeeze():
    """A fixed ball driven into a ball resting against a fixed container's wall: the stop reason names the
    container by its default name."""
    bodies = [Body((2.0, 0.0, 0.0), radius=1.0), Body((-1.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0, INF)]
    m = simulate(bodies, 2.0, 1.0, container=Body((0.0, 0.0, 0.0), radius=3.0, mass=INF))
    assert m.stop_kind == "jammed"
    assert m.stopped == "jammed: fixed bodies body 1, the container squeeze a cluster at t = 1.0"


#: Cases on the proof's edges: contact exactly at the horizon (a pair; a ball reaching its wall), a relative
#: velocity of (1, 1, 1).
_PROOF_EDGES = [
    mf.Case((Body((0.0, 0.0, 0.0), radius=1.0), Body((3.0, 0.0, 0.0), (-1.0, 0.0, 0.0), 1.0)), None, 1.0, 1.0),
    mf.Case((Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0),), Body((0.0, 0.0, 0.0), radius=3.0, mass=INF), 2.0, 1.0),
    mf.Case((Body((0.0, 0.0, 0.0), radius=1.0), Body((-3.0, -3.0, -3.0), (1.0, 1.0, 1.0), 1.0)), None, 4.0, 1.0),
]


@pytest.mark.parametrize("name", sorted(mf.FAMILIES))
def test_the_array_proof_never_rules_out_a_pair_that_has_an_event(name):
    """The plain pair search's proof (``_Run._may_approach``) may keep pairs that need nothing, never drop
    one that does: every pair whose event the exact rationals find within ``left`` is kept, with a lower
    bound no later than that event.  At t = 0 and after moving everything on a little, for several ``left``."""
    for case in mf.FAMILIES[name](12) + _PROOF_EDGES:
        bodies = tuple(case.bodies)
        state = motion_module._Run(bodies, case.container, case.horizon, case.restitution, case.max_events,
                                   False, motion_module._names(None, len(bodies)))  # fmt: skip
        for step in (0.0, 1e-3 * case.horizon, 0.25 * case.horizon):
            state._advance(step)
            for left in (case.horizon, 1e-6 * case.horizon):
                lower = dict(state._may_approach(left))
                for p, (i, j, inside) in enumerate(state.pairs):
                    kind, dt = event_exact(*state.X[i], *state.V[i], state.R[i], *state.X[j], *state.V[j], state.R[j],
                                           left, inside)  # fmt: skip
                    if kind != NONE:
                        assert p in lower, (case, step, left, p, "an event the proof ruled out")
                        assert 0.0 <= lower[p] <= dt, (case, step, left, p, lower[p], dt)


def test_a_plastic_head_on_hit_on_the_wall_leaves_the_ball_at_rest_not_sliding():
    """e = 0 straight at a fixed wall: the ball stops dead (no relative velocity: resting, not sliding) and
    the motion runs to the horizon with it at rest where it touched."""
    container = Body((0.0, 0.0, 0.0), radius=3.0, mass=INF)
    m = simulate([Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0)], 3.0, 0.0, container=container)
    assert m.stopped is None and m.end == 3.0
    assert [ev.time for ev in m.events] == [2.0]
    assert list(m.positions(3.0)[0]) == [2.0, 0.0, 0.0]


def test_a_slow_oblique_plastic_hit_on_the_wall_stops_the_motion_sliding():
    """e = 0 at an angle: the normal part is taken away and the ball is left sliding along the curved wall at
    a quarter unit per unit time, which straight segments cannot follow: the motion stops there, at the hit
    (x^2 + 1 = 4 along y = 1: t = 2 sqrt(3))."""
    container = Body((0.0, 0.0, 0.0), radius=3.0, mass=INF)
    m = simulate([Body((0.0, 1.0, 0.0), (0.5, 0.0, 0.0), 1.0)], 5.0, 0.0, container=container)
    assert m.stop_kind == "sliding" and m.stopped.startswith("sliding: body 0 slides along the container wall")
    assert math.isclose(m.end, 2.0 * math.sqrt(3.0), rel_tol=1e-12)
    assert math.isclose(float(np.linalg.norm(m.velocities(m.end)[0])), 0.25, rel_tol=1e-9)


def test_fixed_bodies_pass_through_each_other_and_their_container():
    """Two fixed bodies have no pair (no impulse can act between them): they move as prescribed, through each
    other and through a fixed container's wall, with no event."""
    a = Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0, INF)
    b = Body((3.0, 0.0, 0.0), (-1.0, 0.0, 0.0), 1.0, INF)
    m = simulate([a, b], 4.0)
    assert m.events == () and m.stopped is None
    assert [list(row) for row in m.positions(4.0)] == [[4.0, 0.0, 0.0], [-1.0, 0.0, 0.0]]
    m = simulate([a], 4.0, container=Body((0.0, 0.0, 0.0), radius=3.0, mass=INF))
    assert m.events == () and [list(row) for row in m.positions(4.0)] == [[4.0, 0.0, 0.0]]


def test_a_jam_on_a_pair_whose_first_body_is_fixed_records_no_impulse_on_it():
    """The fixed spheres listed first: the jam's pair is (fixed, ball), and the impulse on a fixed body is
    recorded as zero; the ball takes the fixed spheres' velocity (0)."""
    bodies = [Body((2.0, 0, 0), radius=1.0, mass=INF), Body((-2.0, 0, 0), radius=1.0, mass=INF)]
    m = simulate([*bodies, Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0)], 1.0, 1.0)
    jam = m.events[-1]
    assert (jam.kind, jam.time, jam.pair[1], jam.bodies) == ("jam", 0.0, 2, (0, 1, 2))
    assert jam.impulse == (0.0, 0.0, 0.0)
    assert list(m.velocities(1.0)[2]) == [0.0, 0.0, 0.0]


def test_an_impact_names_its_two_bodies_and_the_wall():
    """Each impact's bodies are its pair, the container wall as WALL."""
    m = simulate([Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0), Body((3.0, 0.0, 0.0), radius=1.0)], 2.0)
    assert [(ev.pair, ev.bodies) for ev in m.events] == [((0, 1), (0, 1))]
    wall = motion_module.WALL
    container = Body((0.0, 0.0, 0.0), radius=3.0, mass=INF)
    m = simulate([Body((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), 1.0)], 3.0, container=container)
    assert [(ev.time, ev.pair, ev.bodies) for ev in m.events] == [(2.0, (0, wall), (0, wall))]


def test_the_motion_goes_on_after_a_jam():
    """After the jam at t = 0 the cluster (light ball between two heavy ones, 1e6 each) drifts at
    2 / (2 + 2e6) and the motion goes on: a ball coming from the side still hits the heavy one on the right
    (gap 1 closed at speed 1 + the drift), which passes the blow on through the cluster (jamming again)."""
    bodies = [*_light_between_heavies(), Body((5.0, 0.0, 0.0), (-1.0, 0.0, 0.0), 1.0)]
    m = simulate(bodies, 2.0, 1.0)
    assert [ev.time for ev in m.events if ev.kind == "jam"][0] == 0.0
    later = [ev for ev in m.events if ev.time > 0.0]
    assert [ev.pair for ev in later][:1] == [(1, 3)]
    assert math.isclose(later[0].time, 1.0 / (1.0 + CLUSTER_DRIFT), rel_tol=1e-12)
    assert check_motion(m) == []


def _cut_short(times: list[float]) -> str:
    """The stop reason of a motion cut short after events at ``times`` (the last 64 are compared)."""
    run = motion_module._Run.__new__(motion_module._Run)  # only the fields the reason reads
    run.events = [motion_module.Event(t, (0, 1), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (1.0, 0.0, 0.0)) for t in times]
    run.max_events, run.t = len(times), times[-1]
    return run._limit_reason()


def _halves(first: list[float], gap: float, second: list[float]) -> list[float]:
    """64 event times: 32 spaced by ``first``'s steps from 0, then after ``gap`` 32 spaced by ``second``'s."""
    times = [0.0]
    for step in first:
        times.append(times[-1] + step)
    times.append(times[-1] + gap)
    for step in second:
        times.append(times[-1] + step)
    assert len(times) == 64
    return times


ZENO = " (the events come ever faster: a Zeno sequence)"


@pytest.mark.parametrize(
    "first, gap, second, zeno",
    [
        ([1.0] * 31, 1.0, [0.25] * 31, True),  # the second half of the last 64 took a quarter as long
        ([1.0] * 31, 1.0, [0.5] * 31, False),  # exactly half as long: not yet ever faster
        ([1.0] * 31, 100.0, [0.6] * 31, False),  # the gap between the halves counts in neither
        ([9.0] + [1.0] * 30, 1.0, [0.5] * 31, True),  # the first half's first step counts: 39 against 15.5
        ([1.0] * 31, 1.0, [16.0] + [0.1] * 30, False),  # the second half's first step counts: 19 against 31
    ],
)  # fmt: skip
def test_a_motion_cut_short_says_whether_its_events_come_ever_faster(first, gap, second, zeno):
    """The rule: of the last 64 events, the second 32 (31 steps) took less than half as long as the first 32."""
    times = _halves(first, gap, second)
    reason = _cut_short(times)
    assert reason.startswith(f"cut short after 64 events at t = {times[-1]!r}: the motion is not known beyond")
    if zeno:
        assert reason.endswith(ZENO)
    else:
        assert reason.endswith(f" (the last 64 events took {times[-1] - times[0]:.3g} time units)")


def test_plastic_hits_that_need_a_nudge_end_at_the_common_velocity(monkeypatch):
    """e = 0 head-on along a skew line: the ideal impulse rounds to an approach in about a third of such
    hits, and the impulse is then raised by a few ulps until the pair is certified apart.  Light bodies
    (inverse masses 1e3 to 1e4) make a nudge that is not a few ulps of the velocity visible: after the
    hit both move at (m1 v1 + m2 v2) / (m1 + m2) to within 1e-13 of the speeds."""
    verdicts = []
    real = motion_module._not_approaching

    def counting(*args):
        verdicts.append(real(*args))
        return verdicts[-1]

    monkeypatch.setattr(motion_module, "_not_approaching", counting)
    rng = np.random.default_rng(5)
    nudged = 0
    for _ in range(60):
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        m1, m2 = 10 ** rng.uniform(-4, -3), 10 ** rng.uniform(-4, -3)
        s1, s2 = rng.uniform(0.5, 2.0), rng.uniform(-2.0, -0.5)
        verdicts.clear()
        bodies = [Body(tuple(-2 * d), tuple(s1 * d), 0.5, mass=m1), Body(tuple(2 * d), tuple(s2 * d), 0.5, mass=m2)]
        m = simulate(bodies, 3.0, 0.0)
        assert len(m.events) == 1 and m.stopped is None
        nudged += verdicts[0] is False
        common = (m1 * s1 + m2 * s2) / (m1 + m2) * d
        after = m.velocities(3.0)
        assert np.abs(after - common).max() <= 1e-13 * (abs(s1) + abs(s2)), (after, common)
    assert nudged >= 10  # the nudge was tried, not only the ideal impulse


@pytest.mark.parametrize("speed", [0.3, 0.5, 2.0])
def test_a_plastic_hit_on_the_wall_leaves_the_ball_sliding_at_any_speed(speed):
    """A ball (r 1, from (0.3, 0.1, 0), direction (0.6, 0.8, 0)) in a container of radius 5, restitution 0:
    the hit takes away its normal speed and leaves it gliding on the curved wall, at speeds below 1 too.
    The hit comes when |c + v t| = 4: t = (-p.v + sqrt((p.v)^2 + |v|^2 (16 - |p|^2))) / |v|^2."""
    box = Body((0, 0, 0), radius=5.0, mass=INF)
    v = (speed * 0.6, speed * 0.8, 0.0)
    m = simulate([Body((0.3, 0.1, 0.0), v, 1.0)], 100.0, 0.0, container=box, names=["A"])
    pv, vv, pp = 0.3 * v[0] + 0.1 * v[1], v[0] ** 2 + v[1] ** 2, 0.3**2 + 0.1**2
    hit = (-pv + math.sqrt(pv * pv + vv * (16.0 - pp))) / vv
    assert m.stop_kind == "sliding" and len(m.events) == 1 and m.events[0].kind == "impact"
    assert m.end == pytest.approx(hit, rel=1e-14) and m.events[0].time == m.end
    assert m.stopped == f"sliding: A slides along the container wall at t = {m.end!r} " + (
        "(straight segments cannot follow the curved wall)"
    )


@pytest.mark.parametrize("normal, along, slides", [(5e-9, 10.0, True), (5e-10, 0.1, False)])
def test_a_grazing_elastic_hit_slides_below_the_cosine_of_its_speed(normal, along, slides):
    """A ball touching its wall (r 3 at distance 2 in r 5) moving out at ``normal`` and along at ``along``:
    the hit reverses the normal part; it slides when that is at most SLIDING_COSINE (1e-9) of the speed,
    5e-9 of 10 (yes) but not 5e-10 of 0.1 (it leaves the wall and meets it again, about 2e-7 later)."""
    box = Body((0, 0, 0), radius=5.0, mass=INF)
    m = simulate([Body((2.0, 0.0, 0.0), (normal, along, 0.0), 3.0)], 1.0, 1.0, container=box, max_events=5)
    assert m.events[0].time == 0.0 and m.events[0].kind == "impact"
    if slides:
        assert m.stop_kind == "sliding" and m.end == 0.0 and len(m.events) == 1
    else:
        assert len(m.events) >= 2 and 1e-7 < m.events[1].time < 1e-6


@pytest.mark.skipif(not _compile.compiling(), reason="the loop over pairs runs compiled only")
def test_the_motion_s_first_loop_over_pairs_says_what_it_compiles(monkeypatch, terminal):
    """On a terminal, the first call of the compiled loop over pairs, when it takes a while (its machine code
    not loaded yet: a stand-in taking 0.2 s), says once what compiles and how long it took."""
    real = events_kernel.dispatcher

    class Loading:
        signatures: list = []

        def __call__(self, *args):
            if not self.signatures:
                time.sleep(0.2)
                self.signatures = ["loaded"]
            return real(*args)

    monkeypatch.setattr(events_kernel, "dispatcher", Loading())
    monkeypatch.setattr(_compile, "ANNOUNCE_AFTER", 0.05)
    monkeypatch.setattr(sys, "stderr", terminal())
    m = simulate([Body((0, 0, 0), (10, 0, 0), 1.0), Body((5, 0, 0), radius=1.0)], 1.0)
    assert len(m.events) == 1  # the loop ran twice: before the hit and after it
    said = sys.stderr.getvalue()
    assert said.startswith(
        "solver: compiling the motion's loop over pairs (first use after installing; cached for next time)... done in "
    ), said
    assert said.endswith(" s\n") and said.count("compiling") == 1


def test_before_the_exact_stage_is_compiled_its_plain_copy_decides_the_motion_s_unsure_pairs(monkeypatch):
    """In a fresh process the exact stage is not loaded: the few pairs the float filter leaves unsure go to its
    plain Python copy, counted against the budget.  A tangent graze (B's centre 2 = rA + rB off A's path) is
    one such pair, and touching in passing is no hit."""
    monkeypatch.setattr(_compile, "_exact_module", None)
    monkeypatch.setattr(_compile, "EXACT_BUDGET", _compile._Budget(_compile.PLAIN_BUDGET))
    m = simulate([Body((0, 0, 0), (1, 0, 0), 1.0), Body((5, 2, 0), radius=1.0)], 10.0)
    assert (
        m.events == ()
        and m.stopped is None
        and [list(row) for row in m.positions(10.0)] == [[10.0, 0.0, 0.0], [5.0, 2.0, 0.0]]
    )
    assert _compile.EXACT_BUDGET.spent == 1


def test_a_hit_at_the_instant_of_a_jam_comes_after_it():
    """A (moving +x) touches fixed B and C on both sides, both moving -y, and a free E below it at rest.
    A bounces between B and C at t = 0 until 16 x 4 impulses make it a jam: A takes the fixed bodies'
    velocity (0, -1, 0), which drives it into E at the same instant; equal masses head-on: A stops and E
    leaves with (0, -1, 0)."""
    down = (0.0, -1.0, 0.0)
    bodies = [Body((0, 0, 0), (1, 0, 0), 1.0), Body((2, 0, 0), down, 1.0, INF), Body((-2, 0, 0), down, 1.0, INF),
              Body((0, -2, 0), radius=1.0)]  # fmt: skip
    m = simulate(bodies, 1.0, 1.0)
    assert [e.kind for e in m.events] == ["impact"] * 64 + ["jam", "impact"]
    assert all(e.time == 0.0 for e in m.events) and m.events[-1].pair == (0, 3) and m.stopped is None
    assert [list(row) for row in m.velocities(1.0)] == [
        [0.0, 0.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, -1.0, 0.0],
    ]


@pytest.mark.parametrize("jit", [True, False], ids=["compiled", "plain"])
def test_simultaneous_impacts_at_the_horizon_are_all_processed(monkeypatch, jit):
    """Events at exactly the horizon belong to the motion, all of them: a horizon that ends on a simultaneous
    hit leaves no pair in contact and still approaching (the search used to stop after the first one).

    Newton's cradle by hand, equal masses, elastic: A (x = -3, v = +1) and B (x = 3, v = -1) reach C (at rest
    at 0) at t = 1; A gives C its velocity, C and B swap theirs, then C gives A its own: A -1, C 0, B +1.
    Two balls reaching a fixed container's wall together at t = 1 both bounce back.
    """
    monkeypatch.setattr(motion_module, "motion_loop", lambda: events_kernel if jit else None)
    cradle = [Body((-3, 0, 0), (1, 0, 0), 1.0), Body((0, 0, 0), radius=1.0), Body((3, 0, 0), (-1, 0, 0), 1.0)]
    wall = Body((0, 0, 0), radius=10.0, mass=math.inf)
    walls = [Body((-8, 0, 0), (-1, 0, 0), 1.0), Body((8, 0, 0), (1, 0, 0), 1.0)]
    for bodies, container, after in ((cradle, None, [-1, 0, 1]), (walls, wall, [1, -1])):
        for horizon in (1.0, 1.5):
            m = simulate(bodies, horizon, container=container)
            assert [e.time for e in m.events] == [1.0] * (3 if container is None else 2), horizon
            assert [v[0] for v in m.velocities(1.0)] == after, horizon
            assert m.stop_kind is None and m.end == horizon


def test_a_jam_takes_in_a_pair_due_at_its_instant_that_never_had_its_turn():
    """The jam of the light ball between two heavy ones, with a fourth ball (mass 1) touching the heavy one at
    x = -2 from the far side and closing on it at 0.5.  Its pair comes last in pair order, so the light
    ball's pairs, due again after each impulse, always go first and it never takes an impulse before the jam;
    being due at that instant, it joins the cluster.  By hand: all four take the centre of mass's velocity,
    (2 * 1 + 1 * 0.5) / (2 + 2 HEAVY + 1)."""
    bodies = [*_light_between_heavies(), Body((-4.0, 0.0, 0.0), (0.5, 0.0, 0.0), 1.0, 1.0)]
    m = simulate(bodies, 1.0, 1.0)
    assert m.stopped is None
    jam = m.events[-1]
    assert (jam.kind, jam.time, jam.bodies) == ("jam", 0.0, (0, 1, 2, 3))
    common = 2.5 / (3.0 + 2.0 * HEAVY)
    np.testing.assert_allclose(m.velocities(1.0), [[common, 0, 0]] * 4, rtol=1e-12, atol=1e-300)
    assert all(ev.pair[0] == 0 for ev in m.events)  # the fourth ball's pair never had its own impulse
    assert check_motion(m) == []
