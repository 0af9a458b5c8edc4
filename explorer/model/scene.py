"""The scene model: bodies, mode, horizon, restitution, description and view options.

Qt-free and immutable: every edit returns a new :class:`Scene`, which makes undo
a list of scenes and lets the window, the CLI and the tests share one model.
JSON reading and writing live in :mod:`explorer.scene_io`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from solver import Body

FORMAT = "sphere-explorer/1"
MODES = ("pair", "inside")

#: Limits beyond which a scene is refused as absurd (the solver itself accepts
#: any finite float; these keep the 3-D view and the file sane).
MAX_COORDINATE = 1e12
MIN_RADIUS = 1e-12
MAX_RADIUS = 1e12
MAX_HORIZON = 1e6
MAX_BODIES = 8
MAX_NAME = 40
MAX_TEXT = 4000

#: Layers the view can toggle, with their default visibility.
LAYERS = {
    "capsules": True,
    "minkowski": True,
    "roots": True,
    "contact": True,
    "reflection": True,
    "labels": True,
    "axes": True,
}

Vector3 = tuple[float, float, float]


class SceneError(ValueError):
    """A scene that cannot be used; the message names the field and the problem."""


@dataclass(frozen=True)
class SceneBody:
    """One sphere of a scene.

    Attributes
    ----------
    name : str
    center, velocity : (3,) float
        Velocity is the displacement per frame (time unit).
    radius : float
    mass : float
        ``math.inf`` for a fixed (immovable) body, written ``"fixed": true``.
    """

    name: str
    center: Vector3
    velocity: Vector3 = (0.0, 0.0, 0.0)
    radius: float = 1.0
    mass: float = 1.0

    @property
    def fixed(self) -> bool:
        """True for an immovable body (infinite mass)."""
        return math.isinf(self.mass)

    def to_body(self) -> Body:
        """The solver's view of this sphere."""
        return Body(self.center, self.velocity, self.radius, self.mass)

    def position(self, t: float) -> Vector3:
        """Centre at time ``t``, shape (3,)."""
        c, v = self.center, self.velocity
        return (c[0] + v[0] * t, c[1] + v[1] * t, c[2] + v[2] * t)


@dataclass(frozen=True)
class Scene:
    """A complete configuration the explorer can show and solve.

    Attributes
    ----------
    mode : {"pair", "inside"}
        ``pair``: body 0 (A) against each other body.  ``inside``: body 0 is a
        ball inside body 1, the container.
    horizon : float
        Time window [0, horizon] searched for contact, > 0.
    restitution : float
        In [0, 1], used for the response at each contact.
    bodies : tuple of SceneBody
        ``pair``: 2 to :data:`MAX_BODIES`; ``inside``: exactly 2.
    title, description : str
        Shown to the user (the description is written for a teacher to read aloud).
    view : dict
        Optional view state (camera, layers, time, frame); free-form but
        JSON-serialisable.
    """

    mode: Literal["pair", "inside"]
    horizon: float
    restitution: float
    bodies: tuple[SceneBody, ...]
    title: str = ""
    description: str = ""
    view: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        validate(self)

    # -- edits (each returns a new scene) ----------------------------------
    def with_body(self, index: int, **changes: Any) -> "Scene":
        """A copy with body ``index`` changed (``center=``, ``velocity=``, ``radius=``, ...)."""
        bodies = list(self.bodies)
        bodies[index] = replace(bodies[index], **changes)
        return replace(self, bodies=tuple(bodies))

    def with_changes(self, **changes: Any) -> "Scene":
        """A copy with scene-level fields changed (``horizon=``, ``mode=``, ...)."""
        return replace(self, **changes)

    def with_added_body(self) -> "Scene":
        """A copy with one more target sphere placed clear of the others (pair mode only)."""
        if self.mode != "pair":
            raise SceneError("bodies: inside mode has exactly a ball and its container")
        if len(self.bodies) >= MAX_BODIES:
            raise SceneError(f"bodies: at most {MAX_BODIES} bodies")
        taken = {b.name for b in self.bodies}
        name = next(ch for ch in "BCDEFGHIJKLMNOPQRSTUVWXYZ" if ch not in taken)
        last = self.bodies[-1]
        far = max(abs(c) + b.radius for b in self.bodies for c in b.center)
        center = (last.center[0], last.center[1] + far + 2.0 * last.radius, last.center[2])
        return replace(self, bodies=(*self.bodies, SceneBody(name, center, (0.0, 0.0, 0.0), last.radius, 1.0)))

    def without_body(self, index: int) -> "Scene":
        """A copy without body ``index`` (never A, never below two bodies)."""
        if index == 0:
            raise SceneError("bodies[0]: body A cannot be removed")
        if len(self.bodies) <= 2:
            raise SceneError("bodies: a scene needs at least two bodies")
        return replace(self, bodies=self.bodies[:index] + self.bodies[index + 1 :])

    @property
    def layers(self) -> dict[str, bool]:
        """Visibility of each view layer (defaults filled in)."""
        stored = self.view.get("layers", {}) if isinstance(self.view.get("layers"), dict) else {}
        return {name: bool(stored.get(name, default)) for name, default in LAYERS.items()}


