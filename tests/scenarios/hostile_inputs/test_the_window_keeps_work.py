"""The window never loses work: refused files, failed saves, bad typed values, hostile text, huge pastes."""

from __future__ import annotations

import json
import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from window_helpers import settle, show_panel, type_field

from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR


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
def test_opening_a_refused_file_changes_nothing_and_the_next_save_goes_where_it_went(
    qtbot, make_window, tmp_path, change
):
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


def test_a_megabyte_paste_into_the_paste_box_is_refused_before_it_is_shown(qtbot, make_window):
    """Before: pasting 1 MB into the paste box (Ctrl+Shift+V, then Ctrl+V) froze the window for minutes."""
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    window = make_window("default")
    QGuiApplication.clipboard().setText("1\n" * 524_288)
    seen = {}

    def inside_the_dialog():
        dialog = QApplication.activeModalWidget()
        seen["dialog"] = type(dialog).__name__
        dialog.editor.setFocus()
        QTest.keyClick(dialog.editor, Qt.Key_V, Qt.ControlModifier)
        seen["text"] = dialog.editor.toPlainText()
        seen["problem"] = dialog.problem.text()
        QGuiApplication.clipboard().setText("a.center 0 0 0\na.radius 1\nb.center 5 0 0\nb.radius 1\n")
        QTest.keyClick(dialog.editor, Qt.Key_V, Qt.ControlModifier)  # a configuration of normal size goes in
        seen["small"] = dialog.editor.toPlainText()
        dialog.reject()

    QTimer.singleShot(300, inside_the_dialog)
    QTest.keyClick(window, Qt.Key_V, Qt.ControlModifier | Qt.ShiftModifier)
    assert seen["dialog"] == "PasteDialog"
    assert seen["text"] == ""
    assert seen["problem"].startswith("text too large (1,048,576 characters; at most 65,536)"), seen["problem"]
    assert seen["small"].startswith("a.center 0 0 0")


def test_an_accepted_edit_takes_the_last_refusal_off_the_status_bar(qtbot, make_window):
    window = make_window("default")
    type_field(qtbot, window, "body.mass", "-1")
    message = window.statusBar().currentMessage()
    assert message.startswith("Refused: ") and "math" not in message, message
    assert "(or infinite: a fixed body)" in message
    type_field(qtbot, window, "body.mass", "2")
    assert window.session.scene.bodies[0].mass == 2.0
    assert not window.statusBar().currentMessage().startswith("Refused"), window.statusBar().currentMessage()


def test_a_motion_that_never_settles_is_cut_short_in_the_window(qtbot, make_window, tmp_path):
    """15 balls in a container over a horizon of 1e6 (before: 43 s to show, 10 000 events of plain Python)."""
    from explorer.model.derived.analysis import MOTION_EVENTS

    data = json.loads((SCENES_DIR / "gas_in_container.json").read_text())
    balls = [b for b in data["bodies"] if not b.get("container")]
    wall = next(b for b in data["bodies"] if b.get("container"))
    extra = []
    for k in range(15 - len(balls)):
        extra.append({"name": f"X{k}", "center": [0.5 * (k % 3) - 0.5, 0.5 * (k // 3) - 1.0, 0.0],
                      "velocity": [0.3 * (k % 2) - 0.1, 0.2, 0.1 * k], "radius": 0.1})  # fmt: skip
    data["bodies"] = balls + extra + [wall]
    data["horizon"] = 1e6
    path = tmp_path / "gas15.json"
    path.write_text(json.dumps(data))
    scene = scene_io.load(path)
    assert len(scene.bodies) == 16
    window = make_window("default")
    assert window.documents.open_file(path)
    solution = window.session.solution
    assert len(solution.events) == MOTION_EVENTS
    assert solution.path.stopped.startswith(f"cut short after {MOTION_EVENTS} events at t = ")
    assert solution.path.end < 1e6
    settle(qtbot)
