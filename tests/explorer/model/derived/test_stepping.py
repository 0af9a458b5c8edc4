"""The frame-stepped engine beside the exact answer: its positions, which steps see the contact, its verdict.

Scenes are chosen so that every step lands on a number worked out by hand in
the comments, and the boundary cases (touching exactly at a step) are exact in
floating point.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.model.derived.analysis import solve
from explorer.model.derived.stepping import stepped_test
from explorer.model.state.scene import Scene, SceneBody, SceneError
from explorer.model.words.text import fmt

INF = math.inf


def pair(a_velocity, b_velocity=(0, 0, 0), horizon=1.0, b_center=(6, 0, 0), radii=(1.0, 1.0)) -> Scene:
    return Scene("pair", horizon, 1.0, (SceneBody("A", (0, 0, 0), a_velocity, radii[0]),
                                        SceneBody("B", b_center, b_velocity, radii[1], INF)))  # fmt: skip


def test_positions_at_each_step_for_both_bodies():
    # A at 0 moving (2, 0, 0), B at (6, 0, 0) moving (-2, 1, 0), 4 steps of 0.25
    engine = stepped_test(solve(pair((2, 0, 0), (-2, 1, 0))), 4)
    assert np.array_equal(engine.times, [0.0, 0.25, 0.5, 0.75, 1.0])
    assert np.array_equal(engine.a_centers, [[0, 0, 0], [0.5, 0, 0], [1, 0, 0], [1.5, 0, 0], [2, 0, 0]])
    assert np.array_equal(engine.b_centers, [[6, 0, 0], [5.5, 0.25, 0], [5, 0.5, 0], [4.5, 0.75, 0], [4, 1, 0]])


def test_touching_exactly_at_a_step_is_seen():
    # A moving (4, 0, 0) meets B (gap 4) at exactly t = 1 = the last step: |6 − 4| = 2 = R
    engine = stepped_test(solve(pair((4, 0, 0))), 4)
    assert engine.caught == (False, False, False, False, True)
    assert (engine.first, engine.continuous_toi, engine.tunnels) == (4, 1.0, False)
    assert engine.summary(fmt) == (
        "frame-stepped engine (4 steps of 0.25): overlap seen at step 4, t = 1; the contact began at t = 1"
    )


def test_a_contact_between_steps_is_seen_late():
    # A moving (5, 0, 0): contact at t = 0.8; steps of 0.5 see it at t = 1 (gap 1 <= 2)
    engine = stepped_test(solve(pair((5, 0, 0))), 2)
    assert engine.caught == (False, False, True)
    assert engine.summary(fmt, " — ") == (
        "frame-stepped engine (2 steps of 0.5): overlap seen at step 2, t = 1; the contact began at t = 0.8"
    )


def test_a_fast_body_tunnels_through_between_two_steps():
    # A (r 0.5) moving (20, 0, 0) through B (r 0.5) at x = 6: contact at t = 5 / 20 = 0.25; at the
    # steps t = 0, 0.5, 1 A is at 0, 10, 20: never within 1 of B.
    scene = pair((20, 0, 0), radii=(0.5, 0.5))
    engine = stepped_test(solve(scene), 2)
    assert engine.caught == (False, False, False)
    assert (engine.first, engine.continuous_toi, engine.tunnels) == (None, 0.25, True)
    assert engine.summary(fmt) == (
        "frame-stepped engine (2 steps of 0.5): MISSED\n"
        "the contact at t = 0.25 falls between steps 0 and 1: it tunnels through"
    )
    assert engine.summary(fmt, " — ").startswith("frame-stepped engine (2 steps of 0.5): MISSED — the contact")


def test_one_step_and_no_contact():
    engine = stepped_test(solve(pair((1, 0, 0))), 1)  # A reaches x = 1: gap 5, no contact
    assert engine.summary(fmt) == "frame-stepped engine (1 step of 1): no overlap, as in the continuous answer"
    assert (engine.first, engine.continuous_toi, engine.tunnels) == (None, None, False)


def test_a_contact_after_the_horizon_is_not_the_engines_to_see():
    engine = stepped_test(solve(pair((2, 0, 0))), 2)  # contact at t = 2 > h = 1
    assert (engine.first, engine.continuous_toi, engine.tunnels) == (None, None, False)


def test_inside_a_container_the_wall_is_reached_when_the_gap_reaches_the_radius_difference():
    # ball r 1 at the origin moving (3, 0, 0) in a container r 4: contact when |3 t| = 3, t = 1 exactly
    scene = Scene("inside", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (3, 0, 0), 1.0),
                                       SceneBody("B", (0, 0, 0), (0, 0, 0), 4.0, INF)))  # fmt: skip
    engine = stepped_test(solve(scene), 3)
    assert engine.caught == (False, False, False, True)
    assert (engine.first, engine.continuous_toi) == (3, 1.0)


def test_each_solution_computes_each_n_once_and_n_is_checked():
    solution = solve(pair((4, 0, 0)))
    assert stepped_test(solution, 4) is stepped_test(solution, 4)
    assert stepped_test(solution, 5) is not stepped_test(solution, 4)
    with pytest.raises(SceneError) as info:
        stepped_test(solution, 0)
    assert str(info.value) == "steps: expected a whole number from 1 to 1000, got 0"


def test_a_pair_overlapping_from_the_start_is_seen_at_step_zero():
    # A (r 1) and B (r 1) 1.5 apart: already overlapping; the exact answer is contact at t = 0
    engine = stepped_test(solve(pair((0, 0, 0), b_center=(1.5, 0, 0))), 2)
    assert (engine.first, engine.continuous_toi) == (0, 0.0)
    assert engine.summary(fmt) == (
        "frame-stepped engine (2 steps of 0.5): overlap seen at step 0, t = 0; the contact began at t = 0"
    )
