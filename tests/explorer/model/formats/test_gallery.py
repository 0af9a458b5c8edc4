"""The gallery's list of scenes: the default first, then the others by name, each once."""

from __future__ import annotations

from explorer.model.formats.gallery import DEFAULT_SCENE, SCENES_DIR, gallery


def test_the_default_first_then_every_other_scene_file_once_by_name():
    listed = gallery()
    others = sorted(p for p in SCENES_DIR.iterdir() if p.suffix == ".json" and p.name != DEFAULT_SCENE.name)
    assert listed == [DEFAULT_SCENE, *others]
    assert len(set(listed)) == len(listed) > 10
