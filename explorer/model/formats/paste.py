"""Debugging input: a configuration pasted from another engine, read into a :class:`Scene`.

Three forms are accepted (see :data:`PASTE_HELP`):

1. a full scene file's JSON (``"format": "sphere-explorer/1"``), read by
   :func:`explorer.model.formats.scene_io.parse`;
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

import itertools
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from ..state.scene import Scene, SceneBody, SceneError
from . import scene_io

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
_LABEL_PARTS = re.compile(r"[._\-/]+")
#: A number token: what ``float()`` reads (no underscores), with an optional C-style ``f`` suffix.
_NUMBER = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|nan|inf(?:inity)?)[fF]?", re.IGNORECASE)
#: A label has at most this many words ('body a velocity'); longer ones are refused unread.
_MAX_LABEL_WORDS = 6
_POSITIONAL = (
    ("A", "center"),
    ("A", "velocity"),
    ("A", "radius"),
    ("B", "center"),
    ("B", "velocity"),
    ("B", "radius"),
    (None, "horizon"),
)


#: Longest pasted text read (a configuration of 16 bodies takes a few kilobytes).  The paste box
#: refuses longer text before showing it: a text box lays out a megabyte of text for minutes.
MAX_PASTE_CHARS = 64 * 1024


def too_large(chars: int) -> str:
    """Why a paste of ``chars`` characters is refused (one line)."""
    return f"text too large ({chars:,} characters; at most {MAX_PASTE_CHARS:,}): open a file instead (File → Open)"


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
    if len(text) > MAX_PASTE_CHARS:
        raise SceneError(too_large(len(text)))
    if not text.strip():
        raise _at_line(1, "nothing to read; expected a configuration (see the examples)")
    if text.lstrip().startswith("{"):
        return _from_json(text)
    return _from_text(text)


# -- JSON ------------------------------------------------------------------------


def _from_json(text: str) -> Scene:
    data = scene_io.decode_json(text)
    if not isinstance(data, dict):
        raise _at_line(1, f"expected a JSON object, got {type(data).__name__}")
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
        """Line of the last of ``keys`` found, each searched after the previous one; without any, the line
        where the object opens (a key written with escapes, ``"\\u0041"``, is not found as ``"A"``)."""
        pos = found = self.text.find("{")
        for key in keys:
            index = self.text.find(json.dumps(key), pos)
            if index < 0:
                break
            pos = found = index
        return scene_io.line_of(self.text, found)

    def fail(self, message: str, *keys: str, path: tuple = ()) -> SceneError:
        line = self.line(*keys)
        return _at_line(line, message, path=path)

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
                raise _at_line(1, f'expected an object "{body}" with the centre and radius of body {body.upper()}')
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
        """Re-word a validation error as ``line N: B radius: ...``, found from its location (``exc.path``)."""
        path = exc.path
        if len(path) >= 2 and path[0] == "bodies" and path[1] in (0, 1):
            body = "ab"[path[1]]
            quantity = path[2] if len(path) > 2 else None
            body_key, value = top[body]
            keys = [body_key]
            if isinstance(quantity, str) and isinstance(value, dict):
                keys += [k for k in value if _QUANTITY.get(_norm(k), _norm(k)) == quantity][:1]
            label = f"{body.upper()} {_WORDS.get(quantity, quantity) if isinstance(quantity, str) else 'body'}"
            return self.fail(f"{label}: {exc.reason}", *keys, path=path)
        if path and path[0] in ("horizon", "restitution", "mode") and path[0] in top:
            return self.fail(str(exc), top[path[0]][0], path=path)
        return _at_line(1, f"{exc}", path=path)

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
                raise self.fail(
                    f'expected 3 numbers for {what} as [x, y, z] or {{"x", "y", "z"}}, got {_short(value)}', *keys
                )
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
                raise self.fail(
                    f'{name} {_WORDS.get(quantity, quantity)} given twice ("{fields[quantity][0]}" and "{sub}")',
                    key,
                    sub,
                )
            fields[quantity] = (sub, value)
        for required in ("center", "radius"):
            if required not in fields:
                raise self.fail(f'expected "{required}" in body {name}', key)

        def where(q: str) -> tuple[str, str]:
            return (key, fields[q][0])

        center = self.vector(fields["center"][1], f"{name} centre", *where("center"))
        velocity = (
            self.vector(fields["velocity"][1], f"{name} velocity", *where("velocity"))
            if "velocity" in fields
            else (0.0, 0.0, 0.0)
        )
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
        return SceneBody(label, center, velocity, radius, mass)


def _at_line(line: int, message: str, path: tuple = ()) -> SceneError:
    """``SceneError("line N: message")`` with its ``line`` (and ``path``, where known) set."""
    return SceneError(f"line {line}: {message}", path=path, line=line)


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
    """``token`` as a float (a C-style ``f`` suffix allowed), or None when it is not a number."""
    if len(token) > scene_io.MAX_NUMBER_CHARS or not _NUMBER.fullmatch(token):
        return None
    try:
        return float(token)
    except ValueError:  # the suffix of "1.5f" (never of "inf")
        return float(token[:-1])


def _lines(raw_lines: list[str]) -> Iterator[_Line]:
    """The lines with content, one at a time: callers stop at the first error (linear time)."""
    for number, raw in enumerate(raw_lines, start=1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        tokens = [t for t in _SEPARATORS.split(body) if t]
        if not tokens:
            raise _at_line(number, f"expected numbers or a label, got {_short(body)}")
        first = 0  # the label is the words before the first number (a label longer than that is refused)
        while first < len(tokens) and first <= _MAX_LABEL_WORDS and not _is_number(tokens[first]):
            first += 1
        yield _Line(number, tokens[:first], tokens[first:], body)


def _from_text(text: str) -> Scene:
    raw_lines = text.splitlines()
    end = len(raw_lines) + 1
    stream = _lines(raw_lines)
    first = next(stream, None)
    if first is None:
        raise _at_line(end, "end of text, only comments; expected a configuration (see the examples)")
    labelled = bool(first.label)
    seen: list[_Line] = []

    def same_form() -> Iterator[_Line]:
        for line in itertools.chain([first], stream):
            if bool(line.label) != labelled:
                if labelled:
                    raise _at_line(
                        line.number,
                        "expected a label such as 'b.center:' before the numbers "
                        "(the first line is labelled, so every line must be)",
                    )
                raise _at_line(
                    line.number,
                    f"expected only numbers, got the label {_short(' '.join(line.label[:_MAX_LABEL_WORDS]))} "
                    f"(the first line has no label; label every line or none)",
                )
            seen.append(line)
            yield line

    got = _labelled(same_form()) if labelled else _positional(same_form(), end)
    order = ", ".join(_what(body, quantity) for body, quantity in _POSITIONAL[: len(seen)])
    form = "labelled lines" if labelled else f"unlabelled lines ({order})"
    described = f"Pasted into the explorer as plain text, {len(seen)} {form}, for example from another engine's log."
    return _build(got, end, described)


def _numbers(line: _Line, count: int, what: str) -> list[float]:
    out = []
    for token in line.values[: count + 1]:  # one more tells a line of too many apart
        number = _to_float(token)
        if number is None:
            raise _at_line(line.number, f"expected {_count(count)} for {what}, got {_short(token)}")
        out.append(number)
    if len(line.values) != count:
        raise _at_line(line.number, f"expected {_count(count)} for {what}, got {len(line.values)}")
    for number in out:
        if not math.isfinite(number):
            raise _at_line(line.number, f"expected finite numbers for {what}, got {number!r}")
    return out


def _count(n: int) -> str:
    return "1 number" if n == 1 else f"{n} numbers"


def _what(body: str | None, quantity: str) -> str:
    return f"{body} {_WORDS.get(quantity, quantity)}" if body else quantity


def _store(got: _Collected, key: tuple[str | None, str], value: Any, line: _Line) -> None:
    if key in got.lines:
        raise _at_line(line.number, f"{_what(*key)} given twice (first on line {got.lines[key]})")
    got.values[key] = value
    got.lines[key] = line.number


def _labelled(lines: Iterable[_Line]) -> _Collected:
    got = _Collected()
    for line in lines:
        if len(line.label) > _MAX_LABEL_WORDS:
            raise _unknown_label(line)
        words = [w for token in line.label for w in _LABEL_PARTS.split(token.lower()) if w]
        words = [w for w in words if w not in _FILLER]
        joined = "".join(words)
        if joined == "mode":
            if line.values:
                raise _at_line(line.number, f"expected 'pair' or 'inside' for mode, got {_short(line.values[0])}")
            raise _at_line(line.number, "expected 'pair' or 'inside' after mode")
        if len(words) == 2 and words[0] == "mode":
            if words[1] not in ("pair", "inside"):
                raise _at_line(line.number, f"expected 'pair' or 'inside' for mode, got {_short(words[1])}")
            if line.values:
                raise _at_line(line.number, f"expected nothing after mode {words[1]}, got {_short(line.values[0])}")
            _store(got, (None, "mode"), words[1], line)
            continue
        if joined in _HORIZON or joined == "restitution":
            quantity = "horizon" if joined in _HORIZON else "restitution"
            _store(got, (None, quantity), _numbers(line, 1, quantity)[0], line)
            continue
        match = _BODY_LABEL.match(joined)
        if not match:
            raise _unknown_label(line)
        body = (match.group("b1") or match.group("b2")).upper()
        quantity = _QUANTITY[match.group("q1") or match.group("q2")]
        what = _what(body, quantity)
        if quantity == "fixed":
            if line.values:
                raise _at_line(line.number, f"expected nothing after {body} fixed, got {_short(line.values[0])}")
            value: Any = True
        elif quantity in ("center", "velocity"):
            value = tuple(_numbers(line, 3, what))
        else:
            value = _numbers(line, 1, what)[0]
        _store(got, (body, quantity), value, line)
    if ("A", "fixed") in got.lines or ("B", "fixed") in got.lines:
        for body in ("A", "B"):
            if (body, "fixed") in got.lines and (body, "mass") in got.lines:
                later = max(got.lines[(body, "fixed")], got.lines[(body, "mass")])
                raise _at_line(later, f"give either a mass or 'fixed' for {body}, not both")
    return got


def _unknown_label(line: _Line) -> SceneError:
    return _at_line(
        line.number,
        f"unknown label {_short(' '.join(line.label[: _MAX_LABEL_WORDS + 1]))} (expected e.g. 'a.center', "
        f"'b velocity', 'a radius', 'b mass', 'b fixed', 'horizon', 'mode')",
    )


def _positional(lines: Iterable[_Line], end: int) -> _Collected:
    got = _Collected()
    count = 0
    for line in lines:
        if count == len(_POSITIONAL):
            raise _at_line(
                line.number,
                "expected at most 7 lines of numbers (A centre, A velocity, A radius, "
                "B centre, B velocity, B radius, horizon), this is the 8th",
            )
        body, quantity = _POSITIONAL[count]
        count += 1
        what = _what(body, quantity)
        n = 3 if quantity in ("center", "velocity") else 1
        numbers = _numbers(line, n, what)
        _store(got, (body, quantity), tuple(numbers) if n == 3 else numbers[0], line)
    if count < 6:
        body, quantity = _POSITIONAL[count]
        n = 3 if quantity in ("center", "velocity") else 1
        raise _at_line(
            end,
            f"end of text, expected a line of {_count(n)} for {_what(body, quantity)} "
            f"(unlabelled: A centre, A velocity, A radius, B centre, B velocity, B radius, [horizon])",
        )
    return got


def _build(got: _Collected, end: int, description: str) -> Scene:
    for body in ("A", "B"):
        for quantity, example in (("center", "0 0 0"), ("radius", "1")):
            if (body, quantity) not in got.values:
                raise _at_line(
                    end,
                    f"end of text, expected a line for {_what(body, quantity)} "
                    f"(e.g. '{body.lower()}.{quantity}: {example}')",
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
    path = exc.path
    if len(path) >= 3 and path[0] == "bodies" and path[1] in (0, 1) and isinstance(path[2], str):
        body, quantity = "AB"[path[1]], path[2]
        if quantity == "mass" and (body, "mass") not in got.lines:
            quantity = "fixed"
        line = got.lines.get((body, quantity), end)
        return _at_line(line, f"{_what(body, quantity)}: {exc.reason}", path=path)
    if path and path[0] in ("horizon", "restitution", "mode"):
        line = got.lines.get((None, path[0]), end)
        return _at_line(line, f"{exc}", path=path)
    return _at_line(end, f"{exc}", path=path)
