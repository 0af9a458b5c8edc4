"""The scene in words for a screen reader (:mod:`explorer.model.words.description`): the 3-D view's accessible
description, said after each change, and a *Description* panel with every body and event.

The view's description follows every change but a drag (said once the drag ends), whether the panel is on screen
or not: a screen reader asks the view, not the panel.  The panel shows the short description and, below it, the
full one.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from ..model.actions.asking import question_text
from ..model.actions.session import Change, Session
from ..model.words.description import full_description, short_description
from .refresh import Refresher


def spoken(session: Session) -> str:
    """The session's scene in a sentence or two, hiding the answer while it is hidden."""
    scene = session.scene
    return short_description(scene, session.solution, session.asking.hides_answers, question_text(scene))


class DescriptionPanel(QWidget):
    """The short description and, below it, every body and every event, one line each."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        layout = QVBoxLayout(self)
        self.short = QLabel()
        self.short.setObjectName("description_short")
        self.full = QLabel()
        self.full.setObjectName("description_full")
        for label in (self.short, self.full):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextSelectableByMouse | Qt.TextSelectableByKeyboard)
            layout.addWidget(label)
        layout.addStretch(1)
        self.setAccessibleName("Description of the scene")
        self.refresher = Refresher(self, session, Change.SCENE | Change.ASK, self.refresh)

    def refresh(self) -> None:
        session = self.session
        scene = session.scene
        self.short.setText(spoken(session))
        lines = full_description(scene, session.solution, session.asking.hides_answers, question_text(scene))
        self.full.setText("\n".join(lines))


def describe_view(view: QWidget, session: Session) -> None:
    """Give the 3-D view ``view`` the session's description as its accessible description (not during a drag)."""
    if not session.dragging:
        view.setAccessibleDescription(spoken(session))
