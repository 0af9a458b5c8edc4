"""The momenta panel: the free bodies' momenta added tip to tail, and the data table of a lab sheet.

The diagram draws each free body's ``m v`` in its colour, the first tail at the
origin and each next tail at the last tip, and the total (Σ m v) as one arrow
from the first tail to the last tip (:func:`explorer.model.words.momenta.momenta_chain`).
At the time shown; with an event inspected, just before and just after it side
by side, on one scale, so the total visibly stays while the parts change (or
changes by the impulse a fixed body or a wall gives).  The diagram lies in the
plane of the two world axes along which the arrows spread most, named in it; the
total under each diagram has all three components, as everywhere else.
The table (:mod:`explorer.model.formats.lab_table`) gives every body at the time shown,
with the free bodies' totals, a block per body (:func:`~explorer.model.formats.lab_table.table_blocks`)
so that every number is in view in the panel's width; each number's tooltip
gives it exactly.  *Copy* puts the table on the clipboard as text, one line per
body; the two *Save* buttons write CSV.  Diagram, table, copy and CSV are in the frame the view's
switches name, at the time shown (:attr:`explorer.model.actions.session.Session.frame`),
and say so: the diagram's titles name it, the line over the table says how it moves.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from ..model.actions.session import Change, Session
from ..model.formats.lab_table import table_blocks, table_rows, table_text
from ..model.words.frames import frame_line
from ..model.words.momenta import MomentaChain, bodies_at, diagram_plane, diagrams_now, plane_text
from ..model.words.text import exact_numbers, fmt
from ..view.palette import MOMENTUM_COLOR, colors_by_name
from .refresh import Refresher
from .values_panel import KEY_STYLE, LabelGrid

#: The diagram's height in pixels (its width follows the panel).
DIAGRAM_HEIGHT = 190


class MomentaDiagram(QWidget):
    """One or two tip-to-tail diagrams (``(title, chain)`` each) on one scale, side by side."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumHeight(DIAGRAM_HEIGHT)
        self.setMinimumWidth(160)
        self.diagrams: list[tuple[str, MomentaChain]] = []
        self.colors: dict[str, str] = {}
        self.painted: list[str] = []  # the words of the last paint, in order (what a reader sees)

    def show_diagrams(self, diagrams: list[tuple[str, MomentaChain]], colors: dict[str, str]) -> None:
        self.diagrams, self.colors = diagrams, colors
        self.update()

    @property
    def plane(self) -> tuple[int, int]:
        return diagram_plane([chain for _, chain in self.diagrams])

    def fit(self, width: float, height: float) -> tuple[float, float, float]:
        """Pixels per unit of momentum and the middle (in the plane's two coordinates) of the box holding every
        diagram shown: one scale and one origin for all, the box filling a cell ``width`` × ``height``."""
        i, j = self.plane
        points = [(0.0, 0.0)] + [(p[i], p[j]) for _, chain in self.diagrams for _, tail, tip in chain.links
                                 for p in (tail, tip)]  # fmt: skip
        lo = [min(p[k] for p in points) for k in (0, 1)]
        hi = [max(p[k] for p in points) for k in (0, 1)]
        spans = [hi[k] - lo[k] for k in (0, 1)]
        fits = [room / span for room, span in zip((width - 24, height - 16), spans) if span > 0.0]
        return min(fits, default=0.0), (lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt name
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        painter.fillRect(self.rect(), QColor("white"))
        self.painted = []

        def write(where, text: str) -> None:  # centred in a cell (smaller where it would not fit), or from a point
            if isinstance(where, QRectF):
                _fitted_text(painter, where, text)
            else:
                painter.drawText(where, text)
            self.painted.append(text)

        if not self.diagrams:
            write(QRectF(self.rect()), "No free body: no momentum to add")
            return
        i, j = self.plane
        count = len(self.diagrams)
        width = self.width() / count
        line = self.fontMetrics().height() + 2  # a title above each diagram, its total below, the plane under all
        height = self.height() - 3 * line
        scale, mid_x, mid_y = self.fit(width, height)
        for n, (title, chain) in enumerate(self.diagrams):
            origin = QPointF(n * width + width / 2 - scale * mid_x, line + height / 2 + scale * mid_y)
            point = lambda p, o=origin: QPointF(o.x() + scale * p[i], o.y() - scale * p[j])  # noqa: E731
            painter.setPen(QColor("#333333"))
            write(QRectF(n * width, 0, width, line), title)
            painter.setPen(QPen(QColor("#bbbbbb"), 1, Qt.DotLine))
            painter.drawLine(QPointF(origin.x() - 6, origin.y()), QPointF(origin.x() + 6, origin.y()))
            painter.drawLine(QPointF(origin.x(), origin.y() - 6), QPointF(origin.x(), origin.y() + 6))
            for name, tail, tip in chain.links:
                a, b = point(tail), point(tip)
                color = QColor(self.colors.get(name, "#555555"))
                _arrow(painter, a, b, color, 2.5)
                if math.hypot(b.x() - a.x(), b.y() - a.y()) > 14:  # a link long enough to name
                    painter.setPen(color)
                    write(QPointF((a.x() + b.x()) / 2 + 4, (a.y() + b.y()) / 2 - 4), name)
            if chain.links:
                _arrow(painter, point(chain.links[0][1]), point(chain.links[-1][2]), QColor(MOMENTUM_COLOR), 1.6,
                       dashed=True)  # fmt: skip
            painter.setPen(QColor(MOMENTUM_COLOR))
            total = chain.total_text  # every component, as the values and the table give it
            write(QRectF(n * width, self.height() - 2 * line, width, line), total)
        painter.setPen(QColor("#555555"))  # the diagram is a projection: its plane named in it (the corner too)
        write(QRectF(0, self.height() - line, self.width(), line), plane_text((i, j)))
        painter.end()


def _fitted_text(painter: QPainter, cell: QRectF, text: str) -> None:
    """``text`` centred in ``cell``; in a smaller font where it would not fit (a narrow cell), rather than cut."""
    font = painter.font()
    room, needed = cell.width() - 8, painter.fontMetrics().horizontalAdvance(text)
    if needed > room:
        smaller = painter.font()
        smaller.setPointSizeF(max(6.0, font.pointSizeF() * room / needed))
        painter.setFont(smaller)
    painter.drawText(cell, Qt.AlignCenter, text)
    painter.setFont(font)


def _arrow(painter: QPainter, a: QPointF, b: QPointF, color: QColor, width: float, dashed: bool = False) -> None:
    """An arrow from ``a`` to ``b`` with a filled head (nothing for a zero-length arrow)."""
    dx, dy = b.x() - a.x(), b.y() - a.y()
    length = math.hypot(dx, dy)
    if length < 0.5:
        return
    painter.setPen(QPen(color, width, Qt.DashLine if dashed else Qt.SolidLine))
    painter.drawLine(a, b)
    ux, uy = dx / length, dy / length
    head = min(10.0, 0.4 * length)
    left = QPointF(b.x() - head * ux + 0.45 * head * uy, b.y() - head * uy - 0.45 * head * ux)
    right = QPointF(b.x() - head * ux - 0.45 * head * uy, b.y() - head * uy + 0.45 * head * ux)
    path = QPainterPath()
    path.addPolygon(QPolygonF([b, left, right]))
    painter.fillPath(path, color)


class MomentaPanel(QWidget):
    """The diagram, the table and its buttons (see the module docstring).

    Parameters
    ----------
    session : Session

    Attributes
    ----------
    documents : explorer.qt.documents.Documents or None
        Writes the CSV files (set by the window once it has one).
    """

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.documents = None
        layout = QVBoxLayout(self)
        self.diagram = MomentaDiagram()
        layout.addWidget(self.diagram, 2)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        layout.addWidget(self.caption)
        self.frame_line = QLabel()  # which frame the diagram's and the table's numbers are in
        self.frame_line.setWordWrap(True)
        self.frame_line.setAccessibleName("frame of the numbers")
        layout.addWidget(self.frame_line)
        self.table = LabelGrid((KEY_STYLE, ""))  # a block per body: two columns, whatever the panel's width
        self.scroll = QScrollArea()  # a long table scrolls down, never sideways
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.scroll.setWidget(self.table)
        layout.addWidget(self.scroll, 3)
        buttons = QGridLayout()  # two rows: the panel stays as narrow as its column
        self.copy_button = QPushButton("Copy table")
        self.copy_button.clicked.connect(self.copy)
        self.save_button = QPushButton("Save CSV…")
        self.save_events_button = QPushButton("Save CSV at every event…")
        self.save_button.clicked.connect(lambda: self.documents and self.documents.ask_export_table(False))
        self.save_events_button.clicked.connect(lambda: self.documents and self.documents.ask_export_table(True))
        buttons.addWidget(self.copy_button, 0, 0)
        buttons.addWidget(self.save_button, 0, 1)
        buttons.addWidget(self.save_events_button, 1, 0, 1, 2)
        layout.addLayout(buttons)
        self.rows: list[tuple[str, ...]] = []
        watch = Change.SCENE | Change.TIME | Change.INSPECTION | Change.ASK | Change.REFERENCE
        self.refresher = Refresher(self, session, watch, self.refresh)

    def refresh(self) -> None:
        session = self.session
        scene, solution, t = session.scene, session.solution, session.view.time
        colors = colors_by_name(scene)
        frame = session.frame
        bodies = bodies_at(scene, solution, t, frame)
        diagrams = diagrams_now(scene, solution, t, session.inspection.event, bodies, frame)
        self.diagram.show_diagrams(diagrams, colors)
        self.caption.setText(f"Each free body's m v tip to tail; dashed: the total. Table: every body at t = {fmt(t)}.")
        self.frame_line.setText(frame_line(scene, frame))
        self.save_events_button.setEnabled(not session.asking.hides_answers)  # the events are the answer
        self.rows = table_rows(bodies)
        with exact_numbers():
            exact = table_blocks(table_rows(bodies))
        shown, tips = [], []
        for (name, lines), (_, exact_lines) in zip(table_blocks(self.rows), exact):
            shown += [(name,), *lines]
            tips += [(name,), *exact_lines]
        self.table.show_rows(shown, tips)

    def text(self) -> str:
        """The table as tab-separated text under the line naming its frame (what *Copy table* copies)."""
        return table_text(self.rows, self.frame_line.text())

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text())
