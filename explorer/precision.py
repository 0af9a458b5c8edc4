"""What the textbook formula answers in float32 and float64, beside the exact verdict.

The textbook test (seeds 000, 002 and 003) computes, in one floating-point
type throughout, starting from the absolute coordinates::

    p = cB - cA,  v = vB - vA,  R = rA + rB
    a = v.v,  b = 2 p.v,  c = p.p - R^2,  disc = b^2 - 4 a c
    hit  <=>  c <= 0  or  (disc >= 0 and 0 <= t0 <= h),  t0 = (-b - sqrt(disc)) / (2 a)

Its discriminant subtracts two products of size ~ (|p||v|)^2, so for long
shots, far-from-origin coordinates and near-tangent grazes the sign comes out
wrong.  Qt-free; used by the precision lab panel and the tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .scene import Scene


@dataclass(frozen=True)
class TextbookAnswer:
    """The textbook formula's view of a pair.

    Attributes
    ----------
    dtype : str
        ``"float32"`` or ``"float64"``.
    hit : bool
    toi : float or None
        ``t0`` when hit (0 when c <= 0).
    discriminant : float
        ``b^2 - 4 a c`` as that type computes it (NaN without motion).
    """

    dtype: str
    hit: bool
    toi: float | None
    discriminant: float


def textbook(scene: Scene, dtype: type = np.float64, other: int = 1) -> TextbookAnswer:
    """Evaluate the textbook formula for body 0 against body ``other`` in ``dtype``.

    Parameters
    ----------
    scene : Scene
        ``pair`` mode uses the contact condition ``|d| <= rA + rB``;
        ``inside`` mode uses the exit root with ``R = rC - rA``.
    dtype : numpy floating type
        ``np.float32`` or ``np.float64``; every input is first rounded to it.
    other : int
        Index of the other body.
    """
    a_body, b_body = scene.bodies[0], scene.bodies[other]
    f = dtype
    with np.errstate(all="ignore"):
        ca, va = np.array(a_body.center, f), np.array(a_body.velocity, f)
        cb, vb = np.array(b_body.center, f), np.array(b_body.velocity, f)
        ra, rb, h = f(a_body.radius), f(b_body.radius), f(scene.horizon)
        p, v = cb - ca, vb - va
        r = rb - ra if scene.mode == "inside" else ra + rb
        a = f(np.dot(v, v))
        b = f(2) * f(np.dot(p, v))
        c = f(np.dot(p, p)) - r * r
        disc = b * b - f(4) * a * c
        if scene.mode == "inside":
            if c >= 0:
                return TextbookAnswer(np.dtype(f).name, True, 0.0, float(disc) if a else math.nan)
            if a == 0:
                return TextbookAnswer(np.dtype(f).name, False, None, math.nan)
            t1 = (-b + np.sqrt(max(disc, f(0)))) / (f(2) * a)
            hit = bool(t1 <= h)
            return TextbookAnswer(np.dtype(f).name, hit, float(t1) if hit else None, float(disc))
        if c <= 0:
            return TextbookAnswer(np.dtype(f).name, True, 0.0, float(disc) if a else math.nan)
        if a == 0 or disc < 0:
            return TextbookAnswer(np.dtype(f).name, False, None, float(disc) if a else math.nan)
        t0 = (-b - np.sqrt(disc)) / (f(2) * a)
        hit = bool(f(0) <= t0 <= h)
        return TextbookAnswer(np.dtype(f).name, hit, float(t0) if hit else None, float(disc))
