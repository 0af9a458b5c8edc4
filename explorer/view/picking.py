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

from typing import Callable

import numpy as np

from .grips import GRIP_PIXELS, Grip, PlaneDrag, pick

#: Priority above the interactor style's observers, so a drag can swallow events.
OBSERVER_PRIORITY = 10.0


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
        self._plane: PlaneDrag | None = None
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

    def pick(self, x: float, y: float) -> tuple[Grip, tuple] | None:
        """The grip under pixel ``(x, y)`` and the point hit on it, or None."""
        origin, direction = self.ray(x, y)
        height = max(self.plotter.window_size[1], 1)
        slack = GRIP_PIXELS * np.radians(self.plotter.camera.view_angle) / height
        return pick(self.grips(), tuple(origin.tolist()), tuple(direction.tolist()), float(slack))

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
        origin, direction = self.ray(x, y)
        self._plane = PlaneDrag(grip.position, self.plotter.camera.direction, origin.tolist(), direction.tolist())
        if self.on_start is not None:
            self.on_start(grip)
        self._abort(event)

    def _move(self, interactor, event) -> None:
        if self.active is None:
            return
        origin, direction = self.ray(*interactor.GetEventPosition())
        point = self._plane.moved(origin.tolist(), direction.tolist())
        if point is not None:
            self.on_move(self.active, np.array(point))
        self._abort(event)

    def _release(self, interactor, event) -> None:
        if self.active is None:
            return
        grip, self.active = self.active, None
        self.on_end(grip)
        self._abort(event)
