"""Pasted configurations: every accepted form gives the expected scene; errors name the line."""

from __future__ import annotations

import json
import math

import pytest

from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR, gallery
from explorer.model.formats.paste import PASTE_HELP, TITLE, parse_configuration
from explorer.model.state.scene import Scene, SceneBody, SceneError


def _physics(scene: Scene):
    """Everything but the title and description."""
    return (scene.mode, scene.horizon, scene.restitution, scene.bodies)


def _expected(ca, va, ra, cb, vb, rb, horizon=1.0, mode="pair", mass_a=1.0, mass_b=1.0, restitution=1.0):
    return Scene(mode, horizon, restitution, (SceneBody("A", ca, va, ra, mass_a), SceneBody("B", cb, vb, rb, mass_b)))


DEFAULTISH = _expected((1.0, 2.0, 3.0), (4.0, 0.0, 0.0), 1.0, (5.0, 0.0, 0.0), (0.0, 0.0, 0.0), 2.0, horizon=0.016)


# -- plain text, labelled ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "a.center: 1 2 3\nA velocity = 4, 0, 0\na radius 1\nb.center: 5 0 0\nb radius 2\nhorizon 0.016\n",
        "# from the engine log\n\nA.Centre = (1, 2, 3)\na_vel: [4 0 0]   # per frame\nA R 1\n"
        "B.POS 5,0,0\nb.rad: 2\ndt 0.016\n",
        "ra 1\nrb 2\npa 1 2 3\npb 5 0 0\nva 4 0 0\nh 0.016",  # any order, fused labels
        "body_a.position: 1.0f, 2.0f, 3.0f\nbody_a.v: 4 0 0\nsphere_a radius: 1\nbody_b position 5 0 0\n"
        "body_b velocity 0 0 0\nbody_b radius 2\nhorizon: 1.6e-2\n",
        "a.center\t1;2;3\r\na.velocity 4 0 0\r\na.radius 1\r\nb.center 5 0 0\r\nb.radius 2\r\nhorizon 0.016\r\n",
    ],
)
def test_labelled_lines_in_any_spelling(text):
    scene = parse_configuration(text)
    assert _physics(scene) == _physics(DEFAULTISH)
    assert scene.title == TITLE
    assert "plain text" in scene.description and "labelled" in scene.description


def test_labelled_defaults_and_extras():
    scene = parse_configuration("a.center 0 0 0\na.radius 1\nb.center 5 0 0\nb.radius 1\n")
    assert _physics(scene) == _physics(
        _expected((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0, (5.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0)
    )
    assert [b.name for b in scene.bodies] == ["A", "B"] and [b.mass for b in scene.bodies] == [1.0, 1.0]
    scene = parse_configuration(
        "mode inside\na.center 0 0 0\na.v 1 0 0\na.radius 1\nb.center 0 0 0\nb.radius 3\nb fixed\n"
        "a mass 2.5\nrestitution 0.5\n"
    )
    assert _physics(scene) == _physics(
        _expected(
            (0.0, 0.0, 0.0),
            (1.0, 0.0, 0.0),
            1.0,
            (0.0, 0.0, 0.0),
            (0.0, 0.0, 0.0),
            3.0,
            mode="inside",
            mass_a=2.5,
            mass_b=math.inf,
            restitution=0.5,
        )
    )


# -- plain text, unlabelled -------------------------------------------------------------


def test_unlabelled_lines_in_order():
    text = "1 2 3\n4, 0, 0\n1\n# B\n5 0 0\n0 0 0\n2\n0.016\n"
    scene = parse_configuration(text)
    assert _physics(scene) == _physics(DEFAULTISH)
    assert "unlabelled" in scene.description and "horizon" in scene.description
    six = parse_configuration("1 2 3\n4 0 0\n1\n5 0 0\n0 0 0\n2\n")
    assert _physics(six) == _physics(DEFAULTISH.with_changes(horizon=1.0))
    assert "horizon" not in six.description


# -- JSON --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"a": {"center": [1, 2, 3], "velocity": [4, 0, 0], "radius": 1}, "b": {"center": [5, 0, 0], "radius": 2}, "horizon": 0.016, "mode": "pair"}',
        '{"A": {"Pos": [1, 2, 3], "VEL": {"x": 4, "y": 0, "z": 0}, "R": 1},\n "B": {"position": [5, 0, 0], "v": [0, 0, 0], "r": 2},\n "dt": 0.016}',
        '{"h": 0.016, "b": {"p": [5.0, 0.0, 0.0], "radius": 2.0}, "a": {"p": [1.0, 2.0, 3.0], "v": [4, 0, 0], "r": 1}}',
    ],
)
def test_compact_json(text):
    scene = parse_configuration(text)
    assert _physics(scene) == _physics(DEFAULTISH)
    assert scene.title == TITLE and "compact JSON" in scene.description


