"""The window under Xvfb, driven with real mouse drags and key presses."""

from __future__ import annotations

import re

import imageio.v3 as iio
import numpy as np
import pytest
from PySide6.QtCore import Qt

from explorer.model.gallery import SCENES_DIR
from solver import Status

from window_helpers import drag, finite_scene, tip, widget_point

NAN_TEXT = re.compile(r"\bnan\b|\binf\b", re.IGNORECASE)


def test_dragging_a_centre_turns_a_miss_into_a_hit(qtbot, make_window):
    window = make_window("seed003_later")  # LATER: A is too far to reach B in one frame
    assert window.solution.sweep.status is Status.LATER
    a = window.scene.bodies[0]
    b = window.scene.bodies[1]
    target = (b.center[0] - 4.5, a.center[1], a.center[2])  # close enough that the frame's motion reaches B
    drag(qtbot, window, a.center, target)
    moved = window.scene.bodies[0].center
    assert moved[0] > a.center[0] + 4.0  # really moved, by a real drag
    assert moved[2] == pytest.approx(a.center[2])  # dragged in the horizontal plane
    assert window.solution.sweep.status is Status.HIT
    assert "HIT" in window.values.status_label.text()
    assert window.history.undo_label == "drag A centre"


def test_dragging_the_arrow_tip_aims_the_ball_away(qtbot, make_window):
    window = make_window("default")
    assert window.solution.sweep.hit
    a = window.scene.bodies[0]
    start = tip(a, window.scene.horizon)
    drag(qtbot, window, start, start + np.array([0.0, -6.0, 0.0]))
    new_v = window.scene.bodies[0].velocity
    assert new_v[1] < a.velocity[1] - 4.0
    assert window.scene.bodies[0].center == a.center
    assert not window.solution.sweep.hit
    assert "MISS" in window.values.status_label.text() or "SEPARATING" in window.values.status_label.text()


def test_dragging_empty_space_turns_the_camera_not_the_scene(qtbot, make_window):
    window = make_window("default")
    before_scene, before_cam = window.scene, window.plotter.camera.position
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    widget = window.plotter.interactor
    QTest.mousePress(widget, Qt.LeftButton, Qt.NoModifier, QPoint(20, 20))
    for k in range(10):
        QTest.mouseMove(widget, QPoint(20 + 10 * k, 20 + 5 * k))
        qtbot.wait(5)
    QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, QPoint(110, 65))
    assert window.scene == before_scene
    assert window.plotter.camera.position != before_cam


def test_static_sphere_gets_an_arrow_when_its_centre_handle_is_dragged(qtbot, make_window):
    window = make_window("default")
    b = window.scene.bodies[1]
    assert b.velocity == (0.0, 0.0, 0.0)
    drag(qtbot, window, b.center, np.add(b.center, (-2.0, 0.0, 0.0)))
    assert window.scene.bodies[1].velocity[0] < -1.5
    assert window.scene.bodies[1].center == b.center


def test_undo_and_redo_with_the_usual_shortcuts(qtbot, make_window):
    window = make_window("default")
    original = window.scene
    a = original.bodies[0]
    drag(qtbot, window, a.center, np.add(a.center, (1.5, 1.0, 0.0)))
    moved = window.scene
    assert moved != original
    view = window.plotter.interactor  # the drag left the focus in the 3-D view
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier)
    assert window.scene == original
    assert window.values.status_label.text().startswith("A–B: HIT")
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert window.scene == moved
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier)
    qtbot.keyClick(view, Qt.Key_Y, Qt.ControlModifier)
    assert window.scene == moved


def test_typed_values_move_the_sphere_and_bad_ones_are_refused(qtbot, make_window):
    window = make_window("default")
    panel = window.scene_panel
    field = panel.center[1]
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "4.5")
    qtbot.keyClick(field, Qt.Key_Return)
    assert window.scene.bodies[0].center[1] == 4.5
    for bad in ("0", "abc", "-2", "1e400"):
        radius = panel.radius
        radius.setFocus()
        radius.selectAll()
        qtbot.keyClicks(radius, bad)
        qtbot.keyClick(radius, Qt.Key_Return)
        assert window.scene.bodies[0].radius == 1.0
        assert radius.text() == "1"
        assert "Refused" in window.statusBar().currentMessage() and "radius" in window.statusBar().currentMessage()
    window.undo()
    assert window.scene.bodies[0].center[1] == -1.2


def test_add_and_remove_bodies_within_the_mode_rules(qtbot, make_window):
    window = make_window("default")
    window.add_body()
    assert len(window.scene.bodies) == 3 and window.selected == 2
    assert len(window.solution.sweeps) == 2
    window.remove_body()
    assert len(window.scene.bodies) == 2
    window.remove_body()  # at two bodies: refused
    assert len(window.scene.bodies) == 2 and "Refused" in window.statusBar().currentMessage()
    inside = make_window("seed001_container")
    inside.add_body()
    assert len(inside.scene.bodies) == 2 and "inside" in inside.statusBar().currentMessage()


