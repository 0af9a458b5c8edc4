"""docs/_ext/scene_gallery.py: a kept picture is used again only for the same scene file, size and drawing code;
every scene's section has an id of its own."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
from scene_gallery import code_digest, picture_name, section_ids  # noqa: E402


def test_a_picture_is_named_by_its_scene_file_and_the_code_that_draws_it(tmp_path):
    scene = tmp_path / "graze.json"
    scene.write_bytes(b'{"format": "sphere-explorer/1"}')
    code = code_digest()
    name = picture_name(scene, code)
    assert name.startswith("graze-") and name.endswith(".png")
    assert picture_name(scene, code) == name == picture_name(scene, code_digest())  # the same: kept
    assert picture_name(scene, code + "0") != name  # the drawing code changed
    scene.write_bytes(b'{"format": "sphere-explorer/1" }')
    assert picture_name(scene, code) != name  # the scene changed


def test_every_scene_s_section_has_an_id_of_its_own_however_alike_the_names():
    """At 4decb2d ``a_b.json`` and ``a-b.json`` got one id, so both links went to the first."""
    stems = ["default", "a_b", "a-b", "A B", "Σφαίρες", "كرة", "كرة2"]
    ids = section_ids(stems)
    assert len(set(ids)) == len(ids), ids
    assert ids[0] == "scene-default"  # a name no other shares keeps the id docutils gives it
    assert section_ids(stems) == ids  # the same every build: links keep working
