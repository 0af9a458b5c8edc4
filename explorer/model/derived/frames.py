"""The reference frame of the picture and of every number shown with it: the world, the free bodies' centre of
mass, or the rest frame of the primary other body B; one definition, used by the picture, the panels, the tables,
the CSV files, the page and ``sphere-explorer solve --frame``.

**The frame at time T.**  The centre-of-mass frame at T is the inertial frame moving with the free bodies' centre
of mass *as it moves at T* (its velocity ``Σ m v / Σ m`` just after any event at T); B's rest frame at T moves with
B's velocity then.  Between events that act on it from outside (a fixed body or a container's wall on the free
bodies; any event of B's for B's rest frame) the frame is one inertial frame; at such an event it changes to the
next one, and what is drawn at a later time is drawn in that later frame.  So at every time the free bodies'
momenta add up to zero in the centre-of-mass frame, and B's velocity is zero in B's rest frame.

**Where it sits.**  The frame is pinned on what it follows: at time T the centre of mass (or B) is where it was at
t = 0.  A world point ``p`` seen at a time ``τ`` is at ``p − moved − velocity (τ − T)`` in the frame at T
(:meth:`Frame.seen`), where ``moved`` is how far the centre of mass (or B) went from t = 0 to T: while the frame
never changed that is ``p − velocity τ``, the Galilean change of frame; where it changed, the bodies drawn at T do
not jump, only what is drawn at other times (the swept capsules, the ghosts at the roots) moves to where the new
frame sees it.  A world velocity ``v`` is ``v − velocity`` (:meth:`Frame.velocity_of`); a fixed body, at rest in
the world, moves at ``−velocity``.

Qt-, VTK- and numpy-free (a page's Python uses it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from solver import vec

from ..state.scene import Scene
from .analysis import SceneEvent, Solution
from .conserved import segment_index

Vector3 = tuple[float, float, float]

#: The frames, by the names the command line, the session and the page use.
WORLD, COM, RELATIVE = "world", "com", "relative"
FRAMES = (WORLD, COM, RELATIVE)
ZERO: Vector3 = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class FrameChange:
    """A time at which the frame's velocity changed, and the events there that changed it.

    Attributes
    ----------
    time : float
    events : tuple of SceneEvent
        The events at ``time`` that act on what the frame follows from outside (a fixed body or a wall on the free
        bodies; B's own events for B's rest frame).
    """

    time: float
    events: tuple[SceneEvent, ...]


@dataclass(frozen=True)
class Frame:
    """One reference frame at one time.

    Attributes
    ----------
    kind : str
        :data:`WORLD`, :data:`COM` or :data:`RELATIVE`: the frame the numbers are in.  The centre-of-mass frame of a
        scene without a free body is the world frame (``asked`` says it was asked for).
    asked : str
        The frame asked for.
    time : float
        The time T it is the frame of.
    velocity : (3,) float
        Its velocity in the world at T (after any event at T): the centre of mass's or B's; zero for the world.
    moved : (3,) float
        How far it went in the world from t = 0 to T (the centre of mass's or B's displacement).
    anchor : int or None
        B's index for B's rest frame, else None.
    changes : tuple of FrameChange
        Where its velocity changed, up to T (nothing for the world frame).
    """

    kind: str
    asked: str
    time: float
    velocity: Vector3 = ZERO
    moved: Vector3 = ZERO
    anchor: int | None = None
    changes: tuple[FrameChange, ...] = ()

    @property
    def moving(self) -> bool:
        """Whether the frame moves in the world at T (a fixed body then seems to move)."""
        return any(self.velocity)

    def velocity_of(self, velocity) -> Vector3:
        """A world velocity ``(3,)`` in this frame: ``velocity − self.velocity``."""
        return vec.sub(tuple(map(float, velocity)), self.velocity)

    def seen(self, point, tau: float, blend: float = 1.0) -> Vector3:
        """Where a world ``point`` (3,) at time ``tau`` is in this frame (``blend`` of the way there from the
        world: the animated turn between frames), ``(3,) float``."""
        if blend == 0.0 or self.kind == WORLD:
            return tuple(map(float, point))  # type: ignore[return-value]
        carried = vec.axpy(tau - self.time, self.velocity, self.moved)
        return vec.sub(tuple(map(float, point)), vec.scale(carried, blend))

    def as_dict(self) -> dict:
        """What ``sphere-explorer solve --frame`` says of it: ``name``, ``velocity`` and ``moved`` (world)."""
        return {"name": self.kind, "velocity": list(self.velocity), "moved": list(self.moved)}


def centres_at(solution: Solution, t: float) -> tuple[Vector3, ...]:
    """Every body's centre at ``t`` as the picture draws it, ``(n, 3)``: along the motion, clamped to what is
    known (never past a stop, never before 0); past the horizon of a motion that did not stop, the last
    segment goes on (the time slider reaches a later first contact)."""
    path = solution.path
    if t <= solution.scene.horizon or path.stopped:
        return path.positions(max(t, 0.0))
    return path.segments[-1].positions(t)


def _follows(scene: Scene, kind: str, other: int, centres, velocities) -> tuple[Vector3, Vector3] | None:
    """The position and velocity of what a ``kind`` frame follows (the free bodies' centre of mass, or body
    ``other``), with the bodies at ``centres`` moving at ``velocities``; None without a free body."""
    if kind == RELATIVE:
        return tuple(map(float, centres[other])), tuple(map(float, velocities[other]))  # type: ignore[return-value]
    free = [(b.mass, c, v) for b, c, v in zip(scene.bodies, centres, velocities) if math.isfinite(b.mass)]
    if not free:
        return None
    total = math.fsum(m for m, _, _ in free)
    position = tuple(math.fsum(m * c[k] for m, c, _ in free) / total for k in range(3))
    velocity = tuple(math.fsum(m * v[k] for m, _, v in free) / total for k in range(3))
    return position, velocity  # type: ignore[return-value]


def _outside(scene: Scene, kind: str, other: int, event: SceneEvent) -> bool:
    """Whether ``event`` acts on what a ``kind`` frame follows from outside."""
    if kind == RELATIVE:
        return other in event.pair
    return any(not math.isfinite(scene.bodies[i].mass) for i in event.pair)


def frame_at(scene: Scene, solution: Solution, t: float, kind: str = WORLD) -> Frame:
    """The ``kind`` frame (one of :data:`FRAMES`) at time ``t`` of ``scene``'s motion (see the module docstring).

    Raises
    ------
    ValueError
        ``kind`` is not one of :data:`FRAMES`.
    """
    if kind not in FRAMES:
        raise ValueError(f"frame: expected one of {', '.join(FRAMES)}, got {kind!r}")
    t = float(t)
    if kind == WORLD:
        return Frame(WORLD, WORLD, t)
    path = solution.path
    other = solution.other
    segments = path.segments
    now = _follows(scene, kind, other, centres_at(solution, t), segments[segment_index(path, t)].velocities)
    start = _follows(scene, kind, other, centres_at(solution, 0.0), segments[0].velocities)
    if now is None or start is None:
        return Frame(WORLD, kind, t)
    at_time: dict[float, list[SceneEvent]] = {}
    for event in solution.events:
        if event.time <= t and _outside(scene, kind, other, event):
            at_time.setdefault(event.time, []).append(event)
    changes: list[FrameChange] = []
    for k in range(1, len(segments)):
        seg = segments[k]
        if seg.t_start > t:
            break
        events = at_time.get(seg.t_start)
        if not events or (changes and changes[-1].time == seg.t_start):  # several events at one time: one change
            continue
        if kind == COM or segments[k - 1].velocities[other] != seg.velocities[other]:  # (a fixed B keeps its own)
            changes.append(FrameChange(seg.t_start, tuple(events)))
    moved = vec.sub(now[0], start[0])
    return Frame(kind, kind, t, now[1], moved, other if kind == RELATIVE else None, tuple(changes))
