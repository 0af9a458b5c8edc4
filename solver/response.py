"""What happens at and after contact: reflection, ricochet angle, impulse, bounce path."""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import vec
from .body import Body, Vector3
from .limits import check_direction, check_mass, check_restitution, check_velocity
from .result import Sweep
from .status import Status
from .sweep import sweep, sweep_inside
from .tolerances import MAX_BOUNCES, SLIDING_COSINE


def reflect(velocity, normal) -> Vector3:
    """Mirror ``velocity`` in the plane with the given normal: ``v - 2 (v.n) n``.

    Parameters
    ----------
    velocity : (3,) float
        A velocity in the range of :mod:`solver.limits`.
    normal : (3,) float
        Need not be unit length (any finite magnitude) but must not be zero.

    Raises
    ------
    ValueError
        Naming ``velocity`` or ``normal`` and the supported range.
    """
    return mirror(check_velocity(velocity, "velocity"), check_direction(normal, "normal"))


def mirror(v: Vector3, n: Vector3) -> Vector3:
    """:func:`reflect` without validation: ``v - 2 (v.n) n`` for a unit ``n``."""
    return vec.axpy(-2.0 * vec.dot(v, n), n, v)


def ricochet_angle(velocity, normal) -> float:
    """Angle in radians between the incoming direction and the tangent plane.

    0 for a grazing touch, pi/2 for a head-on hit (seed 004's angle, measured
    to the tangent plane, not to the normal).

    Raises
    ------
    ValueError
        ``velocity`` is zero (no direction to measure).
    """
    angle = angle_to_plane(check_velocity(velocity, "velocity"), check_direction(normal, "normal"))
    if angle is None:
        raise ValueError("velocity: zero velocity has no ricochet angle")
    return angle


def angle_to_plane(v: Vector3, n: Vector3) -> float | None:
    """:func:`ricochet_angle` without validation (any finite ``v``, unit ``n``); None for zero ``v``."""
    u = vec.unit(v)
    if u is None:
        return None
    return math.asin(min(1.0, max(-1.0, abs(vec.dot(u, n)))))


def collide(a_velocity, b_velocity, normal, a_mass: float = 1.0, b_mass: float = 1.0, restitution: float = 1.0):
    """Velocities after an impulse along ``normal`` (from A towards B).

    Parameters
    ----------
    a_velocity, b_velocity : (3,) float
        In the velocity range of :mod:`solver.limits`.
    normal : (3,) float
        Contact normal, pointing from A into B; need not be unit length.
    a_mass, b_mass : float
        In [1e-12, 1e12]; ``math.inf`` for an immovable body.
    restitution : float
        In [0, 1]: 1 elastic, 0 perfectly plastic along the normal.

    Returns
    -------
    a_after, b_after : (3,) float
        Unchanged when the bodies are not approaching along the normal.

    Raises
    ------
    ValueError
        Bad field, or both bodies immovable (``mass``).
    """
    va = check_velocity(a_velocity, "a_velocity")
    vb = check_velocity(b_velocity, "b_velocity")
    n = check_direction(normal, "normal")
    e = check_restitution(restitution, "restitution")
    inv_a = 1.0 / check_mass(a_mass, "a_mass")
    inv_b = 1.0 / check_mass(b_mass, "b_mass")
    if inv_a + inv_b == 0.0:
        raise ValueError("mass: both bodies are immovable, no impulse can separate them")
    return exchange(va, vb, n, inv_a, inv_b, e)


def exchange(va: Vector3, vb: Vector3, n: Vector3, inv_a: float, inv_b: float, e: float) -> tuple[Vector3, Vector3]:
    """:func:`collide` without validation: unit ``n``, inverse masses (0 for fixed), ``inv_a + inv_b > 0``."""
    vn = vec.dot(vec.sub(vb, va), n)
    if vn >= 0.0:
        return va, vb
    j = -(1.0 + e) * vn / (inv_a + inv_b)
    return vec.axpy(-j * inv_a, n, va), vec.axpy(j * inv_b, n, vb)


