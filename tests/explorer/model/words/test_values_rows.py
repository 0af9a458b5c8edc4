"""The values panel's rows, word for word, against numbers derived here by hand.

Every number the panel shows is written with six significant digits (``SIX``, the
rule ``text.fmt`` documents); each expected number below comes from the scene's
geometry worked out in the comments, not from the code under test.
"""

from __future__ import annotations

import math

from model_scenes import knocked_out_of_the_way, scene_of

from explorer.model.derived.analysis import solve
from explorer.model.derived.inspection import event_focus, pair_focus, primary_focus
from explorer.model.derived.stepping import stepped_test
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.words.values import (
    conserved_line,
    conserved_rows,
    energy_change,
    event_rows,
    pair_rows,
    trace_rows,
    value_rows,
    vector,
)

INF = math.inf


def six(x: float) -> str:
    """Six significant digits, a negative zero shown as 0."""
    return f"{x + 0.0:.6g}"


def vec(*xs: float) -> str:
    return "(" + ", ".join(six(x) for x in xs) + ")"


def test_the_default_scene_lists_every_value_of_its_solution():
    """A = (-5, -1.2, 0) moving (9, 1, 0), r 1; B fixed at (1.5, 0, 0), r 1.5 (the CLI test's derivation).

    p = (6.5, 1.2, 0), v = (-9, -1, 0), R = 2.5: f(t) = 82 t^2 - 119.4 t + 37.44, disc = 1976.04.
    """
    scene = scene_io.load(SCENES_DIR / "default.json")
    disc = 119.4**2 - 4 * 82 * 37.44
    t0, t1 = (119.4 - math.sqrt(disc)) / 164, (119.4 + math.sqrt(disc)) / 164
    t_min = 119.4 / 164
    closest = math.hypot(6.5 - 9 * t_min, 1.2 - t_min)
    a_at = (-5 + 9 * t0, -1.2 + t0)
    n = ((1.5 - a_at[0]) / 2.5, (0 - a_at[1]) / 2.5)
    vn = 9 * n[0] + 1 * n[1]
    reflected = (9 - 2 * vn * n[0], 1 - 2 * vn * n[1], 0.0)
    expected = [
        ("decided", "float64, error-bounded"),
        ("f(t)", "82 t² − 119.4 t + 37.44"),
        ("R", "2.5 = rA + rB"),
        ("discriminant", six(disc)),
        ("t₀", f"{six(t0)}  (in [0, h])"),
        ("t₁", f"{six(t1)}  (in [0, h])"),
        ("toi", six(t0)),
        ("vertex t_min", six(t_min)),
        ("closest approach", f"{six(closest)} at t = {six(t_min)} (gap {six(closest - 2.5)})"),
        ("contact point", vec(a_at[0] + n[0], a_at[1] + n[1], 0)),
        ("contact normal", vec(n[0], n[1], 0)),
        ("frames to hit", six(t0)),
        ("distance to hit", six(t0 * math.sqrt(82))),
        ("reflected velocity", vec(*reflected)),
        ("ricochet angle", f"{six(math.degrees(math.asin(abs(vn) / math.sqrt(82))))}° to the tangent plane"),
        ("A after", vec(*reflected)),
        ("B after", "(0, 0, 0)"),
        ("motion", "1 event(s) before the horizon"),
        ("momentum Σ m v", f"(9, 1, 0)  |p| = {six(math.sqrt(82))}"),  # B is fixed: only A counts
        ("kinetic energy Σ ½ m v²", "41"),
    ]
    assert value_rows(scene, solve(scene)) == expected
    # The decision trace: |p|^2 - R^2 = 37.44, |v|^2 = 82, p.v = -59.7, |v|^2 R^2 - |p x v|^2 = 512.5 - 4.3^2,
    # p.v + |v|^2 h = 22.3
    values = [row[2] for row in trace_rows(solve(scene))]
    assert values == ["37.44", "82", "-59.7", six(512.5 - 4.3**2), "22.3"]
    assert pair_rows(scene, solve(scene)) == []  # one other body: no list of pairs


