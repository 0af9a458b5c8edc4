"""The scene model: bodies, mode, horizon, restitution, description and view options.

Qt-free and immutable: every edit returns a new :class:`Scene`, which makes undo
a list of scenes and lets the window, the CLI and the tests share one model.
JSON reading and writing live in :mod:`explorer.model.formats.scene_io`.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Callable, Literal

from solver import Body, limits  # limits: the one rule for every quantity, shared with the solver

FORMAT = "sphere-explorer/1"
MODES = ("pair", "inside", "all")

#: Ranges of the physical quantities: the solver's (see :mod:`solver.limits`).
MAX_COORDINATE = limits.MAX_COORDINATE
MIN_RADIUS = limits.MIN_RADIUS
MAX_RADIUS = limits.MAX_RADIUS
MIN_MASS = limits.MIN_MASS
MAX_MASS = limits.MAX_MASS
MAX_HORIZON = limits.MAX_HORIZON
#: Limits of the file itself (sizes the 3-D view, the panels and the file stay sane with).
MAX_BODIES = 16
MAX_NAME = 40
MAX_TEXT = 4000
#: The ``view`` object: nesting depth, number of values and size of its JSON text.
MAX_VIEW_DEPTH = 6
MAX_VIEW_ITEMS = 1000
MAX_VIEW_TEXT = 4 * MAX_TEXT

#: Layers the view can toggle, with their default visibility.
LAYERS = {
    "capsules": True,
    "minkowski": True,
    "roots": True,
    "contact": True,
    "reflection": True,
    "labels": True,
    "axes": True,
    "steps": False,
    "conserved": False,
    "momentum": False,
}
#: The frame-stepped layer: steps over the horizon a fixed-step engine takes, by default and at most.
DEFAULT_STEPS = 8
MAX_STEPS = 1000

Vector3 = tuple[float, float, float]


#: Where in a scene a problem is: keys and indices, e.g. ``("bodies", 1, "radius")``.
Location = tuple[str | int, ...]


def format_location(path: Location) -> str:
    """``("bodies", 1, "radius")`` as ``"bodies[1].radius"`` (the form messages use)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


