"""What a user of the explorer feels: a continuous drag at real screen sizes, start-up, headless render.

Run with ``make bench-explorer`` (or ``.venv/bin/python benchmarks/bench_explorer.py``). Needs Debian's
``xvfb``: it starts its own X servers, one per screen size, so it runs the same with or without a display.

Measured in one run, on the machine it runs on (printed in the header):

* **continuous drag**, for each screen (1366x768, 1920x1080) and scene (``default``, ``snooker_break`` in
  all-bodies mode): a new process starts the app exactly as ``sphere-explorer SCENE`` does (the console
  script's entry point, a first run: no remembered layout) on that screen, waits for its first frame and
  drags sphere A's centre in a circle with real mouse events sent to the 3-D view's widget, each move
  8 ms after the previous one was handled (a 125 Hz mouse: a move is always waiting).  It reports the frame
  interval (what the user sees), the event -> frame latency (from sending a move to the end of the first
  frame that shows it, as the view notes which moves each frame shows), the render time inside the drag, a full-quality render of the same view after the
  release (the floor), where a frame's time goes (render, session update, scene drawing, each panel, Qt
  painting, the rest), how long after the pointer stops (button still held) every panel shows where it
  stopped, and how long after the release the full-quality frame is on screen.  A second, paced drag
  (one move every 45 ms: the old measure, which hides the panels' cost in the pauses) follows.
* **start-up**: from starting ``.venv/bin/sphere-explorer`` (a new process, warm disk cache) to its first
  3-D frame on screen, measured from outside (the app's start-up report gives the frame's time).
* **headless render**: wall time of the whole ``sphere-explorer render`` process.

Targets (the live-drag issue): frame interval <= 1.5x the full-quality render, >= 30 fps at 1366x768 on
the default scene and >= 20 on snooker_break, p95 latency <= 2x its median, panels up to date within
100 ms of the pointer stopping, first frame <= 2.0 s.  ``--child`` runs one drag (used by the main run).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONSOLE_SCRIPT = Path(sys.executable).with_name("sphere-explorer")
SCREENS = ((1366, 768), (1920, 1080))
SCENES = ("default", "snooker_break")
#: Frames per second asked of the continuous drag, by (screen, scene); no figure: only the ratio applies.
MIN_FPS = {((1366, 768), "default"): 30.0, ((1366, 768), "snooker_break"): 20.0}
RATIO_TARGET, P95_TARGET, CATCH_UP_TARGET_MS, START_TARGET_S = 1.5, 2.0, 100.0, 2.0
#: A 125 Hz mouse: the next move is sent this long after the previous one was handled.
MOVE_MS = 8
#: The paced drag of the old benchmark: one move every this many ms.
PACED_MS = 45


# -- the drag, inside the app's process ---------------------------------------------------------------------
#: A drag's preview (solve, meshes): worked out beside the render, in its thread, where that pays (the frame's
#: time does not count it); else in the window's thread, within "other".
BESIDE = "preview (solve, meshes), beside the render or in other"


class _Probe:
    """Timings collected inside the app: renders, moves, and the time spent in each part of a frame."""

    def __init__(self) -> None:
        self.renders: list[tuple[float, float]] = []  # (start, end) perf_counter
        self.spans: dict[str, list[tuple[float, float]]] = {}
        self.sent: list[float] = []
        self._depth = 0

    def span(self, name: str, start: float, end: float) -> None:
        self.spans.setdefault(name, []).append((start, end))

    def timed(self, name: str, function):
        """``function`` wrapped so that each call is recorded as a span of ``name``."""

        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.span(name, start, time.perf_counter())

        return wrapper

    def total(self, name: str, lo: float, hi: float) -> float:
        """Seconds spent in ``name`` between ``lo`` and ``hi``."""
        return sum(e - s for s, e in self.spans.get(name, []) if lo <= s and e <= hi)


def _instrumented_application(probe: _Probe):
    """A QApplication whose event delivery times Qt's painting of every widget but the 3-D view."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    painting = (QEvent.Paint, QEvent.UpdateRequest, QEvent.LayoutRequest)

    class Application(QApplication):
        def notify(self, receiver, event):  # noqa: N802 - Qt name
            if event.type() not in painting or probe._depth:
                return super().notify(receiver, event)
            if type(receiver).__name__ == "NativePlotter":
                return super().notify(receiver, event)
            probe._depth += 1
            start = time.perf_counter()
            try:
                return super().notify(receiver, event)
            finally:
                probe._depth -= 1
                probe.span("Qt painting and layout", start, time.perf_counter())

    return Application(sys.argv[:1])