def test_compact_json_fixed_mass_name_and_inside_mode():
    scene = parse_configuration(
        '{"a": {"pos": [0,0,0], "vel": [1,0,0], "r": 1, "mass": 3, "name": "ball"},'
        ' "b": {"pos": [0,0,0], "r": 4, "fixed": true, "name": "bowl"}, "mode": "inside", "restitution": 0.25}'
    )
    assert scene.mode == "inside" and scene.restitution == 0.25
    assert [b.name for b in scene.bodies] == ["ball", "bowl"]
    assert scene.bodies[0].mass == 3.0 and scene.bodies[1].fixed


@pytest.mark.parametrize("path", gallery(), ids=lambda p: p.stem)
def test_a_whole_scene_file_reads_as_itself(path):
    text = path.read_text()
    assert parse_configuration(text) == scene_io.parse(text)


def test_a_scene_file_without_title_gets_one():
    data = scene_io.to_dict(scene_io.load(SCENES_DIR / "default.json"))
    del data["title"], data["description"]
    scene = parse_configuration(json.dumps(data))
    assert scene.title == TITLE and scene.description
    assert _physics(scene) == _physics(scene_io.load(SCENES_DIR / "default.json"))


# -- round trips of every two-body gallery scene through each pasted form ------------------


def _two_body_scenes():
    out = []
    for path in gallery():
        scene = scene_io.load(path)
        if len(scene.bodies) == 2:
            out.append(scene.with_body(0, name="A").with_body(1, name="B"))
    assert len(out) >= 10
    return out


def _nums(vector):
    return " ".join(repr(x) for x in vector)


def _as_labelled(scene: Scene) -> str:
    lines = [f"mode: {scene.mode}", f"horizon = {scene.horizon!r}", f"restitution {scene.restitution!r}"]
    for label, body in zip("ab", scene.bodies):
        lines += [
            f"{label}.center: {_nums(body.center)}",
            f"{label}.velocity: {_nums(body.velocity)}",
            f"{label}.radius: {body.radius!r}",
        ]
        lines.append(f"{label} fixed" if body.fixed else f"{label}.mass: {body.mass!r}")
    return "\n".join(lines)


def _as_unlabelled(scene: Scene) -> str:
    a, b = scene.bodies
    return "\n".join(
        [
            _nums(a.center),
            _nums(a.velocity),
            repr(a.radius),
            _nums(b.center),
            _nums(b.velocity),
            repr(b.radius),
            repr(scene.horizon),
        ]
    )


def _as_compact(scene: Scene) -> str:
    data = {"mode": scene.mode, "h": scene.horizon, "restitution": scene.restitution}
    for label, body in zip("ab", scene.bodies):
        item = {"pos": list(body.center), "vel": list(body.velocity), "r": body.radius}
        item.update({"fixed": True} if body.fixed else {"mass": body.mass})
        data[label] = item
    return json.dumps(data)


def test_every_form_round_trips_two_body_gallery_scenes_bit_for_bit():
    for scene in _two_body_scenes():
        assert _physics(parse_configuration(_as_labelled(scene))) == _physics(scene)
        assert _physics(parse_configuration(_as_compact(scene))) == _physics(scene)
        unlabelled = parse_configuration(_as_unlabelled(scene))
        if (
            scene.mode == "pair"
            and scene.restitution == 1.0
            and not any(b.fixed or b.mass != 1.0 for b in scene.bodies)
        ):
            assert _physics(unlabelled) == _physics(scene)
        else:  # the unlabelled form carries only centres, velocities, radii and the horizon
            assert [(b.center, b.velocity, b.radius) for b in unlabelled.bodies] == [
                (b.center, b.velocity, b.radius) for b in scene.bodies
            ]
            assert unlabelled.horizon == scene.horizon


def test_the_help_examples_parse():
    blocks, block = [], []
    for line in PASTE_HELP.splitlines()[2:]:
        if line.startswith("  "):
            block.append(line[2:])
        elif block:
            blocks.append("\n".join(block))
            block = []
    if block:
        blocks.append("\n".join(block))
    scenes = [parse_configuration(b) for b in blocks]
    assert len(scenes) == 3
    assert all(_physics(s) == _physics(scenes[0]) for s in scenes)


