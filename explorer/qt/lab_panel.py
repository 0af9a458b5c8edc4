"""The precision lab: what the textbook formula says in float32 and float64, beside the exact verdict."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..model.actions.session import Change, Session
from ..model.derived.precision import LabReport, lab
from ..model.state.scene import SceneError
from ..model.words.text import fmt, refusal
from .refresh import Refresher

WRONG = QColor("#f8d0d0")
RIGHT = QColor("#d9f2dd")
VARIANT_TITLES = {"relative": "textbook: p = cB − cA first (seeds 002/003)", "expanded": "expanded squares (seed 004)"}


def _number(x) -> str:
    return "—" if x is None else fmt(x)


class LabPanel(QWidget):
    """Table of the four textbook answers and the exact one, and controls that push the scene to failure.

    Computed only while the panel is on screen (a few ms per change).

    Signals
    -------
    refused(str)
        A push was refused (the message says why).
    """

    refused = Signal(str)

    HEADERS = ("formula", "precision", "verdict", "toi", "discriminant b² − 4ac")

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        layout = QVBoxLayout(self)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setObjectName("lab_summary")
        layout.addWidget(self.summary)
        self.table = QTableWidget(5, len(self.HEADERS))
        self.table.setHorizontalHeaderLabels(self.HEADERS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(self.table)
        box = QGroupBox("Push towards failure")
        grid = QGridLayout(box)
        self.power = QSpinBox()
        self.power.setRange(1, 39)
        self.power.setValue(23)
        self.power.setPrefix("2^")
        far = QPushButton("Move far from the origin")
        far.setToolTip("Add 2^k to every coordinate of every centre: an exact translation, the same geometry")
        far.clicked.connect(lambda: self._attempt(session.translate, self.power.value()))
        grid.addWidget(QLabel("offset"), 0, 0)
        grid.addWidget(self.power, 0, 1)
        grid.addWidget(far, 0, 2)
        row = QHBoxLayout()
        for label, ulps in (("−1000 ulp", -1000), ("−1 ulp", -1), ("+1 ulp", 1), ("+1000 ulp", 1000)):
            button = QPushButton(label)
            button.setToolTip("Move the other sphere by ulps of its coordinate: − towards A's path, + away")
            button.clicked.connect(lambda _c=False, n=ulps: self._attempt(session.nudge_graze, n))
            row.addWidget(button)
        grid.addWidget(QLabel("nudge the graze"), 1, 0)
        grid.addLayout(row, 1, 1, 1, 2)
        layout.addWidget(box)
        layout.addStretch(1)
        self.refresher = Refresher(self, session, Change.SCENE, self.refresh)

    def _attempt(self, action, *args) -> None:
        try:
            action(*args)
        except SceneError as exc:
            self.refused.emit(refusal(exc))

    def refresh(self) -> None:
        """Compute the lab's report for the session's scene and show it."""
        self.show_report(lab(self.session.scene, self.session.solution.other))

    def show_report(self, report: LabReport) -> None:
        """Fill the table from ``report``."""
        truth = report.exact
        fooled = report.fooled
        how = "exact integer arithmetic" if truth.exact else "float64 with a proved error bound"
        if fooled:
            names = ", ".join(f"{VARIANT_TITLES[v].split(':')[0]} in {d}" for v, d in fooled)
            text = f"<b style='color:#b00020'>The textbook formula is fooled</b> ({names}). "
        else:
            text = "<b style='color:#11803f'>Every textbook variant agrees with the exact verdict here.</b> "
        self.summary.setText(text + f"Exact verdict: {truth.status} (decided by {how}).")
        rows = [("solver (certified)", "exact", truth.status, truth.toi, truth.discriminant, None)]
        for r in report.rows:
            verdict = ("HIT" if r.hit else "no hit") + ("  ✗ wrong" if r.wrong else "  ✓")
            rows.append((VARIANT_TITLES[r.variant], r.dtype, verdict, r.toi, r.discriminant, r.wrong))
        for i, (formula, dtype, verdict, toi, disc, wrong) in enumerate(rows):
            for j, value in enumerate((formula, dtype, verdict, _number(toi), _number(disc))):
                item = QTableWidgetItem(value)
                if wrong is not None:
                    item.setBackground(QBrush(WRONG if wrong else RIGHT))
                item.setTextAlignment(Qt.AlignVCenter | (Qt.AlignLeft if j < 3 else Qt.AlignRight))
                self.table.setItem(i, j, item)
        self.table.resizeColumnsToContents()