def _paddle():
    """A free ball A at rest, r 1; a fixed paddle W of radius 1 at (0, 3, 0) moving (0, -2, 0); all mode, h = 1."""
    return scene_of("all", [("A", (0, 0, 0), (0, 0, 0), 1.0, 1.0), ("W", (0, 3, 0), (0, -2, 0), 1.0, INF)])


def test_an_inspected_blow_from_a_moving_fixed_body_changes_the_energy():
    """p = (0, 3, 0), v = (0, -2, 0), R = 2: f = 4 t^2 - 12 t + 5, disc = 144 - 80 = 64, roots 0.5 and 2.5.

    At t = 0.5 A is struck: relative to W it comes in at 2 and leaves at 2, so A leaves at -4 (the paddle's -2
    plus -2): the impulse on A is (0, -4, 0), its energy 0 -> 8, all of it the paddle's work.
    """
    scene = _paddle()
    solution = solve(scene)
    expected = [
        ("pair", "A–W"),
        ("segment", "from t = 0 to t = 0.5"),
        ("event", "1 of 1, at t = 0.5"),
        ("impulse on A", "(0, -4, 0)  |J| = 4"),
        ("decided", "float64, error-bounded"),
        ("f(t)", "4 t² − 12 t + 5"),
        ("R", "2 = rA + rB"),
        ("discriminant", "64"),
        ("t₀", "0.5  (in [0, h])"),
        ("t₁", "2.5  (outside [0, h])"),
        ("toi", "0.5"),
        ("vertex t_min", "1.5"),
        ("closest approach", "1 at t = 1 (gap -1)"),  # the vertex lies past h = 1: closest at t = 1, |3 - 2| = 1
        ("contact point", "(0, 1, 0)"),
        ("contact normal", "(0, 1, 0)"),
        ("frames to hit", "0.5"),
        ("distance to hit", "0"),  # A does not move before the blow
        ("reflected velocity", "(0, -4, 0)"),
        ("ricochet angle", "90° to the tangent plane"),
        ("A before", "(0, 0, 0)"),
        ("A after", "(0, -4, 0)"),
        ("W before", "(0, -2, 0)"),
        ("W after", "(0, -2, 0)"),
        ("motion", "1 event(s) before the horizon"),
        ("momentum Σ m v", "(0, -4, 0)  |p| = 4"),  # at t = 0.75, after the blow (W is fixed: not counted)
        ("kinetic energy Σ ½ m v²", "8"),
        ("Δ momentum here", "(0, -4, 0)  |Δp| = 4 (the fixed W takes the impulse)"),
        ("Δ energy here", "8  (e = 1: changed)"),
    ]
    assert value_rows(scene, solution, focus=event_focus(solution, 0), t=0.75) == expected
    assert event_rows(scene, solution, energy=True) == [("t = 0.5", "A–W", "(0, -4, 0)", "ΔE = 8")]
    assert event_rows(scene, solution) == [("t = 0.5", "A–W", "(0, -4, 0)")]
    assert event_rows(scene, solution, limit=0) == []


def _half_bounce():
    """Equal free balls (r 0.5, m 1): A at 0 moving (2, 0, 0), B at (3, 0, 0) at rest, restitution 0.5, h = 2;
    a fixed ball W (r 1) at (3, 4, 0) moving (0, -1, 0) that nobody meets."""
    bodies = [
        ("A", (0, 0, 0), (2, 0, 0), 0.5, 1.0),
        ("B", (3, 0, 0), (0, 0, 0), 0.5, 1.0),
        ("W", (3, 4, 0), (0, -1, 0), 1.0, INF),
    ]
    return scene_of("all", bodies, horizon=2.0, restitution=0.5)


