"""The 3-D view by keyboard: Tab to a body, arrow keys move it, Shift+arrows its velocity.

With the 3-D view focused (click it, or Tab to it): Tab and Shift+Tab select the next and the previous body (after
the last, Tab leaves the view, as everywhere else); the arrow keys move the selected body's centre one step in the
plane a drag would move it in, along the screen's right and up (:func:`explorer.view.grips.key_move`); Shift+arrows
move its arrow tip (its velocity); Ctrl makes a step a tenth as long; ``+`` and ``-`` double and halve the step.
Each key press is one undoable edit, made as a drag would make it (:meth:`Session.nudge`).  What is selected, where
it is and the step are said in the status bar and as the view's accessible name, so a screen reader says them.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, QObject, Qt, Signal

from ..model.actions.session import Session
from ..model.state.scene import SceneError
from ..model.words.description import selection_words
from ..model.words.text import refusal
from ..view.grips import key_scaled, key_step, key_target

#: The arrow keys: (across, upward) on the screen.
ARROWS = {Qt.Key_Right: (1, 0), Qt.Key_Left: (-1, 0), Qt.Key_Up: (0, 1), Qt.Key_Down: (0, -1)}


class ViewKeys(QObject):
    """The keys of the 3-D view (see the module notes), on the view's interactor ``viewport.plotter.interactor``.

    Signals
    -------
    said(str)
        What a key did, for the status bar (a refusal starts with the refusal's words).
    """

    said = Signal(str)

    def __init__(self, session: Session, viewport) -> None:
        super().__init__(viewport)
        self.session = session
        self.viewport = viewport
        self.scale = 1.0  # the step's multiplier (+ and -)

    def install(self, widget) -> None:
        """Listen to ``widget``'s keys (the interactor) and let it take the keyboard's focus."""
        widget.setFocusPolicy(Qt.StrongFocus)
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt name
        if event.type() != QEvent.KeyPress or self.viewport.drawing is None:
            return False
        key, mods = event.key(), event.modifiers()
        if key in (Qt.Key_Tab, Qt.Key_Backtab):
            return self._select(-1 if key == Qt.Key_Backtab or mods & Qt.ShiftModifier else 1)
        if key in ARROWS and not mods & Qt.AltModifier:  # Alt+arrows: the events (the View menu)
            self._move(*ARROWS[key], velocity=bool(mods & Qt.ShiftModifier), fine=bool(mods & Qt.ControlModifier))
            return True
        if key in (Qt.Key_Plus, Qt.Key_Equal, Qt.Key_Minus):
            self.scale = key_scaled(self.scale, key == Qt.Key_Minus)
            self._say()
            return True
        return False

    def step(self, fine: bool = False) -> float:
        """How far an arrow key moves a grip now, in the scene's units."""
        return key_step(self.viewport.drawing.placement.marker, self.scale, fine)

    def _select(self, direction: int) -> bool:
        """Select the next (+1) or previous body; past either end, let the focus leave the view (False)."""
        session = self.session
        k = session.selection.selected + direction
        if not 0 <= k < len(session.scene.bodies):
            return False
        session.select(k)
        self._say()
        return True

    def _move(self, across: int, upward: int, velocity: bool, fine: bool) -> None:
        session, plotter = self.session, self.viewport.plotter
        k = session.selection.selected
        at = self.viewport.drawing.placement
        camera = plotter.camera
        sight = np.subtract(camera.focal_point, camera.position)
        start = at.tips[k] if velocity else at.centers[k]
        end = key_target(start, sight, camera.up, across, upward, self.step(fine))
        try:
            session.nudge(k, "velocity" if velocity else "center", start, end)
        except SceneError as exc:
            self.said.emit(refusal(str(exc)))
            return
        self._say()

    def _say(self) -> None:
        """Say what is selected, where it is and how it moves, and the step (status bar, accessible name)."""
        session = self.session
        words = selection_words(session.scene.bodies[session.selection.selected], self.step())
        self.viewport.plotter.interactor.setAccessibleName(f"3-D view, {words}")
        self.said.emit(words)
