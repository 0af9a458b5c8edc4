"""The panels around the 3-D view: values, scene editing, layer toggles."""

from __future__ import annotations

import html
import math
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from solver import Status

from ..model.analysis import Solution
from ..model.text import fmt, polynomial, root_label, status_text
from ..model.scene import LAYERS, MAX_BODIES, Scene

LAYER_TITLES = {
    "capsules": "Swept capsules",
    "minkowski": "Expanded / shrunken sphere",
    "roots": "Roots t₀, t₁ (ghosts, markers)",
    "contact": "Contact point and normal",
    "reflection": "Reflected path",
    "labels": "Labels",
    "axes": "Axes and grid",
}


def _vec(v) -> str:
    return "(" + ", ".join(fmt(x) for x in v) + ")"


class ValuesPanel(QScrollArea):
    """Status, trace and every number of the current solution, in plain words."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        box = QWidget()
        layout = QVBoxLayout(box)
        self.status_label = QLabel()
        self.status_label.setObjectName("status")
        self.status_label.setWordWrap(True)
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
        self.setMinimumWidth(330)

    def show_solution(self, scene: Scene, solution: Solution) -> None:
        """Fill the panel from ``solution``."""
        s = solution.sweep
        self.status_label.setText(status_text(scene, solution))
        color = {Status.HIT: "#11803f", Status.OVERLAPPING: "#c01818"}.get(s.status, "#333333")
        self.status_label.setStyleSheet(f"font-size: 15px; font-weight: bold; color: {color};")
        a, b, c = s.coefficients
        rows: list[tuple[str, str]] = []
        rows.append(("decided", "exactly (integer arithmetic)" if s.exact else "float64, error-bounded"))
        rows.append(("f(t)", polynomial(a, b, c)))
        rows.append(("R", fmt(s.radius) + (" = rC − rA" if s.inside else " = rA + rB")))
        rows.append(("discriminant", "—" if s.discriminant is None else fmt(s.discriminant)))
        if s.roots is None:
            rows.append(("roots", "none (no real root)"))
        else:
            for k, root in enumerate(s.roots):
                where = "in [0, h]" if 0 <= root <= scene.horizon else "outside [0, h]"
                rows.append((root_label(k), f"{fmt(root)}  ({where})"))
        rows.append(("toi", "none" if s.toi is None else fmt(s.toi)))
        if s.t_min is not None:
            rows.append(("vertex t_min", fmt(s.t_min)))
        closest = s.closest
        rows.append(("closest approach", f"{fmt(closest.distance)} at t = {fmt(closest.time)} (gap {fmt(closest.gap)})"))
        contact = s.contact
        if contact is not None:
            rows.append(("contact point", _vec(contact.point)))
            rows.append(("contact normal", _vec(contact.normal) + (" (centres coincide)" if contact.degenerate else "")))
        imp = solution.impact
        if imp is not None:
            rows.append(("frames to hit", fmt(imp.time)))
            rows.append(("distance to hit", fmt(imp.distance)))
            rows.append(("reflected velocity", _vec(imp.reflected)))
            angle = "—" if imp.ricochet_angle is None else f"{fmt(math.degrees(imp.ricochet_angle))}°"
            rows.append(("ricochet angle", angle + " to the tangent plane"))
            names = scene.bodies[0].name, scene.bodies[solution.other].name
            rows.append((f"{names[0]} after", _vec(imp.a_after)))
            rows.append((f"{names[1]} after", _vec(imp.b_after)))
        path = solution.path
        bounce_text = f"{len(path.bounces)} bounce(s) before the horizon"
        if path.stopped:
            bounce_text += f"; {path.stopped}"
        rows.append(("path", bounce_text))
        table = "".join(
            f"<tr><td style='color:#555;padding-right:8px'>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in rows
        )
        trace = "".join(
            f"<li>{html.escape(step.question)} <i>{html.escape(step.quantity)}</i> = {html.escape(fmt(step.value))}"
            f"<br>→ {html.escape(step.answer)}</li>"
            for step in s.trace
        )
        others = ""
        if len(solution.sweeps) > 1:
            items = "".join(
                f"<li>{html.escape(scene.bodies[0].name)}–{html.escape(scene.bodies[k + 1].name)}: "
                f"{html.escape(sk.status.label)}{'' if sk.toi is None else ' at ' + fmt(sk.toi)}</li>"
                for k, sk in enumerate(solution.sweeps)
            )
            others = f"<p><b>Every pair</b></p><ul style='margin-left:-20px'>{items}</ul>"
        self.body_label.setText(
            f"<table>{table}</table><p><b>How it was decided</b></p><ol style='margin-left:-20px'>{trace}</ol>{others}"
        )


class NumberField(QLineEdit):
    """A line edit holding one number; emits ``committed(text)`` when the user finishes typing."""

    committed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._shown = ""
        self.editingFinished.connect(self._finished)

    def show_value(self, value: float) -> None:
        """Display ``value`` unless the user is typing in this field."""
        text = f"{value:.10g}"
        self._shown = text
        if not self.hasFocus() or not self.isModified():
            self.setText(text)
            self.setModified(False)

    def revert(self) -> None:
        """Put back the last value shown."""
        self.setText(self._shown)
        self.setModified(False)

    def _finished(self) -> None:
        if self.isModified():
            self.setModified(False)
            self.committed.emit(self.text())


def parse_number(text: str, field: str) -> float:
    """The typed text as a finite float, or ``ValueError`` naming ``field``."""
    try:
        value = float(text.strip().replace(",", "."))
    except ValueError:
        raise ValueError(f"{field}: {text.strip()!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{field}: must be finite")
    return value


class ScenePanel(QWidget):
    """Editable numbers of the scene: the selected body, the horizon, restitution and mode.

    Signals
    -------
    edit(field, text)
        ``field`` is e.g. ``"body.center.0"``, ``"body.radius"``, ``"horizon"``;
        the window validates and applies it.
    """

    edit = Signal(str, str)
    mode_changed = Signal(str)
    fixed_changed = Signal(bool)
    add_body = Signal()
    remove_body = Signal()
    body_selected = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-weight: bold; font-size: 14px;")
        self.description = QLabel()
        self.description.setObjectName("description")
        self.description.setWordWrap(True)
        self.description.setStyleSheet("color: #333;")
        layout.addWidget(self.title)
        layout.addWidget(self.description)

        scene_box = QGroupBox("Scene")
        form = QFormLayout(scene_box)
        self.mode = QComboBox()
        self.mode.addItem("pair: A against the others", "pair")
        self.mode.addItem("inside: A in container B", "inside")
        self.mode.activated.connect(lambda _i: self.mode_changed.emit(self.mode.currentData()))
        self.horizon = NumberField()
        self.restitution = NumberField()
        self.horizon.committed.connect(lambda text: self.edit.emit("horizon", text))
        self.restitution.committed.connect(lambda text: self.edit.emit("restitution", text))
        form.addRow("mode", self.mode)
        form.addRow("horizon h", self.horizon)
        form.addRow("restitution e", self.restitution)
        layout.addWidget(scene_box)

        body_box = QGroupBox("Body")
        grid = QGridLayout(body_box)
        self.body = QComboBox()
        self.body.activated.connect(lambda i: self.body_selected.emit(i))
        grid.addWidget(self.body, 0, 0, 1, 4)
        self.center = [NumberField() for _ in range(3)]
        self.velocity = [NumberField() for _ in range(3)]
        for row, (label, fields, key) in enumerate((("centre", self.center, "center"), ("velocity", self.velocity, "velocity")), 1):
            grid.addWidget(QLabel(label), row, 0)
            for k, field in enumerate(fields):
                field.setPlaceholderText("xyz"[k])
                field.committed.connect(lambda text, key=key, k=k: self.edit.emit(f"body.{key}.{k}", text))
                grid.addWidget(field, row, 1 + k)
        self.radius = NumberField()
        self.mass = NumberField()
        self.radius.committed.connect(lambda text: self.edit.emit("body.radius", text))
        self.mass.committed.connect(lambda text: self.edit.emit("body.mass", text))
        self.fixed = QCheckBox("fixed (infinite mass)")
        self.fixed.clicked.connect(lambda checked: self.fixed_changed.emit(checked))
        grid.addWidget(QLabel("radius"), 3, 0)
        grid.addWidget(self.radius, 3, 1)
        grid.addWidget(QLabel("mass"), 3, 2)
        grid.addWidget(self.mass, 3, 3)
        grid.addWidget(self.fixed, 4, 1, 1, 3)
        buttons = QHBoxLayout()
        self.add_button = QPushButton("Add body")
        self.remove_button = QPushButton("Remove body")
        self.add_button.clicked.connect(self.add_body.emit)
        self.remove_button.clicked.connect(self.remove_body.emit)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        grid.addLayout(buttons, 5, 0, 1, 4)
        layout.addWidget(body_box)
        layout.addStretch(1)
        self.setMinimumWidth(300)

    def fields(self) -> dict[str, NumberField]:
        """Every number field by its edit name."""
        out = {"horizon": self.horizon, "restitution": self.restitution, "body.radius": self.radius, "body.mass": self.mass}
        for k in range(3):
            out[f"body.center.{k}"] = self.center[k]
            out[f"body.velocity.{k}"] = self.velocity[k]
        return out

    def show_scene(self, scene: Scene, selected: int) -> None:
        """Display ``scene`` with body ``selected`` in the body box."""
        self.title.setText(scene.title or "Untitled scene")
        self.description.setText(scene.description)
        self.mode.setCurrentIndex(0 if scene.mode == "pair" else 1)
        self.horizon.show_value(scene.horizon)
        self.restitution.show_value(scene.restitution)
        names = [f"{i}: {b.name}" + (" (container)" if scene.mode == "inside" and i == 1 else "") for i, b in enumerate(scene.bodies)]
        if [self.body.itemText(i) for i in range(self.body.count())] != names:
            self.body.clear()
            self.body.addItems(names)
        self.body.setCurrentIndex(selected)
        body = scene.bodies[selected]
        for k in range(3):
            self.center[k].show_value(body.center[k])
            self.velocity[k].show_value(body.velocity[k])
        self.radius.show_value(body.radius)
        self.fixed.setChecked(body.fixed)
        self.mass.setEnabled(not body.fixed)
        if not body.fixed:
            self.mass.show_value(body.mass)
        else:
            self.mass.setText("∞")
        self.add_button.setEnabled(scene.mode == "pair" and len(scene.bodies) < MAX_BODIES)
        self.remove_button.setEnabled(selected > 0 and len(scene.bodies) > 2)


class LayersPanel(QWidget):
    """A check box per view layer; ``toggled(name, visible)`` when one changes."""

    toggled = Signal(str, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        self.boxes: dict[str, QCheckBox] = {}
        for name, default in LAYERS.items():
            box = QCheckBox(LAYER_TITLES[name])
            box.setChecked(default)
            box.toggled.connect(lambda on, name=name: self.toggled.emit(name, on))
            layout.addWidget(box)
            self.boxes[name] = box
        layout.addStretch(1)

    def show_layers(self, layers: dict[str, bool]) -> None:
        """Reflect ``layers`` without emitting ``toggled``."""
        for name, box in self.boxes.items():
            box.blockSignals(True)
            box.setChecked(layers.get(name, True))
            box.blockSignals(False)


class TimeBar(QWidget):
    """Time controls: play/pause, step back and forward by Δt, a slider, the speed.

    Signals
    -------
    time_changed(float)
        The user moved the slider or stepped.
    play_toggled(bool)
    """

    time_changed = Signal(float)
    play_toggled = Signal(bool)

    #: Slider resolution (positions over the time range).
    STEPS = 1000
    SPEEDS = (("¼×", 0.25), ("½×", 0.5), ("1×", 1.0), ("2×", 2.0), ("4×", 4.0))

    def __init__(self, parent: QWidget | None = None) -> None:
        from PySide6.QtWidgets import QDoubleSpinBox, QSlider

        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        self.play = QPushButton("▶ Play")
        self.play.setCheckable(True)
        self.play.toggled.connect(self._toggled)
        self.back = QPushButton("◀ Δt")
        self.forward = QPushButton("Δt ▶")
        self.step = QDoubleSpinBox()
        self.step.setDecimals(4)
        self.step.setRange(1e-4, 1e6)
        self.step.setPrefix("Δt = ")
        self.slider = QSlider(Qt.Horizontal)
        self.slider.setRange(0, self.STEPS)
        self.label = QLabel("t = 0")
        self.label.setMinimumWidth(120)
        self.speed = QComboBox()
        for text, value in self.SPEEDS:
            self.speed.addItem(text, value)
        self.speed.setCurrentIndex(2)
        for widget in (self.play, self.back, self.forward, self.step, self.slider, self.label, QLabel("speed"), self.speed):
            layout.addWidget(widget)
        layout.setStretch(4, 1)
        self.t_range = (0.0, 1.0)
        self.time = 0.0
        self.slider.valueChanged.connect(self._slid)
        self.back.clicked.connect(lambda: self.time_changed.emit(self._clamp(self.time - self.step.value())))
        self.forward.clicked.connect(lambda: self.time_changed.emit(self._clamp(self.time + self.step.value())))

    def _toggled(self, on: bool) -> None:
        self.play.setText("❚❚ Pause" if on else "▶ Play")
        self.play_toggled.emit(on)

    def _clamp(self, t: float) -> float:
        return min(max(t, self.t_range[0]), self.t_range[1])

    def _slid(self, value: int) -> None:
        lo, hi = self.t_range
        t = lo + (hi - lo) * value / self.STEPS
        if abs(t - self.time) > 1e-15 * max(1.0, abs(hi)):
            self.time_changed.emit(t)

    def show_time(self, t: float, t_range: tuple[float, float], horizon: float) -> None:
        """Reflect time ``t`` in ``t_range`` without emitting ``time_changed``."""
        if t_range != self.t_range:
            self.t_range = t_range
            self.step.setValue(horizon / 20.0)
        self.time = t
        lo, hi = t_range
        self.slider.blockSignals(True)
        self.slider.setValue(int(round((t - lo) / (hi - lo) * self.STEPS)) if hi > lo else 0)
        self.slider.blockSignals(False)
        self.label.setText(f"t = {t:.4g}" + ("  (after h)" if t > horizon else ""))

    def set_playing(self, on: bool) -> None:
        """Show the play state without emitting ``play_toggled``."""
        self.play.blockSignals(True)
        self.play.setChecked(on)
        self.play.setText("❚❚ Pause" if on else "▶ Play")
        self.play.blockSignals(False)
