"""Question mode in the model (explorer/model/actions/asking.py and the session): the question, what stays hidden, the
time held at 0 while asking, and the reveal's stages in order ending at the first contact."""

from __future__ import annotations

import json

import pytest

from explorer.model.actions.asking import (
    ANSWER_LAYERS,
    STAGES,
    first_contact,
    guess_distance,
    hidden_layers,
    question_text,
    reveal_target,
    score_words,
)
from explorer.model.actions.session import Session
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.state.scene import SceneError


def _load(stem: str, **changes):
    data = json.loads((SCENES_DIR / f"{stem}.json").read_text())
    data.update(changes)
    return scene_io.from_dict(data)


def test_a_scene_asks_its_own_question_or_one_worded_from_its_mode():
    assert question_text(_load("default")) == "Will A touch B before t = 1?"
    assert question_text(_load("seed001_barely_fits")).startswith("Will A reach the wall of ")
    assert question_text(_load("snooker_break")).startswith("Which two bodies touch first")
    own = _load("default", question="Where will <b>A</b> touch B?")
    assert question_text(own) == "Where will <b>A</b> touch B?"  # text, kept as written
    assert json.loads(scene_io.dumps(own))["question"] == own.question


@pytest.mark.parametrize(
    ("changes", "field"),
    [({"question": 7}, "question"), ({"question": "x" * 5000}, "question"), ({"view": {"ask": "yes"}}, "view.ask")],
)
def test_a_bad_question_or_ask_is_refused_naming_its_field(changes, field):
    with pytest.raises(SceneError) as refused:
        _load("default", **changes)
    assert str(refused.value).startswith(field)


def test_while_asking_the_time_stays_at_0_and_no_event_is_inspected():
    session = Session(_load("snooker_break", view={"ask": True}))
    assert session.view.stage == "asking"
    session.set_time(0.6)
    session.set_playing(True)
    session.inspect(event=2)
    assert (session.view.time, session.view.playing, session.inspection.event) == (0.0, False, None)
    assert hidden_layers("asking") == frozenset(ANSWER_LAYERS)


def test_the_reveal_runs_the_time_to_the_first_contact_then_shows_the_marks_then_the_roots():
    scene = _load("default")
    session = Session(scene)
    session.set_time(0.8)
    session.ask(True)
    assert (session.view.stage, session.view.time) == ("asking", 0.0)
    session.reveal()
    stages, times = [], []
    for _ in range(40):
        session.advance_reveal(0.1)
        stages.append(session.view.stage)
        times.append(session.view.time)
    seen = [s for k, s in enumerate(stages) if k == 0 or s != stages[k - 1]]
    assert seen == ["running", "marks", "roots", "shown"] and STAGES == ("asking", *seen)
    assert times == sorted(times) and times[-1] == reveal_target(scene, session.solution) == session.solution.sweep.toi
    assert "roots" in hidden_layers("running") and "roots" not in hidden_layers("marks")
    assert "reflection" in hidden_layers("marks") and not hidden_layers("roots")
    session.set_time(0.2)  # the time is the user's again
    assert session.view.time == 0.2


def test_a_miss_reveals_up_to_the_horizon_and_asking_again_hides_it_again():
    scene = _load("default").with_body(0, velocity=(0.0, 9.0, 0.0))  # A flies away from B
    session = Session(scene)
    assert session.solution.sweep.toi is None and reveal_target(scene, session.solution) == scene.horizon
    session.ask(True)
    session.reveal()
    session.advance_reveal(5.0)
    assert session.view.stage == "shown" and session.view.time == scene.horizon
    session.ask(True)
    assert session.view.stage == "asking" and session.view.time == 0.0


