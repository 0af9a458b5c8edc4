"""The verdict line and the status-bar notes, word for word, for every status, in every mode.

Each scene is small enough to solve by hand: the times in the comments are gaps over closing speeds.
"""

from __future__ import annotations

import math

import pytest
from model_scenes import knocked_out_of_the_way, scene_of

from explorer.model.derived.analysis import solve
from explorer.model.derived.inspection import event_focus, pair_focus
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.words.parabola import parabola
from explorer.model.words.text import (
    exact,
    exact_numbers,
    fmt,
    focus_status,
    polynomial,
    refusal,
    root_label,
    state_note,
    status_text,
)
from explorer.model.words.values import value_rows

INF = math.inf


def _pair(cb, va=(1, 0, 0), ca=(0, 0, 0), ra=1.0, rb=1.0, horizon=1.0):
    return scene_of("pair", [("A", ca, va, ra, 1.0), ("B", cb, (0, 0, 0), rb, INF)], horizon)


def _inside(ca, va):
    return scene_of("inside", [("A", ca, va, 1.0, 1.0), ("C", (0, 0, 0), (0, 0, 0), 4.0, INF)])


_CASES = {
    # gap 3 - 1 = 2 at speed 2: t0 = 1 within h = 2
    "hit": (_pair((3, 0, 0), (2, 0, 0), ra=0.5, rb=0.5, horizon=2.0), "A–B: HIT at {t0} = 1  (h = 2)", None),
    # gap 5 - 1 = 4 at speed 2: t0 = 2 > h = 1
    "later": (_pair((5, 0, 0), (2, 0, 0), ra=0.5, rb=0.5), "A–B: LATER — {t0} = 2 > h = 1", None),
    # p = (5, 5, 0), v = (-1, 0, 0): approaching, the path passes 5 from B's centre (at t = 5 < h), R = 2
    "miss": (_pair((5, 5, 0), horizon=10.0), "A–B: MISS — closest approach 5 > R = 2", None),
    "separating": (_pair((5, 0, 0), (-1, 0, 0)), "A–B: SEPARATING — moving apart, no contact", None),
    "still": (
        _pair((0, 5, 0), (0, 0, 0)),
        "A–B: NO RELATIVE MOTION — the gap stays 3",
        "No relative motion: the gap never changes, so there is no contact.",
    ),
    "overlapping": (
        _pair((1, 0, 0)),
        "A–B: OVERLAPPING at t = 0 (toi = 0)",
        "The spheres already overlap at t = 0: contact at toi = 0.",
    ),
    "same centre": (
        _pair((0, 0, 0)),
        "A–B: OVERLAPPING at t = 0 (toi = 0)",
        "The centres coincide: the contact normal is undefined (x axis shown).",
    ),
    # R = 4 - 1 = 3 from the centre at speed 4: the wall at t1 = 0.75
    "inside hit": (_inside((0, 0, 0), (4, 0, 0)), "A in C: HIT at {t1} = 0.75  (h = 1)", None),
    "inside later": (_inside((0, 0, 0), (2, 0, 0)), "A in C: LATER — {t1} = 1.5 > h = 1", None),
    "inside at the wall": (
        _inside((3, 0, 0), (2, 0, 0)),
        "A in C: OVERLAPPING at t = 0 (toi = 0)",
        "A touches or crosses the container wall at t = 0.",
    ),
    "outside": (
        _inside((9, 0, 0), (2, 0, 0)),
        "A in C: OUTSIDE — entirely outside the container at t = 0, no wall to reach",
        "A is entirely outside the container at t = 0: there is no wall to reach from inside.",
    ),
}


@pytest.mark.parametrize("name", list(_CASES))
def test_each_status_has_its_line_and_note(name):
    scene, line, note = _CASES[name]
    solution = solve(scene)
    assert status_text(scene, solution) == line.format(t0="t₀", t1="t₁")
    assert status_text(scene, solution, subscripts=False) == line.format(t0="t0", t1="t1")
    assert state_note(scene, solution) == note


def _row_of_three(mode):
    """A (r 0.5) at speed 2 towards B 2 away (contact at 0.5), C 2 further on; h = 2."""
    bodies = [
        ("A", (0, 0, 0), (2, 0, 0), 0.5, 1.0),
        ("B", (2, 0, 0), (0, 0, 0), 0.5, 1.0),
        ("C", (4, 0, 0), (0, 0, 0), 0.5, 1.0),
    ]
    return scene_of(mode, bodies, horizon=2.0)


