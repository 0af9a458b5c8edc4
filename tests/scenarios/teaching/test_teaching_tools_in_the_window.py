"""Teaching tools in the real window: time, the relative frame, the parabola, the precision lab, exports, paste."""

from __future__ import annotations

import imageio.v3 as iio
import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from window_helpers import settle, show_panel

from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR
from solver import Status


def set_time(qtbot, window, t: float) -> None:
    """Move the session's time (as the slider, steps and the plot's line do) and let the view redraw."""
    window.session.set_time(t)
    settle(qtbot)


def _centre_and_radius(window, name: str) -> tuple[np.ndarray, float]:
    """Centre and radius of a sphere item as drawn (its mesh points, placed by its actor's transform)."""
    from vtkmodules.util.numpy_support import vtk_to_numpy

    item = window.viewport.drawing.items.items[name]
    points = vtk_to_numpy(item.mesh.GetPoints().GetData())
    matrix = np.array([[item.actor.GetMatrix().GetElement(r, c) for c in range(4)] for r in range(4)])
    points = points @ matrix[:3, :3].T + matrix[:3, 3]
    centre = (points.max(axis=0) + points.min(axis=0)) / 2
    return centre, float(np.linalg.norm(points - centre, axis=1).max())


def test_scrubbing_the_slider_moves_the_spheres_to_the_solvers_positions(qtbot, make_window):
    window = make_window("billiards")
    slider = window.time_bar.slider
    for value in (0, 250, 500, 800, 1000):
        slider.setValue(value)
        settle(qtbot)
        lo, hi = window.session.time_range()
        t = lo + (hi - lo) * value / slider.maximum()
        assert window.session.view.time == pytest.approx(t)
        path = window.session.solution.path  # beyond the horizon the last segment goes on
        expected = path.positions(t) if t <= window.session.scene.horizon else path.segments[-1].positions(t)
        for i in range(2):
            centre, radius = _centre_and_radius(window, f"body{i}")
            assert centre == pytest.approx(expected[i], abs=1e-9)
            assert radius == pytest.approx(window.session.scene.bodies[i].radius, rel=1e-9)


def test_step_buttons_and_the_time_range_reach_a_later_contact(qtbot, make_window):
    window = make_window("seed003_later")
    lo, hi = window.session.time_range()
    t0 = window.session.solution.sweep.roots[0]
    assert hi > t0 > window.session.scene.horizon  # the slider reaches past h to the later root
    step = window.time_bar.step.value()
    qtbot.mouseClick(window.time_bar.forward, Qt.LeftButton)
    qtbot.mouseClick(window.time_bar.forward, Qt.LeftButton)
    assert window.session.view.time == pytest.approx(2 * step)
    qtbot.mouseClick(window.time_bar.back, Qt.LeftButton)
    assert window.session.view.time == pytest.approx(step)


def test_play_advances_time_and_a_drag_pauses_it(qtbot, make_window):
    window = make_window("default")
    qtbot.mouseClick(window.time_bar.play, Qt.LeftButton)
    qtbot.waitUntil(lambda: window.session.view.time > 0.05, timeout=5000)
    assert window.time_bar.play.isChecked()
    grip = next(g for g in window.viewport.grips() if g.kind == "center" and g.body == 1)
    widget = window.viewport.plotter.interactor
    from window_helpers import widget_point

    x, y = widget_point(window, grip.position)
    QTest.mousePress(widget, Qt.LeftButton, Qt.NoModifier, QPoint(x, y))
    QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, QPoint(x, y))
    settle(qtbot)
    assert not window.time_bar.play.isChecked()
    paused_at = window.session.view.time
    qtbot.wait(200)
    assert window.session.view.time == paused_at