def test_a_half_elastic_impact_loses_energy_and_keeps_momentum():
    """The gap 3 - 1 = 2 closes at 2: contact at t = 1.  With e = 0.5 the closing speed 2 becomes 1 apart:
    A 0.5, B 1.5 (momentum 2 kept), energy 2 -> 0.125 + 1.125 = 1.25, a loss of 0.75."""
    scene = _half_bounce()
    solution = solve(scene)
    assert event_rows(scene, solution, energy=True) == [("t = 1", "A–B", "(-1.5, 0, 0)", "ΔE = -0.75")]
    assert conserved_rows(scene, solution, 1.5, 0) == [
        ("momentum Σ m v", "(2, 0, 0)  |p| = 2"),
        ("kinetic energy Σ ½ m v²", "1.25"),
        ("Δ momentum here", "(0, 0, 0)  |Δp| = 0 (two free bodies keep it, to rounding)"),
        ("Δ energy here", "-0.75  (e = 0.5: lost)"),
    ]
    assert conserved_rows(scene, solution, 0.5) == [
        ("momentum Σ m v", "(2, 0, 0)  |p| = 2"),
        ("kinetic energy Σ ½ m v²", "2"),
    ]
    assert conserved_line(scene, solution, 1.5) == "Σ m v = (2, 0, 0), |p| = 2   ·   kinetic energy 1.25"
    assert pair_rows(scene, solution) == ["A–B: hit at 1", "A–W: miss"]


def test_a_pair_over_a_later_segment_is_shown_on_the_motion_s_clock():
    """A and W from t = 1 (after A's bounce): A at (2, 0, 0) moving (0.5, 0, 0), W at (3, 3, 0) moving (0, -1, 0).

    p = (1, 3, 0), v = (-0.5, -1, 0), R = 1.5: f(tau) = 1.25 tau^2 - 7 tau + 7.75, disc = 49 - 38.75 = 10.25;
    roots (7 -+ sqrt(10.25)) / 2.5 both past the segment's remaining horizon 1; vertex 7 / 2.5 = 2.8; closest
    within it at tau = 1: |(0.5, 2, 0)| = sqrt(4.25).
    """
    scene = _half_bounce()
    solution = solve(scene)
    root = math.sqrt(10.25)
    expected = [
        ("pair", "A–W"),
        ("segment", "from t = 1 to t = 2"),
        ("decided", "float64, error-bounded"),
        ("f(τ), τ = t − 1", "1.25 τ² − 7 τ + 7.75"),
        ("R", "1.5 = rA + rB"),
        ("discriminant", "10.25"),
        ("t₀", f"{six(1 + (7 - root) / 2.5)}  (outside [1, h])"),
        ("t₁", f"{six(1 + (7 + root) / 2.5)}  (outside [1, h])"),
        ("toi", "none"),
        ("vertex t_min", "3.8"),
        ("closest approach", f"{six(math.sqrt(4.25))} at t = 2 (gap {six(math.sqrt(4.25) - 1.5)})"),
        ("motion", "1 event(s) before the horizon"),
        ("momentum Σ m v", "(2, 0, 0)  |p| = 2"),
        ("kinetic energy Σ ½ m v²", "2"),
    ]
    assert value_rows(scene, solution, focus=pair_focus(solution, (0, 2), 1)) == expected


def _between_fixed(velocity_b):
    """A (r 1, at rest) between fixed C (r 1) at x = -2, touching it, and fixed B (r 1) at x = 2.5 moving
    ``velocity_b``; all mode, h = 2."""
    bodies = [
        ("A", (0, 0, 0), (0, 0, 0), 1.0, 1.0),
        ("B", (2.5, 0, 0), velocity_b, 1.0, INF),
        ("C", (-2, 0, 0), (0, 0, 0), 1.0, INF),
    ]
    return scene_of("all", bodies, horizon=2.0)


