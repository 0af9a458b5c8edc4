"""Helpers for the window tests: real mouse drags at projected world points, typing, waiting for redraws."""

from __future__ import annotations

import math

import numpy as np


def settle(qtbot, ms: int = 20) -> None:
    """Let the window redraw what the last action changed (redraws run in the next turns of the event loop)."""
    qtbot.wait(ms)


def widget_point(window, world) -> tuple[int, int]:
    """Qt widget coordinates (origin top-left) of a world point in the window's 3-D view."""
    plotter = window.viewport.plotter
    renderer = plotter.renderer
    renderer.SetWorldPoint(*(float(x) for x in world), 1.0)
    renderer.WorldToDisplay()
    x, y, _ = renderer.GetDisplayPoint()
    widget = plotter.interactor
    ratio = widget.devicePixelRatioF()
    return int(round(x / ratio)), int(round(widget.height() - y / ratio))


def drag(qtbot, window, start_world, end_world, steps: int = 12, modifier=None) -> None:
    """A real left-button drag on the 3-D view from one world point to another (in the drag plane)."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    modifier = Qt.NoModifier if modifier is None else modifier
    widget = window.viewport.plotter.interactor
    x0, y0 = widget_point(window, start_world)
    x1, y1 = widget_point(window, end_world)
    QTest.mousePress(widget, Qt.LeftButton, modifier, QPoint(x0, y0))
    for k in range(1, steps + 1):
        f = k / steps
        QTest.mouseMove(widget, QPoint(int(round(x0 + (x1 - x0) * f)), int(round(y0 + (y1 - y0) * f))))
        qtbot.wait(5)
    QTest.mouseRelease(widget, Qt.LeftButton, modifier, QPoint(x1, y1))
    settle(qtbot)


def press_and_sweep(window, moves: int, radius: float = 40.0) -> tuple[int, int]:
    """Press on sphere A's centre in the 3-D view and move along half a circle of ``radius`` pixels below it, each
    move handled (and its frame drawn) before the next is sent, as with a 125 Hz mouse; the button stays down.
    Returns where the press was, in widget pixels."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    widget = window.viewport.plotter.interactor
    x0, y0 = widget_point(window, window.session.scene.bodies[0].center)
    QTest.mousePress(widget, Qt.LeftButton, Qt.NoModifier, QPoint(x0, y0))
    for k in range(1, moves + 1):
        angle = math.pi * k / moves
        dx, dy = radius * math.sin(angle), radius * (1 - math.cos(angle))
        QTest.mouseMove(widget, QPoint(x0 + int(round(dx)), y0 + int(round(dy))))
        QApplication.processEvents()
    return x0, y0


def show_panel(qtbot, window, title: str) -> None:
    """Bring a panel's tab to the front, as a click on its tab does."""
    from PySide6.QtWidgets import QDockWidget

    dock = window.findChild(QDockWidget, title)
    dock.show()
    dock.raise_()
    settle(qtbot)


def type_field(qtbot, window, name: str, text: str) -> None:
    """Type ``text`` into the scene panel's field ``name`` (e.g. ``"body.radius"``) and press Return."""
    from PySide6.QtCore import Qt

    show_panel(qtbot, window, "Scene")
    field = window.scene_panel.fields()[name]
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key_Return)
    settle(qtbot)


def finite_scene(scene) -> bool:
    """Every number of the scene is finite."""
    values = [scene.horizon, scene.restitution]
    for body in scene.bodies:
        values += [*body.center, *body.velocity, body.radius]
    return all(math.isfinite(v) for v in values)


def tip(body, horizon) -> np.ndarray:
    """Where a body's velocity arrow ends (its centre at the horizon)."""
    return np.add(body.center, np.multiply(body.velocity, horizon))