def _instrument_classes(probe: _Probe) -> None:
    """Time the session's update and the scene's drawing wherever they are called from."""
    from explorer.model.actions.session import Session
    from explorer.qt.viewport import Viewport
    from explorer.view.scene_view import SceneView

    # the window's drag before the preview thread
    Session.drag_to = probe.timed("session update (solve)", Session.drag_to)
    if hasattr(Session, "show_preview"):  # since: solved in the preview thread, shown in the window's
        Session.show_preview = probe.timed("session update (solve)", Session.show_preview)
        Viewport._work_out = probe.timed(BESIDE, Viewport._work_out)
    SceneView.update = probe.timed("scene drawing (meshes, labels)", SceneView.update)


PANELS = {"plot": "panel: parabola", "values": "panel: values", "time_bar": "panel: time bar",
          "scene_panel": "panel: scene", "layers_panel": "panel: layers", "lab": "panel: precision lab"}  # fmt: skip


def _instrument_window(probe: _Probe, window) -> None:
    for attribute, name in PANELS.items():
        refresher = getattr(getattr(window, attribute), "refresher", None)
        if refresher is None:  # a panel bound to the session's parts (qt/binding.py) has no refresh of its own
            continue
        refresher.refresh = probe.timed(name, refresher.refresh)
    render_window = window.viewport.plotter.render_window
    starts: list[float] = []
    render_window.AddObserver("StartEvent", lambda *_: starts.append(time.perf_counter()))
    render_window.AddObserver("EndEvent", lambda *_: probe.renders.append((starts[-1], time.perf_counter())))


def _child(scene_path: str, moves: int) -> None:
    """Start the app as the console script does, drag sphere A, print one JSON line, exit."""
    import solver

    solver.configure(jit=False)  # what the console script does, before anything imports the solver's queries
    probe = _Probe()
    app = _instrumented_application(probe)
    _instrument_classes(probe)
    from PySide6.QtCore import QTimer

    state: dict = {"result": None}

    def finish(result: dict) -> None:
        state["result"] = result
        app.quit()

    def poll() -> None:
        from explorer.qt.window import MainWindow

        window = next((w for w in app.topLevelWidgets() if isinstance(w, MainWindow)), None)
        if window is None or not window.viewport.ready or window.plot is None:
            QTimer.singleShot(50, poll)
            return
        try:
            _instrument_window(probe, window)
        except Exception as error:  # noqa: BLE001  (the window changed: say so instead of hanging)
            finish({"error": f"cannot instrument the window: {error!r}"})
            return
        state["drag"] = _Drag(app, window, probe, moves, finish)  # held here: Qt keeps weak references to its methods
        QTimer.singleShot(1000, state["drag"].start)

    QTimer.singleShot(50, poll)
    from explorer.cli import console

    sys.argv = ["sphere-explorer", scene_path]
    try:
        console()
    except SystemExit:
        pass
    print(json.dumps(state["result"] or {"error": "the app returned before the drag was measured"}))
    sys.stdout.flush()
    os._exit(0)


