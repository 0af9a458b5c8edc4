"""Fixtures shared by every test tree: a stand-in terminal, the window started as the app starts it (under Xvfb),
and the audit's planted log written in every format (its helpers: tests/support/planted.py, audit_logs.py)."""

from __future__ import annotations

import io
import logging

import pytest
import sizes


def pytest_addoption(parser) -> None:
    parser.addoption("--full", action="store_true", help="every generated family at its full size (make test-full)")


def pytest_configure(config) -> None:
    sizes.FULL = config.getoption("full")


def pytest_collection_modifyitems(items) -> None:
    """The files marked ``long`` first, longest first (``long(minutes)``, 1 if not given), then the rest: the test
    workers take whole files in the order they are collected (``--dist loadfile``), so a long file started last
    would keep one worker busy alone."""

    def minutes(item) -> float:
        mark = item.get_closest_marker("long")
        return 0.0 if mark is None else float(mark.args[0]) if mark.args else 1.0

    items.sort(key=minutes, reverse=True)


class Terminal(io.StringIO):
    """A stand-in for stderr on a terminal: what is written is kept, and ``isatty()`` is True (progress
    bars and compile notices are drawn only on a terminal)."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def terminal() -> type[Terminal]:
    """The :class:`Terminal` class: call it for a fresh stand-in."""
    return Terminal


# -- the window ------------------------------------------------------------------------------------


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

    from explorer.model.formats import scene_io
    from explorer.model.formats.gallery import SCENES_DIR
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


# -- the audit's logs ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    """A local Dask cluster of two single-threaded workers, shared by a module's tests through ``--dask``."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
        scheduler_kwargs={"dashboard": False}, silence_logs=logging.ERROR,
    ) as cluster:  # fmt: skip
        yield cluster


@pytest.fixture(scope="session")
def planted():
    """The planted log (columns, exact answers, planted rows)."""
    import planted as planted_logs

    return planted_logs.make_log()


@pytest.fixture(scope="session")
def planted_files(planted, tmp_path_factory):
    """``{file name: path}`` of the planted log in every format."""
    import planted as planted_logs
    from audit_logs import CHUNK, FORMATS

    folder = tmp_path_factory.mktemp("planted")
    files = {}
    for name in FORMATS:
        path = folder / name
        planted_logs.write_log(path, planted["columns"], row_group_size=CHUNK)
        files[name] = path
    return files