def test_relative_frame_makes_b_the_expanded_sphere_and_a_a_point_on_the_ray(qtbot, make_window):
    window = make_window("seed002_both_moving")  # both spheres move
    scene, s = window.session.scene, window.session.solution.sweep
    a, b = scene.bodies
    set_time(qtbot, window, 0.4)
    world_b, _ = _centre_and_radius(window, "body1")
    assert world_b == pytest.approx(np.add(b.center, np.multiply(b.velocity, 0.4)))
    window.action_relative.trigger()
    qtbot.waitUntil(lambda: window.session.view.reference == 1.0, timeout=5000)
    settle(qtbot)
    assert s.toi > 0.5
    for t in (0.0, 0.25, 0.5):  # until the impact changes B's velocity, B is at rest in its frame
        set_time(qtbot, window, t)
        centre_b, radius_b = _centre_and_radius(window, "body1")
        assert centre_b == pytest.approx(b.center, abs=1e-9)  # B at rest
        assert radius_b == pytest.approx(a.radius + b.radius, rel=1e-9)  # grown to rA + rB
        centre_a, radius_a = _centre_and_radius(window, "body0")
        rel = np.subtract(a.velocity, b.velocity)
        assert centre_a == pytest.approx(np.add(a.center, rel * t), abs=1e-9)  # a point on the ray
        assert radius_a < 0.2 * a.radius
    # the roots are where the ray pierces the expanded sphere
    for root in s.roots:
        point = np.add(a.center, np.subtract(a.velocity, b.velocity) * root)
        assert np.linalg.norm(point - np.asarray(b.center)) == pytest.approx(s.radius, rel=1e-9)
    window.action_relative.trigger()
    qtbot.waitUntil(lambda: window.session.view.reference == 0.0, timeout=5000)
    settle(qtbot)
    centre_b, radius_b = _centre_and_radius(window, "body1")
    assert radius_b == pytest.approx(b.radius)


def test_relative_frame_on_pixels_b_stays_where_it_started(qtbot, make_window):
    from window_helpers import widget_point

    window = make_window("seed002_both_moving")
    b = window.session.scene.bodies[1]
    start = np.asarray(b.center, dtype=float)

    def patch_at_start(t: float) -> np.ndarray:
        set_time(qtbot, window, t)
        image = window.viewport.plotter.screenshot(return_img=True)
        x, y = widget_point(window, start)
        ratio = image.shape[0] / window.viewport.plotter.interactor.height()
        x, y = int(x * ratio), int(y * ratio)
        return image[max(y - 8, 0) : y + 9, max(x - 8, 0) : x + 9, :3].astype(int)

    def orange(patch: np.ndarray) -> int:
        return int(((patch[..., 0] - patch[..., 2]) > 30).sum())  # much more red than blue

    world_early, world_later = patch_at_start(0.0), patch_at_start(0.4)
    assert orange(world_early) > 100 and orange(world_later) < orange(world_early) // 2  # B left its start
    window.action_relative.trigger()
    qtbot.waitUntil(lambda: window.session.view.reference == 1.0, timeout=5000)
    settle(qtbot)
    rel_early, rel_later = patch_at_start(0.0), patch_at_start(0.4)
    assert orange(rel_early) > 40 and orange(rel_later) > 40  # in B's frame B (now see-through) stays where it started
    assert np.abs(rel_early - rel_later).mean() < np.abs(world_early - world_later).mean()


def test_plot_data_equal_the_solvers_coefficients_and_follow_drags(qtbot, make_window):
    from window_helpers import drag

    window = make_window("default")
    for _step in range(2):
        s = window.session.solution.sweep
        data = window.plot.data
        assert (data.a, data.b, data.c) == s.coefficients
        assert data.roots == s.roots
        assert data.vertex[0] == s.t_min
        assert data.horizon == window.session.scene.horizon
        np.testing.assert_allclose(
            data.f,
            data.a * np.asarray(data.t) ** 2 + data.b * np.asarray(data.t) + data.c,
            rtol=1e-9,
            atol=1e-9 * abs(data.c),
        )
        x, y = window.plot.curve.getData()
        np.testing.assert_array_equal(x, data.t)
        roots_drawn = sorted(window.plot.roots.getData()[0])
        assert roots_drawn == pytest.approx(sorted(r for r in s.roots if data.t_range[0] <= r <= data.t_range[1]))
        a = window.session.scene.bodies[0]
        drag(qtbot, window, a.center, np.add(a.center, (1.0, 0.6, 0.0)))
    set_time(qtbot, window, 0.3)
    assert window.plot.now.value() == pytest.approx(0.3)