class _Drag:
    """The continuous drag, the pause with the button held, the release, the floor, then the paced drag."""

    def __init__(self, app, window, probe: _Probe, moves: int, finish) -> None:
        self.app, self.window, self.probe, self.moves, self.finish = app, window, probe, moves, finish
        self.widget = window.viewport.plotter.interactor
        self.result: dict = {}

    # -- mouse ----------------------------------------------------------------------------------
    def send(self, kind, x: float, y: float, held: bool) -> None:
        from PySide6.QtCore import QPointF, Qt
        from PySide6.QtGui import QMouseEvent
        from PySide6.QtWidgets import QApplication

        point = QPointF(x, y)
        buttons = Qt.LeftButton if held else Qt.NoButton
        event = QMouseEvent(kind, point, self.widget.mapToGlobal(point), Qt.LeftButton, buttons, Qt.NoModifier)
        QApplication.sendEvent(self.widget, event)

    def point(self, k: int) -> tuple[float, float]:
        """Where the pointer is at move ``k``: a circle through A's centre."""
        r = min(60.0, self.widget.width() / 8, self.widget.height() / 8)
        a = 2 * math.pi * k / 125
        return self.x0 + r * math.sin(a), self.y0 + r * (1 - math.cos(a))

    def start(self) -> None:
        from PySide6.QtCore import QEvent, QTimer

        from explorer.view.camera import project

        plotter = self.window.viewport.plotter
        x, y = project(plotter, self.window.session.scene.bodies[0].center)
        ratio = self.widget.devicePixelRatioF()
        self.x0, self.y0 = x / ratio, y / ratio
        self.result["view"] = [self.widget.width(), self.widget.height()]
        self.send(QEvent.MouseButtonPress, self.x0, self.y0, True)
        if not self.window.session.dragging:
            return self.finish({"error": "pressing on sphere A's centre did not grab it"})
        QTimer.singleShot(MOVE_MS, lambda: self.step(0))

    def step(self, k: int) -> None:
        from PySide6.QtCore import QEvent, QTimer

        if k >= self.moves:
            self.stopped_at = self.probe.sent[-1]
            QTimer.singleShot(600, self.release)
            return
        self.probe.sent.append(time.perf_counter())
        self.send(QEvent.MouseMove, *self.point(k), True)
        QTimer.singleShot(MOVE_MS, lambda: self.step(k + 1))

    def release(self) -> None:
        from PySide6.QtCore import QEvent, QTimer

        self.drag_window = (self.probe.sent[0], self.probe.sent[-1])
        self.result["catch_up_ms"] = self._catch_up_ms()
        last = self.stopped_at
        now = time.perf_counter()
        self.result["catch_up_parts_ms"] = {name: self.probe.total(name, last, now) * 1e3 for name in self.probe.spans}
        self.released_at = time.perf_counter()
        self.renders_before_release = len(self.probe.renders)
        self.send(QEvent.MouseButtonRelease, *self.point(self.moves - 1), False)
        QTimer.singleShot(500, self.floor)

    def _catch_up_ms(self) -> float | None:
        """From the last move to the end of the last panel refresh or frame it caused (button still held)."""
        last = self.stopped_at
        spans = [span for name, spans in self.probe.spans.items() if name.startswith(("panel", "Qt")) for span in spans]
        ends = [e for s, e in spans if s >= last]
        ends += [e for s, e in self.probe.renders if s >= last]
        return (max(ends) - last) * 1e3 if ends else None

    def floor(self) -> None:
        from PySide6.QtCore import QTimer

        after = [e for s, e in self.probe.renders[self.renders_before_release :]]
        self.result["release_to_full_frame_ms"] = (after[-1] - self.released_at) * 1e3 if after else None
        window = self.window.viewport.plotter.render_window
        times = []
        for _ in range(30):
            t0 = time.perf_counter()
            window.Render()
            times.append((time.perf_counter() - t0) * 1e3)
        self.result["full_render_back_to_back_ms"] = statistics.median(times[3:])
        self.looped: list[float] = []
        QTimer.singleShot(0, self.looped_render)

    def looped_render(self) -> None:
        """The same full-quality render once per turn of the event loop, as the drag's frames are drawn."""
        from PySide6.QtCore import QTimer

        if len(self.looped) < 30:
            t0 = time.perf_counter()
            self.window.viewport.plotter.render_window.Render()
            self.looped.append((time.perf_counter() - t0) * 1e3)
            QTimer.singleShot(0, self.looped_render)
            return
        looped = statistics.median(self.looped[3:])
        self.result["full_render_in_loop_ms"] = looped
        self.result["full_render_ms"] = min(looped, self.result["full_render_back_to_back_ms"])  # the stricter floor
        self.result.update(self._drag_figures())
        self.paced_sent: list[float] = []
        self.paced_renders = len(self.probe.renders)
        QTimer.singleShot(200, self.paced_start)

    def _drag_figures(self) -> dict:
        lo, hi = self.drag_window
        sent = self.probe.sent
        renders = [(s, e) for s, e in self.probe.renders if lo <= e <= hi + 0.001]
        ends = [e for _, e in renders]
        latency = _shown_after(sent, self.window.viewport.frame_times)
        intervals = [(b - a) * 1e3 for a, b in zip(ends, ends[1:])]
        span = ends[-1] - ends[0]
        frames = len(ends) - 1
        parts = {"render (3-D view)": sum(e - s for s, e in renders[1:]) / frames * 1e3}
        for name in self.probe.spans:
            parts[name] = self.probe.total(name, ends[0], ends[-1]) / frames * 1e3
        beside = parts.pop(BESIDE, None)
        interval = statistics.median(intervals)
        parts["other (events, Python, idle)"] = span / frames * 1e3 - sum(parts.values())
        if beside is not None:
            parts[BESIDE] = beside
        return {
            "moves": len(sent), "frames": len(ends), "interval_ms": interval, "mean_interval_ms": span / frames * 1e3,
            "fps": 1e3 / interval, "latency_ms": _stats(latency),
            "render_in_drag_ms": statistics.median([(e - s) * 1e3 for s, e in renders]), "parts_ms": parts,
        }  # fmt: skip

    # -- the paced drag (old measure) ----------------------------------------------------------------
    def paced_start(self) -> None:
        from PySide6.QtCore import QEvent, QTimer

        self.send(QEvent.MouseButtonPress, *self.point(self.moves - 1), True)
        QTimer.singleShot(PACED_MS, lambda: self.paced_step(0))

    def paced_step(self, k: int) -> None:
        from PySide6.QtCore import QEvent, QTimer

        if k >= 60:
            self.send(QEvent.MouseButtonRelease, *self.point(k), False)
            QTimer.singleShot(300, self.done)
            return
        self.paced_sent.append(time.perf_counter())
        self.send(QEvent.MouseMove, *self.point(self.moves - 1 - k), True)
        QTimer.singleShot(PACED_MS, lambda: self.paced_step(k + 1))

    def done(self) -> None:
        self.result["paced_latency_ms"] = _stats(_shown_after(self.paced_sent, self.window.viewport.frame_times))
        self.finish(self.result)


