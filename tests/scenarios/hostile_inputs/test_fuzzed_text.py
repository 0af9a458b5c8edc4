"""Fuzz the scene loader and the paste parser: whatever the text, the only exception that escapes
is the documented :class:`SceneError` (one line); and whatever they accept, the solver solves and
the file format writes and reads back unchanged."""

from __future__ import annotations

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.model.derived.analysis import solve, to_dict
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import DEFAULT_SCENE, SCENES_DIR
from explorer.model.formats.paste import parse_configuration
from explorer.model.state.scene import Scene, SceneError

FUZZ = settings(
    max_examples=150, deadline=None, database=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)

BASE = json.loads(DEFAULT_SCENE.read_text())
INSIDE = json.loads((SCENES_DIR / "seed001_container.json").read_text())

numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**60), max_value=10**60),
    st.sampled_from([0, -0.0, 5e-324, 1e-300, 1e-12, 1e12, 1e308, 1.7976931348623157e308, 2**53 + 1]),
)
leaves = st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=12))
values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, item in node.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _paths(item, (*prefix, i))


@st.composite
def mutated_scenes(draw) -> str:
    """A valid scene file with a few fields replaced, removed or added, as JSON text."""
    data = json.loads(json.dumps(draw(st.sampled_from([BASE, INSIDE]))))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = draw(values)
        elif action == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(values)
    return json.dumps(data, indent=draw(st.sampled_from([None, 2])), ensure_ascii=draw(st.booleans()))


@st.composite
def damaged_text(draw) -> str:
    """The text of a valid scene file with a slice replaced by random characters."""
    text = json.dumps(BASE, indent=2)
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + 20)))
    return text[:start] + draw(st.text(max_size=20)) + text[end:]


def _accepted_is_usable(scene: Scene) -> None:
    """An accepted scene is one the solver and the file format handle."""
    assert isinstance(scene, Scene)
    result = to_dict(solve(scene))
    json.dumps(result, allow_nan=False)
    assert scene_io.parse(scene_io.dumps(scene)) == scene


def _only_scene_errors(parse, text: str) -> None:
    try:
        scene = parse(text)
    except SceneError as exc:
        message = str(exc)
        assert message and "\n" not in message and len(message) < 600
        message.encode("utf-8")
        assert exc.line is None or exc.line >= 1
        return
    _accepted_is_usable(scene)


@FUZZ
@given(mutated_scenes())
def test_the_loader_refuses_mutated_scenes_only_with_scene_errors(text):
    _only_scene_errors(scene_io.parse, text)


@FUZZ
@given(st.one_of(damaged_text(), st.text(max_size=300)))
def test_the_loader_refuses_damaged_text_only_with_scene_errors(text):
    _only_scene_errors(scene_io.parse, text)


LABELS = ["a.center", "b.center", "a velocity", "B.vel", "a radius", "rb", "b mass", "a fixed", "horizon", "dt",
          "restitution", "mode", "inside", "pair", "body_a.position", "x", "#", "{", "}", "[", "]", ",", ":", "=", "f"]  # fmt: skip
number_tokens = st.one_of(
    numbers.map(repr),
    st.sampled_from(["nan", "-inf", "Infinity", "1e400", "-0", "1.5f", "1_000", "0x10", "1" + "0" * 500, ".5", "5."]),
)
lines = st.lists(st.one_of(st.sampled_from(LABELS), number_tokens), max_size=6).map(" ".join)


@st.composite
def compact_json(draw) -> str:
    body = st.dictionaries(
        st.sampled_from(["pos", "center", "v", "vel", "r", "radius", "mass", "fixed", "name", "spin"]),
        values,
        max_size=5,
    )
    data = draw(
        st.dictionaries(
            st.sampled_from(["a", "b", "A", "h", "dt", "mode", "restitution", "wind"]), body | values, max_size=5
        )
    )
    return json.dumps(data)


@FUZZ
@given(st.one_of(st.lists(lines, max_size=9).map("\n".join), compact_json(), st.text(max_size=200)))
def test_the_paste_parser_refuses_anything_only_with_scene_errors(text):
    _only_scene_errors(parse_configuration, text)


@FUZZ
@given(
    st.tuples(*[st.floats(-1e12, 1e12, allow_nan=False)] * 3),
    st.tuples(*[st.floats(-1e12, 1e12, allow_nan=False)] * 3),
    st.floats(1e-12, 1e12),
    st.floats(1e-12, 1e12),
    st.one_of(st.floats(1e-12, 1e12), st.just(math.inf)),
)
def test_every_scene_in_range_solves(center, velocity, ra, rb, mass):
    """The validation rule is the solver's: whatever it accepts, the solver answers with finite numbers
    (bounces included: a reflected velocity must not fall outside the range the solver checks)."""
    text = "\n".join(
        [f"a.center {' '.join(map(repr, center))}", f"a.velocity {' '.join(map(repr, velocity))}", f"a.radius {ra!r}",
         "b.center 0 0 0", f"b.radius {rb!r}", "b fixed" if math.isinf(mass) else f"b.mass {mass!r}"]
    )  # fmt: skip
    try:
        scene = parse_configuration(text)
    except SceneError as exc:  # only a velocity component below 1e-100 may be refused here
        assert exc.path == ("bodies", 0, "velocity"), str(exc)
        return
    _accepted_is_usable(scene)
