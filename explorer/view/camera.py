"""The camera: what a picture frames, the default view, saved cameras, projection to pixels.

Qt-free; used by the window's 3-D view and by headless pictures alike.
"""

from __future__ import annotations

import numpy as np
import pyvista as pv

from ..model.analysis import Solution
from ..model.scene import Scene

#: Motion longer than this many radii gets a close-up default camera.
FOCUS_RATIO = 60.0
#: The default camera's zoom beyond VTK's fit of the bounding sphere, for views at least
#: :data:`WIDE_ASPECT` wide (width / height); narrower views zoom less, so wide scenes stay whole.
DEFAULT_ZOOM = 1.35
WIDE_ASPECT = 1.6


def scene_bounds(scene: Scene, solution: Solution | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Axis-aligned box around every body over [0, horizon] (capsules included).

    With a solution, the ghosts at roots within 5 horizons are included too;
    in ``all`` mode, where bodies turn at their events, the box holds the
    motion itself (every body at every event) rather than straight flights.

    Returns
    -------
    lo, hi : (3,) float
    """
    if solution is not None and scene.mode == "all":
        radii = np.array([b.radius for b in scene.bodies])[:, None]
        centres = solution.corners  # (events + 1, bodies, 3)
        return np.min(centres - radii, axis=(0, 1)), np.max(centres + radii, axis=(0, 1))
    lows, highs = [], []
    times = [0.0, scene.horizon]
    if solution is not None and solution.sweep.roots is not None:
        times += [r for r in solution.sweep.roots if abs(r) <= 5 * scene.horizon]
    for body in scene.bodies:
        for t in times:
            c = np.asarray(body.position(t))
            lows.append(c - body.radius)
            highs.append(c + body.radius)
    return np.min(lows, axis=0), np.max(highs, axis=0)


def view_bounds(scene: Scene, solution: Solution, reference: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """What the default camera frames: everything, or around the event for long shots.

    In B's rest frame (``reference >= 0.5``): the expanded sphere and A's centre
    along its ray over [0, h] and the nearby roots.  When the motion spans more
    than :data:`FOCUS_RATIO` times the smaller radius, a full view would show
    the spheres as dots; the camera then frames a box of a few radius sums
    around the contact point, the closest approach or the other body.
    """
    lo, hi = scene_bounds(scene, solution)
    if reference >= 0.5:
        s = solution.sweep
        a, b = scene.bodies[0], scene.bodies[solution.other]
        rel = np.subtract(a.velocity, b.velocity)
        times = [0.0, scene.horizon] + [r for r in (s.roots or ()) if abs(r) <= 5 * scene.horizon]
        points = [np.add(a.center, rel * t) for t in times]
        centre = np.asarray(b.center, dtype=float)
        lo = np.minimum(np.min(points, axis=0), centre - s.radius)
        hi = np.maximum(np.max(points, axis=0), centre + s.radius)
    s = solution.sweep
    small = min(b.radius for b in scene.bodies[:2])
    if float(np.max(hi - lo)) <= FOCUS_RATIO * small:
        return lo, hi
    if s.contact is not None:
        focus = np.asarray(s.contact.point)
    else:
        pa, pb = s.positions(s.closest.time)
        focus = (np.asarray(pa) + np.asarray(pb)) / 2
    half = 4.0 * s.radius
    return focus - half, focus + half


#: A close-up of an event frames this many radius sums of its pair around the contact point.
EVENT_SPAN = 4.0


def event_bounds(scene: Scene, solution: Solution, k: int) -> tuple[np.ndarray, np.ndarray]:
    """A box around event ``k``'s contact point, :data:`EVENT_SPAN` radius sums of its pair across each way."""
    event = solution.events[k]
    radii = [scene.bodies[i].radius for i in event.pair if i != scene.container]
    half = EVENT_SPAN * 2.0 * max(radii) if len(radii) == 1 else EVENT_SPAN * sum(radii)
    point = np.asarray(event.point, dtype=float)
    return point - half, point + half


def default_camera(plotter: pv.Plotter, scene: Scene, solution: Solution, reference: float = 0.0,
                   box: tuple[np.ndarray, np.ndarray] | None = None) -> None:  # fmt: skip
    """Frame the motion (see :func:`view_bounds`), or ``box``, looking down at it from a tilt."""
    lo, hi = view_bounds(scene, solution, reference) if box is None else box
    centre = (lo + hi) / 2
    radius = float(np.linalg.norm(hi - lo)) / 2 or 1.0
    direction = np.array([0.1, -0.75, 1.0])
    direction /= np.linalg.norm(direction)
    plotter.camera.focal_point = tuple(centre)
    plotter.camera.position = tuple(centre + direction * radius * 3.0)
    plotter.camera.up = (0.0, 0.0, 1.0) if abs(direction[2]) < 0.99 else (0.0, 1.0, 0.0)
    plotter.camera.view_angle = 30.0
    plotter.renderer.ResetCamera(*np.ravel(np.column_stack([lo, hi])))
    width, height = plotter.window_size
    aspect = width / height if height > 0 else WIDE_ASPECT
    plotter.camera.zoom(DEFAULT_ZOOM * min(1.0, aspect / WIDE_ASPECT))
    plotter.reset_camera_clipping_range()


def apply_camera(plotter: pv.Plotter, camera: dict | None, scene: Scene, solution: Solution, reference: float = 0.0,
                 box: tuple[np.ndarray, np.ndarray] | None = None) -> None:  # fmt: skip
    """Look through ``camera`` (one :func:`explorer.model.scene.check_camera` accepted), or frame the
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
