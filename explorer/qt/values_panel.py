"""The values panel: the verdict, every number of the solution in plain words, and how it was decided.

It describes the inspector's focus (:mod:`explorer.model.derived.inspection`): A and
its partner, a pair the user picked, or the event inspected, whose row is
selected in the list of events (a click there inspects another).  Plain-text
labels in grids, made once and updated in place: a new solution changes the
text of the labels whose numbers changed (and shows or hides rows), so
following a drag costs no rich-text layout of the whole panel.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from ..model.actions.session import Change, Session
from ..model.derived.analysis import Solution
from ..model.derived.conserved import segment_index
from ..model.derived.stepping import stepped_test
from ..model.state.scene import Scene
from ..model.words.text import exact_numbers, fmt, status_text
from ..model.words.values import LISTED_EVENTS, event_rows, pair_rows, trace_rows, value_rows
from ..view.palette import VERDICT_COLORS, VERDICT_PLAIN
from .event_list import EventList
from .refresh import Refresher

#: The trace's title (the pair's own time is added when its segment starts after 0).
TRACE_TITLE = "How it was decided"
#: The event list's title.
EVENTS_TITLE = "Events (click one, or [ and ], to inspect it)"


class LabelGrid(QWidget):
    """Rows of plain-text labels in a grid, updated in place: only changed texts are set, spare rows hidden.

    A row of one text in a grid of several columns is a heading across them all (a block's title).

    Parameters
    ----------
    styles : sequence of str
        One style sheet per column (``""`` for none).
    wrap : bool
        The last column wraps long text (other columns, and short rows, keep one line: cheaper to lay out).
    heading : str
        The style sheet of a heading row.
    """

    def __init__(self, styles: tuple[str, ...], wrap: bool = True, parent: QWidget | None = None,
                 heading: str = "font-weight: bold;") -> None:  # fmt: skip
        super().__init__(parent)
        self.styles = styles
        self.wrap = wrap
        self.heading = heading
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(8)
        self._grid.setVerticalSpacing(1)
        self._grid.setColumnStretch(len(styles) - 1, 1)
        self._rows: list[list[QLabel]] = []
        self._headings: list[QLabel | None] = []
        self._texts: list[tuple[str, ...] | None] = []
        self._tips: list[tuple[str, ...] | None] = []
        self._shown = 0

    def show_rows(self, rows: list[tuple[str, ...]], tips: list[tuple[str, ...]] | None = None) -> None:
        """Show ``rows`` (each a tuple of one text per column, or one text: a heading).  ``tips``: a tooltip
        for each text (rows of the same shape; ``""`` for none), e.g. the exact value behind a rounded one."""
        while len(self._rows) < len(rows):
            self._add_row()
        for k, row in enumerate(rows):
            tip = None if tips is None else tips[k]
            heading = len(row) == 1 and len(self.styles) > 1
            labels = [self._heading(k)] if heading else self._rows[k]
            if self._texts[k] != row or self._tips[k] != tip:
                for n, (label, text) in enumerate(zip(labels, row)):
                    if label.text() != text:
                        label.setText(text)
                    wanted = "" if tip is None or tip[n] == text else tip[n]
                    if label.toolTip() != wanted:
                        label.setToolTip(wanted)
                self._texts[k], self._tips[k] = row, tip
            if k >= self._shown or (self._headings[k] is not None and self._headings[k].isHidden() == heading):
                for label in self._rows[k]:
                    label.setVisible(not heading)
                if self._headings[k] is not None:
                    self._headings[k].setVisible(heading)
        for k in range(len(rows), self._shown):
            for label in [*self._rows[k], self._headings[k]]:
                if label is not None:
                    label.hide()
        self._shown = len(rows)
        self.setVisible(bool(rows))

    def _label(self, style: str, wrap: bool) -> QLabel:
        label = QLabel()
        label.setTextFormat(Qt.PlainText)  # body names are the user's text, never markup
        # no TextSelectableByMouse: a selectable label lays its text out in a QTextDocument, several times slower
        label.setWordWrap(wrap)
        label.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        if style:
            label.setStyleSheet(style)
        return label

    def _add_row(self) -> None:
        row = len(self._rows)
        labels = []
        for column, style in enumerate(self.styles):
            label = self._label(style, self.wrap and column == len(self.styles) - 1)
            self._grid.addWidget(label, row, column)
            labels.append(label)
        self._rows.append(labels)
        self._headings.append(None)
        self._texts.append(None)
        self._tips.append(None)

    def _heading(self, row: int) -> QLabel:
        """Row ``row``'s heading across every column (made the first time a heading is shown there)."""
        if self._headings[row] is None:
            label = self._label(self.heading, True)
            label.hide()
            self._grid.addWidget(label, row, 0, 1, len(self.styles))
            self._headings[row] = label
        return self._headings[row]

    def text(self) -> str:
        """The rows shown, one line each, columns separated by two spaces."""
        return "\n".join("  ".join(row) for row in self._texts[: self._shown] if row is not None)


#: The names of the rows, greyed.
KEY_STYLE = "color: #555555;"
#: Section titles.
TITLE_STYLE = "font-weight: bold; margin-top: 6px;"


class ValuesPanel(QScrollArea):
    """Status, trace and every number of the session's solution, in plain words (redrawn while on screen)."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWidgetResizable(True)
        box = QWidget()
        box.setAutoFillBackground(True)  # opaque: a changed number repaints the panel, not the window under it
        layout = QVBoxLayout(box)
        self.status_label = QLabel()
        self.status_label.setObjectName("status")
        self.status_label.setWordWrap(True)
        self.status_label.setTextFormat(Qt.PlainText)  # body names are the user's text, never markup
        self.status_label.setStyleSheet("font-size: 15px; font-weight: bold;")
        layout.addWidget(self.status_label)
        self.table = LabelGrid((KEY_STYLE, ""))
        self.trace = LabelGrid(("",))
        self.pairs = LabelGrid(("",))
        self.events = EventList(session)
        self.titles: dict[str, QLabel] = {}
        for title, grid in ((None, self.table), (TRACE_TITLE, self.trace), ("Every pair", self.pairs),
                            (EVENTS_TITLE, self.events)):  # fmt: skip
            if title is not None:
                label = QLabel(title)
                label.setTextFormat(Qt.PlainText)
                label.setStyleSheet(TITLE_STYLE)
                layout.addWidget(label)
                self.titles[title] = label
            layout.addWidget(grid)
        self.more_events = QLabel()
        self.more_events.setTextFormat(Qt.PlainText)
        layout.addWidget(self.more_events)
        layout.addStretch(1)
        self.setWidget(box)
        self.setMinimumWidth(260)
        self.steps = None  # the frame-stepped engine's test, while its layer is on
        self._shown: tuple | None = None  # (solution, focus, steps, segment, active event) last shown
        watch = Change.SCENE | Change.LAYERS | Change.STEPS | Change.TIME | Change.INSPECTION | Change.REFERENCE
        self.refresher = Refresher(self, session, watch, self.refresh)

    def refresh(self) -> None:
        """Show the session's solution (and the frame-stepped test while its layer is on) for the inspector's focus."""
        session = self.session
        solution, t = session.solution, session.playback.time
        on = session.layers.visible["steps"]
        # what the panel shows depends on the time only through these: playing on between events costs nothing
        shown = (solution, session.inspection.focus(solution, t), on and session.layers.steps,
                 segment_index(solution.path, t), session.inspection.active(solution, t),
                 session.reference.kind)  # fmt: skip
        if (
            self._shown is not None
            and all(a is b for a, b in zip(shown[:2], self._shown))
            and shown[2:] == self._shown[2:]
        ):
            return
        self._shown = shown
        self.steps = stepped_test(solution, session.layers.steps) if on else None
        self.show_solution(session.scene, solution, t)

    def show_solution(self, scene: Scene, solution: Solution, t: float = 0.0) -> None:
        """Fill the panel from ``solution`` at time ``t``, for the inspector's focus."""
        focus = self.session.inspection.focus(solution, t)
        s = focus.sweep
        status = status_text(scene, solution, focus=focus)
        if self.status_label.text() != status:
            self.status_label.setText(status)
        color = VERDICT_COLORS.get(s.status.name, VERDICT_PLAIN)
        if color != self.status_label.property("verdict_color"):  # restyling is slow: only on a new colour
            self.status_label.setProperty("verdict_color", color)
            self.status_label.setStyleSheet(f"font-size: 15px; font-weight: bold; color: {color};")
        frame = self.session.frame
        rows = value_rows(scene, solution, self.steps, focus, t, frame)
        with exact_numbers():  # each number's tooltip: every digit of it (~1 ms more for the break's 40 rows)
            exact = value_rows(scene, solution, self.steps, focus, t, frame)
        self.table.show_rows(rows, exact)
        trace = trace_rows(solution, focus)
        self.trace.show_rows([(f"{k}. {question} {quantity} = {value}\n    → {answer}",)
                              for k, (question, quantity, value, answer) in enumerate(trace, 1)])  # fmt: skip
        own = f"  (τ = t − {fmt(focus.start)}, h = {fmt(s.horizon)})" if focus.start != 0.0 else ""
        if self.titles[TRACE_TITLE].text() != TRACE_TITLE + own:
            self.titles[TRACE_TITLE].setText(TRACE_TITLE + own)
        pairs = [(row,) for row in pair_rows(scene, solution)]
        self.pairs.show_rows(pairs)
        self.titles["Every pair"].setVisible(bool(pairs))
        events = event_rows(scene, solution, energy=True)
        self.events.show_rows(events, self.session.inspection.active(solution, t))
        self.titles[EVENTS_TITLE].setVisible(bool(events))
        more = len(solution.events) - LISTED_EVENTS
        more_text = f"… and {more} more" if more > 0 else ""
        if self.more_events.text() != more_text:
            self.more_events.setText(more_text)
        self.more_events.setVisible(more > 0)

    def text(self) -> str:
        """Everything the panel shows, as plain text (the verdict first)."""
        parts = [self.status_label.text(), self.table.text()]
        for title, grid in zip(self.titles.values(), (self.trace, self.pairs, self.events)):
            if grid.isVisibleTo(self):
                parts += [title.text(), grid.text()]
        if self.more_events.isVisibleTo(self):
            parts.append(self.more_events.text())
        return "\n".join(parts)