def _shown_after(sent: list[float], frames: list[tuple[float, float, float]]) -> list[float]:
    """For each move sent at ``sent`` (``perf_counter``), ms until the end of the first frame that shows it or a
    later move (the view's ``frame_times``: the oldest and newest input each frame shows, and its end)."""
    latency = []
    for t in sent:
        done = next((end for _, newest, end in frames if newest >= t), None)
        if done is not None:
            latency.append((done - t) * 1e3)
    return latency


def _stats(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"median": statistics.median(ordered), "p95": ordered[int(0.95 * (len(ordered) - 1))], "n": len(ordered)}


# -- the main run: X servers, processes, the table ------------------------------------------------------------
def _free_display() -> int:
    for number in range(160, 400):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            return number
    raise RuntimeError("no free X display number")


class _Screen:
    """An Xvfb of one size, for the duration of a ``with`` block."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size

    def __enter__(self) -> dict:
        if shutil.which("Xvfb") is None:
            sys.exit("bench_explorer: Xvfb is needed (Debian package xvfb)")
        self.number = _free_display()
        w, h = self.size
        self.proc = subprocess.Popen(["Xvfb", f":{self.number}", "-screen", "0", f"{w}x{h}x24", "-nolisten", "tcp"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        end = time.monotonic() + 20
        while not Path(f"/tmp/.X11-unix/X{self.number}").exists():
            if time.monotonic() > end or self.proc.poll() is not None:
                raise RuntimeError("Xvfb did not start")
            time.sleep(0.05)
        self.config = tempfile.mkdtemp(prefix="bench-explorer-")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "SPHERE_EXPLORER"))}
        env.update(DISPLAY=f":{self.number}", XDG_CONFIG_HOME=self.config)
        return env

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        shutil.rmtree(self.config, ignore_errors=True)


def run_drag(env: dict, scene: str, moves: int) -> dict:
    """One continuous drag in a new app process on the screen of ``env``."""
    shutil.rmtree(Path(env["XDG_CONFIG_HOME"]) / "SphereSweepExplorer", ignore_errors=True)  # a first run's layout
    command = [sys.executable, __file__, "--child", str(ROOT / "scenes" / f"{scene}.json"), "--moves", str(moves)]
    proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"error": f"no result (exit {proc.returncode}): {proc.stderr.strip()[-400:]}"}
    return json.loads(lines[-1])


def bench_start(env: dict, runs: int) -> dict:
    """Seconds from starting ``sphere-explorer`` to its first 3-D frame; one warm-up run first (disk cache)."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(runs + 1):
            report = Path(tmp) / f"start{k}.json"
            run_env = {**env, "SPHERE_EXPLORER_STARTUP_REPORT": str(report), "XDG_CONFIG_HOME": f"{tmp}/config{k}"}
            t0 = time.time()
            proc = subprocess.Popen([str(CONSOLE_SCRIPT)], env=run_env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)  # fmt: skip
            while not report.exists() and proc.poll() is None and time.time() - t0 < 120:
                time.sleep(0.005)
            proc.terminate()
            proc.wait(30)
            if k:
                times.append(json.loads(report.read_text())["first_frame"] - t0)
    return {"median_s": statistics.median(times), "min_s": min(times), "runs": runs}


