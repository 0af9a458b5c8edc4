"""Interaction benchmarks of the explorer: drag -> new frame, lag behind a fast pointer, start-up, headless render.

Run with ``make bench-explorer`` (or ``.venv/bin/python benchmarks/bench_explorer.py``).
Needs an X display; without one it starts its own Xvfb (Debian package ``xvfb``).

Measured in one run, on the machine it runs on (printed in the header):

* drag -> new frame: the window opened as the app opens it (``explorer.qt.app.launch``),
  resized so the 3-D view is 1280x800; real mouse events (``QTest``) press on sphere A
  and move it.  For each move: from the mouse event to the end of the render that shows
  it (the view redraws at the next turn of the event loop), and to idle (the panels and
  the plot redrawn too).  On the default scene and on the busiest gallery scene.
* beside it, in the same run: the same view re-rendered with nothing changed, with
  nothing in it, and with the same actors only moved by transforms (no solving, no
  meshes, no panels) -- the renderer's floors -- and the ratios.
* a fast drag: moves posted every 8 ms (a 125 Hz mouse) for 2 s while frames are drawn;
  frames drawn, and the lag from the last move to the frame that shows it.
* start-up: from starting ``sphere-explorer`` (the console script) to its first 3-D
  frame with the scene on screen (the app's start-up report), median of several runs.
* headless render: wall time of the whole ``sphere-explorer render`` process.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# the solver as the console script runs it (explorer.cli.console: plain Python, no numba)
os.environ.setdefault("SPHERE_SOLVER_JIT", "0")

ROOT = Path(__file__).resolve().parent.parent
VIEW = (1280, 800)
#: A fast drag: one mouse move every this many ms, for this long.
BURST_INTERVAL_MS, BURST_SECONDS = 8, 2.0
#: Event-loop time between two moves of the timed drag (the plot redraws at most every 40 ms while dragging).
MOVE_PAUSE_S = 0.045


def _machine() -> dict:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "load_average_at_start": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }


def _ensure_display() -> subprocess.Popen | None:
    if os.environ.get("DISPLAY"):
        return None
    if shutil.which("Xvfb") is None:
        sys.exit("bench_explorer: no DISPLAY and no Xvfb; install xvfb")
    display = ":97"
    proc = subprocess.Popen(["Xvfb", display, "-screen", "0", "1920x1200x24", "-nolisten", "tcp"], stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    os.environ["DISPLAY"] = display
    return proc


def _stats(values: list[float]) -> dict:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"median": statistics.median(ordered), "p95": p95, "n": len(ordered)}


def _busiest_scene() -> str:
    """The gallery scene with the most bodies (then the most moving ones)."""
    from explorer.model import scene_io
    from explorer.model.gallery import gallery

    def weight(path):
        scene = scene_io.load(path)
        return len(scene.bodies), sum(any(b.velocity) for b in scene.bodies)

    return max(gallery(), key=weight).stem


class Harness:
    """One window opened as the app does, its 3-D view 1280x800, and ways to wait for its frames."""

    def __init__(self, stem: str) -> None:
        from PySide6.QtWidgets import QApplication

        from explorer.model import scene_io
        from explorer.model.gallery import SCENES_DIR
        from explorer.qt.app import launch

        self.app = QApplication.instance() or QApplication([])
        path = SCENES_DIR / f"{stem}.json"
        self.window = launch(scene_io.load(path), path)
        self.viewport = self.window.viewport
        self.wait_until(lambda: self.viewport.ready and self.window.plot is not None)
        widget = self.viewport.plotter.interactor
        self.window.resize(VIEW[0] + self.window.width() - widget.width(), VIEW[1] + self.window.height() - widget.height())
        self.idle(0.5)
        self.widget = widget
        self.renders = 0
        self.viewport.plotter.render_window.AddObserver("EndEvent", self._rendered)

    def _rendered(self, *_args) -> None:
        self.renders += 1

    def wait_until(self, predicate, timeout: float = 60.0) -> None:
        end = time.perf_counter() + timeout
        while not predicate():
            if time.perf_counter() > end:
                raise RuntimeError("timed out")
            self.app.processEvents()

    def idle(self, seconds: float = 0.05) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            self.app.processEvents()

    def pixel(self, world) -> tuple[int, int]:
        renderer = self.viewport.plotter.renderer
        renderer.SetWorldPoint(*(float(x) for x in world), 1.0)
        renderer.WorldToDisplay()
        x, y, _ = renderer.GetDisplayPoint()
        return int(round(x)), int(round(self.widget.height() - y))

    def close(self) -> None:
        self.window.close()


def bench_drag(stem: str, moves: int) -> dict:
    """Mouse event -> rendered frame, and -> idle, for a drag of sphere A's centre (ms), with renders per move."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    h = Harness(stem)
    session = h.window.session
    x0, y0 = h.pixel(session.scene.bodies[0].center)
    QTest.mousePress(h.widget, Qt.LeftButton, Qt.NoModifier, QPoint(x0, y0))
    h.idle(0.1)
    to_frame, to_idle, renders = [], [], []
    for k in range(moves):
        dx, dy = int(round(60 * np.sin(k / 15.0))), int(round(40 * np.sin(k / 23.0)))
        frames_before, renders_before = len(h.viewport.frame_times), h.renders
        t0 = time.perf_counter()
        QTest.mouseMove(h.widget, QPoint(x0 + dx, y0 + dy))
        h.wait_until(lambda: len(h.viewport.frame_times) > frames_before)
        to_frame.append((h.viewport.frame_times[-1][2] - t0) * 1e3)
        for _ in range(3):  # the panels' and the plot's redraws, each in its own turn of the loop
            h.app.processEvents()
        to_idle.append((time.perf_counter() - t0) * 1e3)
        renders.append(h.renders - renders_before)
        h.idle(MOVE_PAUSE_S)  # the plot's drag throttle: let every move be a full cycle
    QTest.mouseRelease(h.widget, Qt.LeftButton, Qt.NoModifier, QPoint(x0, y0))
    h.idle(0.1)
    assert session.history.undo_label == "drag A centre", "the drag did not reach the scene"
    floors = _floors(h)
    burst = _burst(h)
    h.close()
    frame = _stats(to_frame)
    return {
        "scene": stem,
        "bodies": len(session.scene.bodies),
        "to_frame_ms": frame,
        "to_idle_ms": _stats(to_idle),
        "renders_per_move": statistics.mean(renders),
        "floors_ms": floors,
        "ratios": {name: frame["median"] / value for name, value in floors.items()},
        "burst": burst,
    }


