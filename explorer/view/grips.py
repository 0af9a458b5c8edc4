"""What can be dragged in the 3-D view, and where a drag takes it: the rule, in plain Python.

The window (:mod:`.picking`, on the VTK interactor) and the web page (its script
sends the pointer's ray to Python) both use it, so a drag moves a sphere the
same way in both: a press picks the arrow tip or sphere under the pointer's
ray (tips first, so a tip inside a sphere wins), and each move puts the grip
where the ray meets the plane through the grabbed point whose normal is the
coordinate axis closest to the view direction (looking down: the horizontal
plane), keeping the offset between the pointer and the grip's centre.
numpy-, VTK- and Qt-free.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from solver import ray_sphere, vec

from ..model.state.scene import Scene
from .placement import Placement

Vector = tuple[float, float, float]

#: A sphere or an arrow tip is caught within this many pixels, however small it is drawn (see :func:`pick`).
GRIP_PIXELS = 8


@dataclass(frozen=True)
class Grip:
    """Something that can be dragged.

    Attributes
    ----------
    body : int
    kind : {"center", "tip"}
        The sphere itself, or its velocity arrow's tip (the centre at t = horizon,
        without bounces).
    position : (3,) float
        Where it is now.
    radius : float
        Its pick radius.
    see_through : bool
        Drawn see-through around others (a container; B grown into the expanded sphere in its rest frame): it is
        picked only where the pointer meets nothing else, so a ball inside it can be grabbed.
    """

    body: int
    kind: str
    position: Vector
    radius: float
    see_through: bool = False


def grips(scene: Scene, placement: Placement) -> list[Grip]:
    """What can be dragged where it is drawn: every sphere, and the arrow tip of every moving one.

    Tips have a pick radius of 0.3 of the smaller of A and B, so a small ball's
    tip stays easy to catch; spheres at least that.
    """
    small = min(b.radius for b in scene.bodies[:2])
    out = []
    for i, body in enumerate(scene.bodies):
        if any(vec.sub(body.velocity, placement.shift)):
            out.append(Grip(i, "tip", tuple(placement.tips[i]), 0.3 * small))
        see_through = i == scene.container or (
            placement.reference > 0.0 and placement.radii[i] > scene.bodies[i].radius
        )
        radius = max(float(placement.radii[i]), 0.3 * small)
        out.append(Grip(i, "center", tuple(placement.centers[i]), radius, see_through))
    return out


def pick(candidates: list[Grip], origin: Vector, direction: Vector, slack: float = 0.0) -> tuple[Grip, Vector] | None:
    """The grip the ray ``origin + s direction`` (unit ``direction``) meets first, tips before spheres, and
    see-through spheres last; and the point it meets it at; None when it meets none.

    ``slack``: an angle (radians) every grip spans at least, seen from ``origin`` (a few pixels of the view), so a
    sphere or tip drawn smaller than that (a bullet seen from afar) is still caught.
    """
    for kind, see_through in (("tip", False), ("center", False), ("center", True)):
        best = None
        for grip in candidates:
            if grip.kind != kind or grip.see_through != see_through:
                continue
            away = vec.sub(grip.position, origin)
            radius = max(grip.radius, slack * math.sqrt(vec.dot(away, away)))
            hit = ray_sphere(origin, direction, grip.position, radius)
            if hit is not None and hit.hit and (best is None or hit.first < best[0]):
                best = (hit.first, grip)
        if best is not None:
            return best[1], vec.axpy(best[0], direction, origin)
    return None


def drag_plane_normal(view_direction) -> Vector:
    """Normal of the plane a drag moves in: the coordinate axis closest to the view direction.

    Looking down on a scene drags in the horizontal plane (z stays put); turn
    the view to look along x or y to drag in z.
    """
    d = [abs(float(x)) for x in view_direction]
    axis = d.index(max(d))
    return tuple(1.0 if k == axis else 0.0 for k in range(3))  # type: ignore[return-value]


class PlaneDrag:
    """A grip being dragged in the plane through it facing the camera (see the module notes).

    Parameters
    ----------
    position : (3,) float
        Where the grip is when grabbed.
    view_direction : (3,) float
        The camera's direction of view.
    origin, direction : (3,) float
        The pointer's ray when grabbing (the offset from the grip to where it meets the plane is kept).
    """

    def __init__(self, position, view_direction, origin, direction) -> None:
        self.point = tuple(map(float, position))
        self.normal = drag_plane_normal(view_direction)
        hit = self._hit(origin, direction)
        self.offset = vec.sub(hit, self.point) if hit is not None else (0.0, 0.0, 0.0)

    def _hit(self, origin, direction) -> Vector | None:
        denom = vec.dot(direction, self.normal)
        if abs(denom) < 1e-12:
            return None
        s = vec.dot(vec.sub(self.point, origin), self.normal) / denom
        hit = list(vec.axpy(s, direction, origin))
        axis = self.normal.index(1.0)
        hit[axis] = self.point[axis]  # exactly in the plane: no 1e-15 creeping into that coordinate
        return tuple(hit)  # type: ignore[return-value]

    def moved(self, origin, direction) -> Vector | None:
        """Where the grip goes for the pointer's ray ``origin``, ``direction``; None when the ray runs along
        the plane or the point is not finite."""
        hit = self._hit(origin, direction)
        if hit is None or not all(math.isfinite(x) for x in hit):
            return None
        return vec.sub(hit, self.offset)


#: An arrow key moves a sphere or an arrow tip by this many of the picture's markers (:attr:`.Placement.marker`: the
#: smaller radius of A and B, capped), and by :data:`KEY_FINE` of that with the fine modifier.
KEY_MARKERS = 1.0
KEY_FINE = 0.1


#: The step's multiplier stays within these (``+`` doubles it, ``-`` halves it).
KEY_SCALES = (1 / 64, 64.0)


def key_step(marker: float, scale: float, fine: bool = False) -> float:
    """How far an arrow key moves a grip, in the scene's units: :data:`KEY_MARKERS` of the placement's ``marker``,
    times the step's multiplier ``scale``, and :data:`KEY_FINE` of that when ``fine``."""
    return marker * KEY_MARKERS * scale * (KEY_FINE if fine else 1.0)