def _vector(value: Any, where: str, limit: float) -> Vector3:
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise SceneError(f"{where}: expected a list of 3 numbers, got {value!r}")
    out = []
    for item in value:
        out.append(_number(item, where))
    if any(abs(x) > limit for x in out):
        raise SceneError(f"{where}: components must be within ±{limit:g}, got {out}")
    return (out[0], out[1], out[2])


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SceneError(f"{where}: expected a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise SceneError(f"{where}: must be finite, got {value!r}")
    return number


def validate(scene: Scene) -> None:
    """Check every field of ``scene``; raise :class:`SceneError` naming the first bad one.

    Also normalises numbers to floats and vectors to tuples in place (the
    dataclass is frozen, so through ``object.__setattr__``).
    """
    if scene.mode not in MODES:
        raise SceneError(f"mode: expected one of {', '.join(MODES)}, got {scene.mode!r}")
    horizon = _number(scene.horizon, "horizon")
    if not 0.0 < horizon <= MAX_HORIZON:
        raise SceneError(f"horizon: must be in (0, {MAX_HORIZON:g}], got {horizon!r}")
    restitution = _number(scene.restitution, "restitution")
    if not 0.0 <= restitution <= 1.0:
        raise SceneError(f"restitution: must be in [0, 1], got {restitution!r}")
    for key, text in (("title", scene.title), ("description", scene.description)):
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            raise SceneError(f"{key}: expected text of at most {MAX_TEXT} characters")
    if not isinstance(scene.view, dict):
        raise SceneError("view: expected an object")
    bodies = tuple(scene.bodies)
    if scene.mode == "inside" and len(bodies) != 2:
        raise SceneError(f"bodies: inside mode needs exactly 2 bodies (ball, container), got {len(bodies)}")
    if not 2 <= len(bodies) <= MAX_BODIES:
        raise SceneError(f"bodies: expected 2 to {MAX_BODIES} bodies, got {len(bodies)}")
    names = set()
    checked = []
    for i, body in enumerate(bodies):
        where = f"bodies[{i}]"
        if not isinstance(body, SceneBody):
            raise SceneError(f"{where}: expected a body")
        if not isinstance(body.name, str) or not 0 < len(body.name) <= MAX_NAME:
            raise SceneError(f"{where}.name: expected a name of 1 to {MAX_NAME} characters")
        if body.name in names:
            raise SceneError(f"{where}.name: duplicate name {body.name!r}")
        names.add(body.name)
        center = _vector(body.center, f"{where}.center", MAX_COORDINATE)
        velocity = _vector(body.velocity, f"{where}.velocity", MAX_COORDINATE)
        radius = _number(body.radius, f"{where}.radius")
        if not MIN_RADIUS <= radius <= MAX_RADIUS:
            raise SceneError(f"{where}.radius: must be in [{MIN_RADIUS:g}, {MAX_RADIUS:g}], got {radius!r}")
        mass = body.mass
        if not (isinstance(mass, (int, float)) and not isinstance(mass, bool)) or math.isnan(mass) or mass <= 0:
            raise SceneError(f"{where}.mass: must be positive, got {mass!r}")
        checked.append(SceneBody(body.name, center, velocity, radius, float(mass)))
    if scene.mode == "inside" and not checked[1].radius > checked[0].radius:
        raise SceneError(
            f"bodies[1].radius: the container must be larger than the ball "
            f"({checked[1].radius:g} <= {checked[0].radius:g})"
        )
    object.__setattr__(scene, "horizon", horizon)
    object.__setattr__(scene, "restitution", restitution)
    object.__setattr__(scene, "bodies", tuple(checked))