def _timed_render(h: Harness, prepare=None, n: int = 40, pause: float = 0.0) -> float:
    """Median ms of ``window.Render()``; ``pause`` s of the event loop before each (as between a drag's moves)."""
    times = []
    window = h.viewport.plotter.render_window
    for k in range(n):
        if pause:
            h.idle(pause)
        if prepare is not None:
            prepare(k)
        t0 = time.perf_counter()
        window.Render()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times[3:])


def _floors(h: Harness) -> dict:
    """Render times (ms) of the same view: unchanged, with the actors only moved by transforms, and empty.

    Back to back, and after the pause the drag leaves between its moves: on
    this machine a render after a pause costs more (the renderer's threads and
    caches are cold), so the drag's frames compare with the paused floors.
    """
    drawing = h.viewport.drawing
    actors = [item.actor for item in drawing.items.items.values()]
    texts = [actor for actor, _ in drawing.items.labels.values()] + drawing.legend + [drawing.verdict]
    shown = [a.GetVisibility() for a in actors + texts]
    floors = {"same frame again": _timed_render(h), "same frame after a pause": _timed_render(h, pause=MOVE_PAUSE_S)}
    moving = [drawing.items.items[name].actor for name in ("body0", "capsule0", "arrow0", "centre_path")]

    def shift(k: int) -> None:
        offset = 0.05 * np.sin(k / 5.0)
        for actor in moving:
            actor.SetPosition(offset, 0.0, 0.0)

    floors["actors moved by transforms"] = _timed_render(h, shift)
    for actor in moving:
        actor.SetPosition(0.0, 0.0, 0.0)
    for actor in actors + texts:
        actor.SetVisibility(False)
    floors["empty view"] = _timed_render(h)
    floors["empty view after a pause"] = _timed_render(h, pause=MOVE_PAUSE_S)
    for actor, on in zip(actors + texts, shown):
        actor.SetVisibility(on)
    return floors


def _burst(h: Harness) -> dict:
    """Moves posted every BURST_INTERVAL_MS for BURST_SECONDS: frames drawn, and the lag after the last move."""
    from PySide6.QtCore import QPoint, Qt, QTimer
    from PySide6.QtTest import QTest

    session = h.window.session
    x0, y0 = h.pixel(session.scene.bodies[0].center)
    QTest.mousePress(h.widget, Qt.LeftButton, Qt.NoModifier, QPoint(x0, y0))
    h.idle(0.1)
    frames_before = len(h.viewport.frame_times)
    sent = []

    def move() -> None:
        k = len(sent)
        QTest.mouseMove(h.widget, QPoint(x0 + int(80 * np.sin(k / 20.0)), y0 + int(50 * np.cos(k / 27.0))))
        sent.append(time.perf_counter())

    timer = QTimer()
    timer.setInterval(BURST_INTERVAL_MS)
    timer.timeout.connect(move)
    timer.start()
    h.idle(BURST_SECONDS)
    timer.stop()
    last = sent[-1]
    h.wait_until(lambda: h.viewport.frame_times[-1][1] >= last)
    lag = (h.viewport.frame_times[-1][2] - last) * 1e3
    QTest.mouseRelease(h.widget, Qt.LeftButton, Qt.NoModifier, QPoint(x0, y0))
    h.idle(0.2)
    frames = len(h.viewport.frame_times) - frames_before
    return {"moves": len(sent), "frames": frames, "fps": frames / BURST_SECONDS, "lag_after_last_move_ms": lag}


