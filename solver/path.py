"""One ball's bounce path: a thin layer over :func:`solver.simulate`.

The explorer's pair and inside modes follow ball A (body 0) among the other
bodies: A may hit any of them (each responds with its mass), the others do not
collide with one another.  Inside mode is A in its container.  The certified
motion, its rules and its stop reasons are those of :mod:`solver.motion`.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import vec
from .body import Body, Vector3
from .motion import WALL, Motion, Segment, _simulate, entirely_outside
from .tolerances import MAX_BOUNCES


@dataclass(frozen=True, slots=True)
class Bounce:
    """One contact on a bounce path.

    Attributes
    ----------
    time : float
    other : int
        Index of the body A touched (1 for the second body, ...; 1 for the
        container in inside mode).
    point, normal : (3,) float
        Contact point and the unit normal from A towards the other body (or
        towards the container wall).
    """

    time: float
    other: int
    point: Vector3
    normal: Vector3


@dataclass(frozen=True, slots=True)
class BouncePath:
    """The motion over the whole horizon, contact by contact.

    Attributes
    ----------
    segments : tuple of Segment
        Contiguous from t = 0 to :attr:`end` (segments of zero length where
        several contacts happen at one time).
    bounces : tuple of Bounce
        The contacts that changed velocities, in time order.
    stopped : str or None
        Why the path ends before the horizon (None when it reaches it).
    motion : Motion
        The underlying certified motion (events with impulses, stop kind).
    """

    segments: tuple[Segment, ...]
    bounces: tuple[Bounce, ...]
    stopped: str | None
    motion: Motion | None = None

    @property
    def end(self) -> float:
        """Time the path reaches."""
        return self.segments[-1].t_end

    def positions(self, t: float) -> tuple[Vector3, ...]:
        """Centres of all bodies at time ``t``, clamped to the path's time span."""
        for seg in reversed(self.segments):
            if seg.t_start <= t:
                return seg.positions(min(t, seg.t_end))
        first = self.segments[0]
        return first.positions(first.t_start)


def bounce_path(a: Body, others, horizon: float = 1.0, restitution: float = 1.0, inside: bool = False) -> BouncePath:
    """Motion of a ball A among other spheres over ``[0, horizon]``, responding at each contact.

    Parameters
    ----------
    a : Body
        The ball.
    others : Body or sequence of Body
        The other spheres (``inside``: exactly one, the container).  They move
        and respond to A with their masses but pass through one another.
    horizon : float
        In (0, 1e6].
    restitution : float
        In [0, 1].
    inside : bool

    Returns
    -------
    BouncePath
        Certified event by event (:mod:`solver.motion`); at most
        :data:`~solver.tolerances.MAX_BOUNCES` bounces, after which it ends
        with the reason in ``stopped``.  A ball entirely outside its container
        (:attr:`Status.OUTSIDE`) has no path: one segment of zero length, and
        ``stopped`` says why.

    Raises
    ------
    ValueError
        Naming the field.
    """
    others = [others] if isinstance(others, Body) else list(others)
    if not others or (inside and len(others) != 1):
        raise ValueError("others: expected one container (inside) or at least one other body")
    if inside:
        if not isinstance(others[0], Body) or not others[0].radius > a.radius:
            radius = getattr(others[0], "radius", None)
            raise ValueError(f"container.radius: must be larger than the ball's radius ({radius!r} <= {a.radius!r})")
        if entirely_outside(a, others[0]):
            _simulate([a], horizon, restitution, None, 1, True)  # validates the arguments
            still = Segment(0.0, 0.0, (a.center, others[0].center), (a.velocity, others[0].velocity))
            return BouncePath((still,), (), "outside: the ball lies entirely outside the container at t = 0")
        motion = _simulate([a], horizon, restitution, others[0], MAX_BOUNCES, True)
    else:
        motion = _simulate([a, *others], horizon, restitution, None, MAX_BOUNCES, True)
    segments = tuple(
        Segment(
            f.t_start,
            f.t_end,
            tuple(vec.add(c, motion.origin) for c in f.centers),
            f.velocities,
        )
        for f in motion.frames
    )
    bounces = tuple(
        Bounce(ev.time, 1 if ev.pair[1] == WALL else ev.pair[1], ev.point, ev.normal) for ev in motion.events
    )
    return BouncePath(segments, bounces, motion.stopped, motion)