def key_scaled(scale: float, smaller: bool) -> float:
    """The step's multiplier after ``-`` (``smaller``: halved) or ``+`` (doubled), kept within :data:`KEY_SCALES`."""
    lo, hi = KEY_SCALES
    return min(max(scale * (0.5 if smaller else 2.0), lo), hi)


def key_target(start, sight, up, across: int, upward: int, step: float) -> Vector:
    """Where an arrow key moves a grip drawn at ``start``, seen along ``sight`` with the screen's ``up`` (each (3,)):
    one ``step`` along :func:`key_move`'s axis."""
    sx, sy, sz = (float(c) for c in sight)
    ux, uy, uz = (float(c) for c in up)
    right = (sy * uz - sz * uy, sz * ux - sx * uz, sx * uy - sy * ux)
    move = key_move(sight, right, up, across, upward)
    return tuple(float(a) + m * step for a, m in zip(start, move))  # type: ignore[return-value]


def key_move(view_direction, right, up, across: int, upward: int) -> Vector:
    """Where an arrow key moves a grip, as a vector of coordinate axes in the drag plane (see
    :func:`drag_plane_normal`): ``across`` (+1 the right arrow, −1 the left) along the plane's axis closest to the
    screen's ``right``, ``upward`` (+1 up, −1 down) along its other axis, signed as the screen's ``up`` (each (3,)).

    A key moves along one coordinate at a time, as a drag in that plane does, so typed coordinates stay clean.
    """
    normal = drag_plane_normal(view_direction)
    axes = [k for k in range(3) if normal[k] == 0.0]
    along = max(axes, key=lambda k: abs(float(right[k])))
    other = axes[0] if along == axes[1] else axes[1]
    move = [0.0, 0.0, 0.0]
    move[along] += across * (1.0 if float(right[along]) >= 0.0 else -1.0)
    move[other] += upward * (1.0 if float(up[other]) >= 0.0 else -1.0)
    return tuple(move)  # type: ignore[return-value]
