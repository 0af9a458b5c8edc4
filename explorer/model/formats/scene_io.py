"""Scene files: JSON in, JSON out, refused with a message naming the problem.

Format ``sphere-explorer/1``::

    {"format": "sphere-explorer/1", "mode": "pair", "horizon": 1.0, "restitution": 1.0,
     "bodies": [{"name": "A", "center": [0, 0, 0], "velocity": [10, 0, 0], "radius": 1.0, "mass": 1.0},
                {"name": "B", "center": [5, 0, 0], "radius": 1.0, "fixed": true}],
     "title": "...", "description": "...", "question": "...", "view": {...}}

Reading refuses anything but a regular file of at most :data:`MAX_FILE_BYTES`
(never blocking on a FIFO, never reading a device), strict JSON only (no NaN,
no duplicate keys, no absurdly long number literals), then the scene model's
validation (:func:`explorer.model.state.scene.validate`).

Writing (:func:`save`) goes through the program's one safe writer,
:mod:`explorer.system.files`, whose docstring gives the policy (temporary file,
fsync, rename; the file's mode kept; a symbolic link written through).
"""

from __future__ import annotations

import json
import os
import stat
import string
from pathlib import Path
from typing import Any

from ...system.files import TEMP_TAG, WriteError, clean_stale_temps, kind_of, os_reason, replacing, show_path
from ..state.scene import FORMAT, MAX_BODIES, Scene, SceneBody, SceneError, short_repr

__all__ = ["TEMP_TAG", "clean_stale_temps", "decode_json", "dumps", "from_dict", "load", "parse",
           "save", "show_path", "to_dict"]  # fmt: skip

#: Scene files (and pasted text) larger than this are refused unread.
MAX_FILE_BYTES = 1 << 20
#: Longest integer literal (digits) and number literal (characters) accepted in JSON.
#: Every quantity of a scene is within 1e12, so longer literals are always refused anyway;
#: refusing them early keeps Python's int parser (4300-digit limit) out of it.
MAX_INT_DIGITS = 40
MAX_NUMBER_CHARS = 100

REQUIRED = ("format", "mode", "horizon", "restitution", "bodies")
OPTIONAL = ("title", "description", "question", "view")
BODY_KEYS = ("name", "center", "velocity", "radius", "mass", "fixed", "container")


# -- JSON text --------------------------------------------------------------------------


class _Refused(ValueError):
    """A JSON literal refused by a hook of :func:`decode_json`: (literal, reason)."""


def _reject_constant(name: str) -> None:
    raise _Refused(name, f"{name} is not a number JSON allows")


