"""Fixtures for the window tests: a real MainWindow under Xvfb, and real mouse drags."""

from __future__ import annotations

import pytest

from explorer.model import scene_io
from explorer.model.gallery import SCENES_DIR

VIEW_SIZE = (1280, 800)


@pytest.fixture
def make_window(qtbot):
    """Build a shown MainWindow on a gallery scene (by file stem) with a 1280×800 view."""
    from explorer.qt.window import MainWindow

    windows = []

    def make(stem: str = "default"):
        path = SCENES_DIR / f"{stem}.json"
        window = MainWindow(scene_io.load(path), path)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()  # no window manager under Xvfb: activate by hand so shortcuts reach it
        qtbot.waitUntil(window.isActiveWindow)
        extra_w = window.width() - window.plotter.interactor.width()
        extra_h = window.height() - window.plotter.interactor.height()
        window.resize(VIEW_SIZE[0] + extra_w, VIEW_SIZE[1] + extra_h)
        qtbot.wait(50)
        window.reset_camera()
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()


