"""Scene files: JSON in, JSON out, refused with a message naming the problem.

Format ``sphere-explorer/1``::

    {"format": "sphere-explorer/1", "mode": "pair", "horizon": 1.0, "restitution": 1.0,
     "bodies": [{"name": "A", "center": [0, 0, 0], "velocity": [10, 0, 0], "radius": 1.0, "mass": 1.0},
                {"name": "B", "center": [5, 0, 0], "radius": 1.0, "fixed": true}],
     "title": "...", "description": "...", "view": {...}}

Saving writes a temporary file beside the target, flushes it to disk and
renames it over the target, so a crash never leaves a half-written scene.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from .scene import FORMAT, MAX_BODIES, MAX_TEXT, Scene, SceneBody, SceneError

#: Scene files larger than this are refused unread.
MAX_FILE_BYTES = 1 << 20

REQUIRED = ("format", "mode", "horizon", "restitution", "bodies")
OPTIONAL = ("title", "description", "view")
BODY_KEYS = ("name", "center", "velocity", "radius", "mass", "fixed")


class _Constant(ValueError):
    """NaN, Infinity or -Infinity in JSON text (Python's json module accepts them; JSON does not)."""


def _reject_constant(name: str) -> None:
    raise _Constant(name)


def line_of(text: str, index: int) -> int:
    """1-based line number of character ``index`` of ``text``."""
    return text.count("\n", 0, index) + 1


def decode_json(text: str) -> object:
    """Parse JSON text strictly (no NaN or Infinity).

    Raises
    ------
    SceneError
        One line starting with the line number, e.g.
        ``"line 3: not valid JSON: Expecting ',' delimiter (column 7)"``.
    """
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise SceneError(f"line {exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise SceneError("line 1: not valid JSON: nested too deeply") from None
    except _Constant as exc:
        name = str(exc)
        line = line_of(text, max(text.find(name), 0))
        raise SceneError(f"line {line}: not valid JSON: {name} is not a number JSON allows") from None


def parse(text: str) -> Scene:
    """Build a scene from JSON text.

    Raises
    ------
    SceneError
        Naming the problem: invalid JSON, unknown format version, missing or
        unknown keys, wrong types, non-finite numbers, absurd sizes.
    """
    if len(text) > MAX_FILE_BYTES:
        raise SceneError(f"file too large ({len(text)} characters; a scene is at most {MAX_FILE_BYTES} bytes)")
    return from_dict(decode_json(text))


def from_dict(data: Any) -> Scene:
    """Build a scene from a parsed JSON object (see :func:`parse`)."""
    if not isinstance(data, dict):
        raise SceneError(f"expected a JSON object at the top level, got {type(data).__name__}")
    if "format" not in data:
        raise SceneError('missing key "format" (expected "sphere-explorer/1")')
    if data["format"] != FORMAT:
        raise SceneError(f"format: unknown version {data['format']!r} (this program reads {FORMAT!r})")
    for key in REQUIRED:
        if key not in data:
            raise SceneError(f'missing key "{key}"')
    unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise SceneError(f"unknown key {unknown[0]!r}")
    bodies = data["bodies"]
    if not isinstance(bodies, list):
        raise SceneError("bodies: expected a list of bodies")
    if len(bodies) > MAX_BODIES:
        raise SceneError(f"bodies: at most {MAX_BODIES} bodies, got {len(bodies)}")
    for key in ("title", "description"):
        if key in data and not isinstance(data[key], str):
            raise SceneError(f"{key}: expected text")
    view = data.get("view", {})
    if not isinstance(view, dict):
        raise SceneError("view: expected an object")
    if len(json.dumps(view)) > MAX_TEXT * 4:
        raise SceneError("view: too large")
    return Scene(
        mode=data["mode"],
        horizon=data["horizon"],
        restitution=data["restitution"],
        bodies=tuple(_body(item, i) for i, item in enumerate(bodies)),
        title=data.get("title", ""),
        description=data.get("description", ""),
        view=view,
    )


def _body(item: Any, i: int) -> SceneBody:
    where = f"bodies[{i}]"
    if not isinstance(item, dict):
        raise SceneError(f"{where}: expected an object")
    unknown = sorted(set(item) - set(BODY_KEYS))
    if unknown:
        raise SceneError(f"{where}: unknown key {unknown[0]!r}")
    for key in ("center", "radius"):
        if key not in item:
            raise SceneError(f'{where}: missing key "{key}"')
    fixed = item.get("fixed", False)
    if not isinstance(fixed, bool):
        raise SceneError(f"{where}.fixed: expected true or false")
    if fixed and "mass" in item:
        raise SceneError(f'{where}: give either "mass" or "fixed": true, not both')
    mass = math.inf if fixed else item.get("mass", 1.0)
    if not fixed and (isinstance(mass, bool) or not isinstance(mass, (int, float)) or not math.isfinite(mass)):
        raise SceneError(f"{where}.mass: expected a finite number (use \"fixed\": true for an immovable body)")
    center = item["center"]
    velocity = item.get("velocity", [0, 0, 0])
    for key, vector in (("center", center), ("velocity", velocity)):
        if not isinstance(vector, list):
            raise SceneError(f"{where}.{key}: expected a list of 3 numbers, got {vector!r}")
    return SceneBody(
        name=item.get("name", "ABCDEFGH"[i]),
        center=tuple(center),  # type: ignore[arg-type]
        velocity=tuple(velocity),  # type: ignore[arg-type]
        radius=item["radius"],
        mass=mass,
    )


def to_dict(scene: Scene) -> dict[str, Any]:
    """JSON-ready dictionary of ``scene`` (the inverse of :func:`from_dict`)."""
    bodies = []
    for b in scene.bodies:
        entry: dict[str, Any] = {"name": b.name, "center": list(b.center), "velocity": list(b.velocity), "radius": b.radius}
        if b.fixed:
            entry["fixed"] = True
        else:
            entry["mass"] = b.mass
        bodies.append(entry)
    data: dict[str, Any] = {"format": FORMAT}
    if scene.title:
        data["title"] = scene.title
    if scene.description:
        data["description"] = scene.description
    data.update(mode=scene.mode, horizon=scene.horizon, restitution=scene.restitution, bodies=bodies)
    if scene.view:
        data["view"] = scene.view
    return data


def dumps(scene: Scene) -> str:
    """The scene as indented JSON text."""
    return json.dumps(to_dict(scene), indent=2, allow_nan=False) + "\n"


def load(path: str | os.PathLike[str]) -> Scene:
    """Read a scene file.

    Raises
    ------
    SceneError
        For any problem, including unreadable files, naming it in one line.
    """
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise SceneError(f"{path.name}: file too large ({size} bytes; a scene is at most {MAX_FILE_BYTES})")
        raw = path.read_bytes()
    except OSError as exc:
        raise SceneError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SceneError(f"{path.name}: not a text file (invalid UTF-8)") from None
    return parse(text)


def save(scene: Scene, path: str | os.PathLike[str]) -> None:
    """Write ``scene`` to ``path`` atomically (temporary file, fsync, rename).

    Raises
    ------
    SceneError
        When the file cannot be written; the previous file is then untouched.
    """
    path = Path(path)
    text = dumps(scene)
    tmp_name = None
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
        tmp_name = None
    except OSError as exc:
        raise SceneError(f"{path}: cannot write ({exc.strerror or exc})") from None
    finally:
        if tmp_name is not None:
            try:
                os.unlink(tmp_name)
            except OSError:
                pass
