"""The 3-D view by keyboard only: real key events to the window's view — Tab to a body, arrow keys move it in the
plane a drag would, Shift+arrows its velocity, Ctrl a tenth of a step, + and − the step; each press one undoable
edit, and what is selected said in the status bar and the view's accessible name."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from window_helpers import settle

from explorer.model.derived.analysis import solve, to_dict


@pytest.fixture
def keyed(qtbot, make_window):
    """The default scene's window with its 3-D view focused, as a click on it or Tab would leave it."""
    window = make_window("default")
    view = window.viewport.plotter.interactor
    view.setFocus(Qt.TabFocusReason)
    qtbot.waitUntil(view.hasFocus)
    return window, view


def _key(qtbot, view, key, modifiers=Qt.NoModifier) -> None:
    QTest.keyClick(view, key, modifiers)
    settle(qtbot)


def test_tab_selects_a_body_and_the_arrows_move_it_one_step_in_the_view_s_plane(qtbot, keyed):
    window, view = keyed
    session = window.session
    _key(qtbot, view, Qt.Key_Tab)  # A is selected at the start: Tab goes to B, Shift+Tab back to A
    assert session.selection.selected == 1
    _key(qtbot, view, Qt.Key_Backtab)
    assert session.selection.selected == 0
    assert window.statusBar().currentMessage().startswith("A selected: centre (−5, −1.2, 0), velocity (9, 1, 0)")
    assert "A selected" in view.accessibleName()
    step = window.viewport.keys.step()
    assert step == window.viewport.drawing.placement.marker  # the picture's marker size
    a = session.scene.bodies[0]
    _key(qtbot, view, Qt.Key_Right)  # the default camera looks down on the x-y plane, x to the right
    second = window.viewport.keys.step()  # the marker follows the picture's framing, which A's move changed
    _key(qtbot, view, Qt.Key_Up)
    moved = session.scene.bodies[0]
    assert moved.center == pytest.approx((a.center[0] + step, a.center[1] + second, a.center[2]))
    assert moved.velocity == a.velocity
    third = window.viewport.keys.step()
    _key(qtbot, view, Qt.Key_Up, Qt.ShiftModifier)  # the arrow tip: the velocity, by a step over the horizon (1)
    assert session.scene.bodies[0].velocity == pytest.approx((a.velocity[0], a.velocity[1] + third, a.velocity[2]))
    assert session.scene.bodies[0].center == moved.center
    fine = window.viewport.keys.step(fine=True)
    assert fine == pytest.approx(window.viewport.keys.step() / 10)
    _key(qtbot, view, Qt.Key_Left, Qt.ControlModifier)  # a tenth of a step
    assert session.scene.bodies[0].center[0] == pytest.approx(a.center[0] + step - fine)
    assert to_dict(session.solution) == to_dict(solve(session.scene))
    for _ in range(4):  # four presses, four undoable edits
        session.undo()
    assert session.scene.bodies[0] == a


def test_plus_and_minus_change_the_step_and_tab_past_the_last_body_leaves_the_view(qtbot, keyed):
    window, view = keyed
    keys = window.viewport.keys
    first = keys.step()
    _key(qtbot, view, Qt.Key_Plus)
    assert keys.step() == pytest.approx(2 * first)
    _key(qtbot, view, Qt.Key_Minus)
    _key(qtbot, view, Qt.Key_Minus)
    assert keys.step() == pytest.approx(first / 2)
    _key(qtbot, view, Qt.Key_Tab)  # to B, the last body
    _key(qtbot, view, Qt.Key_Tab)  # past it: the focus goes on to the next widget
    assert window.session.selection.selected == 1
    qtbot.waitUntil(lambda: not view.hasFocus())


def test_a_move_beyond_the_limits_is_refused_in_one_line_and_nothing_changes(qtbot, keyed):
    window, view = keyed
    keys = window.viewport.keys
    keys.scale = 1e300  # as if + had been pressed without end: a step far beyond the coordinate limit
    before = window.session.scene
    _key(qtbot, view, Qt.Key_Right)
    assert window.session.scene == before
    assert window.statusBar().currentMessage().startswith("Refused: ")
