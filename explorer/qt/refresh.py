"""Redraw a panel from the session once per turn of the event loop, and only while it is on screen."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QDockWidget, QWidget

from ..model.session import Change, Session


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
    it is shown again.  While a drag is in progress, refreshes are at least
    ``drag_interval_ms`` apart, so a slow panel never holds back the 3-D view.

    Parameters
    ----------
    widget : QWidget
    session : Session
    watch : Change
    refresh : callable
    drag_interval_ms : int
    """

    def __init__(self, widget: QWidget, session: Session, watch: Change, refresh: Callable[[], None], drag_interval_ms: int = 0):
        super().__init__(widget)
        self.widget = widget
        self.session = session
        self.watch = watch
        self.refresh = refresh
        self.drag_interval_ms = drag_interval_ms
        self.dirty = True
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._fire)
        session.subscribe(self._changed)
        widget.installEventFilter(self)

    def _changed(self, change: Change) -> None:
        if change & self.watch:
            self.dirty = True
            self.kick()

    def kick(self) -> None:
        if self.dirty and not self._timer.isActive() and on_screen(self.widget):
            self._timer.start(self.drag_interval_ms if self.session.dragging else 0)

    def _fire(self) -> None:
        if self.dirty and on_screen(self.widget):
            self.dirty = False
            self.refresh()

    def now(self) -> None:
        """Refresh at once if out of date and on screen (e.g. at the end of a drag)."""
        self._timer.stop()
        self._fire()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt name
        if event.type() == QEvent.Show:
            QTimer.singleShot(0, self.kick)
        return False
