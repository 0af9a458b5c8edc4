"""The values panel's rows that need a scene of their own: a tunnel's one-line verdict, a root exactly at the
horizon, coinciding centres, a pair on a later segment, the event list's energy and limit, a pair-mode target.

Every scene is worked out by hand in its docstring; ``fmt`` writes numbers with six significant digits.
"""

from __future__ import annotations

import math

from explorer.model.derived.analysis import solve
from explorer.model.derived.inspection import event_focus, pair_focus
from explorer.model.derived.stepping import stepped_test
from explorer.model.state.scene import Scene, SceneBody
from explorer.model.words.values import conserved_rows, event_rows, trace_rows, value_rows

INF = math.inf


def pair(velocity, b_center=(6, 0, 0), horizon=1.0, radii=(1.0, 1.0), mode="pair", extra=()) -> Scene:
    return Scene(mode, horizon, 1.0, (SceneBody("A", (0, 0, 0), velocity, radii[0]),
                                      SceneBody("B", b_center, (0, 0, 0), radii[1], INF), *extra))  # fmt: skip


def test_the_stepped_engines_tunnel_is_one_line_in_the_panel():
    """A (r 0.5) at 20 per unit through B (r 0.5) at x = 6: contact at t = 0.25, steps at 0, 0.5, 1."""
    scene = pair((20, 0, 0), radii=(0.5, 0.5))
    solution = solve(scene)
    rows = dict(value_rows(scene, solution, steps=stepped_test(solution, 2)))
    assert rows["stepped engine"] == (
        "frame-stepped engine (2 steps of 0.5): MISSED — the contact at t = 0.25 falls between steps 0 and 1: "
        "it tunnels through"
    )


def test_a_root_exactly_at_the_horizon_is_in_the_window():
    """A at 4 per unit, B's surface 4 away: f = (6 − 4t)² − 4, roots 1 and 2; h = 1, so t₀ = h exactly."""
    scene = pair((4, 0, 0))
    rows = dict(value_rows(scene, solve(scene)))
    assert (rows["t₀"], rows["t₁"]) == ("1  (in [0, h])", "2  (outside [0, h])")


def test_coinciding_centres_are_said_beside_the_normal():
    """A and B (r 1 each) at the same place: overlapping from the start, the normal a fallback."""
    scene = pair((1, 0, 0), b_center=(0, 0, 0))
    rows = dict(value_rows(scene, solve(scene)))
    assert rows["contact normal"].endswith(" (centres coincide)")


def test_a_later_segment_says_since_when_and_each_events_velocities():
    """A at 1 per unit meets fixed B (x = 3) at t = 1, turns back, and meets fixed C (x = −5) at t = 5.

    The pair (A, C) from t = 1: 4 units of distance in 4 units of time, "from t = 1"; roots τ = 4, 8
    are t = 5 (in [1, h]) and 9 (outside).  Event 1 (A, B): A's velocity +1 before, −1 after."""
    scene = Scene("all", 8.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                    SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0, INF),
                                    SceneBody("C", (-5, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    solution = solve(scene)
    rows = dict(value_rows(scene, solution, focus=pair_focus(solution, (0, 2), 1)))
    assert (rows["frames to hit from t = 1"], rows["distance to hit from t = 1"]) == ("4", "4")
    assert (rows["t₀"], rows["t₁"]) == ("5  (in [1, h])", "9  (outside [1, h])")
    first = dict(value_rows(scene, solution, focus=event_focus(solution, 0), t=1.0))
    assert (first["A before"], first["A after"]) == ("(1, 0, 0)", "(-1, 0, 0)")


def test_the_event_list_with_energy_and_its_limit():
    """Three events of the corridor (t = 1, 5, 9 with h = 10): listed whole, or the first two."""
    scene = Scene("all", 10.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                     SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0, INF),
                                     SceneBody("C", (-5, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    solution = solve(scene)
    assert len(event_rows(scene, solution, limit=None)) == 3
    assert len(event_rows(scene, solution, limit=2)) == 2
    plain = event_rows(scene, solution, limit=None)
    with_energy = event_rows(scene, solution, limit=None, energy=True)
    assert [len(r) for r in with_energy] == [len(r) + 1 for r in plain]


def test_the_trace_of_a_chosen_pair():
    """Pair mode: A passes B far off and hits C: the trace of (A, B) is a miss's, of (A, C) a hit's."""
    scene = pair((4, 0, 0), b_center=(2, 9, 0), extra=(SceneBody("C", (6, 0, 0), (0, 0, 0), 1.0, INF),))
    solution = solve(scene)
    far = trace_rows(solution, pair_focus(solution, (0, 1), 0))
    near = trace_rows(solution, pair_focus(solution, (0, 2), 0))
    assert far != near
    assert trace_rows(solution) == near  # the primary pair is the one hit


def test_a_pair_mode_target_that_never_meets_a_says_only_a_collides():
    """Pair mode: B at rest (x = 6) and C moving (−2, 0, 0) from x = 10 would meet at t = 1, but only A
    collides in pair mode; A (at y = 5) passes above both."""
    scene = Scene("pair", 2.0, 1.0, (SceneBody("A", (0, 5, 0), (1, 0, 0), 1.0), SceneBody("B", (6, 0, 0)),
                                     SceneBody("C", (10, 0, 0), (-2, 0, 0), 1.0)))  # fmt: skip
    solution = solve(scene)
    rows = dict(value_rows(scene, solution, focus=pair_focus(solution, (1, 2), 0)))
    assert rows["contact"] == "never happens: only A collides in pair mode"


def test_momentum_across_an_event_with_two_fixed_bodies_names_both():
    scene = Scene("all", 10.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                     SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0, INF),
                                     SceneBody("C", (-5, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    rows = dict(conserved_rows(scene, solve(scene), 1.0, event=0))
    assert any("the fixed B takes the impulse" in text for text in rows.values())


def test_a_resting_contact_has_no_ricochet_angle():
    """A at rest touching fixed B: a contact at t = 0 with nothing coming in, so no angle to give."""
    scene = Scene("pair", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (0, 0, 0), 1.0),
                                     SceneBody("B", (2, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    assert dict(value_rows(scene, solve(scene)))["ricochet angle"] == "— to the tangent plane"
