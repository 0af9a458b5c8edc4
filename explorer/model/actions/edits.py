"""What each edit of the scene makes of it: the new scene and the undo label, refused with a SceneError.

The session applies them (:mod:`explorer.model.actions.session`); they only compute.
Qt-free.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

from solver import vec

from ..derived.precision import nudge_graze, translate
from ..state.scene import Scene, SceneError

#: Fields a user can type into, by edit name: scene-level, or of the selected body.
FIELDS = ("horizon", "restitution", "body.radius", "body.mass") + tuple(
    f"body.{key}.{k}" for key in ("center", "velocity") for k in range(3)
)

#: An edit: the new scene and its undo label.
Edit = tuple[Scene, str]


def parse_number(text: str, field: str) -> float:
    """The typed text as a finite float, or :class:`SceneError` naming ``field``.  Spaces around it and a decimal
    comma are fine; ``1_0``, which Python's ``float`` reads as 10, is a typing slip and refused."""
    stripped = text.strip()
    try:
        if "_" in stripped:
            raise ValueError(stripped)
        value = float(stripped.replace(",", "."))
    except ValueError:
        raise SceneError(f"{field}: {stripped[:40]!r} is not a number") from None
    if not math.isfinite(value):
        raise SceneError(f"{field}: must be finite")
    return value


def typed(scene: Scene, index: int, field: str, text: str) -> Edit:
    """A typed value in ``field`` (one of :data:`FIELDS`; ``body.*`` is body ``index``)."""
    if field not in FIELDS:
        raise SceneError(f"{field}: not a field that can be edited")
    named = field.replace("body.", f"{scene.bodies[index].name}.")
    value = parse_number(text, named)
    if field in ("horizon", "restitution"):
        return scene.with_changes(**{field: value}), f"edit {field}"
    if field in ("body.radius", "body.mass"):
        return scene.with_body(index, **{field[5:]: value}), f"edit {field[5:]}"
    _, key, k = field.split(".")
    vector = list(getattr(scene.bodies[index], key))
    vector[int(k)] = value
    return scene.with_body(index, **{key: tuple(vector)}), f"edit {key}"


def fixed(scene: Scene, index: int, on: bool) -> Edit:
    """Body ``index`` immovable (infinite mass), or given mass 1."""
    return scene.with_body(index, mass=math.inf if on else 1.0), "fixed" if on else "movable"


def container(scene: Scene, index: int, on: bool) -> Edit:
    """``all`` mode: body ``index`` the container every other body moves inside (or none)."""
    bodies = [replace(b, container=(i == index and on)) for i, b in enumerate(scene.bodies)]
    return scene.with_changes(bodies=tuple(bodies)), "container" if on else "no container"


def translated(scene: Scene, power: int) -> Edit:
    """Every centre moved by 2**power on each axis (exact: the geometry is unchanged)."""
    offset = float(2**power)
    return translate(scene, (offset, offset, offset)), f"translate by 2^{power}"


def nudged(scene: Scene, ulps: int, other: int) -> Edit:
    """Body ``other`` moved by ``ulps`` ulps away from (+) or towards (−) A's path."""
    try:
        return nudge_graze(scene, ulps, other), f"nudge {ulps:+d} ulp"
    except ValueError as exc:
        raise SceneError(str(exc)) from None


@dataclass(frozen=True)
class Drag:
    """A drag in progress: a body's centre or velocity-arrow tip, the scene it started from, and
    where the grip was drawn then, ``start`` (3,)."""

    body: int
    kind: Literal["center", "velocity"]
    origin: Scene
    start: tuple[float, float, float]

    def moved_to(self, point) -> Scene:
        """The scene with the grip at ``point`` (3,), as drawn (any time, any frame).

        The grip moved by ``delta`` where it is drawn; the body's centre at
        t = 0 (or its velocity times the horizon, for a tip) moves by the same.
        """
        body = self.origin.bodies[self.body]
        delta = vec.sub(tuple(map(float, point)), self.start)
        if self.kind == "center":
            return self.origin.with_body(self.body, center=vec.add(body.center, delta))
        velocity = vec.add(body.velocity, tuple(d / self.origin.horizon for d in delta))
        return self.origin.with_body(self.body, velocity=velocity)

    def label(self, scene: Scene) -> str:
        return f"drag {scene.bodies[self.body].name} {'centre' if self.kind == 'center' else 'velocity'}"
