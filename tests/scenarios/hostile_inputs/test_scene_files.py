"""Hostile scene files, saves and pastes: each refused in one line naming the problem and where it
is (``SceneError.path`` / ``.line``); nothing reads forever, hangs, or loses or leaves a file."""

from __future__ import annotations

import json
import os
import threading
import time

import pytest

from explorer.model.formats import scene_io
from explorer.model.formats.gallery import DEFAULT_SCENE
from explorer.model.formats.paste import parse_configuration
from explorer.model.state.scene import SceneError

BASE = json.loads(DEFAULT_SCENE.read_text())


def _text(change) -> str:
    data = json.loads(json.dumps(BASE))
    change(data)
    return json.dumps(data)


def _set(*path_value):
    *path, value = path_value

    def change(data):
        node = data
        for key in path[:-1]:
            node = node.setdefault(key, {}) if isinstance(key, str) else node[key]
        node[path[-1]] = value

    return change


def _refused(text: str) -> SceneError:
    with pytest.raises(SceneError) as info:
        scene_io.parse(text)
    message = str(info.value)
    assert "\n" not in message and len(message) < 400, message
    return info.value


# -- values the solver cannot handle, text that is not text, a view that is not a view -----------


@pytest.mark.parametrize(
    "change, path, needle",
    [
        (_set("bodies", 0, "mass", 5e-324), ("bodies", 0, "mass"), "must be in [1e-12, 1e+12]"),
        (_set("bodies", 0, "mass", 1e308), ("bodies", 0, "mass"), "must be in [1e-12, 1e+12]"),
        (_set("bodies", 0, "mass", -1), ("bodies", 0, "mass"), "must be in"),
        (_set("bodies", 1, "radius", 1e-300), ("bodies", 1, "radius"), "must be in [1e-12, 1e+12]"),
        (_set("bodies", 1, "radius", 1e13), ("bodies", 1, "radius"), "must be in"),
        (_set("bodies", 0, "center", [1e13, 0, 0]), ("bodies", 0, "center"), "within ±1e+12"),
        (_set("bodies", 0, "velocity", [5e-324, 0, 0]), ("bodies", 0, "velocity"), "1e-100"),
        (_set("bodies", 0, "velocity", [1, 2]), ("bodies", 0, "velocity"), "3 numbers"),
        (_set("horizon", 1e7), ("horizon",), "must be in (0, 1e+06]"),
        (_set("restitution", True), ("restitution",), "expected a number"),
        (_set("title", "\ud800"), ("title",), "lone surrogate"),
        (_set("bodies", 1, "name", "B\udfff"), ("bodies", 1, "name"), "lone surrogate"),
        (_set("bodies", 1, "name", "B\nC"), ("bodies", 1, "name"), "control character"),
        (_set("description", "x" * 5000), ("description",), "at most 4000"),
        (_set("view", "camera", ["nan", 0, 0]), ("view", "camera"), "expected an object"),
        (
            _set("view", "camera", {"position": ["nan", 0, 0], "focal_point": [0, 0, 0]}),
            ("view", "camera", "position"),
            "expected a number",
        ),
        (
            _set("view", "camera", {"position": [1, 2, 3], "focal_point": [1, 2, 3]}),
            ("view", "camera", "position"),
            "differ",
        ),
        (
            _set("view", "camera", {"position": [9, 0, 0], "focal_point": [0, 0, 0], "up": [0, 0, 0]}),
            ("view", "camera", "up"),
            "zero vector",
        ),
        (_set("view", "camera", {"position": [9, 0, 0], "lens": 5}), ("view", "camera"), "unknown key 'lens'"),
        (_set("view", "layers", {"capsules": "yes"}), ("view", "layers", "capsules"), "true or false"),
        (_set("view", "zoom", "\ud800"), ("view", "zoom"), "lone surrogate"),
        (_set("view", "deep", [[[[[[[[1]]]]]]]]), ("view", "deep", 0, 0, 0, 0, 0, 0), "nested too deeply"),
        (_set("view", "many", list(range(5000))), ("view",), "too large"),
        (_set("view", []), ("view",), "expected an object"),
    ],
    # Ascii ids: a second collection in one process (the mutation run) would escape "±" again.
    ids=lambda v: v.encode("ascii", "replace").decode() if isinstance(v, str) else None,
)
def test_values_out_of_the_solver_s_range_or_not_text_are_refused_where_they_are(change, path, needle):
    error = _refused(_text(change))
    assert error.path == path, str(error)
    assert needle in str(error)


