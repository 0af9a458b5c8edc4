"""What a picture frames, and from where: boxes around the motion, the event or the contact, in plain Python.

Used by the placement (:mod:`.placement`), the window's and the headless camera
(:mod:`.camera`) and the web page's camera, which all frame the same box.
numpy-, VTK- and Qt-free (it runs in a browser's Python).
"""

from __future__ import annotations

import math

from solver import vec

from ..model.derived.analysis import Solution
from ..model.state.scene import Scene

Box = tuple[tuple[float, float, float], tuple[float, float, float]]

#: Motion longer than this many radii gets a close-up default camera.
FOCUS_RATIO = 60.0
#: The default camera: from this direction (towards the camera, from the framed box's centre; it looks down
#: at a tilt) at this view angle (degrees), zoomed this much beyond the fit of the box's bounding sphere for
#: views at least WIDE_ASPECT wide (width / height); narrower views zoom less, so wide scenes stay whole.
VIEW_DIRECTION = (0.1, -0.75, 1.0)
VIEW_ANGLE = 30.0
DEFAULT_ZOOM = 1.35
WIDE_ASPECT = 1.6
#: Near clipping plane as a fraction of the far one (VTK's default is 1e-3, vtk.js's 1e-2): a close-up of a 0.05
#: sphere beside a path 1e6 long must not fall in front of the near plane derived from all the bounds.
NEAR_CLIP_TOLERANCE = 1e-7
#: A close-up of an event frames this many radius sums of its pair around the contact point.
EVENT_SPAN = 4.0
#: What *Frame all* (:func:`whole_bounds`) does, in its tooltip in the window, the live page and the recorded page.
FRAME_ALL_TIP = "Every body over the whole motion (a long shot's camera frames only the contact)"


def box_around(points, pad: float | list[float] = 0.0) -> Box:
    """The smallest box holding every one of ``points`` ((k, 3)), each grown by ``pad`` (one, or one per point)."""
    pads = pad if isinstance(pad, list) else [pad] * len(points)
    lo = tuple(min(p[k] - r for p, r in zip(points, pads)) for k in range(3))
    hi = tuple(max(p[k] + r for p, r in zip(points, pads)) for k in range(3))
    return lo, hi  # type: ignore[return-value]


def around(point, half: float) -> Box:
    """The cube of half-side ``half`` around ``point`` (3,)."""
    return vec.sub(point, (half, half, half)), vec.add(point, (half, half, half))


def scene_bounds(scene: Scene, solution: Solution | None = None) -> Box:
    """Axis-aligned box around every body over [0, horizon] (capsules included).

    With a solution, the ghosts at roots within 5 horizons are included too;
    in ``all`` mode, where bodies turn at their events, the box holds the
    motion itself (every body at every event) rather than straight flights.

    Returns
    -------
    lo, hi : (3,) float
    """
    if solution is not None and scene.mode == "all" and scene is solution.scene:
        return solution.reach  # the same box, computed once
    if solution is not None and scene.mode == "all":
        radii = [b.radius for b in scene.bodies]
        corners = solution.corners  # (events + 1, bodies, 3)
        return box_around([c for row in corners for c in row], [r for _ in corners for r in radii])
    times = [0.0, scene.horizon]
    if solution is not None and solution.sweep.roots is not None:
        times += [r for r in solution.sweep.roots if abs(r) <= 5 * scene.horizon]
    points = [body.position(t) for body in scene.bodies for t in times]
    return box_around(points, [body.radius for body in scene.bodies for _ in times])


def whole_bounds(scene: Scene, solution: Solution, reference: float = 0.0, ask: bool = False) -> Box:
    """Everything the picture holds (*Frame all*): :func:`scene_bounds`, or in B's rest frame
    (``reference >= 0.5``) the expanded sphere and A's centre along its ray over [0, h] and the nearby roots;
    while a scene asks its question (``ask``), the bodies' flights as if nothing turned them (nothing the solver
    decided)."""
    if ask:
        return scene_bounds(scene)
    if reference < 0.5:
        return scene_bounds(scene, solution)
    s = solution.sweep
    a, b = scene.bodies[0], scene.bodies[solution.other]
    rel = vec.sub(a.velocity, b.velocity)
    times = [0.0, scene.horizon] + [r for r in (s.roots or ()) if abs(r) <= 5 * scene.horizon]
    ray_lo, ray_hi = box_around([vec.add(a.center, vec.scale(rel, t)) for t in times])
    ball_lo, ball_hi = around(b.center, s.radius)
    return tuple(map(min, ray_lo, ball_lo)), tuple(map(max, ray_hi, ball_hi))  # type: ignore[return-value]


