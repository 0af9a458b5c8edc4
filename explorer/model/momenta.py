"""Each body's momentum and energy at a time, and the free bodies' centre of mass: the numbers of a lab sheet.

A free body (finite mass; a container of finite mass too, which the solver
moves) has a momentum ``m v`` and a kinetic energy ``m |v|^2 / 2``; a fixed
body (infinite mass) has neither.  The centre of mass of the free bodies
moves at ``sum m v / sum m``: in a straight line while no fixed body or wall
acts on them.  Every sum is exactly rounded (:func:`math.fsum`), as the totals
of :mod:`.conserved` are.  numpy-, VTK- and Qt-free.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .analysis import Solution
from .conserved import segment_index
from .scene import Scene

Vector3 = tuple[float, float, float]


@dataclass(frozen=True)
class BodyAt:
    """One body at a time.

    Attributes
    ----------
    name : str
    mass : float or None
        None for a fixed body.
    center, velocity : (3,) float
        Where it is and how it moves at that time (after any event then).
    momentum : (3,) float or None
        ``m v``; None for a fixed body.
    kinetic_energy : float or None
        ``m |v|^2 / 2``; None for a fixed body.
    """

    name: str
    mass: float | None
    center: Vector3
    velocity: Vector3
    momentum: Vector3 | None
    kinetic_energy: float | None

    def as_dict(self) -> dict:
        return {"name": self.name, "mass": self.mass, "center": list(self.center), "velocity": list(self.velocity),
                "momentum": None if self.momentum is None else list(self.momentum),
                "kinetic_energy": self.kinetic_energy}  # fmt: skip


@dataclass(frozen=True)
class CentreOfMass:
    """The free bodies' centre of mass at a time: ``position`` and ``velocity``, each (3,) float."""

    position: Vector3
    velocity: Vector3

    def as_dict(self) -> dict:
        return {"position": list(self.position), "velocity": list(self.velocity)}


def bodies_at(scene: Scene, solution: Solution, t: float) -> list[BodyAt]:
    """Every body of ``scene`` at time ``t`` along the certified motion (clamped to the time it is known over;
    after any event at ``t``), in scene order."""
    path = solution.path
    centers = path.positions(t)
    velocities = path.segments[segment_index(path, t)].velocities
    out = []
    for body, c, v in zip(scene.bodies, centers, velocities):
        c, v = tuple(map(float, c)), tuple(map(float, v))
        if math.isfinite(body.mass):
            m = body.mass
            out.append(BodyAt(body.name, m, c, v, (m * v[0], m * v[1], m * v[2]),
                              0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2])))  # fmt: skip
        else:
            out.append(BodyAt(body.name, None, c, v, None, None))
    return out


def centre_of_mass(bodies: list[BodyAt]) -> CentreOfMass | None:
    """The centre of mass of the free ones of ``bodies`` (from :func:`bodies_at`); None without a free body."""
    free = [b for b in bodies if b.mass is not None]
    if not free:
        return None
    total = math.fsum(b.mass for b in free)
    position = tuple(math.fsum(b.mass * b.center[k] for b in free) / total for k in range(3))
    velocity = tuple(math.fsum(b.momentum[k] for b in free) / total for k in range(3))
    return CentreOfMass(position, velocity)  # type: ignore[arg-type]


def at_time(scene: Scene, solution: Solution, t: float) -> dict:
    """What ``sphere-explorer solve --time T`` adds: ``bodies_at`` (each body) and ``center_of_mass`` (or None)."""
    bodies = bodies_at(scene, solution, t)
    com = centre_of_mass(bodies)
    return {
        "time": t,
        "bodies_at": [b.as_dict() for b in bodies],
        "center_of_mass": None if com is None else com.as_dict(),
    }
