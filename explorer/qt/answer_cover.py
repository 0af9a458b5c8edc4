"""A panel that holds an answer, covered while the scene asks its question (:mod:`explorer.model.actions.asking`).

The panel is kept in a stack behind a card that shows the question and how to
reveal the answer; a covered panel is not on screen, so it does no work (its
refresher waits, :mod:`.refresh`) and shows nothing of the answer.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QStackedWidget, QWidget

from ..model.actions.asking import STAGES, question_text
from ..model.actions.session import Change, Session

#: The card's words under the question.
COVER_TEXT = "The answer is hidden: predict it, then press Reveal (F5)."


class AnswerCover(QStackedWidget):
    """``panel``, covered while the session's question stage is before ``shown_from`` (one of :data:`STAGES`)."""

    def __init__(self, session: Session, panel: QWidget, shown_from: str = "marks") -> None:
        super().__init__()
        self.session = session
        self.panel = panel
        self.shown_from = STAGES.index(shown_from)
        self.card = QLabel()
        self.card.setObjectName("answer_cover")
        self.card.setTextFormat(Qt.PlainText)  # the question is the user's text, never markup
        self.card.setWordWrap(True)
        self.card.setAlignment(Qt.AlignCenter)
        self.card.setStyleSheet("font-size: 15px; padding: 12px;")
        self.addWidget(panel)
        self.addWidget(self.card)
        session.subscribe(self._changed)
        self._changed(Change.ASK)

    @property
    def covered(self) -> bool:
        return self.currentWidget() is self.card

    def _changed(self, change: Change) -> None:
        if not change & (Change.ASK | Change.SCENE):
            return
        cover = STAGES.index(self.session.asking.stage) < self.shown_from
        if cover:
            text = f"{question_text(self.session.scene)}\n\n{COVER_TEXT}"
            if self.card.text() != text:
                self.card.setText(text)
        self.setCurrentWidget(self.card if cover else self.panel)