def view_bounds(scene: Scene, solution: Solution, reference: float = 0.0) -> Box:
    """What the default camera frames: everything, or around the event for long shots.

    Everything is :func:`whole_bounds`.  When it spans more
    than :data:`FOCUS_RATIO` times the smaller radius, a full view would show
    the spheres as dots; the camera then frames a box of a few radius sums
    around the contact point, the closest approach or the other body.
    """
    lo, hi = whole_bounds(scene, solution, reference)
    s = solution.sweep
    small = min(b.radius for b in scene.bodies[:2])
    if max(y - x for x, y in zip(lo, hi)) <= FOCUS_RATIO * small:
        return lo, hi  # type: ignore[return-value]
    if s.contact is not None:
        focus = s.contact.point
    else:
        pa, pb = s.positions(s.closest.time)
        focus = vec.scale(vec.add(pa, pb), 0.5)
    return around(focus, 4.0 * s.radius)


def ask_bounds(scene: Scene) -> Box:
    """What the default camera frames while a scene asks its question: the bodies over [0, horizon] as if
    nothing turned them, or, when that spans more than :data:`FOCUS_RATIO` smaller radii, a box of a few radius
    sums around the second body (never around a contact: that would give the answer away)."""
    lo, hi = scene_bounds(scene)
    a, b = scene.bodies[0], scene.bodies[1]
    if max(y - x for x, y in zip(lo, hi)) <= FOCUS_RATIO * min(a.radius, b.radius):
        return lo, hi
    return around(b.center, 4.0 * (a.radius + b.radius))


def event_bounds(scene: Scene, solution: Solution, k: int) -> Box:
    """A box around event ``k``'s contact point, :data:`EVENT_SPAN` radius sums of its pair across each way."""
    event = solution.events[k]
    radii = [scene.bodies[i].radius for i in event.pair if i != scene.container]
    half = EVENT_SPAN * 2.0 * max(radii) if len(radii) == 1 else EVENT_SPAN * sum(radii)
    return around(event.point, half)


def diagonal(box: Box) -> float:
    """The length of ``box``'s diagonal."""
    d = vec.sub(box[1], box[0])
    return math.sqrt(vec.dot(d, d))


def framed_box(scene: Scene, solution: Solution, rest_frame: bool, asking: bool) -> Box:
    """The box the default camera frames: while asking, one made without the answer (:func:`ask_bounds`); else the
    motion, in the world or in B's rest frame (:func:`view_bounds`).  The window's and the page's."""
    return ask_bounds(scene) if asking else view_bounds(scene, solution, 1.0 if rest_frame else 0.0)


def default_pose(box: Box, aspect: float) -> dict:
    """The default camera for ``box`` in a view ``aspect`` wide (width / height): the one rule of the window, the
    pictures and the page.

    It looks at the box's centre from :data:`VIEW_DIRECTION` (up: +z, or +y looking straight down), as far as fits
    the box's bounding sphere at :data:`VIEW_ANGLE` (in a view narrower than tall, across its width: VTK's own
    rule for fitting a box), and narrows its view angle by :data:`DEFAULT_ZOOM` (less in views narrower than
    :data:`WIDE_ASPECT`, so wide scenes stay whole).

    Returns
    -------
    dict
        ``position``, ``focal_point``, ``up`` (each (3,) float) and ``view_angle`` (degrees).
    """
    lo, hi = box
    centre = tuple((a + b) / 2.0 for a, b in zip(lo, hi))
    radius = 0.5 * math.sqrt(sum((b - a) ** 2 for a, b in zip(lo, hi))) or 1.0
    length = math.sqrt(sum(c * c for c in VIEW_DIRECTION))
    direction = tuple(c / length for c in VIEW_DIRECTION)
    angle = math.radians(VIEW_ANGLE)
    if 0.0 < aspect < 1.0:  # a tall view: the sphere must fit across its width
        angle = 2.0 * math.atan(math.tan(angle / 2.0) * aspect)
    distance = radius / math.sin(angle / 2.0)
    zoom = DEFAULT_ZOOM * min(1.0, (aspect if aspect > 0.0 else WIDE_ASPECT) / WIDE_ASPECT)
    return {
        "position": tuple(c + d * distance for c, d in zip(centre, direction)),
        "focal_point": centre,
        "up": (0.0, 0.0, 1.0) if abs(direction[2]) < 0.99 else (0.0, 1.0, 0.0),
        "view_angle": VIEW_ANGLE / zoom,
    }
