"""Headless pictures: the same drawing code as the window, into a PNG.

Qt-free.  With no X display, VTK renders through EGL (Mesa's llvmpipe on
machines without a GPU).
"""

from __future__ import annotations

import os
from pathlib import Path

from ..model.analysis import solve
from ..model.scene import Scene

#: Multisampling for finished pictures (drafts while dragging use none).
EXPORT_SAMPLES = 4


def _prefer_egl_without_display() -> None:
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")


def draw_offscreen(
    scene: Scene, size: tuple[int, int] = (1280, 800), t: float = 0.0, camera: dict | None = None, frame: float = 0.0
):
    """An off-screen plotter with ``scene`` drawn at time ``t`` (the caller closes it).

    ``frame`` is 0 for the world frame, 1 for B's rest frame (see
    :meth:`explorer.view.scene_view.SceneView.update`).

    Returns
    -------
    plotter : pyvista.Plotter
    solution : explorer.analysis.Solution
    view : explorer.drawing.SceneView
    """
    _prefer_egl_without_display()
    import pyvista as pv

    from .camera import apply_camera
    from .scene_view import SceneView

    plotter = pv.Plotter(off_screen=True, window_size=list(size))
    plotter.enable_anti_aliasing("msaa", multi_samples=EXPORT_SAMPLES)
    view = SceneView(plotter)
    solution = solve(scene)
    view.update(scene, solution, t, frame, scene.layers)
    apply_camera(plotter, scene.view.get("camera") if camera is None else camera, scene, solution, frame)
    return plotter, solution, view


def render_png(
    scene: Scene,
    out: str | os.PathLike[str],
    size: tuple[int, int] = (1280, 800),
    t: float = 0.0,
    scale: int = 1,
    transparent: bool = False,
    camera: dict | None = None,
    frame: float = 0.0,
    with_plot: bool = False,
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
    frame : float
        0 world frame, 1 B's rest frame.
    with_plot : bool
        Put the parabola f(t) beside the view (matplotlib).

    Returns
    -------
    Path
        The file written.
    """
    out = Path(out)
    plotter, solution, _ = draw_offscreen(scene, size, t, camera, frame)
    tmp = out.with_name(f".{out.name}.tmp.png")
    try:
        if with_plot:
            from ..model.parabola import parabola
            from .plot_image import compose_png

            image = plotter.screenshot(transparent_background=False, scale=scale, return_img=True)
            compose_png(image, parabola(solution, t), tmp, inside=scene.mode == "inside")
        else:
            plotter.screenshot(str(tmp), transparent_background=transparent, scale=scale)
        os.replace(tmp, out)
    finally:
        plotter.close()
    return out
