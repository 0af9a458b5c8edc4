"""The window under Xvfb, driven with real mouse drags and key presses."""

from __future__ import annotations

import re

import imageio.v3 as iio
import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from window_helpers import drag, finite_scene, settle, show_panel, tip, type_field, widget_point

from explorer.model.formats.gallery import SCENES_DIR
from explorer.model.state.scene import SceneError
from solver import Status

pytestmark = pytest.mark.long  # started first (tests/conftest.py)

NAN_TEXT = re.compile(r"\bnan\b|\binf\b", re.IGNORECASE)


def test_dragging_a_centre_turns_a_miss_into_a_hit(qtbot, make_window):
    window = make_window("seed003_later")  # LATER: A is too far to reach B in one frame
    assert window.session.solution.sweep.status is Status.LATER
    a = window.session.scene.bodies[0]
    b = window.session.scene.bodies[1]
    target = (b.center[0] - 4.5, a.center[1], a.center[2])  # close enough that the frame's motion reaches B
    drag(qtbot, window, a.center, target)
    moved = window.session.scene.bodies[0].center
    assert moved[0] > a.center[0] + 4.0  # really moved, by a real drag
    assert moved[2] == pytest.approx(a.center[2])  # dragged in the horizontal plane
    assert window.session.solution.sweep.status is Status.HIT
    assert "HIT" in window.values.status_label.text()
    assert window.session.history.undo_label == "drag A centre"


def test_dragging_the_arrow_tip_aims_the_ball_away(qtbot, make_window):
    window = make_window("default")
    assert window.session.solution.sweep.hit
    a = window.session.scene.bodies[0]
    start = tip(a, window.session.scene.horizon)
    drag(qtbot, window, start, start + np.array([0.0, -6.0, 0.0]))
    new_v = window.session.scene.bodies[0].velocity
    assert new_v[1] < a.velocity[1] - 4.0
    assert window.session.scene.bodies[0].center == a.center
    assert not window.session.solution.sweep.hit
    assert "MISS" in window.values.status_label.text() or "SEPARATING" in window.values.status_label.text()


def test_dragging_empty_space_turns_the_camera_not_the_scene(qtbot, make_window):
    window = make_window("default")
    before_scene, before_cam = window.session.scene, window.viewport.plotter.camera.position
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    widget = window.viewport.plotter.interactor
    QTest.mousePress(widget, Qt.LeftButton, Qt.NoModifier, QPoint(20, 20))
    for k in range(10):
        QTest.mouseMove(widget, QPoint(20 + 10 * k, 20 + 5 * k))
        qtbot.wait(5)
    QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, QPoint(110, 65))
    assert window.session.scene == before_scene
    assert window.viewport.plotter.camera.position != before_cam


def test_static_sphere_gets_an_arrow_when_shift_dragged_from_its_centre(qtbot, make_window):
    window = make_window("default")
    b = window.session.scene.bodies[1]
    assert b.velocity == (0.0, 0.0, 0.0)
    drag(qtbot, window, b.center, np.add(b.center, (-2.0, 0.0, 0.0)), modifier=Qt.ShiftModifier)
    assert window.session.scene.bodies[1].velocity[0] < -1.5
    assert window.session.scene.bodies[1].center == b.center
    assert window.session.history.undo_label == "drag B velocity"


def test_grabbing_a_resting_sphere_in_its_middle_moves_it(qtbot, make_window):
    window = make_window("default")
    b = window.session.scene.bodies[1]
    assert b.velocity == (0.0, 0.0, 0.0)
    drag(qtbot, window, b.center, np.add(b.center, (-2.0, 1.0, 0.0)))
    moved = window.session.scene.bodies[1]
    assert moved.velocity == (0.0, 0.0, 0.0)  # still at rest
    assert moved.center[0] == pytest.approx(b.center[0] - 2.0, abs=0.15)
    assert moved.center[1] == pytest.approx(b.center[1] + 1.0, abs=0.15)
    assert moved.center[2] == b.center[2]
    assert window.session.history.undo_label == "drag B centre"
    assert "Shift+drag a sphere: give it a velocity" in window.gestures.text()  # the status bar says how