def test_switching_mode_refuses_a_container_smaller_than_the_ball(qtbot, make_window):
    window = make_window("billiards")  # equal radii
    window.set_mode("inside")
    assert window.scene.mode == "pair" and "container must be larger" in window.statusBar().currentMessage()
    window.select_body(1)
    window.edit_field("body.radius", "5")
    window.set_mode("inside")
    assert window.scene.mode == "inside"


def test_open_save_round_trip_and_refused_files(qtbot, make_window, tmp_path):
    window = make_window("default")
    a = window.scene.bodies[0]
    drag(qtbot, window, a.center, np.add(a.center, (0.0, 1.0, 0.0)))
    edited = window.scene
    out = tmp_path / "mine.json"
    assert window.save_to(out)
    window.open_file(SCENES_DIR / "billiards.json")
    assert window.scene.title != edited.title
    assert window.open_file(out)
    assert window.scene == edited
    assert window.scene.view["camera"]["position"]

    errors = []
    window.error_dialog = lambda title, message: errors.append(message)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sphere-explorer/1", "mode": "pair"}')
    before = window.scene
    assert not window.open_file(bad)
    assert errors and "missing key" in errors[-1]
    assert window.scene == before
    assert not window.open_file(tmp_path / "absent.json")
    assert "cannot read" in errors[-1]


def test_save_failure_leaves_the_file_whole(qtbot, make_window, tmp_path, monkeypatch):
    import os

    window = make_window("default")
    out = tmp_path / "keep.json"
    assert window.save_to(out)
    before = out.read_bytes()
    errors = []
    window.error_dialog = lambda title, message: errors.append(message)
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    window.edit_field("horizon", "2")
    assert not window.save_to(out)
    assert out.read_bytes() == before and errors
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.json"]


def test_export_at_twice_the_view_gives_twice_the_pixels(qtbot, make_window, tmp_path):
    window = make_window("default")
    w, h = window.plotter.interactor.width(), window.plotter.interactor.height()
    one = window.export_png(tmp_path / "one.png", scale=1)
    two = window.export_png(tmp_path / "two.png", scale=2, transparent=True)
    img1, img2 = iio.imread(one), iio.imread(two)
    assert img1.shape[:2] == (h, w)
    assert img2.shape[:2] == (2 * h, 2 * w)
    assert img2.shape[2] == 4 and img2[0, 0, 3] == 0  # transparent corner
    assert window.export_png(tmp_path / "five.png", scale=5) is None


def test_layer_toggle_hides_the_expanded_sphere(qtbot, make_window):
    window = make_window("default")
    actor = window.view.items["minkowski"].actor
    assert actor.GetVisibility()
    window.layers_panel.boxes["minkowski"].click()
    assert not actor.GetVisibility()
    window.layers_panel.boxes["minkowski"].click()
    assert actor.GetVisibility()


def test_random_drag_fuzz_never_crashes_nor_shows_nan(qtbot, make_window):
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    window = make_window("seed001_container")
    widget = window.plotter.interactor
    rng = np.random.default_rng(7)
    grips = window.grips()
    for k in range(60):
        grip = grips[rng.integers(len(grips))]
        x0, y0 = widget_point(window, grip.position)
        QTest.mousePress(widget, Qt.LeftButton, Qt.NoModifier, QPoint(x0, y0))
        for _ in range(5):
            x, y = rng.integers(-200, 1500), rng.integers(-200, 1000)
            QTest.mouseMove(widget, QPoint(int(x), int(y)))
        QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, QPoint(int(x), int(y)))
        assert finite_scene(window.scene)
        assert not NAN_TEXT.search(window.values.body_label.text() + window.values.status_label.text())
        grips = window.grips()
    # degenerate places: centre on the container's centre, zero velocity, the ball pushed outside
    window.open_file(SCENES_DIR / "seed001_container.json")
    window.edit_field("body.center.0", "0")
    window.edit_field("body.center.1", "0")
    window.edit_field("body.center.2", "0")
    for k in range(3):
        window.edit_field(f"body.velocity.{k}", "0")
    assert window.solution.sweep.status is Status.NO_RELATIVE_MOTION
    window.edit_field("body.center.0", "100")
    assert window.solution.sweep.status is Status.OVERLAPPING
    assert "wall" in window.statusBar().currentMessage()
    assert not NAN_TEXT.search(window.values.body_label.text())


def test_coinciding_centres_are_explained(qtbot, make_window):
    window = make_window("billiards")
    b = window.scene.bodies[1]
    for k in range(3):
        window.edit_field(f"body.center.{k}", str(b.center[k]))
    assert window.solution.sweep.status is Status.OVERLAPPING
    assert "coincide" in window.statusBar().currentMessage()
    assert not NAN_TEXT.search(window.values.body_label.text())


def test_gallery_menu_opens_every_scene(qtbot, make_window):
    window = make_window("default")
    actions = window.gallery_menu.actions()
    assert len(actions) >= 10
    for action in actions:
        action.trigger()
        assert window.scene.description in window.scene_panel.description.text()
