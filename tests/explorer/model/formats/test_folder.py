"""Stepping through a folder of scene files (the worst cases an audit wrote): order, wrap-around, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.model.formats.folder import SceneFolder
from explorer.model.state.scene import SceneError


def folder_of(tmp_path: Path, names: list[str]) -> Path:
    for name in names:
        (tmp_path / name).write_text("{}")
    return tmp_path


def test_the_scene_files_in_name_order_and_nothing_else(tmp_path: Path):
    folder = folder_of(tmp_path, ["b.json", "a.JSON", "c.json", "notes.txt", "json", "d.json.bak"])
    (tmp_path / "e.json").mkdir()  # a folder named like a scene file is not one
    scenes = SceneFolder(folder)
    assert [p.name for p in scenes.paths] == ["a.JSON", "b.json", "c.json"]
    assert (scenes.folder, scenes.index, scenes.current, scenes.position()) == (folder, 0, folder / "a.JSON", "1 / 3")


def test_starting_at_a_file_and_stepping_round(tmp_path: Path):
    folder = folder_of(tmp_path, ["a.json", "b.json", "c.json"])
    scenes = SceneFolder(str(folder), str(folder / "b.json"))
    assert (scenes.index, scenes.position()) == (1, "2 / 3")
    assert scenes.step(1) == folder / "c.json"
    assert scenes.step(1) == folder / "a.json"  # past the last: back to the first
    assert scenes.position() == "1 / 3"
    assert scenes.step(-1) == folder / "c.json"
    assert scenes.step(-4) == folder / "b.json"
    assert scenes.step(0) == folder / "b.json"
    assert isinstance(scenes.index, int)


def test_a_start_not_in_the_folder_starts_at_the_first(tmp_path: Path):
    folder = folder_of(tmp_path, ["a.json", "b.json"])
    assert SceneFolder(folder, tmp_path / "elsewhere.json").index == 0
    assert SceneFolder(folder, None).current == folder / "a.json"


def test_an_empty_folder_and_a_missing_one_are_refused_by_name(tmp_path: Path):
    folder_of(tmp_path, ["readme.txt"])
    with pytest.raises(SceneError) as info:
        SceneFolder(tmp_path)
    assert str(info.value) == f"{tmp_path}: no scene files (*.json) in this folder"
    missing = tmp_path / "gone"
    with pytest.raises(SceneError) as info:
        SceneFolder(missing)
    assert str(info.value) == f"{missing}: cannot read the folder (No such file or directory)"


def test_a_folder_name_with_control_characters_is_shown_on_one_line(tmp_path: Path):
    """A name holding a newline or a terminal escape is printed escaped, as every other refusal prints a path."""
    for name in ("two\nlines", "red\x1b[31m"):
        with pytest.raises(SceneError) as info:
            SceneFolder(tmp_path / name)
        shown = str(tmp_path / name).encode("unicode_escape").decode("ascii")
        assert str(info.value) == f"{shown}: cannot read the folder (No such file or directory)"
        (tmp_path / name).mkdir()
        with pytest.raises(SceneError) as info:
            SceneFolder(tmp_path / name)
        assert str(info.value) == f"{shown}: no scene files (*.json) in this folder"
