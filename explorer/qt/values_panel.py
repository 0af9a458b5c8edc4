"""The values panel: the verdict, every number of the solution in plain words, and how it was decided."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from ..model.analysis import Solution
from ..model.scene import Scene
from ..model.session import Change, Session
from ..model.stepping import stepped_test
from ..model.text import status_text
from ..model.values import LISTED_EVENTS, event_rows, pair_rows, trace_rows, value_rows
from ..view.palette import VERDICT_COLORS, VERDICT_PLAIN
from .refresh import Refresher


class ValuesPanel(QScrollArea):
    """Status, trace and every number of the session's solution, in plain words (redrawn while on screen)."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWidgetResizable(True)
        box = QWidget()
        layout = QVBoxLayout(box)
        self.status_label = QLabel()
        self.status_label.setObjectName("status")
        self.status_label.setWordWrap(True)
        self.status_label.setTextFormat(Qt.PlainText)  # body names are the user's text, never markup
        self.status_label.setStyleSheet("font-size: 15px; font-weight: bold;")
        self.body_label = QLabel()
        self.body_label.setObjectName("values")
        self.body_label.setWordWrap(True)
        self.body_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.body_label.setTextFormat(Qt.RichText)
        layout.addWidget(self.status_label)
        layout.addWidget(self.body_label)
        layout.addStretch(1)
        self.setWidget(box)
        self.setMinimumWidth(260)
        self.steps = None  # the frame-stepped engine's test, while its layer is on
        self.refresher = Refresher(self, session, Change.SCENE | Change.LAYERS | Change.STEPS, self.refresh)

    def refresh(self) -> None:
        """Show the session's solution (and the frame-stepped test while its layer is on)."""
        session = self.session
        on = session.view.layers.get("steps", False)
        self.steps = stepped_test(session.solution, session.view.steps) if on else None
        self.show_solution(session.scene, session.solution)

    def show_solution(self, scene: Scene, solution: Solution) -> None:
        """Fill the panel from ``solution``."""
        s = solution.sweep
        self.status_label.setText(status_text(scene, solution))
        color = VERDICT_COLORS.get(s.status.name, VERDICT_PLAIN)
        if color != self.status_label.property("verdict_color"):  # restyling is slow: only on a new colour
            self.status_label.setProperty("verdict_color", color)
            self.status_label.setStyleSheet(f"font-size: 15px; font-weight: bold; color: {color};")
        rows = value_rows(scene, solution, self.steps)
        table = "".join(
            f"<tr><td style='color:#555;padding-right:8px'>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in rows
        )
        trace = "".join(
            f"<li>{html.escape(question)} <i>{html.escape(quantity)}</i> = {html.escape(value)}<br>→ {html.escape(answer)}</li>"
            for question, quantity, value, answer in trace_rows(solution)
        )
        others = ""
        pairs = pair_rows(scene, solution)
        if pairs:
            items = "".join(f"<li>{html.escape(row)}</li>" for row in pairs)
            others = f"<p><b>Every pair</b></p><ul style='margin-left:-20px'>{items}</ul>"
        self.body_label.setText(
            f"<table>{table}</table><p><b>How it was decided</b></p><ol style='margin-left:-20px'>{trace}</ol>{others}"
            + _event_list(scene, solution)
        )


def _event_list(scene: Scene, solution: Solution) -> str:
    """The motion's events as an HTML table: time, which pair, impulse on the first body."""
    events = solution.events
    if not events:
        return ""
    rows = "".join(
        f"<tr><td style='padding-right:8px'>{html.escape(time)}</td><td style='padding-right:8px'>{html.escape(pair)}</td>"
        f"<td>{html.escape(impulse)}</td></tr>"
        for time, pair, impulse in event_rows(scene, solution)
    )
    more = f"<p>… and {len(events) - LISTED_EVENTS} more</p>" if len(events) > LISTED_EVENTS else ""
    return f"<p><b>Events</b> (impulse on the first body of the pair)</p><table>{rows}</table>{more}"
