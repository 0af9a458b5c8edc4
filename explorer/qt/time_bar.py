"""Time controls: play/pause, step back and forward by Δt, a slider over the time range, the speed.

The slider carries a mark at each event of the motion; a click on a mark
inspects its (first) event, and the inspected event's mark is drawn longer.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QStyle,
    QStyleOptionSlider,
    QWidget,
)

from ..model.actions.session import Change, Session
from ..model.derived.inspection import event_marks, mark_of
from .binding import bind, quietly
from .refresh import Refresher

#: The colour of the event marks on the slider.
MARK_COLOR = QColor("#d62728")
#: A press this close to a mark (pixels, off the handle) chooses the mark.
MARK_REACH = 4


class MarkedSlider(QSlider):
    """A horizontal slider with a mark at each of some positions (the motion's events).

    Signals
    -------
    mark_clicked(int)
        A mark was pressed (its index in :attr:`marks`); the slider does not move.
    """

    mark_clicked = Signal(int)

    def __init__(self) -> None:
        super().__init__(Qt.Horizontal)
        self.marks: list[float] = []  #: positions as fractions of the range, 0 to 1
        self.chosen: int | None = None  #: the mark drawn longer (the inspected event's)

    def set_marks(self, fractions: list[float], chosen: int | None = None) -> None:
        if fractions != self.marks or chosen != self.chosen:
            self.marks, self.chosen = fractions, chosen
            self.update()

    def mark_at(self, x: int) -> int | None:
        """The index of the mark nearest pixel column ``x`` within :data:`MARK_REACH`, or None."""
        if not self.marks:
            return None
        distances = [abs(self.mark_x(fraction) - x) for fraction in self.marks]
        nearest = min(range(len(distances)), key=distances.__getitem__)
        return nearest if distances[nearest] <= MARK_REACH else None

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt name
        option = QStyleOptionSlider()
        self.initStyleOption(option)
        on_handle = self.style().hitTestComplexControl(QStyle.CC_Slider, option, event.position().toPoint(), self)
        mark = self.mark_at(int(event.position().x())) if event.button() == Qt.LeftButton else None
        if mark is not None and on_handle != QStyle.SC_SliderHandle:
            self.mark_clicked.emit(mark)
            event.accept()
            return
        super().mousePressEvent(event)

    def mark_x(self, fraction: float) -> int:
        """The pixel column of a fraction of the range (where the handle's centre would be)."""
        option = QStyleOptionSlider()
        self.initStyleOption(option)
        groove = self.style().subControlRect(QStyle.CC_Slider, option, QStyle.SC_SliderGroove, self)
        handle = self.style().subControlRect(QStyle.CC_Slider, option, QStyle.SC_SliderHandle, self)
        span = groove.width() - handle.width()
        return groove.x() + handle.width() // 2 + int(round(fraction * span))

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt name
        super().paintEvent(event)
        if not self.marks:
            return
        painter = QPainter(self)
        painter.setPen(QPen(MARK_COLOR, 2))
        rect: QRect = self.rect()
        for k, fraction in enumerate(self.marks):
            x = self.mark_x(fraction)
            painter.setPen(QPen(MARK_COLOR, 4 if k == self.chosen else 2))
            painter.drawLine(x, rect.top() + 1, x, rect.top() + rect.height() // (2 if k == self.chosen else 3))
        painter.end()


class TimeBar(QWidget):
    """The session's time and playback, as controls (see the module docstring)."""

    #: Slider resolution (positions over the time range).
    STEPS = 1000
    SPEEDS = (("¼×", 0.25), ("½×", 0.5), ("1×", 1.0), ("2×", 2.0), ("4×", 4.0))

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setAutoFillBackground(True)  # opaque: the moving slider repaints the bar, not the window under it
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        self.play = QPushButton("▶ Play")
        self.play.setCheckable(True)
        self.play.toggled.connect(session.set_playing)
        self.back = QPushButton("◀ Δt")
        self.forward = QPushButton("Δt ▶")
        self.step = QDoubleSpinBox()
        self.step.setDecimals(4)
        self.step.setRange(1e-4, 1e6)
        self.step.setPrefix("Δt = ")
        self.slider = MarkedSlider()
        self.slider.setToolTip("Time; red marks: the motion's events (click one to inspect it)")
        self.slider.setRange(0, self.STEPS)
        self.label = QLabel("t = 0")
        self.label.setMinimumWidth(110)
        self.speed = QComboBox()
        for text, value in self.SPEEDS:
            self.speed.addItem(text, value)
        self.speed.activated.connect(lambda _i: session.set_speed(float(self.speed.currentData())))
        bind(session.playback, Change.PLAYING, self.speed, self._show_speed)
        bind(session.playback, Change.PLAYING, self.play, self._show_playing)
        for widget in (
            self.play,
            self.back,
            self.forward,
            self.step,
            self.slider,
            self.label,
            QLabel("speed"),
            self.speed,
        ):
            layout.addWidget(widget)
        layout.setStretch(4, 1)
        self._range: tuple[float, float] | None = None
        self.mark_events: list[int] = []  #: the first event at each mark
        self.slider.valueChanged.connect(self._slid)
        self.slider.mark_clicked.connect(lambda k: session.inspect(event=self.mark_events[k]))
        self.back.clicked.connect(lambda: session.set_time(session.playback.time - self.step.value()))
        self.forward.clicked.connect(lambda: session.set_time(session.playback.time + self.step.value()))
        self.refresher = Refresher(self, session, Change.SCENE | Change.TIME | Change.INSPECTION | Change.ASK,
                                   self.refresh)  # fmt: skip

    def _show_speed(self) -> None:
        """The held speed in the box: its entry, or the value itself when it has none."""
        speed = self.session.playback.speed
        index = self.speed.findData(speed)
        if index < 0:
            self.speed.addItem(f"{speed:g}×", speed)
            index = self.speed.count() - 1
        self.speed.setCurrentIndex(index)

    def _show_playing(self) -> None:
        playing = self.session.playback.playing
        self.play.setChecked(playing)
        self.play.setText("❚❚ Pause" if playing else "▶ Play")

    def _slid(self, value: int) -> None:
        lo, hi = self.session.time_range()
        t = lo + (hi - lo) * value / self.STEPS
        if abs(t - self.session.playback.time) > 1e-15 * max(1.0, abs(hi)):
            self.session.set_time(t)

    def refresh(self) -> None:
        """Reflect the session's time, range and play state without echoing them back."""
        session = self.session
        t, horizon = session.playback.time, session.scene.horizon
        lo, hi = session.time_range()
        if (lo, hi) != self._range:
            self._range = (lo, hi)
            self.step.setValue(horizon / 20.0)
        quietly(
            self.slider, lambda: self.slider.setValue(int(round((t - lo) / (hi - lo) * self.STEPS)) if hi > lo else 0)
        )
        self.label.setText(f"t = {t:.4g}" + ("  (after h)" if t > horizon else ""))
        asking = session.asking.asking  # the time stays at 0 and the events (the answer) are not marked
        for widget in (self.play, self.back, self.forward, self.slider):
            widget.setEnabled(not asking)
        fractions, self.mark_events = ([], []) if session.asking.hides_answers else event_marks(
            session.solution.events, (lo, hi))  # fmt: skip
        self.slider.set_marks(
            fractions, mark_of(session.solution, self.mark_events, session.inspection.active(session.solution, t))
        )
