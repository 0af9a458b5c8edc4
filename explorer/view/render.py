"""Headless pictures: the same drawing code as the window, into a PNG.

Qt-free.  Before VTK is loaded, :func:`check_offscreen` picks how it will draw
without a window and checks that this works here: through the X display when
one answers, otherwise through EGL (Mesa's llvmpipe on machines without a GPU),
probed in a separate process, so a missing driver is one line instead of a
crash.  Outputs are refused beforehand when they would need more memory than
:func:`memory_budget` (:func:`check_memory`), and written atomically
(:func:`explorer.system.files.replacing`): no half-written or temporary file
stays behind.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..model.derived.analysis import Solution, solve
from ..model.derived.inspection import Focus, Inspection
from ..model.state.scene import Scene, check_camera, view_settings
from ..system import interrupt
from ..system import probes as system
from ..system.files import replacing

#: Multisampling for finished pictures (drafts while dragging use none).
EXPORT_SAMPLES = 4

#: Default memory budget for one output, and the variable that changes it (in MiB).
MEMORY_BUDGET = 4 << 30
MEMORY_VARIABLE = "SPHERE_EXPLORER_MEMORY_MB"
#: Measured peaks (Mesa llvmpipe, 4x MSAA): VTK and the libraries, then bytes per pixel of
#: a picture, of the parabola beside it, and per pixel of each animation frame kept.
_BASE_BYTES = 400 << 20
_BYTES_PER_PIXEL = {"png": 64, "plot": 180, "gif": 11, "mp4": 3}


class RenderUnavailable(OSError):
    """Nothing can be drawn off-screen here; the message says why and what to install (one line)."""


def memory_budget() -> int:
    """Bytes one output may use: ``$SPHERE_EXPLORER_MEMORY_MB`` MiB, or :data:`MEMORY_BUDGET` (4 GiB)."""
    text = os.environ.get(MEMORY_VARIABLE, "")
    try:
        value = int(text)
    except ValueError:
        return MEMORY_BUDGET
    return value << 20 if value > 0 else MEMORY_BUDGET


def memory_needed(size: tuple[int, int], frames: int = 0, kind: str = "png", plot: bool = False) -> int:
    """Estimated peak bytes for a picture of ``size`` pixels (with the parabola), or ``frames`` of an animation."""
    pixels = size[0] * size[1]
    need = _BASE_BYTES + _BYTES_PER_PIXEL["png"] * pixels
    if plot:
        need += _BYTES_PER_PIXEL["plot"] * pixels
    if frames:
        need += _BYTES_PER_PIXEL[kind] * pixels * frames
    return need


def check_memory(size: tuple[int, int], frames: int = 0, kind: str = "png", plot: bool = False) -> None:
    """Raise ValueError (one line) when the output would need more than :func:`memory_budget`."""
    need, budget = memory_needed(size, frames, kind, plot), memory_budget()
    if need > budget:
        what = f"{frames} frames of {size[0]}x{size[1]}" if frames else f"{size[0]}x{size[1]}"
        what += " with the plot" if plot else ""
        raise ValueError(
            f"{what} needs about {need / 2**30:.1f} GiB, more than the memory budget of {budget / 2**30:.1f} GiB "
            f"(make it smaller, or set {MEMORY_VARIABLE})"
        )


_offscreen: list[tuple[str | None, bool]] = []  # (problem, draws through X), checked once per process


def check_offscreen() -> None:
    """Choose how VTK draws without a window here, and check that it can; before VTK is loaded.

    The X display when ``$DISPLAY`` answers (and libGL is there); otherwise EGL
    (``VTK_DEFAULT_OPENGL_WINDOW=vtkEGLRenderWindow``), probed in a separate
    process.  Skipped when VTK already draws in this process (the window) or the
    user chose the window class.

    Raises
    ------
    RenderUnavailable
        One line: why nothing can be drawn and the command that installs what is missing.
    """
    if "vtkmodules.vtkRenderingOpenGL2" in sys.modules or os.environ.get("VTK_DEFAULT_OPENGL_WINDOW"):
        return
    if not _offscreen:
        _offscreen.append(_offscreen_problem())
    problem, through_x = _offscreen[0]
    if problem is not None:
        raise RenderUnavailable(problem)
    if not through_x:
        os.environ["VTK_DEFAULT_OPENGL_WINDOW"] = "vtkEGLRenderWindow"


def _offscreen_problem() -> tuple[str | None, bool]:
    if not sys.platform.startswith("linux"):
        return None, True
    if os.environ.get("DISPLAY") and system.x_display_problem() is None:
        gone = system.missing(("libgl1",))
        return (system.missing_message(gone, "drawing on the X display") if gone else None), True
    problem = system.egl_problem()
    if problem is None:
        return None, False
    gone = list(system.missing(system.GL)) or list(system.GL)
    return f"cannot draw without a display: {problem}; install Mesa's EGL with: {system.install_command(gone)}", False


def draw_offscreen(
    scene: Scene,
    size: tuple[int, int] = (1280, 800),
    t: float = 0.0,
    camera: dict | None = None,
    frame: float | str = 0.0,
    solution: Solution | None = None,
    focus: Focus | None = None,
    ask: bool = False,
):
    """An off-screen plotter with ``scene`` drawn at time ``t`` (the caller closes it); ``ask``: as question
    mode draws it (:mod:`explorer.model.actions.asking`: the bodies, their velocities, the question; framed without
    the answer).

    ``frame`` is 0 for the world frame, 1 for B's rest frame, ``"com"`` for the free bodies' centre of mass (see
    :meth:`explorer.view.scene_view.SceneView.update`).  ``solution``: the
    scene's, when the caller has it already (default: solved here).  ``focus``:
    the pair the inspector describes (:func:`inspected`).

    Returns
    -------
    plotter : pyvista.Plotter
    solution : explorer.model.derived.analysis.Solution
    view : explorer.view.scene_view.SceneView
    """
    check_offscreen()
    import pyvista as pv

    from .bounds import event_bounds
    from .camera import apply_camera
    from .scene_view import SceneView

    interrupt.check()  # a signal during the imports: stopped before VTK draws anything
    plotter = pv.Plotter(off_screen=True, window_size=list(size))
    plotter.enable_anti_aliasing("msaa", multi_samples=EXPORT_SAMPLES)
    view = SceneView(plotter)
    solution = solve(scene) if solution is None else solution
    com = 1.0 if frame == "com" else 0.0
    reference = 0.0 if com else frame
    view.update(scene, solution, t, reference, scene.layers, scene.steps, focus, com, "asking" if ask else "shown")
    box = None if focus is None or focus.event is None else event_bounds(scene, solution, focus.event)  # a close-up
    if ask:
        box = view.placement.bounds
    apply_camera(plotter, view_settings(scene.view)["camera"] if camera is None else check_camera(camera, ("camera",)),
                 scene, solution, reference, box)  # fmt: skip
    return plotter, solution, view


def render_png(
    scene: Scene,
    out: str | os.PathLike[str],
    size: tuple[int, int] = (1280, 800),
    t: float = 0.0,
    scale: int = 1,
    transparent: bool = False,
    camera: dict | None = None,
    frame: float | str = 0.0,
    with_plot: bool = False,
    solution: Solution | None = None,
    event: int | None = None,
    pair: tuple[int, int] | None = None,
    ask: bool = False,
) -> Path:
    """Draw ``scene`` at time ``t`` and write a PNG.

    Parameters
    ----------
    scene : Scene
    out : path
        Where to write the PNG (written to a temporary name, then renamed).
    size : (int, int)
        Width and height in pixels before ``scale``.
    t : float
        Time at which the spheres are drawn.
    scale : int
        Resolution multiplier (1 to 4); the picture is ``size * scale`` pixels.
    transparent : bool
        Transparent background.
    camera : dict, optional
        ``{"position", "focal_point", "up"}``; default: the scene's saved camera
        or a view that frames the motion.
    frame : float or "com"
        0 world frame, 1 B's rest frame, ``"com"`` the frame of the free bodies' centre of mass.
    with_plot : bool
        Put the parabola f(t) beside the view (matplotlib).
    solution : Solution, optional
        The scene's, when the caller has it already (default: solved here).
    event : int, optional
        Inspect this event of the motion (0 the first): drawn at its time, with the inspector's marks, and
        its pair's parabola over its segment (``with_plot``); ``t`` is not used.
    pair : (int, int), optional
        Describe these two bodies (scene indices) instead of A and its partner.
    ask : bool
        The picture question mode shows: the bodies at t = 0, their velocities and the question, nothing of
        the answer (``t``, ``event``, ``pair`` and ``with_plot`` are then refused by the command line).

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    ValueError
        Over the memory budget (:func:`check_memory`), before drawing.
    SceneError
        No such event, or not two different bodies (a ValueError), before drawing.
    RenderUnavailable
        Nothing can be drawn here (:func:`check_offscreen`).
    SceneError
        ``out`` cannot be written (a ValueError); no file is left behind.
    """
    out = Path(out)
    check_memory((size[0] * scale, size[1] * scale), plot=with_plot)
    solution = solve(scene) if solution is None else solution
    t, focus = inspected(solution, t, event, pair)
    plotter, solution, _ = draw_offscreen(scene, size, t, camera, frame, solution, focus, ask)
    try:
        interrupt.check()  # the safe points of a picture: here, before the plot is drawn, before the file is renamed
        if with_plot:
            from ..model.words.parabola import parabola
            from .plot_image import compose_png

            image = plotter.screenshot(transparent_background=False, scale=scale, return_img=True)
            interrupt.check()
            with replacing(out, binary=True) as (_, tmp):
                compose_png(image, parabola(solution, t, focus), str(tmp), inside=focus.sweep.inside)
        else:
            import imageio.v3 as iio

            image = plotter.screenshot(transparent_background=transparent, scale=scale, return_img=True)
            with replacing(out, binary=True) as (handle, _):
                iio.imwrite(handle, image, extension=".png")
    finally:
        plotter.close()
    return out


def inspected(
    solution: Solution, t: float, event: int | None = None, pair: tuple[int, int] | None = None
) -> tuple[float, Focus]:
    """The time to draw at and the inspector's focus for ``event`` or ``pair`` (as the window's inspector gives them).

    Raises
    ------
    SceneError
        No such event, or not two different bodies.
    """
    inspection = Inspection()
    inspection.choose(solution, event, pair)
    if event is not None:
        t = solution.events[event].time
    return t, inspection.focus(solution, t)