class SceneError(ValueError):
    """A scene that cannot be used; the message (one line) names the field and the problem.

    Attributes
    ----------
    path : tuple of str and int
        Where the problem is, e.g. ``("bodies", 1, "radius")`` or ``("view", "camera",
        "position")``; ``()`` for the text or file as a whole (its size, its JSON).
    line : int or None
        1-based line of the text where it is known (JSON syntax, pasted lines).
    reason : str
        The problem without its location, e.g. ``"must be in [1e-12, 1e+12], got -1.0"``.
    """

    def __init__(self, message: str, path: Location = (), line: int | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.path: Location = tuple(path)
        self.line = line
        self.reason = message if reason is None else reason

    @classmethod
    def at(cls, path: Location, reason: str, line: int | None = None) -> "SceneError":
        """The error ``"<location>: <reason>"`` for ``path`` (reason shortened to one short line)."""
        reason = _one_line(reason)
        where = format_location(path)
        return cls(f"{where}: {reason}" if where else reason, path, line, reason)


#: Longest reason a message carries (a hostile value is shown cut short, never whole).
_MAX_REASON = 240


def short_repr(value: Any) -> str:
    """``repr(value)`` cut to 60 characters, for messages."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _one_line(text: str) -> str:
    text = " ".join(text.split("\n"))
    return text if len(text) <= _MAX_REASON else text[: _MAX_REASON - 1] + "…"


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
    container : bool
        ``all`` mode: every other body moves inside this one (written
        ``"container": true``; at most one, never body A).
    """

    name: str
    center: Vector3
    velocity: Vector3 = (0.0, 0.0, 0.0)
    radius: float = 1.0
    mass: float = 1.0
    container: bool = False

    @property
    def fixed(self) -> bool:
        """True for an immovable body (infinite mass)."""
        return math.isinf(self.mass)

    def to_body(self) -> Body:
        """The solver's view of this sphere (made and checked once: both are immutable, and a drag solves the
        scene again at every move with all bodies but one unchanged)."""
        return self._solver_body

    @cached_property
    def _solver_body(self) -> Body:
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
    mode : {"pair", "inside", "all"}
        ``pair``: body 0 (A) against each other body (the others pass through
        one another).  ``inside``: body 0 is a ball inside body 1, the
        container.  ``all``: every body against every other, and against the
        wall of the container if one body is marked as it.
    horizon : float
        Time window [0, horizon] searched for contact, > 0.
    restitution : float
        In [0, 1], used for the response at each contact.
    bodies : tuple of SceneBody
        ``pair`` and ``all``: 2 to :data:`MAX_BODIES`; ``inside``: exactly 2.
    title, description : str
        Shown to the user (the description is written for a teacher to read aloud).
    question : str
        Asked in question mode before the answer is shown (empty: a question worded from the mode,
        :func:`explorer.model.actions.asking.question_text`); text like the title, never markup.
    view : dict
        Optional view state (camera, layers, time, frame); free-form but
        JSON-serialisable.
    """

    mode: Literal["pair", "inside", "all"]
    horizon: float
    restitution: float
    bodies: tuple[SceneBody, ...]
    title: str = ""
    description: str = ""
    view: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    question: str = ""

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
        """A copy with one more target sphere placed clear of the others (not in inside mode); with a container,
        a ball inside it, clear of its wall and of the balls already there."""
        if self.mode == "inside":
            raise SceneError.at(("bodies",), "inside mode has exactly a ball and its container")
        if len(self.bodies) >= MAX_BODIES:
            raise SceneError.at(("bodies",), f"at most {MAX_BODIES} bodies")
        taken = {b.name for b in self.bodies}
        name = next(ch for ch in "BCDEFGHIJKLMNOPQRSTUVWXYZ" if ch not in taken)
        if self.container is not None:
            return replace(self, bodies=(*self.bodies, self._body_inside_container(name)))
        last = self.bodies[-1]
        far = max(abs(c) + b.radius for b in self.bodies for c in b.center)
        center = (last.center[0], last.center[1] + far + 2.0 * last.radius, last.center[2])
        return replace(self, bodies=(*self.bodies, SceneBody(name, center, (0.0, 0.0, 0.0), last.radius, 1.0)))

    def _body_inside_container(self, name: str) -> SceneBody:
        """A ball at rest named ``name`` inside the container, clear of the wall and of every ball in it: the size
        of the smallest ball, at the first free point of a lattice of its diameter (centre outwards)."""
        wall = self.bodies[self.container]
        balls = [b for b in self.bodies if not b.container]
        r = min(b.radius for b in balls)
        reach = wall.radius - r
        steps = int(reach // (2.0 * r))
        lattice = sorted(((i, j, k) for i in range(-steps, steps + 1) for j in range(-steps, steps + 1)
                          for k in range(-steps, steps + 1)), key=lambda p: (p[0] ** 2 + p[1] ** 2 + p[2] ** 2, p))  # fmt: skip
        for i, j, k in lattice:
            c = (wall.center[0] + 2.0 * r * i, wall.center[1] + 2.0 * r * j, wall.center[2] + 2.0 * r * k)
            inside = math.dist(c, wall.center) <= reach
            if inside and all(math.dist(c, b.center) >= 1.01 * (r + b.radius) for b in balls):
                return SceneBody(name, c, (0.0, 0.0, 0.0), r, 1.0)
        raise SceneError.at(("bodies",), f"no room for another ball of radius {r:g} inside the container {wall.name}")

    def without_body(self, index: int) -> "Scene":
        """A copy without body ``index`` (never A, never below two bodies)."""
        if index == 0:
            raise SceneError.at(("bodies", 0), "body A cannot be removed")
        if self.mode == "all" and len(self.bodies) <= 2 + any(b.container for b in self.bodies):
            raise SceneError.at(("bodies",), "a scene needs at least two bodies besides its container")
        if len(self.bodies) <= 2:
            raise SceneError.at(("bodies",), "a scene needs at least two bodies")
        return replace(self, bodies=self.bodies[:index] + self.bodies[index + 1 :])

    @property
    def steps(self) -> int:
        """Steps of the frame-stepped engine kept in the view (default :data:`DEFAULT_STEPS`)."""
        return view_settings(self.view)["steps"]

    @property
    def layers(self) -> dict[str, bool]:
        """Visibility of each view layer (defaults filled in)."""
        return view_settings(self.view)["layers"]

    @cached_property  # asked dozens of times a frame while a drag draws a scene (which never changes)
    def container(self) -> int | None:
        """Index of the body the others move inside: body 1 in ``inside`` mode, the marked one in
        ``all`` mode, None otherwise."""
        if self.mode == "inside":
            return 1
        return next((i for i, b in enumerate(self.bodies) if b.container), None)


def _check(check: Callable[[Any, str], Any], value: Any, path: Location) -> Any:
    """Apply one of :mod:`solver.limits`' checks, its ValueError turned into a located SceneError."""
    try:
        return check(value, _FIELD)  # the location is spelled out only for an error
    except ValueError as exc:
        reason = str(exc)
        if reason.startswith(_FIELD + ": "):
            reason = reason[len(_FIELD) + 2 :]
        raise SceneError.at(path, reason.replace(_FIELD, format_location(path))) from None


_FIELD = "\x00field"


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_CONTROL_IN_NAME = re.compile(r"[\x00-\x1f\x7f]")


def _valid_text(text: str, path: Location, control: re.Pattern[str] = _CONTROL) -> None:
    """Refuse lone surrogates (not Unicode: unwritable as UTF-8) and control characters."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise SceneError.at(
            path, f"not valid Unicode text: lone surrogate {text[exc.start]!r} at character {exc.start + 1}"
        ) from None
    bad = control.search(text)
    if bad:
        raise SceneError.at(path, f"control character {bad.group()!r} at character {bad.start() + 1}")


def _view_data(value: Any, path: Location, depth: int, count: list[int]) -> None:
    """Plain JSON data: finite numbers, valid text, true/false/null, lists and objects, bounded."""
    count[0] += 1
    if count[0] > MAX_VIEW_ITEMS:
        raise SceneError.at(("view",), f"too large (more than {MAX_VIEW_ITEMS} values)")
    if depth > MAX_VIEW_DEPTH:
        raise SceneError.at(path, f"nested too deeply (at most {MAX_VIEW_DEPTH} levels)")
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:
            raise SceneError.at(path, "number too large") from None
        if not math.isfinite(number):
            raise SceneError.at(path, f"must be finite, got {value!r}")
        return
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise SceneError.at(path, f"expected text of at most {MAX_TEXT} characters")
        _valid_text(value, path)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or not 0 < len(key) <= MAX_NAME:
                raise SceneError.at(path, f"expected names of 1 to {MAX_NAME} characters as keys, got {key!r}")
            _valid_text(key, path, _CONTROL_IN_NAME)
            _view_data(item, (*path, key), depth + 1, count)
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _view_data(item, (*path, i), depth + 1, count)
        return
    raise SceneError.at(
        path, f"expected JSON data (numbers, text, true/false, lists, objects), got {type(value).__name__}"
    )


def check_steps(value: Any, path: Location) -> int:
    """N of the frame-stepped engine: a whole number from 1 to :data:`MAX_STEPS` (SceneError naming ``path``)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_STEPS:
        raise SceneError.at(path, f"expected a whole number from 1 to {MAX_STEPS}, got {short_repr(value)}")
    return value


def check_layer(name: Any, path: Location) -> str:
    """A layer's name, one of :data:`LAYERS` (SceneError naming ``path``)."""
    if name not in LAYERS:
        raise SceneError.at(path, f"unknown layer {short_repr(name)} (expected one of {', '.join(LAYERS)})")
    return name


def check_camera(camera: Any, path: Location) -> dict[str, list[float]]:
    """A camera: ``position`` and ``focal_point`` within the coordinate range and apart, ``up`` (default +z)
    a direction off the line of sight.  Returns it with every field filled in, as lists of floats.

    Raises
    ------
    SceneError
        Naming the field under ``path``.
    """
    if not isinstance(camera, dict):
        raise SceneError.at(path, "expected an object with position, focal_point and up")
    unknown = sorted(set(camera) - {"position", "focal_point", "up"})
    if unknown:
        raise SceneError.at(path, f"unknown key {unknown[0]!r} (expected position, focal_point, up)")
    for key in ("position", "focal_point"):
        if key not in camera:
            raise SceneError.at((*path, key), "missing")
    position = _check(limits.check_vector, camera["position"], (*path, "position"))
    focal = _check(limits.check_vector, camera["focal_point"], (*path, "focal_point"))
    up = _check(limits.check_direction, camera.get("up", (0.0, 0.0, 1.0)), (*path, "up"))
    sight = [f - p for f, p in zip(focal, position)]
    if not any(sight):
        raise SceneError.at((*path, "position"), "must differ from focal_point")
    cross = (
        sight[1] * up[2] - sight[2] * up[1],
        sight[2] * up[0] - sight[0] * up[2],
        sight[0] * up[1] - sight[1] * up[0],
    )
    if not any(cross):
        raise SceneError.at((*path, "up"), "must not lie along the line of sight")
    return {"position": list(position), "focal_point": list(focal), "up": list(camera.get("up", (0.0, 0.0, 1.0)))}


def view_settings(view: dict[str, Any]) -> dict[str, Any]:
    """What the program reads from a (validated) ``view`` block: ``layers`` (every layer, defaults filled
    in), ``steps`` (default :data:`DEFAULT_STEPS`), ``camera`` (None without one) and ``ask`` (the scene opens
    asking its question; default false)."""
    stored = view.get("layers", {})
    return {
        "layers": {name: bool(stored.get(name, default)) for name, default in LAYERS.items()},
        "steps": view.get("steps", DEFAULT_STEPS),
        "camera": check_camera(view["camera"], ("view", "camera")) if "camera" in view else None,
        "ask": view.get("ask", False),
    }


def validate_view(view: Any) -> None:
    """Check a scene's ``view`` object; raise :class:`SceneError` naming the first bad field.

    Any key may hold plain JSON data (finite numbers, valid text, bounded size and
    depth); the keys the program reads are checked in full, each by its one rule:
    ``camera`` (:func:`check_camera`), ``layers`` (names of :data:`LAYERS` to
    true/false, :func:`check_layer`), ``steps`` (:func:`check_steps`) and ``ask`` (true or false).
    """
    if not isinstance(view, dict):
        raise SceneError.at(("view",), "expected an object")
    _view_data(view, ("view",), 0, [0])
    if "camera" in view:
        check_camera(view["camera"], ("view", "camera"))
    if "layers" in view:
        layers = view["layers"]
        if not isinstance(layers, dict):
            raise SceneError.at(("view", "layers"), "expected an object of layer names and true/false")
        for name, shown in layers.items():
            check_layer(name, ("view", "layers", name))
            if not isinstance(shown, bool):
                raise SceneError.at(("view", "layers", name), f"expected true or false, got {shown!r}")
    if "steps" in view:
        check_steps(view["steps"], ("view", "steps"))
    if "ask" in view and not isinstance(view["ask"], bool):
        raise SceneError.at(("view", "ask"), f"expected true or false, got {short_repr(view['ask'])}")
    if len(json.dumps(view, allow_nan=False)) > MAX_VIEW_TEXT:
        raise SceneError.at(("view",), f"too large (more than {MAX_VIEW_TEXT} characters)")


def _validate_container(mode: str, bodies: list[SceneBody]) -> None:
    """``all`` mode: at most one container, never A, larger than every body it holds, and two balls besides it."""
    marked = [i for i, b in enumerate(bodies) if b.container]
    if not marked:
        return
    if mode != "all":
        raise SceneError.at(
            ("bodies", marked[0], "container"), 'only "all" mode marks a container (inside mode: body 1 is it)'
        )
    if len(marked) > 1:
        raise SceneError.at(("bodies", marked[1], "container"), "at most one container")
    k = marked[0]
    if k == 0:
        raise SceneError.at(("bodies", 0, "container"), "body A moves; it cannot be the container")
    if len(bodies) < 3:
        raise SceneError.at(("bodies",), "a container needs at least two bodies inside it")
    for i, b in enumerate(bodies):
        if i != k and not b.radius < bodies[k].radius:
            raise SceneError.at(
                ("bodies", k, "radius"),
                f"the container must be larger than {b.name} ({bodies[k].radius:g} <= {b.radius:g})",
            )


def _holds(body: SceneBody, normalised: tuple) -> bool:
    """True if ``body`` already holds exactly the ``normalised`` (centre, velocity, radius, mass): floats, and
    vectors as tuples of floats.  It is then kept as it is (with what it has cached: its solver body)."""
    own = (body.center, body.velocity, body.radius, body.mass)  # a list is never equal to its tuple
    return own == normalised and all(type(x) is float for x in (*body.center, *body.velocity, body.radius, body.mass))


def validate(scene: Scene) -> None:
    """Check every field of ``scene``; raise :class:`SceneError` naming the first bad one.

    Masses, radii, coordinates, velocities, the horizon and the restitution are
    checked by :mod:`solver.limits`, the solver's own rule, so a scene accepted here
    is one the solver handles.  Also normalises numbers to floats and vectors to
    tuples in place (the dataclass is frozen, so through ``object.__setattr__``).
    """
    if not isinstance(scene.mode, str) or scene.mode not in MODES:
        raise SceneError.at(("mode",), f"expected one of {', '.join(MODES)}, got {scene.mode!r}")
    horizon = _check(limits.check_horizon, scene.horizon, ("horizon",))
    restitution = _check(limits.check_restitution, scene.restitution, ("restitution",))
    for key, text in (("title", scene.title), ("description", scene.description), ("question", scene.question)):
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            raise SceneError.at((key,), f"expected text of at most {MAX_TEXT} characters")
        _valid_text(text, (key,))
    validate_view(scene.view)
    try:
        bodies = tuple(scene.bodies)
    except TypeError:
        raise SceneError.at(("bodies",), "expected a list of bodies") from None
    if scene.mode == "inside" and len(bodies) != 2:
        raise SceneError.at(("bodies",), f"inside mode needs exactly 2 bodies (ball, container), got {len(bodies)}")
    if not 2 <= len(bodies) <= MAX_BODIES:
        raise SceneError.at(("bodies",), f"expected 2 to {MAX_BODIES} bodies, got {len(bodies)}")
    names = set()
    checked = []
    for i, body in enumerate(bodies):
        if not isinstance(body, SceneBody):
            raise SceneError.at(("bodies", i), "expected a body")
        if not isinstance(body.name, str) or not 0 < len(body.name) <= MAX_NAME:
            raise SceneError.at(("bodies", i, "name"), f"expected a name of 1 to {MAX_NAME} characters")
        _valid_text(body.name, ("bodies", i, "name"), _CONTROL_IN_NAME)
        if body.name in names:
            raise SceneError.at(("bodies", i, "name"), f"duplicate name {body.name!r}")
        names.add(body.name)
        center = _check(limits.check_vector, body.center, ("bodies", i, "center"))
        velocity = _check(limits.check_velocity, body.velocity, ("bodies", i, "velocity"))
        radius = _check(limits.check_radius, body.radius, ("bodies", i, "radius"))
        mass = _check(limits.check_mass, body.mass, ("bodies", i, "mass"))
        if not isinstance(body.container, bool):
            raise SceneError.at(("bodies", i, "container"), "expected true or false")
        normalised = (center, velocity, radius, mass)
        checked.append(body if _holds(body, normalised) else SceneBody(body.name, *normalised, body.container))
    _validate_container(scene.mode, checked)
    if scene.mode == "inside" and not checked[1].radius > checked[0].radius:
        raise SceneError.at(
            ("bodies", 1, "radius"),
            f"the container must be larger than the ball ({checked[1].radius:g} <= {checked[0].radius:g})",
        )
    object.__setattr__(scene, "horizon", horizon)
    object.__setattr__(scene, "restitution", restitution)
    object.__setattr__(scene, "bodies", tuple(checked))
