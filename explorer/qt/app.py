"""Starting the window: the environment checks (before Qt can abort), QApplication, main loop."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import solver

from ..model.state.scene import Scene
from ..system.probes import QT_XCB, command_name, missing, missing_message, x_display_problem

#: What the window draws with besides Qt's xcb libraries: OpenGL through GLX (Mesa).
WINDOW_GL = ("libgl1", "libgl1-mesa-dri")


def no_display_message(reason: str = "DISPLAY is not set") -> str:
    """The one line shown instead of a window when there is no display to open it on."""
    command = command_name()
    return (
        f"sphere-explorer: no display available ({reason}); "
        f"use '{command} render SCENE -o OUT.png' for a picture or '{command} solve SCENE' for the numbers"
    )


def display_available() -> bool:
    """True when Qt can open a window here (X11 or Wayland, or a non-Linux desktop)."""
    if not sys.platform.startswith("linux"):
        return True
    if os.environ.get("QT_QPA_PLATFORM", "").startswith(("offscreen", "minimal")):
        return False
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def startup_problem() -> str | None:
    """Why the window cannot open here, as the one line to print; None when it can.

    Checked before Qt is loaded, because Qt answers a dead display or a missing
    xcb library with an abort: no display at all; a ``DISPLAY`` where no X server
    answers; Qt's xcb libraries or OpenGL missing (naming the Debian packages).
    """
    if not display_available():
        return no_display_message()
    if not sys.platform.startswith("linux"):
        return None
    platform = os.environ.get("QT_QPA_PLATFORM", "xcb" if os.environ.get("DISPLAY") else "wayland")
    if platform.startswith("xcb"):
        problem = x_display_problem()
        if problem is not None:
            return no_display_message(problem)
        gone = missing(QT_XCB + WINDOW_GL)
        if gone:
            return "sphere-explorer: " + missing_message(gone, "the window (Qt's xcb platform)")
    return None


def run(scene: Scene, path: Path | None, present: bool = False) -> int:
    """Open the main window on ``scene`` (in presentation mode with ``present``) and run until it is closed."""
    problem = startup_problem()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    os.environ.setdefault("QT_QPA_PLATFORM", "xcb" if os.environ.get("DISPLAY") else "wayland")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Sphere Sweep Explorer")
    window = launch(scene, path)
    if present:
        window.toggle_presentation()
    report = os.environ.get("SPHERE_EXPLORER_STARTUP_REPORT")  # start-up checks and benchmarks
    if report:
        window.viewport.first_frame.connect(lambda: _report_startup(window, Path(report), time.time()))
        window.started.connect(lambda: _report_started(window, Path(report)))
    return app.exec()


def _report_startup(window, out: Path, first_frame: float) -> None:
    """Write what a start-up check needs as JSON: when the first 3-D frame was drawn, and where things are.

    Keys: ``first_frame`` (epoch seconds), ``available`` (the screen's available
    area ``[x, y, w, h]``), ``window`` (the window's frame), ``view`` (the 3-D
    view, global), ``bodies`` (each sphere's centre ``[x, y]`` in global screen
    pixels and its radius in pixels), ``hint`` (the width the status bar's hint needs, and has).  Written once,
    atomically.
    """
    from PySide6.QtCore import QPoint

    from ..view.camera import project

    def rect(r) -> list[int]:
        return [r.x(), r.y(), r.width(), r.height()]

    viewport = window.viewport
    interactor = viewport.plotter.interactor
    origin = interactor.mapToGlobal(QPoint(0, 0))
    ratio = interactor.devicePixelRatioF()
    bodies = []
    placement = viewport.drawing.placement
    for centre, radius in zip(placement.centers, placement.radii):
        x, y = project(viewport.plotter, centre)
        edge_x, edge_y = project(viewport.plotter, centre + _across(viewport.plotter) * radius)
        bodies.append(
            {
                "center": [origin.x() + x / ratio, origin.y() + y / ratio],
                "radius": float(((edge_x - x) ** 2 + (edge_y - y) ** 2) ** 0.5 / ratio),
            }
        )
    _write_report(out, {
        "first_frame": first_frame,
        "available": rect(window.screen().availableGeometry()),
        "window": rect(window.frameGeometry()),
        "view": [origin.x(), origin.y(), interactor.width(), interactor.height()],
        "panels": {dock.objectName(): rect(dock.geometry()) for dock in window.arrangement.docks() if dock.isVisible()},
        "bodies": bodies,
        # the status bar's hint: the width its text needs and the width it has, in pixels
        "hint": [window.gestures.fontMetrics().horizontalAdvance(window.gestures.text()), window.gestures.width()],
    })  # fmt: skip


def _report_started(window, out: Path) -> None:
    """Add to the start-up report, once the background loading of the motion loop has ended (polled):
    ``started``: ``plot`` (the parabola panel is built), ``motion_loop`` (its loading was started, and has ended)."""
    from PySide6.QtCore import QTimer

    loader = window.motion_loader
    if loader is not None and loader.is_alive():
        QTimer.singleShot(100, lambda: _report_started(window, out))
        return
    data = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    data["started"] = {"plot": window.plot is not None, "motion_loop": loader is not None}
    _write_report(out, data)


def _write_report(out: Path, data: dict) -> None:
    """``data`` as JSON in ``out``, atomically (a reader polling for it never sees half of it)."""
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, out)


def _across(plotter):
    """A unit vector across the line of sight (for measuring radii on screen), ``(3,) float``."""
    import numpy as np

    camera = plotter.camera
    sight = np.subtract(camera.focal_point, camera.position)
    across = np.cross(sight, camera.up)
    return across / np.linalg.norm(across)


def launch(scene: Scene, path: Path | None):
    """Open the explorer's window on ``scene`` as a user starts it: shown, then the 3-D view built.

    The window (panels, solution) is painted first; the 3-D view, which imports
    pyvista, is built in the next turn of the event loop into the place already
    laid out for it, then the parabola panel; once both are built the solver's
    compiled motion loop is loaded in the background (:func:`solver.load_motion_loop`).  Needs a
    ``QApplication``.

    Returns
    -------
    explorer.qt.window.MainWindow
    """
    from PySide6.QtCore import QTimer

    from ..model.actions.session import Session
    from .window import MainWindow

    window = MainWindow(Session(scene, path))
    window.show()
    # once the scene is on screen and every panel built (no import left in this thread's start-up): a drag of many
    # bodies recomputes their motion with compiled code
    window.started.connect(lambda: setattr(window, "motion_loader", solver.load_motion_loop()))
    QTimer.singleShot(0, window.build_view)
    return window