@pytest.mark.parametrize(
    "literal, needle",
    [
        ("1" + "0" * 400, "integer literal of 401 digits is too long"),
        ("1" + "0" * 5000, "integer literal of 5001 digits"),  # beyond Python's own int-parsing limit
        ("-" + "9" * 50, "integer literal of 50 digits"),
        ("1e309", "beyond the float range"),
        ("-1e400", "beyond the float range"),
        ("0." + "1" * 200, "number literal of 202 characters"),
        ("NaN", "NaN is not a number JSON allows"),
        ("Infinity", "Infinity is not a number JSON allows"),
    ],
)
def test_absurd_number_literals_are_refused_with_their_line(literal, needle):
    text = json.dumps(BASE, indent=2).replace('"radius": 1.0', f'"radius": {literal}', 1)
    line = text[: text.index(literal)].count("\n") + 1
    error = _refused(text)
    assert needle in str(error) and error.line == line and str(error).startswith(f"line {line}: ")


def test_view_numbers_beyond_the_float_range_are_refused():
    text = _text(_set("view", "zoom", 1.0)).replace('"zoom": 1.0', '"zoom": 1e309')
    assert "beyond the float range" in str(_refused(text))


def test_duplicate_keys_and_deep_nesting_are_refused():
    assert "given twice" in str(
        _refused(json.dumps(BASE).replace('"mode": "pair"', '"mode": "pair", "mode": "inside"'))
    )
    assert "nested too deeply" in str(_refused("[" * 100_000 + "]" * 100_000))


def test_a_refused_scene_names_its_location_structurally():
    error = _refused(_text(_set("bodies", 1, "radius", -1)))
    assert (error.path, error.reason, error.line) == (
        ("bodies", 1, "radius"),
        "must be in [1e-12, 1e+12], got -1.0",
        None,
    )
    assert str(error) == "bodies[1].radius: must be in [1e-12, 1e+12], got -1.0"
    syntax = _refused('{\n  "format": "sphere-explorer/1",\n  "mode": }')
    assert syntax.line == 3 and syntax.path == ()


def test_an_accepted_hostile_looking_scene_round_trips():
    text = _text(_set("bodies", 0, "name", "<b>A</b> & é ✓"))
    scene = scene_io.parse(text)
    assert scene_io.parse(scene_io.dumps(scene)) == scene


# -- files that are not scene files -------------------------------------------------------------


def _in_time(function, seconds=5.0):
    """Run ``function`` in a thread; fail the test if it does not return in ``seconds``."""
    box: list = []

    def work():
        try:
            box.append(("ok", function()))
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box.append(("error", exc))

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(seconds)
    assert box, f"still running after {seconds} s"
    return box[0]


def test_dev_zero_is_refused_unread():
    started = time.perf_counter()
    kind, error = _in_time(lambda: scene_io.load("/dev/zero"))
    assert kind == "error" and isinstance(error, SceneError) and "a device" in str(error)
    assert time.perf_counter() - started < 1.0


def test_a_fifo_without_a_writer_is_refused_without_hanging(tmp_path):
    fifo = tmp_path / "scene.json"
    os.mkfifo(fifo)
    kind, error = _in_time(lambda: scene_io.load(fifo))
    assert kind == "error" and isinstance(error, SceneError) and "named pipe" in str(error)
    link = tmp_path / "link.json"
    link.symlink_to(fifo)
    kind, error = _in_time(lambda: scene_io.load(link))
    assert kind == "error" and "named pipe" in str(error)


def test_folders_and_proc_files_are_refused(tmp_path):
    with pytest.raises(SceneError, match="a folder"):
        scene_io.load(tmp_path)
    with pytest.raises(SceneError, match="not valid JSON"):  # a regular file of size 0 that is not: read up to the cap
        scene_io.load("/proc/self/status")


def test_a_file_over_the_cap_is_refused(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (scene_io.MAX_FILE_BYTES + 1))
    with pytest.raises(SceneError, match="too large"):
        scene_io.load(path)
    with pytest.raises(SceneError, match="too large"):
        scene_io.read_bytes(path, limit=10)


