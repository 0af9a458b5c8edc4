"""The window's 3-D view during a drag: where it pays, each move's preview is worked out in another thread while a
frame renders (the drag drawn one frame behind the pointer); elsewhere it is worked out and drawn at once.

Whether it pays is decided from timings (:data:`explorer.qt.viewport.PREVIEW_SHARE`,
:data:`~explorer.qt.viewport.MOVES_AS_FAST_AS_FRAMES`); each test sets them so that the path it tests is taken
whatever the machine's speed and load.  The window is opened as ``sphere-explorer SCENE`` opens it
(``make_window``); the moves are real mouse events on the view's widget, each sent once the previous one was
handled, as with a 125 Hz mouse.
"""

from __future__ import annotations

import math
import sys
import threading

import numpy as np
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from window_helpers import press_and_sweep

from explorer.model.actions.session import Session
from explorer.qt import viewport
from explorer.qt.viewport import DRAG_SWITCH_SECONDS
from explorer.view.scene_view import SceneView


def _spy(monkeypatch, cls, name: str, calls: list) -> None:
    """Note ``(the calling thread, the arguments)`` of every call of ``cls.name``."""
    original = getattr(cls, name)

    def spied(self, *args, **kwargs):
        calls.append((threading.current_thread(), args))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(cls, name, spied)


def _always_pays(monkeypatch) -> None:
    """Previews worked out beside the renders whatever their share of a frame and however late moves come."""
    monkeypatch.setattr(viewport, "PREVIEW_SHARE", 0.0)
    monkeypatch.setattr(viewport, "MOVES_AS_FAST_AS_FRAMES", math.inf)


def _drag_a(make_window, monkeypatch, stem: str, moves: int) -> tuple:
    """Open gallery scene ``stem``, press on A and move it ``moves`` times (:func:`press_and_sweep`), the button
    held; returns the window, the spied previews (:func:`_spy`) and where the press was."""
    window = make_window(stem)
    previews = []
    _spy(monkeypatch, Session, "drag_preview", previews)
    x0, y0 = press_and_sweep(window, moves)
    return window, previews, x0, y0


def test_a_drag_s_previews_are_worked_out_beside_the_render_and_the_last_is_drawn_when_the_pointer_rests(
    qtbot, make_window, monkeypatch
):
    _always_pays(monkeypatch)
    window = make_window("snooker_break")  # 16 bodies: the motion and every path change at each move
    previews, prepared, renders = [], [], []
    _spy(monkeypatch, Session, "drag_preview", previews)
    _spy(monkeypatch, SceneView, "prepare", prepared)
    render_window = window.viewport.plotter.render_window
    render_window.AddObserver("StartEvent", lambda *_: renders.append(len(previews)))
    session, widget = window.session, window.viewport.plotter.interactor
    switch_interval = sys.getswitchinterval()
    moves = 30
    x0, y0 = press_and_sweep(window, moves)
    frames = len(renders)
    assert sys.getswitchinterval() == DRAG_SWITCH_SECONDS  # VTK's render waits at most this for Python's lock

    main = threading.main_thread()
    assert len(previews) >= moves // 2 and len(renders) >= moves // 2  # the view keeps up with the pointer
    # the solver runs outside the window's thread, and so does the building of meshes
    assert len(prepared) >= len(previews) and all(thread is not main for thread, _ in previews + prepared)
    drag = session._drag
    last_point = previews[-1][1][0]
    # the pointer rests, the button down: the last move's preview is drawn, with no event to ask for it
    qtbot.waitUntil(lambda: session.scene == drag.moved_to(last_point) and not window.viewport.move_pending,
                    timeout=2000)  # fmt: skip
    qtbot.waitUntil(lambda: len(renders) > frames, timeout=2000)
    assert session.dragging
    QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, QPoint(x0, y0 + 80))
    assert not session.dragging and session.history.undo_label == "drag A centre"
    assert np.isfinite(session.scene.bodies[0].center).all()
    assert sys.getswitchinterval() == switch_interval


def test_a_drag_released_at_once_lands_where_the_pointer_last_was(make_window, monkeypatch):
    _always_pays(monkeypatch)
    window, previews, x0, y0 = _drag_a(make_window, monkeypatch, "snooker_break", 12)
    session, widget = window.session, window.viewport.plotter.interactor
    drag = session._drag
    QTest.mouseMove(widget, QPoint(x0, y0 + 90))  # a move, and the release before any frame: a preview on its way
    QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, QPoint(x0, y0 + 90))
    assert session.history.undo_label == "drag A centre"
    assert session.scene == drag.moved_to(previews[-1][1][0])  # the last move's, not the one before
    assert not window.viewport.move_pending


def test_where_previews_are_cheap_each_move_is_drawn_at_once_in_the_window_s_thread(make_window, monkeypatch):
    monkeypatch.setattr(viewport, "PREVIEW_SHARE", math.inf)  # never pays
    window, previews, x0, y0 = _drag_a(make_window, monkeypatch, "default", 12)
    session, widget = window.session, window.viewport.plotter.interactor
    assert len(previews) >= 6 and all(thread is threading.main_thread() for thread, _ in previews)
    assert not window.viewport.move_pending  # the last move is drawn: no frame behind
    assert session.scene == session._drag.moved_to(previews[-1][1][0])
    QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, QPoint(x0, y0 + 80))
    assert session.history.undo_label == "drag A centre"
