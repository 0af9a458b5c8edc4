"""The window starts whole every time: starts in a row (20 in a full run, ``sizes.window_starts``) of the console script, each left until its panels are
built and the compiled motion loop's background loading has ended, print no traceback and show every panel; and the
loading thread imports no module the rest of the program may import (at 4decb2d pyqtgraph in the window's thread and
numba in the loader's both imported colorama: the plot stayed on "Loading the plot…" in 2 starts of 6)."""

from __future__ import annotations

import json
import subprocess
import sys

import app_starts
import pytest
import sizes

from explorer.model.formats.gallery import SCENES_DIR

pytestmark = pytest.mark.long(0.6)

#: The app started as the console script starts it, every module import recorded with the thread that made it; quits
#: once the loading thread has ended.  Prints the imports as ``[thread, module, imported]`` and the window's state.
RECORDED = """
import json, sys, threading
imports = []


class Recorder:
    @staticmethod
    def find_spec(name, path=None, target=None):
        imports.append([threading.current_thread().name, name])
        return None


sys.meta_path.insert(0, Recorder)
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

app = QApplication.instance() or QApplication(sys.argv[:1])
state = {}


def poll():
    from explorer.qt.window import MainWindow

    window = next((w for w in app.topLevelWidgets() if isinstance(w, MainWindow)), None)
    if window is None or window.motion_loader is None or window.motion_loader.is_alive():
        QTimer.singleShot(50, poll)
        return
    state["plot"] = window.plot is not None
    app.quit()


QTimer.singleShot(50, poll)
from explorer.cli import console  # noqa: E402

sys.argv = ["sphere-explorer", sys.argv[1]]
code = console()
print(json.dumps({"imports": [[t, name, name in sys.modules] for t, name in imports], **state, "exit": code}))
"""
#: Where the loading thread's imports may come from: numba's own modules and the solver's compiled copy, which no
#: other part of the program imports.
LOADER_ONLY = ("numba", "llvmlite", "solver._compiled")


def test_starts_in_a_row_print_no_traceback_and_build_every_panel(tmp_path):
    scene = str(SCENES_DIR / "heavy_light_glancing.json")
    with app_starts.screen(1366, 768, tmp_path) as env:
        for start in range(sizes.window_starts()):
            app, report = app_starts.start(env, tmp_path / "startup.json", scene, started=True)
            _, err = app_starts.close(app)
            assert "Traceback" not in err and "Error" not in err, f"start {start + 1}: {err}"
            assert report["started"] == {"plot": True, "motion_loop": True}, f"start {start + 1}: {report}"
            assert set(report["panels"]) >= {"Parabola f(t)", "Values"}, report


def test_the_motion_loop_s_thread_imports_nothing_the_window_s_thread_may_import(tmp_path):
    with app_starts.screen(1366, 768, tmp_path) as env:
        done = subprocess.run([sys.executable, "-c", RECORDED, str(SCENES_DIR / "default.json")], env=env,
                              capture_output=True, text=True, timeout=300, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["exit"] == 0 and out["plot"], out
    loader = [name for thread, name, imported in out["imports"] if thread == "solver-motion-loop" and imported]
    assert loader, "the loading thread imported nothing: it did not run"
    assert [name for name in loader if not name.startswith(LOADER_ONLY)] == []


def test_a_plot_that_cannot_be_built_says_why_in_its_panel_and_the_window_works_on(qtbot, monkeypatch):
    from PySide6.QtWidgets import QLabel

    from explorer.model.formats import scene_io
    from explorer.qt import plot_panel
    from explorer.qt.app import launch

    def broken(self, session, parent=None):
        raise RuntimeError("no OpenGL context for the plot\nsecond line")

    monkeypatch.setattr(plot_panel.ParabolaPanel, "__init__", broken)
    path = SCENES_DIR / "default.json"
    window = launch(scene_io.load(path), path)
    qtbot.addWidget(window)
    started = []
    window.started.connect(lambda: started.append(True))
    qtbot.waitUntil(lambda: bool(started), timeout=20000)
    words = window.plot_dock.widget()
    assert isinstance(words, QLabel)
    assert words.text() == "The plot could not be shown here: no OpenGL context for the plot"
    assert window.viewport.ready and window.plot is None
    window.session.set_time(0.5)  # the rest of the window goes on
    assert window.session.view.time == 0.5
    window.close()
