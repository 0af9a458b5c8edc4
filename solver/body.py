"""A sphere in uniform motion, validated by the one rule of :mod:`solver.limits`."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .limits import MAX_TIME, Vector3, check_mass, check_radius, check_time, check_vector, check_velocity


@dataclass(frozen=True, slots=True)
class Body:
    """A sphere moving with constant velocity.

    Parameters
    ----------
    center : (3,) float
        Centre at t = 0; components within ``±MAX_COORDINATE`` (1e12).
    velocity : (3,) float
        Displacement per unit time (per frame).  Defaults to at rest.  Each
        component 0 or of magnitude in [1e-100, 1e12].
    radius : float
        In ``[MIN_RADIUS, MAX_RADIUS]`` (1e-12 .. 1e12).
    mass : float
        In ``[MIN_MASS, MAX_MASS]`` (1e-12 .. 1e12), or ``math.inf`` (the one
        non-finite value accepted anywhere), which makes the body fixed:
        immovable in collision responses.

    The ranges are those of :mod:`solver.limits`, which explains why they keep
    every result finite.

    Raises
    ------
    ValueError
        Naming the field (``center``, ``velocity``, ``radius`` or ``mass``)
        and its supported range.
    """

    center: Vector3
    velocity: Vector3 = (0.0, 0.0, 0.0)
    radius: float = 1.0
    mass: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "center", check_vector(self.center, "center"))
        object.__setattr__(self, "velocity", check_velocity(self.velocity, "velocity"))
        object.__setattr__(self, "radius", check_radius(self.radius, "radius"))
        object.__setattr__(self, "mass", check_mass(self.mass, "mass"))

    @property
    def immovable(self) -> bool:
        """True when the mass is infinite."""
        return math.isinf(self.mass)

    @property
    def moving(self) -> bool:
        """True when the velocity is not exactly zero."""
        return self.velocity != (0.0, 0.0, 0.0)

    def position(self, t: float) -> Vector3:
        """Centre at time ``t``, shape (3,); ``|t| <= MAX_TIME`` keeps it finite.

        Raises
        ------
        ValueError
            ``t`` beyond ``±MAX_TIME`` or not a finite number.
        """
        if not (t.__class__ is float and -MAX_TIME <= t <= MAX_TIME):
            t = check_time(t, "t")
        c, v = self.center, self.velocity
        return (c[0] + v[0] * t, c[1] + v[1] * t, c[2] + v[2] * t)
