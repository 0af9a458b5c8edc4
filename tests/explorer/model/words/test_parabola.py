"""The parabola plot's data: the curve, its roots and vertex, the time range and the contact spans.

Every expected number is worked out by hand in the comments from the scene's
centres and velocities (f(t) = |d(t)|² − R² with d the centre-to-centre vector),
not from the solver's own fields.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.model.derived.analysis import solve
from explorer.model.derived.inspection import pair_focus
from explorer.model.state.scene import Scene, SceneBody
from explorer.model.words.parabola import SAMPLES, Parabola, parabola, time_range
from explorer.model.words.text import polynomial

INF = math.inf


def pair(a_velocity: float, horizon: float) -> Scene:
    """A (r 1) at the origin moving along x; B (r 1, fixed) at x = 6: f(t) = (6 − a_velocity t)² − 4."""
    return Scene("pair", horizon, 1.0, (SceneBody("A", (0, 0, 0), (a_velocity, 0, 0), 1.0),
                                        SceneBody("B", (6, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip


def close(got: tuple[float, float], want: tuple[float, float]) -> bool:
    return all(math.isclose(g, w, rel_tol=1e-12, abs_tol=1e-12) for g, w in zip(got, want, strict=True))


# -- the time range ------------------------------------------------------------------------------


def test_the_range_reaches_the_roots_beyond_the_horizon():
    # f = (6 − 4t)² − 4 = 16 (t − 1)(t − 2): roots 1 and 2, vertex 1.5, all within 6 h = 3 of h = 0.5.
    # [0, h] ∪ {1, 2, 1.5} spans [0, 2]; the margin is 0.15 × max(2, 0.5) = 0.3.
    solution = solve(pair(4.0, 0.5))
    assert close(time_range(solution), (-0.3, 2.3))


def test_the_range_reaches_back_to_roots_in_the_past():
    # A moving away: f = (6 + 4t)² − 4 = 16 (t + 1)(t + 2): roots −2, −1, vertex −1.5; h = 1 (6 h = 6).
    # Times 0, 1, −2, −1, −1.5 span [−2, 1]; margin 0.15 × max(3, 1) = 0.45.
    solution = solve(pair(-4.0, 1.0))
    assert close(time_range(solution), (-2.45, 1.45))


@pytest.mark.parametrize(
    "velocity, expected",
    [
        # h = 0.25, 6 h = 1.5: the vertex at exactly 1.5 counts, the root at 2 does not.
        # Times 0, 0.25, 1, 1.5 span [0, 1.5]; margin 0.15 × 1.5 = 0.225.
        (4.0, (-0.225, 1.725)),
        # Mirrored: the vertex at exactly −1.5 counts, the root at −2 does not.
        # Times 0, 0.25, −1, −1.5 span [−1.5, 0.25]; margin 0.15 × 1.75 = 0.2625.
        (-4.0, (-1.7625, 0.5125)),
    ],
)
def test_roots_more_than_six_horizons_away_are_left_out_and_six_exactly_kept(velocity, expected):
    assert close(time_range(solve(pair(velocity, 0.25))), expected)


def test_with_every_root_far_away_the_range_is_the_horizon_and_its_margin():
    # h = 0.1: roots 1, 2 and vertex 1.5 all beyond 6 h = 0.6; [0, 0.1] with margin 0.015.
    solution = solve(pair(4.0, 0.1))
    assert close(time_range(solution), (-0.015, 0.115))
    assert parabola(solution).contact_spans() == []  # the contact [1, 2] is off the plot


# -- the curve -------------------------------------------------------------------------------------


def test_the_curve_its_roots_vertex_and_marks():
    solution = solve(pair(4.0, 0.5))
    curve = parabola(solution)
    lo, hi = -0.3, 2.3
    assert np.shape(curve.t) == np.shape(curve.f) == (SAMPLES,)
    assert close((curve.t[0], curve.t[-1]), (lo, hi))
    assert np.allclose(np.diff(curve.t), (hi - lo) / (SAMPLES - 1), rtol=1e-9)
    assert np.allclose(curve.f, (6 - 4 * np.asarray(curve.t)) ** 2 - 4, rtol=0, atol=1e-12)
    assert (curve.a, curve.b, curve.c) == (16.0, -48.0, 32.0)
    assert close(curve.roots, (1.0, 2.0))
    assert close(curve.vertex, (1.5, -4.0))
    assert (curve.horizon, curve.contact_below, curve.now, curve.start) == (0.5, True, 0.0, 0.0)
    assert close(curve.t_range, (lo, hi))
    assert close(curve.contact_spans()[0], (1.0, 2.0)) and len(curve.contact_spans()) == 1
    assert curve.variable == "t"
    assert curve.title() == "f(t) = " + polynomial(16.0, -48.0, 32.0)
    assert parabola(solution, now=0.25).now == 0.25


def test_a_miss_has_no_roots_and_a_pair_at_rest_has_no_vertex():
    # A passes B 3 apart (R = 2): f = (6 − 4t)² + 9 − 4 > 0 everywhere, vertex at t = 1.5, f = 5.
    miss = Scene("pair", 2.0, 1.0, (SceneBody("A", (0, 0, 0), (4, 0, 0), 1.0),
                                    SceneBody("B", (6, 3, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    curve = parabola(solve(miss))
    assert curve.roots is None
    assert close(curve.vertex, (1.5, 5.0))
    assert curve.contact_spans() == []
    # A resting against B (gap 0): f ≡ 0, no roots to draw (a = b = 0), touching over the whole range.
    rest = Scene("pair", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (0, 0, 0), 1.0),
                                    SceneBody("B", (2, 0, 0), (0, 0, 0), 1.0)))  # fmt: skip
    curve = parabola(solve(rest))
    assert curve.vertex is None
    assert np.all(np.asarray(curve.f) == 0.0)
    assert curve.contact_spans() == [curve.t_range]


def test_inside_a_container_contact_is_where_f_is_above_zero():
    # Ball r 1 at the origin moving (2, 0, 0) in a container r 4 at the origin: R = 3,
    # f = (2t)² − 9: roots −1.5 and 1.5, vertex (0, −9); h = 1 → times 0, 1, ±1.5 → [−1.5, 1.5],
    # margin 0.15 × 3 = 0.45.
    scene = Scene("inside", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (2, 0, 0), 1.0),
                                       SceneBody("B", (0, 0, 0), (0, 0, 0), 4.0, INF)))  # fmt: skip
    curve = parabola(solve(scene))
    assert curve.contact_below is False
    assert close(curve.t_range, (-1.95, 1.95))
    assert np.allclose(curve.f, (2 * np.asarray(curve.t)) ** 2 - 9, rtol=0, atol=1e-12)
    assert close(curve.roots, (-1.5, 1.5))
    spans = curve.contact_spans()
    assert len(spans) == 2 and close(spans[0], (-1.95, -1.5)) and close(spans[1], (1.5, 1.95))


def test_a_later_segment_on_the_motions_clock():
    """A (r 1) at 0 moving (1, 0, 0) meets fixed B (r 1) at x = 3 at t = 1 and turns back at x = 1.

    From then, A against fixed C (r 1) at x = −5: d = 6 − τ with τ = t − 1, f(τ) = τ² − 12 τ + 32 =
    (τ − 4)(τ − 8): roots at t = 5 and 9, vertex at t = 7 (f = −4).  h = 8: times 0, 8, 5, 9, 7 →
    [0, 9], margin 0.15 × 9 = 1.35.  (The primary pair's range differs: A–B, roots 1 and 5, vertex 3,
    gives [0, 8] and margin 1.2.)
    """
    scene = Scene("all", 8.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                    SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0, INF),
                                    SceneBody("C", (-5, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    solution = solve(scene)
    focus = pair_focus(solution, (0, 2), 1)
    assert focus.start == 1.0
    assert close(time_range(solution, focus), (-1.35, 10.35))
    assert close(time_range(solution), (-1.2, 9.2))
    curve = parabola(solution, 2.0, focus)
    assert close(curve.t_range, (-1.35, 10.35)) and close((curve.t[0], curve.t[-1]), (-1.35, 10.35))
    assert (curve.a, curve.b, curve.c) == (1.0, -12.0, 32.0)
    assert close(curve.roots, (5.0, 9.0))
    assert close(curve.vertex, (7.0, -4.0))
    assert np.allclose(curve.f, (6 - (np.asarray(curve.t) - 1.0)) ** 2 - 4, rtol=0, atol=1e-9)
    assert (curve.start, curve.now) == (1.0, 2.0)
    assert curve.variable == "τ"
    assert curve.title() == f"f(τ) = {polynomial(1.0, -12.0, 32.0, 'τ')},  τ = t − 1"
    assert curve.title(" | ") == f"f(τ) = {polynomial(1.0, -12.0, 32.0, 'τ')} | τ = t − 1"
    # the primary pair (A, B) is another curve: f = (3 − t)² − 4, roots 1 and 5
    assert close(parabola(solution).roots, (1.0, 5.0))


# -- contact spans and the window, on curves built by hand ------------------------------------


def curve(roots, t_range, below=True, f0=1.0, start=0.0, horizon=1.0) -> Parabola:
    return Parabola(np.array([f0, 7.0]), np.array([f0, 7.0]), 1.0, 0.0, 0.0, roots, None, horizon, below, t_range,
                    0.0, start)  # fmt: skip


@pytest.mark.parametrize(
    "roots, t_range, below, expected",
    [
        ((1.0, 2.0), (2.0, 3.0), True, [(2.0, 2.0)]),  # touching at the range's first instant
        ((1.0, 2.0), (-1.0, 1.0), True, [(1.0, 1.0)]),  # and at its last
        ((1.0, 2.0), (2.5, 3.0), True, []),
        ((1.0, 2.0), (-1.0, 0.5), True, []),
        ((1.0, 2.0), (0.0, 3.0), False, [(0.0, 1.0), (2.0, 3.0)]),
        ((1.0, 2.0), (1.0, 2.0), False, []),  # only the two instants at the wall: nothing to shade
        ((1.0, 2.0), (1.5, 3.0), False, [(2.0, 3.0)]),
    ],
)
def test_contact_spans_with_roots(roots, t_range, below, expected):
    assert curve(roots, t_range, below).contact_spans() == expected


@pytest.mark.parametrize(
    "below, f0, touching",
    [(True, 0.0, True), (True, -1.0, True), (True, 0.5, False),
     (False, 0.0, True), (False, 0.5, True), (False, -1.0, False)],
)  # fmt: skip
def test_contact_spans_without_roots_follow_the_sign_of_f(below, f0, touching):
    assert curve(None, (-1.0, 2.0), below, f0).contact_spans() == ([(-1.0, 2.0)] if touching else [])


def test_the_window_is_from_the_segments_start_to_the_horizon_inclusive():
    window = curve(None, (0.0, 2.0), start=0.5, horizon=1.0)
    assert [window.in_window(t) for t in (0.49, 0.5, 0.75, 1.0, 1.01)] == [False, True, True, True, False]


def test_a_root_far_in_a_later_segments_past_is_kept_within_six_horizons():
    """A (r 1) at 1 per unit meets fixed B (x = 3) at t = h = 1 and turns back, away from fixed C (r 1) at
    (x_c, 1.5) with x_c = 6.5 − √1.75.  From t = 1, A is at 1 − τ: |d|² = (1 − τ − x_c)² + 2.25 = 4 gives
    τ = 1 − x_c ∓ √1.75, i.e. τ₀ = −5.5 and τ₁ = −5.5 + 2√1.75; the vertex is at τ = 1 − x_c.  On the
    motion's clock the root is at t = 1 − 5.5 = −4.5, within 6 h of the start: it sets the range's start."""
    root = math.sqrt(1.75)
    x_c = 6.5 - root
    scene = Scene("all", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                    SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0, INF),
                                    SceneBody("C", (x_c, 1.5, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    solution = solve(scene)
    focus = pair_focus(solution, (0, 2), 1)
    assert focus.start == 1.0
    lo, hi = time_range(solution, focus)
    span = 1.0 - (1.0 - 5.5)  # from the root at t = −4.5 to the horizon
    assert close((lo, hi), (-4.5 - 0.15 * span, 1.0 + 0.15 * span))