def _parse_int(literal: str) -> int:
    digits = len(literal.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _Refused(literal, f"integer literal of {digits} digits is too long (at most {MAX_INT_DIGITS})")
    return int(literal)


def _parse_float(literal: str) -> float:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _Refused(literal, f"number literal of {len(literal)} characters is too long (at most {MAX_NUMBER_CHARS})")
    number = float(literal)
    if number in (float("inf"), float("-inf")):
        raise _Refused(literal, f"number {literal} is beyond the float range (±1.8e308)")
    return number


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Refused(json.dumps(key), f"key {_short_text(key)} given twice")
        out[key] = value
    return out


def _short_text(text: str) -> str:
    shown = repr(text)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def line_of(text: str, index: int) -> int:
    """1-based line number of character ``index`` of ``text``."""
    return text.count("\n", 0, index) + 1


def decode_json(text: str) -> object:
    """Parse JSON text strictly: no NaN or Infinity, no duplicate keys, no absurd literals.

    Raises
    ------
    SceneError
        One line starting with the line number, e.g.
        ``"line 3: not valid JSON: Expecting ',' delimiter (column 7)"``; its
        ``line`` attribute holds the number.
    """
    try:
        return json.loads(
            text, parse_constant=_reject_constant, parse_int=_parse_int, parse_float=_parse_float,
            object_pairs_hook=_no_duplicates,
        )  # fmt: skip
    except json.JSONDecodeError as exc:
        raise SceneError(
            f"line {exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno
        ) from None
    except RecursionError:
        raise SceneError("line 1: not valid JSON: nested too deeply", line=1) from None
    except _Refused as exc:
        literal, reason = exc.args
        line = line_of(text, max(text.find(literal), 0))
        raise SceneError(f"line {line}: not valid JSON: {reason}", line=line) from None


def parse(text: str) -> Scene:
    """Build a scene from JSON text.

    Raises
    ------
    SceneError
        Naming the problem: invalid JSON, unknown format version, missing or
        unknown keys, wrong types, non-finite or out-of-range numbers, invalid
        text, absurd sizes.
    """
    if not isinstance(text, str):
        raise SceneError(f"expected text, got {type(text).__name__}")
    if len(text) > MAX_FILE_BYTES:
        raise SceneError(f"file too large ({len(text):,} characters; a scene file is at most {MAX_FILE_BYTES:,} bytes)")
    return from_dict(decode_json(text))


def from_dict(data: Any) -> Scene:
    """Build a scene from a parsed JSON object (see :func:`parse`).

    The file's structure (keys, lists, ``fixed``) is checked here; every value
    by the scene model (:func:`explorer.model.state.scene.validate`).
    """
    if not isinstance(data, dict):
        raise SceneError(f"expected a JSON object at the top level, got {type(data).__name__}")
    if "format" not in data:
        raise SceneError('missing key "format" (expected "sphere-explorer/1")')
    if data["format"] != FORMAT:
        raise SceneError.at(
            ("format",), f"unknown version {short_repr(data['format'])} (this program reads {FORMAT!r})"
        )
    for key in REQUIRED:
        if key not in data:
            raise SceneError(f'missing key "{key}"')
    unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise SceneError(f"unknown key {short_repr(unknown[0])}", path=(unknown[0],))
    bodies = data["bodies"]
    if not isinstance(bodies, list):
        raise SceneError.at(("bodies",), "expected a list of bodies")
    if len(bodies) > MAX_BODIES:
        raise SceneError.at(("bodies",), f"at most {MAX_BODIES} bodies, got {len(bodies)}")
    return Scene(
        mode=data["mode"],
        horizon=data["horizon"],
        restitution=data["restitution"],
        bodies=tuple(_body(item, i) for i, item in enumerate(bodies)),
        title=data.get("title", ""),
        description=data.get("description", ""),
        view=data.get("view", {}),
        question=data.get("question", ""),
    )


def _body(item: Any, i: int) -> SceneBody:
    if not isinstance(item, dict):
        raise SceneError.at(("bodies", i), "expected an object")
    unknown = sorted(set(item) - set(BODY_KEYS))
    if unknown:
        raise SceneError.at(("bodies", i), f"unknown key {short_repr(unknown[0])}")
    for key in ("center", "radius"):
        if key not in item:
            raise SceneError.at(("bodies", i), f'missing key "{key}"')
    fixed = item.get("fixed", False)
    if not isinstance(fixed, bool):
        raise SceneError.at(("bodies", i, "fixed"), "expected true or false")
    if fixed and "mass" in item:
        raise SceneError.at(("bodies", i), 'give either "mass" or "fixed": true, not both')
    vectors = {}
    for key in ("center", "velocity"):
        vector = item.get(key, [0, 0, 0])
        if not isinstance(vector, list):
            raise SceneError.at(("bodies", i, key), f"expected a list of 3 numbers, got {short_repr(vector)}")
        vectors[key] = tuple(vector)
    return SceneBody(
        name=item.get("name", string.ascii_uppercase[i]),
        center=vectors["center"],  # type: ignore[arg-type]
        velocity=vectors["velocity"],  # type: ignore[arg-type]
        radius=item["radius"],
        mass=float("inf") if fixed else item.get("mass", 1.0),
        container=item.get("container", False),
    )


def to_dict(scene: Scene) -> dict[str, Any]:
    """JSON-ready dictionary of ``scene`` (the inverse of :func:`from_dict`)."""
    bodies = []
    for b in scene.bodies:
        entry: dict[str, Any] = {
            "name": b.name,
            "center": list(b.center),
            "velocity": list(b.velocity),
            "radius": b.radius,
        }
        if b.fixed:
            entry["fixed"] = True
        else:
            entry["mass"] = b.mass
        if b.container:
            entry["container"] = True
        bodies.append(entry)
    data: dict[str, Any] = {"format": FORMAT}
    if scene.title:
        data["title"] = scene.title
    if scene.description:
        data["description"] = scene.description
    if scene.question:
        data["question"] = scene.question
    data.update(mode=scene.mode, horizon=scene.horizon, restitution=scene.restitution, bodies=bodies)
    if scene.view:
        data["view"] = scene.view
    return data


def dumps(scene: Scene) -> str:
    """The scene as indented JSON text."""
    return json.dumps(to_dict(scene), indent=2, allow_nan=False) + "\n"


# -- reading files ------------------------------------------------------------------------


#: Characters no file name may hold on some system (and ``.``-only names): written ``_`` in :func:`file_stem`.
_NOT_IN_NAMES = set('/\\:*?"<>|')
#: Characters a file stem made by :func:`file_stem` keeps at most (a title of a paragraph is cut).
STEM_CHARACTERS = 80


def file_stem(title: str | None, fallback: str = "scene") -> str:
    """A file name's stem for a scene titled ``title`` (a download's name): its letters and digits of every script
    kept, each run of spaces, control characters and characters no system allows in a name (``/ \\ : * ? " < > |``)
    one ``_``, at most :data:`STEM_CHARACTERS`; ``fallback`` when nothing is left.

    Examples
    --------
    >>> file_stem("Δύο σφαίρες: A/B")
    'Δύο_σφαίρες_A_B'
    >>> file_stem("  ")
    'scene'
    """
    out: list[str] = []
    for ch in title or "":
        bad = ch in _NOT_IN_NAMES or ch.isspace() or not ch.isprintable()
        if not bad:
            out.append(ch)
        elif out and out[-1] != "_":
            out.append("_")
    stem = "".join(out)[:STEM_CHARACTERS].strip("_.")
    return stem or fallback


def read_bytes(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    Folders, FIFOs, devices and sockets are refused without reading (a FIFO is
    opened non-blocking, so a FIFO without a writer never hangs); a file that
    grows past ``limit`` while being read is refused after ``limit + 1`` bytes.

    Raises
    ------
    SceneError
        Naming the file and the problem, in one line.
    """
    shown = show_path(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise SceneError(f"{shown}: cannot read {kind_of(info.st_mode)}; expected a scene file")
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):  # replaced between the two looks
                raise SceneError(f"{shown}: cannot read {kind_of(info.st_mode)}; expected a scene file")
            if info.st_size > limit:
                raise SceneError(
                    f"{shown}: file too large ({info.st_size:,} bytes; a scene file is at most {limit:,} bytes)"
                )
            chunks, total = [], 0
            while total <= limit:
                chunk = os.read(fd, min(1 << 16, limit + 1 - total))
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
        finally:
            os.close(fd)
    except OSError as exc:
        raise SceneError(f"{shown}: cannot read ({os_reason(exc)})") from None
    if total > limit:
        raise SceneError(
            f"{shown}: file too large (more than {limit:,} bytes; a scene file is at most {limit:,} bytes)"
        )
    return b"".join(chunks)


def load(path: str | os.PathLike[str]) -> Scene:
    """Read a scene file.

    Raises
    ------
    SceneError
        For any problem, including unreadable, non-regular and oversized files,
        naming it in one line.
    """
    raw = read_bytes(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SceneError(f"{show_path(Path(path).name)}: not a text file (invalid UTF-8)") from None
    return parse(text)


# -- writing files (the one safe writer, :mod:`explorer.system.files`) -------------------


def save(scene: Scene, path: str | os.PathLike[str]) -> None:
    """Write ``scene`` to ``path`` by the one safe writer (:func:`explorer.system.files.replacing`:
    temporary file, fsync, rename; keeps the file's mode, writes through a symbolic link).

    Raises
    ------
    SceneError
        When the file cannot be written, saying why; the previous file is then untouched.
    """
    text = dumps(scene)
    try:
        with replacing(path) as (handle, _):
            handle.write(text)
    except WriteError as exc:
        raise SceneError(str(exc)) from None
