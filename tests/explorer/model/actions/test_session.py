"""The session behind the window, without a display: every user action, what it tells listeners, what it refuses."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest

from explorer.model.actions import session as session_module
from explorer.model.actions.session import Change, Session
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.state.scene import SceneError
from solver import Status


def _open(stem: str = "default") -> tuple[Session, list[Change]]:
    path = SCENES_DIR / f"{stem}.json"
    session = Session(scene_io.load(path), path)
    changes: list[Change] = []
    session.subscribe(changes.append)
    return session, changes


def test_the_session_runs_without_qt_or_a_display():
    code = (
        "import sys; from explorer.model.actions.session import Session; from explorer.model.formats import scene_io;"
        "from explorer.model.formats.gallery import DEFAULT_SCENE; s = Session(scene_io.load(DEFAULT_SCENE));"
        "s.edit_field('body.center.1', '0.5'); s.set_time(0.3); s.undo();"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyvista', 'vtkmodules', 'matplotlib')];"
        "assert not bad, bad; print(s.scene.bodies[0].center[1])"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert float(out.stdout) == -1.2


def test_a_typed_value_is_one_undoable_edit_and_tells_listeners():
    session, changes = _open()
    session.edit_field("body.center.1", "4.5")
    assert session.scene.bodies[0].center[1] == 4.5
    assert changes == [Change.SCENE | Change.HISTORY]
    assert session.history.undo_label == "edit center"
    session.undo()
    assert session.scene.bodies[0].center[1] == -1.2
    session.redo()
    assert session.scene.bodies[0].center[1] == 4.5


@pytest.mark.parametrize(
    "field, text, message",
    [
        ("body.radius", "0", "radius"),
        ("body.radius", "-2", "radius"),
        ("body.radius", "abc", "not a number"),
        ("body.radius", "1e400", "finite"),
        ("body.mass", "1e308", "mass"),
        ("body.mass", "5e-324", "mass"),
        ("horizon", "0", "horizon"),
        ("restitution", "1.5", "restitution"),
        ("body.center.0", "1e300", "center"),
        ("nonsense", "1", "nonsense"),
    ],
)
def test_a_refused_value_changes_nothing_and_names_the_field(field, text, message):
    session, changes = _open()
    before, solution = session.scene, session.solution
    with pytest.raises(SceneError, match=message):
        session.edit_field(field, text)
    assert session.scene is before and session.solution is solution
    assert not session.history.can_undo  # never reaches the undo stack
    assert changes == []


def test_each_change_is_solved_once_and_view_changes_are_not_solved(monkeypatch):
    calls = []
    real = session_module.solve
    monkeypatch.setattr(session_module, "solve", lambda scene: calls.append(scene) or real(scene))
    session, changes = _open()
    assert len(calls) == 1  # on opening
    session.edit_field("body.velocity.0", "8")
    assert len(calls) == 2
    session.set_time(0.5)
    session.set_layer("minkowski", False)
    session.select(1)
    session.set_rest_frame(True)
    session.turn(0.1)
    assert len(calls) == 2  # view state never re-solves (nor re-validates) the scene
    assert changes[1:] == [Change.TIME, Change.LAYERS, Change.SELECTION, Change.REFERENCE, Change.REFERENCE]
    assert session.view.layers["minkowski"] is False and session.scene.layers["minkowski"] is True


def test_a_drag_previews_live_and_lands_as_one_edit():
    session, changes = _open()
    session.set_playing(True)
    a = session.scene.bodies[0]
    session.begin_drag(0, "center", a.center)
    assert not session.view.playing and session.view.selected == 0  # dragging pauses playback
    for k in range(1, 6):
        session.drag_to(np.add(a.center, (0.2 * k, 0.0, 0.0)))
        assert session.scene.bodies[0].center[0] == pytest.approx(a.center[0] + 0.2 * k)
        assert not session.history.can_undo  # a preview, not yet an edit
    session.end_drag()
    assert session.history.undo_label == "drag A centre"
    session.undo()
    assert session.scene.bodies[0].center == a.center


def test_dragging_a_tip_changes_the_velocity_by_the_pointer_move_over_the_horizon():
    session, _ = _open("seed002_both_moving")
    b = session.scene.bodies[1]
    h = session.scene.horizon
    tip = np.add(b.center, np.multiply(b.velocity, h))
    session.begin_drag(1, "velocity", tip)
    session.drag_to(tip + np.array([1.0, -2.0, 0.0]))
    session.end_drag()
    new = session.scene.bodies[1]
    assert new.center == b.center
    assert np.allclose(new.velocity, np.add(b.velocity, np.array([1.0, -2.0, 0.0]) / h))
    assert session.history.undo_label == "drag B velocity"


def test_a_refused_drag_position_keeps_the_last_good_preview():
    session, _ = _open()
    a = session.scene.bodies[0]
    session.begin_drag(0, "center", a.center)
    session.drag_to(np.add(a.center, (1.0, 0.0, 0.0)))
    good = session.scene
    with pytest.raises(SceneError, match="center"):
        session.drag_to((1e300, 0.0, 0.0))
    assert session.scene == good
    session.end_drag()
    assert all(math.isfinite(x) for x in session.scene.bodies[0].center)


def test_a_drag_preview_changes_nothing_until_shown_and_only_while_its_drag_goes_on():
    """The window works out a drag's preview in another thread while it draws, and shows it at its next frame."""
    session, changes = _open("snooker_break")
    a = session.scene.bodies[0]
    before, solution = session.scene, session.solution
    assert session.drag_preview(a.center) is None  # no drag on
    session.begin_drag(0, "center", a.center)
    changes.clear()
    preview = session.drag_preview(np.add(a.center, (0.0, 0.3, 0.0)))
    assert session.scene is before and session.solution is solution and changes == []  # worked out, not shown
    assert preview.scene.bodies[0].center[1] == pytest.approx(a.center[1] + 0.3)
    assert preview.solution.scene is preview.scene
    session.show_preview(preview)
    assert session.scene is preview.scene and session.solution is preview.solution and changes == [Change.SCENE]
    assert not session.history.can_undo  # a preview, not yet an edit

    late = session.drag_preview(np.add(a.center, (0.0, 0.6, 0.0)))
    session.end_drag()  # the drag ended before its last preview was shown: that preview is dropped
    session.show_preview(late)
    assert session.scene is preview.scene and session.history.undo_label == "drag A centre"
    session.begin_drag(0, "center", a.center)  # ... as it is once a new drag has begun
    session.show_preview(late)
    assert session.scene is preview.scene
    with pytest.raises(SceneError, match="center"):
        session.drag_preview((1e300, 0.0, 0.0))


