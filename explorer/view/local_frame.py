"""Where a page draws from: a local origin and unit, so that every scene the solver takes is drawn true.

A web page draws with vtk.js, which holds points as 32-bit floats (about 7 significant digits), and its frames
carry numbers to :data:`explorer.web.live.DRAW_DIGITS` digits.  In world coordinates A at x = 1e11 − 5 and B at
1e11 are one point there, and spheres of radius 1e-8 fall below every tolerance of the drawing.  So the page draws
in a frame of its own: a point ``p`` is drawn at ``(p - origin) / unit``, where ``unit`` is the power of two nearest
the size of the box the picture frames (so the division is exact) and ``origin`` the multiple of ``unit`` nearest
that box's centre.  The frame is a function of what is shown (a recorded page's frames are the live page's), and
it moves in steps: when it changes, the page keeps its camera where it was, in the new frame's numbers.  Rays from
the page come back through :meth:`LocalFrame.world`; directions are the same in both frames.

numpy-, VTK- and Qt-free (it runs in a browser's Python).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float, float]
Box = tuple[Point, Point]

#: What each argument of a picture's shape is, by kind (:data:`explorer.view.picture.KINDS`, in the order
#: :mod:`explorer.view.geometry`'s builders take them): ``point`` (3,), ``points`` (k, 3), ``paths`` (m, k, 3),
#: ``length``, ``lengths`` (k,), or ``same`` (a direction, a colour, a count: drawn as given).
ARG_ROLES = {
    "sphere": ("point", "length"),
    "spheres": ("points", "lengths"),
    "capsule": ("point", "point", "length"),
    "arrow": ("point", "point", "length", "length", "length"),
    "ring": ("point", "same", "length", "length"),
    "circles": ("point", "length"),
    "tube": ("points", "length"),
    "coloured_tubes": ("paths", "same", "length"),
    "dashed_tube": ("point", "point", "length"),
    "flat_circles": ("points", "length"),
    "segments": ("points",),
}


@dataclass(frozen=True)
class LocalFrame:
    """A page's drawing frame: a world point ``p`` is drawn at ``(p - origin) / unit``.

    Attributes
    ----------
    origin : (3,) float
        The world point drawn at (0, 0, 0).
    unit : float
        The world length drawn as 1 (a power of two).
    """

    origin: Point
    unit: float

    def point(self, p) -> list[float]:
        """World point ``p`` (3,) in the frame."""
        return [(p[k] - self.origin[k]) / self.unit for k in range(3)]

    def length(self, x: float) -> float:
        """World length ``x`` in the frame."""
        return x / self.unit

    def world(self, p) -> Point:
        """A point ``p`` (3,) of the frame in world coordinates."""
        return tuple(self.origin[k] + self.unit * p[k] for k in range(3))  # type: ignore[return-value]

    def args(self, kind: str, args) -> list:
        """A shape's ``args`` (of ``kind``) in the frame (:data:`ARG_ROLES`; arguments beyond them are kept)."""
        roles = ARG_ROLES[kind]
        return [self._arg(roles[k], a) if k < len(roles) else a for k, a in enumerate(args)]

    def _arg(self, role: str, value):
        if role == "point":
            return self.point(value)
        if role == "points":
            return [self.point(p) for p in value]
        if role == "paths":
            return [[self.point(p) for p in path] for path in value]
        if role == "length":
            return self.length(value)
        if role == "lengths":
            return [self.length(x) for x in value]
        return value

    def pose(self, pose: dict) -> dict:
        """A camera ``pose`` (:func:`explorer.view.bounds.default_pose`'s keys) in the frame."""
        return {**pose, "position": self.point(pose["position"]), "focal_point": self.point(pose["focal_point"])}

    def inverse(self) -> LocalFrame:
        """The frame in which the page's numbers are world points again (``inverse().point(q) == world(q)``)."""
        return LocalFrame(tuple(-c / self.unit for c in self.origin), 1.0 / self.unit)  # type: ignore[arg-type]

    def as_dict(self) -> dict:
        """The frame as a page's frame carries it: ``origin`` [x, y, z] and ``unit``."""
        return {"origin": list(self.origin), "unit": self.unit}


def _centre(box: Box) -> Point:
    lo, hi = box
    return tuple(0.5 * lo[k] + 0.5 * hi[k] for k in range(3))  # type: ignore[return-value]


def _size(box: Box) -> float:
    lo, hi = box
    return max(hi[k] - lo[k] for k in range(3))


def frame_for(box: Box) -> LocalFrame:
    """The frame that draws ``box`` (lo (3,), hi (3,), world) near the origin at about unit size: its unit the power
    of two nearest the box's size, its origin the multiple of that unit nearest the box's centre."""
    size = _size(box)
    unit = 2.0 ** round(math.log2(size)) if size > 0 and math.isfinite(size) else 1.0
    return LocalFrame(tuple(round(c / unit) * unit for c in _centre(box)), unit)  # type: ignore[arg-type]
