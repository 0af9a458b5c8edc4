"""What happens at contact: reflection, ricochet angle, the two-body impulse.

The motion after contact lives in :mod:`solver.motion` (every body) and
:mod:`solver.path` (one ball, the bounce path).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import vec
from .angles import asin
from .body import Vector3
from .limits import check_direction, check_mass, check_restitution, check_velocity
from .result import Sweep


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
    return asin(min(1.0, max(-1.0, abs(vec.dot(u, n)))))  # the same bits on every platform (:mod:`.angles`)


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