# -- errors name the line --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("0 0 0\n10 0 0\n1\n5 0 0\n0 0\n1\n", "line 5: expected 3 numbers for B velocity, got 2"),
        ("a.center: 0 0 0\n\n# comment\nA velocity = 4, 0\n", "line 4: expected 3 numbers for A velocity, got 2"),
        ("a.center: 0 0 0\na radius 1 2\n", "line 2: expected 1 number for A radius, got 2"),
        ("a.center: 0 0 x\n", "line 1: expected 3 numbers for A centre, got 'x'"),
        ("a.center: 0 0 nan\n", "line 1: expected finite numbers for A centre"),
        ("a.center: 0 0 0\nwind 3 0 0\n", "line 2: unknown label 'wind'"),
        ("a.center: 0 0 0\n1 2 3\n", "line 2: expected a label"),
        ("1 2 3\nb.center 1 2 3\n", "line 2: expected only numbers"),
        ("a.center 0 0 0\na.radius 1\nb.center 5 0 0\n", "line 4: end of text, expected a line for B radius"),
        ("a.center 0 0 0\na.radius 1\nb.center 5 0 0\nb.radius -1\n", "line 4: B radius: must be in"),
        ("a.center 0 0 0\na.radius 1\nb.center 5 0 0\nb.radius 1\nhorizon 0\n", "line 5: horizon: must be"),
        (
            "a.center 0 0 0\na.radius 1\nb.center 5 0 0\nb.radius 1\na.center 1 1 1\n",
            "line 5: A centre given twice (first on line 1)",
        ),
        ("mode sideways\n", "line 1: expected 'pair' or 'inside' for mode"),
        (
            "mode inside\na.center 0 0 0\na.radius 2\nb.center 0 0 0\nb.radius 1\n",
            "line 5: B radius: the container must be larger",
        ),
        ("a.center 2e12 0 0\na.radius 1\nb.center 0 0 0\nb.radius 1\n", "line 1: A centre: components must be within"),
        ("1 2 3\n4 5 6\n1\n", "line 4: end of text, expected a line of 3 numbers for B centre"),
        ("0 0 0\n0 0 0\n1\n5 0 0\n0 0 0\n1\n1\n9\n", "line 8: expected at most 7 lines"),
        ("   \n\t\n", "line 1: nothing to read"),
        ("   \n# only a comment\n", "line 3: end of text, only comments"),
        (
            '{"a": {"pos": [0, 0, 0], "r": 1},\n "b": {"pos": [5, 0],\n "r": 1}}',
            "line 2: expected 3 numbers for B centre, got 2",
        ),
        ('{"a": {"pos": [0, 0, 0], "r": 1},\n "b": {"pos": [5, 0, 0],\n "r": -1}}', "line 3: B radius: must be in"),
        (
            '{"a": {"pos": [0, 0, 0], "r": 1},\n\n "b": {"pos": [5, 0, 0], "spin": 3, "r": 1}}',
            'line 3: unknown key "spin" in B',
        ),
        ('{"a": {"pos": [0, 0, 0], "r": 1},\n "b": {"pos": [5, 0, 0]\n "r": 1}}', "line 3: not valid JSON"),
        ('{"a": {"pos": [0, 0, 0], "r": 1},\n "b": {"pos": [5, 0, 0],\n "r": NaN}}', "line 3: not valid JSON: NaN"),
        (
            '{"a": {"pos": [0, 0, 0], "r": 1},\n "b": {"pos": [5, 0, 0], "r": 1},\n "gravity": 9.8}',
            'line 3: unknown key "gravity"',
        ),
        ('{"a": {"pos": [0, 0, 0], "r": 1}}', 'line 1: expected an object "b"'),
        (
            '{"a": {"pos": [0, 0, 0], "r": 1},\n "b": {"pos": [5, 0, 0], "r": 1},\n "dt": "fast"}',
            "line 3: expected a number for horizon",
        ),
        ('{"a": {"pos": [0, 0, 0]},\n "b": {"pos": [5, 0, 0], "r": 1}}', 'line 1: expected "radius" in body A'),
    ],
)
def test_errors_name_the_line_and_what_was_expected(text, message):
    with pytest.raises(SceneError) as info:
        parse_configuration(text)
    text_of_error = str(info.value)
    assert message in text_of_error
    assert "\n" not in text_of_error


def test_a_whole_scene_file_error_is_scene_io_s():
    data = scene_io.to_dict(scene_io.load(SCENES_DIR / "default.json"))
    data["bodies"][1]["radius"] = -1
    with pytest.raises(SceneError, match=r"bodies\[1\]\.radius"):
        parse_configuration(json.dumps(data))


def test_refuses_non_text_and_huge_input():
    with pytest.raises(SceneError, match="expected text"):
        parse_configuration(b"0 0 0")  # type: ignore[arg-type]
    with pytest.raises(SceneError, match="too large"):
        parse_configuration("0 " * (1 << 20))