def test_a_squeezed_ball_says_where_the_motion_stops_and_that_it_touches_c_from_the_start():
    """B closes the gap 2.5 - 2 = 0.5 at speed 1: it meets A at t = 0.5 while A touches C: jammed there.

    The primary pair A-C touches at rest: f = 0 t^2 + 0 t + 0 (p = (-2, 0, 0), R = 2), no discriminant to show.
    The contact is there from t = 0, before B arrives: at (-1, 0, 0), the normal from A to C (-1, 0, 0),
    nothing coming in (no angle, both at rest after).
    """
    scene = _between_fixed((-1, 0, 0))
    solution = solve(scene)
    n = len(solution.events)
    assert value_rows(scene, solution) == [
        ("decided", "exactly (integer arithmetic)"),
        ("f(t)", "0 t² + 0 t + 0"),
        ("R", "2 = rA + rB"),
        ("discriminant", "—"),
        ("roots", "none (no real root)"),
        ("toi", "0"),
        ("closest approach", "2 at t = 0 (gap 0)"),
        ("contact point", "(-1, 0, 0)"),
        ("contact normal", "(-1, 0, 0)"),
        ("frames to hit", "0"),
        ("distance to hit", "0"),
        ("reflected velocity", "(0, 0, 0)"),
        ("ricochet angle", "— to the tangent plane"),
        ("A after", "(0, 0, 0)"),
        ("C after", "(0, 0, 0)"),
        (
            "motion",
            f"{n} event(s); the motion stops at t = 0.5: jammed: fixed bodies B, C squeeze a cluster at t = 0.5",
        ),
        ("momentum Σ m v", "(0, 0, 0)  |p| = 0"),
        ("kinetic energy Σ ½ m v²", "0"),
    ]


def test_a_jam_is_named_in_the_event_row_and_loses_the_energy():
    """A (m 1) touching fixed B and C on both sides, moving (1, 0, 0): the impulses at t = 0 never end, so the
    jam rule gives A the fixed bodies' velocity 0: its impulse is (-1, 0, 0) and its energy 1/2 is lost."""
    bodies = [
        ("A", (0, 0, 0), (1, 0, 0), 1.0, 1.0),
        ("B", (2, 0, 0), (0, 0, 0), 1.0, INF),
        ("C", (-2, 0, 0), (0, 0, 0), 1.0, INF),
    ]
    scene = scene_of("all", bodies)
    solution = solve(scene)
    n = len(solution.events)
    rows = dict(value_rows(scene, solution, focus=event_focus(solution, n - 1)))
    assert rows["event"] == f"{n} of {n}, at t = 0 (a jam: the cluster moves on together)"
    assert rows["impulse on A"] == "(-1, 0, 0)  |J| = 1"
    assert rows["t₀"] == "0  (in [0, h])"  # touching at t = 0: a root at the start of the span is in it
    assert (rows["A before"], rows["A after"]) == ("(1, 0, 0)", "(0, 0, 0)")
    assert rows["Δ momentum here"] == "(-1, 0, 0)  |Δp| = 1 (the fixed B takes the impulse)"
    assert rows["Δ energy here"] == "-0.5  (e = 1: lost)"
    listed = event_rows(scene, solution, limit=None, energy=True)
    assert len(listed) == n and listed[-1] == ("t = 0", "A–B (jam)", "(-1, 0, 0)", "ΔE = -0.5")
    assert listed[0] == ("t = 0", "A–B", "(-2, 0, 0)", "ΔE = 0")  # the elastic blows before the jam keep it
    assert len(event_rows(scene, solution)) == 40  # the panel lists at most 40


def test_a_miss_without_real_roots_and_the_stepped_engine_s_line():
    """A (r 1) moving (1, 0, 0) past fixed B (r 1) at (0, 5, 0): p = (0, 5, 0), v = (-1, 0, 0): f = t^2 + 21,
    disc = -84; closest at t = 0, distance 5, gap 3.  Four frames of 0.25 never overlap."""
    scene = scene_of("pair", [("A", (0, 0, 0), (1, 0, 0), 1.0, 1.0), ("B", (0, 5, 0), (0, 0, 0), 1.0, INF)])
    solution = solve(scene)
    assert value_rows(scene, solution, steps=stepped_test(solution, 4)) == [
        ("decided", "float64, error-bounded"),
        ("f(t)", "1 t² + 0 t + 21"),
        ("R", "2 = rA + rB"),
        ("discriminant", "-84"),
        ("roots", "none (no real root)"),
        ("toi", "none"),
        ("vertex t_min", "0"),
        ("closest approach", "5 at t = 0 (gap 3)"),
        ("motion", "0 event(s) before the horizon"),
        ("momentum Σ m v", "(1, 0, 0)  |p| = 1"),
        ("kinetic energy Σ ½ m v²", "0.5"),
        ("stepped engine", "frame-stepped engine (4 steps of 0.25): no overlap, as in the continuous answer"),
    ]
    still = scene_of("pair", [("A", (0, 0, 0), (0, 0, 0), 1.0, 1.0), ("B", (0, 5, 0), (0, 0, 0), 1.0, INF)])
    rows = dict(value_rows(still, solve(still)))
    assert "vertex t_min" not in rows and rows["discriminant"] == "—" and rows["f(t)"] == "0 t² + 0 t + 21"


