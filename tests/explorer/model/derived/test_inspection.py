"""The event inspector's rules: slider marks, stepping between events, the chosen pair and the focus it gives.

The motion used throughout, worked out by hand: A (r 1) at the origin moving (1, 0, 0) between two fixed
walls, B (r 1) at x = 3 and C (r 1) at x = −5, horizon 10.  A touches B when at x = 1 (t = 1), turns back,
touches C when at x = −3 (t = 5), and B again at t = 9: events (A, B), (A, C), (A, B) at t = 1, 5, 9.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from explorer.model.derived.analysis import SceneEvent, solve
from explorer.model.derived.inspection import Inspection, event_marks, mark_of, pair_focus, primary_focus, step_target
from explorer.model.state.scene import Scene, SceneBody, SceneError
from explorer.model.state.view_parts import Change

INF = math.inf


def corridor(mode: str = "all", horizon: float = 10.0) -> Scene:
    return Scene(mode, horizon, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                      SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0, INF),
                                      SceneBody("C", (-5, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip


@pytest.fixture(scope="module")
def motion():
    solution = solve(corridor())
    assert [(e.time, e.pair) for e in solution.events] == [(1.0, (0, 1)), (5.0, (0, 2)), (9.0, (0, 1))]
    return solution


def events_at(*times: float) -> tuple[SceneEvent, ...]:
    return tuple(SceneEvent(t, (0, 1), (0.0, 0.0, 0.0), "impact") for t in times)


# -- the time slider's marks ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "span, fractions, firsts",
    [
        ((0.0, 10.0), [0.1, 0.5, 0.9], [0, 1, 2]),
        ((0.0, 5.0), [0.2, 1.0], [0, 1]),  # an event at the end of the span is marked
        ((1.0, 9.0), [0.0, 0.5, 1.0], [0, 1, 2]),  # and one at its start
        ((2.0, 4.0), [], []),
        ((5.0, 5.0), [], []),  # an empty span has no marks
    ],
)
def test_each_event_in_the_span_is_marked_at_its_fraction(motion, span, fractions, firsts):
    assert event_marks(motion.events, span) == (fractions, firsts)


def test_simultaneous_events_share_one_mark_that_inspects_the_first():
    events = events_at(1.0, 2.0, 2.0, 3.0)
    assert event_marks(events, (0.0, 4.0)) == ([0.25, 0.5, 0.75], [0, 1, 3])
    solution = SimpleNamespace(events=events)
    assert [mark_of(solution, [0, 1, 3], k) for k in (None, 0, 1, 2, 3)] == [None, 0, 1, 1, 2]
    assert mark_of(solution, [0, 3], 1) is None  # its time is not marked


# -- stepping between events ---------------------------------------------------------------------------------


def test_step_target_from_an_inspected_event_or_from_the_time():
    events = events_at(1.0, 5.0, 5.0, 9.0)
    assert [step_target(events, 0.0, k, +1) for k in (0, 2, 3)] == [1, 3, None]
    assert [step_target(events, 0.0, k, -1) for k in (0, 1, 3)] == [None, 0, 2]
    assert step_target(events, 5.0, None, +1) == 1  # the first at or after t
    assert step_target(events, 5.0, None, -1) == 2  # the last at or before t
    assert step_target(events, 6.0, None, +1) == 3
    assert step_target(events, 0.5, None, -1) is None
    assert step_target(events, 9.5, None, +1) is None
    assert step_target((), 1.0, None, +1) is None


def test_stepping_past_either_end_says_why(motion):
    inspection = Inspection()
    assert inspection.step(motion, 5.0, +1) == 1
    inspection.choose(motion, event=2)
    with pytest.raises(SceneError) as info:
        inspection.step(motion, 9.0, +1)
    assert str(info.value) == "event: no later event"
    inspection.choose(motion, event=0)
    with pytest.raises(SceneError) as info:
        inspection.step(motion, 1.0, -1)
    assert str(info.value) == "event: no earlier event"
    quiet = solve(corridor(horizon=0.5))
    with pytest.raises(SceneError) as info:
        Inspection().step(quiet, 0.0, +1)
    assert str(info.value) == "event: no events in this motion"


# -- choosing an event or a pair ------------------------------------------------------------------------------


def test_choosing_an_event_then_a_pair_then_nothing(motion):
    inspection = Inspection()
    heard = []
    inspection.subscribe(heard.append)
    inspection.choose(motion, event=1)
    assert (inspection.event, inspection.pair) == (1, (0, 2))
    inspection.choose(motion, pair=(2, 1))
    assert (inspection.event, inspection.pair) == (None, (2, 1))
    inspection.choose(motion, event=1)
    inspection.choose(motion)
    assert (inspection.event, inspection.pair) == (None, None)
    assert heard == [Change.INSPECTION] * 4


@pytest.mark.parametrize("event", [3, -1, True, 1.0])
def test_an_event_that_is_not_there_is_refused(motion, event):
    with pytest.raises(SceneError) as info:
        Inspection().choose(motion, event=event)
    assert str(info.value) == f"event: no event {event!r} (the motion has 3)"


@pytest.mark.parametrize("pair", [(0, 0), (0, 3), (-1, 1), (True, 1)])
def test_a_pair_that_is_not_two_bodies_is_refused(motion, pair):
    with pytest.raises(SceneError) as info:
        Inspection().choose(motion, pair=pair)
    assert str(info.value) == f"pair: expected two different bodies, got {pair!r}"


def test_a_container_is_always_second_in_a_pair():
    scene = Scene("all", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                    SceneBody("W", (0, 0, 0), (0, 0, 0), 9.0, INF, True),
                                    SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0)))  # fmt: skip
    inspection = Inspection()
    inspection.choose(solve(scene), pair=(1, 0))
    assert inspection.pair == (0, 1)
    inspection.choose(solve(scene), pair=(2, 0))
    assert inspection.pair == (2, 0)  # no container in it: as given


def test_a_new_scene_keeps_the_pair_only_while_both_bodies_are_there(motion):
    inspection = Inspection()
    inspection.choose(motion, event=1)  # the pair (0, 2)
    inspection.keep_within(3)
    assert (inspection.event, inspection.pair) == (None, (0, 2))
    inspection.keep_within(2)
    assert inspection.pair is None


def test_the_inspected_event_is_active_only_at_its_time_and_while_it_exists(motion):
    inspection = Inspection()
    inspection.choose(motion, event=2)
    assert [inspection.active(motion, t) for t in (9.0, 8.5)] == [2, None]
    shorter = solve(corridor(horizon=6.0))  # two events: event 2 is not one of them
    assert len(shorter.events) == 2
    assert inspection.active(shorter, 9.0) is None


# -- the focus ------------------------------------------------------------------------------------------------------


def test_the_focus_follows_the_pair_and_the_segment_and_is_computed_once(motion):
    inspection = Inspection()
    assert inspection.focus(motion, 0.5) is inspection.focus(motion, 7.0)  # the primary pair, at any time
    assert inspection.focus(motion, 0.5).primary is True
    inspection.choose(motion, pair=(0, 1))  # the primary pair chosen by hand: at segment 0 it is the primary
    assert inspection.focus(motion, 0.5).primary is True
    later = inspection.focus(motion, 2.0)  # after the first event: A against B from t = 1
    assert (later.primary, later.segment, later.start) == (False, 1, 1.0)
    inspection.choose(motion, pair=(0, 2))
    early, late = inspection.focus(motion, 0.5), inspection.focus(motion, 2.0)
    assert (early.start, late.start) == (0.0, 1.0)
    assert inspection.focus(motion, 2.0) is late
    inspection.choose(motion, event=1)
    assert inspection.focus(motion, 5.0).event == 1
    assert primary_focus(motion).segment == 0


def test_a_segment_starting_at_the_horizon_looks_on_for_one_horizon():
    # A moving (1, 0, 0) touches B (x = 3) at exactly t = h = 1, and turns back towards C (x = −5):
    # from t = 1 the pair (A, C) is 6 apart closing at 1: contact 4 later, past the horizon.
    solution = solve(corridor(horizon=1.0))
    focus = pair_focus(solution, (0, 2), 1)
    assert (focus.start, focus.sweep.horizon) == (1.0, 1.0)


def test_pairs_without_a_in_pair_mode_pass_through_one_another():
    # B moving (−1, 0, 0) reaches C at rest at t = 2 (centres 4 apart, radii 1 + 1); A passes 5 above.
    # In pair mode only A collides, so B and C pass through one another; in all mode they meet.
    bodies = (SceneBody("A", (0, 5, 0), (1, 0, 0), 1.0), SceneBody("B", (4, 0, 0), (-1, 0, 0), 1.0),
              SceneBody("C", (0, 0, 0), (0, 0, 0), 1.0))  # fmt: skip
    in_pair = pair_focus(solve(Scene("pair", 4.0, 1.0, bodies)), (1, 2), 0)
    assert (in_pair.turn, in_pair.contact_happens, in_pair.primary) == (None, False, False)
    in_all = pair_focus(solve(Scene("all", 4.0, 1.0, bodies)), (1, 2), 0)
    assert (in_all.turn.pair, in_all.turn.time, in_all.contact_happens) == ((1, 2), 2.0, True)


def test_a_focus_gives_the_response_with_the_scenes_restitution():
    # A (mass 1) moving (1, 0, 0) into B (mass 1) at rest 3 apart, e = 0.5: at contact A keeps
    # (1 − e) / 2 = 0.25 of its velocity and B takes (1 + e) / 2 = 0.75.
    scene = Scene("all", 2.0, 0.5, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0), SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0),
                                    SceneBody("C", (0, 9, 0), (0, 0, 0), 1.0, INF), SceneBody("D", (5, 9, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    solution = solve(scene)
    focus = pair_focus(solution, (0, 1), 0)
    assert focus.impact.a_after == pytest.approx((0.25, 0.0, 0.0))
    assert focus.impact.b_after == pytest.approx((0.75, 0.0, 0.0))
    walls = pair_focus(solution, (2, 3), 0)  # two fixed bodies: a contact, no response
    assert walls.impact is None


def test_the_status_line_of_an_inspected_event_counts_the_motions_events(motion):
    """Event 2 is A against C at t = 5 (A from x = 1 at t = 1 moving −1, C's surface at −4: 4 later)."""
    from explorer.model.derived.inspection import event_focus
    from explorer.model.words.text import status_text

    focus = event_focus(motion, 1)
    assert status_text(motion.scene, motion, focus=focus) == "event 2 of 3 · A–C: HIT at t₀ = 5  (h = 10)"
    assert status_text(motion.scene, motion, False, focus=focus) == "event 2 of 3 · A–C: HIT at t0 = 5  (h = 10)"


def test_a_pair_with_the_container_is_swept_inside_it():
    """A (r 1) at the origin moving (2, 0, 0) in a container W (r 5) at the origin: the wall is 4 away,
    reached at t = 2; B (r 1) sits at (0, 3, 0) out of A's way."""
    scene = Scene("all", 3.0, 1.0, (SceneBody("A", (0, 0, 0), (2, 0, 0), 1.0),
                                    SceneBody("W", (0, 0, 0), (0, 0, 0), 5.0, INF, True),
                                    SceneBody("B", (0, 3, 0), (0, 0, 0), 1.0)))  # fmt: skip
    focus = pair_focus(solve(scene), (0, 1), 0)
    assert focus.sweep.inside is True
    assert focus.sweep.roots == pytest.approx((-2.0, 2.0))
    assert focus.sweep.horizon == 3.0


def test_a_focus_response_weighs_the_masses():
    """A (mass 1) at 1 per unit into B (mass 3) at rest, e = 1: A leaves at (1 − 3) / 4 = −0.5, B at 2 / 4 = 0.5."""
    scene = Scene("all", 4.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0), SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0, 3.0),
                                    SceneBody("C", (0, 9, 0), (0, 0, 0), 1.0)))  # fmt: skip
    focus = pair_focus(solve(scene), (0, 1), 0)
    assert focus.impact.a_after == pytest.approx((-0.5, 0.0, 0.0))
    assert focus.impact.b_after == pytest.approx((0.5, 0.0, 0.0))


