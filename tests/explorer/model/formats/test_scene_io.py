"""Scene files: round trip, refusal with a message naming the problem, atomic save."""

import json
import math
import os

import pytest

from explorer.model.formats import scene_io
from explorer.model.formats.gallery import DEFAULT_SCENE, gallery
from explorer.model.state.scene import MAX_BODIES, Scene, SceneBody, SceneError


def _data(**over):
    data = {
        "format": "sphere-explorer/1",
        "mode": "pair",
        "horizon": 1.0,
        "restitution": 1.0,
        "bodies": [
            {"name": "A", "center": [0, 0, 0], "velocity": [10, 0, 0], "radius": 1.0, "mass": 1.0},
            {"name": "B", "center": [5, 0, 0], "velocity": [0, 0, 0], "radius": 1.0, "mass": 1.0},
        ],
    }
    data.update(over)
    return data


def test_design_example_loads():
    scene = scene_io.from_dict(_data())
    assert scene.mode == "pair" and scene.bodies[0].velocity == (10.0, 0.0, 0.0)
    assert scene.bodies[1].mass == 1.0 and not scene.bodies[1].fixed


def test_round_trip_through_a_file_keeps_everything(tmp_path):
    scene = Scene(
        "inside",
        2.5,
        0.25,
        (
            SceneBody("ball", (0.1, 0.2, 0.3), (1.0, -2.0, 0.5), 0.4, 2.0),
            SceneBody("C", (0, 0, 0), (0, 0, 0), 3.0, math.inf),
        ),
        title="t",
        description="d",
        view={"layers": {"capsules": False}, "camera": {"position": [1, 2, 3], "focal_point": [0, 0, 0]}},
    )
    path = tmp_path / "s.json"
    scene_io.save(scene, path)
    again = scene_io.load(path)
    assert again == scene and again.view == scene.view
    assert json.loads(path.read_text())["bodies"][1] == {
        "name": "C",
        "center": [0.0, 0.0, 0.0],
        "velocity": [0.0, 0.0, 0.0],
        "radius": 3.0,
        "fixed": True,
    }
    assert again.layers["capsules"] is False and again.layers["roots"] is True


@pytest.mark.parametrize(
    "text, needle",
    [
        ("{", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        (json.dumps(_data(format="sphere-explorer/2")), "unknown version"),
        (json.dumps({k: v for k, v in _data().items() if k != "horizon"}), '"horizon"'),
        (json.dumps(_data(mode="orbit")), "mode"),
        (json.dumps(_data(horizon=-1)), "horizon"),
        (json.dumps(_data(horizon="1")), "horizon"),
        (json.dumps(_data(restitution=2)), "restitution"),
        (json.dumps(_data(extra=1)), "unknown key 'extra'"),
        (
            json.dumps(_data()).replace('"radius": 1.0, "mass": 1.0}]', '"radius": -1.0, "mass": 1.0}]'),
            "bodies[1].radius",
        ),
        (json.dumps(_data()).replace("[10, 0, 0]", "[10, 0]"), "bodies[0].velocity"),
        (json.dumps(_data()).replace("[10, 0, 0]", '[10, "x", 0]'), "bodies[0].velocity"),
        (json.dumps(_data()).replace("[10, 0, 0]", "[1e300, 0, 0]"), "bodies[0].velocity"),
        (json.dumps(_data()).replace("[10, 0, 0]", "[NaN, 0, 0]"), "NaN"),
        (json.dumps(_data()).replace("[10, 0, 0]", "[Infinity, 0, 0]"), "Infinity"),
        (json.dumps(_data()).replace('"B"', '"A"'), "duplicate"),
        (json.dumps(_data(bodies=[_data()["bodies"][0]])), "bodies"),
        (json.dumps(_data(bodies=[_data()["bodies"][0]] * (MAX_BODIES + 1))), "at most"),
        (json.dumps(_data(mode="inside")), "container must be larger"),
        (json.dumps(_data()).replace('"mass": 1.0}]', '"mass": 1.0, "fixed": true}]'), "either"),
    ],
)
def test_refused_files_name_the_problem(text, needle):
    with pytest.raises(SceneError) as info:
        scene_io.parse(text)
    message = str(info.value)
    assert needle in message and "\n" not in message


def test_absurdly_large_file_is_refused_unread(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (scene_io.MAX_FILE_BYTES + 1))
    with pytest.raises(SceneError, match="too large"):
        scene_io.load(path)


def test_binary_and_missing_files_are_refused(tmp_path):
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SceneError, match="UTF-8"):
        scene_io.load(path)
    with pytest.raises(SceneError, match="cannot read"):
        scene_io.load(tmp_path / "nope.json")


def test_failed_save_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "keep.json"
    scene = scene_io.from_dict(_data())
    scene_io.save(scene, path)
    before = path.read_bytes()

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(SceneError, match="cannot write"):
        scene_io.save(scene.with_changes(horizon=2.0), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.json"]


def test_every_gallery_scene_loads_and_has_a_description():
    files = gallery()
    assert files[0] == DEFAULT_SCENE and len(files) >= 8
    for path in files:
        scene = scene_io.load(path)
        assert len(scene.description) > 80, path.name
        assert scene.title, path.name


def test_edits_return_new_validated_scenes():
    scene = scene_io.from_dict(_data())
    moved = scene.with_body(1, center=(6.0, 0.0, 0.0))
    assert scene.bodies[1].center == (5.0, 0.0, 0.0) and moved.bodies[1].center == (6.0, 0.0, 0.0)
    with pytest.raises(SceneError, match="bodies\\[1\\].radius"):
        scene.with_body(1, radius=0.0)
    grown = scene.with_added_body()
    assert [b.name for b in grown.bodies] == ["A", "B", "C"]
    assert grown.without_body(2) == scene
    with pytest.raises(SceneError):
        scene.without_body(1)
    with pytest.raises(SceneError):
        scene.without_body(0)


@pytest.mark.parametrize(
    ("title", "stem"),
    [
        ("Δύο σφαίρες: A/B", "Δύο_σφαίρες_A_B"),  # Greek letters kept; ': ' and '/' one '_' each
        ("كرتان تتصادمان", "كرتان_تتصادمان"),  # Arabic letters kept
        ('a\\b*c?d"e<f>g|h', "a_b_c_d_e_f_g_h"),  # what no system allows in a name
        ("tab\there\nnew", "tab_here_new"),  # control characters
        ("...", "scene"),  # nothing left: the fallback
        (None, "scene"),
        ("x" * 200, "x" * scene_io.STEM_CHARACTERS),
    ],
)
def test_a_download_is_named_by_the_title_in_letters_of_every_script(title, stem):
    """At 4decb2d the page's downloads dropped every non-ASCII character: a Greek or Arabic title saved as _.json."""
    assert scene_io.file_stem(title) == stem
