"""``solve``'s choices, each on a scene worked out by hand: the horizon of every sweep, the primary pair,
the event limit, which events are A's bounces, and the events against a container's wall."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.model.derived.analysis import MOTION_EVENTS, solve
from explorer.model.derived.inspection import pair_focus
from explorer.model.state.scene import Scene, SceneBody

INF = math.inf


def test_every_sweep_looks_over_the_scenes_horizon():
    inside = Scene("inside", 2.5, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                        SceneBody("W", (0, 0, 0), (0, 0, 0), 5.0, INF)))  # fmt: skip
    assert solve(inside).sweep.horizon == 2.5
    held = Scene("all", 2.5, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0), SceneBody("B", (0, 3, 0), (0, 0, 0), 1.0),
                                   SceneBody("W", (0, 0, 0), (0, 0, 0), 9.0, INF, True)))  # fmt: skip
    assert [s.horizon for s in solve(held).sweeps] == [2.5, 2.5]


def test_without_a_hit_the_primary_pair_is_the_closest_pass():
    # A moves along x from the origin; B (index 1) stays 5 off its path, C (index 2) 2.5: neither is hit
    # (radii 1 + 1 = 2), and C comes closest.
    scene = Scene("pair", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (2, 0, 0), 1.0), SceneBody("B", (1, 5, 0)),
                                     SceneBody("C", (1, 2.5, 0))))  # fmt: skip
    solution = solve(scene)
    assert not any(s.hit for s in solution.sweeps)
    assert solution.other == 2
    assert solution.sweep.closest.gap == pytest.approx(0.5)


def test_two_fixed_bodies_in_contact_have_no_response():
    scene = Scene("pair", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (0, 0, 0), 1.0, INF),
                                     SceneBody("B", (2, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    solution = solve(scene)
    assert solution.sweep.hit and solution.impact is None


def test_a_pair_mode_bounce_keeps_the_scenes_horizon_and_restitution():
    # A at 1 per unit hits fixed B (gap 1) at t = 1 and leaves at 0.5 (e = 0.5); the path ends at h = 2.
    scene = Scene("pair", 2.0, 0.5, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                     SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    path = solve(scene).path
    assert [(s.t_start, s.t_end) for s in path.segments] == [(0.0, 1.0), (1.0, 2.0)]
    assert path.segments[1].velocities[0] == pytest.approx((-0.5, 0.0, 0.0))


def test_the_explorer_stops_a_motion_at_its_event_limit():
    # A (r 1) between fixed walls at x = ±2.5 (r 1): a bounce every time unit from t = 0.5, for ever
    scene = Scene("all", 1e4, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                    SceneBody("B", (2.5, 0, 0), (0, 0, 0), 1.0, INF),
                                    SceneBody("C", (-2.5, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    solution = solve(scene)
    assert len(solution.events) == MOTION_EVENTS == 1000
    assert solution.events[-1].time == 999.5
    assert solution.path.stopped.startswith("cut short after 1000 events")


def test_only_as_impacts_are_its_bounces():
    """A (r 1) at 1 per unit reaches fixed B (x = 3) at t = 1; C (r 1) at (−5, 5) moving (−1, 0, 0)
    reaches fixed D (r 1) at (−10, 5) at t = 3 (centres 5 apart, a gap of 3).  Events (A, B) at 1
    and (C, D) at 3; only the first is A's bounce."""
    scene = Scene("all", 4.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0), SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0, INF),
                                    SceneBody("C", (-5, 5, 0), (-1, 0, 0), 1.0),
                                    SceneBody("D", (-10, 5, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    solution = solve(scene)
    assert [(e.time, e.pair) for e in solution.events] == [(1.0, (0, 1)), (3.0, (2, 3))]
    assert [(b.time, b.other) for b in solution.path.bounces] == [(1.0, 1)]


def test_an_event_against_the_container_names_it_and_points_at_its_wall():
    """A (r 1) moving (0, 2, 0) in a container W (r 5) at the origin: the wall at y = 4 is reached at t = 2,
    the normal from A towards the wall is +y, the point (0, 5, 0)."""
    scene = Scene("all", 2.5, 1.0, (SceneBody("A", (0, 0, 0), (0, 2, 0), 1.0), SceneBody("B", (-3, 0, 0), (0, 0, 0), 1.0),
                                    SceneBody("W", (0, 0, 0), (0, 0, 0), 5.0, INF, True)))  # fmt: skip
    event = solve(scene).events[0]
    assert (event.time, event.pair, event.kind) == (2.0, (0, 2), "impact")
    assert event.normal == pytest.approx((0.0, 1.0, 0.0))
    assert event.point == pytest.approx((0.0, 5.0, 0.0))


def test_a_ball_outside_its_container_is_described_where_it_is():
    """Inside mode with the ball wholly outside: no motion; the inspector starts from the scene's centres."""
    scene = Scene("inside", 1.0, 1.0, (SceneBody("A", (20, 0, 0), (1, 0, 0), 1.0),
                                       SceneBody("W", (0, 0, 0), (0, 0, 0), 5.0, INF)))  # fmt: skip
    solution = solve(scene)
    assert solution.path.motion is None
    focus = pair_focus(solution, (0, 1), 0)
    assert np.array_equal(focus.origin, np.zeros(3))
    assert (focus.sweep.a.center, focus.sweep.b.center) == ((20.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    assert (focus.sweep.a.velocity, focus.sweep.b.velocity) == ((1.0, 0.0, 0.0), (0.0, 0.0, 0.0))


def test_a_fixed_body_hit_by_another_does_not_turn_a_pair_it_belongs_to():
    """C (r 1) falls onto fixed B (x = 4) at t = 1; A (r 1) reaches B at t = 2.  B cannot be turned, so the
    pair (A, B) is first turned by its own contact at t = 2, which happens."""
    scene = Scene("all", 3.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0), SceneBody("B", (4, 0, 0), (0, 0, 0), 1.0, INF),
                                    SceneBody("C", (4, 4, 0), (0, -2, 0), 1.0)))  # fmt: skip
    solution = solve(scene)
    assert [(e.time, e.pair) for e in solution.events] == [(1.0, (1, 2)), (2.0, (0, 1))]
    focus = pair_focus(solution, (0, 1), 0)
    assert (focus.turn.time, focus.turn.pair, focus.contact_happens) == (2.0, (0, 1), True)


def test_a_later_segment_is_held_as_the_solver_holds_it_far_from_the_origin():
    """The corridor moved to x = 1000: A meets B (x = 1003) at t = 1 at x = 1001, then heads for C (x = 995).
    The solver holds the motion relative to (1000, 0, 0): the pair (A, C) from t = 1 is A at (1, 0, 0) and
    C at (−5, 0, 0) about that point."""
    scene = Scene("all", 3.0, 1.0, (SceneBody("A", (1000, 0, 0), (1, 0, 0), 1.0),
                                    SceneBody("B", (1003, 0, 0), (0, 0, 0), 1.0, INF),
                                    SceneBody("C", (995, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    focus = pair_focus(solve(scene), (0, 2), 1)
    assert focus.origin == (1000.0, 0.0, 0.0)
    assert (focus.sweep.a.center, focus.sweep.b.center) == ((1.0, 0.0, 0.0), (-5.0, 0.0, 0.0))
    assert focus.point((1.0, 0.0, 0.0)) == (1001.0, 0.0, 0.0)
