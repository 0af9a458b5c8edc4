"""Ray against sphere (seed 000's building block), with both distances."""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import vec
from ._exact import classify_exact
from ._filter import classify
from .limits import MAX_POINT, check_point, finite_number, three_numbers


@dataclass(frozen=True, slots=True)
class RayHit:
    """Where a ray's line pierces a sphere.

    Attributes
    ----------
    entry, exit : float
        Signed distances along the ray's unit direction to the two
        intersections (``entry <= exit``); negative means behind the origin.
    """

    entry: float
    exit: float

    @property
    def hit(self) -> bool:
        """True when the ray (distances >= 0) meets the sphere."""
        return self.exit >= 0.0

    @property
    def starts_inside(self) -> bool:
        """True when the origin is inside or on the sphere."""
        return self.entry <= 0.0 <= self.exit

    @property
    def first(self) -> float | None:
        """Distance to the first point of the ray in the sphere (0 when it starts inside)."""
        if not self.hit:
            return None
        return max(self.entry, 0.0)


def ray_sphere(origin, direction, center, radius: float) -> RayHit | None:
    """Both intersections of the line ``origin + s * unit(direction)`` with a sphere.

    The roots come from the same certified quadratic solver as the sweeps (a
    point moving with velocity ``direction`` against a static sphere), then
    are scaled by ``|direction|`` into distances.

    Parameters
    ----------
    origin, center : (3,) float
        Components within ``±MAX_POINT`` (1e300): a picking ray may start far
        outside the scene, so the range is wider than a body's.
    direction : (3,) float
        Finite, not zero, any length.
    radius : float
        In (0, 1e300].

    Returns
    -------
    RayHit or None
        None when the line misses the sphere.

    Raises
    ------
    ValueError
        Naming ``origin``, ``direction``, ``center`` or ``radius`` and the range.

    Notes
    -----
    The direction is first scaled by the power of two that brings its largest
    component into [0.5, 1) (:func:`solver.vec.scaled`), so its length is
    neither tiny nor huge and every distance is a root of order
    ``|origin - center| + radius``, finite.
    """
    o = check_point(origin, "origin")
    c = check_point(center, "center")
    d = _direction(direction)
    r = _ray_radius(radius)
    length = vec.norm(d)
    args = (*o, *d, 0.0, *c, 0.0, 0.0, 0.0, r, 1.0, False)
    out = classify(*args)
    if out[3]:
        out = classify_exact(*args)
    t_lo, t_hi = out[1], out[2]
    if math.isnan(t_lo):
        return None
    return RayHit(t_lo * length, t_hi * length)


def _direction(value) -> vec.Vector3:
    """The direction, :func:`solver.vec.scaled`; ValueError for the zero vector."""
    d = vec.scaled(three_numbers(value, "direction"))
    if d == (0.0, 0.0, 0.0):
        raise ValueError("direction: must not be the zero vector")
    return d


def _ray_radius(value) -> float:
    r = finite_number(value, "radius")
    if not 0.0 < r <= MAX_POINT:
        raise ValueError(f"radius: must be in (0, {MAX_POINT:g}], got {r!r}")
    return r
