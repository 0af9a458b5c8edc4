"""Helpers for the window tests: real mouse drags at projected world points."""

from __future__ import annotations

import math

import numpy as np


def widget_point(window, world) -> tuple[int, int]:
    """Qt widget coordinates (origin top-left) of a world point in the window's view."""
    renderer = window.plotter.renderer
    renderer.SetWorldPoint(*(float(x) for x in world), 1.0)
    renderer.WorldToDisplay()
    x, y, _ = renderer.GetDisplayPoint()
    widget = window.plotter.interactor
    ratio = widget.devicePixelRatioF()
    return int(round(x / ratio)), int(round(widget.height() - y / ratio))


def drag(qtbot, window, start_world, end_world, steps: int = 12) -> None:
    """A real left-button drag on the interactor from one world point to another (in the drag plane)."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    widget = window.plotter.interactor
    x0, y0 = widget_point(window, start_world)
    x1, y1 = widget_point(window, end_world)
    QTest.mousePress(widget, Qt.LeftButton, Qt.NoModifier, QPoint(x0, y0))
    for k in range(1, steps + 1):
        f = k / steps
        QTest.mouseMove(widget, QPoint(int(round(x0 + (x1 - x0) * f)), int(round(y0 + (y1 - y0) * f))))
        qtbot.wait(5)
    QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, QPoint(x1, y1))
    qtbot.wait(20)


def finite_scene(scene) -> bool:
    """Every number of the scene is finite."""
    values = [scene.horizon, scene.restitution]
    for body in scene.bodies:
        values += [*body.center, *body.velocity, body.radius]
    return all(math.isfinite(v) for v in values)


def tip(body, horizon) -> np.ndarray:
    """Where a body's velocity arrow ends (its centre at the horizon)."""
    return np.add(body.center, np.multiply(body.velocity, horizon))
