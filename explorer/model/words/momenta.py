"""Each body's momentum and energy at a time, and the free bodies' centre of mass: the numbers of a lab sheet.

A free body (finite mass; a container of finite mass too, which the solver
moves) has a momentum ``m v`` and a kinetic energy ``m |v|^2 / 2``; a fixed
body (infinite mass) has neither.  The centre of mass of the free bodies
moves at ``sum m v / sum m``: in a straight line while no fixed body or wall
acts on them.  Every sum is exactly rounded (:func:`math.fsum`), as the totals
of :mod:`.conserved` are.

Each function that gives bodies takes an optional frame
(:func:`explorer.model.derived.frames.frame_at`): the bodies' centres, velocities,
momenta and energies are then in that frame (world numbers without one).
numpy-, VTK- and Qt-free.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..derived.analysis import Solution
from ..derived.conserved import segment_index
from ..derived.frames import WORLD, Frame
from ..state.scene import Scene
from .frames import frame_name
from .text import fmt, vector

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


def bodies_at(scene: Scene, solution: Solution, t: float, frame: Frame | None = None) -> list[BodyAt]:
    """Every body of ``scene`` at time ``t`` along the certified motion (clamped to the time it is known over;
    after any event at ``t``), in scene order; in ``frame`` (the frame at ``t``), or the world."""
    path = solution.path
    return bodies_moving(scene, path.positions(t), path.segments[segment_index(path, t)].velocities, frame, t)


def around_event(scene: Scene, solution: Solution, k: int,
                 frame: Frame | None = None) -> tuple[list[BodyAt], list[BodyAt]]:  # fmt: skip
    """Every body just before and just after event ``k`` of the motion (an index into ``solution.events``); both
    in one ``frame`` (the frame at the event's time, which moves as things move just after it), or the world."""
    path = solution.path
    segments = path.segments
    last = len(segments) - 1
    time = solution.events[k].time
    centers = path.positions(time)
    before, after = segments[min(k, last)].velocities, segments[min(k + 1, last)].velocities
    return bodies_moving(scene, centers, before, frame, time), bodies_moving(scene, centers, after, frame, time)


def bodies_moving(scene: Scene, centers, velocities, frame: Frame | None = None, t: float = 0.0) -> list[BodyAt]:
    """``scene``'s bodies at ``centers`` moving with ``velocities`` (each (n, 3), world, scene order) at time
    ``t``, as ``frame`` sees them (default: the world)."""
    out = []
    moving = frame is not None and frame.kind != WORLD
    for body, c, v in zip(scene.bodies, centers, velocities):
        c, v = tuple(map(float, c)), tuple(map(float, v))
        if moving:
            c, v = frame.seen(c, t), frame.velocity_of(v)  # type: ignore[union-attr]
        if math.isfinite(body.mass):
            m = body.mass
            out.append(BodyAt(body.name, m, c, v, (m * v[0], m * v[1], m * v[2]),
                              0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2])))  # fmt: skip
        else:
            out.append(BodyAt(body.name, None, c, v, None, None))
    return out


def total_momentum(bodies: list[BodyAt]) -> Vector3:
    """``sum m v`` of the free ones of ``bodies``, each component exactly rounded (:func:`math.fsum`)."""
    free = [b for b in bodies if b.momentum is not None]
    return tuple(math.fsum(b.momentum[k] for b in free) for k in range(3))  # type: ignore[return-value]


def centre_of_mass(bodies: list[BodyAt]) -> CentreOfMass | None:
    """The centre of mass of the free ones of ``bodies`` (from :func:`bodies_at`); None without a free body."""
    free = [b for b in bodies if b.mass is not None]
    if not free:
        return None
    total = math.fsum(b.mass for b in free)
    position = tuple(math.fsum(b.mass * b.center[k] for b in free) / total for k in range(3))
    velocity = tuple(p / total for p in total_momentum(free))
    return CentreOfMass(position, velocity)  # type: ignore[arg-type]


