"""Mouse drags in the 3-D view: sphere centres and velocity-arrow tips.

Works on the VTK interactor of any PyVista plotter (no Qt here): a left press
over a sphere or an arrow tip starts a drag and swallows the event so the
camera does not rotate; each mouse move projects the pointer onto the plane
through the grabbed point facing the camera and reports the new position.
Picking is analytic — the pointer's ray against the drawn spheres — so it costs
no render.

Gestures: drag a sphere to move it; drag an arrow tip to change the velocity;
Shift+drag a sphere to change its velocity from where it is (a resting sphere
grows an arrow from its centre); Ctrl+click a sphere (or its arrow tip) to
pick it without dragging (the window describes it with the selected body).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from solver import ray_sphere

from ..model.scene import Scene
from .placement import Placement

#: Priority above the interactor style's observers, so a drag can swallow events.
OBSERVER_PRIORITY = 10.0


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
    """

    body: int
    kind: str
    position: tuple[float, float, float]
    radius: float


def grips(scene: Scene, placement: Placement) -> list[Grip]:
    """What can be dragged where it is drawn: every sphere, and the arrow tip of every moving one.

    Tips have a pick radius of 0.3 of the smaller of A and B, so a small ball's
    tip stays easy to catch; spheres at least that.
    """
    small = min(b.radius for b in scene.bodies[:2])
    out = []
    for i, body in enumerate(scene.bodies):
        if np.any(np.subtract(body.velocity, placement.shift)):
            out.append(Grip(i, "tip", tuple(placement.tips[i]), 0.3 * small))
        out.append(Grip(i, "center", tuple(placement.centers[i]), max(float(placement.radii[i]), 0.3 * small)))
    return out


def drag_plane_normal(view_direction) -> np.ndarray:
    """Normal of the plane a drag moves in: the coordinate axis closest to the view direction.

    Looking down on a scene drags in the horizontal plane (z stays put); turn
    the view to look along x or y to drag in z.
    """
    d = np.abs(np.asarray(view_direction, dtype=float))
    normal = np.zeros(3)
    normal[int(np.argmax(d))] = 1.0
    return normal


class DragController:
    """Turns left-button drags on grips into position updates.

    Parameters
    ----------
    plotter : pyvista.Plotter
        The plotter whose interactor is observed.
    grips : callable
        Returns the current list of :class:`Grip`; tips are tried before
        spheres, so a tip inside a sphere wins.
    on_move : callable
        ``on_move(grip, new_position)`` during the drag, at every mouse move.
    on_end : callable
        ``on_end(grip)`` when the button is released.
    on_start : callable, optional
        ``on_start(grip)`` when the button is pressed on a grip.  With Shift held
        on a sphere, the grip is that sphere's arrow tip (kind ``"tip"``) at
        :func:`tip_of` it: the drag changes the velocity.
    tip_of : callable, optional
        ``tip_of(body)`` -> the body's drawn arrow tip (3,); needed for Shift drags.
    on_pick : callable, optional
        ``on_pick(body)`` when the button is pressed with Ctrl held on a grip: no drag follows.
    """

    def __init__(
        self,
        plotter,
        grips: Callable[[], list[Grip]],
        on_move: Callable[[Grip, np.ndarray], None],
        on_end: Callable[[Grip], None],
        on_start: Callable[[Grip], None] | None = None,
        tip_of: Callable[[int], tuple[float, float, float]] | None = None,
        on_pick: Callable[[int], None] | None = None,
    ) -> None:
        self.plotter = plotter
        self.grips = grips
        self.on_move = on_move
        self.on_end = on_end
        self.on_start = on_start
        self.tip_of = tip_of
        self.on_pick = on_pick
        self.active: Grip | None = None
        self._plane_point = np.zeros(3)
        self._plane_normal = np.array([0.0, 0.0, 1.0])
        self._offset = np.zeros(3)
        self._tags = {}
        interactor = plotter.iren.interactor
        for event, handler in (
            ("LeftButtonPressEvent", self._press),
            ("MouseMoveEvent", self._move),
            ("LeftButtonReleaseEvent", self._release),
        ):
            self._tags[event] = interactor.AddObserver(event, handler, OBSERVER_PRIORITY)

    # -- geometry ---------------------------------------------------------------
    def ray(self, x: float, y: float) -> tuple[np.ndarray, np.ndarray]:
        """World-space ray through display pixel ``(x, y)``: origin on the near plane, unit direction."""
        renderer = self.plotter.renderer
        points = []
        for z in (0.0, 1.0):
            renderer.SetDisplayPoint(float(x), float(y), z)
            renderer.DisplayToWorld()
            w = renderer.GetWorldPoint()
            points.append(np.array(w[:3]) / (w[3] if w[3] else 1.0))
        direction = points[1] - points[0]
        return points[0], direction / np.linalg.norm(direction)

    def pick(self, x: float, y: float) -> tuple[Grip, np.ndarray] | None:
        """The grip under pixel ``(x, y)`` and the point hit on it, or None."""
        origin, direction = self.ray(x, y)
        best = None
        for tips_first in ("tip", "center"):
            for grip in self.grips():
                if grip.kind != tips_first:
                    continue
                hit = ray_sphere(origin, direction, grip.position, grip.radius)
                if hit is None or not hit.hit:
                    continue
                distance = hit.first
                if best is None or distance < best[0]:
                    best = (distance, grip)
            if best is not None:
                break
        if best is None:
            return None
        return best[1], origin + best[0] * direction

    def _plane_hit(self, x: float, y: float) -> np.ndarray | None:
        origin, direction = self.ray(x, y)
        denom = float(np.dot(direction, self._plane_normal))
        if abs(denom) < 1e-12:
            return None
        s = float(np.dot(self._plane_point - origin, self._plane_normal)) / denom
        hit = origin + s * direction
        axis = int(np.argmax(self._plane_normal))
        hit[axis] = self._plane_point[axis]  # exactly in the plane: no 1e-15 creeping into that coordinate
        return hit

    # -- events ---------------------------------------------------------------------
    def _abort(self, event: str) -> None:
        command = self.plotter.iren.interactor.GetCommand(self._tags[event])
        if command is not None:
            command.SetAbortFlag(1)

    def _press(self, interactor, event) -> None:
        x, y = interactor.GetEventPosition()
        picked = self.pick(x, y)
        if picked is None:
            return
        grip, point = picked
        if interactor.GetControlKey() and self.on_pick is not None:
            self.on_pick(grip.body)
            self._abort(event)
            return
        if interactor.GetShiftKey() and grip.kind == "center" and self.tip_of is not None:
            grip = Grip(grip.body, "tip", tuple(self.tip_of(grip.body)), grip.radius)
        self.active = grip
        self._plane_point = np.asarray(grip.position, dtype=float)
        self._plane_normal = drag_plane_normal(self.plotter.camera.direction)
        hit = self._plane_hit(x, y)
        self._offset = (hit if hit is not None else self._plane_point) - self._plane_point
        if self.on_start is not None:
            self.on_start(grip)
        self._abort(event)

    def _move(self, interactor, event) -> None:
        if self.active is None:
            return
        x, y = interactor.GetEventPosition()
        hit = self._plane_hit(x, y)
        if hit is not None and np.all(np.isfinite(hit)):
            self.on_move(self.active, hit - self._offset)
        self._abort(event)

    def _release(self, interactor, event) -> None:
        if self.active is None:
            return
        grip, self.active = self.active, None
        self.on_end(grip)
        self._abort(event)