def test_undo_and_redo_with_the_usual_shortcuts(qtbot, make_window):
    window = make_window("default")
    original = window.session.scene
    shown_before = window.values.text()
    a = original.bodies[0]
    drag(qtbot, window, a.center, np.add(a.center, (1.5, 1.0, 0.0)))
    moved = window.session.scene
    assert moved != original
    qtbot.waitUntil(lambda: window.values.text() != shown_before)
    shown_moved = window.values.text()
    view = window.viewport.plotter.interactor  # the drag left the focus in the 3-D view
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier)
    assert window.session.scene == original
    qtbot.waitUntil(lambda: window.values.text() == shown_before)  # the panel was told, and shows the old numbers
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert window.session.scene == moved
    qtbot.waitUntil(lambda: window.values.text() == shown_moved)
    qtbot.keyClick(view, Qt.Key_Z, Qt.ControlModifier)
    qtbot.keyClick(view, Qt.Key_Y, Qt.ControlModifier)
    assert window.session.scene == moved


def test_typed_values_move_the_sphere_and_bad_ones_are_refused(qtbot, make_window):
    window = make_window("default")
    show_panel(qtbot, window, "Scene")
    panel = window.scene_panel
    field = panel.center[1]
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "4.5")
    qtbot.keyClick(field, Qt.Key_Return)
    assert window.session.scene.bodies[0].center[1] == 4.5
    for bad in ("0", "abc", "-2", "1e400"):
        radius = panel.radius
        radius.setFocus()
        radius.selectAll()
        qtbot.keyClicks(radius, bad)
        qtbot.keyClick(radius, Qt.Key_Return)
        assert window.session.scene.bodies[0].radius == 1.0
        assert radius.text() == "1"
        assert "Refused" in window.statusBar().currentMessage() and "radius" in window.statusBar().currentMessage()
    window.session.undo()
    assert window.session.scene.bodies[0].center[1] == -1.2


def test_add_and_remove_bodies_within_the_mode_rules(qtbot, make_window):
    window = make_window("default")
    show_panel(qtbot, window, "Scene")
    panel = window.scene_panel
    qtbot.mouseClick(panel.add_button, Qt.LeftButton)
    assert len(window.session.scene.bodies) == 3 and window.session.view.selected == 2
    assert len(window.session.solution.sweeps) == 2
    settle(qtbot)
    qtbot.mouseClick(panel.remove_button, Qt.LeftButton)
    assert len(window.session.scene.bodies) == 2
    settle(qtbot)
    assert not panel.remove_button.isEnabled()  # at two bodies the button is off, and the session refuses
    with pytest.raises(SceneError, match="at least two bodies"):
        window.session.remove_body()
    assert len(window.session.scene.bodies) == 2
    inside = make_window("seed001_container")
    show_panel(qtbot, inside, "Scene")
    assert not inside.scene_panel.add_button.isEnabled()
    with pytest.raises(SceneError, match="inside"):
        inside.session.add_body()
    assert len(inside.session.scene.bodies) == 2


def test_switching_mode_refuses_a_container_smaller_than_the_ball(qtbot, make_window):
    window = make_window("billiards")  # equal radii
    show_panel(qtbot, window, "Scene")
    mode = window.scene_panel.mode
    mode.setCurrentIndex(1)
    mode.activated.emit(1)  # the user picks "inside" from the list
    assert window.session.scene.mode == "pair" and "container must be larger" in window.statusBar().currentMessage()
    settle(qtbot)
    assert mode.currentIndex() == 0  # the list shows the mode the scene kept
    window.scene_panel.body.setCurrentIndex(1)
    window.scene_panel.body.activated.emit(1)
    type_field(qtbot, window, "body.radius", "5")
    mode.setCurrentIndex(1)
    mode.activated.emit(1)
    assert window.session.scene.mode == "inside"


def test_open_save_round_trip_and_refused_files(qtbot, make_window, tmp_path):
    window = make_window("default")
    a = window.session.scene.bodies[0]
    drag(qtbot, window, a.center, np.add(a.center, (0.0, 1.0, 0.0)))
    edited = window.session.scene
    out = tmp_path / "mine.json"
    assert window.documents.save_to(out)
    window.documents.open_file(SCENES_DIR / "billiards.json")
    assert window.session.scene.title != edited.title
    assert window.documents.open_file(out)
    assert window.session.scene == edited
    assert window.session.scene.view["camera"]["position"]

    errors = []
    window.documents.error_dialog = lambda title, message: errors.append(message)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sphere-explorer/1", "mode": "pair"}')
    before = window.session.scene
    assert not window.documents.open_file(bad)
    assert errors and "missing key" in errors[-1]
    assert window.session.scene == before
    assert not window.documents.open_file(tmp_path / "absent.json")
    assert "cannot read" in errors[-1]


