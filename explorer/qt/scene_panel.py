"""The scene panel: the scene's title and description, and its numbers to type (mode, horizon, restitution, the selected body)."""

from __future__ import annotations

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

from ..model.actions.session import Change, Session
from ..model.state.scene import MAX_BODIES, Scene, SceneError
from ..model.words.scene_form import field_text
from ..model.words.text import refusal
from .refresh import Refresher


class NumberField(QLineEdit):
    """A line edit holding one number; emits ``committed(text)`` when the user finishes typing."""

    committed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._shown = ""
        self.editingFinished.connect(self._finished)

    def show_value(self, value: float) -> None:
        """Display ``value`` unless the user is typing in this field."""
        text = field_text(value)
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


class ScenePanel(QScrollArea):
    """Editable numbers of the session's scene: the selected body, the horizon, restitution and mode.

    Every change goes to the session; a refused one puts the old value back and
    is reported through ``refused``.

    Signals
    -------
    refused(str)
        The message naming the field and the problem.
    """

    refused = Signal(str)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.NoFrame)
        box = QWidget()
        layout = QVBoxLayout(box)
        self._add_heading(layout)
        layout.addWidget(self._scene_box())
        layout.addWidget(self._body_box())
        layout.addStretch(1)
        self.setWidget(box)
        for name, field in self.fields().items():
            field.committed.connect(lambda text, name=name: self._edit(name, text))
        self.refresher = Refresher(self, session, Change.SCENE | Change.SELECTION, self.refresh)

    def _add_heading(self, layout: QVBoxLayout) -> None:
        """The scene's title and description (the user's text, never markup)."""
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.PlainText)
        self.title.setStyleSheet("font-weight: bold; font-size: 14px;")
        self.description = QLabel()
        self.description.setObjectName("description")
        self.description.setWordWrap(True)
        self.description.setTextFormat(Qt.PlainText)
        self.description.setStyleSheet("color: #333;")
        layout.addWidget(self.title)
        layout.addWidget(self.description)

    def _scene_box(self) -> QGroupBox:
        """Mode, horizon and restitution."""
        session = self.session
        scene_box = QGroupBox("Scene")
        form = QFormLayout(scene_box)
        self.mode = QComboBox()
        self.mode.addItem("pair: A against the others", "pair")
        self.mode.addItem("inside: A in container B", "inside")
        self.mode.addItem("all: every body against every other", "all")
        self.mode.activated.connect(lambda _i: self._attempt(session.set_mode, self.mode.currentData()))
        self.horizon = NumberField()
        self.restitution = NumberField()
        form.addRow("mode", self.mode)
        form.addRow("horizon h", self.horizon)
        form.addRow("restitution e", self.restitution)
        return scene_box

    def _body_box(self) -> QGroupBox:
        """The selected body's numbers, its flags, and adding or removing a body."""
        session = self.session
        body_box = QGroupBox("Body")
        grid = QGridLayout(body_box)
        self.body = QComboBox()
        self.body.activated.connect(lambda i: self._attempt(session.select, i))
        grid.addWidget(self.body, 0, 0, 1, 4)
        self.center = [NumberField() for _ in range(3)]
        self.velocity = [NumberField() for _ in range(3)]
        for row, (label, fields) in enumerate((("centre", self.center), ("velocity", self.velocity)), 1):
            grid.addWidget(QLabel(label), row, 0)
            for k, field in enumerate(fields):
                field.setPlaceholderText("xyz"[k])
                grid.addWidget(field, row, 1 + k)
        self.radius = NumberField()
        self.mass = NumberField()
        self.fixed = QCheckBox("fixed (infinite mass)")
        self.fixed.clicked.connect(lambda checked: self._attempt(session.set_fixed, checked))
        self.container = QCheckBox("the container (all mode)")
        self.container.setToolTip("Every other body moves inside this one and bounces off its wall")
        self.container.clicked.connect(lambda checked: self._attempt(session.set_container, checked))
        grid.addWidget(QLabel("radius"), 3, 0)
        grid.addWidget(self.radius, 3, 1)
        grid.addWidget(QLabel("mass"), 3, 2)
        grid.addWidget(self.mass, 3, 3)
        grid.addWidget(self.fixed, 4, 1, 1, 3)
        grid.addWidget(self.container, 5, 1, 1, 3)
        buttons = QHBoxLayout()
        self.add_button = QPushButton("Add body")
        self.remove_button = QPushButton("Remove body")
        self.add_button.clicked.connect(lambda: self._attempt(session.add_body))
        self.remove_button.clicked.connect(lambda: self._attempt(session.remove_body))
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        grid.addLayout(buttons, 6, 0, 1, 4)
        return body_box

    def fields(self) -> dict[str, NumberField]:
        """Every number field by its edit name (see :data:`explorer.model.actions.session.FIELDS`)."""
        out = {
            "horizon": self.horizon,
            "restitution": self.restitution,
            "body.radius": self.radius,
            "body.mass": self.mass,
        }
        for k in range(3):
            out[f"body.center.{k}"] = self.center[k]
            out[f"body.velocity.{k}"] = self.velocity[k]
        return out

    def _attempt(self, action, *args) -> bool:
        try:
            action(*args)
        except SceneError as exc:
            self.refused.emit(refusal(exc))
            self.refresh()  # back to what the scene holds
            return False
        return True

    def _edit(self, field: str, text: str) -> None:
        if not self._attempt(self.session.edit_field, field, text):
            self.fields()[field].revert()

    def refresh(self) -> None:
        """Show the session's scene with the selected body in the body box."""
        self.show_scene(self.session.scene, self.session.selection.selected)

    def show_scene(self, scene: Scene, selected: int) -> None:
        """Display ``scene`` with body ``selected`` in the body box."""
        self.title.setText(scene.title or "Untitled scene")
        self.description.setText(scene.description)
        self.mode.setCurrentIndex(self.mode.findData(scene.mode))
        self.horizon.show_value(scene.horizon)
        self.restitution.show_value(scene.restitution)
        names = [
            f"{i}: {b.name}" + (" (container)" if i == scene.container else "") for i, b in enumerate(scene.bodies)
        ]
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
        self.container.setChecked(body.container)
        self.container.setEnabled(scene.mode == "all" and selected > 0)
        self.add_button.setEnabled(scene.mode != "inside" and len(scene.bodies) < MAX_BODIES)
        self.remove_button.setEnabled(selected > 0 and len(scene.bodies) > 2)