def test_opening_a_refused_file_changes_nothing(tmp_path):
    session, changes = _open()
    session.edit_field("body.center.1", "3")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sphere-explorer/1", "mode": "pair"}')
    scene, path, label = session.scene, session.path, session.history.undo_label
    with pytest.raises(SceneError, match="missing key"):
        session.open_file(bad)
    assert (session.scene, session.path, session.history.undo_label) == (scene, path, label)


def test_opening_a_file_starts_a_new_document_with_its_layers(tmp_path):
    session, changes = _open()
    session.edit_field("body.center.1", "3")
    session.set_time(0.5)
    session.set_layer("labels", False)
    out = tmp_path / "mine.json"
    session.save(out, camera={"position": [1, 2, 30], "focal_point": [0, 0, 0], "up": [0, 1, 0]})
    assert session.path == out
    session.open_file(SCENES_DIR / "billiards.json")
    assert not session.history.can_undo and session.view.time == 0.0 and session.view.layers["labels"]
    session.open_file(out)
    assert session.scene.bodies[0].center[1] == 3
    assert session.view.layers["labels"] is False
    assert session.view.camera["position"] == [1, 2, 30]
    assert Change.DOCUMENT in changes[-1]


def test_time_stays_in_range_and_playback_stops_at_the_end():
    session, _ = _open("seed003_later")
    lo, hi = session.time_range()
    assert hi > session.solution.sweep.roots[0] > session.scene.horizon  # reaches a later contact
    session.set_time(-5)
    assert session.view.time == lo
    session.set_time(1e9)
    assert session.view.time == hi
    session.set_playing(True)
    assert session.view.time == lo  # from the start when at the end
    session.advance(1.0)
    assert 0 < session.view.time < hi
    session.advance(1e6)
    assert session.view.time == hi and not session.view.playing
    session.edit_field("horizon", "0.5")
    assert session.view.time <= session.time_range()[1]  # the range shrank with the scene


