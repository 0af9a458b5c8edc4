"""What the inspector (issue 20) costs a drag: the work of one move of a drag, without Qt.

For each move of a drag of sphere A on a scene (default: ``default``), the session takes the new
position (solve, the inspector's focus) and the 3-D view's drawing is updated and rendered off screen,
as :meth:`explorer.qt.viewport.Viewport.redraw` does (the label layout paused while the sphere is
dragged).  Printed: the median milliseconds per move, of the session and of the drawing with its
render, over ``--moves`` moves, best of ``--repeats`` drags; and, for comparison in the same run, the
same drag with the label layout running (what it would cost if it were not paused), and what one layout
costs a render outside a drag (a camera turn, playback) on this scene and on the break.

Run it in this checkout and in another one (e.g. the commit before the inspector) to compare::

    .venv/bin/python benchmarks/bench_inspector.py
    git archive BASE | tar -x -C /tmp/base && PYTHONPATH=/tmp/base .venv/bin/python benchmarks/bench_inspector.py

Off screen (EGL, Mesa llvmpipe); the machine and its load are printed with the figures.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import time

import numpy as np


def drag(scene_name: str, moves: int, place_labels: bool) -> tuple[list[float], list[float]]:
    """One drag of A in an arc; milliseconds per move for (the session, the drawing and its render)."""
    import pyvista as pv

    import explorer
    from explorer.model.actions.session import Session
    from explorer.model.formats import scene_io
    from explorer.model.formats.gallery import SCENES_DIR
    from explorer.view.scene_view import SceneView

    session = Session(scene_io.load(SCENES_DIR / f"{scene_name}.json"))
    plotter = pv.Plotter(off_screen=True, window_size=[1000, 640])
    view = SceneView(plotter, handles=True)
    inspector = hasattr(session, "inspection")  # the checkout has the inspector (and its label layout)
    start = np.asarray(session.scene.bodies[0].center, dtype=float)
    session.begin_drag(0, "center", start)
    sessions, drawings = [], []
    try:
        for k in range(moves):
            angle = 2 * math.pi * k / moves
            t0 = time.perf_counter()
            session.drag_to(start + (0.8 * math.sin(angle), 0.8 * (1 - math.cos(angle)), 0.0))
            view_state = session.view
            extra = ()
            if inspector:
                extra = (session.inspection.focus(session.solution, view_state.time),)
                view.labels.paused = session.dragging and not place_labels
            t1 = time.perf_counter()
            view.update(session.scene, session.solution, view_state.time, view_state.reference, view_state.layers,
                        view_state.steps, *extra)  # fmt: skip
            plotter.render_window.Render()
            t2 = time.perf_counter()
            sessions.append((t1 - t0) * 1e3)
            drawings.append((t2 - t1) * 1e3)
    finally:
        plotter.close()
    print(f"# explorer from {os.path.dirname(explorer.__file__)}")
    return sessions, drawings


def layout_cost(scene_name: str, runs: int = 20) -> tuple[float, float] | None:
    """Median milliseconds of one label layout (before a render outside a drag: a camera turn, playback) and
    of one render that includes it; None in a checkout without the layout."""
    import pyvista as pv

    from explorer.model.derived.analysis import solve
    from explorer.model.formats import scene_io
    from explorer.model.formats.gallery import SCENES_DIR
    from explorer.view.scene_view import SceneView

    scene = scene_io.load(SCENES_DIR / f"{scene_name}.json")
    plotter = pv.Plotter(off_screen=True, window_size=[1000, 640])
    try:
        view = SceneView(plotter, handles=True)
        if not hasattr(view, "labels"):
            return None
        view.update(scene, solve(scene), 0.0)
        plotter.render_window.Render()
        places, renders = [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            view.labels.place()
            t1 = time.perf_counter()
            plotter.render_window.Render()
            places.append((t1 - t0) * 1e3)
            renders.append((time.perf_counter() - t1) * 1e3)
        return statistics.median(places), statistics.median(renders)
    finally:
        plotter.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--scene", default="default")
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    for place in (False, True):
        runs = [drag(args.scene, args.moves, place) for _ in range(args.repeats)]
        best = min(runs, key=lambda r: statistics.median(r[1]))
        what = "labels placed at every move" if place else "as the window drags"
        print(
            f"{args.scene}, {args.moves} moves, best of {args.repeats} ({what}): session "
            f"{statistics.median(best[0]):.2f} ms, drawing + render {statistics.median(best[1]):.2f} ms per move"
        )
    for name in (args.scene, "snooker_break"):
        cost = layout_cost(name)
        if cost is not None:
            print(f"{name}: label layout {cost[0]:.2f} ms, a render including it {cost[1]:.2f} ms (outside a drag)")
    print(f"load average {os.getloadavg()[0]:.2f} at end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