def test_all_mode_counts_the_events_and_names_the_inspected_one():
    """A stops at t = 0.5 and B takes its speed 2; B meets C at 0.5 + (2 - 1) / 2 = 1: two events."""
    scene = _row_of_three("all")
    solution = solve(scene)
    assert status_text(scene, solution) == "A–B: HIT at t₀ = 0.5  (h = 2)   ·   2 events in all"
    assert focus_status(scene, solution, event_focus(solution, 1)) == "event 2 of 2 · B–C: HIT at t₀ = 1  (h = 2)"
    # B and C over the segment after the first event: on the motion's clock, from t = 0.5
    later = pair_focus(solution, (1, 2), 1)
    assert focus_status(scene, solution, later, subscripts=False) == "B–C: HIT at t0 = 1  (h = 2)   ·   from t = 0.5"
    assert status_text(scene, solution, focus=later) == "B–C: HIT at t₀ = 1  (h = 2)   ·   from t = 0.5"
    assert status_text(scene, solution, focus=pair_focus(solution, (0, 2), 0)) == "A–C: A and B meet first, at t = 0.5"
    one = scene_of("all", [("A", (0, 0, 0), (2, 0, 0), 0.5, 1.0), ("B", (3, 0, 0), (0, 0, 0), 0.5, 1.0)], 2.0)
    assert status_text(one, solve(one)) == "A–B: HIT at t₀ = 1  (h = 2)   ·   1 event in all"


def test_a_primary_contact_that_another_body_prevents_says_who_meets_first():
    """A (r 0.5) at speed 2 would meet B 4 away at t = 1.5; C comes down on B from 3 above at speed 4 and meets it
    at (3 - 1) / 4 = 0.5, knocking it out of A's way."""
    scene = knocked_out_of_the_way()
    solution = solve(scene)
    # C stops at (4, 1, 0) and B leaves at (0, -4, 0); A would touch C at x = 4, t = 2 > h: one event
    assert status_text(scene, solution) == "B and C meet first, at t = 0.5   ·   1 event in all"


def test_pair_mode_lets_other_bodies_pass_through_each_other():
    scene = _row_of_three("pair")
    solution = solve(scene)
    assert focus_status(scene, solution, pair_focus(solution, (1, 2), 0)) == (
        "B–C: pass through each other (pair mode: only A collides)"
    )


def test_the_small_words():
    assert (fmt(-0.0), fmt(1234567.0), fmt(-2.5e-7)) == ("0", "1.23457e+06", "-2.5e-07")  # six digits, no -0
    assert polynomial(-1.5, 0.0, -0.0, "τ") == "-1.5 τ² + 0 τ + 0"
    assert polynomial(81, -126, 44.16) == "81 t² − 126 t + 44.16"
    assert (root_label(0), root_label(1), root_label(1, subscripts=False)) == ("t₀", "t₁", "t1")
    assert refusal("bodies[2]: no such body") == "Refused: bodies[2]: no such body"


def test_a_number_that_is_its_sources_rounding_reads_0_and_exact_numbers_give_every_digit():
    """0.1 + 0.2 - 0.3 is 5.55e-17 in float64: read against the numbers it came from it is 0; a number as small
    that is all there is (no scale) is shown as it is; every digit, whatever the scale, inside exact_numbers."""
    residue = 0.1 + 0.2 - 0.3
    assert residue != 0.0
    assert (fmt(residue, 0.3), fmt(-residue, 0.3), fmt(residue)) == ("0", "0", "5.55112e-17")
    assert fmt(3e-10, 0.3) == "3e-10"  # ten orders below its source: a quantity, not rounding
    assert fmt(1e-12, 1.0) == "0" and fmt(1.01e-12, 1.0) == "1.01e-12"  # the edge: 1e-12 of the scale
    with exact_numbers():
        assert (fmt(residue, 0.3), fmt(2.0, 0.3), fmt(-0.0)) == ("5.551115123125783e-17", "2", "0")
        with exact_numbers(False):
            assert fmt(residue, 0.3) == "0"
        assert fmt(1 / 3) == "0.3333333333333333"
    assert fmt(1 / 3) == "0.333333"  # only inside the block
    assert float(exact(residue)) == residue and exact(1e16) == "1e+16" and exact(24.0) == "24"


def test_a_coefficient_that_is_rounding_reads_0_in_the_values_and_the_plots_title():
    """seed001_barely_fits at its second event: the ball starts its segment at the wall, |p|² − R² is 0 but the
    floats leave ~1e-18; f(τ) reads ``+ 0`` in the values panel and over the plot, the exact value with exact
    numbers (the decision's own trace keeps it: its sign is what was decided)."""
    scene = scene_io.load(SCENES_DIR / "seed001_barely_fits.json")
    solution = solve(scene)
    focus = event_focus(solution, 1)
    c = focus.sweep.coefficients[2]
    assert c != 0.0 and abs(c) < 1e-15
    rows = dict(value_rows(scene, solution, focus=focus))
    formula = next(text for name, text in rows.items() if name.startswith("f(τ)"))
    assert formula.endswith(" τ + 0"), formula
    title = parabola(solution, 0.0, focus).title()
    assert " τ + 0,  τ = t − " in title, title
    with exact_numbers():
        assert parabola(solution, 0.0, focus).title().split(",")[0].endswith(f" {exact(abs(c))}")
    assert polynomial(1.0, -1e-20, 1e-20, scales=(1.0, 1.0, 1.0)) == "1 t² + 0 t + 0"  # no "− 0"
