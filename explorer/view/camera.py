"""The camera: what a picture frames, the default view, saved cameras, projection to pixels.

Qt-free; used by the window's 3-D view and by headless pictures alike.
"""

from __future__ import annotations

import pyvista as pv

from ..model.derived.analysis import Solution
from ..model.state.scene import Scene
from .bounds import WIDE_ASPECT, default_pose, view_bounds


def default_camera(plotter: pv.Plotter, scene: Scene, solution: Solution, reference: float = 0.0,
                   box=None) -> None:  # fmt: skip
    """Frame the motion (see :func:`view_bounds`), or ``box``, looking down at it from a tilt
    (:func:`.bounds.default_pose`, the page's rule too)."""
    width, height = plotter.window_size
    pose = default_pose(view_bounds(scene, solution, reference) if box is None else box,
                        width / height if height > 0 else WIDE_ASPECT)  # fmt: skip
    camera = plotter.camera
    camera.focal_point = pose["focal_point"]
    camera.position = pose["position"]
    camera.up = pose["up"]
    camera.view_angle = pose["view_angle"]
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