def test_save_failure_leaves_the_file_whole(qtbot, make_window, tmp_path, monkeypatch):
    import os

    window = make_window("default")
    out = tmp_path / "keep.json"
    assert window.documents.save_to(out)
    before = out.read_bytes()
    errors = []
    window.documents.error_dialog = lambda title, message: errors.append(message)
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    type_field(qtbot, window, "horizon", "2")
    assert not window.documents.save_to(out)
    assert out.read_bytes() == before and errors
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.json"]


def test_export_at_twice_the_view_gives_twice_the_pixels(qtbot, make_window, tmp_path):
    window = make_window("default")
    w, h = window.viewport.plotter.interactor.width(), window.viewport.plotter.interactor.height()
    one = window.documents.export_png(tmp_path / "one.png", scale=1)
    two = window.documents.export_png(tmp_path / "two.png", scale=2, transparent=True)
    img1, img2 = iio.imread(one), iio.imread(two)
    assert img1.shape[:2] == (h, w)
    assert img2.shape[:2] == (2 * h, 2 * w)
    assert img2.shape[2] == 4 and img2[0, 0, 3] == 0  # transparent corner
    assert window.documents.export_png(tmp_path / "five.png", scale=5) is None


def test_layer_toggle_hides_the_expanded_sphere(qtbot, make_window):
    window = make_window("default")
    show_panel(qtbot, window, "Layers")
    actor = window.viewport.drawing.items.items["minkowski"].actor
    assert actor.GetVisibility()
    window.layers_panel.boxes["minkowski"].click()
    settle(qtbot)
    assert not actor.GetVisibility()
    assert not window.layer_actions["minkowski"].isChecked()  # the View menu follows
    window.layers_panel.boxes["minkowski"].click()
    settle(qtbot)
    assert actor.GetVisibility()


def test_random_drag_fuzz_never_crashes_nor_shows_nan(qtbot, make_window):
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    window = make_window("seed001_container")
    widget = window.viewport.plotter.interactor
    rng = np.random.default_rng(7)
    grips = window.viewport.grips()
    for _ in range(60):
        grip = grips[rng.integers(len(grips))]
        x0, y0 = widget_point(window, grip.position)
        QTest.mousePress(widget, Qt.LeftButton, Qt.NoModifier, QPoint(x0, y0))
        for _ in range(5):
            x, y = rng.integers(-200, 1500), rng.integers(-200, 1000)
            QTest.mouseMove(widget, QPoint(int(x), int(y)))
        QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, QPoint(int(x), int(y)))
        assert finite_scene(window.session.scene)
        assert not NAN_TEXT.search(window.values.text() + window.values.status_label.text())
        grips = window.viewport.grips()
    # degenerate places: centre on the container's centre, zero velocity, the ball pushed outside
    window.documents.open_file(SCENES_DIR / "seed001_container.json")
    for k in range(3):
        type_field(qtbot, window, f"body.center.{k}", "0")
    for k in range(3):
        type_field(qtbot, window, f"body.velocity.{k}", "0")
    assert window.session.solution.sweep.status is Status.NO_RELATIVE_MOTION
    type_field(qtbot, window, "body.center.0", "100")
    assert window.session.solution.sweep.status is Status.OUTSIDE  # entirely outside its container (the motion issue)
    assert "wall" in window.statusBar().currentMessage()
    assert not NAN_TEXT.search(window.values.text())


def test_coinciding_centres_are_explained(qtbot, make_window):
    window = make_window("billiards")
    b = window.session.scene.bodies[1]
    for k in range(3):
        type_field(qtbot, window, f"body.center.{k}", str(b.center[k]))
    assert window.session.solution.sweep.status is Status.OVERLAPPING
    assert "coincide" in window.statusBar().currentMessage()
    assert not NAN_TEXT.search(window.values.text())


def test_gallery_menu_opens_every_scene(qtbot, make_window):
    window = make_window("default")
    actions = window.gallery_menu.actions()
    assert len(actions) >= 10
    show_panel(qtbot, window, "Scene")
    for action in actions:
        action.trigger()
        settle(qtbot, 5)
        assert window.session.scene.description in window.scene_panel.description.text()


def _tube_radius(window, name: str) -> float:
    """Radius of a straight drawn tube (from its mesh points, around the line through its ends)."""
    from vtkmodules.util.numpy_support import vtk_to_numpy

    points = vtk_to_numpy(window.viewport.drawing.items.items[name].mesh.GetPoints().GetData())
    a = window.session.scene.bodies[0]
    start, end = np.asarray(a.center), np.add(a.center, np.multiply(a.velocity, window.session.scene.horizon))
    axis = (end - start) / np.linalg.norm(end - start)
    offsets = points - start
    return float(np.linalg.norm(offsets - np.outer(offsets @ axis, axis), axis=1).max())