def at_time(scene: Scene, solution: Solution, t: float, frame: Frame | None = None) -> dict:
    """What ``sphere-explorer solve --time T [--frame F]`` adds: ``bodies_at`` (each body) and ``center_of_mass``
    (or None), in ``frame`` (the frame at ``t``, which ``frame`` then describes), or the world."""
    bodies = bodies_at(scene, solution, t, frame)
    com = centre_of_mass(bodies)
    data = {
        "time": t,
        "bodies_at": [b.as_dict() for b in bodies],
        "center_of_mass": None if com is None else com.as_dict(),
    }
    return data if frame is None else data | {"frame": frame.as_dict()}


@dataclass(frozen=True)
class MomentaChain:
    """The free bodies' momenta added tip to tail, from the origin, and their total.

    Attributes
    ----------
    links : tuple of (str, (3,) float, (3,) float)
        Each free body's name, the tail and the tip of its ``m v`` (the first tail at the origin, each next
        tail at the last tip), in scene order.
    total : (3,) float
        ``sum m v`` (each component exactly rounded): the arrow from the first tail to the last tip.
    scale : float
        The largest component of a body's ``m v``: a total no larger than its rounding reads 0.
    """

    links: tuple[tuple[str, Vector3, Vector3], ...]
    total: Vector3
    scale: float = 0.0

    @property
    def total_text(self) -> str:
        """``Σ m v = (24, 0, 0)``: every component, as the values panel and the table give it, wherever the
        diagram is drawn (the panel, the presentation corner, the page)."""
        return f"Σ m v = {vector(self.total, self.scale)}"


def momenta_chain(bodies: list[BodyAt]) -> MomentaChain:
    """The momenta diagram of ``bodies`` (from :func:`bodies_at`): fixed bodies have no link."""
    links = []
    tail = (0.0, 0.0, 0.0)
    free = [b for b in bodies if b.momentum is not None]
    for k, b in enumerate(free):
        tip = total_momentum(free[: k + 1])  # the exactly rounded partial sum: the last tip is the total itself
        links.append((b.name, tail, tip))
        tail = tip
    return MomentaChain(tuple(links), tail, momentum_scale(free))


def momentum_scale(bodies: list[BodyAt]) -> float:
    """The largest component of the free ones of ``bodies``' ``m v``: what their sum's rounding is relative to."""
    return max((abs(x) for b in bodies if b.momentum is not None for x in b.momentum), default=0.0)


def plane_text(plane: tuple[int, int]) -> str:
    """The diagram's plane, named where it is drawn: ``seen in the xy plane`` (the third component is in the
    total, not in the picture)."""
    return f"seen in the {'xyz'[plane[0]]}{'xyz'[plane[1]]} plane"


def diagram_plane(chains: list[MomentaChain]) -> tuple[int, int]:
    """The two world axes (indices, in order) along which the chains' points spread most: the plane a momenta
    diagram is drawn in (the window's and the page's)."""
    points = [p for chain in chains for _, tail, tip in chain.links for p in (tail, tip)] or [(0.0, 0.0, 0.0)]
    spread = [max(p[k] for p in points) - min(p[k] for p in points) for k in range(3)]
    first, second = sorted(sorted(range(3), key=lambda k: -spread[k])[:2])
    return first, second


def diagrams_now(scene: Scene, solution: Solution, t: float, event: int | None,
                 bodies: list[BodyAt] | None = None, frame: Frame | None = None) -> list[tuple[str, MomentaChain]]:  # fmt: skip
    """The momenta diagrams to show: at time ``t``, or (``event``, an index into the events) just before and just
    after that event; each ``(title, chain)``, the title naming the frame other than the world.  ``bodies``:
    :func:`bodies_at` at ``t`` (in ``frame``), when the caller has it; ``frame``: the frame at ``t`` (the time
    shown, which is the inspected event's), or the world."""
    suffix = "" if frame is None or frame.kind == WORLD else f", {frame_name(scene, frame)}"
    if event is not None and event < len(solution.events):
        before, after = around_event(scene, solution, event, frame)
        return [(f"just before event {event + 1}{suffix}", momenta_chain(before)),
                (f"just after event {event + 1}{suffix}", momenta_chain(after))]  # fmt: skip
    chain = momenta_chain(bodies_at(scene, solution, t, frame) if bodies is None else bodies)
    return [(f"at t = {fmt(t)}{suffix}", chain)]