def test_unprintable_file_names_give_one_printable_line(tmp_path):
    for name in (os.fsdecode(b"bad\xff.json"), "two\nlines.json"):
        path = tmp_path / name
        path.write_bytes(b"\xff\xfe")
        with pytest.raises(SceneError) as info:
            scene_io.load(path)
        message = str(info.value)
        message.encode("utf-8")  # no lone surrogate from the undecodable byte
        assert "\n" not in message


# -- pasting ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "a " * 524288,
        "a.center " + "1 " * 500_000,
        "1\n" * 524_288,
        "a 1\n" * 262_144,
        "- " * 524_288,
        "9" * 1_048_000,
        "mode pair\n" * 100_000,
        '{"a": [' + "1," * 500_000 + "1]}",
        "[" * 1_048_000,
    ],
    # Ids without backslashes: a second collection in one process (the mutation run) would escape them again.
    ids=lambda t: t[:12].replace("\n", "|"),
)
def test_a_megabyte_paste_is_refused_in_well_under_a_second(text):
    started = time.perf_counter()
    with pytest.raises(SceneError) as info:
        parse_configuration(text)
    assert time.perf_counter() - started < 0.5
    assert "\n" not in str(info.value) and len(str(info.value)) < 400


def test_paste_errors_carry_line_and_location():
    with pytest.raises(SceneError) as info:
        parse_configuration("a.center 0 0 0\na.radius 1\nb.center 5 0 0\nb.radius -1\n")
    assert (info.value.line, info.value.path) == (4, ("bodies", 1, "radius"))
    assert str(info.value).startswith("line 4: B radius: must be in")
    with pytest.raises(SceneError) as info:
        parse_configuration('{"a": {"pos": [0, 0, 0], "r": 1},\n "b": {"pos": [5, 0, 0],\n "mass": 1e300, "r": 1}}')
    assert (info.value.line, info.value.path) == (3, ("bodies", 1, "mass"))
    with pytest.raises(SceneError) as info:
        parse_configuration(
            '{"a": {"pos": [0, 0, 0], "r": 1},\n "b": {"pos": [5, 0, 0], "r": 1,\n\n "name": "\\ud800"}}'
        )
    assert (info.value.line, info.value.path) == (4, ("bodies", 1, "name"))
    assert "B name: not valid Unicode text" in str(info.value)


# -- one rule per view field: a file with a value out of range is refused, naming the field -----------


@pytest.mark.parametrize(
    "view, path, needle",
    [
        ({"steps": 5000}, ("view", "steps"), "expected a whole number from 1 to 1000, got 5000"),  # loaded as 8 before
        ({"steps": 0}, ("view", "steps"), "from 1 to 1000"),
        ({"steps": 2.5}, ("view", "steps"), "whole number"),
        ({"layers": {"ghosts": True}}, ("view", "layers", "ghosts"), "unknown layer 'ghosts'"),
        (
            {"camera": {"position": [0, 0, 5], "focal_point": [0, 0, 0], "up": [0, 0, 1]}},
            ("view", "camera", "up"),
            "must not lie along the line of sight",
        ),  # fmt: skip
        ({"camera": {"position": [0, 0, 5]}}, ("view", "camera", "focal_point"), "missing"),
    ],
)
def test_the_view_block_is_checked_by_the_one_rule_of_each_field(view, path, needle):
    error = _refused(_text(_set("view", view)))
    assert error.path == path and needle in str(error), str(error)


def test_the_session_refuses_by_the_same_rules(tmp_path):
    from explorer.model.actions.session import Session

    session = Session(scene_io.load(DEFAULT_SCENE), DEFAULT_SCENE)
    with pytest.raises(SceneError, match="steps: expected a whole number from 1 to 1000"):
        session.set_steps(5000)
    with pytest.raises(SceneError, match="unknown layer 'ghosts'"):
        session.set_layer("ghosts", True)
    with pytest.raises(SceneError, match="camera.up: must not lie along the line of sight"):
        session.set_camera({"position": [0, 0, 5], "focal_point": [0, 0, 0], "up": [0, 0, 1]})
    assert session.layers.steps == 8 and session.camera.camera is None
