"""Interaction benchmarks of the explorer: drag-to-frame time, cold start, headless render.

Run with ``make bench-explorer`` (or ``.venv/bin/python benchmarks/bench_explorer.py``).
Needs an X display; without one it starts its own Xvfb (Debian package ``xvfb``).

Measures, in one run, on the machine it runs on (printed in the header):

* drag -> new frame: real mouse events sent to the 3-D view (press on a sphere,
  a few hundred moves, release); each move runs the drag handler, the solver,
  the in-place mesh updates, the panels and a render, synchronously, so the
  time of one ``QTest.mouseMove`` call is the time to a new frame.  Median and
  p95, for a centre drag and an arrow-tip drag, with the 3-D view at 1280x800.
* cold start: wall time of ``sphere-explorer`` (the real entry point) from
  process start until the window's first frame is on screen (panels with the
  solution; ``SPHERE_EXPLORER_QUIT_AFTER=window``), and until the 3-D view has
  drawn its first frame (``SPHERE_EXPLORER_QUIT_AFTER=view``).  Median of
  several runs.
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

ROOT = Path(__file__).resolve().parent.parent
VIEW = (1280, 800)


def _machine() -> dict:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    renderer = "unknown"
    return {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "renderer": renderer,
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


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))
    return ordered[k]


def bench_drag(moves: int) -> dict:
    """Frame time of real mouse drags in the window (ms)."""
    import numpy as np
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from explorer.model import scene_io
    from explorer.model.gallery import DEFAULT_SCENE
    from explorer.qt.window import MainWindow

    app = QApplication.instance() or QApplication([])
    window = MainWindow(scene_io.load(DEFAULT_SCENE), DEFAULT_SCENE)
    window.show()
    for _ in range(20):
        app.processEvents()
        time.sleep(0.02)
    widget = window.plotter.interactor
    window.resize(VIEW[0] + window.width() - widget.width(), VIEW[1] + window.height() - widget.height())
    for _ in range(20):
        app.processEvents()
        time.sleep(0.02)
    window.reset_camera()
    info = window.plotter.ren_win.ReportCapabilities()
    renderer = next((line.split(":", 1)[1].strip() for line in info.splitlines() if "renderer string" in line), "unknown")

    def pixel(world):
        ren = window.plotter.renderer
        ren.SetWorldPoint(*world, 1.0)
        ren.WorldToDisplay()
        x, y, _ = ren.GetDisplayPoint()
        return int(round(x)), int(round(widget.height() - y))

    results = {"view": [widget.width(), widget.height()], "renderer": renderer, "breakdown": _breakdown(window)}
    results["floor"] = _render_floor(window)
    results["plot"] = _plot_choice(window)
    scene = window.scene
    a = scene.bodies[0]
    tip = np.add(a.center, np.multiply(a.velocity, scene.horizon))
    for name, start in (("centre", a.center), ("arrow tip", tip)):
        x0, y0 = pixel(start)
        QTest.mousePress(widget, Qt.LeftButton, Qt.NoModifier, QPoint(x0, y0))
        times = []
        for k in range(moves):
            dx = int(round(60 * np.sin(k / 15.0)))
            dy = int(round(40 * np.sin(k / 23.0)))
            t0 = time.perf_counter()
            QTest.mouseMove(widget, QPoint(x0 + dx, y0 + dy))
            times.append((time.perf_counter() - t0) * 1e3)
        QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, QPoint(x0, y0))
        assert window.history.can_undo, "the drag did not reach the scene"
        window.undo()
        results[name] = {"median_ms": statistics.median(times), "p95_ms": _percentile(times, 0.95), "moves": moves}
    window.close()
    return results


def _breakdown(window, frames: int = 40) -> dict:
    """Median ms of each stage of a frame (solve, panels, 3-D update, plot, render), on the default scene."""
    from explorer.model.analysis import solve
    from explorer.model.parabola import parabola

    scene = window.scene
    stages: dict[str, list[float]] = {k: [] for k in ("solve", "panels", "3-D meshes", "plot", "render", "total")}
    for k in range(frames):
        moved = scene.with_body(0, center=(scene.bodies[0].center[0] + 0.01 * k, *scene.bodies[0].center[1:]))
        t0 = time.perf_counter()
        solution = solve(moved)
        t1 = time.perf_counter()
        window.values.show_solution(moved, solution)
        window.scene_panel.show_scene(moved, 0)
        t2 = time.perf_counter()
        window.view.update(moved, solution, 0.0, 0.0)
        t3 = time.perf_counter()
        window.plot.show_parabola(parabola(solution, 0.0))
        t4 = time.perf_counter()
        window.plotter.render()
        t5 = time.perf_counter()
        for name, (a, b) in zip(stages, ((t0, t1), (t1, t2), (t2, t3), (t3, t4), (t4, t5), (t0, t5))):
            stages[name].append((b - a) * 1e3)
    window._show(scene)
    return {name: statistics.median(values[5:]) for name, values in stages.items()}


def _plot_choice(window, frames: int = 30) -> dict:
    """Redraw time (ms) of the parabola: pyqtgraph (what the window uses) against matplotlib's Qt canvas.

    Each redraw sets the data and paints the widget into a pixmap (``grab``), so
    only the plot is painted, not the rest of the window.
    """
    from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
    from matplotlib.figure import Figure

    from explorer.model.parabola import parabola
    from explorer.view.plot_image import draw_parabola

    data = [parabola(window.solution, t) for t in np.linspace(0.0, window.scene.horizon, frames)]
    times = {"pyqtgraph": [], "matplotlib Qt canvas": []}
    for d in data:
        t0 = time.perf_counter()
        window.plot.show_parabola(d)
        window.plot.plot.grab()
        times["pyqtgraph"].append((time.perf_counter() - t0) * 1e3)
    canvas = FigureCanvasQTAgg(Figure(figsize=(8, 2.2), dpi=100))
    canvas.resize(window.plot.width(), window.plot.height())
    canvas.show()
    axes = canvas.figure.add_subplot()
    for d in data:
        t0 = time.perf_counter()
        axes.clear()
        draw_parabola(axes, d)
        canvas.draw()
        canvas.grab()
        times["matplotlib Qt canvas"].append((time.perf_counter() - t0) * 1e3)
    canvas.close()
    return {name: statistics.median(values[3:]) for name, values in times.items()}


def _render_floor(window) -> dict:
    """Render time (ms) of the 3-D view with nothing in it, and with only one sphere: the renderer's floor."""
    view = window.view
    items = list(view.items.values())
    shown = [item.actor.GetVisibility() for item in items]
    texts = [*view.labels.values(), *view.legend, view.status_actor]
    texts_shown = [t.GetVisibility() for t in texts]

    def timed() -> float:
        times = []
        for _ in range(20):
            window.plotter.camera.azimuth += 0.2
            t0 = time.perf_counter()
            window.plotter.render_window.Render()
            times.append((time.perf_counter() - t0) * 1e3)
        return statistics.median(times)

    for item in items:
        item.actor.SetVisibility(False)
    for text in texts:
        text.SetVisibility(False)
    floor = {"empty view": timed()}
    view.items["body1"].actor.SetVisibility(True)
    floor["one sphere (B)"] = timed()
    for item, on in zip(items, shown):
        item.actor.SetVisibility(on)
    for text, on in zip(texts, texts_shown):
        text.SetVisibility(on)
    floor["whole scene"] = timed()
    return floor


