"""The window never loses work: refused files, failed saves, bad typed values, hostile text, huge pastes."""

from __future__ import annotations

import json
import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from explorer.model import scene_io
from explorer.model.gallery import SCENES_DIR

from window_helpers import settle, show_panel, type_field


def _scene_data(**changes) -> dict:
    data = json.loads((SCENES_DIR / "default.json").read_text())
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["bodies"][0].update(mass=5e-324),
        lambda d: d["bodies"][0].update(mass=1e308),
        lambda d: d["bodies"][1].update(radius=10**400),
        lambda d: d.update(view={"zoom": "1e309", "camera": ["nan", 0, 0]}),
        lambda d: d.update(title="\ud800"),
    ],
    ids=["tiny mass", "huge mass", "huge radius", "bad view", "lone surrogate"],
)
def test_opening_a_refused_file_changes_nothing_and_the_next_save_goes_where_it_went(qtbot, make_window, tmp_path, change):
    window = make_window("default")
    mine = tmp_path / "mine.json"
    assert window.documents.save_to(mine)
    type_field(qtbot, window, "body.center.1", "2")
    edited, history = window.session.scene, window.session.history.undo_label
    data = _scene_data()
    change(data)
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(data, ensure_ascii=True) if "surrogate" not in str(data) else json.dumps(data))
    before = hostile.read_bytes()
    errors = []
    window.documents.error_dialog = lambda title, message: errors.append(message)
    assert not window.documents.open_file(hostile)
    assert errors and "\n" not in errors[-1]
    assert window.session.scene == edited and window.session.history.undo_label == history
    assert window.session.path == mine  # the save path did not move to the refused file
    window.documents.ask_save()  # Ctrl+S
    assert hostile.read_bytes() == before  # ...so the refused file is never overwritten
    assert scene_io.load(mine).bodies[0].center[1] == 2


@pytest.mark.parametrize("where", ["missing folder", "a folder", "a device"])
def test_a_failed_save_is_said_in_a_dialog_and_the_save_path_stays(qtbot, make_window, tmp_path, where):
    window = make_window("default")
    mine = tmp_path / "mine.json"
    assert window.documents.save_to(mine)
    target = {"missing folder": tmp_path / "gone" / "scene.json", "a folder": tmp_path, "a device": "/dev/null"}[where]
    errors = []
    window.documents.error_dialog = lambda title, message: errors.append((title, message))
    type_field(qtbot, window, "horizon", "2")
    assert not window.documents.save_to(target)
    assert errors and errors[-1][0] == "Cannot save scene" and "\n" not in errors[-1][1]
    assert window.session.path == mine
    assert scene_io.load(mine).horizon == 1.0  # the last good save is whole


@pytest.mark.parametrize("text", ["1e308", "5e-324", "nan", "-1", "1e400", "abc"])
def test_a_bad_typed_mass_is_refused_with_a_message_and_never_reaches_undo(qtbot, make_window, text):
    window = make_window("default")
    label = window.session.history.undo_label
    type_field(qtbot, window, "body.mass", text)
    assert window.session.scene.bodies[0].mass == 1.0
    assert window.session.history.undo_label == label
    message = window.statusBar().currentMessage()
    assert message.startswith("Refused") and "mass" in message
    assert window.scene_panel.mass.text() == "1"


def test_names_and_titles_are_shown_as_text_never_as_markup(qtbot, make_window, tmp_path):
    window = make_window("default")
    data = _scene_data(title="<b>bold</b> & <i>x</i>", description="<a href='x'>link</a>")
    data["bodies"][0]["name"] = "<b>A</b>"
    path = tmp_path / "markup.json"
    path.write_text(json.dumps(data))
    assert window.documents.open_file(path)
    show_panel(qtbot, window, "Scene")
    assert window.scene_panel.title.text() == "<b>bold</b> & <i>x</i>"
    assert window.scene_panel.title.textFormat() == Qt.PlainText
    assert window.scene_panel.description.textFormat() == Qt.PlainText
    show_panel(qtbot, window, "Values")
    assert window.values.status_label.textFormat() == Qt.PlainText
    assert "<b>A</b>" in window.values.status_label.text()
    assert "<b>A</b> after" in window.values.text()  # the table's plain-text labels show the name as typed
    assert all(label.textFormat() == Qt.PlainText for label in window.values.findChildren(QLabel) if label.text())


def test_a_megabyte_paste_is_answered_in_well_under_a_second(qtbot, make_window):
    window = make_window("default")
    errors = []
    window.documents.error_dialog = lambda title, message: errors.append(message)
    before = window.session.scene
    start = time.perf_counter()
    assert not window.documents.open_pasted("a " * 524288)
    elapsed = time.perf_counter() - start
    assert errors and window.session.scene == before
    assert elapsed < 1.0, elapsed
    settle(qtbot)
