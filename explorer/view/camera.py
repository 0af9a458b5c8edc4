"""The camera: what a picture frames, the default view, saved cameras, projection to pixels.

Qt-free; used by the window's 3-D view and by headless pictures alike.
"""

from __future__ import annotations

import numpy as np
import pyvista as pv

from ..model.derived.analysis import Solution
from ..model.state.scene import Scene
from .bounds import DEFAULT_ZOOM, VIEW_ANGLE, VIEW_DIRECTION, WIDE_ASPECT, view_bounds


def default_camera(plotter: pv.Plotter, scene: Scene, solution: Solution, reference: float = 0.0,
                   box=None) -> None:  # fmt: skip
    """Frame the motion (see :func:`view_bounds`), or ``box``, looking down at it from a tilt."""
    lo, hi = (np.asarray(x, dtype=float) for x in (view_bounds(scene, solution, reference) if box is None else box))
    centre = (lo + hi) / 2
    radius = float(np.linalg.norm(hi - lo)) / 2 or 1.0
    direction = np.array(VIEW_DIRECTION)
    direction /= np.linalg.norm(direction)
    plotter.camera.focal_point = tuple(centre)
    plotter.camera.position = tuple(centre + direction * radius * 3.0)
    plotter.camera.up = (0.0, 0.0, 1.0) if abs(direction[2]) < 0.99 else (0.0, 1.0, 0.0)
    plotter.camera.view_angle = VIEW_ANGLE
    plotter.renderer.ResetCamera(*np.ravel(np.column_stack([lo, hi])))
    width, height = plotter.window_size
    aspect = width / height if height > 0 else WIDE_ASPECT
    plotter.camera.zoom(DEFAULT_ZOOM * min(1.0, aspect / WIDE_ASPECT))
    plotter.reset_camera_clipping_range()


def apply_camera(plotter: pv.Plotter, camera: dict | None, scene: Scene, solution: Solution, reference: float = 0.0,
                 box=None) -> None:  # fmt: skip
    """Look through ``camera`` (one :func:`explorer.model.state.scene.check_camera` accepted), or frame the
    scene, or ``box``, (:func:`default_camera`) without one."""
    if camera is None:
        default_camera(plotter, scene, solution, reference, box)
        return
    plotter.camera.position = tuple(camera["position"])
    plotter.camera.focal_point = tuple(camera["focal_point"])
    plotter.camera.up = tuple(camera["up"])
    plotter.reset_camera_clipping_range()


def camera_state(plotter: pv.Plotter) -> dict:
    """The camera as JSON-ready lists, for saving in a scene's ``view``."""
    cam = plotter.camera
    return {"position": list(cam.position), "focal_point": list(cam.focal_point), "up": list(cam.up)}


def project(plotter: pv.Plotter, point) -> tuple[float, float]:
    """Pixel ``(column, row)`` of a world point in the plotter's image (row 0 at the top)."""
    renderer = plotter.renderer
    renderer.SetWorldPoint(*(float(x) for x in point), 1.0)
    renderer.WorldToDisplay()
    x, y, _ = renderer.GetDisplayPoint()
    return x, plotter.window_size[1] - y
