"""Fixtures for the window tests: the window started as the app starts it, under Xvfb, and real mouse drags."""

from __future__ import annotations

import pytest

from explorer.model import scene_io
from explorer.model.gallery import SCENES_DIR


@pytest.fixture(autouse=True, scope="session")
def _private_settings(tmp_path_factory):
    """Qt's remembered layout goes to a folder of the test run, never the user's."""
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    yield
    mp.undo()


@pytest.fixture
def no_drawing(monkeypatch):
    """Make any drawing fail the test: refusals must come before the work."""
    import explorer.view.render as render

    def drew(*args, **kwargs):
        raise AssertionError("drawing started before the arguments were checked")

    monkeypatch.setattr(render, "draw_offscreen", drew)


@pytest.fixture
def make_window(qtbot):
    """Open a gallery scene (by file stem) exactly as ``sphere-explorer SCENE`` does, and wait for its 3-D view.

    Each window starts like a first run (no remembered layout), at the size the
    app picks for the test screen (1920×1200).
    """
    from PySide6.QtCore import QSettings

    from explorer.qt.app import launch
    from explorer.qt.layout import SETTINGS

    windows = []

    def make(stem: str = "default"):
        QSettings(*SETTINGS).clear()
        path = SCENES_DIR / f"{stem}.json"
        window = launch(scene_io.load(path), path)
        qtbot.addWidget(window)
        qtbot.waitExposed(window)
        qtbot.waitUntil(lambda: window.viewport.ready and window.plot is not None, timeout=20000)
        window.activateWindow()  # no window manager under Xvfb: activate by hand so shortcuts reach it
        qtbot.waitUntil(window.isActiveWindow)
        qtbot.wait(50)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()
