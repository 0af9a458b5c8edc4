"""Question mode in the model (explorer/model/actions/asking.py and the session): the question, what stays hidden, the
time held at 0 while asking, and the reveal's stages in order ending at the first contact."""

from __future__ import annotations

import json

import pytest

from explorer.model.actions.asking import ANSWER_LAYERS, STAGES, hidden_layers, question_text, reveal_target
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
