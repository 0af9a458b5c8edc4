"""Each session action's undo label, the one change it announces, and the undo history's mechanics.

``test_session.py`` follows the user's actions; here every action is checked
for the exact label the Edit menu will show and the exact :class:`Change` the
window hears (one per action), and the history for its limits.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from explorer.model.actions import edits
from explorer.model.actions.session import LATER_RANGE, TIME_MARGIN, Change, Session, time_range
from explorer.model.formats import scene_io
from explorer.model.state.history import MAX_HISTORY, History
from explorer.model.state.scene import Scene, SceneBody, SceneError

INF = math.inf
CAMERA = {"position": [0.0, -9.0, 0.0], "focal_point": [0.0, 0.0, 0.0], "up": [0.0, 0.0, 1.0]}


def three(mode: str = "all") -> Scene:
    return Scene(mode, 1.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0), SceneBody("B", (5, 0, 0), (0, 0, 0), 1.0),
                                  SceneBody("C", (0, 6, 0), (0, 0, 0), 1.0)))  # fmt: skip


def pair(a_velocity: float = 4.0, horizon: float = 1.0) -> Scene:
    """A (r 1) at the origin moving along x, B (r 1, fixed) at x = 6: contact at t = 4 / a_velocity."""
    return Scene("pair", horizon, 1.0, (SceneBody("A", (0, 0, 0), (a_velocity, 0, 0), 1.0),
                                        SceneBody("B", (6, 0, 0), (0, 0, 0), 1.0, INF)))  # fmt: skip


def listened(scene: Scene, path: Path | None = None) -> tuple[Session, list[Change]]:
    session = Session(scene, path)
    heard: list[Change] = []
    session.subscribe(heard.append)
    return session, heard


EDIT = Change.SCENE | Change.HISTORY


# -- each action: its label and its one announcement ------------------------------------------------


def test_mode_switches_are_edits_and_the_same_mode_is_nothing():
    session, heard = listened(three())
    session.set_mode("all")
    assert heard == [] and not session.history.can_undo
    session.set_mode("pair")
    assert (session.scene.mode, session.history.undo_label, heard) == ("pair", "mode pair", [EDIT])


def test_fixed_and_movable():
    session, heard = listened(three())
    session.select(2)
    session.set_fixed(True)
    assert (session.scene.bodies[2].mass, session.history.undo_label) == (INF, "fixed")
    session.set_fixed(False)
    assert (session.scene.bodies[2].mass, session.history.undo_label) == (1.0, "movable")
    assert session.scene.bodies[1].mass == 1.0  # only the selected body
    assert heard == [Change.SELECTION, EDIT, EDIT]


def test_container_on_and_off():
    scene = three().with_body(2, radius=20.0, center=(0.0, 0.0, 0.0))
    session, heard = listened(scene)
    session.select(2)
    session.set_container(True)
    assert [b.container for b in session.scene.bodies] == [False, False, True]
    assert session.history.undo_label == "container"
    session.set_container(False)
    assert [b.container for b in session.scene.bodies] == [False, False, False]
    assert session.history.undo_label == "no container"
    assert heard == [Change.SELECTION, EDIT, EDIT]


def test_adding_and_removing_bodies_are_labelled_and_announced_once():
    session, heard = listened(three())
    session.add_body()
    assert ([b.name for b in session.scene.bodies], session.view.selected) == (["A", "B", "C", "D"], 3)
    assert session.history.undo_label == "add body"
    assert heard == [EDIT | Change.SELECTION]
    session.select(1)
    session.remove_body()
    assert [b.name for b in session.scene.bodies] == ["A", "C", "D"]
    assert session.history.undo_label == "remove body"
    assert heard == [EDIT | Change.SELECTION, Change.SELECTION, EDIT]


def test_typed_fields_are_labelled_by_what_they_change():
    session, _ = listened(three())
    session.select(1)
    for field, text, label in [("horizon", "2", "edit horizon"), ("restitution", " 0,5 ", "edit restitution"),
                               ("body.radius", "1.5", "edit radius"), ("body.mass", "3", "edit mass"),
                               ("body.center.2", "-1", "edit center"), ("body.velocity.0", "2e-1", "edit velocity")]:  # fmt: skip
        session.edit_field(field, text)
        assert session.history.undo_label == label
    b = session.scene.bodies[1]
    assert (session.scene.horizon, session.scene.restitution) == (2.0, 0.5)
    assert (b.radius, b.mass, b.center, b.velocity) == (1.5, 3.0, (5.0, 0.0, -1.0), (0.2, 0.0, 0.0))


@pytest.mark.parametrize(
    "field, text, message",
    [
        ("body.radius", "big", "B.radius: 'big' is not a number"),
        ("body.center.0", "x" * 50, f"B.center.0: {'x' * 40!r} is not a number"),
        ("body.mass", "1_0", "B.mass: '1_0' is not a number"),  # float() would read 10
        ("horizon", "inf", "horizon: must be finite"),
        ("body.spin", "1", "body.spin: not a field that can be edited"),
    ],
)
def test_typed_text_refused_names_the_field(field, text, message):
    session, heard = listened(three())
    session.select(1)
    heard.clear()
    with pytest.raises(SceneError) as info:
        session.edit_field(field, text)
    assert str(info.value) == message
    assert heard == [] and not session.history.can_undo


def test_a_nudge_is_labelled_with_its_signed_ulps_and_a_refused_one_names_why():
    session, _ = listened(pair())
    session.nudge_graze(3)
    assert session.history.undo_label == "nudge +3 ulp"
    session.nudge_graze(-2)
    assert session.history.undo_label == "nudge -2 ulp"
    with pytest.raises(SceneError) as info:
        edits.nudged(pair(), 1, 0)
    with pytest.raises(ValueError) as direct:
        from explorer.model.derived.precision import nudge_graze

        nudge_graze(pair(), 1, 0)
    assert str(info.value) == str(direct.value) and str(info.value)


def test_a_drag_lands_as_one_edit_announced_with_the_history():
    session, heard = listened(pair(horizon=0.5))
    session.set_playing(True)
    heard.clear()
    session.begin_drag(1, "velocity", (6.0, 0.0, 0.0))
    assert (session.dragging, session.view.selected, session.view.playing) == (True, 1, False)
    paused = Change.SELECTION | Change.PLAYING | Change.TIME  # playing and time are one announcement
    assert heard == [paused]
    session.drag_to((7.0, 0.5, 0.0))  # the tip moved (1, 0.5, 0) at h = 0.5: velocity + (2, 1, 0)
    assert session.scene.bodies[1].velocity == (2.0, 1.0, 0.0)
    assert not session.history.can_undo
    session.end_drag()
    assert (session.dragging, session.history.undo_label) == (False, "drag B velocity")
    assert heard == [paused, Change.SCENE, Change.HISTORY]
    session.end_drag()  # no drag: nothing
    assert len(heard) == 3
    session.undo()
    assert session.scene.bodies[1].velocity == (0.0, 0.0, 0.0)


# -- documents ----------------------------------------------------------------------------------------


def test_opening_a_document_starts_over(tmp_path: Path):
    session, heard = listened(three())
    session.select(2)
    session.edit_field("horizon", "2")
    session.set_time(0.5)
    heard.clear()
    path = tmp_path / "pair.json"
    scene_io.save(pair(), path)
    session.open_file(path)
    assert session.path == path
    assert (session.scene, session.view.selected, session.view.time) == (pair(), 0, 0.0)
    assert not session.history.can_undo and not session.history.can_redo
    assert len(heard) == 1 and Change.SCENE | Change.DOCUMENT | Change.HISTORY in heard[0]
    session.open_pasted("a.center 0 0 0\na.radius 1\nb.center 5 0 0\nb.radius 1\n")
    assert session.path is None and session.scene.bodies[1].center == (5.0, 0.0, 0.0)


def test_saving_sets_the_path_and_announces_it(tmp_path: Path):
    session, heard = listened(pair())
    session.set_camera(CAMERA)
    heard.clear()
    path = tmp_path / "saved.json"
    session.save(path)
    assert (session.path, heard) == (path, [Change.HISTORY])
    assert scene_io.load(path).view["camera"] == CAMERA
    other = dict(CAMERA, position=[0.0, 9.0, 0.0])
    assert session.saved_scene(other).view["camera"] == other


def test_view_actions_reach_their_parts():
    session, heard = listened(pair())
    session.set_layer("roots", False)
    session.set_speed(2.5)
    session.remember_camera({"position": [1, 1, 1], "focal_point": [1, 1, 1]})  # refused: ignored
    session.remember_camera(CAMERA)
    assert (session.layers.visible["roots"], session.playback.speed, session.camera.camera) == (False, 2.5, CAMERA)
    assert heard == [Change.LAYERS, Change.PLAYING]


# -- the time slider's range ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "velocity, horizon, end",
    [
        (4.0, 1.0, 1.0),  # contact at t = 1 = h: within the frame, the range is [0, h]
        (4.0, 0.5, 1.0),  # contact at 1 = 2 h: the range reaches it
        (4.0, 1.0 / 3.0, 1.0),  # contact at exactly 3 h: still reached
        (4.0, 0.25, 0.25),  # contact at 4 h: too far, the range is [0, h]
    ],
)
def test_the_range_reaches_a_contact_up_to_three_horizons_on(velocity, horizon, end):
    scene = pair(velocity, horizon)
    session = Session(scene)
    assert LATER_RANGE == 3.0
    assert session.time_range() == (0.0, pytest.approx(end * (1 + TIME_MARGIN), rel=1e-12))
    assert time_range(scene, session.solution) == session.time_range()


# -- the history ------------------------------------------------------------------------------------------


def test_history_pushes_undoes_and_redoes():
    scenes = [pair(v) for v in (1.0, 2.0, 3.0, 4.0)]
    history = History(scenes[0])
    assert (history.can_undo, history.can_redo, history.undo_label, history.redo_label) == (False, False, None, None)
    history.push(scenes[0], "nothing")  # the same scene: not an edit
    assert not history.can_undo
    history.push(scenes[1], "one")
    history.push(scenes[2], "two")
    assert (history.current, history.undo_label) == (scenes[2], "two")
    assert history.undo() == scenes[1] and history.undo() == scenes[0]
    assert history.undo() == scenes[0]  # nothing before the start
    assert history.redo_label == "one"
    assert history.redo() == scenes[1]
    assert history.redo_label == "two"
    history.push(scenes[3], "three")  # a new edit drops what could be redone
    assert (history.can_redo, history.undo_label) == (False, "three")
    assert history.undo() == scenes[1] and history.redo() == scenes[3]
    assert history.redo() == scenes[3]


def test_the_same_scene_with_another_view_is_an_edit():
    history = History(pair())
    history.push(pair().with_changes(view={"steps": 20}), "steps")
    assert history.undo_label == "steps"


def test_history_keeps_the_last_edits_up_to_its_limit():
    scenes = [pair(1.0 + k / 1000) for k in range(MAX_HISTORY + 1)]
    history = History(scenes[0])
    for k, scene in enumerate(scenes[1:MAX_HISTORY], start=1):
        history.push(scene, f"edit {k}")
    undone = 0
    while history.can_undo:
        history.undo()
        undone += 1
    assert (undone, history.current) == (MAX_HISTORY - 1, scenes[0])  # MAX_HISTORY entries: all kept
    while history.can_redo:
        history.redo()
    history.push(scenes[MAX_HISTORY], "the last")  # one more: the oldest goes
    undone = 0
    while history.can_undo:
        history.undo()
        undone += 1
    assert (undone, history.current) == (MAX_HISTORY - 1, scenes[1])
    assert history.redo_label == "edit 2"


def test_reset_forgets_everything():
    history = History(pair(1.0))
    history.push(pair(2.0), "two")
    history.reset(pair(3.0))
    assert (history.current, history.can_undo, history.can_redo) == (pair(3.0), False, False)


def test_a_drag_of_a_centre_moves_it_by_the_pointer():
    drag = edits.Drag(0, "center", pair(), np.array([0.5, 0.0, 0.0]))
    assert drag.moved_to([1.0, 2.0, -1.0]).bodies[0].center == (0.5, 2.0, -1.0)
    assert drag.label(pair()) == "drag A centre"


def gas_outside() -> Scene:
    """A container scene the scene model accepts and the motion refuses: a ball wholly outside its container."""
    return Scene("all", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0), SceneBody("B", (3, 0, 0), (0, 0, 0), 1.0),
                                   SceneBody("W", (100, 0, 0), (0, 0, 0), 9.0, INF, True)))  # fmt: skip


def test_opening_a_scene_the_solver_refuses_changes_nothing(tmp_path: Path):
    path = tmp_path / "pair.json"
    session, heard = listened(pair(), path)
    session.edit_field("horizon", "2")
    heard.clear()
    before = (session.scene, session.path, session.history.undo_label)
    with pytest.raises(SceneError, match="outside the container"):
        session.open_scene(gas_outside(), tmp_path / "gas.json")
    assert (session.scene, session.path, session.history.undo_label) == before
    assert heard == [] and not session.dragging


def test_opening_solves_once_and_starts_a_fresh_history(monkeypatch):
    from explorer.model.actions import session as session_module

    solved = []
    real = session_module.solve
    monkeypatch.setattr(session_module, "solve", lambda scene: solved.append(scene) or real(scene))
    session, _ = listened(pair())
    assert not session.dragging
    solved.clear()
    session.open_scene(pair(2.0), None)
    assert solved == [pair(2.0)]
    assert not session.dragging
    session.edit_field("horizon", "3")
    session.undo()
    assert session.scene == pair(2.0)
    session.redo()
    assert session.scene.horizon == 3.0


def test_an_ended_drag_is_redone_as_it_ended():
    session, _ = listened(pair())
    session.begin_drag(0, "center", (0.0, 0.0, 0.0))
    session.drag_to((0.0, 2.0, 0.0))
    session.end_drag()
    session.undo()
    session.redo()
    assert session.scene.bodies[0].center == (0.0, 2.0, 0.0)


def test_a_layer_is_shown_again():
    session, heard = listened(pair())
    session.set_layer("roots", False)
    session.set_layer("roots", True)
    assert session.layers.visible["roots"] is True
    assert heard == [Change.LAYERS, Change.LAYERS]
