"""Redraw a panel from the session once per turn of the event loop, only while it is on screen, and never
ahead of the 3-D view while a sphere is dragged.

Outside a drag a panel redraws in the turn after a change.  During a drag the
3-D view comes first: a :class:`DragPacer` lets the panels follow one at a
time, right after a frame of the view and at most every
:data:`PANEL_INTERVAL_MS`, and brings every panel up to date as soon as the
pointer rests (no move for :data:`QUIET_MS` after a frame) or the button is
released.
"""

from __future__ import annotations

import time
from typing import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QDockWidget, QWidget

from ..model.actions.session import Change, Session

#: While a drag goes on, panels follow one at a time, at most this often (ms) all together.
PANEL_INTERVAL_MS = 200
#: The pointer rests when no move came this long (ms) after the view's last frame: every panel catches up.
QUIET_MS = 15


def on_screen(widget: QWidget) -> bool:
    """The widget is shown: its window is open, its dock not closed, its tab in front.

    A dock behind another tab can still count as visible to Qt; it has no
    visible region of its own (the title bar of the front one has).
    """
    if not widget.isVisible():
        return False
    dock = widget.parentWidget()
    while dock is not None and not isinstance(dock, QDockWidget):
        dock = dock.parentWidget()
    return dock is None or not dock.visibleRegion().isEmpty()


class Refresher(QObject):
    """Calls ``refresh()`` after the session changed what ``watch`` covers.

    Many changes in one turn of the event loop give one refresh; a panel that
    is hidden (closed, or behind another tab) does no work and catches up when
    it is shown again.  Once :attr:`paced` (see :class:`DragPacer`), it waits
    for the pacer while a drag is in progress.

    Attributes
    ----------
    refreshed_at : float
        ``perf_counter`` time of the last refresh.

    Parameters
    ----------
    widget : QWidget
    session : Session
    watch : Change
    refresh : callable
    """

    def __init__(self, widget: QWidget, session: Session, watch: Change, refresh: Callable[[], None]):
        super().__init__(widget)
        self.widget = widget
        self.session = session
        self.watch = watch
        self.refresh = refresh
        self.dirty = True
        self.paced = False
        self.refreshed_at = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._fire)
        session.subscribe(self._changed)
        widget.installEventFilter(self)

    def _changed(self, change: Change) -> None:
        if change & self.watch:
            self.dirty = True
            self.kick()

    @property
    def due(self) -> bool:
        """Out of date and on screen."""
        return self.dirty and on_screen(self.widget)

    def kick(self) -> None:
        """Refresh in the next turn of the event loop if out of date and on screen (during a drag: when paced)."""
        if self.paced and self.session.dragging:
            return
        if self.dirty and not self._timer.isActive() and on_screen(self.widget):
            self._timer.start()

    def _fire(self) -> None:
        if self.due:
            self.dirty = False
            self.refreshed_at = time.perf_counter()
            self.refresh()

    def now(self) -> None:
        """Refresh at once if out of date and on screen."""
        self._timer.stop()
        self._fire()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt name
        if event.type() == QEvent.Show:
            QTimer.singleShot(0, self.kick)
        return False


class DragPacer(QObject):
    """Keeps the panels behind the 3-D view while a sphere is dragged (see the module docstring).

    Parameters
    ----------
    session : Session
    viewport : explorer.qt.viewport.Viewport
        Its ``frame_drawn`` and ``pointer_moved`` signals drive the pacing.
    """

    def __init__(self, session: Session, viewport) -> None:
        super().__init__(viewport)
        self.session = session
        self.viewport = viewport
        self.refreshers: list[Refresher] = []
        self._last = 0.0
        self._quiet = QTimer(self)
        self._quiet.setSingleShot(True)
        self._quiet.setInterval(QUIET_MS)
        self._quiet.timeout.connect(self.catch_up)
        viewport.frame_drawn.connect(self._frame_drawn)
        viewport.pointer_moved.connect(self._quiet.stop)
        session.subscribe(self._changed)

    def add(self, refresher: Refresher) -> None:
        """Pace ``refresher`` from now on."""
        refresher.paced = True
        self.refreshers.append(refresher)

    def _frame_drawn(self) -> None:
        if not self.session.dragging:
            return
        self._quiet.start()
        now = time.perf_counter()
        if (now - self._last) * 1e3 < PANEL_INTERVAL_MS:
            return
        due = [r for r in self.refreshers if r.due]
        if due:
            self._last = now
            min(due, key=lambda r: r.refreshed_at).now()

    def catch_up(self) -> None:
        """Every panel on screen shows the session now (the pointer rests; not while a move waits for its frame)."""
        self._quiet.stop()
        if self.viewport.move_pending:
            return  # its frame comes next, and the wait starts again after it
        for refresher in self.refreshers:
            refresher.now()

    def _changed(self, change: Change) -> None:
        if not self.session.dragging:  # e.g. the drag ended: what waited for the pacer is drawn next turn
            self._quiet.stop()
            for refresher in self.refreshers:
                refresher.kick()
