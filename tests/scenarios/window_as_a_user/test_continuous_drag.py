"""A continuous drag in the real window: the 3-D view first, the panels catching up when the pointer rests,
and the frame left after the release identical to one drawn from scratch.

The window is opened as ``sphere-explorer SCENE`` opens it (``make_window``: :func:`explorer.qt.app.launch`);
the mouse moves are real events on the 3-D view's widget, each sent as soon as the previous one was handled,
so a move is always waiting, as with a 125 Hz mouse.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from window_helpers import press_and_sweep, settle

from explorer.model.derived.analysis import solve
from explorer.model.words.parabola import parabola
from explorer.model.words.text import fmt, status_text
from explorer.qt.app import launch

#: Mouse moves of the continuous drag.
MOVES = 40


def _count_refreshes(window) -> dict[str, list[int]]:
    """Wrap each panel's refresh so that calls are counted (panel name -> [count])."""
    counts = {}
    for name in ("values", "plot", "time_bar", "scene_panel"):
        refresher = getattr(window, name).refresher
        counts[name] = box = [0]

        def counted(refresh=refresher.refresh, box=box):
            box[0] += 1
            refresh()

        refresher.refresh = counted
    return counts


def _press_and_drag(window) -> tuple[int, int]:
    """Press on sphere A and move it in an arc of :data:`MOVES` moves; the button stays down. Returns the arc's end."""
    x0, y0 = press_and_sweep(window, MOVES, radius=50.0)
    return x0, y0 + 100


def _view_pixels(window) -> np.ndarray:
    """The 3-D view as it is on the screen now (read back from the X server, not rendered again), ``(h, w, 3) int``."""
    widget = window.viewport.plotter.interactor
    image = widget.screen().grabWindow(widget.winId()).toImage().convertToFormat(QImage.Format_RGB888)
    rows = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes()).reshape(image.height(), image.bytesPerLine())
    return rows[:, : 3 * image.width()].reshape(image.height(), image.width(), 3).astype(int)


def test_panels_follow_the_view_and_catch_up_when_the_pointer_rests(qtbot, make_window):
    window = make_window("default")
    session = window.session
    counts = _count_refreshes(window)
    frames_before = len(window.viewport.frame_times)
    before = session.scene
    _press_and_drag(window)
    frames = len(window.viewport.frame_times) - frames_before
    refreshed = {name: box[0] for name, box in counts.items()}
    assert session.dragging and session.scene != before
    assert frames >= MOVES // 2  # the view keeps up with the pointer
    # while the pointer moves, the panels follow at most one per frame of the view, and a hidden tab not at all
    assert refreshed["values"] + refreshed["plot"] + refreshed["time_bar"] <= frames
    assert refreshed["scene_panel"] == 0

    # the pointer rests, the button still down: the view shows where it stopped (a drag is drawn one frame
    # behind the pointer), then every panel on screen does
    qtbot.waitUntil(lambda: not window.viewport.move_pending, timeout=3000)
    scene = session.scene
    fresh = solve(scene)  # solved again from the scene alone, not the session's copy
    toi = f"toi  {'none' if fresh.sweep.toi is None else fmt(fresh.sweep.toi)}"
    verdict = status_text(scene, fresh)
    qtbot.waitUntil(lambda: toi in window.values.text() and window.values.status_label.text() == verdict, timeout=3000)
    settle(qtbot, 50)
    assert session.dragging
    expected = parabola(fresh, session.view.time)
    _, curve = window.plot.curve.getData()
    np.testing.assert_array_equal(curve, expected.f)
    (x_lo, x_hi), (y_lo, y_hi) = window.plot.plot.getPlotItem().getViewBox().viewRange()
    assert x_lo <= expected.t_range[0] and expected.t_range[1] <= x_hi  # axes kept while the button is held ...
    assert y_lo <= min(min(expected.f), 0.0) and max(max(expected.f), 0.0) <= y_hi  # ... with the whole curve in view
    lo, hi = session.time_range()
    marks = sorted({(e.time - lo) / (hi - lo) for e in fresh.events if lo <= e.time <= hi})
    assert window.time_bar.slider.marks == marks
    assert counts["scene_panel"][0] == 0  # still behind its tab

    QTest.mouseRelease(window.viewport.plotter.interactor, Qt.LeftButton, Qt.NoModifier, QPoint(0, 0))
    settle(qtbot, 100)
    assert not session.dragging and session.history.undo_label == "drag A centre"
    x_range, _ = window.plot.plot.getPlotItem().getViewBox().viewRange()
    assert x_range == pytest.approx(expected.t_range, rel=1e-9)  # released: the axes fit the curve again


def test_the_picture_after_a_drag_is_the_picture_drawn_from_scratch(qtbot, make_window):
    window = make_window("snooker_break")  # all-bodies mode: every path and capsule changes with A
    x, y = _press_and_drag(window)
    QTest.mouseRelease(window.viewport.plotter.interactor, Qt.LeftButton, Qt.NoModifier, QPoint(x, y))
    window.session.reset_camera()  # framed as a newly opened file is (the picture is drawn from the drag's actors)
    settle(qtbot, 300)
    assert window.session.history.undo_label == "drag A centre"
    released = _view_pixels(window)

    fresh = launch(window.session.scene, None)  # the same scene opened anew, every actor made from scratch
    qtbot.addWidget(fresh)
    qtbot.waitUntil(lambda: fresh.viewport.ready, timeout=20000)
    settle(qtbot, 300)
    try:
        assert fresh.viewport.plotter.render_window.GetSize() == window.viewport.plotter.render_window.GetSize()
        scratch = _view_pixels(fresh)
        different = np.any(released != scratch, axis=2)
        assert different.sum() == 0, f"{different.sum()} of {different.size} pixels differ"
        assert np.mean(np.all(scratch > 240, axis=2)) < 0.95  # a picture, not an empty view
    finally:
        fresh.viewport.close_view()
        fresh.close()


def test_once_the_scene_is_on_screen_the_window_asks_for_the_compiled_motion_loop_once(qtbot, make_window,
                                                                                       monkeypatch):  # fmt: skip
    """A drag of the break recomputes 16 bodies' motion at every move: the window asks the solver for its compiled
    loop, loaded in the background, after the first frame (never before: the start waits for nothing)."""
    import time

    import solver

    asked = []
    monkeypatch.setattr(solver, "load_motion_loop", lambda: asked.append(time.perf_counter()))
    window = make_window("snooker_break")
    assert len(asked) == 1 and asked[0] >= window.viewport.frame_times[0][2]  # after the first frame was drawn
