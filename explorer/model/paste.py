"""Debugging input: a configuration pasted from another engine, read into a :class:`Scene`.

Three forms are accepted (see :data:`PASTE_HELP`):

1. a full scene file's JSON (``"format": "sphere-explorer/1"``), read by
   :func:`explorer.scene_io.parse`;
2. a compact JSON object::

       {"a": {"center": [0, 0, 0], "velocity": [10, 0, 0], "radius": 1},
        "b": {"pos": [5, 0, 0], "r": 1}, "horizon": 1, "mode": "pair"}

   keys case-insensitive; ``pos``/``position``/``p`` for the centre,
   ``vel``/``v`` for the velocity, ``r`` for the radius, ``h``/``dt`` for the
   horizon; a vector may also be ``{"x": .., "y": .., "z": ..}``;
3. plain text, one quantity per line, numbers separated by spaces and/or
   commas (brackets ignored), ``#`` comments and blank lines ignored: either
   labelled lines (``a.center: 1 2 3``, ``A velocity = 4, 0, 0``,
   ``b radius 2``, ``horizon 0.016``, ``mode inside``, ``b fixed``) or 6 to 7
   unlabelled lines in the order A centre, A velocity, A radius, B centre,
   B velocity, B radius, [horizon].

Defaults: velocity zero, horizon 1, mode ``pair``, restitution 1, names A and
B, masses 1.  Every error is a :class:`SceneError` with a one-line message
naming the line and what was expected.  Qt-free; the stdlib only.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from . import scene_io
from .scene import Scene, SceneBody, SceneError

TITLE = "Pasted configuration"

#: Shown by the paste dialog.
PASTE_HELP = """\
Paste a configuration from another engine, in any of these forms:

  # plain text, labelled (any order; ':' or '=' optional)
  a.center: 0 0 0
  a.velocity: 10, 0, 0
  a.radius: 1
  b.center: 5 0 0
  b.radius: 1
  horizon: 1

  # plain text, unlabelled: A centre, A velocity, A radius, B centre, B velocity, B radius, [horizon]
  0 0 0
  10 0 0
  1
  5 0 0
  0 0 0
  1

  {"a": {"pos": [0, 0, 0], "vel": [10, 0, 0], "r": 1}, "b": {"pos": [5, 0, 0], "r": 1}, "dt": 1}