def bench_cold_start(runs: int, until: str) -> dict:
    """Wall time from process start until the window (``until="window"``) or the 3-D view is drawn (s)."""
    exe = Path(sys.executable).with_name("sphere-explorer")
    env = {**os.environ, "SPHERE_EXPLORER_QUIT_AFTER": until}
    times = []
    for _ in range(runs):
        t0 = time.time()
        proc = subprocess.run([str(exe)], check=True, env=env, capture_output=True, text=True, timeout=120)
        stamp = next(line for line in proc.stderr.splitlines() if line.startswith("frame-at "))
        times.append(float(stamp.split()[1]) - t0)  # to the frame, not to the end of the process
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--moves", type=int, default=200, help="mouse moves per drag")
    parser.add_argument("--runs", type=int, default=5, help="runs of each process-level measurement")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    xvfb = _ensure_display()
    try:
        machine = _machine()
        drag = bench_drag(args.moves)
        machine["renderer"] = drag.pop("renderer")
        start = bench_cold_start(args.runs, "window")
        start_view = bench_cold_start(args.runs, "view")
        render = bench_render(args.runs)
    finally:
        if xvfb is not None:
            xvfb.terminate()
    print("explorer benchmark  (benchmarks/bench_explorer.py)")
    for key, value in machine.items():
        print(f"{key:<26}{value}")
    print(f"{'3-D view':<26}{drag['view'][0]}x{drag['view'][1]}")
    print()
    print(f"{'measurement':<40}{'median':>12}{'p95 / min':>14}   target")
    for name in ("centre", "arrow tip"):
        d = drag[name]
        print(f"{'drag ' + name + ' -> new frame':<40}{d['median_ms']:>9.1f} ms{d['p95_ms']:>11.1f} ms   median <= 16 ms, p95 <= 33 ms")
    print(f"{'cold start to first frame (window)':<40}{start['median_s']:>10.2f} s{start['min_s']:>12.2f} s   <= 2.5 s")
    print(f"{'cold start to first 3-D frame':<40}{start_view['median_s']:>10.2f} s{start_view['min_s']:>12.2f} s")
    print(f"{'headless render, whole process':<40}{render['median_s']:>10.2f} s{render['min_s']:>12.2f} s   <= 3 s")
    print()
    print("where a drag frame goes (default scene, median ms): " + ", ".join(f"{k} {v:.1f}" for k, v in drag["breakdown"].items()))
    print("rendering the 3-D view alone (median ms): " + ", ".join(f"{k} {v:.1f}" for k, v in drag["floor"].items()))
    print("redrawing the parabola plot (median ms): " + ", ".join(f"{k} {v:.1f}" for k, v in drag["plot"].items()))
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine, "drag": drag, "cold_start": start, "cold_start_view": start_view, "render": render}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
