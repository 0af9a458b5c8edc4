"""Start-up as a user does it: the ``sphere-explorer`` console script on a fresh screen of each common size.

Each case starts its own Xvfb at the screen size (no window manager, like a
bare X session), runs the installed console script exactly as ``make run``
does with the default scene, waits for the app's start-up report (written when
the first 3-D frame is drawn; ``SPHERE_EXPLORER_STARTUP_REPORT``), grabs the
whole screen from a separate process, and checks the window against the
screen and the spheres against the pixels.  On a screen scaled to 200 %, the
app is started the same way and A is dragged with mouse events on the 3-D view.
On a laptop's screen, every number of the Momenta panel's table is in view, none
behind a scrollbar or cut by the panel's width.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import app_starts
import imageio.v3 as iio
import numpy as np
import pytest
import window_helpers

from explorer.model.formats.gallery import SCENES_DIR

SCREENS = [(1280, 720), (1366, 768), (1920, 1080)]
#: The app started as the console script starts it (``python -c IN_THE_APP + WHEN_READY SCENE SUPPORT``): once its
#: 3-D view is drawn, ``when_ready(app, window)`` runs in it (defined by the script's second part), the app quits and
#: the script prints what it returned, with the exit code, as JSON on its last line.
IN_THE_APP = """
import json, sys
from PySide6.QtCore import QEvent, QPointF, Qt, QTimer
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

scene = sys.argv[1]
sys.path.insert(0, sys.argv[2])  # the tests' helpers
from window_helpers import widget_point  # noqa: E402

app = QApplication.instance() or QApplication(sys.argv[:1])
state = {}


def poll():
    from explorer.qt.window import MainWindow

    window = next((w for w in app.topLevelWidgets() if isinstance(w, MainWindow)), None)
    if window is None or not window.viewport.ready:
        QTimer.singleShot(50, poll)
        return
    try:
        state.update(when_ready(app, window))
    finally:  # a check that fails still ends the app: its traceback on stderr
        app.quit()


def main():
    QTimer.singleShot(50, poll)
    from explorer.cli import console

    sys.argv = ["sphere-explorer", scene]
    code = console()
    print(json.dumps({**state, "exit": code}))
"""
#: A dragged 30 pixels to the right by mouse events sent to the 3-D view (as ``../shared/tools/drag-rate.py`` does);
#: returns where A is drawn after, the pixel ratio and the view's width in the window's pixels and in the screen's.
DRAG_A = """
def when_ready(app, window):
    widget = window.viewport.plotter.interactor

    def send(kind, x, y, buttons):
        local = QPointF(x, y)
        QApplication.sendEvent(widget, QMouseEvent(kind, local, widget.mapToGlobal(local), Qt.LeftButton, buttons,
                                                   Qt.NoModifier))
        app.processEvents()

    before = window.session.scene.bodies[0].center
    x, y = widget_point(window, before)
    send(QEvent.MouseButtonPress, x, y, Qt.LeftButton)
    for k in range(1, 11):
        send(QEvent.MouseMove, x + 3 * k, y, Qt.LeftButton)
    send(QEvent.MouseButtonRelease, x + 30, y, Qt.NoButton)
    x2, y2 = widget_point(window, window.session.scene.bodies[0].center)
    return dict(ratio=widget.devicePixelRatioF(), moved=[x2 - x, y2 - y],
                pixels=[window.viewport.plotter.render_window.GetSize()[0], widget.width()])


