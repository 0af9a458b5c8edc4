"""Tiny 3-vector helpers on tuples (faster than numpy for single vectors)."""

from __future__ import annotations

import math

Vector3 = tuple[float, float, float]


def add(a: Vector3, b: Vector3) -> Vector3:
    """``a + b``."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def sub(a: Vector3, b: Vector3) -> Vector3:
    """``a - b``."""
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def scale(a: Vector3, k: float) -> Vector3:
    """``k a``."""
    return (a[0] * k, a[1] * k, a[2] * k)


def axpy(k: float, a: Vector3, b: Vector3) -> Vector3:
    """``k a + b``."""
    return (k * a[0] + b[0], k * a[1] + b[1], k * a[2] + b[2])


def dot(a: Vector3, b: Vector3) -> float:
    """``a . b``."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a: Vector3, b: Vector3) -> Vector3:
    """``a x b``."""
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def norm(a: Vector3) -> float:
    """Euclidean length, without overflow for huge components."""
    return math.hypot(a[0], a[1], a[2])


def scaled(a: Vector3) -> Vector3:
    """``a`` times the power of two that brings its largest component into [0.5, 1).

    Exact, except that a component more than 2^1022 times smaller than the
    largest one may lose bits (or vanish) when scaling down.  The zero vector
    is returned unchanged.
    """
    k = max(abs(a[0]), abs(a[1]), abs(a[2]))
    if k == 0.0:
        return a
    e = -math.frexp(k)[1]
    return (math.ldexp(a[0], e), math.ldexp(a[1], e), math.ldexp(a[2], e))


def unit(a: Vector3) -> Vector3 | None:
    """``a / |a|``, or None for the zero vector.

    Normalises the :func:`scaled` vector, so vectors near the float limit
    (whose length overflows) or subnormal ones (whose length rounds coarsely)
    still give a unit vector.
    """
    x, y, z = scaled(a)
    n = math.sqrt(x * x + y * y + z * z)
    if n == 0.0:
        return None
    return (x / n, y / n, z / n)