def test_turning_to_the_rest_frame_takes_its_time_and_comes_back():
    session, _ = _open("seed002_both_moving")
    session.set_rest_frame(True)
    assert session.reference.turning and session.view.reference == 0.0
    session.turn(session_module.TURN_SECONDS / 3)
    assert 0.0 < session.view.reference < 1.0
    session.turn(10.0)
    assert session.view.reference == 1.0 and not session.reference.turning
    session.set_rest_frame(False)
    session.turn(10.0)
    assert session.view.reference == 0.0


def test_adding_selects_the_new_body_and_removing_keeps_a_valid_selection():
    session, _ = _open()
    session.add_body()
    assert len(session.scene.bodies) == 3 and session.view.selected == 2
    session.remove_body()
    assert len(session.scene.bodies) == 2 and session.view.selected == 1
    with pytest.raises(SceneError):
        session.remove_body()
    session.select(0)
    with pytest.raises(SceneError, match="cannot be removed"):
        session.remove_body()
    with pytest.raises(SceneError):
        session.select(5)


def test_the_lab_pushes_are_edits_with_exact_results():
    session, _ = _open("tangent_graze")
    assert session.solution.sweep.status is Status.HIT
    session.nudge_graze(1)
    assert session.solution.sweep.status is Status.MISS
    session.undo()
    session.translate(20)
    assert session.scene.bodies[0].center[0] == pytest.approx(2**20 - 5)
    assert session.solution.sweep.status is Status.HIT
    assert session.view.camera is None  # framed again around the moved scene


# -- teeth: what each of these catches was planted and survived the suite before --------------------


def test_undo_and_redo_tell_the_listeners_what_changed():
    session, changes = _open()
    session.edit_field("body.center.1", "4.5")
    changes.clear()
    session.undo()
    assert changes == [Change.SCENE | Change.HISTORY]
    assert session.history.can_redo and not session.history.can_undo
    session.redo()
    assert changes == [Change.SCENE | Change.HISTORY] * 2
    session.redo()  # nothing left to redo: nothing happens, nobody is told
    assert changes == [Change.SCENE | Change.HISTORY] * 2


def test_an_edit_the_scene_accepts_but_the_solver_refuses_changes_nothing():
    """A ball moved out of its container passes the scene's checks but not the motion's."""
    session, changes = _open("gas_in_container")
    session.select(1)
    changes.clear()
    scene, label, can_undo = session.scene, session.history.undo_label, session.history.can_undo
    with pytest.raises(SceneError, match="lies entirely outside the container"):
        session.edit_field("body.center.0", "100")
    assert session.scene is scene
    assert (session.history.undo_label, session.history.can_undo) == (label, can_undo)
    assert changes == []
    session.undo()  # the refused edit is not in the history: undo does nothing
    assert session.scene is scene


@pytest.mark.parametrize(
    "stem, end",
    [
        ("default", 1.0),  # contact within the frame: the slider covers [0, h]
        # A at the origin moving at 3 inside a container of radius 5: |3 t| = 5 - 1 at t = 4/3
        ("seed001_squared_radius", 4 / 3),
        ("seed002_both_moving", 1.0),
        ("snooker_break", 1.0),  # all-bodies mode: the horizon
    ],
)
def test_the_time_range_in_every_mode(stem, end):
    session, _ = _open(stem)
    assert session.scene.mode in ("pair", "inside", "all")
    lo, hi = session.time_range()
    assert lo == 0.0
    assert hi == pytest.approx(end * (1.0 + session_module.TIME_MARGIN), rel=1e-12)


def test_the_time_range_reaches_a_later_contact_in_pair_mode():
    """A contact after the horizon extends the slider to it (within three horizons), not beyond."""
    session, _ = _open("default")
    session.edit_field("horizon", "0.25")
    # default: p = (6.5, 1.2, 0), v = (-9, -1, 0), R = 2.5: 82 t^2 - 119.4 t + 37.44 = 0
    t0 = (119.4 - math.sqrt(119.4**2 - 4 * 82 * 37.44)) / (2 * 82)
    assert 0.25 < t0 <= 3 * 0.25
    assert session.time_range()[1] == pytest.approx(t0 * (1.0 + session_module.TIME_MARGIN), rel=1e-12)
