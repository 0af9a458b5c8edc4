"""Starting the window: display check, QApplication, main loop."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from ..model.scene import Scene

NO_DISPLAY = (
    "sphere-explorer: no display available (DISPLAY is not set); "
    "use 'sphere-explorer render SCENE -o OUT.png' for a picture or 'sphere-explorer solve SCENE' for the numbers"
)


def display_available() -> bool:
    """True when Qt can open a window here (X11 or Wayland, or a non-Linux desktop)."""
    if not sys.platform.startswith("linux"):
        return True
    if os.environ.get("QT_QPA_PLATFORM", "").startswith(("offscreen", "minimal")):
        return False
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(scene: Scene, path: Path | None) -> int:
    """Open the main window on ``scene`` and run until it is closed."""
    if not display_available():
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    os.environ.setdefault("QT_QPA_PLATFORM", "xcb" if os.environ.get("DISPLAY") else "wayland")
    from PySide6.QtWidgets import QApplication

    from .window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Sphere Sweep Explorer")
    window = MainWindow(scene, path, defer_view=True)
    window.show()
    app.processEvents()  # the first frame: the window with its panels and the solution
    quit_after = os.environ.get("SPHERE_EXPLORER_QUIT_AFTER")  # start-up benchmark: "window" or "view"
    if quit_after == "window":
        print(f"frame-at {time.time():.6f}", file=sys.stderr)
        return 0
    window.build_view()  # then the 3-D view (imports pyvista)
    if quit_after == "view":
        app.processEvents()
        print(f"frame-at {time.time():.6f}", file=sys.stderr)
        return 0
    return app.exec()
