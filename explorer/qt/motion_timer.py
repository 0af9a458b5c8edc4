"""The timer behind playback and the turn to B's rest frame: it runs only while something moves."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer

from ..model.actions.session import Change, Session

#: Timer period while playing or turning.
TICK_MS = 30


class MotionTimer(QObject):
    """Advances the session's time while it plays and its reference frame while it turns.

    Distinct from :class:`explorer.model.state.view_parts.Playback`, the session's time and whether it plays:
    this only ticks it on, by the wall-clock time between ticks.
    """

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._clock = 0.0
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)
        session.subscribe(self._changed)

    def _moving(self) -> bool:
        return self.session.playback.playing or self.session.reference.turning or self.session.asking.revealing

    def _changed(self, change: Change) -> None:
        if not change & (Change.PLAYING | Change.REFERENCE | Change.ASK):
            return
        if self._moving() and not self._timer.isActive():
            self._clock = time.perf_counter()
            self._timer.start()
        elif not self._moving():
            self._timer.stop()

    def _tick(self) -> None:
        now = time.perf_counter()
        elapsed, self._clock = now - self._clock, now
        self.session.advance(elapsed)
        self.session.turn(elapsed)
        self.session.advance_reveal(elapsed)