@pytest.mark.parametrize("stem, fooled", [
    ("seed003_precision_trap", {("relative", "float32"), ("expanded", "float32")}),
    ("seed003_long_shot", {("relative", "float64"), ("expanded", "float64")}),
])  # fmt: skip
def test_precision_lab_shows_the_textbook_failing_on_the_traps(qtbot, make_window, stem, fooled):
    window = make_window(stem)
    window.show_precision_lab()
    table = window.lab.table
    wrong = {
        (table.item(row, 0).text().split(":")[0], table.item(row, 1).text())
        for row in range(1, 5)
        if "wrong" in table.item(row, 2).text()
    }
    names = {"relative": "textbook", "expanded": "expanded squares (seed 004)"}
    assert wrong == {(names[v], d) for v, d in fooled}
    assert "fooled" in window.lab.summary.text()


def test_precision_lab_agrees_on_an_ordinary_scene_and_nudges_flip_a_tangent_graze(qtbot, make_window):
    window = make_window("tangent_graze")
    window.show_precision_lab()
    assert window.session.solution.sweep.status is Status.HIT
    assert all("✓" in window.lab.table.item(row, 2).text() for row in range(1, 5))
    window.session.nudge_graze(1)
    assert window.session.solution.sweep.status is Status.MISS
    settle(qtbot)
    assert "MISS" in window.lab.table.item(0, 2).text()  # the lab follows the edit
    window.session.nudge_graze(-1)
    assert window.session.solution.sweep.status is Status.HIT
    before = window.session.solution.sweep.status
    window.session.translate(20)
    assert window.session.scene.bodies[0].center[0] == pytest.approx(2**20 - 5)
    assert window.session.solution.sweep.status is before  # an exact translation keeps the verdict
    window.session.undo()
    assert window.session.scene.bodies[0].center[0] == -5


def test_gif_export_from_the_window_has_every_frame_at_the_view_size(qtbot, make_window, tmp_path):
    window = make_window("billiards")
    out = window.documents.export_animation(tmp_path / "sweep.gif", frames=12)
    frames = iio.imread(out, index=None)
    w, h = window.viewport.plotter.interactor.width(), window.viewport.plotter.interactor.height()
    assert frames.shape[0] == 12 and frames.shape[1:3] == (min(h, 600), min(w, 960))
    assert np.abs(frames[0].astype(int) - frames[-1].astype(int)).mean() > 1  # the spheres moved


def test_report_folder_holds_scene_solution_and_picture(qtbot, make_window, tmp_path):
    import json

    window = make_window("seed004_sample_overlap")
    folder = window.documents.export_report(tmp_path / "bug")
    assert sorted(p.name for p in folder.iterdir()) == ["picture.png", "scene.json", "solution.json"]
    assert json.loads((folder / "solution.json").read_text())["status"] == "overlapping"
    assert scene_io.load(folder / "scene.json") == window.session.scene
    assert iio.imread(folder / "picture.png").shape[1] > 1280  # the view beside the parabola


def test_pasted_configuration_opens_as_a_scene_and_bad_text_keeps_the_old_one(qtbot, make_window):
    window = make_window("default")
    text = "0 0 0\n10 0 0\n1\n5 0.5 0\n0 0 0\n1\n"
    assert window.documents.open_pasted(text)
    assert window.session.scene.bodies[1].center == (5.0, 0.5, 0.0) and window.session.path is None
    assert window.session.solution.sweep.status is Status.HIT
    errors = []
    window.documents.error_dialog = lambda title, message: errors.append(message)
    before = window.session.scene
    assert not window.documents.open_pasted("0 0 0\n10 0\n")
    assert window.session.scene == before and errors and "line 2" in errors[-1]


def test_gallery_covers_every_seed_and_shows_its_description(qtbot, make_window):
    window = make_window("default")
    stems = {p.stem for p in (SCENES_DIR).glob("*.json")}
    for seed in ("seed000", "seed001", "seed002", "seed003", "seed004"):
        assert any(stem.startswith(seed) for stem in stems)
    window.documents.open_file(SCENES_DIR / "seed001_squared_radius.json")
    show_panel(qtbot, window, "Scene")
    assert "SQUARED" in window.scene_panel.description.text()