def test_f11_presents_the_view_alone_with_large_text_and_esc_brings_the_layout_back(qtbot, make_window):
    from explorer.view.overlay import LABEL_SIZE, PRESENTATION, VERDICT_SIZE

    window = make_window("default")
    docks = window.arrangement.docks()
    shown = [dock.isVisible() for dock in docks]
    drawing = window.viewport.drawing
    thin = _tube_radius(window, "centre_path")
    view = window.viewport.plotter.interactor
    qtbot.keyClick(view, Qt.Key_F11)
    qtbot.waitUntil(window.isFullScreen)
    settle(qtbot, 50)
    assert not window.menuBar().isVisible() and not window.statusBar().isVisible()
    assert not any(dock.isVisible() for dock in docks) and not window.time_bar.isVisible()
    assert window.viewport.plotter.interactor.width() == window.width()  # the picture alone
    assert drawing.text.verdict.GetTextProperty().GetFontSize() == round(VERDICT_SIZE * PRESENTATION.text_scale)
    assert drawing.items.labels["name0"][0].GetTextProperty().GetFontSize() == round(
        LABEL_SIZE * PRESENTATION.text_scale
    )
    assert _tube_radius(window, "centre_path") == pytest.approx(thin * PRESENTATION.line_scale, rel=1e-6)
    qtbot.keyClick(view, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not window.isFullScreen())
    settle(qtbot, 50)
    assert window.menuBar().isVisible() and window.time_bar.isVisible()
    assert [dock.isVisible() for dock in docks] == shown
    assert drawing.text.verdict.GetTextProperty().GetFontSize() == VERDICT_SIZE
    assert _tube_radius(window, "centre_path") == pytest.approx(thin, rel=1e-6)


def test_panels_hide_from_the_view_menu_and_reset_layout_brings_them_back(qtbot, make_window):
    window = make_window("default")
    area = window.viewport.width() * window.viewport.height()
    view = window.viewport.plotter.interactor
    qtbot.keyClick(view, Qt.Key_0, Qt.ControlModifier)  # only the 3-D view
    settle(qtbot, 50)
    assert not any(dock.isVisible() for dock in window.arrangement.docks())
    assert window.viewport.width() * window.viewport.height() > 1.2 * area
    qtbot.keyClick(view, Qt.Key_1, Qt.ControlModifier)  # the first panel back: the parabola
    settle(qtbot, 50)
    assert window.plot_dock.isVisible()
    window.arrangement.reset()
    settle(qtbot, 50)
    assert window.plot_dock.isVisible() and window.values_dock.isVisible()
    assert window.viewport.width() * window.viewport.height() >= 0.5 * window.width() * window.height()


def test_the_layout_is_remembered_between_runs(qtbot, make_window):
    from explorer.model.formats import scene_io
    from explorer.qt.app import launch
    from explorer.qt.refresh import on_screen

    window = make_window("default")
    window.lab_dock.show()
    window.lab_dock.raise_()
    window.plot_dock.hide()
    settle(qtbot, 50)
    window.close()  # as the user quits
    path = SCENES_DIR / "default.json"
    again = launch(scene_io.load(path), path)
    qtbot.addWidget(again)
    qtbot.waitUntil(lambda: again.viewport.ready, timeout=20000)
    try:
        settle(qtbot, 50)
        assert not again.plot_dock.isVisible()
        assert on_screen(again.lab) and not on_screen(again.values)  # the lab's tab in front
    finally:
        again.close()


def test_a_panel_behind_a_tab_catches_up_when_its_tab_is_chosen(qtbot, make_window):
    window = make_window("default")
    show_panel(qtbot, window, "Values")
    window.session.edit_field("body.center.1", "2.5")  # while the Scene tab is behind
    settle(qtbot)
    show_panel(qtbot, window, "Scene")
    assert window.scene_panel.center[1].text() == "2.5"


def test_letter_keys_in_the_view_leave_the_picture_alone(qtbot, make_window):
    window = make_window("default")
    view = window.viewport.plotter.interactor
    actor = window.viewport.drawing.items.items["body0"].actor
    surface = actor.GetProperty().GetRepresentation()
    camera = window.viewport.plotter.camera.position
    for key in "wsp3fjtre":  # VTK's own one-letter commands: wireframe, stereo, pick, reset...
        qtbot.keyClick(view, key)
    settle(qtbot)
    assert actor.GetProperty().GetRepresentation() == surface
    assert window.viewport.plotter.camera.position == camera
    assert window.isVisible()