def test_two_fixed_bodies_touching_have_a_contact_but_no_response():
    scene = Scene("all", 1.0, 1.0, (SceneBody("A", (0, 5, 0), (1, 0, 0), 1.0), SceneBody("B", (0, 0, 0), (0, 0, 0), 1.0, INF),
                                    SceneBody("C", (2, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    focus = pair_focus(solve(scene), (1, 2), 0)
    assert focus.impact is None


def test_a_pair_touching_at_rest_before_another_body_arrives_is_in_contact():
    """A (r 1) at rest touches fixed C (x = −2); fixed B (x = 2.5) comes at 1 per unit and meets A at
    t = 0.5.  A and C touch from t = 0, before B turns A: their contact happens.  A and B's contact at
    0.5 is their own event."""
    scene = Scene("all", 2.0, 1.0, (SceneBody("A", (0, 0, 0), (0, 0, 0), 1.0),
                                    SceneBody("B", (2.5, 0, 0), (-1, 0, 0), 1.0, INF),
                                    SceneBody("C", (-2, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    solution = solve(scene)
    assert solution.other == 2 and solution.contact_happens
    resting = pair_focus(solution, (0, 2), 0)
    assert (resting.turn.time, resting.contact_happens) == (0.5, True)
    assert pair_focus(solution, (0, 1), 0).contact_happens


def test_a_pair_touching_at_the_instant_another_event_turns_it_is_in_contact():
    """A (r 1) at rest touches fixed C (x = −2) and fixed B (x = 2), which moves into it: everything happens
    at t = 0, B's push listed first.  A and C touch at that instant: their contact is reached."""
    scene = Scene("all", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (0, 0, 0), 1.0),
                                    SceneBody("B", (2, 0, 0), (-1, 0, 0), 1.0, INF),
                                    SceneBody("C", (-2, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    solution = solve(scene)
    focus = pair_focus(solution, (0, 2), 0)
    assert (focus.turn.time, focus.turn.pair, focus.contact_happens) == (0.0, (0, 1), True)


def test_a_later_contact_another_body_comes_first_to_never_happens():
    """The corridor with a fixed D (r 1) at x = −2.5: after turning at t = 1 (x = 1), A meets D when at
    x = −0.5, at t = 2.5, before it could meet C (at t = 5).  On that segment, A–C's contact never happens;
    A–C from t = 0 (moving apart) has no contact at all."""
    scene = Scene("all", 10.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0),
                                     SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0, INF),
                                     SceneBody("C", (-5, 0, 0), (0, 0, 0), 1.0, INF),
                                     SceneBody("D", (-2.5, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip
    solution = solve(scene)
    assert [(e.time, e.pair) for e in solution.events][:2] == [(1.0, (0, 1)), (2.5, (0, 3))]
    later = pair_focus(solution, (0, 2), 1)
    assert (later.sweep.toi, later.turn.time, later.turn.pair, later.contact_happens) == (4.0, 2.5, (0, 3), False)
    apart = pair_focus(solution, (0, 2), 0)
    assert (apart.sweep.hit, apart.turn.time, apart.contact_happens) == (False, 1.0, False)


def test_the_focus_of_a_drag_s_next_preview_does_not_push_out_the_one_shown(motion):
    """The window works out a drag's next preview, its focus included, while the one shown is drawn."""
    inspection = Inspection()
    preview = solve(corridor(horizon=6.0))
    shown, next_ = inspection.focus(motion, 0.5), inspection.focus(preview, 0.5)
    assert inspection.focus(motion, 0.5) is shown and inspection.focus(preview, 0.5) is next_
