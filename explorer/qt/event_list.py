"""The motion's events as a list in the values panel: click one (or move with the arrow keys) to inspect it.

Each row is an event (number, time, pair, impulse on the pair's first body,
change of the free bodies' kinetic energy); the row of the inspected event is
selected while the time shown is its time.  The words are
:func:`explorer.model.words.values.event_rows`'.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem

from ..model.actions.session import Session
from .binding import quietly

#: The columns' titles.
HEADERS = ("#", "time", "pair", "impulse on the first", "Δ energy")


class EventList(QTreeWidget):
    """The events of ``session``'s motion; choosing a row inspects that event (:meth:`Session.inspect`).

    The list is as tall as its rows (the values panel scrolls, not the list).
    """

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.setHeaderLabels(HEADERS)
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setSelectionMode(QAbstractItemView.SingleSelection)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setToolTip("Click an event (or use [ and ]) to inspect it: the time jumps there")
        self.header().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.header().setStretchLastSection(True)
        self.rows: list[tuple[str, ...]] = []
        self.currentItemChanged.connect(self._chosen)

    def show_rows(self, rows: list[tuple[str, ...]], active: int | None) -> None:
        """Show ``rows`` (from :func:`event_rows` with ``energy``), the row ``active`` selected (None: none)."""
        quietly(self, lambda: self._fill(rows, active))
        self.setVisible(bool(rows))

    def _fill(self, rows: list[tuple[str, ...]], active: int | None) -> None:
        if rows != self.rows:
            while self.topLevelItemCount() > len(rows):
                self.takeTopLevelItem(self.topLevelItemCount() - 1)
            for k, row in enumerate(rows):
                item = self.topLevelItem(k)
                if item is None:
                    item = QTreeWidgetItem(self)
                for column, text in enumerate((str(k + 1), *row)):
                    if item.text(column) != text:
                        item.setText(column, text)
            self.rows = rows
            height = self.sizeHintForRow(0) * len(rows) if rows else 0
            self.setFixedHeight(height + self.header().sizeHint().height() + 2 * self.frameWidth())
        item = self.topLevelItem(active) if active is not None and active < len(rows) else None
        self.setCurrentItem(item)
        if item is None:
            self.clearSelection()

    def _chosen(self, item: QTreeWidgetItem | None, _previous) -> None:
        if item is not None:
            self.session.inspect(event=self.indexOfTopLevelItem(item))

    def text(self) -> str:
        """The rows, one line each, columns separated by two spaces."""
        return "\n".join("  ".join((str(k + 1), *row)) for k, row in enumerate(self.rows))