def test_a_folder_of_scenes_is_stepped_through_with_next_and_previous(qtbot, make_window, tmp_path):
    import shutil

    for stem in ("billiards", "default", "tangent_graze"):
        shutil.copy(SCENES_DIR / f"{stem}.json", tmp_path / f"{stem}.json")
    (tmp_path / "notes.txt").write_text("not a scene")
    window = make_window("default")
    assert window.documents.open_folder(tmp_path)
    assert window.session.path == tmp_path / "billiards.json"
    view = window.viewport.plotter.interactor
    qtbot.keyClick(view, Qt.Key_PageDown, Qt.ControlModifier)
    assert window.session.path == tmp_path / "default.json"
    assert "2 / 3" in window.statusBar().currentMessage()
    qtbot.keyClick(view, Qt.Key_PageDown, Qt.ControlModifier)
    qtbot.keyClick(view, Qt.Key_PageDown, Qt.ControlModifier)  # past the last: back to the first
    assert window.session.path == tmp_path / "billiards.json"
    qtbot.keyClick(view, Qt.Key_PageUp, Qt.ControlModifier)
    assert window.session.path == tmp_path / "tangent_graze.json"
    errors = []
    window.documents.error_dialog = lambda title, message: errors.append(message)
    assert not window.documents.open_folder(tmp_path / "empty-or-missing")
    assert errors and window.session.path == tmp_path / "tangent_graze.json"


def test_the_speed_box_shows_the_speed_held_after_opening_a_file(qtbot, make_window):
    """Before: opening a file reset the speed to 1x while the box, set once, still showed 2x."""
    window = make_window("default")
    box = window.time_bar.speed
    box.setFocus()
    qtbot.keyClick(box, Qt.Key_Down)  # the user picks the next speed: 2x
    assert box.currentText() == "2×" and window.session.playback.speed == 2.0
    assert window.documents.open_file(SCENES_DIR / "billiards.json")
    assert box.currentData() == window.session.playback.speed == 2.0  # the user's speed is kept, and shown
    window.session.set_speed(0.5)  # changed elsewhere (not through the box): the box follows
    assert box.currentText() == "½×"
    qtbot.keyClick(box, Qt.Key_Up)
    assert window.session.playback.speed == 0.25 and box.currentText() == "¼×"


def test_layer_toggles_show_what_the_session_holds_in_every_place(qtbot, make_window):
    """The Layers panel's box, the View menu's action and the session hold one value."""
    window = make_window("default")
    show_panel(qtbot, window, "Layers")
    box, item = window.layers_panel.boxes["capsules"], window.layer_actions["capsules"]
    qtbot.mouseClick(box, Qt.LeftButton, pos=QPoint(8, box.height() // 2))
    assert window.session.layers.visible["capsules"] is False
    assert box.isChecked() is False and item.isChecked() is False
    item.trigger()  # the menu's action
    assert window.session.layers.visible["capsules"] is True and box.isChecked() and item.isChecked()
    window.session.open_file(SCENES_DIR / "bullet_tunnels.json")  # opens with its steps layer on
    assert window.layers_panel.boxes["steps"].isChecked() and window.layer_actions["steps"].isChecked()
    assert window.layers_panel.steps.value() == window.session.layers.steps


def test_frame_all_brings_a_long_shots_a_into_view_and_reset_camera_frames_the_contact_again(make_window, qtbot):
    """The long shot: A starts 300,000 units from the contact the camera frames; Ctrl+Shift+R shows both bodies,
    Ctrl+R the contact again."""
    window = make_window("seed003_long_shot")
    view = window.viewport.plotter.interactor
    a, b = (body.center for body in window.session.scene.bodies)

    def in_view(world) -> bool:
        x, y = widget_point(window, world)
        return 0 <= x < view.width() and 0 <= y < view.height()

    assert not in_view(a) and in_view(b)
    qtbot.keyClick(view, Qt.Key_R, Qt.ControlModifier | Qt.ShiftModifier)
    settle(qtbot, 100)
    assert in_view(a) and in_view(b)
    assert window.session.camera.camera is not None  # the user's camera now: saved with the file
    qtbot.keyClick(view, Qt.Key_R, Qt.ControlModifier)
    settle(qtbot, 100)
    assert not in_view(a) and in_view(b)