@pytest.mark.parametrize("radius", [1.0, 0.9], ids=["a touch", "a miss"])
def test_stepping_through_the_events_while_asking_does_nothing_and_says_nothing(radius):
    """``[`` and ``]`` while asking: at 4decb2d a miss said "event: no events in this motion", a hit stepped or said
    "event: no earlier event" — the answer, to a student pressing a key."""
    bodies = [{"name": "A", "center": [-5, 1.95, 0], "velocity": [10, 0, 0], "radius": 1.0},
              {"name": "B", "center": [0, 0, 0], "velocity": [0, 0, 0], "radius": radius}]  # fmt: skip
    session = Session(_load("default", bodies=bodies, view={"ask": True}))
    assert bool(session.solution.events) == (radius == 1.0)  # the answers differ: 1.95 against R = 2 and 1.9
    for direction in (1, -1, 1):
        session.step_event(direction)  # no SceneError: no word
    assert (session.view.stage, session.view.time, session.inspection.event) == ("asking", 0.0, None)


def _scene_of(bodies, mode="all", horizon=1.0):
    return scene_io.from_dict({"format": "sphere-explorer/1", "mode": mode, "horizon": horizon, "restitution": 1.0,
                               "bodies": bodies})  # fmt: skip


def test_the_reveal_runs_to_the_first_of_several_touches_and_ignores_one_after_the_horizon():
    """A (r 0.5) at 8 a frame along x hits B (r 0.5, at 3) at t = (3 - 1) / 8 = 0.25; A then stops and B, at 8,
    hits C (r 0.5, at 6) at 0.25 + (6 - 3 - 1) / 8 = 0.5; D far away (x = 20) would be reached after h = 1 only."""
    ball = lambda name, x, v=0.0: {"name": name, "center": [x, 0, 0], "velocity": [v, 0, 0], "radius": 0.5}  # noqa: E731
    scene = _scene_of([ball("A", 0.0, 8.0), ball("B", 3.0), ball("C", 6.0), ball("D", 20.0)])
    solution = Session(scene).solution
    assert [e.time for e in solution.events] == [0.25, 0.5]  # two touches within h, worked out above
    assert reveal_target(scene, solution) == 0.25  # the first, not the last
    assert first_contact(scene, solution) == (2.5, 0.0, 0.0)  # where A and B meet: A's surface at x = 2 + 0.5
    late = _scene_of([ball("A", 0.0, 8.0), ball("D", 20.0)], mode="pair")  # D reached at (20 - 1) / 8 > 1
    assert reveal_target(late, Session(late).solution) == 1.0 and first_contact(late, Session(late).solution) is None


@pytest.mark.parametrize(
    ("click_x", "distance"),
    [(0.0, 0.0), (0.05, 0.1), (0.0499, 0.0998), (0.25, 0.5), (0.2501, 0.5002), (1.0, 2.0)],
)
def test_a_guess_is_as_far_from_the_contact_as_the_click_lands_in_a_s_radii(click_x, distance):
    """A click straight down at (click_x, 0) onto the plane z = 0 through the contact (0, 0, 0), seen from above:
    the guess lands click_x from it, i.e. click_x / 0.5 radii of A (r 0.5); both sides of 0.1 and 0.5 radii."""
    got = guess_distance((click_x, 0.0, 10.0), (0.0, 0.0, -1.0), (0.0, 0.0, -1.0), (0.0, 0.0, 0.0), 0.5)
    assert got == pytest.approx(distance, abs=1e-12)


def test_a_guess_along_the_plane_of_the_contact_has_no_distance_and_a_slanted_click_lands_where_it_meets_it():
    assert guess_distance((0.0, 0.0, 1.0), (1.0, 0.0, 0.0), (0.0, 0.0, -1.0), (0.0, 0.0, 0.0), 1.0) is None
    # from (0, 0, 2) towards (1, 0, -1)/√2: meets z = 0 at (2, 0, 0), 2 from the contact, 4 radii of 0.5
    slant = guess_distance((0.0, 0.0, 2.0), (2**-0.5, 0.0, -(2**-0.5)), (0.0, 0.0, -1.0), (0.0, 0.0, 0.0), 0.5)
    assert slant == pytest.approx(4.0, abs=1e-12)


def test_the_score_says_right_or_wrong_and_how_far():
    assert score_words(True, True, 0.25) == (
        "You said hit: right — they do touch; your point was 0.25 radii of A from the contact."
    )
    assert score_words(False, True, None) == "You said miss: wrong — they do touch."
    assert score_words(True, False, None) == "You said hit: wrong — they do not touch."