@dataclass(frozen=True, slots=True)
class Impact:
    """The response at a sweep's first contact.

    Attributes
    ----------
    time : float
        Frames to the hit (the sweep's toi).
    distance : float
        Distance A's centre travels before the hit, ``|vA| * toi``.
    normal : (3,) float
        Contact normal from A towards B.
    incoming : (3,) float
        A's velocity relative to B.
    reflected : (3,) float
        A's velocity after a mirror bounce off B held fixed (seed 004):
        ``vB + reflect(vA - vB, n)``.
    ricochet_angle : float or None
        Angle of ``incoming`` to the tangent plane, radians (None when
        ``incoming`` is zero).
    a_after, b_after : (3,) float
        Velocities after the impulse with the bodies' masses and the
        restitution.
    """

    time: float
    distance: float
    normal: Vector3
    incoming: Vector3
    reflected: Vector3
    ricochet_angle: float | None
    a_after: Vector3
    b_after: Vector3


def impact(s: Sweep, restitution: float = 1.0) -> Impact | None:
    """Response at the first contact of ``s``; None when it has no hit.

    Raises
    ------
    ValueError
        Bad restitution, or both bodies immovable.
    """
    e = check_restitution(restitution, "restitution")
    contact = s.contact
    if contact is None:
        return None
    n = contact.normal
    a, b = s.a, s.b
    if a.immovable and b.immovable:
        raise ValueError("mass: both bodies are immovable, no impulse can separate them")
    incoming = vec.sub(a.velocity, b.velocity)
    reflected = vec.add(b.velocity, mirror(incoming, n))
    angle = angle_to_plane(incoming, n)
    a_after, b_after = exchange(a.velocity, b.velocity, n, 1.0 / a.mass, 1.0 / b.mass, e)
    return Impact(contact.time, vec.norm(a.velocity) * contact.time, n, incoming, reflected, angle, a_after, b_after)


@dataclass(frozen=True, slots=True)
class Segment:
    """Uniform motion of every body between two events.

    Attributes
    ----------
    t_start, t_end : float
    centers : tuple of (3,) float, length n
        Centres at ``t_start``; index 0 is the ball A.
    velocities : tuple of (3,) float, length n
        Velocities during the segment.
    """

    t_start: float
    t_end: float
    centers: tuple[Vector3, ...]
    velocities: tuple[Vector3, ...]

    def positions(self, t: float) -> tuple[Vector3, ...]:
        """Centres of all bodies at absolute time ``t`` (within the segment), each (3,)."""
        dt = t - self.t_start
        return tuple(vec.axpy(dt, v, c) for c, v in zip(self.centers, self.velocities))


@dataclass(frozen=True, slots=True)
class Bounce:
    """One contact on a bounce path.

    Attributes
    ----------
    time : float
    other : int
        Index of the body A touched (1 for the second body, ...).
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
        Contiguous from t = 0; they reach the horizon unless ``stopped`` says why not.
    bounces : tuple of Bounce
        The contacts that changed velocities, in time order.
    stopped : str or None
        Why the path ends early or was cut short (None when it simply reaches
        the horizon).
    """

    segments: tuple[Segment, ...]
    bounces: tuple[Bounce, ...]
    stopped: str | None

    @property
    def end(self) -> float:
        """Time the path reaches."""
        return self.segments[-1].t_end

    def positions(self, t: float) -> tuple[Vector3, ...]:
        """Centres of all bodies at time ``t``, clamped to the path's time span."""
        for seg in self.segments:
            if t <= seg.t_end:
                return seg.positions(max(t, seg.t_start))
        last = self.segments[-1]
        return last.positions(last.t_end)


