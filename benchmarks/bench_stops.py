#!/usr/bin/env python
"""How fast a motion that never settles comes to its stop, and how fast a huge paste is answered.

Run from the repository root::

    .venv/bin/python benchmarks/bench_stops.py [--repeats 5]

The scenes are the hostile ones that once took over a minute (all-bodies mode,
horizon 1e6, so the motion runs into the explorer's event limit,
:data:`explorer.model.derived.analysis.MOTION_EVENTS`):

* ``jam``: a ball bouncing between two fixed spheres;
* ``gas8``: the gallery's gas in a container (7 balls);
* ``gas15``: 15 balls in a container (the most a scene holds).

For each: ``sphere-explorer solve`` timed from the shell (a new process, as a
user runs it: wall time including start-up and the JSON), and the explorer's
own solve in one process with the solver as plain Python (what the window
runs, ``SPHERE_SOLVER_JIT=0``).  Then the paste box: a 1 MB paste into the real
dialog (under the X display in ``DISPLAY``, e.g. Xvfb), from the key press to
the answer.  Goal (the hostile-round-2 issue): every stop <= 2 s, the paste
<= 1 s.  Medians of ``--repeats`` runs; the header gives the machine and load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXE = Path(sys.executable).with_name("sphere-explorer")


def scenes() -> dict[str, dict]:
    """The hostile scenes, as scene-file dicts."""
    gas = json.loads((ROOT / "scenes" / "gas_in_container.json").read_text())
    gas["horizon"] = 1e6
    balls = [b for b in gas["bodies"] if not b.get("container")]
    wall = next(b for b in gas["bodies"] if b.get("container"))
    extra = [{"name": f"X{k}", "center": [0.5 * (k % 3) - 0.5, 0.5 * (k // 3) - 1.0, 0.0],
              "velocity": [0.3 * (k % 2) - 0.1, 0.2, 0.1 * k], "radius": 0.1} for k in range(15 - len(balls))]  # fmt: skip
    gas15 = {**gas, "bodies": balls + extra + [wall]}
    jam = {"format": "sphere-explorer/1", "mode": "all", "horizon": 1e6, "restitution": 1.0, "bodies": [
        {"name": "A", "center": [0, 0, 0], "velocity": [10, 0, 0], "radius": 1.0},
        {"name": "B", "center": [-2.5, 0, 0], "radius": 1.0, "fixed": True},
        {"name": "C", "center": [2.5, 0, 0], "radius": 1.0, "fixed": True}]}  # fmt: skip
    return {"jam": jam, "gas8": gas, "gas15": gas15}


def time_solve_command(path: Path, repeats: int) -> tuple[float, int]:
    times, events = [], 0
    for _ in range(repeats):
        start = time.perf_counter()
        out = subprocess.run([str(EXE), "solve", str(path)], capture_output=True, text=True, check=True).stdout
        times.append(time.perf_counter() - start)
        events = len(json.loads(out)["path"]["events"])
    return statistics.median(times), events


IN_PROCESS = """
import json, sys, time, statistics
from explorer.model.formats import scene_io
from explorer.model.derived.analysis import solve
scene = scene_io.load(sys.argv[1])
times = []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    solution = solve(scene)
    times.append(time.perf_counter() - start)
print(json.dumps([statistics.median(times), len(solution.events)]))
"""


def time_window_solver(path: Path, repeats: int) -> tuple[float, int]:
    env = {**os.environ, "SPHERE_SOLVER_JIT": "0"}
    out = subprocess.run([sys.executable, "-c", IN_PROCESS, str(path), str(repeats)], capture_output=True, text=True,
                         check=True, env=env).stdout  # fmt: skip
    median, events = json.loads(out)
    return median, events


PASTE = """
import sys, time
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from explorer.qt.dialogs import PasteDialog
app = QApplication(sys.argv[:1])
dialog = PasteDialog(None)
dialog.show()
QTest.qWaitForWindowExposed(dialog)
QGuiApplication.clipboard().setText(sys.argv[1] * int(sys.argv[2]))
app.processEvents()
dialog.editor.setFocus()
start = time.perf_counter()
QTest.keyClick(dialog.editor, Qt.Key_V, Qt.ControlModifier)
app.processEvents()
print(time.perf_counter() - start, len(dialog.editor.toPlainText()))
"""


def time_paste(repeats: int) -> list[tuple[str, float]]:
    out = []
    for label, unit, count in (("1 MB on one line", "9", 1 << 20), ("1 MB of short lines", "1\n", 1 << 19)):
        times = []
        for _ in range(repeats):
            proc = subprocess.run([sys.executable, "-c", PASTE, unit, str(count)], capture_output=True, text=True,
                                  check=True)  # fmt: skip
            seconds, kept = proc.stdout.split()
            times.append(float(seconds))
        out.append((f"{label} (kept {kept} characters)", statistics.median(times)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_solver import machine_info

    info = machine_info()
    print(
        f"# machine: {info['cpu_model']}, {os.cpu_count()} cores, {info['date']}; load average {os.getloadavg()[0]:.2f}"
    )
    print(f"# medians of {args.repeats} runs\n")
    print(f"{'scene':<8} {'events':>7} {'solve from the shell':>22} {'window solver':>15}")
    with tempfile.TemporaryDirectory() as folder:
        for name, data in scenes().items():
            path = Path(folder) / f"{name}.json"
            path.write_text(json.dumps(data))
            shell, events = time_solve_command(path, args.repeats)
            window, _ = time_window_solver(path, args.repeats)
            print(f"{name:<8} {events:>7} {shell:>20.2f} s {window:>13.2f} s")
    if os.environ.get("DISPLAY"):
        print()
        for label, seconds in time_paste(args.repeats):
            print(f"paste box, {label}: {seconds * 1000:.0f} ms to the answer")
    else:
        print("\n(no DISPLAY: the paste box was not measured; run under Xvfb)")


if __name__ == "__main__":
    main()