or a whole scene file.  Velocity defaults to zero, the horizon to 1 frame."""

_CENTER = ("center", "centre", "pos", "position", "p", "location", "loc")
_VELOCITY = ("velocity", "vel", "v")
_RADIUS = ("radius", "rad", "r")
_MASS = ("mass", "m")
_FIXED = ("fixed", "static")
_HORIZON = ("horizon", "h", "dt")
_QUANTITY = {
    **{k: "center" for k in _CENTER},
    **{k: "velocity" for k in _VELOCITY},
    **{k: "radius" for k in _RADIUS},
    **{k: "mass" for k in _MASS},
    **{k: "fixed" for k in _FIXED},
}
_WORDS = {"center": "centre", "velocity": "velocity", "radius": "radius", "mass": "mass", "fixed": "fixed"}
_FILLER = ("body", "sphere")
_ALT = "|".join(sorted(_QUANTITY, key=len, reverse=True))
_BODY_LABEL = re.compile(rf"^(?:(?P<b1>[ab])(?P<q1>{_ALT})|(?P<q2>{_ALT})(?P<b2>[ab]))$")
_SEPARATORS = re.compile(r"[\s,;:=()\[\]{}<>]+")
_POSITIONAL = (
    ("A", "center"),
    ("A", "velocity"),
    ("A", "radius"),
    ("B", "center"),
    ("B", "velocity"),
    ("B", "radius"),
    (None, "horizon"),
)


def parse_configuration(text: str) -> Scene:
    """Read a pasted configuration in any accepted form (see the module docstring).

    Raises
    ------
    SceneError
        One line naming the line number (where there is one) and what was
        expected, e.g. ``"line 3: expected 3 numbers for A velocity, got 2"``.
    """
    if not isinstance(text, str):
        raise SceneError(f"expected text, got {type(text).__name__}")
    if len(text) > scene_io.MAX_FILE_BYTES:
        raise SceneError(f"text too large ({len(text)} characters; at most {scene_io.MAX_FILE_BYTES})")
    if not text.strip():
        raise SceneError("line 1: nothing to read; expected a configuration (see the examples)")
    if text.lstrip().startswith("{"):
        return _from_json(text)
    return _from_text(text)


# -- JSON ------------------------------------------------------------------------


def _from_json(text: str) -> Scene:
    data = scene_io.decode_json(text)
    if not isinstance(data, dict):
        raise SceneError(f"line 1: expected a JSON object, got {type(data).__name__}")
    if "format" in data or "bodies" in data:
        scene = scene_io.parse(text)
        if not scene.title:
            scene = scene.with_changes(title=TITLE)
        if not scene.description:
            scene = scene.with_changes(description="A complete scene file pasted into the explorer.")
        return scene
    return _Compact(text).scene(data)


def _norm(key: str) -> str:
    """Lower case, letters and digits only, without a leading 'body'/'sphere'."""
    word = re.sub(r"[^a-z0-9]", "", key.lower())
    for filler in _FILLER:
        if word.startswith(filler) and len(word) > len(filler):
            word = word[len(filler) :]
    return word


class _Compact:
    """Reads the compact JSON form, locating errors by searching for the keys in the text."""

    def __init__(self, text: str) -> None:
        self.text = text

    def line(self, *keys: str) -> int:
        """Line of the last of ``keys``, each searched after the previous one."""
        pos, found = 0, 0
        for key in keys:
            index = self.text.find(json.dumps(key), pos)
            if index < 0:
                break
            pos = found = index
        return scene_io.line_of(self.text, found)

    def fail(self, message: str, *keys: str) -> SceneError:
        return SceneError(f"line {self.line(*keys)}: {message}")

    def scene(self, data: dict[str, Any]) -> Scene:
        top: dict[str, tuple[str, Any]] = {}
        for key, value in data.items():
            norm = _norm(key)
            if norm in _HORIZON:
                norm = "horizon"
            if norm not in ("a", "b", "horizon", "mode", "restitution"):
                raise self.fail(
                    f'unknown key "{key}" (expected "a", "b", "horizon" (or "h", "dt"), "mode", "restitution")', key
                )
            if norm in top:
                raise self.fail(f'key "{key}" given twice (also as "{top[norm][0]}")', key)
            top[norm] = (key, value)
        for body in ("a", "b"):
            if body not in top:
                raise SceneError(f'line 1: expected an object "{body}" with the centre and radius of body {body.upper()}')
        bodies = tuple(self.body(top[name][0], top[name][1], name.upper()) for name in ("a", "b"))
        horizon = self.number(top, "horizon", 1.0)
        restitution = self.number(top, "restitution", 1.0)
        mode = "pair"
        if "mode" in top:
            key, mode = top["mode"]
            if mode not in ("pair", "inside"):
                raise self.fail(f'expected "mode" to be "pair" or "inside", got {_short(mode)}', key)
        try:
            return Scene(
                mode=mode,
                horizon=horizon,
                restitution=restitution,
                bodies=bodies,
                title=TITLE,
                description=(
                    "Pasted into the explorer as compact JSON (bodies a and b), for example from another "
                    "engine's debug output."
                ),
            )
        except SceneError as exc:
            raise self.located(exc, top) from None

    def located(self, exc: SceneError, top: dict[str, tuple[str, Any]]) -> SceneError:
        message = str(exc)
        match = re.match(r"bodies\[(\d)\](?:\.(\w+))?: (.*)", message)
        if match:
            body = "ab"[int(match.group(1))]
            body_key, value = top[body]
            keys = [body_key]
            if match.group(2) and isinstance(value, dict):
                wanted = match.group(2)
                keys += [k for k in value if _QUANTITY.get(_norm(k), _norm(k)) == wanted][:1]
            label = f"{body.upper()} {_WORDS.get(match.group(2), match.group(2) or 'body')}"
            return self.fail(f"{label}: {match.group(3)}", *keys)
        match = re.match(r"(horizon|restitution|mode): (.*)", message)
        if match and match.group(1) in top:
            return self.fail(message, top[match.group(1)][0])
        return SceneError(f"line 1: {message}")

    def number(self, top: dict[str, tuple[str, Any]], name: str, default: float) -> float:
        if name not in top:
            return default
        key, value = top[name]
        return self.scalar(value, name, key)

    def scalar(self, value: Any, what: str, *keys: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(f"expected a number for {what}, got {_short(value)}", *keys)
        return float(value)

    def vector(self, value: Any, what: str, *keys: str) -> tuple[float, float, float]:
        if isinstance(value, dict):
            lower = {_norm(k): v for k, v in value.items()}
            if set(lower) != {"x", "y", "z"}:
                raise self.fail(f'expected 3 numbers for {what} as [x, y, z] or {{"x", "y", "z"}}, got {_short(value)}', *keys)
            value = [lower["x"], lower["y"], lower["z"]]
        if not isinstance(value, list):
            raise self.fail(f"expected 3 numbers for {what}, got {_short(value)}", *keys)
        if len(value) != 3:
            raise self.fail(f"expected 3 numbers for {what}, got {len(value)}", *keys)
        out = [self.scalar(x, what, *keys) for x in value]
        return (out[0], out[1], out[2])

    def body(self, key: str, item: Any, name: str) -> SceneBody:
        if not isinstance(item, dict):
            raise self.fail(f'expected "{key}" to be an object with the centre and radius of body {name}', key)
        fields: dict[str, tuple[str, Any]] = {}
        for sub, value in item.items():
            norm = _norm(sub)
            quantity = _QUANTITY.get(norm, "name" if norm == "name" else None)
            if quantity is None:
                raise self.fail(
                    f'unknown key "{sub}" in {name} (expected "center"/"pos", "velocity"/"vel", "radius"/"r", '
                    f'"mass", "fixed", "name")',
                    key,
                    sub,
                )
            if quantity in fields:
                raise self.fail(f'{name} {_WORDS.get(quantity, quantity)} given twice ("{fields[quantity][0]}" and "{sub}")', key, sub)
            fields[quantity] = (sub, value)
        for required in ("center", "radius"):
            if required not in fields:
                raise self.fail(f'expected "{required}" in body {name}', key)

        def where(q: str) -> tuple[str, str]:
            return (key, fields[q][0])

        center = self.vector(fields["center"][1], f"{name} centre", *where("center"))
        velocity = self.vector(fields["velocity"][1], f"{name} velocity", *where("velocity")) if "velocity" in fields else (0.0, 0.0, 0.0)
        radius = self.scalar(fields["radius"][1], f"{name} radius", *where("radius"))
        mass = self.scalar(fields["mass"][1], f"{name} mass", *where("mass")) if "mass" in fields else 1.0
        if "fixed" in fields:
            fixed = fields["fixed"][1]
            if not isinstance(fixed, bool):
                raise self.fail(f"expected true or false for {name} fixed, got {_short(fixed)}", *where("fixed"))
            if fixed:
                if "mass" in fields:
                    raise self.fail(f'give either "mass" or "fixed": true for {name}, not both', *where("fixed"))
                mass = math.inf
        label = name
        if "name" in fields:
            label = fields["name"][1]
            if not isinstance(label, str):
                raise self.fail(f"expected text for {name} name, got {_short(label)}", *where("name"))
        for what, vector, q in ((f"{name} centre", center, "center"), (f"{name} velocity", velocity, "velocity")):
            if any(not math.isfinite(x) for x in vector):
                raise self.fail(f"{what}: expected finite numbers", *where(q))
        return SceneBody(label, center, velocity, radius, mass)


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# -- plain text --------------------------------------------------------------------


@dataclass
class _Line:
    number: int
    label: list[str]
    values: list[str]
    raw: str


@dataclass
class _Collected:
    values: dict[tuple[str | None, str], Any] = field(default_factory=dict)
    lines: dict[tuple[str | None, str], int] = field(default_factory=dict)


def _is_number(token: str) -> bool:
    return _to_float(token) is not None


def _to_float(token: str) -> float | None:
    for candidate in (token, token[:-1] if len(token) > 1 and token[-1] in "fF" else None):
        if candidate is None:
            continue
        try:
            return float(candidate)
        except ValueError:
            continue
    return None


def _lines(text: str) -> list[_Line]:
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        tokens = [t for t in _SEPARATORS.split(body) if t]
        if not tokens:
            raise SceneError(f"line {number}: expected numbers or a label, got {_short(body)}")
        label: list[str] = []
        while tokens and not _is_number(tokens[0]):
            label.append(tokens.pop(0))
        out.append(_Line(number, label, tokens, body))
    return out


def _from_text(text: str) -> Scene:
    lines = _lines(text)
    end = len(text.splitlines()) + 1
    if not lines:
        raise SceneError(f"line {end}: end of text, only comments; expected a configuration (see the examples)")
    labelled = bool(lines[0].label)
    for line in lines:
        if bool(line.label) != labelled:
            if labelled:
                raise SceneError(
                    f"line {line.number}: expected a label such as 'b.center:' before the numbers "
                    f"(the first line is labelled, so every line must be)"
                )
            raise SceneError(
                f"line {line.number}: expected only numbers, got the label {_short(' '.join(line.label))} "
                f"(the first line has no label; label every line or none)"
            )
    got = _labelled(lines) if labelled else _positional(lines, end)
    order = ", ".join(_what(body, quantity) for body, quantity in _POSITIONAL[: len(lines)])
    form = "labelled lines" if labelled else f"unlabelled lines ({order})"
    described = (
        f"Pasted into the explorer as plain text, {len(lines)} {form}, for example from another engine's log."
    )
    return _build(got, end, described)


def _numbers(line: _Line, count: int, what: str) -> list[float]:
    out = []
    for token in line.values:
        number = _to_float(token)
        if number is None:
            raise SceneError(f"line {line.number}: expected {_count(count)} for {what}, got {_short(token)}")
        out.append(number)
    if len(out) != count:
        raise SceneError(f"line {line.number}: expected {_count(count)} for {what}, got {len(out)}")
    for number in out:
        if not math.isfinite(number):
            raise SceneError(f"line {line.number}: expected finite numbers for {what}, got {number!r}")
    return out


def _count(n: int) -> str:
    return "1 number" if n == 1 else f"{n} numbers"


def _what(body: str | None, quantity: str) -> str:
    return f"{body} {_WORDS.get(quantity, quantity)}" if body else quantity


def _store(got: _Collected, key: tuple[str | None, str], value: Any, line: _Line) -> None:
    if key in got.lines:
        raise SceneError(f"line {line.number}: {_what(*key)} given twice (first on line {got.lines[key]})")
    got.values[key] = value
    got.lines[key] = line.number


def _labelled(lines: list[_Line]) -> _Collected:
    got = _Collected()
    for line in lines:
        words = [w for token in line.label for w in re.split(r"[._\-/]+", token.lower()) if w]
        words = [w for w in words if w not in _FILLER]
        joined = "".join(words)
        if joined == "mode":
            if line.values:
                raise SceneError(f"line {line.number}: expected 'pair' or 'inside' for mode, got {_short(line.values[0])}")
            raise SceneError(f"line {line.number}: expected 'pair' or 'inside' after mode")
        if len(words) == 2 and words[0] == "mode":
            if words[1] not in ("pair", "inside"):
                raise SceneError(f"line {line.number}: expected 'pair' or 'inside' for mode, got {_short(words[1])}")
            if line.values:
                raise SceneError(f"line {line.number}: expected nothing after mode {words[1]}, got {_short(line.values[0])}")
            _store(got, (None, "mode"), words[1], line)
            continue
        if joined in _HORIZON or joined == "restitution":
            quantity = "horizon" if joined in _HORIZON else "restitution"
            _store(got, (None, quantity), _numbers(line, 1, quantity)[0], line)
            continue
        match = _BODY_LABEL.match(joined)
        if not match:
            raise SceneError(
                f"line {line.number}: unknown label {_short(' '.join(line.label))} (expected e.g. 'a.center', "
                f"'b velocity', 'a radius', 'b mass', 'b fixed', 'horizon', 'mode')"
            )
        body = (match.group("b1") or match.group("b2")).upper()
        quantity = _QUANTITY[match.group("q1") or match.group("q2")]
        what = _what(body, quantity)
        if quantity == "fixed":
            if line.values:
                raise SceneError(f"line {line.number}: expected nothing after {body} fixed, got {_short(line.values[0])}")
            value: Any = True
        elif quantity in ("center", "velocity"):
            value = tuple(_numbers(line, 3, what))
        else:
            value = _numbers(line, 1, what)[0]
        _store(got, (body, quantity), value, line)
    if (("A", "fixed") in got.lines or ("B", "fixed") in got.lines):
        for body in ("A", "B"):
            if (body, "fixed") in got.lines and (body, "mass") in got.lines:
                later = max(got.lines[(body, "fixed")], got.lines[(body, "mass")])
                raise SceneError(f"line {later}: give either a mass or 'fixed' for {body}, not both")
    return got


def _positional(lines: list[_Line], end: int) -> _Collected:
    got = _Collected()
    if len(lines) > len(_POSITIONAL):
        extra = lines[len(_POSITIONAL)]
        raise SceneError(
            f"line {extra.number}: expected at most 7 lines of numbers (A centre, A velocity, A radius, "
            f"B centre, B velocity, B radius, horizon), this is the 8th"
        )
    for line, (body, quantity) in zip(lines, _POSITIONAL):
        what = _what(body, quantity)
        count = 3 if quantity in ("center", "velocity") else 1
        numbers = _numbers(line, count, what)
        _store(got, (body, quantity), tuple(numbers) if count == 3 else numbers[0], line)
    if len(lines) < 6:
        body, quantity = _POSITIONAL[len(lines)]
        count = 3 if quantity in ("center", "velocity") else 1
        raise SceneError(
            f"line {end}: end of text, expected a line of {_count(count)} for {_what(body, quantity)} "
            f"(unlabelled: A centre, A velocity, A radius, B centre, B velocity, B radius, [horizon])"
        )
    return got


def _build(got: _Collected, end: int, description: str) -> Scene:
    for body in ("A", "B"):
        for quantity, example in (("center", "0 0 0"), ("radius", "1")):
            if (body, quantity) not in got.values:
                raise SceneError(
                    f"line {end}: end of text, expected a line for {_what(body, quantity)} "
                    f"(e.g. '{body.lower()}.{quantity}: {example}')"
                )
    bodies = []
    for body in ("A", "B"):
        mass = math.inf if got.values.get((body, "fixed")) else got.values.get((body, "mass"), 1.0)
        bodies.append(
            SceneBody(
                body,
                got.values[(body, "center")],
                got.values.get((body, "velocity"), (0.0, 0.0, 0.0)),
                got.values[(body, "radius")],
                mass,
            )
        )
    try:
        return Scene(
            mode=got.values.get((None, "mode"), "pair"),
            horizon=got.values.get((None, "horizon"), 1.0),
            restitution=got.values.get((None, "restitution"), 1.0),
            bodies=tuple(bodies),
            title=TITLE,
            description=description,
        )
    except SceneError as exc:
        raise _locate(exc, got, end) from None


def _locate(exc: SceneError, got: _Collected, end: int) -> SceneError:
    """Re-word a validation error as ``line N: A radius: ...`` using the line the value came from."""
    message = str(exc)
    match = re.match(r"bodies\[(\d)\]\.(\w+): (.*)", message)
    if match:
        body, quantity = "AB"[int(match.group(1))], match.group(2)
        if quantity == "mass" and (body, "mass") not in got.lines:
            quantity = "fixed"
        line = got.lines.get((body, quantity), end)
        return SceneError(f"line {line}: {_what(body, quantity)}: {match.group(3)}")
    match = re.match(r"(horizon|restitution|mode): (.*)", message)
    if match:
        line = got.lines.get((None, match.group(1)), end)
        return SceneError(f"line {line}: {message}")
    return SceneError(f"line {end}: {message}")