def bounce_path(a: Body, others, horizon: float = 1.0, restitution: float = 1.0, inside: bool = False) -> BouncePath:
    """Motion of a ball A among other spheres over ``[0, horizon]``, responding at each contact.

    Event by event: the earliest contact of A with any other body comes from
    the exact sweeps; A and that body exchange an impulse (masses,
    restitution); all bodies move on.  The other bodies do not collide with
    one another.  A pair that touches at the start of a step while separating
    is not a new contact.  Inside a container the ball keeps bouncing; each
    later wall contact is the larger root of the quadratic from the ball
    resting on the wall (where the smaller root is 0), computed in float64 with
    the cancellation-free formula, and the ball is put back exactly on the
    wall at each bounce so rounding cannot drift it through.

    Parameters
    ----------
    a : Body
        The ball.
    others : Body or sequence of Body
        The other spheres (``inside``: exactly one, the container).
    horizon : float
    restitution : float
        In [0, 1].
    inside : bool

    Returns
    -------
    BouncePath
        At most :data:`~solver.tolerances.MAX_BOUNCES` bounces.
    """
    e = check_restitution(restitution, "restitution")
    bodies = [a, *([others] if isinstance(others, Body) else list(others))]
    if len(bodies) < 2 or (inside and len(bodies) != 2):
        raise ValueError("others: expected one container (inside) or at least one other body")
    first = (sweep_inside if inside else sweep)(a, bodies[1], horizon)  # validates the arguments
    h = first.horizon
    centers = [body.center for body in bodies]
    velocities = [body.velocity for body in bodies]
    segments: list[Segment] = []
    bounces: list[Bounce] = []
    t = 0.0

    def close(reason: str | None, end: float) -> BouncePath:
        segments.append(Segment(t, end, tuple(centers), tuple(velocities)))
        return BouncePath(tuple(segments), tuple(bounces), reason)

    while True:
        if len(bounces) >= MAX_BOUNCES:
            return close(f"cut short after {MAX_BOUNCES} bounces", h)
        event = _next_event(bodies, centers, velocities, t, h, inside, bool(bounces))
        if event is None:
            return close(None, h)
        if event == _SLIDING:
            return close("the ball slides along the wall (no normal speed left after the bounce)", t)
        dt, j = event
        if dt > 0.0:
            segments.append(Segment(t, t + dt, tuple(centers), tuple(velocities)))
            centers = [vec.axpy(dt, v, c) for c, v in zip(centers, velocities)]
            t += dt
        n = vec.unit(vec.sub(centers[0], centers[j]) if inside else vec.sub(centers[j], centers[0]))
        if n is None:
            return close("the centres coincide: no contact normal", t)
        if inside and t > 0.0:  # back exactly onto the shrunken wall (not at t = 0: keep the user's start)
            centers[0] = vec.axpy(bodies[j].radius - a.radius, n, centers[j])
        point = vec.axpy(a.radius, n, centers[0])
        try:
            velocities[0], velocities[j] = collide(velocities[0], velocities[j], n, a.mass, bodies[j].mass, e)
        except ValueError:
            return close("both bodies are immovable", t)
        bounces.append(Bounce(t, j, point, n))


_SLIDING = (0.0, -1)


def _next_event(bodies, centers, velocities, t, h, inside, bounced) -> tuple[float, int] | None:
    """Time from ``t`` to A's next contact and the index of the body touched.

    None when there is no contact before the horizon; :data:`_SLIDING` when a
    ball on the container wall has no inward speed left.
    """
    a = bodies[0]
    ball = Body(centers[0], velocities[0], a.radius, a.mass)
    if inside:
        wall = Body(centers[1], velocities[1], bodies[1].radius, bodies[1].mass)
        if bounced:  # resting on the wall after a bounce: the exit root from there
            dt = _next_wall_time(vec.sub(wall.center, ball.center), vec.sub(wall.velocity, ball.velocity), wall.radius - a.radius)
            if dt is None:
                return _SLIDING
            return None if t + dt >= h else (dt, 1)
        s = sweep_inside(ball, wall, h - t) if h > t else None
        if s is None or s.contact is None or (s.status is Status.OVERLAPPING and _separating(ball, wall, s.contact.normal)):
            return None
        return s.contact.time, 1
    best: tuple[float, int] | None = None
    for j in range(1, len(bodies)):
        other = Body(centers[j], velocities[j], bodies[j].radius, bodies[j].mass)
        s = sweep(ball, other, h - t) if h > t else None
        if s is None or s.contact is None:
            continue
        if s.status is Status.OVERLAPPING and _separating(ball, other, s.contact.normal):
            continue
        if best is None or s.contact.time < best[0]:
            best = (s.contact.time, j)
    return best


def _separating(a: Body, b: Body, n: Vector3) -> bool:
    """True when B does not approach A along the normal n (from A towards B)."""
    return vec.dot(vec.sub(b.velocity, a.velocity), n) >= 0.0


def _next_wall_time(p: Vector3, v: Vector3, r: float) -> float | None:
    """Larger root of ``|p + v t|^2 = r^2`` for a ball on the wall moving inwards.

    ``p`` is the container centre relative to the ball, ``v`` the container's
    velocity relative to the ball; None when the ball is not moving inwards
    (cosine of the angle to the wall below :data:`SLIDING_COSINE`: it slides).
    """
    vv = vec.dot(v, v)
    pv = vec.dot(p, v)
    if vv == 0.0 or pv >= -SLIDING_COSINE * vec.norm(p) * math.sqrt(vv):
        return None
    c = vec.dot(p, p) - r * r
    s = math.sqrt(max(pv * pv - vv * c, 0.0))
    return (s - pv) / vv
