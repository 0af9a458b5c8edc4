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


def unit(a: Vector3) -> Vector3 | None:
    """``a / |a|``, or None for the zero vector.

    Divides by the largest component first, so vectors near the float limit
    (whose length overflows) or subnormal ones (whose length rounds coarsely)
    still give a unit vector.
    """
    k = max(abs(a[0]), abs(a[1]), abs(a[2]))
    if k == 0.0:
        return None
    a = (a[0] / k, a[1] / k, a[2] / k)
    n = norm(a)
    return (a[0] / n, a[1] / n, a[2] / n)
