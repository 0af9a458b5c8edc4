"""A sphere in uniform motion, with input validation shared by every query."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

Vector3 = tuple[float, float, float]


def finite_vector(value: Iterable[float], field: str) -> Vector3:
    """Return ``value`` as a tuple of three finite floats.

    Parameters
    ----------
    value : sequence of 3 numbers
    field : str
        Name used in the error message.

    Raises
    ------
    ValueError
        Naming ``field`` when the value is not three finite real numbers.
    """
    try:
        items = tuple(value)
    except TypeError:
        raise ValueError(f"{field}: expected 3 numbers, got {value!r}") from None
    if len(items) != 3:
        raise ValueError(f"{field}: expected 3 numbers, got {len(items)}")
    out = []
    for item in items:
        out.append(finite_number(item, field))
    return (out[0], out[1], out[2])


def finite_number(value: object, field: str) -> float:
    """Return ``value`` as a finite float, or raise ``ValueError`` naming ``field``."""
    if isinstance(value, (bool, str, bytes)) or value is None:
        raise ValueError(f"{field}: expected a number, got {value!r}")
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{field}: expected a finite number, got {value!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"{field}: must be finite, got {number!r}")
    return number


def positive_number(value: object, field: str) -> float:
    """Return ``value`` as a finite float > 0, or raise ``ValueError`` naming ``field``."""
    number = finite_number(value, field)
    if number <= 0.0:
        raise ValueError(f"{field}: must be positive, got {number!r}")
    return number


@dataclass(frozen=True, slots=True)
class Body:
    """A sphere moving with constant velocity.

    Parameters
    ----------
    center : (3,) float
        Centre at t = 0.
    velocity : (3,) float
        Displacement per unit time (per frame).  Defaults to at rest.
    radius : float
        Finite and positive.
    mass : float
        Positive; ``math.inf`` (the one non-finite value accepted anywhere)
        makes the body immovable in collision responses.

    Raises
    ------
    ValueError
        Naming the field (``center``, ``velocity``, ``radius`` or ``mass``).
    """

    center: Vector3
    velocity: Vector3 = (0.0, 0.0, 0.0)
    radius: float = 1.0
    mass: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "center", finite_vector(self.center, "center"))
        object.__setattr__(self, "velocity", finite_vector(self.velocity, "velocity"))
        object.__setattr__(self, "radius", positive_number(self.radius, "radius"))
        mass = self.mass
        if not (isinstance(mass, (int, float)) and not isinstance(mass, bool)) or math.isnan(mass) or mass <= 0:
            raise ValueError(f"mass: must be positive (math.inf for an immovable body), got {mass!r}")
        object.__setattr__(self, "mass", float(mass))

    @property
    def immovable(self) -> bool:
        """True when the mass is infinite."""
        return math.isinf(self.mass)

    @property
    def moving(self) -> bool:
        """True when the velocity is not exactly zero."""
        return self.velocity != (0.0, 0.0, 0.0)

    def position(self, t: float) -> Vector3:
        """Centre at time ``t``, shape (3,)."""
        c, v = self.center, self.velocity
        return (c[0] + v[0] * t, c[1] + v[1] * t, c[2] + v[2] * t)
