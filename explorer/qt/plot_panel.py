"""The live parabola f(t) = |d(t)|² − R² in the window, drawn with pyqtgraph, for the inspector's focus.

It shows the pair the inspector describes (:mod:`explorer.model.derived.inspection`):
A and its partner, a pair the user picked, or an inspected event's pair over its
own segment of the motion (the curve in the pair's own time τ = t − start,
drawn on the motion's clock, with the window [start, h] shaded).

pyqtgraph was chosen over matplotlib's Qt canvas because it redraws about nine times
faster (22 ms against 204 ms for data and paint, measured by
``benchmarks/bench_explorer.py``), so the plot can follow every drag.
Both draw the same :class:`explorer.model.words.parabola.Parabola`.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from ..model.actions.session import Change, Session
from ..model.words.parabola import Parabola, parabola
from ..view.palette import CONTACT_FILL, CURVE_COLOR, MINKOWSKI_COLOR
from ..view.plot_words import Mark, marks, place_words
from .refresh import Refresher


@lru_cache(maxsize=16)
def _brush(color: str):
    return pg.mkBrush(color)


class ParabolaPanel(QWidget):
    """The session's parabola, with the current time as a line the user can drag."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        pg.setConfigOptions(antialias=False, background="w", foreground="#333333")
        self.setAutoFillBackground(True)  # opaque: a new curve repaints the panel, not the window under it
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.title = QLabel()
        self.title.setObjectName("parabola_title")
        # a fixed size: a new polynomial must not re-lay out the dock column (and repaint all of it) during a drag
        self.title.setFixedSize(1, self.title.sizeHint().height())
        layout.addWidget(self.title)
        self.plot = pg.PlotWidget()
        self.plot.setLabel("bottom", "t (frames)")
        self.plot.setLabel("left", "f(t)")
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setMenuEnabled(False)
        layout.addWidget(self.plot)
        item = self.plot.getPlotItem()
        self.frame_region = pg.LinearRegionItem(movable=False, brush=pg.mkBrush(232, 238, 248, 160), pen=pg.mkPen(None))
        self.contact_regions: list[pg.LinearRegionItem] = []
        for _ in range(2):
            region = pg.LinearRegionItem(movable=False, brush=pg.mkBrush(QColor(CONTACT_FILL)), pen=pg.mkPen(None))
            region.setZValue(-10)
            self.contact_regions.append(region)
            item.addItem(region)
        self.frame_region.setZValue(-20)
        item.addItem(self.frame_region)
        self.zero = pg.InfiniteLine(pos=0.0, angle=0, pen=pg.mkPen("#444444", width=1))
        self.horizon = pg.InfiniteLine(angle=90, pen=pg.mkPen("#888888", width=1, style=pg.QtCore.Qt.DashLine))
        self.curve = pg.PlotDataItem(pen=pg.mkPen(CURVE_COLOR, width=2.5))
        self.roots = pg.ScatterPlotItem(size=11, pen=pg.mkPen("w"))
        self.vertex = pg.ScatterPlotItem(size=9, symbol="d", brush=pg.mkBrush(MINKOWSKI_COLOR), pen=pg.mkPen("w"))
        self.now = pg.InfiniteLine(angle=90, movable=True, pen=pg.mkPen("#d62728", width=2))
        self.now.sigDragged.connect(lambda line: session.set_time(float(line.value())))
        # each mark's words, centred where plot_words.place_words puts them (inside the plot: never over a tick)
        self.words = {name: pg.TextItem(anchor=(0.5, 0.5), fill=pg.mkBrush(255, 255, 255, 200))
                      for name in ("root0", "root1", "vertex")}  # fmt: skip
        for thing in (self.zero, self.horizon, self.curve, self.roots, self.vertex, self.now, *self.words.values()):
            item.addItem(thing, ignoreBounds=thing in self.words.values())
        self._marks: list[Mark] = []
        view = item.getViewBox()
        view.sigResized.connect(self.place_words)
        view.sigRangeChanged.connect(self.place_words)
        self.data: Parabola | None = None
        # HISTORY: a drag ends (the axes fit the curve again)
        watch = Change.SCENE | Change.TIME | Change.HISTORY | Change.INSPECTION
        self.refresher = Refresher(self, session, watch, self.refresh)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt name
        """The title spans the panel (its size is fixed: see ``__init__``)."""
        margins = self.layout().contentsMargins()
        self.title.setFixedWidth(max(1, event.size().width() - margins.left() - margins.right()))
        super().resizeEvent(event)

    def refresh(self) -> None:
        """Redraw from the session's solution and time (keeping the axes while a drag goes on)."""
        session = self.session
        t = session.playback.time
        focus = session.inspection.focus(session.solution, t)
        self.show_parabola(parabola(session.solution, t, focus), inside=focus.sweep.inside, keep_axes=session.dragging)

    def show_parabola(self, data: Parabola, inside: bool = False, keep_axes: bool = False) -> None:
        """Redraw from ``data`` (the curve, roots, vertex, horizon, contact regions, current time).

        With ``keep_axes`` (during a drag) the axes keep their range, and so their
        ticks and labels, while the fitted range stays inside it and fills at
        least :data:`KEEP_FILL` of it: only the curve and markers move.
        """
        self.data = data
        sign = "≥ 0: at the wall" if inside else "≤ 0: touching"
        self.title.setText(f"{data.title()}    ({sign})")
        lo, hi = data.t_range
        self.curve.setData(np.asarray(data.t), np.asarray(data.f))
        self.frame_region.setRegion((data.start, data.horizon))
        self.horizon.setValue(data.horizon)
        spans = data.contact_spans()
        for region, span in zip(self.contact_regions, spans + [None] * (2 - len(spans))):
            region.setVisible(span is not None)
            if span is not None:
                region.setRegion(span)
        self._marks = marks(data)
        self.roots.setData([{"pos": (m.t, m.f), "brush": _brush(m.color)} for m in self._marks if m.name != "vertex"])
        vertex = [m for m in self._marks if m.name == "vertex"]
        self.vertex.setData([m.t for m in vertex], [m.f for m in vertex])
        for name, words in self.words.items():
            mark = next((m for m in self._marks if m.name == name), None)
            if mark is not None and (mark.text, mark.color) != getattr(words, "_shown", None):
                words.setText(mark.text, color=mark.color)  # re-laying out text is the slow part
                words._shown = (mark.text, mark.color)
        self.now.setValue(data.now)
        wanted = ((lo, hi), data.f_range())
        shown = self.plot.getPlotItem().getViewBox().viewRange()
        if keep_axes and all(_still_fits(span, fit) for span, fit in zip(shown, wanted)):
            self.place_words()
            return
        self.plot.setRange(xRange=wanted[0], yRange=wanted[1], padding=0.0)
        self.place_words()  # (again: a range that did not change sends no signal)

    def place_words(self, *_args) -> None:
        """Put each mark's words where :func:`explorer.view.plot_words.place_words` says for the plot's size and
        range now (hidden where there is no room)."""
        view = self.plot.getPlotItem().getViewBox()
        shown = {m.name for m in self._marks}
        sizes = {}
        for mark in self._marks:
            rect = self.words[mark.name].textItem.boundingRect()
            sizes[mark.name] = (rect.width(), rect.height())
        (t0, t1), (f0, f1) = view.viewRange()
        spots = place_words(self._marks, sizes, (view.width(), view.height()), (t0, t1), (f0, f1))
        for name, words in self.words.items():
            spot = spots.get(name) if name in shown else None
            words.setVisible(spot is not None)
            if spot is not None:
                words.setPos(*spot)


#: While dragging, the axes keep their range as long as the fitted range fills at least this much of it.
KEEP_FILL = 0.5


def _still_fits(shown, wanted) -> bool:
    """The fitted range ``wanted`` (lo, hi) lies inside ``shown`` and fills at least :data:`KEEP_FILL` of it."""
    span = shown[1] - shown[0]
    return shown[0] <= wanted[0] and wanted[1] <= shown[1] and wanted[1] - wanted[0] >= KEEP_FILL * span