main()
"""
#: The Momenta panel brought to the front (just before and after event ``sys.argv[3]``, an index, if given), its table
#: laid out: returns the texts of the table and of the buttons under it that the panel's width cuts (a label partly
#: outside the table's visible width, or narrower than its text) and how many labels there are.
MOMENTA_TABLE = """
def when_ready(app, window):
    import time
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QDockWidget, QLabel, QPushButton

    if len(sys.argv) > 3:
        window.session.inspect(int(sys.argv[3]))
    dock = window.findChild(QDockWidget, "Momenta")
    dock.show()
    dock.raise_()
    panel = window.momenta
    end = time.monotonic() + 20
    while time.monotonic() < end and not panel.rows:
        app.processEvents()
    for _ in range(30):  # the grid laid out at the panel's width
        app.processEvents()
        time.sleep(0.01)
    view = panel.table.parentWidget()  # the scroll area's viewport: what of the table is in view
    labels = [label for label in panel.table.findChildren(QLabel) if not label.isHidden()]
    cut = []
    for label in labels:
        left = label.mapTo(view, QPoint(0, 0)).x()
        if label.wordWrap():
            whole = label.heightForWidth(label.width()) <= label.height()
        else:
            whole = label.sizeHint().width() <= label.width()
        if left < 0 or left + label.width() > view.width() or not whole:
            cut.append([label.text(), left, label.width(), label.sizeHint().width(), view.width()])
    for button in panel.findChildren(QPushButton):
        if button.isVisible() and button.sizeHint().width() > button.width():
            cut.append([button.text(), button.width(), button.sizeHint().width()])
    texts = [label.text() for label in labels]
    return dict(cut=cut, labels=len(labels), texts=texts, rows=[list(row) for row in panel.rows],
                window=[window.width(), window.height()])


main()
"""
GRAB = "import sys; from PySide6.QtGui import QGuiApplication; a = QGuiApplication([]); a.primaryScreen().grabWindow(0).save(sys.argv[1])"


@pytest.fixture
def screen(request, tmp_path):
    """A fresh Xvfb of the requested size, and an environment for programs on it."""
    with app_starts.screen(*request.param, tmp_path) as env:
        yield request.param, env


def _start(env: dict, tmp_path: Path, *args: str) -> tuple[subprocess.Popen, dict]:
    return app_starts.start(env, tmp_path / "startup.json", *args)


def _grab(env: dict, out: Path) -> np.ndarray:
    subprocess.run([sys.executable, "-c", GRAB, str(out)], env=env, check=True, timeout=60)
    return iio.imread(out)[..., :3].astype(int)


def _area(rect) -> int:
    return rect[2] * rect[3]


def _inside(inner, outer) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[0] + inner[2] <= outer[0] + outer[2]
        and inner[1] + inner[3] <= outer[1] + outer[3]
    )


def _ring(image: np.ndarray, centre, radius: float) -> np.ndarray:
    """Pixels between 0.45 and 0.85 of a sphere's radius from its centre (clear of its name label), ``(k, 3) int``."""
    ys, xs = np.mgrid[0 : image.shape[0], 0 : image.shape[1]]
    distance = np.hypot(xs - centre[0], ys - centre[1])
    return image[(distance >= 0.45 * radius) & (distance <= 0.85 * radius)]