def bench_start(runs: int) -> dict:
    """Seconds from starting the console script to its first 3-D frame (the app's start-up report)."""
    exe = Path(sys.executable).with_name("sphere-explorer")
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(runs):
            report = Path(tmp) / f"start{k}.json"
            env = {**os.environ, "SPHERE_EXPLORER_STARTUP_REPORT": str(report), "XDG_CONFIG_HOME": tmp}
            t0 = time.time()
            proc = subprocess.Popen([str(exe)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while not report.exists() and proc.poll() is None and time.time() - t0 < 120:
                time.sleep(0.01)
            proc.terminate()
            proc.wait(30)
            times.append(json.loads(report.read_text())["first_frame"] - t0)
    return {"median_s": statistics.median(times), "min_s": min(times), "runs": runs}


def bench_render(runs: int) -> dict:
    """Wall time of the whole headless render process (s), without a display."""
    exe = Path(sys.executable).with_name("sphere-explorer")
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run(
                [str(exe), "render", str(ROOT / "scenes" / "default.json"), "-o", f"{tmp}/out.png", "--size", "1280x800"],
                check=True,
                env=env,
                capture_output=True,
                timeout=120,
            )
            times.append(time.perf_counter() - t0)
    return {"median_s": statistics.median(times), "min_s": min(times), "runs": runs}


def _renderer() -> str:
    from PySide6.QtWidgets import QApplication

    QApplication.instance() or QApplication([])
    import pyvista as pv

    plotter = pv.Plotter(off_screen=True, window_size=(64, 64))
    info = plotter.render_window.ReportCapabilities()
    plotter.close()
    return next((line.split(":", 1)[1].strip() for line in info.splitlines() if "renderer string" in line), "unknown")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--moves", type=int, default=200, help="mouse moves per drag")
    parser.add_argument("--runs", type=int, default=5, help="runs of each process-level measurement")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    xvfb = _ensure_display()
    try:
        machine = _machine()
        machine["renderer"] = _renderer()
        drags = [bench_drag(stem, args.moves) for stem in ("default", _busiest_scene())]
        start = bench_start(args.runs)
        render = bench_render(args.runs)
        machine["load_average_at_end"] = os.getloadavg()
    finally:
        if xvfb is not None:
            xvfb.terminate()
    print("explorer benchmark  (benchmarks/bench_explorer.py)")
    for key, value in machine.items():
        print(f"{key:<26}{value}")
    print(f"{'3-D view':<26}{VIEW[0]}x{VIEW[1]}")
    print()
    print(f"{'drag of sphere A (real mouse events)':<44}{'median':>10}{'p95':>10}   target")
    for d in drags:
        name = f"{d['scene']} ({d['bodies']} bodies)"
        f, i = d["to_frame_ms"], d["to_idle_ms"]
        print(f"{'  ' + name + ': event -> frame':<44}{f['median']:>7.1f} ms{f['p95']:>7.1f} ms   median <= 16 ms, p95 <= 33 ms")
        print(f"{'  ' + name + ': event -> idle (panels too)':<44}{i['median']:>7.1f} ms{i['p95']:>7.1f} ms")
        print(f"{'    renders per mouse move':<44}{d['renders_per_move']:>10.2f}")
        for floor, value in d["floors_ms"].items():
            print(f"{'    render only: ' + floor:<44}{value:>7.1f} ms   frame / this = {d['ratios'][floor]:.2f}")
        b = d["burst"]
        print(f"{'    fast drag: moves -> frames':<44}{b['moves']:>7d} -> {b['frames']} ({b['fps']:.0f} fps)")
        print(f"{'    fast drag: lag after the last move':<44}{b['lag_after_last_move_ms']:>7.1f} ms")
    print()
    print(f"{'start-up to the first 3-D frame':<44}{start['median_s']:>8.2f} s{start['min_s']:>8.2f} s (min)   <= 2.5 s")
    print(f"{'headless render, whole process':<44}{render['median_s']:>8.2f} s{render['min_s']:>8.2f} s (min)   <= 3 s")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine, "drags": drags, "start": start, "render": render}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
