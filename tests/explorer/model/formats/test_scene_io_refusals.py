"""Scene files refused: each message whole, with its place in the file, and the reader's limits at their edges.

The messages are what a user reads in the status bar after File → Open, so they
are compared word for word; the limits (size, literal lengths) are tried at
exactly the limit and one past it.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from explorer.model.formats import scene_io
from explorer.model.state.scene import MAX_BODIES, Scene, SceneBody, SceneError
from explorer.system.files import os_error_line, show_path

BASE = {
    "format": "sphere-explorer/1",
    "mode": "pair",
    "horizon": 1.0,
    "restitution": 1.0,
    "bodies": [
        {"name": "A", "center": [0, 0, 0], "velocity": [1, 0, 0], "radius": 1, "mass": 1},
        {"name": "B", "center": [5, 0, 0], "velocity": [0, 0, 0], "radius": 1, "fixed": True},
    ],
}


def changed(edit) -> dict:
    data = copy.deepcopy(BASE)
    edit(data)
    return data


def refusal(data) -> tuple[str, tuple]:
    with pytest.raises(SceneError) as info:
        scene_io.from_dict(data)
    return str(info.value), info.value.path


def text_refusal(text: str) -> tuple[str, int | None]:
    with pytest.raises(SceneError) as info:
        scene_io.parse(text)
    return str(info.value), info.value.line


# -- the file's structure ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, message, path",
    [
        ([BASE], "expected a JSON object at the top level, got list", ()),
        (changed(lambda d: d.pop("format")), 'missing key "format" (expected "sphere-explorer/1")', ()),
        (changed(lambda d: d.update(format="sphere-explorer/2")),
         "format: unknown version 'sphere-explorer/2' (this program reads 'sphere-explorer/1')", ("format",)),
        (changed(lambda d: d.pop("restitution")), 'missing key "restitution"', ()),
        (changed(lambda d: d.update(gravity=9.8, colour="red")), "unknown key 'colour'", ("colour",)),
        (changed(lambda d: d.update(bodies={"A": {}})), "bodies: expected a list of bodies", ("bodies",)),
        (changed(lambda d: d.update(bodies=d["bodies"] * (MAX_BODIES // 2 + 1))),
         f"bodies: at most {MAX_BODIES} bodies, got {2 * (MAX_BODIES // 2 + 1)}", ("bodies",)),
        (changed(lambda d: d["bodies"].__setitem__(1, [5, 0, 0])), "bodies[1]: expected an object", ("bodies", 1)),
        (changed(lambda d: d["bodies"][1].update(spin=3, colour="red")), "bodies[1]: unknown key 'colour'",
         ("bodies", 1)),
        (changed(lambda d: d["bodies"][0].pop("radius")), 'bodies[0]: missing key "radius"', ("bodies", 0)),
        (changed(lambda d: d["bodies"][1].pop("center")), 'bodies[1]: missing key "center"', ("bodies", 1)),
        (changed(lambda d: d["bodies"][1].update(fixed="yes")), "bodies[1].fixed: expected true or false",
         ("bodies", 1, "fixed")),
        (changed(lambda d: d["bodies"][1].update(mass=2)), 'bodies[1]: give either "mass" or "fixed": true, not both',
         ("bodies", 1)),
        (changed(lambda d: d["bodies"][0].update(velocity="fast")),
         "bodies[0].velocity: expected a list of 3 numbers, got 'fast'", ("bodies", 0, "velocity")),
        (changed(lambda d: d["bodies"][1].update(center={"x": 5})),
         "bodies[1].center: expected a list of 3 numbers, got {'x': 5}", ("bodies", 1, "center")),
    ],
)  # fmt: skip
def test_structure_refused_word_for_word(data, message, path):
    assert refusal(data) == (message, path)


def test_what_a_body_may_leave_out():
    """Name (its letter), velocity (at rest), mass (1), fixed (no), container (no); title and description ('')."""
    data = changed(lambda d: [d["bodies"][i].pop(k) for i, k in ((0, "name"), (0, "velocity"), (0, "mass"),
                                                                   (1, "name"), (1, "velocity"))])  # fmt: skip
    data["bodies"][1].pop("fixed")
    scene = scene_io.from_dict(data)
    assert scene.bodies == (SceneBody("A", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0, 1.0),
                            SceneBody("B", (5.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0, 1.0))  # fmt: skip
    assert (scene.title, scene.description) == ("", "")
    fixed = scene_io.from_dict(BASE)
    assert fixed.bodies[1].mass == float("inf")


# -- JSON text -------------------------------------------------------------------------------------


def test_the_text_and_its_size():
    with pytest.raises(SceneError) as info:
        scene_io.parse(b"{}")  # type: ignore[arg-type]
    assert str(info.value) == "expected text, got bytes"
    text = json.dumps(BASE)
    at_limit = text + " " * (scene_io.MAX_FILE_BYTES - len(text))
    assert scene_io.parse(at_limit).bodies[0].velocity == (1.0, 0.0, 0.0)
    over = at_limit + " "
    assert text_refusal(over)[0] == (
        f"file too large ({scene_io.MAX_FILE_BYTES + 1:,} characters; a scene file is at most {scene_io.MAX_FILE_BYTES:,} "
        "bytes)"
    )


def test_literals_at_their_limits():
    ok_int = "1" + "0" * (scene_io.MAX_INT_DIGITS - 1)  # 40 digits: read
    assert scene_io.decode_json(f"[{ok_int}, -{ok_int}]") == [int(ok_int), -int(ok_int)]
    long_int = ok_int + "0"
    assert text_refusal('{\n"a":\n' + long_int + "}") == (
        f"line 3: not valid JSON: integer literal of 41 digits is too long (at most {scene_io.MAX_INT_DIGITS})",
        3,
    )
    ok_float = "1." + "0" * (scene_io.MAX_NUMBER_CHARS - 2)  # 100 characters: read
    assert scene_io.decode_json(f"[{ok_float}]") == [1.0]
    long_float = ok_float + "1"
    # the same literal twice: the first is the one refused, and its line is given
    message = f"not valid JSON: number literal of 101 characters is too long (at most {scene_io.MAX_NUMBER_CHARS})"
    assert text_refusal('{\n\n"a": [\n' + long_float + ",\n" + long_float + "]}") == (f"line 4: {message}", 4)
    assert text_refusal("[1,\n-1e999]") == ("line 2: not valid JSON: number -1e999 is beyond the float range (±1.8e308)",
                                            2)  # fmt: skip
    assert text_refusal("[1e999]")[0] == "line 1: not valid JSON: number 1e999 is beyond the float range (±1.8e308)"


def test_a_key_given_twice_names_the_key_and_its_line():
    assert text_refusal('{"format": "sphere-explorer/1",\n\n "mode": "pair", "mode": "all"}') == (
        "line 3: not valid JSON: key 'mode' given twice",
        3,
    )
    at_forty = "k" * 38  # 40 characters with its quotes: shown whole
    assert text_refusal(f'{{"{at_forty}": 1, "{at_forty}": 2}}')[0] == (
        f"line 1: not valid JSON: key '{at_forty}' given twice"
    )
    longer = "k" * 39
    assert text_refusal(f'{{"{longer}": 1, "{longer}": 2}}')[0] == (
        f"line 1: not valid JSON: key '{'k' * 36}... given twice"
    )


def test_nesting_too_deep_is_refused_on_line_1():
    assert text_refusal("[" * 100_000 + "]" * 100_000) == ("line 1: not valid JSON: nested too deeply", 1)


def test_line_of_counts_the_newlines_before_the_index():
    assert [scene_io.line_of("\nab\nc", i) for i in range(5)] == [1, 2, 2, 2, 3]


# -- the file ------------------------------------------------------------------------------------------


def test_dumps_writes_two_space_indented_json_with_a_final_newline():
    scene = scene_io.from_dict(BASE)
    text = scene_io.dumps(scene)
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text.splitlines()[1] == '  "format": "sphere-explorer/1",'
    assert json.loads(text) == scene_io.to_dict(scene)


def test_read_bytes_at_its_limit_and_one_past(tmp_path: Path):
    path = tmp_path / "scene.json"
    path.write_bytes(b"x" * 10)
    assert scene_io.read_bytes(path, limit=10) == b"x" * 10
    with pytest.raises(SceneError) as info:
        scene_io.read_bytes(path, limit=9)
    assert str(info.value) == f"{show_path(path)}: file too large (10 bytes; a scene file is at most 9 bytes)"
    big = tmp_path / "big.json"
    content = bytes(range(256)) * 400  # 102,400 bytes: read in more than one piece
    big.write_bytes(content)
    assert scene_io.read_bytes(big) == content


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="needs Linux's /proc")
def test_a_file_whose_size_is_not_known_in_advance_is_read_to_the_limit():
    """Files in /proc say they are 0 bytes long: the reader reads until the end, or one byte past the limit."""
    content = Path("/proc/version").read_bytes()
    n = len(content)
    assert os.stat("/proc/version").st_size == 0
    assert scene_io.read_bytes("/proc/version", limit=n) == content
    with pytest.raises(SceneError) as info:
        scene_io.read_bytes("/proc/version", limit=n - 1)
    assert (
        str(info.value)
        == f"/proc/version: file too large (more than {n - 1:,} bytes; a scene file is at most {n - 1:,} bytes)"
    )


def test_what_cannot_be_read_is_named(tmp_path: Path):
    with pytest.raises(SceneError) as info:
        scene_io.read_bytes(tmp_path)
    assert str(info.value) == f"{show_path(tmp_path)}: cannot read a folder; expected a scene file"
    missing = tmp_path / "gone.json"
    with pytest.raises(SceneError) as info:
        scene_io.read_bytes(missing)
    assert str(info.value) == f"{show_path(missing)}: cannot read (No such file or directory)"


def test_an_operating_system_error_in_one_line():
    assert os_error_line(OSError(28, "No space left on device", "out/scene.json")) == (
        "out/scene.json: No space left on device"
    )
    assert os_error_line(OSError("the disk went away")) == "the disk went away"


def test_a_loaded_file_keeps_its_text_fields():
    scene = Scene("pair", 1.0, 1.0, (SceneBody("A", (0, 0, 0), (1, 0, 0), 1.0), SceneBody("B", (5, 0, 0), (0, 0, 0), 1.0)),
                  title="Zürich", description="Ünïcode — kept")  # fmt: skip
    again = scene_io.parse(scene_io.dumps(scene))
    assert (again.title, again.description) == ("Zürich", "Ünïcode — kept")