@pytest.mark.parametrize("screen", SCREENS, indirect=True, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_the_console_script_opens_with_the_3d_view_first(screen, tmp_path):
    (width, height), env = screen
    app, report = _start(env, tmp_path)
    try:
        time.sleep(0.5)  # let the panels finish painting
        image = _grab(env, tmp_path / "screen.png")
        assert app.poll() is None  # still running: the view stays
    finally:
        app.send_signal(signal.SIGTERM)
        app.wait(20)
    window, view = report["window"], report["view"]
    assert _inside(window, report["available"]), report
    assert _area(view) >= 0.5 * _area(window), report
    assert all(_area(view) > _area(panel) for panel in report["panels"].values()), report  # the largest thing there
    needed, room = report["hint"]
    assert needed <= room, report  # the status bar's hint whole, not cut ("drag empty space to turr")
    assert image.shape[:2] == (height, width)
    a, b = report["bodies"][:2]
    for body in (a, b):
        assert _inside([*map(int, body["center"]), 1, 1], view), report
        assert body["radius"] > 8, report  # a sphere, not a dot
    blue = _ring(image, a["center"], a["radius"])
    orange = _ring(image, b["center"], b["radius"])
    assert np.mean(blue[:, 2] > blue[:, 0] + 40) > 0.8  # body A's colour (blue) fills its disc
    assert np.mean(orange[:, 0] > orange[:, 2] + 60) > 0.8  # body B's colour (orange)
    view_pixels = image[view[1] : view[1] + view[3], view[0] : view[0] + view[2]]
    assert np.mean(np.all(view_pixels > 240, axis=2)) > 0.3  # the view's white background: a picture, not a black hole


def _text_rows(region: np.ndarray, dark: int = 90) -> int:
    """Height in pixels of the dark text in ``region`` (rows holding a dark pixel, first to last)."""
    rows = np.flatnonzero(np.any(np.all(region < dark, axis=2), axis=1))
    return int(rows[-1] - rows[0] + 1) if rows.size else 0


@pytest.mark.parametrize("screen", [(1280, 720)], indirect=True, ids=["projector-1280x720"])
def test_presentation_mode_fills_a_projector_with_text_readable_from_the_back(screen, tmp_path):
    (width, height), env = screen
    app, report = _start(env, tmp_path, "--present")
    try:
        time.sleep(0.5)
        image = _grab(env, tmp_path / "present.png")
    finally:
        app.send_signal(signal.SIGTERM)
        app.wait(20)
    assert report["window"] == [0, 0, width, height] and report["view"] == [0, 0, width, height], report
    assert report["panels"] == {}  # everything but the picture is hidden
    verdict = image[: height // 8, : width // 2]
    assert _text_rows(verdict) >= 24  # the verdict line: about 1/30 of the screen's height or more
    assert np.all(verdict[..., :] > 235, axis=2).mean() > 0.6  # on the white background, not behind a menu bar
    for body in report["bodies"][:2]:
        assert body["radius"] > 40


@pytest.mark.parametrize("screen", [(1920, 1080)], indirect=True, ids=["laptop-1920x1080-at-200%"])
def test_on_a_screen_scaled_to_200_percent_the_view_has_every_pixel_and_a_follows_the_pointer(screen, tmp_path):
    """A teacher's laptop with its desktop scaled 2x (Qt's scale factor): the 3-D view renders at the screen's
    pixels, twice its size in the window's, and A dragged 30 pixels moves 30 pixels with the pointer."""
    _, env = screen
    support = Path(window_helpers.__file__).parent
    done = subprocess.run([sys.executable, "-c", IN_THE_APP + DRAG_A, str(SCENES_DIR / "default.json"), str(support)],
                          env={**env, "QT_SCALE_FACTOR": "2"},
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["exit"] == 0 and out["ratio"] == 2.0, out
    assert out["pixels"][0] == 2 * out["pixels"][1], out  # the render window's width, the view's in Qt's pixels
    assert out["moved"] == pytest.approx([30.0, 0.0], abs=2.0), out


@pytest.mark.parametrize(
    "screen, stem, event",
    [((1366, 768), "heavy_light_glancing", None), ((1366, 768), "snooker_break", 2), ((1280, 720), "snooker_break", 2)],
    indirect=["screen"],
    ids=["1366x768-glancing", "1366x768-break-event-3", "1280x720-break-event-3"],
)
def test_on_a_laptop_every_number_of_the_momenta_table_is_in_view(screen, stem, event, tmp_path):
    """The console script on a laptop's screen, the Momenta panel in front: every body's mass, position, velocity,
    speed, momentum and energy and the free bodies' totals are shown whole within the panel's width (the table
    scrolls down, never sideways), and so are its buttons."""
    (width, height), env = screen
    support = Path(window_helpers.__file__).parent
    args = [str(SCENES_DIR / f"{stem}.json"), str(support), *([] if event is None else [str(event)])]
    done = subprocess.run([sys.executable, "-c", IN_THE_APP + MOMENTA_TABLE, *args], env=env,
                          capture_output=True, text=True, timeout=180, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    assert "cut" in out, done.stderr
    assert out["exit"] == 0 and out["window"][0] <= width, out
    assert out["cut"] == [], out["cut"]
    cells = [cell for row in out["rows"] for cell in row]
    assert len(out["rows"]) >= 3 and set(cells) <= set(out["texts"])  # every number of the table is a label shown
