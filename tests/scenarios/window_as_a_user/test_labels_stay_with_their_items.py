"""Labels stay with their items in the window, started as ``sphere-explorer SCENE`` starts it and driven with keys,
buttons and the mouse: after Reveal, Play, the switch to B's rest frame, a turn of the camera and a zoom, every label
shown lies within a few pixels of its item (a body's sphere, a root's ghost of A) as VTK projects it, and the label
of an item out of view is hidden."""

from __future__ import annotations

import numpy as np
from window_helpers import settle

from explorer.view.label_places import NEAR


def _display(renderer, point) -> np.ndarray:
    """VTK's display pixel (y up) of a world point, and its depth along the line of sight."""
    renderer.SetWorldPoint(*(float(x) for x in point), 1.0)
    renderer.WorldToDisplay()
    x, y, _ = renderer.GetDisplayPoint()
    camera = renderer.GetActiveCamera()
    sight = np.subtract(camera.GetFocalPoint(), camera.GetPosition())
    return np.array([x, y]), float(np.subtract(point, camera.GetPosition()) @ sight)


def _gap(box, disc) -> float:
    x, y = min(max(disc[0], box[0]), box[2]), min(max(disc[1], box[1]), box[3])
    return max(0.0, float(np.hypot(x - disc[0], y - disc[1])) - disc[2])


def _items(window) -> dict:
    """Each label's item as drawn now: (centre (3,), radius) of a body, or of A's ghost at a root (its label sits
    just outside it, within half a marker: 1.5 radii of A is room enough)."""
    session = window.session
    scene, solution, at = session.scene, session.solution, window.viewport.drawing.placement
    a, other = scene.bodies[0], scene.bodies[solution.other]
    shift = np.asarray(other.velocity) * at.reference
    items = {f"name{i}": (at.centers[i], at.radii[i]) for i in range(len(scene.bodies))}
    for k, root in enumerate(solution.sweep.roots or ()):
        items[f"root{k}"] = (np.asarray(a.center) + (np.asarray(a.velocity) - shift) * root, 1.5 * a.radius)
    return items


def _check(qtbot, window, when: str) -> list[str]:
    """Every label shown near its item; the label of an item out of view hidden.  Returns the labels shown."""
    settle(qtbot, 200)
    plotter = window.viewport.plotter
    plotter.render()
    renderer = plotter.renderer
    width, height = renderer.GetSize()
    camera = renderer.GetActiveCamera()
    across = np.cross(np.subtract(camera.GetFocalPoint(), camera.GetPosition()), camera.GetViewUp())
    across /= np.linalg.norm(across)
    shown = []
    for name, (centre, radius) in _items(window).items():
        actor, _ = window.viewport.drawing.items.labels[name]
        if not actor.GetInput():
            continue
        middle, depth = _display(renderer, centre)
        visible = actor.GetVisibility()
        if depth <= 0 or not (0 <= middle[0] <= width and 0 <= middle[1] <= height):
            assert not visible, (when, name, "shown while its item is out of view", middle)
            continue
        if visible:
            box = [0.0] * 4
            actor.GetBoundingBox(renderer, box)  # x0, x1, y0, y1 around where the text is anchored
            x, y = actor.GetPositionCoordinate().GetComputedDoubleDisplayValue(renderer)
            edge, _ = _display(renderer, np.add(centre, across * radius))
            disc = (*middle, float(np.linalg.norm(edge - middle)))
            assert _gap((x + box[0], y + box[2], x + box[1], y + box[3]), disc) <= NEAR + 1.0, (when, name, disc)
            shown.append(name)
    return shown


def test_labels_stay_with_their_items_after_reveal_play_a_frame_switch_a_turn_and_a_zoom(qtbot, make_window):
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    window = make_window("seed004_ricochet")  # t₁ = 1.05942 after h: its ghost faded, on the right
    session = window.session
    QTest.keyClick(window, Qt.Key_K, Qt.ControlModifier)  # View -> Ask first
    qtbot.waitUntil(lambda: session.view.stage == "asking", timeout=5000)
    QTest.keyClick(window, Qt.Key_F5)  # Reveal
    qtbot.waitUntil(lambda: session.view.stage == "shown", timeout=15000)
    shown = _check(qtbot, window, "revealed")
    assert {"name0", "root0", "root1"} <= set(shown), shown

    qtbot.mouseClick(window.time_bar.play, Qt.LeftButton)
    qtbot.waitUntil(lambda: not session.view.playing, timeout=15000)
    assert _check(qtbot, window, "played")

    QTest.keyClick(window, Qt.Key_B, Qt.ControlModifier)  # B's rest frame
    qtbot.waitUntil(lambda: session.view.reference == 1.0, timeout=10000)
    assert _check(qtbot, window, "in B's rest frame")
    QTest.keyClick(window, Qt.Key_B, Qt.ControlModifier)
    qtbot.waitUntil(lambda: session.view.reference == 0.0, timeout=10000)

    widget = window.viewport.plotter.interactor
    start = QPoint(int(0.1 * widget.width()), int(0.9 * widget.height()))  # empty space: the camera turns
    QTest.mousePress(widget, Qt.LeftButton, Qt.NoModifier, start)
    for k in range(1, 9):
        QTest.mouseMove(widget, start + QPoint(25 * k, -6 * k))
        qtbot.wait(10)
    QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, start + QPoint(200, -48))
    assert _check(qtbot, window, "turned")

    b, _ = _display(window.viewport.plotter.renderer, session.scene.bodies[1].center)
    ratio = widget.devicePixelRatioF()
    at = QPointF(b[0] / ratio, widget.height() - b[1] / ratio)
    for _ in range(10):  # the mouse wheel, forwards over B: zoom in until A is out of view
        wheel = QWheelEvent(at, widget.mapToGlobal(at), QPoint(0, 0), QPoint(0, 120), Qt.NoButton, Qt.NoModifier,
                            Qt.NoScrollPhase, False)  # fmt: skip
        QApplication.sendEvent(widget, wheel)
        qtbot.wait(20)
    a, _ = _display(window.viewport.plotter.renderer, _items(window)["name0"][0])  # where A is drawn now
    size = window.viewport.plotter.renderer.GetSize()
    assert not (0 <= a[0] <= size[0] and 0 <= a[1] <= size[1]), a
    assert "name0" not in _check(qtbot, window, "zoomed in on B")