def test_inside_mode_uses_the_container_s_radius_less_the_ball_s():
    """A (r 1) from the centre of C (r 4) at (2, 0, 0): R = 3, f = 4 t^2 - 9, roots -1.5 and 1.5, both outside
    [0, 1]; the wall is 3 away."""
    scene = scene_of("inside", [("A", (0, 0, 0), (2, 0, 0), 1.0, 1.0), ("C", (0, 0, 0), (0, 0, 0), 4.0, INF)])
    rows = value_rows(scene, solve(scene))
    assert rows[1:7] == [
        ("f(t)", "4 t² + 0 t − 9"),
        ("R", "3 = rC − rA"),
        ("discriminant", "144"),
        ("t₀", "-1.5  (outside [0, h])"),
        ("t₁", "1.5  (outside [0, h])"),
        ("toi", "none"),
    ]


def test_a_later_target_in_pair_mode_is_turned_away_by_the_first():
    """A (r 0.5) at speed 2 meets B (r 0.5) 2 away at t = 0.5 first; C at x = 4 would be met at
    (4 - 1) / 2 = 1.5: f = 4 t^2 - 16 t + 15, roots 1.5 and 2.5."""
    bodies = [
        ("A", (0, 0, 0), (2, 0, 0), 0.5, 1.0),
        ("B", (2, 0, 0), (0, 0, 0), 0.5, 1.0),
        ("C", (4, 0, 0), (0, 0, 0), 0.5, 1.0),
    ]
    scene = scene_of("pair", bodies, horizon=2.0)
    solution = solve(scene)
    steps = stepped_test(solution, 4)  # the stepped engine tests the primary pair only: not listed for A-C
    rows = dict(value_rows(scene, solution, steps=steps, focus=pair_focus(solution, (0, 2), 0)))
    assert "stepped engine" not in rows
    assert rows["pair"] == "A–C" and rows["segment"] == "from t = 0 to t = 0.5"
    assert (rows["f(t)"], rows["toi"]) == ("4 t² − 16 t + 15", "1.5")
    assert rows["contact"] == "never happens: A and B meet first, at t = 0.5"
    assert "contact point" not in rows and "frames to hit" not in rows


def test_a_vector_and_an_exact_energy_change_are_shown_plainly():
    assert vector((1.0, -0.0, 2.5e-7)) == "(1, 0, 2.5e-07)"  # six digits, no negative zero
    assert vector((24.0, -2.220446049250313e-16, 0.0)) == "(24, 0, 0)"  # a component that is the others' rounding
    assert vector((2.2e-16, 0.0, 0.0)) == "(2.2e-16, 0, 0)"  # alone, a small number is what it is
    assert vector((2.2e-16, 0.0, 0.0), scale=24.0) == "(0, 0, 0)"  # a sum of momenta of 24 that cancel
    scene = _half_bounce()
    event = solve(scene).events[0]
    assert energy_change(scene, event, 0.0) == "0"  # a loss (e = 0.5) shown as it is, even when zero


def test_the_primary_contact_that_another_body_prevents_names_who_meets_first():
    """A (r 0.5) at speed 2 would meet B 4 away at t = 1.5; C comes down on B from 3 above at speed 4 and meets
    it at (3 - 1) / 4 = 0.5, knocking it out of A's way: the primary pair's contact never happens."""
    scene = knocked_out_of_the_way()
    solution = solve(scene)
    rows = dict(value_rows(scene, solution, focus=primary_focus(solution)))
    # the A–B quadratic: (4 - 2 t)^2 - 1^2
    assert rows["f(t)"] == "4 t² − 16 t + 15" and rows["contact"] == "never happens: B and C meet first, at t = 0.5"
    assert "contact point" not in rows and "reflected velocity" not in rows