def bench_render(runs: int) -> dict:
    """Wall time of the whole headless render process (s), without a display."""
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            t0 = time.perf_counter()
            command = [str(CONSOLE_SCRIPT), "render", str(ROOT / "scenes" / "default.json"), "-o", f"{tmp}/out.png",
                       "--size", "1280x800"]  # fmt: skip
            subprocess.run(command, check=True, env=env, capture_output=True, timeout=120)
            times.append(time.perf_counter() - t0)
    return {"median_s": statistics.median(times), "min_s": min(times), "runs": runs}


def _machine() -> dict:
    cpu = "unknown"
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
        cpu = next(line.split(":", 1)[1].strip() for line in lines if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = tuple(round(x, 2) for x in os.getloadavg())
    return {"date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "cpu": cpu, "cpus": os.cpu_count(),
            "python": platform.python_version(), "load_average_at_start": load}  # fmt: skip


def _median_run(runs: list[dict]) -> dict:
    """The run with the median frame interval (errors only if every run failed)."""
    good = sorted((r for r in runs if "error" not in r), key=lambda r: r["interval_ms"])
    return good[len(good) // 2] if good else runs[0]


def _ratios(runs: list[dict]) -> str:
    """Each run's frame interval / full-quality render, in words."""
    return ", ".join(f"{r['interval_ms'] / r['full_render_ms']:.2f}" for r in runs if "error" not in r)


def _print_previous(checkout: Path, runs: list[dict]) -> None:
    """One line: the same drag on ``checkout``'s code, its median run."""
    d = _median_run(runs)
    if "error" in d:
        print(f"  previous ({checkout}): {d['error']}")
        return
    print(
        f"  previous ({checkout}): frame interval {d['interval_ms']:.1f} ms = {d['fps']:.1f} fps, full-quality "
        f"render {d['full_render_ms']:.1f} ms, ratio {d['interval_ms'] / d['full_render_ms']:.2f} "
        f"(runs: {_ratios(runs)}); latency median, p95 {d['latency_ms']['median']:.1f}, {d['latency_ms']['p95']:.1f} ms, "
        f"paced {d['paced_latency_ms']['median']:.1f}, {d['paced_latency_ms']['p95']:.1f} ms"
    )


def _print_drag(size, scene: str, runs: list[dict]) -> None:
    d = _median_run(runs)
    title = f"{size[0]}x{size[1]}  {scene}"
    if "error" in d:
        print(f"{title}: {d['error']}")
        return
    lat, ratio = d["latency_ms"], d["interval_ms"] / d["full_render_ms"]
    fps_goal = MIN_FPS.get((size, scene))
    print(f"{title}   (3-D view {d['view'][0]}x{d['view'][1]}, {d['moves']} moves -> {d['frames']} frames"
          + (f", median of {len(runs)} runs" if len(runs) > 1 else "") + ")")  # fmt: skip

    def row(name: str, value: str, target: str = "", ok: bool | None = None) -> None:
        verdict = "" if ok is None else ("  met" if ok else "  NOT MET")
        print(f"  {name:<44}{value:>22}   {target}{verdict}")

    row("frame interval (median)", f"{d['interval_ms']:.1f} ms = {d['fps']:.1f} fps",
        f">= {fps_goal:.0f} fps" if fps_goal else "", d["fps"] >= fps_goal if fps_goal else None)  # fmt: skip
    row("full-quality render of the same view", f"{d['full_render_ms']:.1f} ms",
        f"(the lower of: back to back {d['full_render_back_to_back_ms']:.1f}, one per turn of the loop "
        f"{d['full_render_in_loop_ms']:.1f})")  # fmt: skip
    row("frame interval / full-quality render", f"{ratio:.2f}", f"<= {RATIO_TARGET}", ratio <= RATIO_TARGET)
    if len(runs) > 1:
        row("  the same, each run", _ratios(runs))
    row("render inside the drag (median)", f"{d['render_in_drag_ms']:.1f} ms")
    row("event -> frame latency: median, p95", f"{lat['median']:.1f}, {lat['p95']:.1f} ms",
        f"p95 <= {P95_TARGET:.0f}x median", lat["p95"] <= P95_TARGET * lat["median"])  # fmt: skip
    catch = d["catch_up_ms"]
    row("pointer stops -> every panel up to date", "-" if catch is None else f"{catch:.1f} ms",
        f"<= {CATCH_UP_TARGET_MS:.0f} ms", catch is not None and catch <= CATCH_UP_TARGET_MS)  # fmt: skip
    release = d["release_to_full_frame_ms"]
    row("release -> full-quality frame", "-" if release is None else f"{release:.1f} ms",
        f"<= {CATCH_UP_TARGET_MS:.0f} ms", release is not None and release <= CATCH_UP_TARGET_MS)  # fmt: skip
    paced = d["paced_latency_ms"]
    row(f"paced drag (a move every {PACED_MS} ms): event -> frame", f"{paced['median']:.1f}, {paced['p95']:.1f} ms")
    parts = ", ".join(f"{name} {value:.0f}" for name, value in d["catch_up_parts_ms"].items() if value >= 0.5)
    print(f"  after the pointer stops (ms): {parts}")
    print("  where a frame's time goes (ms per frame, mean over the drag):")
    for name, value in d["parts_ms"].items():
        print(f"    {name:<42}{value:>8.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--moves", type=int, default=250, help="mouse moves of the continuous drag")
    parser.add_argument("--repeats", type=int, default=1, help="drags per screen and scene (the median run is shown)")
    parser.add_argument("--runs", type=int, default=5, help="runs of the start-up and headless-render measurements")
    parser.add_argument("--screens", default=",".join(f"{w}x{h}" for w, h in SCREENS))
    parser.add_argument("--scenes", default=",".join(SCENES))
    parser.add_argument("--json", help="also write every figure here")
    parser.add_argument("--previous", type=Path, metavar="CHECKOUT",
                        help="also drag on another checkout's code (PYTHONPATH=CHECKOUT), in turn with this one")  # fmt: skip
    parser.add_argument("--child", metavar="SCENE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.moves)
        return 0
    screens = [tuple(int(x) for x in s.split("x")) for s in args.screens.split(",")]
    scenes = args.scenes.split(",")
    machine = _machine()
    drags, start = {}, None
    for size in screens:
        with _Screen(size) as env:
            for scene in scenes:
                for _ in range(args.repeats):  # this checkout and the previous one in turn
                    drags.setdefault(f"{size[0]}x{size[1]} {scene}", []).append(run_drag(env, scene, args.moves))
                    if args.previous:
                        old_env = {**env, "PYTHONPATH": str(args.previous.resolve())}
                        drags.setdefault(f"previous {size[0]}x{size[1]} {scene}", []).append(
                            run_drag(old_env, scene, args.moves)
                        )
            if start is None and args.runs:
                start = bench_start(env, args.runs)
    render = bench_render(args.runs) if args.runs else None
    machine["load_average_at_end"] = tuple(round(x, 2) for x in os.getloadavg())
    print("explorer benchmark  (benchmarks/bench_explorer.py)")
    for key, value in machine.items():
        print(f"{key:<26}{value}")
    print("renderer                  Mesa llvmpipe under Xvfb (software OpenGL), one Xvfb per screen size")
    print()
    for size in screens:
        for scene in scenes:
            _print_drag(size, scene, drags[f"{size[0]}x{size[1]} {scene}"])
            if args.previous:
                _print_previous(args.previous, drags[f"previous {size[0]}x{size[1]} {scene}"])
            print()
    if start is not None:
        ok = "met" if start["median_s"] <= START_TARGET_S else "NOT MET"
        print(f"{'start-up: sphere-explorer to its first 3-D frame':<52}{start['median_s']:>6.2f} s  "
              f"(min {start['min_s']:.2f} s, "
              f"{start['runs']} runs after a warm-up)   <= {START_TARGET_S} s  {ok}")  # fmt: skip
    if render is not None:
        print(f"{'headless render, whole process':<52}{render['median_s']:>6.2f} s  (min {render['min_s']:.2f} s)")
    if args.json:
        everything = {"machine": machine, "drags": drags, "start": start, "render": render}
        Path(args.json).write_text(json.dumps(everything, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
