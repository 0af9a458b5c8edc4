"""The window's motion timer: Play moves the time on until Pause, and Ctrl+B turns the view to B's rest frame.

Driven as a user drives the window (a click on Play, the menu's shortcut), under Xvfb.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


def test_play_moves_the_time_on_and_pause_holds_it(qtbot, make_window):
    window = make_window("default")
    session = window.session
    assert session.view.time == 0.0 and not session.view.playing
    qtbot.mouseClick(window.time_bar.play, Qt.LeftButton)
    assert session.view.playing
    qtbot.waitUntil(lambda: session.view.time > 0.0, timeout=5000)
    qtbot.mouseClick(window.time_bar.play, Qt.LeftButton)
    assert not session.view.playing
    held = session.view.time
    qtbot.wait(200)
    assert session.view.time == held > 0.0


def test_the_turn_to_b_s_rest_frame_runs_to_its_end(qtbot, make_window):
    window = make_window("seed002_both_moving")
    session = window.session
    QTest.keyClick(window, Qt.Key_B, Qt.ControlModifier)
    assert session.view.rest_frame and session.view.reference == 0.0
    qtbot.waitUntil(lambda: session.view.reference == 1.0, timeout=5000)
    QTest.keyClick(window, Qt.Key_B, Qt.ControlModifier)
    qtbot.waitUntil(lambda: session.view.reference == 0.0, timeout=5000)
    assert session.view.time == 0.0  # turning does not play
